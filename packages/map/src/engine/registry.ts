/**
 * Which engine drew a map: createMap records it, and code that only holds the map (the places
 * controller, the markers layer, the shapes, the editor) asks here instead of testing the library.
 * A map the runtime did not make (a host's own, a test's stand-in) is taken for mapbox-gl's, as
 * before there were two engines.
 */
import { mapboxEngine } from './mapbox';
import type { EngineMap, MapEngine } from './types';

const engines = new WeakMap< object, MapEngine >();

/**
 * @param map
 * @param engine
 */
export function registerEngine( map: EngineMap, engine: MapEngine ): void {
	engines.set( map, engine );
}

/** @param map */
export function engineOf( map: EngineMap ): MapEngine {
	return engines.get( map ) ?? mapboxEngine();
}
