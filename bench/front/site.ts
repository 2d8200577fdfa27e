/**
 * The bench's stand-in for a WordPress site: a small HTTP server on 127.0.0.1 that serves build/
 * under the plugin's URL path (gzip, as a production server would), WordPress core's two script
 * dependencies of the view script (wp-hooks, wp-i18n), mapbox-gl's own bundle for the baseline,
 * the marker feed (gzip, the feed's exact feature shape) and generated pages whose block markup is
 * what `Map_Block::render()` prints. No WordPress and no database: the bench times the browser
 * side (the shapes feed's features alone come from the plugin's PHP: routes.ts).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';

import { routes as makeRoutes, shapesFeed, type Route } from './routes';

export const ROOT = path.resolve( __dirname, '..', '..' );
export const PLUGIN_PATH = '/wp-content/plugins/cairn-maps/';
const BUILD = path.join( ROOT, 'build' );
const CORE_DIST = path.join(
	ROOT,
	'.cache',
	'wordpress',
	'wp-includes',
	'js',
	'dist'
);
const MAPBOX_DIST = path.join( ROOT, 'node_modules', 'mapbox-gl', 'dist' );

/** The fixture maps service's well-formed fake public token (see tests/e2e/fixtures). */
export const TOKEN = `pk.${ Buffer.from(
	JSON.stringify( { u: 'cairn-test', a: 'x' } )
).toString( 'base64url' ) }.c2lnbmF0dXJlLWNhaXJuLXRlc3Q`;

const LIST_MAX = 50; // limits.json markerList.maxItems

/** mulberry32: the same markers on every run. */
function random( seed: number ): () => number {
	let a = seed;
	return () => {
		/* eslint-disable no-bitwise */
		a = ( a + 0x6d2b79f5 ) | 0;
		let t = Math.imul( a ^ ( a >>> 15 ), 1 | a );
		t = ( t + Math.imul( t ^ ( t >>> 7 ), 61 | t ) ) ^ t;
		return ( ( t ^ ( t >>> 14 ) ) >>> 0 ) / 4294967296;
		/* eslint-enable no-bitwise */
	};
}

export interface Place {
	id: number;
	title: string;
	lng: number;
	lat: number;
	/** Slug of its one group. */
	group: string;
}

/**
 * The marker groups of the bench's places (issue 11: the legend toggles them), with the share of
 * the places each holds: uneven, as on real sites.
 */
export const GROUPS = [
	{ slug: 'harbours', name: 'Harbours', color: '#1f77b4', share: 0.3 },
	{ slug: 'museums', name: 'Museums', color: '#2ca02c', share: 0.22 },
	{ slug: 'parks', name: 'Parks', color: '#9467bd', share: 0.16 },
	{ slug: 'cafes', name: 'Cafés', color: '#8c564b', share: 0.14 },
	{ slug: 'markets', name: 'Markets', color: '#d62728', share: 0.1 },
	{ slug: 'viewpoints', name: 'Viewpoints', color: '#17becf', share: 0.08 },
];

/**
 * Words the places-panel bench searches for: each names 4 places at every size (one of them
 * with an accent, which search ignores); no other title shares their first letters.
 */
export const SEARCH_WORDS = [
	'Quillon',
	'Zephyrine',
	'Thistlebay',
	'Vexholm',
	'Brackwater',
];
const ACCENTED: Record< string, string > = {
	Quillon: 'Quíllon',
	Zephyrine: 'Zéphyrine',
	Thistlebay: 'Thistlebáy',
	Vexholm: 'Vexhólm',
	Brackwater: 'Brackwäter',
};
/** Syllables of the other places' names (none starts like a search word). */
const SYLLABLES = [
	'ca',
	'de',
	'di',
	'fo',
	'gu',
	'ha',
	'ke',
	'li',
	'mo',
	'nu',
];
const ENDINGS = [ 'lan', 'tor', 'mer', 'dal', 'sey', 'rik', 'ton', 'gard' ];
const KINDS: Record< string, string > = {
	harbours: 'Harbour',
	museums: 'Museum',
	parks: 'Park',
	cafes: 'Café',
	markets: 'Market',
	viewpoints: 'Viewpoint',
};

/** The group of the i-th place (shares as in GROUPS, interleaved). */
function groupOf( fraction: number ): string {
	let sum = 0;
	for ( const group of GROUPS ) {
		sum += group.share;
		if ( fraction < sum ) {
			return group.slug;
		}
	}
	return GROUPS[ GROUPS.length - 1 ]!.slug;
}

/**
 * The i-th place's name: a made-up word of 2–3 syllables and its kind ("Kedimer Harbour"); 4 places
 * per search word carry that word instead.
 *
 * @param i     Index.
 * @param count Number of places.
 * @param group Its group.
 */
