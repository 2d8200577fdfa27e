/**
 * `createMap( container, config )`: the one map runtime behind the editor preview, the front-end
 * view script and headless pages. It validates everything it can before mapbox-gl is constructed
 * (a throw inside mapbox-gl's constructor leaves a half-built map), then reports every failure the
 * same way: `data-cairn-state="error"`, one `role="alert"` message and a `cairn:map-error` event.
 */
import type {
	ErrorEvent as MapboxErrorEvent,
	Map as MapboxMap,
} from 'mapbox-gl';

import { parseMapConfig } from './config';
import { addControls } from './controls';
import { MapError, isNonFatal, showError } from './errors';
import { attachHashSync, viewFromAddress } from './hash-sync';
import { attachKeyboardPanning } from './keyboard';
import { localizeClassicStyle, resolveLanguage } from './language';
import { PINNED_MAP_OPTIONS } from './limits';
import { upgradeMarkerList } from './marker-list';
import { MARKERS_SOURCE, addMarkersLayer } from './markers-layer';
import { PopupController } from './popup';
import type { PlacesController } from './places/controller';
import type { PrefetchedMarkers } from './prefetch-markers';
import { compilesShadersInParallel } from './webgl';
import { checkToken } from './token';
import type { MapConfig, MapErrorCode, MapLib, MapLibSource } from './types';

export interface CreateMapOptions {
	/**
	 * The element that carries `data-cairn-state`, the alert and the events. Defaults to the
	 * container. The block passes its wrapper.
	 */
	host?: HTMLElement;
	/** How long the style may take to arrive before the map gives up (`style`), in ms. */
	loadTimeout?: number;
	/**
	 * The marker feed, already being fetched (the front-end loader starts it together with
	 * mapbox-gl). Without it, mapbox-gl's worker fetches `config.markersUrl` once the style is in.
	 */
	markers?: Promise< PrefetchedMarkers | null >;
	/**
	 * The map library: mapbox-gl's default export, its module, or a promise of either (a dynamic
	 * `import()`, which the map waits for). The runtime never imports mapbox-gl by itself.
	 */
	mapLib: MapLibSource;
	/**
	 * An access token that replaces the configuration's: a headless site whose domain the site's
	 * token is not allowed for passes its own. Checked like any other (public tokens only).
	 */
	accessToken?: string;
	/**
	 * Called once the map's places are known (before they are drawn), with their controller: the
	 * host shows its places panel (the plugin mounts the React panel in
	 * `.wp-block-cairn-map__places`; `<CairnMap>` renders it). Returns its cleanup. Without it,
	 * the server-rendered list's entries become buttons that fly to their place.
	 */
	onPlaces?: ( places: PlacesController ) => void | ( () => void );
}

export interface CairnMap {
	/** The mapbox-gl map, or null when the map could not be created. */
	map: MapboxMap | null;
	/** The map's places (filter, list, reload), once known; null before or without markers. */
	readonly places?: PlacesController | null;
	/**
	 * Resolves with the map when it is ready (also after a non-fatal `image-type` or `markers`
	 * failure: the map works); rejects with a `MapError` when the map cannot work.
	 */
	ready: Promise< MapboxMap >;
	/** Releases the map and its listeners. Safe to call more than once. */
	destroy: () => void;
}

const DEFAULT_LOAD_TIMEOUT = 30_000;

function isElement( value: unknown ): value is HTMLElement {
	// `instanceof HTMLElement` fails across documents (the iframed editor), so check the node type.
	return (
		typeof value === 'object' &&
		value !== null &&
		( value as Node ).nodeType === 1 &&
		typeof ( value as HTMLElement ).getBoundingClientRect === 'function'
	);
}

/**
 * mapbox-gl tests `container instanceof HTMLElement` against the window it was loaded in. In the
 * iframed block editor the container belongs to the canvas iframe, so the map gets an inner element
 * created in mapbox-gl's own window (adopted into the iframe's document when appended).
 */
function sameRealmContainer( container: HTMLElement ): HTMLElement {
	if ( container instanceof HTMLElement ) {
		return container;
	}
	const inner = document.createElement( 'div' );
	inner.className = 'wp-block-cairn-map__realm';
	inner.style.position = 'absolute';
	inner.style.inset = '0';
	( container as Node ).appendChild( inner );
	return inner;
}

