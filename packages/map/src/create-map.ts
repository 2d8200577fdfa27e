/**
 * `createMap( container, config )`: the one map runtime behind the editor preview, the front-end
 * view script and headless pages. It validates everything it can before mapbox-gl is constructed
 * (a throw inside mapbox-gl's constructor leaves a half-built map), then reports every failure the
 * same way: `data-cairn-state="error"`, one `role="alert"` message and a `cairn:map-error` event.
 */
import type { Map as MapboxMap } from 'mapbox-gl';

import { parseMapConfig } from './config';
import { hasConsent } from './consent-api';
import { addControls } from './controls';
import { MapError, showError } from './errors';
import {
	failed,
	isPromise,
	laterMap,
	MapLife,
	setState,
	whenLoaded,
} from './map-life';
import { attachHashSync, viewFromAddress } from './hash-sync';
import { followContainerSize } from './follow-container-size';
import { attachKeyboardPanning } from './keyboard';
import { resolveLanguage } from './language';
import { registerEngine } from './engine/registry';
import { refuseBeforeLoad, selectEngine, unwrapLib } from './engine/select';
import type {
	Camera,
	EngineName,
	MapEngine,
	MapLanguage,
	StyleInput,
} from './engine/types';
import { MARKERS_SOURCE } from './layer-ids';
import { loadPlacesChunk, type PlacesChunk } from './places-chunk';
import type { PlacesController } from './places/controller';
import type { PrefetchedMarkers } from './prefetch-markers';
import type { PrefetchedTiles } from './places/prefetch-tiles';
import type { PlacesClient } from './places/client';
import type { LoadResult } from './places/engine';
import type { ShapesHandle } from './shapes/handle';
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
	/** The posts feed (`config.postsUrl`), already being fetched, like `markers`. */
	posts?: Promise< PrefetchedMarkers | null >;
	/**
	 * A tiled map's first view and summary (`config.tilesUrl`), already being fetched (the
	 * front-end loader starts them with mapbox-gl). Without it the map starts them itself, as soon
	 * as the places chunk is in (which downloads while mapbox-gl does).
	 */
	tiles?: PrefetchedTiles | Promise< PrefetchedTiles | null > | null;
	/**
	 * The map library: mapbox-gl's default export, maplibre-gl's module, either's module, or a
	 * promise of one (a dynamic `import()`, which the map waits for), or a function that gives one
	 * for the configuration's engine when the map starts (after the visitor's consent, when the
	 * configuration asks for it). The runtime never imports a map library by itself, and tells
	 * the two apart (engine/select.ts): a caller may pass either.
	 */
	mapLib: MapLibSource | ( ( engine: EngineName ) => MapLibSource );
	/**
	 * The visitor has agreed already, so a configuration with `consent.required` starts at once:
	 * the host asked for consent itself (the theme's and `hydrate()`'s own gate, or an app's
	 * consent banner). Without it such a map shows the "Load map" placeholder and contacts no
	 * Mapbox host, nor loads a lazy `mapLib`, before the visitor agrees.
	 */
	consentGiven?: boolean;
	/**
	 * An access token that replaces the configuration's: a headless site whose domain the site's
	 * token is not allowed for passes its own. Checked like any other (public tokens only).
	 */
	accessToken?: string;
	/**
	 * Called once the map's places are known and first drawn, with their controller: the host
	 * shows its places panel (the plugin mounts the React panel in `.wp-block-cairn-map__places`;
	 * `<CairnMap>` renders it). Returns its cleanup, or a promise of it (a panel whose code is
	 * still loading). Without one, the server-rendered list's entries become buttons that fly to
	 * their place. The panel never delays the first clusters: it comes once the map is ready, or
	 * `PANEL_WAIT` ms after the first clusters when the base map is slower.
	 */
	onPlaces?: (
		places: PlacesController
	) => void | ( () => void ) | Promise< void | ( () => void ) >;
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