function titleOf( i: number, count: number, group: string ): string {
	const kind = KINDS[ group ] ?? 'Place';
	if ( count >= 40 ) {
		const quarter = Math.floor( count / 4 );
		for ( const [ k, word ] of SEARCH_WORDS.entries() ) {
			for ( let j = 0; j < 4; j++ ) {
				if ( i === j * quarter + 7 + k * 3 ) {
					return `${ j === 0 ? ACCENTED[ word ] : word } ${ kind }`;
				}
			}
		}
	}
	const a = SYLLABLES[ i % SYLLABLES.length ]!;
	const b = SYLLABLES[ Math.floor( i / 10 ) % SYLLABLES.length ]!;
	const c = ENDINGS[ Math.floor( i / 100 ) % ENDINGS.length ]!;
	const word = `${ a }${ b }${ c }${ i >= 800 ? Math.floor( i / 800 ) : '' }`;
	return `${ word[ 0 ]!.toUpperCase() }${ word.slice( 1 ) } ${ kind }`;
}

/**
 * `count` places: two thirds around 60 "cities" (as real sites have them), a third spread over
 * the inhabited latitudes.
 *
 * @param count Number of places.
 */
const generated = new Map< number, Place[] >();

export function places( count: number ): Place[] {
	if ( ! generated.has( count ) ) {
		generated.set( count, generate( count ) );
	}
	return generated.get( count )!;
}

/**
 * The 60 "cities" of the places (the first draws of generate()'s sequence), [lng, lat]: where the
 * routes of issue 21 start too.
 */
export function cityCentres(): Array< [ number, number ] > {
	const next = random( 20261122 );
	return Array.from( { length: 60 }, () => {
		const lng = -170 + 340 * next();
		return [ lng, -45 + 110 * next() ] as [ number, number ];
	} );
}

/** Issue 21: how many routes of how many positions the shapes pages draw. */
export interface ShapesOptions {
	routes: number;
	vertices: number;
}

const generatedRoutes = new Map< string, Route[] >();

/**
 * The routes of the shapes pages (routes.ts), the same at every call.
 *
 * @param options Routes and positions.
 */
export function benchRoutes( options: ShapesOptions ): Route[] {
	const key = `${ options.routes }x${ options.vertices }`;
	if ( ! generatedRoutes.has( key ) ) {
		generatedRoutes.set(
			key,
			makeRoutes(
				cityCentres(),
				GROUPS.map( ( group ) => group.slug ),
				options.routes,
				options.vertices
			)
		);
	}
	return generatedRoutes.get( key )!;
}

/**
 * The routes' markers as the points feed carries them: each at its anchor (a route's first
 * position), 5 decimals like every place.
 *
 * @param list Routes.
 */
export function routeAnchors( list: Route[] ): Place[] {
	return list.map( ( route ) => ( {
		id: route.id,
		title: route.title,
		lng: Math.round( route.coordinates[ 0 ]![ 0 ] * 1e5 ) / 1e5,
		lat: Math.round( route.coordinates[ 0 ]![ 1 ] * 1e5 ) / 1e5,
		group: route.group,
	} ) );
}

function generate( count: number ): Place[] {
	const next = random( 20261122 );
	const cities = Array.from( { length: 60 }, () => [
		-170 + 340 * next(),
		-45 + 110 * next(),
	] );
	// Geojson_Feed::PRECISION: 5 decimals.
	const round = ( value: number ) => Math.round( value * 1e5 ) / 1e5;
	return Array.from( { length: count }, ( _, i ) => {
		let lng: number;
		let lat: number;
		if ( i % 3 === 2 ) {
			lng = -180 + 360 * next();
			lat = -55 + 125 * next();
		} else {
			const [ cx = 0, cy = 0 ] = cities[ i % cities.length ]!;
			const r = 1.5 * Math.sqrt( next() );
			const a = 2 * Math.PI * next();
			lng = Math.max( -180, Math.min( 180, cx + r * Math.cos( a ) ) );
			lat = Math.max( -85, Math.min( 85, cy + r * Math.sin( a ) ) );
		}
		const group = groupOf( ( ( ( i * 0.618034 ) % 1 ) + 1 ) % 1 );
		return {
			id: 1000 + i,
			title: titleOf( i, count, group ),
			lng: round( lng ),
			lat: round( lat ),
			group,
		};
	} );
}

/** The feed document, as `GET /cairn/v1/markers` prints it (Geojson_Feed::feature_json's member order). */
export function feed( list: Place[] ): string {
	return `{"type":"FeatureCollection","features":[${ list
		.map(
			( p ) =>
				`{"type":"Feature","properties":{"groups":["${ p.group }"],"title":${ JSON.stringify(
					p.title
				) }},"id":${ p.id },"geometry":{"type":"Point","coordinates":[${
					p.lng
				},${ p.lat }]}}`
		)
		.join( ',' ) }]}`;
}

