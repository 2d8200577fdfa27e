/**
 * The plugin's map library for a configuration: mapbox-gl from Mapbox's distribution for engine
 * `mapbox` (load-mapbox-gl.ts), maplibre-gl from the plugin's own chunk for engine `maplibre`
 * (load-maplibre-gl.ts). The one place the plugin's loaders read `config.engine`; the runtime
 * itself tells the libraries apart by what it is given.
 */
import type { Map as MapboxMap } from 'mapbox-gl';
import type { MapLib } from '@cairn-maps/map';
import { engineOf } from '@cairn-maps/map/plugin';

import type { MapboxGl } from './load-mapbox-gl';

import { loadMapboxGl } from './load-mapbox-gl';
import { loadMaplibreGl } from './load-maplibre-gl';

export type EngineName = 'mapbox' | 'maplibre';

const LOADERS: Record< EngineName, ( doc: Document ) => Promise< MapLib > > = {
	mapbox: loadMapboxGl,
	maplibre: loadMaplibreGl,
};

/**
 * The engine a rendered or fetched configuration names (absent or unknown: mapbox).
 * @param config
 */
export function configEngine( config: unknown ): EngineName {
	const engine = ( config as { engine?: unknown } | null )?.engine;
	return engine === 'maplibre' ? 'maplibre' : 'mapbox';
}

/**
 * The library for an engine, in `doc`.
 * @param engine
 * @param doc
 */
export function loadMapLibrary(
	engine: EngineName,
	doc: Document = document
): Promise< MapLib > {
	return LOADERS[ engine ]( doc );
}

/**
 * The library that drew a map (its `Marker` for the editor's own objects); rejects for a map the
 * runtime did not make.
 * @param map
 */
export function libraryOf( map: MapboxMap ): Promise< MapboxGl > {
	const lib = engineOf( map ).lib as unknown as MapboxGl | undefined;
	return typeof lib?.Marker === 'function'
		? Promise.resolve( lib )
		: Promise.reject( new Error( 'No map library for this map.' ) );
}