export function createMap(
	container: unknown,
	input: unknown,
	options: CreateMapOptions
): CairnMap {
	const host = options.host ?? ( isElement( container ) ? container : null );
	if ( ! isElement( container ) || ! host ) {
		return failed( host, 'bad-container' );
	}
	resetHost( host );
	const config = parseConfig( input, options );
	if ( typeof config === 'string' ) {
		return failed( host, config );
	}
	// Refused before the library loads: the configuration's engine decides (its token rules).
	const refused = refuseBeforeLoad( config );
	if ( refused ) {
		return failed( host, refused );
	}
	const start = () => {
		// A tiled map's first tiles download while mapbox-gl does.
		const early = {
			...options,
			tiles: startTiles( config, container, options ),
		};
		return startWithLib(
			host,
			typeof options.mapLib === 'function'
				? options.mapLib( config.engine )
				: options.mapLib,
			( mapLib ) => {
				const engine = selectEngine( mapLib );
				const begin = ( chosen: MapEngine ) =>
					startMap( chosen, container, host, config, early );
				// maplibre-gl's adapter comes with its own chunk.
				return isPromise< MapEngine >( engine )
					? whenLoaded( host, engine, begin )
					: begin( engine );
			}
		);
	};
	return options.consentGiven || consentSettled( host, config.consent )
		? start()
		: afterConsent( host, container, config, start );
}

/**
 * A tiled map's first requests: the loader's, else started from the starting camera and the
 * container's size as soon as the places chunk is in (the chunk and mapbox-gl download together;
 * the tile code stays out of the runtime's first chunk). Null for a map that ships its feed.
 * @param config
 * @param container
 * @param options
 */
function startTiles(
	config: MapConfig,
	container: HTMLElement,
	options: CreateMapOptions
): CreateMapOptions[ 'tiles' ] {
	if ( ! config.tilesUrl || options.tiles ) {
		return options.tiles;
	}
	const { center, zoom } = startingCamera(
		config,
		container.ownerDocument.defaultView ?? window
	);
	const tiles = loadPlacesChunk().then( ( setup ) =>
		setup.prefetchTiles(
			config,
			setup.firstView( center, zoom, container )
		)
	);
	// A chunk that cannot be downloaded fails the places (addPlacesOnceStyled) the usual way.
	tiles.catch( () => undefined );
	return tiles;
}

/**
 * Whether the map may start without asking: consent is not required, or the WP Consent API says
 * the visitor already agreed to the category (on an earlier page).
 * @param host
 * @param consent
 */
function consentSettled(
	host: HTMLElement,
	consent: MapConfig[ 'consent' ]
): boolean {
	const view = host.ownerDocument.defaultView;
	return (
		! consent.required ||
		( consent.category !== '' &&
			view !== null &&
			hasConsent( view, consent.category ) )
	);
}

/**
 * A map that waits for the visitor's consent behind the "Load map" placeholder (its code loads
 * only for such a map); `destroy()` before it means the map never starts.
 * @param host
 * @param container
 * @param config
 * @param start
 */
function afterConsent(
	host: HTMLElement,
	container: HTMLElement,
	config: MapConfig,
	start: () => CairnMap
): CairnMap {
	let started: CairnMap | null = null;
	let begin: ( map: CairnMap ) => void = () => undefined;
	const ready = new Promise< MapboxMap >( ( resolve, reject ) => {
		begin = ( map ) => map.ready.then( resolve, reject );
	} );
	ready.catch( () => undefined );
	let destroyed = false;
	let release = () => undefined as void;
	import( /* webpackChunkName: "cairn-map-consent" */ './consent-gate' ).then(
		( { showConsentGate } ) => {
			if ( destroyed ) {
				return;
			}
			release = showConsentGate( host, container, config.consent, () => {
				started = start();
				begin( started );
			} );
		},
		// The placeholder's code could not be downloaded: the map cannot be shown.
		( cause: unknown ) => {
			if ( ! destroyed ) {
				showError( host, 'style' );
			}
			begin( { ...failed( null, 'style' ), map: null } );
			return cause;
		}
	);
	return laterMap(
		ready,
		() => started,
		() => {
			destroyed = true;
			release();
		}
	);
}

