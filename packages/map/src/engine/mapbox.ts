/**
 * The mapbox-gl adapter: today's behaviour, moved behind the engine interface. Tokens are
 * checked before the map exists, the map is made with mapbox-gl's own `language`, classic styles
 * get their labels rewritten (language.ts), and 401/403 answers are the token's fault. Its
 * cooperative gestures keep mapbox-gl's own messages, as before (`gestureLocale` gives the keys).
 */
import type { GeoJSONSource } from 'mapbox-gl';

import { localizeClassicStyle } from '../language';
import { PINNED_MAP_OPTIONS } from '../limits';
import { checkToken } from '../token';
import type { MapErrorCode, MapLib } from '../types';
import { compilesShadersInParallel } from '../webgl';
import type { EngineMap, GestureMessages, MapEngine } from './types';

/**
 * The code for a token the map must not use, or null for a public one.
 * @param accessToken
 */
export function refuseToken( accessToken: string ): MapErrorCode | null {
	switch ( checkToken( accessToken ).kind ) {
		case 'empty':
			return 'missing-token';
		case 'secret':
		case 'temporary':
			return 'secret-token';
		case 'malformed':
			return 'invalid-token';
		default:
			return null;
	}
}

/**
 * A mapbox-gl callback API as a promise.
 * @param call
 */
function promised< T >(
	call: ( done: ( error?: Error | null, value?: T | null ) => void ) => void
): Promise< T > {
	return new Promise< T >( ( resolve, reject ) =>
		call( ( error, value ) =>
			error || value === undefined || value === null
				? reject( error ?? new Error( 'No value' ) )
				: resolve( value )
		)
	);
}

let fallback: MapEngine | null = null;

/**
 * The adapter for a mapbox-gl library (its default export). Without one: the adapter of maps the
 * runtime did not make (registry.ts), whose `lib` is not there to use.
 * @param lib
 */
export function mapboxEngine( lib?: MapLib ): MapEngine {
	if ( ! lib && fallback ) {
		return fallback;
	}
	const engine: MapEngine = {
		name: 'mapbox',
		lib: lib as MapLib,
		classPrefix: 'mapboxgl-',
		supported: () =>
			typeof lib?.supported === 'function' ? lib.supported() : true,
		refuse: ( config ) => refuseToken( config.accessToken ),
		style: ( config ) => config.style,
		create: ( container, config, camera, language, style ) =>
			new ( lib as MapLib ).Map( {
				...PINNED_MAP_OPTIONS,
				container,
				accessToken: config.accessToken,
				style,
				center: [ camera.center.lng, camera.center.lat ],
				zoom: camera.zoom,
				bearing: camera.bearing,
				pitch: camera.pitch,
				minZoom: config.minZoom,
				maxZoom: config.maxZoom,
				language: language.tag,
				cooperativeGestures: config.cooperativeGestures,
				performanceMetricsCollection: false,
				precompilePrograms: compilesShadersInParallel(
					container.ownerDocument
				),
			} ),
		classify: ( event, loaded, markersSource ) => {
			const status = ( event.error as { status?: unknown } | undefined )
				?.status;
			if ( status === 401 || status === 403 ) {
				return 'invalid-token';
			}
			const sourceId = ( event as { sourceId?: unknown } ).sourceId;
			if ( sourceId === markersSource ) {
				return 'markers';
			}
			if ( ( event as { tile?: unknown } ).tile ) {
				return null; // One tile that failed (and may load on the next move) does not break the map.
			}
			return loaded ? null : 'style';
		},
		localize: ( map, tag, preferred ) =>
			localizeClassicStyle( map, tag, preferred ),
		setLanguage: ( map, tag ) => {
			try {
				map.setLanguage( tag );
			} catch {
				// A style without localizable labels.
			}
			localizeClassicStyle( map, tag, [] );
		},
		clusterExpansionZoom: ( source: GeoJSONSource, clusterId ) =>
			promised< number >( ( done ) =>
				source.getClusterExpansionZoom( clusterId, done )
			),
		clusterLeaves: ( source: GeoJSONSource, clusterId, limit, offset ) =>
			promised< GeoJSON.Feature[] >( ( done ) =>
				source.getClusterLeaves(
					clusterId,
					limit,
					offset,
					( error, features ) =>
						done( error, features as GeoJSON.Feature[] )
				)
			),
		loadImage: ( map: EngineMap, url ) =>
			promised( ( done ) =>
				map.loadImage( url, ( error, image ) => done( error, image ) )
			),
		onMissingImage: ( map, handler ) => {
			const listener = ( event: { id: string } ) => handler( event.id );
			map.on( 'styleimagemissing', listener );
			return () => map.off( 'styleimagemissing', listener );
		},
		gestureLocale: ( messages: GestureMessages ) => ( {
			'ScrollZoomBlocker.CtrlMessage': messages.ctrl,
			'ScrollZoomBlocker.CmdMessage': messages.cmd,
			'TouchPanBlocker.Message': messages.touch,
		} ),
	};
	if ( ! lib ) {
		fallback = engine;
	}
	return engine;
}
