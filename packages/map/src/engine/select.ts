/**
 * The one place that tells the engines apart: the adapter for a configuration (before any library
 * is loaded: its token rules) and for the library a host passed. maplibre-gl is recognised by its
 * `addProtocol` (mapbox-gl has none), mapbox-gl by anything else with a `Map`.
 */
import type { MapLib } from '../types';
import { mapboxEngine } from './mapbox';
import { maplibreEngine } from './maplibre';
import type { EngineName, MapEngine } from './types';

const adapters = new WeakMap< object, MapEngine >();

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
 * The adapter for a library (one per library object).
 * @param lib
 */
export function selectEngine( lib: MapLib ): MapEngine {
	let adapter = adapters.get( lib );
	if ( ! adapter ) {
		adapter =
			libraryEngine( lib ) === 'maplibre'
				? maplibreEngine( lib )
				: mapboxEngine( lib );
		adapters.set( lib, adapter );
	}
	return adapter;
}

/**
 * An engine's rules without its library: what is refused before the library loads.
 * @param name
 */
export function engineRules( name: EngineName ): MapEngine {
	return name === 'maplibre' ? maplibreEngine() : mapboxEngine();
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