/**
 * A host reused for a new map (the editor's preview) loses the last map's state and alert.
 * @param host
 */
function resetHost( host: HTMLElement ) {
	setState( host, 'loading' );
	for ( const old of host.querySelectorAll( ':scope > [role="alert"]' ) ) {
		old.remove();
	}
}

/**
 * The validated configuration, with the host's own token in place of the configuration's, or
 * the error code that refuses it.
 * @param input
 * @param options
 */
function parseConfig(
	input: unknown,
	options: CreateMapOptions
): MapConfig | MapErrorCode {
	try {
		return parseMapConfig(
			options.accessToken !== undefined &&
				typeof input === 'object' &&
				input !== null
				? { ...input, accessToken: options.accessToken }
				: input
		);
	} catch ( error ) {
		return error instanceof MapError ? error.code : 'style';
	}
}

/**
 * Starts the map at once with a library at hand, or once a promised one arrives.
 * @param host
 * @param lib
 * @param start
 */
function startWithLib(
	host: HTMLElement,
	lib: MapLibSource,
	start: ( mapLib: MapLib ) => CairnMap
): CairnMap {
	return isPromise< MapLib | { default: MapLib } >( lib )
		? whenLoaded( host, lib.then( unwrapLib ), start )
		: start( unwrapLib( lib ) );
}

/**
 * Starts the map with the engine of the library at hand: the style first (built in the browser
 * for a self-hosted archive, which the map then waits for), then the map itself.
 * @param engine
 * @param container
 * @param host
 * @param config
 * @param options
 */
function startMap(
	engine: MapEngine,
	container: HTMLElement,
	host: HTMLElement,
	config: MapConfig,
	options: CreateMapOptions
): CairnMap {
	if ( ! engine.supported() ) {
		return failed( host, 'webgl' );
	}
	// A host may pass the other engine's library than the configuration's.
	const refused = engine.refuse( config );
	if ( refused ) {
		return failed( host, refused );
	}
	const view = host.ownerDocument.defaultView ?? window;
	const camera = startingCamera( config, view );
	const language = pickLanguage( config, host, view );
	const draw = ( style: StyleInput ) =>
		drawMap( engine, container, host, config, options, {
			camera,
			language,
			style,
		} );
	let style: StyleInput | Promise< StyleInput >;
	try {
		style = engine.style( config, language );
	} catch {
		return failed( host, 'style' );
	}
	return isPromise< StyleInput >( style )
		? whenLoaded( host, style, draw )
		: draw( style );
}

/**
 * Creates the engine's map for a validated configuration and wires everything around it, in
 * the order the map's events need: the deadline, the style's language and the error report
 * before anything loads; the places once the style is in; `ready` after the first drawing.
 * @param engine
 * @param container
 * @param host
 * @param config
 * @param options
 * @param start
 * @param start.camera
 * @param start.language
 * @param start.style
 */
function drawMap(
	engine: MapEngine,
	container: HTMLElement,
	host: HTMLElement,
	config: MapConfig,
	options: CreateMapOptions,
	start: { camera: Camera; language: MapLanguage; style: StyleInput }
): CairnMap {
	const view = host.ownerDocument.defaultView ?? window;
	// A request refused while the map is being made fails it once it exists.
	let life: MapLife | null = null;
	let early: MapErrorCode | null = null;
	const fail = ( code: MapErrorCode ) => {
		if ( life ) {
			life.fail( code );
		} else {
			early ??= code;
		}
	};
	const built = buildMap( engine, container, config, start, fail );
	if ( typeof built === 'string' ) {
		return failed( host, built );
	}
	registerEngine( built.map, engine );
	life = new MapLife( host, built.map, built.removeContainer );
	if ( early ) {
		life.fail( early );
	}
	giveUpOnSlowStyle( life, options.loadTimeout ?? DEFAULT_LOAD_TIMEOUT );
	localizeEachStyle( engine, life.map, start.language );
	reportMapErrors( engine, life );
	const pointsDrawn =
		config.markersUrl || config.postsUrl || config.tilesUrl
			? addPlacesOnceStyled( engine, life, config, options )
			: undefined;
	// Routes and areas: their chunk and feed load beside the points, only for a map that has some;
	// they are drawn once the points are (the map's workers would otherwise cut the shapes'
	// geometry while they cluster the points: the first clusters came 0.5 s later with 500 routes).
	life.shapes = config.shapesUrl
		? addShapes( life, config, pointsDrawn )
		: null;
	const firstDraw = Promise.all( [ pointsDrawn, life.shapes ] ).then(
		() => undefined
	);
	announceReadyAfterLoad( life, view, firstDraw );
	addInteraction( engine, life, config, view );
	return life.handle();
}

