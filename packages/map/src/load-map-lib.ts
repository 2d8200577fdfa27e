/**
 * The map library of an engine, loaded the first time a map needs it: importing the package
 * (during server-side rendering too) never loads one, an app that never shows a map downloads
 * none, and an app whose maps all use MapLibre never downloads mapbox-gl (nor the other way
 * round). Each is its own chunk in the app's bundler.
 */
import type { EngineName } from './engine/types';
import type { MapLibSource } from './types';

const loading: Partial< Record< EngineName, MapLibSource > > = {};

/**
 * @param engine The configuration's engine (`config.engine`). Default: mapbox.
 */
export function loadMapLib( engine: EngineName = 'mapbox' ): MapLibSource {
	loading[ engine ] ??=
		engine === 'maplibre'
			? ( import( 'maplibre-gl' ) as unknown as MapLibSource )
			: import( 'mapbox-gl' );
	return loading[ engine ] as MapLibSource;
}
