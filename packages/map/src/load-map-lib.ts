/**
 * mapbox-gl, loaded the first time a map needs it: importing the package (during server-side
 * rendering too) never loads it, and an app that never shows a map never downloads it.
 */
import type { MapLibSource } from './types';

let loading: MapLibSource | null = null;

export function loadMapLib(): MapLibSource {
	loading ??= import( 'mapbox-gl' );
	return loading;
}
