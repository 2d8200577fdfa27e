/**
 * The one place that tells the engines apart: the adapter for a configuration (before any library
 * is loaded: its token rules) and for the library a host passed. maplibre-gl is recognised by its
 * `addProtocol` (mapbox-gl has none), mapbox-gl by anything else with a `Map`.
 */
import type { MapConfig, MapErrorCode, MapLib } from '../types';
import { mapboxEngine, refuseToken } from './mapbox';
import type { EngineName, MapEngine } from './types';

const adapters = new WeakMap< object, MapEngine | Promise< MapEngine > >();

/**
 * Which library a host passed.
 * @param lib
 */
export function libraryEngine( lib: MapLib ): EngineName {
	return typeof ( lib as { addProtocol?: unknown } ).addProtocol ===
		'function'
		? 'maplibre'
		: 'mapbox';
}

/**
 * The adapter for a library (one per library object). maplibre-gl's comes with its own chunk
 * (with the plugin's maplibre-gl), so a page of Mapbox maps never downloads it.
 * @param lib
 */
export function selectEngine( lib: MapLib ): MapEngine | Promise< MapEngine > {
	let adapter = adapters.get( lib );
	if ( ! adapter ) {
		adapter =
			libraryEngine( lib ) === 'maplibre'
				? import(
						/* webpackChunkName: "cairn-map-maplibre" */ './maplibre'
					).then( ( { maplibreEngine } ) => maplibreEngine( lib ) )
				: mapboxEngine( lib );
		adapters.set( lib, adapter );
	}
	return adapter;
}

/**
 * What the configuration's engine refuses before its library is loaded (and before the visitor's
 * consent is asked): mapbox-gl's token rules; maplibre-gl needs no token.
 * @param config
 */
export function refuseBeforeLoad(
	config: Pick< MapConfig, 'engine' | 'accessToken' >
): MapErrorCode | null {
	return config.engine === 'mapbox'
		? refuseToken( config.accessToken )
		: null;
}

/**
 * A library, from what a host passed: the default export itself, or a module namespace (its
 * `default`, when it has no `Map` of its own).
 * @param lib
 */
export function unwrapLib( lib: MapLib | { default: MapLib } ): MapLib {
	const inner = ( lib as { default?: MapLib } ).default;
	return typeof ( lib as Partial< MapLib > ).Map !== 'function' && inner
		? inner
		: ( lib as MapLib );
}
