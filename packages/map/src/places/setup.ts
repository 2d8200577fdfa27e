/**
 * What a map with places loads beside the runtime (a chunk of its own, fetched while the style
 * loads): the places worker's client and the controller.
 */
export { createPlacesClient } from './client';
export { PlacesController, placesEngineOptions } from './controller';