/**
 * Which feeds a map page draws (issue 24): the markers feed only (issues 6 and 11), the posts
 * feed only, or both with half the places each.
 */
export type Layout = 'markers' | 'posts' | 'mixed';
export const LAYOUTS: Layout[] = [ 'markers', 'posts', 'mixed' ];

/** Post ids of the bench's places: a marker's id plus this (both are post ids, never equal). */
export const POST_ID_OFFSET = 10_000_000;

/** A place as a post: its id, and its group as a category key (`category:<slug>`). */
function postOf( p: Place ): Place {
	return { ...p, id: p.id + POST_ID_OFFSET, group: `category:${ p.group }` };
}

/**
 * The posts feed document, as `GET /cairn/v1/markers?post_type=post` prints it
 * (Geojson_Writer::feature_json: `groups`, `title`, then `type` and, for a post with a featured
 * image, `thumb`), for places already turned into posts (postOf()): every other post (by id) has
 * a featured image, with an address like WordPress's `thumbnail` size.
 *
 * @param list   Posts.
 * @param origin Site origin (the thumbnails' host).
 */
export function postsFeed( list: Place[], origin: string ): string {
	return `{"type":"FeatureCollection","features":[${ list
		.map( ( p ) => {
			const thumb =
				p.id % 2 === 0
					? `,"thumb":${ JSON.stringify(
							`${ origin }/wp-content/uploads/2026/11/place-${ p.id }-150x150.jpg`
						) }`
					: '';
			return `{"type":"Feature","properties":{"groups":[${ JSON.stringify(
				p.group
			) }],"title":${ JSON.stringify(
				p.title
			) },"type":"post"${ thumb }},"id":${ p.id },"geometry":{"type":"Point","coordinates":[${
				p.lng
			},${ p.lat }]}}`;
		} )
		.join( ',' ) }]}`;
}

/**
 * What a page of `count` places draws from each feed: the same `count` places (so the same
 * clusters) in every layout; the mixed page has the even-indexed ones as markers and the others as
 * posts.
 *
 * @param count  Number of places.
 * @param layout The page's feeds.
 */
export function layoutPlaces(
	count: number,
	layout: Layout
): { markers: Place[]; posts: Place[] } {
	const all = places( count );
	if ( layout === 'markers' ) {
		return { markers: all, posts: [] };
	}
	if ( layout === 'posts' ) {
		return { markers: [], posts: all.map( postOf ) };
	}
	return {
		markers: all.filter( ( _, i ) => i % 2 === 0 ),
		posts: all.filter( ( _, i ) => i % 2 === 1 ).map( postOf ),
	};
}

/** The feed addresses of a page (query `n` and `half` pick the bench's generated feed). */
function feedUrls(
	origin: string,
	count: number,
	layout: Layout,
	shapes = false
): { markersUrl: string; shapesUrl: string; postsUrl: string } {
	const base = `${ origin }/wp-json/cairn/v1/markers`;
	if ( count === 0 ) {
		return { markersUrl: '', shapesUrl: '', postsUrl: '' };
	}
	const half = layout === 'mixed' ? '&half=1' : '';
	// Issue 21: a map whose selection holds shapes gets the shapes feed; its points feed also
	// carries the routes' markers at their anchors. A points-only map: `shapesUrl` ''.
	if ( shapes ) {
		return {
			markersUrl: `${ base }?n=${ count }&routes=1`,
			shapesUrl: `${ origin }/wp-json/cairn/v1/shapes?n=${ count }`,
			postsUrl: '',
		};
	}
	return {
		markersUrl: layout === 'posts' ? '' : `${ base }?n=${ count }${ half }`,
		// Map_Block's order: shapesUrl right after markersUrl.
		shapesUrl: '',
		postsUrl:
			layout === 'markers'
				? ''
				: `${ base }?post_type=post&n=${ count }${ half }`,
	};
}

/** limits.json content.termPalette (Content_Places::legend() picks one per term key). */
const TERM_PALETTE = [
	'#0072b2',
	'#d55e00',
	'#009e73',
	'#cc79a7',
	'#e69f00',
	'#56b4e9',
	'#8c564b',
	'#666666',
];