/**
 * The view from the page address (`hash`, when valid), else the configured one.
 * @param config
 * @param view
 */
function startingCamera(
	config: MapConfig,
	view: typeof window
): Pick< MapConfig, 'center' | 'zoom' | 'bearing' | 'pitch' > {
	const fromAddress = config.hash
		? viewFromAddress( view, config.hashName, {
				min: config.minZoom,
				max: config.maxZoom,
			} )
		: null;
	return fromAddress
		? {
				center: { lng: fromAddress.lng, lat: fromAddress.lat },
				zoom: fromAddress.zoom,
				bearing: fromAddress.bearing,
				pitch: fromAddress.pitch,
			}
		: config;
}

/**
 * `auto`: the page's own language (multilingual plugins set it per page), then the browser's.
 * @param config
 * @param host
 * @param view
 */
function pickLanguage(
	config: MapConfig,
	host: HTMLElement,
	view: typeof window
): MapLanguage {
	const preferred = [
		host.ownerDocument.documentElement.lang,
		...view.navigator.languages,
	].filter( Boolean );
	return { tag: resolveLanguage( config.language, preferred ), preferred };
}

/**
 * The engine's map, or the error code when its constructor throws (no graphics context, a
 * style it refuses).
 * @param engine
 * @param container
 * @param config
 * @param start
 * @param start.camera
 * @param start.language
 * @param start.style
 * @param fail           Fails the map (a request the engine refused).
 */
function buildMap(
	engine: MapEngine,
	container: HTMLElement,
	config: MapConfig,
	start: { camera: Camera; language: MapLanguage; style: StyleInput },
	fail: ( code: MapErrorCode ) => void
): { map: MapboxMap; removeContainer: () => void } | MapErrorCode {
	const mapContainer = sameRealmContainer( container );
	const removeContainer = () => {
		if ( mapContainer !== container ) {
			mapContainer.remove();
		}
	};
	try {
		const map = engine.create(
			mapContainer,
			config,
			start.camera,
			start.language,
			start.style,
			fail
		);
		return { map, removeContainer };
	} catch ( error ) {
		removeContainer();
		const message = error instanceof Error ? error.message : '';
		return /webgl/i.test( message ) ? 'webgl' : 'style';
	}
}

/**
 * The deadline is the style's: once it is there the map works, even while many markers are
 * still being clustered (`load` waits for them too).
 * @param life
 * @param timeout
 */
function giveUpOnSlowStyle( life: MapLife, timeout: number ) {
	const timer = window.setTimeout( () => life.fail( 'style' ), timeout );
	life.map.once( 'style.load', () => window.clearTimeout( timer ) );
	life.onStop( () => window.clearTimeout( timer ) );
}

/**
 * The style's labels in the map's language each time a style loads.
 * @param engine
 * @param map
 * @param language
 */
function localizeEachStyle(
	engine: MapEngine,
	map: MapboxMap,
	language: MapLanguage
) {
	map.on( 'style.load', () =>
		engine.localize( map, language.tag, language.preferred )
	);
}

/**
 * The map's error events, as the codes the map fails with (or none).
 * @param engine
 * @param life
 */
function reportMapErrors( engine: MapEngine, life: MapLife ) {
	life.map.on( 'error', ( event ) => {
		const code = engine.classify( event, life.loaded, MARKERS_SOURCE );
		if ( code ) {
			life.fail( code );
		}
	} );
}