function setState( host: HTMLElement, state: 'loading' | 'ready' | 'error' ) {
	host.dataset.cairnState = state;
}

function failed( host: HTMLElement | null, code: MapErrorCode ): CairnMap {
	const error = host ? showError( host, code ) : new MapError( code );
	const ready = Promise.reject( error );
	// Callers that do not await `ready` must not see an unhandled rejection: the error is on the page.
	ready.catch( () => undefined );
	return { map: null, ready, destroy: () => undefined };
}

/**
 * The error code for a mapbox-gl `error` event, or null when the map can live with it.
 * @param event
 * @param loaded
 */
function classify(
	event: MapboxErrorEvent,
	loaded: boolean
): MapErrorCode | null {
	const status = ( event.error as { status?: unknown } | undefined )?.status;
	if ( status === 401 || status === 403 ) {
		return 'invalid-token';
	}
	const sourceId = ( event as { sourceId?: unknown } ).sourceId;
	if ( sourceId === MARKERS_SOURCE ) {
		return 'markers';
	}
	if ( ( event as { tile?: unknown } ).tile ) {
		return null; // One tile that failed (and may load on the next move) does not break the map.
	}
	return loaded ? null : 'style';
}

/**
 * The code for a token the map must not use, or null for a public one.
 * @param accessToken
 */