function escapeAttribute( value: string ): string {
	return value
		.replace( /&/g, '&amp;' )
		.replace( /"/g, '&quot;' )
		.replace( /</g, '&lt;' )
		.replace( />/g, '&gt;' );
}

function escapeHtml( value: string ): string {
	return value
		.replace( /&/g, '&amp;' )
		.replace( /</g, '&lt;' )
		.replace( />/g, '&gt;' );
}

/**
 * The block as Map_Block::render() prints it for the default attributes (Standard style,
 * centre 0/20, zoom 2, clusters of radius 80), showing all markers; with posts (issue 24), the
 * posts feed in `postsUrl` and the categories' legend (Content_Places::legend(): key, name,
 * colour, no icon) after the groups' styles. The posts-only page is a map whose markers source
 * is "none" and whose content is the post type `post`.
 *
 * @param origin Site origin.
 * @param count  Number of places.
 * @param layout Which feeds the map draws.
 */
export function blockMarkup(
	origin: string,
	count: number,
	layout: Layout = 'markers',
	shapes = false,
	urls: WordPressMap | null = null,
	engine: Engine = 'mapbox'
): string {
	// Issue 22: a real WordPress's map (its addresses) lists its own places; the no-JS list here
	// shows the first 50 generated ones (the runtime replaces it).
	const shown = layoutPlaces(
		urls ? Math.min( count, LIST_MAX ) : count,
		layout
	);
	const list = [ ...shown.markers, ...shown.posts ].slice( 0, LIST_MAX );
	const markerStyles =
		layout === 'posts'
			? []
			: GROUPS.map( ( { slug, name, color } ) => ( {
					slug,
					name,
					color,
					icon: '',
					// Issue 21's group looks, at their defaults (the group's colour).
					lineColor: '',
					lineWidth: 3,
					fillOpacity: 0.25,
				} ) );
	const termStyles =
		layout === 'markers'
			? []
			: GROUPS.map( ( { slug, name }, i ) => ( {
					slug: `category:${ slug }`,
					name,
					color: TERM_PALETTE[ i % TERM_PALETTE.length ]!,
					icon: '',
				} ) );
	const config = {
		style: 'mapbox://styles/mapbox/standard',
		center: { lng: 0, lat: 20 },
		zoom: 2,
		bearing: 0,
		pitch: 0,
		minZoom: 0,
		maxZoom: 22,
		controls: {
			zoom: true,
			compass: true,
			scale: false,
			fullscreen: true,
			geolocate: false,
		},
		language: 'auto',
		cluster: { enabled: true, radius: 80 },
		hash: false,
		cooperativeGestures: true,
		height: '480px',
		markers: {
			source: layout === 'posts' ? 'none' : 'all',
			groups: [],
			ids: [],
		},
		content: {
			postTypes: layout === 'markers' ? [] : [ 'post' ],
			terms: {},
			current: false,
		},
		accessToken: TOKEN,
		...feedUrls( origin, count, layout, shapes ),
		// Issue 22: '' for a map that ships its whole feed (as Map_Block prints it then).
		tilesUrl: '',
		placesUrl: '',
		summaryUrl: '',
		...( urls ?? {} ),
		markerUrl: `${ origin }/wp-json/cairn/v1/markers/`,
		hashName: '',
		groupStyles: [ ...markerStyles, ...termStyles ],
		places: { search: true, groupFilter: true, followMap: true },
		languages: [],
		units: 'metric',
		consent: { required: false, category: '' },
		// Issue 31: the engine and basemap keys, as Map_Block prints them for each engine.
		...ENGINE_CONFIG[ engine ],
	};
	// Map_Block::render(): only a server-rendered map starts (watch-maps' isServerRendered()):
	// a fresh 128-bit key in `data-cairn-key` and in a JSON script among the wrapper's children.
	const key = randomBytes( 16 ).toString( 'hex' );
	const items = list
		.map(
			( p ) =>
				`<li data-cairn-marker-id="${ p.id }" data-lng="${ p.lng }" data-lat="${ p.lat }">${ escapeHtml(
					p.title
				) }</li>`
		)
		.join( '' );
	// Issue 11's no-JavaScript pager: further pages of 50 through `?cairn-places=<page>`, each
	// landing on the places panel (Map_Block::render_pages).
	const panel = 'cairn-places-1-1';
	const pager =
		count > LIST_MAX
			? '<nav class="wp-block-cairn-map__pages" aria-label="Pages of places">' +
				`<span class="wp-block-cairn-map__pages-range">Places 1–${ LIST_MAX } of ${ count.toLocaleString(
					'en'
				) }</span>` +
				`<a class="wp-block-cairn-map__pages-next" rel="next" href="?cairn-places=2#${ panel }">Next places</a></nav>`
			: '';
	return (
		`<div style="--cairn-map-height:480px;" class="wp-block-cairn-map" data-cairn-state="loading" data-cairn-config="${ escapeAttribute(
			JSON.stringify( config )
		) }" data-cairn-key="${ key }">` +
		`<script type="application/json" class="wp-block-cairn-map__key">"${ key }"</script>` +
		`<a class="wp-block-cairn-map__skip" href="#${ panel }">Skip the map</a>` +
		`<div class="wp-block-cairn-map__map" role="region" aria-label="Interactive map" aria-describedby="${ panel }-list"></div>` +
		`<div class="wp-block-cairn-map__places" role="region" aria-label="Places" id="${ panel }">` +
		`<div class="wp-block-cairn-map__markers" id="${ panel }-list"><h2 class="wp-block-cairn-map__markers-title">${ count } places on this map</h2>` +
		( items
			? `<ul class="wp-block-cairn-map__list">${ items }</ul>`
			: '' ) +
		pager +
		'</div></div></div>'
	);
}

/** Issue 31: the two engines the bench compares on the same page and places. */
export type Engine = 'mapbox' | 'maplibre';
export const ENGINES: Engine[] = [ 'mapbox', 'maplibre' ];

/**
 * What Map_Block prints per engine (plugin/Blocks/Basemap.php): mapbox-gl on Mapbox Standard with
 * the token; maplibre-gl on OpenFreeMap Liberty (the maps service's OpenFreeMap stand-in), no token.
 */
const ENGINE_CONFIG: Record< Engine, Record< string, unknown > > = {
	mapbox: {
		engine: 'mapbox',
		basemap: { provider: 'mapbox', glyphs: '', hosts: [], attribution: '' },
	},
	maplibre: {
		engine: 'maplibre',
		style: 'https://tiles.openfreemap.org/styles/liberty',
		accessToken: '',
		basemap: {
			provider: 'openfreemap',
			glyphs: '',
			hosts: [ 'tiles.openfreemap.org' ],
			attribution: 'OpenFreeMap © OpenMapTiles Data from OpenStreetMap',
		},
	},
};

/** `?engine=maplibre` on a page's address: that engine, else mapbox. */
function engineOf( url: URL ): Engine {
	return url.searchParams.get( 'engine' ) === 'maplibre'
		? 'maplibre'
		: 'mapbox';
}

function page( title: string, head: string, body: string ): string {
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${ title }</title>
<style>body{margin:0;font-family:sans-serif}main{max-width:1100px;margin:0 auto;padding:0 16px}</style>
${ head }</head>
<body><main><h1>${ title }</h1>
${ body }
</main></body></html>`;
}

/** A WordPress page with the block: the block's style and view script, core's i18n after. */
function blockPage(
	origin: string,
	count: number,
	spacer: boolean,
	layout: Layout = 'markers',
	shapes = false,
	urls: WordPressMap | null = null,
	engine: Engine = 'mapbox'
): string {
	// Blocks\View_Script: React (WordPress's, for the places panel) is not a dependency of the
	// view script; the loader gets its addresses, dependencies first, and loads them with the map.
	const lazy = [
		'vendor/react.min.js',
		'vendor/react-dom.min.js',
		'vendor/react-jsx-runtime.min.js',
		'escape-html.min.js',
		'element.min.js',
	].map( ( name ) => `${ origin }/wp-includes/js/dist/${ name }` );
	// Blocks\Mapbox_Gl: mapbox-gl from Mapbox's distribution (the maps service serves it).
	const library = JSON.parse(
		fs.readFileSync( path.join( BUILD, 'mapbox-gl.json' ), 'utf8' )
	);
	const base = `https://api.mapbox.com/mapbox-gl-js/v${ library.version }/`;
	const mapboxGl = {
		version: library.version,
		js: { src: `${ base }mapbox-gl.js`, integrity: library.js },
		css: { src: `${ base }mapbox-gl.css`, integrity: library.css },
	};
	const head =
		`<link rel="stylesheet" id="cairn-map-style-css" href="${ PLUGIN_PATH }build/blocks/map/style-index.css" media="all">` +
		`<script id="cairn-map-view-script-js-before">var cairnMapsScripts = ${ JSON.stringify(
			lazy
		) };\nvar cairnMapsMapboxGl = ${ JSON.stringify( mapboxGl ) };</script>` +
		`<script src="${ PLUGIN_PATH }build/blocks/map/view.js" id="cairn-map-view-script-js" defer data-wp-strategy="defer"></script>`;
	const footer =
		'<script src="/wp-includes/js/dist/hooks.min.js" id="wp-hooks-js"></script>' +
		'<script src="/wp-includes/js/dist/i18n.min.js" id="wp-i18n-js"></script>' +
		"<script id=\"wp-i18n-js-after\">wp.i18n.setLocaleData( { 'text direction\\u0004ltr': [ 'ltr' ] } );</script>";
	const what = {
		markers: 'markers',
		posts: 'posts',
		mixed: 'places (half markers, half posts)',
	}[ layout ];
	return page(
		`Map with ${ count } ${ what }${ shapes ? ' and routes' : '' }`,
		head,
		( spacer
			? '<div style="height:2400px" aria-hidden="true"></div>'
			: '' ) +
			blockMarkup( origin, count, layout, shapes, urls, engine ) +
			footer
	);
}

/** What several map plugins do: one DOM `mapboxgl.Marker` per point, added when the map loads. */
function baselinePage( count: number ): string {
	const head =
		'<link rel="stylesheet" href="/mapbox-gl/mapbox-gl.css"><script src="/mapbox-gl/mapbox-gl.js"></script>';
	const body = `<div id="map" style="height:480px"></div>
<script>
mapboxgl.accessToken = ${ JSON.stringify( TOKEN ) };
const map = new mapboxgl.Map( { container: 'map', style: 'mapbox://styles/mapbox/standard', center: [ 0, 20 ], zoom: 2, performanceMetricsCollection: false } );
window.benchMap = map;
map.on( 'load', async () => {
	const data = ${ count } > 0 ? await ( await fetch( '/wp-json/cairn/v1/markers?n=${ count }' ) ).json() : { features: [] };
	for ( const feature of data.features ) {
		new mapboxgl.Marker().setLngLat( feature.geometry.coordinates ).addTo( map );
	}
	window.bench.marks.markersAdded = performance.now();
	map.once( 'idle', () => { window.bench.marks.done = performance.now(); } );
	map.triggerRepaint();
} );
</script>`;
	return page( `Baseline with ${ count } DOM markers`, head, body );
}

interface Served {
	body: Buffer;
	gzip: Buffer | null;
	type: string;
}

const TYPES: Record< string, string > = {
	'.js': 'text/javascript; charset=utf-8',
	// maplibre-gl's worker (a module worker: the browser needs a JavaScript type).
	'.mjs': 'text/javascript; charset=utf-8',
	'.css': 'text/css; charset=utf-8',
	'.json': 'application/json; charset=utf-8',
	'.html': 'text/html; charset=utf-8',
};

function served( body: Buffer | string, type: string ): Served {
	const buffer = Buffer.isBuffer( body ) ? body : Buffer.from( body );
	const compressible = /javascript|css|json|html/.test( type );
	return {
		body: buffer,
		gzip: compressible ? zlib.gzipSync( buffer, { level: 9 } ) : null,
		type,
	};
}

/** gzip -9 size of a build file (what the bench server sends). */
export function gzipSize( file: string ): number {
	return zlib.gzipSync( fs.readFileSync( file ), { level: 9 } ).length;
}

/**
 * Issue 22: a map of a real WordPress (bench/api/run.sh BENCH_ONLY=tiles, seeded with `count`
 * markers): its addresses as `/cairn/v1/posts/<id>/maps` gives them, rewritten onto this site's
 * `/wp/` proxy (same origin, as on a WordPress page).
 */
export interface WordPressMap {
	markersUrl: string;
	tilesUrl: string;
	placesUrl: string;
	summaryUrl: string;
}

export interface WordPressSite {
	/** The bench WordPress, e.g. http://127.0.0.1:8897. */
	origin: string;
	/** Per place count: the tiled map's addresses (`tiled-<n>.html`); `wpfeed-<n>.html` keeps `markersUrl` only. */
	maps: Map< number, WordPressMap >;
}

export interface BenchSite {
	origin: string;
	/** Whether WordPress core's hooks/i18n scripts were found (else small stand-ins are served). */
	coreScripts: 'wordpress' | 'stub';
	close: () => Promise< void >;
}

/**
 * Issue 22: `/wp/<path>` of this site answered by the bench WordPress (`<origin>/<path>`), status,
 * headers and body as they come (gzip stays gzip: the bytes the browser counts are WordPress's).
 *
 * @param origin   The WordPress origin.
 * @param url      The request's URL on this site.
 * @param request  The request.
 * @param response Its response.
 */
function proxy(
	origin: string,
	url: URL,
	request: http.IncomingMessage,
	response: http.ServerResponse
) {
	const target = new URL( url.pathname.slice( 3 ) + url.search, origin );
	const headers: http.OutgoingHttpHeaders = {};
	for ( const name of [ 'accept', 'accept-encoding', 'if-none-match' ] ) {
		if ( request.headers[ name ] ) {
			headers[ name ] = request.headers[ name ];
		}
	}
	const upstream = http.get( target, { headers }, ( answer ) => {
		response.writeHead( answer.statusCode ?? 502, {
			...answer.headers,
			'timing-allow-origin': '*',
		} );
		answer.pipe( response );
	} );
	upstream.on( 'error', ( error ) => {
		response.writeHead( 502, { 'content-type': 'text/plain' } );
		response.end( String( error ) );
	} );
}

const I18N_STUB = `window.wp=window.wp||{};wp.i18n={__:function(s){return s},_x:function(s){return s},_n:function(a,b,n){return n===1?a:b},sprintf:function(f){var a=[].slice.call(arguments,1),i=0;return f.replace(/%(\\d+\\$)?[sd]/g,function(m,p){return String(p?a[parseInt(p,10)-1]:a[i++])})},setLocaleData:function(){}};`;

/**
 * Starts the site.
 *
 * @param sizes     Place counts whose feeds (and pages) it serves.
 * @param buildDir  The plugin's build.
 * @param withPosts Also the posts feeds of issue 24 (posts-only and mixed pages).
 * @param shapes    Issue 21: routes for `/page/shapes-<n>.html` (the map of `n` places plus
 *                  these routes: the points feed with their anchors, and the shapes feed).
 */
export async function startSite(
	sizes: number[],
	buildDir: string = BUILD,
	withPosts = true,
	shapes: ShapesOptions | null = null,
	wordpress: WordPressSite | null = null
): Promise< BenchSite > {
	const cache = new Map< string, Served >();
	const hasCore = fs.existsSync( path.join( CORE_DIST, 'i18n.min.js' ) );
	let origin = '';

	// Keyed `<n>` (markers-only), `posts-<n>`, `half-<n>` and `posts-half-<n>` (the mixed page's).
	const feeds = new Map< string, Served >();
	const feedsFor = ( site: string ) => {
		for ( const size of sizes.filter( ( n ) => n > 0 ) ) {
			const json = TYPES[ '.json' ]!;
			feeds.set( `${ size }`, served( feed( places( size ) ), json ) );
			if ( shapes ) {
				const list = benchRoutes( shapes );
				feeds.set(
					`routes-${ size }`,
					served(
						feed( [ ...places( size ), ...routeAnchors( list ) ] ),
						json
					)
				);
				feeds.set(
					`shapes-${ size }`,
					served( shapesFeed( list ), json )
				);
			}
			if ( ! withPosts ) {
				continue;
			}
			const all = layoutPlaces( size, 'posts' ).posts;
			const mixed = layoutPlaces( size, 'mixed' );
			feeds.set(
				`posts-${ size }`,
				served( postsFeed( all, site ), json )
			);
			feeds.set(
				`half-${ size }`,
				served( feed( mixed.markers ), json )
			);
			feeds.set(
				`posts-half-${ size }`,
				served( postsFeed( mixed.posts, site ), json )
			);
		}
	};

	const file = ( absolute: string ): Served | null => {
		if ( ! cache.has( absolute ) ) {
			if (
				! fs.existsSync( absolute ) ||
				! fs.statSync( absolute ).isFile()
			) {
				return null;
			}
			cache.set(
				absolute,
				served(
					fs.readFileSync( absolute ),
					TYPES[ path.extname( absolute ) ] ??
						'application/octet-stream'
				)
			);
		}
		return cache.get( absolute ) ?? null;
	};

	const resolve = ( url: URL ): Served | null => {
		const p = decodeURIComponent( url.pathname );
		if ( p.startsWith( `${ PLUGIN_PATH }build/` ) ) {
			const rel = path.normalize(
				p.slice( `${ PLUGIN_PATH }build/`.length )
			);
			return rel.startsWith( '..' )
				? null
				: file( path.join( buildDir, rel ) );
		}
		// Other core scripts (wp-element and React for the places panel, when the runtime
		// asks for them), as WordPress serves them.
		const core =
			/^\/wp-includes\/js\/dist\/((?:vendor\/)?[a-z0-9.-]+\.js)$/.exec(
				p
			);
		if (
			core &&
			hasCore &&
			! [ 'hooks.min.js', 'i18n.min.js' ].includes( core[ 1 ]! )
		) {
			return file( path.join( CORE_DIST, core[ 1 ]! ) );
		}
		if ( p === '/wp-includes/js/dist/hooks.min.js' ) {
			return hasCore
				? file( path.join( CORE_DIST, 'hooks.min.js' ) )
				: served( '', TYPES[ '.js' ]! );
		}
		if ( p === '/wp-includes/js/dist/i18n.min.js' ) {
			return hasCore
				? file( path.join( CORE_DIST, 'i18n.min.js' ) )
				: served( I18N_STUB, TYPES[ '.js' ]! );
		}
		if (
			p === '/mapbox-gl/mapbox-gl.js' ||
			p === '/mapbox-gl/mapbox-gl.css'
		) {
			return file( path.join( MAPBOX_DIST, path.basename( p ) ) );
		}
		if ( p === '/wp-json/cairn/v1/shapes' ) {
			return (
				feeds.get(
					`shapes-${ Number( url.searchParams.get( 'n' ) ) }`
				) ?? null
			);
		}
		if (
			p === '/wp-json/cairn/v1/markers' &&
			url.searchParams.get( 'routes' ) === '1'
		) {
			return (
				feeds.get(
					`routes-${ Number( url.searchParams.get( 'n' ) ) }`
				) ?? null
			);
		}
		if ( p === '/wp-json/cairn/v1/markers' ) {
			const posts = url.searchParams.get( 'post_type' ) === 'post';
			const half = url.searchParams.get( 'half' ) === '1';
			const key = `${ posts ? 'posts-' : '' }${ half ? 'half-' : '' }${ Number(
				url.searchParams.get( 'n' )
			) }`;
			return feeds.get( key ) ?? null;
		}
		const single = /^\/wp-json\/cairn\/v1\/markers\/(\d+)$/.exec( p );
		if ( single ) {
			const id = Number( single[ 1 ] );
			return served(
				JSON.stringify( {
					id,
					title: `Place ${ id - 999 }`,
					content: '',
					link: '',
					lng: 0,
					lat: 0,
					groups: [],
				} ),
				TYPES[ '.json' ]!
			);
		}
		let match = /^\/page\/map-(\d+)(-below)?\.html$/.exec( p );
		if ( match ) {
			return served(
				blockPage(
					origin,
					Number( match[ 1 ] ),
					Boolean( match[ 2 ] ),
					'markers',
					false,
					null,
					engineOf( url )
				),
				TYPES[ '.html' ]!
			);
		}
		// Issue 24: the same places as posts only, or half markers and half posts.
		match = /^\/page\/(posts|mixed)-(\d+)\.html$/.exec( p );
		if ( match ) {
			return served(
				blockPage(
					origin,
					Number( match[ 2 ] ),
					false,
					match[ 1 ] as Layout
				),
				TYPES[ '.html' ]!
			);
		}
		// Issue 21: the same places plus the routes (served when startSite() was given them).
		match = /^\/page\/shapes-(\d+)\.html$/.exec( p );
		if ( match && shapes ) {
			return served(
				blockPage(
					origin,
					Number( match[ 1 ] ),
					false,
					'markers',
					true
				),
				TYPES[ '.html' ]!
			);
		}
		// Issue 22: the maps of the bench WordPress (tiled, and the same places as its whole feed).
		match = /^\/page\/(tiled|wpfeed)-(\d+)\.html$/.exec( p );
		const wpMap = match
			? wordpress?.maps.get( Number( match[ 2 ] ) )
			: null;
		if ( match && wpMap ) {
			const urls =
				match[ 1 ] === 'tiled'
					? wpMap
					: {
							markersUrl: wpMap.markersUrl,
							tilesUrl: '',
							placesUrl: '',
							summaryUrl: '',
						};
			return served(
				blockPage(
					origin,
					Number( match[ 2 ] ),
					false,
					'markers',
					false,
					urls,
					engineOf( url )
				),
				TYPES[ '.html' ]!
			);
		}
		match = /^\/page\/baseline-(\d+)\.html$/.exec( p );
		if ( match ) {
			return served(
				baselinePage( Number( match[ 1 ] ) ),
				TYPES[ '.html' ]!
			);
		}
		if ( p === '/page/plain.html' ) {
			return served(
				page(
					'A page without the block',
					'',
					'<p>Just words, no map.</p>'
				),
				TYPES[ '.html' ]!
			);
		}
		return null;
	};

	const server = http.createServer( ( request, response ) => {
		const url = new URL( request.url ?? '/', 'http://127.0.0.1' );
		if ( wordpress && url.pathname.startsWith( '/wp/' ) ) {
			proxy( wordpress.origin, url, request, response );
			return;
		}
		const answer = resolve( url );
		if ( ! answer ) {
			response.writeHead( 404, { 'content-type': 'text/plain' } );
			response.end( 'not found' );
			return;
		}
		const gzip =
			answer.gzip &&
			/\bgzip\b/.test(
				String( request.headers[ 'accept-encoding' ] ?? '' )
			);
		response.writeHead( 200, {
			'content-type': answer.type,
			'cache-control': 'no-cache',
			'timing-allow-origin': '*',
			...( gzip
				? { 'content-encoding': 'gzip', vary: 'Accept-Encoding' }
				: {} ),
		} );
		response.end( gzip ? answer.gzip : answer.body );
	} );
	await new Promise< void >( ( done ) =>
		server.listen( 0, '127.0.0.1', () => done() )
	);
	origin = `http://127.0.0.1:${ ( server.address() as AddressInfo ).port }`;
	// After listening: the posts' thumbnail addresses carry the site's origin.
	feedsFor( origin );
	return {
		origin,
		coreScripts: hasCore ? 'wordpress' : 'stub',
		close: () =>
			new Promise< void >( ( done ) => {
				server.closeAllConnections();
				server.close( () => done() );
			} ),
	};
}