/**
 * The markers go on the map as soon as the style is there, while the base map's tiles load. The
 * places worker starts before that: as soon as the feed (usually already fetched by the loader:
 * `options.markers`) and the places chunk are here, it reads and clusters the feed while mapbox-gl
 * still waits for its style. Resolves once the places are first drawn.
 * @param engine
 * @param life
 * @param config
 * @param options
 */
function addPlacesOnceStyled(
	engine: MapEngine,
	life: MapLife,
	config: MapConfig,
	options: CreateMapOptions
): Promise< void > {
	// Both feeds at once (each prefetched by the loader, or fetched by the places worker).
	const prefetched = Promise.all( [
		options.markers ?? Promise.resolve( null ),
		options.posts ?? Promise.resolve( null ),
	] );
	// A fetched feed is freed with the map.
	prefetched.then( ( feeds ) => {
		for ( const feed of feeds ) {
			if ( feed && life.removed ) {
				feed.release();
			} else if ( feed ) {
				life.onStop( feed.release );
			}
		}
	} );
	const styled = new Promise< void >( ( resolve ) =>
		life.map.once( 'style.load', () => resolve() )
	);
	// The places chunk downloads while the style does (the plugin's loader asked for it already).
	const setup = loadPlacesChunk();
	const started = Promise.all( [ prefetched, setup, options.tiles ] ).then(
		( [ feeds, module, tiles ] ) =>
			startPlaces( life, config, feeds, module, tiles )
	);
	return Promise.all( [ started, styled ] ).then(
		( [ places ] ) => addPlaces( engine, life, config, options, places ),
		() => {
			life.fail( 'markers' );
		}
	);
}

/**
 * The shapes chunk, which fetches the map's shapes feed at once and draws the shapes once the
 * style is in and the points are drawn (or have failed), beneath the points. Resolves with their
 * handle; never rejects (a chunk that cannot be downloaded is the non-fatal `markers` failure: the
 * points map works).
 * @param life
 * @param config
 * @param pointsDrawn Settles once the points are first drawn (or failed); none without points.
 */
function addShapes(
	life: MapLife,
	config: MapConfig,
	pointsDrawn: Promise< void > | undefined
): Promise< ShapesHandle | null > {
	const styled = Promise.all( [
		new Promise< void >( ( resolve ) =>
			life.map.once( 'style.load', () => resolve() )
		),
		pointsDrawn,
	] ).then( () => undefined );
	return import(
		/* webpackChunkName: "cairn-map-shapes" */ './shapes/load-shapes'
	)
		.then( ( { startShapes } ) =>
			startShapes( life.map, {
				config,
				lang: life.host.ownerDocument.documentElement.lang || undefined,
				styled,
				removed: () => life.removed,
				onClick: ( id, lngLat ) => life.places?.openShape( id, lngLat ),
			} )
		)
		.then(
			( shapes ) => {
				if ( shapes ) {
					life.onStop( shapes.remove );
				}
				return shapes;
			},
			() => {
				life.fail( 'markers' );
				return null;
			}
		);
}

/** A places worker already reading its feed. */
interface StartedPlaces {
	setup: PlacesChunk;
	client: PlacesClient;
	loading: Promise< LoadResult >;
}

/**
 * The feeds a map draws as one source: its markers and its posts, each the prefetched body or
 * its address; a feed the map does not have is left out.
 * @param config
 * @param feeds  The prefetched markers and posts feeds.
 */
export function feedSources(
	config: Pick< MapConfig, 'markersUrl' | 'postsUrl' >,
	feeds: ReadonlyArray< PrefetchedMarkers | null > = []
): Array< Blob | string > {
	return [ config.markersUrl, config.postsUrl ].flatMap( ( url, index ) =>
		url ? [ feeds[ index ]?.blob ?? url ] : []
	);
}

/**
 * Starts the places worker on the feeds; null when the map is gone already.
 * @param life
 * @param config
 * @param feeds
 * @param setup
 * @param tiles  A tiled map's first answers, on their way.
 */
