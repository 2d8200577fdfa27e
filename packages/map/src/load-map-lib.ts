/**
 * The map library of an engine, loaded the first time a map needs it: importing the package
 * (during server-side rendering too) never loads one, an app that never shows a map downloads
 * none, and an app whose maps all use MapLibre never downloads mapbox-gl (nor the other way
 * round). Each is its own chunk in the app's bundler.
 */
import type { EngineName } from './engine/types';
import type { MapLibSource } from './types';

const loading: Partial< Record< EngineName, MapLibSource > > = {};

let mapLibreWorker = '';

/**
 * Where maplibre-gl's worker is served from, for the maplibre-gl this package imports itself.
 * maplibre-gl looks for `maplibre-gl-worker.mjs` beside its own module, which an app's bundle does
 * not have: serve `maplibre-gl/dist/maplibre-gl-worker.mjs` from the app (for example from
 * Next.js's `public/`) and name its address here, before the first map starts. A `mapLib` the app
 * passes itself is used as it is (set its worker with its own `setWorkerUrl`).
 *
 * @param url The worker's address (absolute, or relative to the page).
 */
export function setMapLibreWorkerUrl( url: string ): void {
	mapLibreWorker = url;
}

/**
 * @param engine The configuration's engine (`config.engine`). Default: mapbox.
 */
export function loadMapLib( engine: EngineName = 'mapbox' ): MapLibSource {
	loading[ engine ] ??=
		engine === 'maplibre'
			? ( import( 'maplibre-gl' ).then( ( lib ) => {
					if ( mapLibreWorker ) {
						lib.setWorkerUrl(
							new URL( mapLibreWorker, document.baseURI ).href
						);
					}
					return lib;
				} ) as unknown as MapLibSource )
			: import( 'mapbox-gl' );
	return loading[ engine ] as MapLibSource;
}
