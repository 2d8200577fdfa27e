/**
 * The maplibre-gl adapter. No token: the token codes never occur. The map may contact only the
 * page's origin, the origins of the configuration's own URLs and `config.basemap.hosts`: any other
 * request is refused before it leaves (`transformRequest`) and fails the map with `style` (a style
 * whose sources point at a host the owner did not choose). Labels are rewritten to the map's
 * language (language.ts: OpenMapTiles and Protomaps schemas). A `pmtiles://` style is an archive
 * on the site, drawn with a Protomaps style built in the browser (protomaps-style.ts, loaded only
 * for such a map).
 */
import type { GeoJSONSource } from 'mapbox-gl';

import { localizeVectorStyle } from './vector-labels';
import { PINNED_MAP_OPTIONS } from '../limits';
import type { MapConfig, MapLib } from '../types';
import { archiveUrl, PMTILES_PREFIX } from './style-engine';
import { gestureMessages } from './gestures';
import type {
	EngineMap,
	GestureMessages,
	MapEngine,
	StyleInput,
} from './types';

/** The parts of maplibre-gl's module the adapter uses besides those of `MapLib`. */
export interface MaplibreExtras {
	addProtocol: (
		scheme: string,
		load: ( ...args: never[] ) => Promise< unknown >
	) => void;
	setWorkerUrl?: ( url: string ) => void;
}

/** maplibre-gl's map, where its API differs from mapbox-gl's. */
interface MaplibreMap {
	loadImage: ( url: string ) => Promise< {
		data: HTMLImageElement | ImageBitmap;
	} >;
	setMissingStyleImageResolver?: (
		resolver: ( ( id: string ) => void ) | null
	) => unknown;
}

/** maplibre-gl's clustered source: promises, not callbacks. */
interface MaplibreGeoJSONSource {
	getClusterExpansionZoom: ( clusterId: number ) => Promise< number >;
	getClusterLeaves: (
		clusterId: number,
		limit: number,
		offset: number
	) => Promise< GeoJSON.Feature[] >;
}

/**
 * The origin of a URL (absolute, or relative to the page), or null.
 * @param url
 * @param base
 */
function originOf( url: string, base: string ): string | null {
	try {
		const parsed = new URL( url, base );
		return /^https?:$/.test( parsed.protocol ) ? parsed.origin : null;
	} catch {
		return null;
	}
}

/**
 * Whether the map may request a URL: the page's origin, the configuration's own URLs' origins
 * (its feeds, glyphs and self-hosted archive; not a style URL's, which `basemap.hosts` names),
 * and the basemap's hosts (any scheme's default port: https, or http on the site). `data:` and
 * `blob:` URLs stay in the page.
 * @param config
 * @param page   The page's address.
 */
export function requestCheck(
	config: Pick<
		MapConfig,
		| 'style'
		| 'markersUrl'
		| 'postsUrl'
		| 'shapesUrl'
		| 'shapeTilesUrl'
		| 'tilesUrl'
		| 'placesUrl'
		| 'summaryUrl'
		| 'markerUrl'
		| 'basemap'
	>,
	page: string
): ( url: string ) => boolean {
	// A style URL's host is the basemap's (`basemap.hosts` names it); a self-hosted archive's
	// origin is the site's own choice of where its files are.
	const own = [
		page,
		archiveUrl( config.style ),
		config.markersUrl,
		config.postsUrl,
		config.shapesUrl,
		config.shapeTilesUrl,
		config.tilesUrl,
		config.placesUrl,
		config.summaryUrl,
		config.markerUrl,
		config.basemap.glyphs,
	]
		.filter( Boolean )
		.map( ( url ) => originOf( url, page ) )
		.filter( ( origin ): origin is string => origin !== null );
	const origins = new Set( own );
	const hosts = new Set(
		config.basemap.hosts.map( ( h ) => h.toLowerCase() )
	);
	return ( url ) => {
		if ( /^(data|blob):/.test( url ) ) {
			return true;
		}
		const target = url.startsWith( PMTILES_PREFIX )
			? url.slice( PMTILES_PREFIX.length )
			: url;
		try {
			const parsed = new URL( target, page );
			if ( ! /^https?:$/.test( parsed.protocol ) ) {
				return false;
			}
			return (
				origins.has( parsed.origin ) ||
				( parsed.protocol === 'https:' &&
					parsed.port === '' &&
					hosts.has( parsed.hostname.toLowerCase() ) )
			);
		} catch {
			return false;
		}
	};
}

/** The address every refused request is sent to instead: it never leaves the browser. */
const REFUSED = 'about:blank';