function startPlaces(
	life: MapLife,
	config: MapConfig,
	feeds: ReadonlyArray< PrefetchedMarkers | null >,
	setup: PlacesChunk,
	tiles?: PrefetchedTiles | null
): StartedPlaces | null {
	if ( life.removed ) {
		return null;
	}
	// A tiled map asks the server for each view: no worker, no whole feed.
	const client = setup.createClientFor( config, tiles );
	life.onStop( () => client.terminate() );
	const loading = client.load(
		feedSources( config, feeds ),
		setup.placesEngineOptions( config )
	);
	// A feed that cannot be read is reported by the controller, which awaits this.
	loading.catch( () => undefined );
	return { setup, client, loading };
}

/**
 * The markers layer, its popups and the places controller that feeds it; resolves once the
 * places are first drawn.
 * @param engine
 * @param life
 * @param config
 * @param options
 * @param places
 */
function addPlaces(
	engine: MapEngine,
	life: MapLife,
	config: MapConfig,
	options: CreateMapOptions,
	places: StartedPlaces | null
): Promise< void > {
	if ( life.removed || ! places ) {
		return Promise.resolve();
	}
	const { map, host } = life;
	const { client, loading } = places;
	const Controller = places.setup.PlacesController;
	const popups = new places.setup.PopupController(
		engine.lib,
		map,
		config.markerUrl,
		config.directions
	);
	let drawn: () => void = () => undefined;
	const drawing = new Promise< void >( ( resolve ) => {
		drawn = resolve;
	} );
	// The layer's code is the places chunk's: the runtime's first chunk stays small.
	life.onStop(
		places.setup.addMarkersLayer(
			map,
			{ type: 'FeatureCollection', features: [] },
			{
				cluster: config.cluster,
				groupStyles: config.groupStyles,
				onPointClick: ( id, lngLat ) => popups.open( id, lngLat ),
				onImageError: () => life.fail( 'image-type' ),
				onClusterClick: ( id, center ) =>
					life.places?.expandCluster( id, center ),
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
		loading,
		onError: () => life.fail( 'markers' ),
		onLoaded: () => onLoaded(),
		onFirstDraw: drawn,
	} );
	life.places = controller;
	life.shapes?.then(
		( shapes ) => shapes && controller.attachShapes( shapes )
	);
	let unmount: ( () => void ) | undefined;
	// The panel takes over the server's list once the places are known and drawn, and the map is
	// ready (or has kept the first clusters waiting long enough for its base map): while they
	// load, and if the feed cannot be read, the server's list stays as it is.
	onLoaded = () => {
		places.setup
			.panelTime( map, drawing, life.ready, life.onStop.bind( life ) )
			.then( () => {
				if ( ! life.removed ) {
					unmount = places.setup.showPlaces(
						host,
						controller,
						options.onPlaces
					);
				}
			} );
	};
	// The client stops with the map (startPlaces).
	life.onStop( () => {
		unmount?.();
		popups.close();
		controller.destroy();
	} );
	return drawing;
}

/**
 * Ready means the style is in (`load`) and the markers are on the map too.
 * @param life
 * @param view
 * @param firstDraw
 */
function announceReadyAfterLoad(
	life: MapLife,
	view: typeof window,
	firstDraw: Promise< void >
) {
	life.map.on( 'load', () => {
		life.loaded = true;
		firstDraw.then( () => {
			if ( ! life.removed ) {
				life.announceReady( view );
			}
		} );
	} );
}

/**
 * The controls, our keyboard panning and, when asked, the view kept in the page address.
 * @param engine
 * @param life
 * @param config
 * @param view
 */
function addInteraction(
	engine: MapEngine,
	life: MapLife,
	config: MapConfig,
	view: typeof window
) {
	const { map } = life;
	life.onStop(
		addControls( engine.lib, map, config.controls, {
			units: config.units,
			onLocate: ( position ) => life.places?.setOrigin( position ),
		} )
	);
	life.onStop( attachKeyboardPanning( map ) );
	life.onStop( followContainerSize( map ) );
	if ( config.hash ) {
		life.onStop( attachHashSync( map, view, config.hashName ) );
	}
}
