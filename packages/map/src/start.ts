/**
 * `createMap` for apps: the runtime with the config's engine's library (mapbox-gl or maplibre-gl)
 * loaded lazily unless the caller passes its own.
 */
import {
	createMap as createRuntimeMap,
	type CairnMap,
	type CreateMapOptions,
} from './create-map';
import { loadMapLib } from './load-map-lib';
import type { MapLibSource } from './types';

export type AppMapOptions = Omit< CreateMapOptions, 'mapLib' > & {
	/**
	 * mapbox-gl or maplibre-gl (or a compatible build), its module, or a promise of it. Default:
	 * the config's engine's library, imported when the map starts.
	 */
	mapLib?: MapLibSource;
};

/**
 * Creates a map in `container` from a configuration (`data-cairn-config`, or a `config` from the
 * REST API). See the package's README for the events and states.
 *
 * @param container The element to draw in.
 * @param config    The configuration.
 * @param options   Host element, map library, access token, consent already given.
 */
export function createMap(
	container: unknown,
	config: unknown,
	options: AppMapOptions = {}
): CairnMap {
	return createRuntimeMap( container, config, {
		...options,
		// Loaded when the map starts: after the visitor's consent when the site asks for it.
		mapLib: options.mapLib ?? loadMapLib,
	} );
}