function refuseToken( accessToken: string ): MapErrorCode | null {
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

function isPromise< T >( value: unknown ): value is Promise< T > {
	return typeof ( value as Promise< T > | null )?.then === 'function';
}

/** mapbox-gl's default export from what a host passed: the export itself or its module. */
function unwrapLib( lib: MapLib | { default: MapLib } ): MapLib {
	return typeof ( lib as Partial< MapLib > ).supported === 'function'
		? ( lib as MapLib )
		: ( lib as { default: MapLib } ).default;
}

/**
 * A map whose library is still on its way: the host shows `loading` meanwhile, a library that
 * cannot be loaded is the `style` error (the map could not be loaded), and `destroy()` before it
 * arrives means the map never starts.
 * @param host
 * @param pending
 * @param start
 */
function whenLoaded(
	host: HTMLElement,
	pending: Promise< MapLib | { default: MapLib } >,
	start: ( lib: MapLib ) => CairnMap
): CairnMap {
	let started: CairnMap | null = null;
	let destroyed = false;
	const removed = () => new Error( 'The map was removed before it started.' );
	const ready = pending.then(
		( lib ) => {
			if ( destroyed ) {
				throw removed();
			}
			started = start( unwrapLib( lib ) );
			return started.ready;
		},
		( cause: unknown ) => {
			if ( destroyed ) {
				throw removed();
			}
			throw Object.assign( showError( host, 'style' ), { cause } );
		}
	);
	ready.catch( () => undefined );
	return {
		get map() {
			return started?.map ?? null;
		},
		get places() {
			return started?.places ?? null;
		},
		ready,
		destroy: () => {
			destroyed = true;
			started?.destroy();
		},
	};
}

export function createMap(
	container: unknown,
	input: unknown,
	options: CreateMapOptions
): CairnMap {
	const host = options.host ?? ( isElement( container ) ? container : null );
	if ( ! isElement( container ) ) {
		return failed( host, 'bad-container' );
	}
	if ( ! host ) {
		return failed( null, 'bad-container' );
	}
	setState( host, 'loading' );
	for ( const old of host.querySelectorAll( ':scope > [role="alert"]' ) ) {
		old.remove();
	}

	let config: MapConfig;
	try {
		config = parseMapConfig(
			options.accessToken !== undefined &&
				typeof input === 'object' &&
				input !== null
				? { ...input, accessToken: options.accessToken }
				: input
		);
	} catch ( error ) {
		return failed( host, error instanceof MapError ? error.code : 'style' );
	}
	const refused = refuseToken( config.accessToken );
	if ( refused ) {
		return failed( host, refused );
	}

	const lib = options.mapLib;
	const start = ( mapLib: MapLib ) =>
		startMap( mapLib, container, host, config, options );
	return isPromise< MapLib | { default: MapLib } >( lib )
		? whenLoaded( host, lib, start )
		: start( unwrapLib( lib ) );
}

/**
 * Creates the mapbox-gl map for a validated configuration and wires everything around it.
 * @param mapboxgl
 * @param container
 * @param host
 * @param config
 * @param options
 */
function startMap(
	mapboxgl: MapLib,
	container: HTMLElement,
	host: HTMLElement,
	config: MapConfig,
	options: CreateMapOptions
): CairnMap {
	if ( ! mapboxgl.supported() ) {
		return failed( host, 'webgl' );
	}

	const view = host.ownerDocument.defaultView ?? window;
	const fromAddress = config.hash
		? viewFromAddress( view, config.hashName, {
				min: config.minZoom,
				max: config.maxZoom,
			} )
		: null;
	const camera = fromAddress
		? {
				center: { lng: fromAddress.lng, lat: fromAddress.lat },
				zoom: fromAddress.zoom,
				bearing: fromAddress.bearing,
				pitch: fromAddress.pitch,
			}
		: config;

	// `auto`: the page's own language (multilingual plugins set it per page), then the browser's.
	const preferred = [
		host.ownerDocument.documentElement.lang,
		...view.navigator.languages,
	].filter( Boolean );
	const language = resolveLanguage( config.language, preferred );

	const mapContainer = sameRealmContainer( container );
	const removeInner = () => {
		if ( mapContainer !== container ) {
			mapContainer.remove();
		}
	};
	let map: MapboxMap;
	try {
		map = new mapboxgl.Map( {
			...PINNED_MAP_OPTIONS,
			container: mapContainer,
			accessToken: config.accessToken,
			style: config.style,
			center: [ camera.center.lng, camera.center.lat ],
			zoom: camera.zoom,
			bearing: camera.bearing,
			pitch: camera.pitch,
			minZoom: config.minZoom,
			maxZoom: config.maxZoom,
			language,
			cooperativeGestures: config.cooperativeGestures,
			performanceMetricsCollection: false,
			precompilePrograms: compilesShadersInParallel(
				mapContainer.ownerDocument
			),
		} );
	} catch ( error ) {
		removeInner();
		const message = error instanceof Error ? error.message : '';
		return failed( host, /webgl/i.test( message ) ? 'webgl' : 'style' );
	}

	const cleanups: Array< () => void > = [];
	let loaded = false;
	let destroyed = false;
	let settle: {
		resolve: ( map: MapboxMap ) => void;
		reject: ( e: MapError ) => void;
	};
	const ready = new Promise< MapboxMap >( ( resolve, reject ) => {
		settle = { resolve, reject };
	} );
	ready.catch( () => undefined );

	let shown: MapErrorCode | null = null;
	let removed = false;
	const stop = () => {
		if ( removed ) {
			return;
		}
		removed = true;
		cleanups.forEach( ( cleanup ) => cleanup() );
		map.remove();
		removeInner();
	};
	/**
	 * Reports a failure. A fatal one rejects `ready`, stops the map (no more requests, its
	 * graphics context freed) and replaces an earlier non-fatal message. A non-fatal one
	 * (`image-type`, `markers`) leaves a usable map: `ready` still resolves and `cairn:map-ready`
	 * is still sent, but the state stays `error` with its alert. Either way there is one alert.
	 * @param code
	 */
	const fail = ( code: MapErrorCode ) => {
		const fatal = ! isNonFatal( code );
		if ( destroyed || ( shown && ( ! isNonFatal( shown ) || ! fatal ) ) ) {
			return;
		}
		shown = code;
		const error = showError( host, code );
		if ( fatal ) {
			settle.reject( error );
			// Not from inside mapbox-gl's own event dispatch.
			window.setTimeout( stop, 0 );
		}
	};

	// The deadline is the style's: once it is there the map works, even while many markers are
	// still being clustered (`load` waits for them too).
	const timeout = window.setTimeout(
		() => fail( 'style' ),
		options.loadTimeout ?? DEFAULT_LOAD_TIMEOUT
	);
	map.once( 'style.load', () => window.clearTimeout( timeout ) );
	cleanups.push( () => window.clearTimeout( timeout ) );

	const localize = () => localizeClassicStyle( map, language, preferred );
	map.on( 'style.load', localize );

	map.on( 'error', ( event ) => {
		const code = classify( event, loaded );
		if ( code ) {
			fail( code );
		}
	} );

	// The markers go on the map as soon as the style is there, while the base map's tiles load:
	// the places worker reads the feed (usually already fetched by the loader: `options.markers`),
	// clusters it and feeds the map's source. `ready` waits for their first drawing.
	let places: PlacesController | null = null;
	let firstDraw: Promise< void > = Promise.resolve();
	const addMarkers = (
		feed: PrefetchedMarkers | null,
		{
			createPlacesClient,
			PlacesController: Controller,
		}: typeof import( './places/setup' )
	) => {
		if ( removed ) {
			return Promise.resolve();
		}
		const popups = new PopupController( mapboxgl, map, config.markerUrl );
		const client = createPlacesClient();
		let drawn: () => void = () => undefined;
		const drawing = new Promise< void >( ( resolve ) => {
			drawn = resolve;
		} );
		cleanups.push(
			addMarkersLayer(
				map,
				{ type: 'FeatureCollection', features: [] },
				{
					cluster: config.cluster,
					groupStyles: config.groupStyles,
					onPointClick: ( id, lngLat ) => popups.open( id, lngLat ),
					onImageError: () => fail( 'image-type' ),
					onClusterClick: ( id, center ) =>
						places?.expandCluster( id, center ),
				}
			)
		);
		let onLoaded = () => undefined as void;
		const controller = new Controller( {
			map,
			host,
			config,
			client,
			popups,
			source: feed?.blob ?? config.markersUrl,
			onError: () => fail( 'markers' ),
			onLoaded: () => onLoaded(),
			onFirstDraw: drawn,
		} );
		places = controller;
		let unmount: ( () => void ) | undefined;
		// The panel takes over the server's list once the places are known: while they load,
		// and if the feed cannot be read, the server's list stays as it is.
		onLoaded = () => {
			if ( removed ) {
				return;
			}
			const panel = options.onPlaces?.( controller );
			unmount =
				typeof panel === 'function'
					? panel
					: upgradeMarkerList( host, ( id ) =>
							controller.choose( id )
						);
		};
		cleanups.push( () => {
			unmount?.();
			popups.close();
			controller.destroy();
			client.terminate();
		} );
		return drawing;
	};
	if ( config.markersUrl ) {
		const prefetched = options.markers ?? Promise.resolve( null );
		// A fetched feed is freed with the map.
		prefetched.then( ( feed ) => {
			if ( feed && removed ) {
				feed.release();
			} else if ( feed ) {
				cleanups.push( feed.release );
			}
		} );
		const styled = new Promise< void >( ( resolve ) =>
			map.once( 'style.load', () => resolve() )
		);
		// The places chunk downloads while the style does.
		const setup = import(
			/* webpackChunkName: "cairn-map-places" */ './places/setup'
		);
		firstDraw = Promise.all( [ prefetched, styled, setup ] ).then(
			( [ feed, , module ] ) => addMarkers( feed, module ),
			() => {
				fail( 'markers' );
			}
		);
	}

	const announceReady = () => {
		if ( removed || ( shown && ! isNonFatal( shown ) ) ) {
			return;
		}
		if ( ! shown ) {
			setState( host, 'ready' );
		}
		settle.resolve( map );
		host.dispatchEvent(
			new view.CustomEvent( 'cairn:map-ready', {
				bubbles: true,
				detail: { map },
			} )
		);
	};
	map.on( 'load', () => {
		loaded = true;
		// Ready means the markers are on the map too.
		firstDraw.then( () => {
			if ( ! removed ) {
				announceReady();
			}
		} );
	} );

	cleanups.push(
		addControls( mapboxgl, map, config.controls, {
			onLocate: ( position ) => places?.setOrigin( position ),
		} )
	);
	cleanups.push( attachKeyboardPanning( map ) );
	if ( config.hash ) {
		cleanups.push( attachHashSync( map, view, config.hashName ) );
	}

	return {
		map,
		ready,
		get places() {
			return places;
		},
		destroy: () => {
			if ( destroyed ) {
				return;
			}
			stop();
			destroyed = true;
		},
	};
}
