/**
 * What a map with places loads beside the runtime (a chunk of its own, fetched while the style
 * loads): the places client (the worker's, or the server's for a tiled map), the controller,
 * the popups, and what keeps the first clusters quick (first-draw.ts).
 */
import { createPlacesClient, type PlacesClient } from './client';
import type { PrefetchedTiles } from './prefetch-tiles';
import { createTiledClient } from './tiled-client';
import type { MapConfig } from '../types';

export { PopupController } from '../popup';
export { addMarkersLayer } from '../markers-layer';
export { createPlacesClient } from './client';
export { createTiledClient } from './tiled-client';
export { firstView, prefetchTiles } from './prefetch-tiles';
export { PlacesController, placesEngineOptions } from './controller';
export { panelTime, showPlaces } from './first-draw';

/**
 * The map's places client: a tiled map's asks the server for each view (its `load()` ignores the
 * feeds: it reads the summary and the first view's tiles); any other map's reads its feeds.
 * @param config
 * @param tiles  A tiled map's first answers, already on their way.
 */
export function createClientFor(
	config: MapConfig,
	tiles?: PrefetchedTiles | null
): PlacesClient {
	return config.tilesUrl
		? createTiledClient( config, { prefetched: tiles } )
		: createPlacesClient();
}
