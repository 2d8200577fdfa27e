/**
 * The package `@cairn-maps/map`: the Cairn Maps runtime for any front end. Safe to import during server-side
 * rendering: nothing here touches `window` until a map is created, and mapbox-gl loads only then.
 */
export { createMap } from './start';
export type { AppMapOptions as CreateMapOptions } from './start';
export type { CairnMap } from './create-map';
export { hydrate } from './hydrate';
export { setMapLibreWorkerUrl } from './load-map-lib';
export type { HydrateOptions } from './hydrate';
export {
	fetchPostMaps,
	parsePostMaps,
	postMapsUrl,
	PostMapsError,
} from './fetch-post-maps';
export type { FetchPostMapsOptions } from './fetch-post-maps';
export { parseMapConfig } from './config';
export { checkToken } from './token';
// A place's address in the visitor's map app, as the "Directions" links give it (@since 0.9.0).
export { directionsUrl } from './directions';
export { MapError, errorMessage, showError } from './errors';
export type * from './types';
export type {
	PlacesController,
	PlacesState,
	PlacesChangeDetail,
} from './places/controller';
