/**
 * What a map with places loads beside the runtime (a chunk of its own, fetched while the style
 * loads): the places worker's client, the controller and the popups, and what keeps the
 * first clusters quick (first-draw.ts).
 */
export { PopupController } from '../popup';
export { createPlacesClient } from './client';
export { PlacesController, placesEngineOptions } from './controller';
export { panelTime, showPlaces } from './first-draw';