/**
 * Whether the browser can draw a MapLibre map: maplibre-gl needs WebGL 2.
 * @param doc
 */
function hasWebGl2( doc: Document ): boolean {
	try {
		const gl = doc.createElement( 'canvas' ).getContext( 'webgl2' );
		gl?.getExtension( 'WEBGL_lose_context' )?.loseContext();
		return Boolean( gl );
	} catch {
		return false;
	}
}

/**
 * The adapter for a maplibre-gl module (or a build of it with the same API). Without one: the
 * engine's rules alone (refusals, classification), for decisions taken before the library loads.
 * @param lib
 */
export function maplibreEngine( lib?: MapLib ): MapEngine {
	const extras = lib as unknown as Partial< MaplibreExtras > | undefined;
	const engine: MapEngine = {
		name: 'maplibre',
		lib: lib as MapLib,
		classPrefix: 'maplibregl-',
		supported: () => hasWebGl2( document ),
		refuse: () => null,
		style: ( config, language ): StyleInput | Promise< StyleInput > => {
			if ( ! config.style.startsWith( PMTILES_PREFIX ) ) {
				return config.style;
			}
			return import(
				/* webpackChunkName: "cairn-map-pmtiles" */ './protomaps-style'
			).then( ( { protomapsStyle } ) =>
				protomapsStyle( extras as MaplibreExtras, config, language.tag )
			);
		},
		create: ( container, config, camera, language, style, fail ) => {
			const view = container.ownerDocument.defaultView ?? window;
			const allowed = requestCheck( config, view.location.href );
			const MaplibreMap = ( lib as MapLib ).Map as unknown as new (
				options: Record< string, unknown >
			) => EngineMap;
			return new MaplibreMap( {
				...PINNED_MAP_OPTIONS,
				container,
				style,
				center: [ camera.center.lng, camera.center.lat ],
				zoom: camera.zoom,
				bearing: camera.bearing,
				pitch: camera.pitch,
				minZoom: config.minZoom,
				maxZoom: config.maxZoom,
				cooperativeGestures: config.cooperativeGestures,
				locale: engine.gestureLocale( gestureMessages() ),
				transformRequest: ( url: string ) => {
					if ( allowed( url ) ) {
						return { url };
					}
					fail( 'style' );
					return { url: REFUSED };
				},
				// A self-hosted style carries its attribution on its source (protomaps-style.ts).
				...( config.basemap.attribution &&
				! config.style.startsWith( PMTILES_PREFIX )
					? {
							attributionControl: {
								compact: true,
								customAttribution: config.basemap.attribution,
							},
						}
					: {} ),
			} );
		},
		classify: ( event, loaded, markersSource ) => {
			if (
				( event as { sourceId?: unknown } ).sourceId === markersSource
			) {
				return 'markers';
			}
			if ( ( event as { tile?: unknown } ).tile ) {
				return null;
			}
			// Never a token code: a style or archive that cannot be read is the style's failure.
			return loaded ? null : 'style';
		},
		localize: ( map, tag, preferred ) =>
			localizeVectorStyle( map, tag, preferred ),
		setLanguage: ( map, tag ) => localizeVectorStyle( map, tag, [] ),
		clusterExpansionZoom: ( source: GeoJSONSource, clusterId ) =>
			(
				source as unknown as MaplibreGeoJSONSource
			 ).getClusterExpansionZoom( clusterId ),
		clusterLeaves: ( source: GeoJSONSource, clusterId, limit, offset ) =>
			( source as unknown as MaplibreGeoJSONSource ).getClusterLeaves(
				clusterId,
				limit,
				offset
			),
		loadImage: ( map, url ) =>
			( map as unknown as MaplibreMap )
				.loadImage( url )
				.then( ( response ) => response.data ),
		onMissingImage: ( map, handler ) => {
			const own = map as unknown as MaplibreMap;
			if ( typeof own.setMissingStyleImageResolver === 'function' ) {
				own.setMissingStyleImageResolver( handler );
				return () => own.setMissingStyleImageResolver?.( null );
			}
			const listener = ( event: { id: string } ) => handler( event.id );
			map.on( 'styleimagemissing', listener );
			return () => map.off( 'styleimagemissing', listener );
		},
		gestureLocale: ( messages: GestureMessages ) => ( {
			'CooperativeGesturesHandler.WindowsHelpText': messages.ctrl,
			'CooperativeGesturesHandler.MacHelpText': messages.cmd,
			'CooperativeGesturesHandler.MobileHelpText': messages.touch,
		} ),
	};
	return engine;
}
