/**
 * What a map with places loads beside the runtime (a chunk of its own, fetched while the style
 * loads): the places worker's client, the controller and the popups.
 */
export { PopupController } from '../popup';
export { createPlacesClient } from './client';
export { PlacesController, placesEngineOptions } from './controller';
