/**
 * The map runtime as the plugin loads it (the `cairn-map-runtime` chunk): the package's
 * `createMap` with mapbox-gl bundled beside it and its stylesheet, for the front-end loader, the
 * editor preview and the marker Location panel. Headless pages get the same runtime from the npm
 * package, where mapbox-gl loads lazily instead.
 */
import mapboxgl from 'mapbox-gl';
import 'mapbox-gl/dist/mapbox-gl.css';

import {
	createMap as createRuntimeMap,
	type CairnMap,
	type CreateMapOptions,
} from '../../../packages/map/src/create-map';

export type { CairnMap };

export function createMap(
	container: unknown,
	config: unknown,
	options: Omit< CreateMapOptions, 'mapLib' > = {}
): CairnMap {
	return createRuntimeMap( container, config, {
		...options,
		mapLib: mapboxgl,
	} );
}
