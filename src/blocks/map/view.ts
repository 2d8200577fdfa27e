/**
 * The front-end loader. Small on purpose: it waits until a map block nears the viewport (and for
 * the visitor's consent when the site asks for it: see watch-maps) and only then loads the map's
 * library (mapbox-gl from Mapbox's distribution, or the plugin's maplibre-gl chunk, by the
 * configuration's engine: load-map-library.ts) and the runtime (a separate chunk). Blocks rendered
 * in an error state by the server (no token, bad configuration) never load a map library.
 */
import { showError } from '@cairn-maps/map';
import {
	loadPlacesChunk,
	prefetchMarkers,
	prefetchTilesFor,
	type RenderedMap,
	watchMaps,
} from '@cairn-maps/map/plugin';

import { configEngine, loadMapLibrary } from './load-map-library';

declare global {
	interface Window {
		/** React's scripts (WordPress's), loaded with the map: see plugin/Blocks/View_Script.php. */
		cairnMapsScripts?: unknown;
	}
}

let panelScripts: Promise< void > | null = null;
let panelPreloaded = false;

/** The addresses of WordPress's React scripts the places panel needs, in order. */
function panelScriptUrls(): string[] {
	return Array.isArray( window.cairnMapsScripts )
		? window.cairnMapsScripts.filter(
				( url ): url is string => typeof url === 'string'
			)
		: [];
}

/**
 * Downloads WordPress's React for the places panel beside mapbox-gl, once, without running it
 * (`<link rel="preload">`): the panel comes after the map's first clusters, and running React then
 * costs no download.
 */
function preloadPanelScripts(): void {
	if ( panelPreloaded ) {
		return;
	}
	panelPreloaded = true;
	for ( const url of panelScriptUrls() ) {
		const link = document.createElement( 'link' );
		link.rel = 'preload';
		link.as = 'script';
		link.href = url;
		document.head.appendChild( link );
	}
}

/**
 * Runs WordPress's React for the places panel, once, in order, just before the panel's chunk
 * (which reads it when it is evaluated). A script that cannot load leaves the map working with
 * the server's list (the runtime checks).
 */
function loadPanelScripts(): Promise< void > {
	panelScripts ??= ( async () => {
		const urls = panelScriptUrls();
		// All at once, executed in order (async = false): they download in parallel.
		await Promise.all(
			urls.map(
				( url ) =>
					new Promise< void >( ( resolve ) => {
						const script = document.createElement( 'script' );
						script.src = url;
						script.async = false;
						script.onload = () => resolve();
						script.onerror = () => resolve();
						document.head.appendChild( script );
					} )
			)
		);
	} )();
	return panelScripts;
}

async function start( {
	host,
	container,
	config,
}: RenderedMap ): Promise< void > {
	// The feed (or a tiled map's first view), mapbox-gl, the runtime and the places chunks all
	// download at once; React only downloads here (it runs once the map has drawn its first
	// clusters, for the panel). A tiled map never downloads its whole feed.
	const urls = config as {
		markersUrl?: unknown;
		postsUrl?: unknown;
		tilesUrl?: unknown;
	} | null;
	const tiled = typeof urls?.tilesUrl === 'string' && urls.tilesUrl !== '';
	const tiles = tiled ? prefetchTilesFor( config, container ) : null;
	const markers = prefetchMarkers( tiled ? '' : urls?.markersUrl );
	const posts = prefetchMarkers( tiled ? '' : urls?.postsUrl );
	// The configuration's engine only: a MapLibre map never loads mapbox-gl (nor contacts Mapbox).
	const library = loadMapLibrary(
		configEngine( config ),
		host.ownerDocument
	);
	if ( urls?.markersUrl || urls?.postsUrl ) {
		// The runtime asks for it again (the same download); a failure is reported there.
		loadPlacesChunk().catch( () => undefined );
		if ( host.querySelector( ':scope > .wp-block-cairn-map__places' ) ) {
			preloadPanelScripts();
		}
	}
	const release = () =>
		Promise.all( [ markers, posts ] ).then( ( feeds ) =>
			feeds.forEach( ( feed ) => feed?.release() )
		);
	try {
		const { createMap } = await import(
			/* webpackChunkName: "cairn-map-runtime" */ './runtime'
		);
		const mapLib = await library;
		// A map that could not start (no WebGL, a bad token) has no use for the feed.
		// watchMaps started it after the visitor's consent where the server asked for it.
		if (
			! createMap( container, config, {
				host,
				markers,
				posts,
				tiles,
				mapLib,
				consentGiven: true,
				beforePanel: loadPanelScripts,
			} ).map
		) {
			release();
		}
	} catch ( error ) {
		release();
		throw error;
	}
}

function init(): void {
	// A runtime chunk or a mapbox-gl file that cannot be downloaded (an ad blocker, a CDN outage,
	// a file that fails its integrity check) is reported like any other failure: an alert and
	// `cairn:map-error`, never an empty box.
	watchMaps( document, ( rendered ) => {
		start( rendered ).catch( () => showError( rendered.host, 'style' ) );
	} );
}

if ( document.readyState === 'loading' ) {
	document.addEventListener( 'DOMContentLoaded', init );
} else {
	init();
}
