#!/usr/bin/env node
/**
 * Issue 22: measures one marker count of `npm run bench:api:tiles` (bench/api/run.sh with
 * BENCH_ONLY=tiles) against the bench site, and writes the numbers as JSON.
 *
 *   node bench/api/tiles.mjs --size N --url http://127.0.0.1:PORT --page ID --out size-N.json
 *        [--seed seed-N.json] [--index index-N.json] [--static /bench-static/tile.json]
 *
 * The map: the page `--page` holds one map of every marker; `/cairn/v1/posts/<id>/maps` gives
 * its `tilesUrl`, `placesUrl` and `summaryUrl` (the bench site's threshold is 1, so every size is
 * tiled). When the route does not give them yet, the addresses are built from DESIGN.md's routes
 * and the markers version (`checks.config_from_route` says which).
 *
 * The tiles: BENCH_TILE_SESSIONS (8) visitors, each opening the map on a place of the data at
 * zoom 2, then zooming in at 3, 4, 6, 8, 10 and 12 around it, panning half a screen east at each
 * zoom: the tiles a 1280×800 map of 512-px tiles asks for (DESIGN's tiled client), unique, in
 * that order. Then:
 * - cold: `wp.php tile-flush` (the plugin's tile and places caches emptied), then every tile of
 *   the set once at concurrency 4 (each the first request after the cache was emptied);
 * - warm: the set again at concurrency 4 (`Accept-Encoding: gzip`);
 * - 304: every tile with its ETag (If-None-Match), interleaved one for one with the same number of
 *   304s of a static file served by the same nginx (--static; its ETag), so both meet the same
 *   machine: the target compares the two p95;
 * - bytes and features per tile (as served, gzip when the server compresses);
 * - search → list: BENCH_SEARCHES words and prefixes of the seed's titles and group names; each
 *   is the summary and the first page of the list (`/places/summary?q=`, `/places?q=`) asked
 *   together, as the panel does; the time is the slower of the two. Each query twice (first /
 *   repeated);
 * - a broad search's tiles: the 85 tiles of z0–3 for each of BROAD, cold (after tile-flush);
 * - list after a move: `/places?bbox=` of every view of the sessions (zoom ≥ 4), page 1;
 * - one place moved: the administrator saves one marker with new coordinates through
 *   `POST /wp/v2/cairn-markers/<id>` (application password): time of that request, then the new
 *   `tilesUrl` (new version) and the next tile answers that hold its new position (zoom 12, and
 *   zoom 17, where every place is a point: the place must be there, at its new position);
 * - a flood: BENCH_TILE_FLOOD (300) distinct tile URLs and as many distinct search URLs (random
 *   z/x/y, radius, hidden groups, q, bbox; each sent twice), two rounds; `wp.php cache-rows`
 *   before and after each round: the plugin's options and tables must not grow with the flood;
 * - PHP peak memory and SQL of every kind (bench mu-plugin), and how many requests of each kind
 *   read the place index (`index_reads`) and how many read its places, cells or words (`built`: a
 *   cached answer reads none of those).
 *
 * Latency is time to the last byte at the client; percentiles nearest-rank.
 */
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { DEEPEST, compareClusters } from './clusters.mjs';

const HERE = path.dirname( fileURLToPath( import.meta.url ) );
const args = Object.fromEntries(
	process.argv.slice( 2 ).reduce( ( pairs, arg, i, all ) => {
		if ( arg.startsWith( '--' ) ) {
			pairs.push( [ arg.slice( 2 ), all[ i + 1 ] ] );
		}
		return pairs;
	}, [] )
);
const env = ( name, fallback ) => {
	const value = Number( process.env[ name ] );
	return Number.isFinite( value ) && value > 0 ? value : fallback;
};
const SIZE = Number( args.size );
const BASE = String( args.url || '' ).replace( /\/$/, '' );
const PAGE = Number( args.page ) || 0;
const STATIC = args.static || '';
// Issue 22: nginx proxy_cache in front of the site (run.sh's second server, docs/cdn.md's set-up).
const PROXY = String( args.proxy || '' ).replace( /\/$/, '' );
const PEAK_LOG = process.env.CAIRN_BENCH_PEAK_LOG;
const CONCURRENCY = env( 'BENCH_CONCURRENCY', 4 );
const SESSIONS = env( 'BENCH_TILE_SESSIONS', 8 );
const SEARCHES = env( 'BENCH_SEARCHES', 24 );
const FLOOD = env( 'BENCH_TILE_FLOOD', 300 );
const DATA = ( process.env.BENCH_DATA || 'world' ).trim();
const REQUEST_TIMEOUT_MS = 120000;
const GZIP = { 'Accept-Encoding': 'gzip' };
const VIEW = { width: 1280, height: 800, tile: 512 };
const ZOOMS = [ 2, 3, 4, 6, 8, 10, 12 ];
const GROUPS = [ 'huts', 'peaks', 'springs', 'viewpoints', 'bridges' ];
// Words of seed.php's titles (folded) and group names: what a visitor would type.
const QUERIES = [
	'misty',
	'tarn',
	'old bri',
	'cafe',
	'rock pool',
	'hut',
	'peaks',
	'saint',
	'gold',
	'windy col',
	'royal',
	'hidden falls',
	'bothy',
	'spr',
	'north ridge',
	'lookout',
	'silver beck',
	'mill',
	'deep',
	'twin pike',
	'chapel',
	'grey',
	'lone knoll',
	'quiet cove',
	'stony',
	'view',
	'far scar',
	'bridges',
	'great glen',
	'white well',
];

const agent = new http.Agent( {
	keepAlive: true,
	maxSockets: CONCURRENCY,
	maxFreeSockets: CONCURRENCY,
} );
let counter = 0;
const runId = `t${ SIZE }-${ Date.now().toString( 36 ) }`;

function log( message ) {
	process.stderr.write( `[bench:api:tiles] ${ SIZE }: ${ message }\n` );
}

/**
 * One request; resolves with status, headers, body bytes and the time to the last byte.
 * @param method
 * @param pathname
 * @param headers
 * @param label
 * @param body
 */
function request( method, pathname, headers = {}, label = 'req', body = null ) {
	const id = `${ runId }-${ label }-${ ++counter }`;
	// `proxy:` paths go to the caching proxy in front of the site (--proxy).
	const url = pathname.startsWith( 'proxy:' )
		? PROXY + pathname.slice( 6 )
		: BASE + pathname;
	return new Promise( ( resolve, reject ) => {
		const started = process.hrtime.bigint();
		const req = http.request(
			url,
			{
				method,
				agent,
				headers: {
					'X-Bench-Id': id,
					'User-Agent': 'cairn-bench',
					...headers,
				},
			},
			( response ) => {
				const chunks = [];
				response.on( 'data', ( chunk ) => chunks.push( chunk ) );
				response.on( 'end', () => {
					const ms =
						Number( process.hrtime.bigint() - started ) / 1e6;
					resolve( {
						id,
						path: pathname,
						status: response.statusCode,
						headers: response.headers,
						body: Buffer.concat( chunks ),
						ms,
					} );
				} );
				response.on( 'error', reject );
			}
		);
		req.setTimeout( REQUEST_TIMEOUT_MS, () =>
			req.destroy(
				new Error(
					`timeout after ${ REQUEST_TIMEOUT_MS } ms: ${ pathname }`
				)
			)
		);
		req.on( 'error', reject );
		req.end( body );
	} );
}
const get = ( pathname, headers, label ) =>
	request( 'GET', pathname, headers, label );

/**
 * `total` requests made by `concurrency` workers.
 * @param total
 * @param concurrency
 * @param make
 */
async function load( total, concurrency, make ) {
	const results = [];
	let next = 0;
	const started = process.hrtime.bigint();
	const worker = async () => {
		while ( next < total ) {
			const index = next++;
			results[ index ] = await make( index );
		}
	};
	await Promise.all(
		Array.from( { length: Math.min( concurrency, total ) }, worker )
	);
	return {
		results,
		seconds: Number( process.hrtime.bigint() - started ) / 1e9,
	};
}

export function percentile( values, p ) {
	if ( ! values.length ) {
		return null;
	}
	const sorted = [ ...values ].sort( ( a, b ) => a - b );
	return sorted[
		Math.max( 0, Math.ceil( ( p / 100 ) * sorted.length ) - 1 )
	];
}
const round = ( value, digits = 1 ) =>
	null === value || undefined === value || ! Number.isFinite( value )
		? null
		: Number( value.toFixed( digits ) );

function stats( values, seconds ) {
	const ms = values.map( ( r ) => ( 'number' === typeof r ? r : r.ms ) );
	if ( ! ms.length ) {
		return { n: 0 };
	}
	return {
		n: ms.length,
		p50_ms: round( percentile( ms, 50 ) ),
		p95_ms: round( percentile( ms, 95 ) ),
		max_ms: round( Math.max( ...ms ) ),
		mean_ms: round( ms.reduce( ( a, b ) => a + b, 0 ) / ms.length ),
		...( seconds ? { req_per_s: round( ms.length / seconds ) } : {} ),
	};
}

function statuses( results ) {
	const count = {};
	for ( const r of results ) {
		count[ r.status ] = ( count[ r.status ] || 0 ) + 1;
	}
	return count;
}

function expectStatus( results, status, what ) {
	const wrong = results.filter( ( r ) => r.status !== status );
	if ( wrong.length ) {
		const sample = wrong[ 0 ];
		throw new Error(
			`${ what }: expected HTTP ${ status }, got ${ sample.status } (${ wrong.length } of ${ results.length }) for ${ sample.path }: ${ sample.body.toString( 'utf8', 0, 300 ) }`
		);
	}
}

/**
 * PHP peak memory, SQL, index reads of these requests (the bench mu-plugin's shutdown log).
 * @param results
 */
async function peaks( results ) {
	const wanted = new Set( results.map( ( r ) => r.id ) );
	let found = new Map();
	for ( let attempt = 0; attempt < 20; attempt++ ) {
		found = new Map();
		for ( const line of fs
			.readFileSync( PEAK_LOG, 'utf8' )
			.split( '\n' ) ) {
			try {
				const entry = line ? JSON.parse( line ) : null;
				if ( entry && wanted.has( entry.id ) ) {
					found.set( entry.id, entry );
				}
			} catch {
				// A line being written; the next attempt reads it whole.
			}
		}
		if ( found.size === wanted.size ) {
			break;
		}
		await new Promise( ( resolve ) => setTimeout( resolve, 100 ) );
	}
	const entries = [ ...found.values() ];
	if ( ! entries.length ) {
		return {
			logged: 0,
			peak_bytes: null,
			queries: null,
			index_reads: null,
		};
	}
	return {
		logged: entries.length,
		peak_bytes: Math.max( ...entries.map( ( e ) => e.peak ) ),
		peak_real_bytes: Math.max( ...entries.map( ( e ) => e.peak_real ) ),
		php_ms_p95: round(
			percentile(
				entries.map( ( e ) => e.php_ms ),
				95
			)
		),
		queries_max: Math.max( ...entries.map( ( e ) => e.queries ?? 0 ) ),
		// How many of these requests read the place index (a cached answer reads none).
		index_reads: entries.filter( ( e ) => e.index_reads > 0 ).length,
		// How many read its places, cells or words (built the answer rather than a cached one).
		built: entries.filter( ( e ) => e.build_reads > 0 ).length,
		marks_p50: Object.fromEntries(
			[
				...new Set(
					entries.flatMap( ( e ) => Object.keys( e.marks || {} ) )
				),
			].map( ( key ) => [
				key,
				round(
					percentile(
						entries
							.map( ( e ) => e.marks?.[ key ] )
							.filter( ( v ) => 'number' === typeof v ),
						50
					)
				),
			] )
		),
	};
}

function wp( ...command ) {
	return execFileSync( 'php', [ path.join( HERE, 'wp.php' ), ...command ], {
		stdio: [ 'ignore', 'pipe', 'inherit' ],
		timeout: 120000,
	} ).toString();
}

/**
 * mulberry32: the same sessions and floods on every run.
 * @param seed
 */
function random( seed ) {
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

// --- Slippy-map tile arithmetic (Web Mercator, as Morton::code) ---------------------------------
const MAX_LAT = 85.05112878;
export const lngToX = ( lng, z ) => ( ( lng + 180 ) / 360 ) * 2 ** z;
export function latToY( lat, z ) {
	const phi =
		( Math.max( -MAX_LAT, Math.min( MAX_LAT, lat ) ) * Math.PI ) / 180;
	return (
		( ( 1 - Math.log( Math.tan( phi ) + 1 / Math.cos( phi ) ) / Math.PI ) /
			2 ) *
		2 ** z
	);
}
export const xToLng = ( x, z ) => ( x / 2 ** z ) * 360 - 180;
export function yToLat( y, z ) {
	const n = Math.PI - ( 2 * Math.PI * y ) / 2 ** z;
	return ( 180 / Math.PI ) * Math.atan( Math.sinh( n ) );
}

/**
 * The tiles (z, x, y) and the box of a 1280×800 view of 512-px tiles centred on (lng, lat) at
 * zoom z (the map's zoom = the tiles' zoom for 512-px tiles).
 * @param lng
 * @param lat
 * @param z
 */
export function view( lng, lat, z ) {
	const cx = lngToX( lng, z );
	const cy = latToY( lat, z );
	const halfW = VIEW.width / VIEW.tile / 2;
	const halfH = VIEW.height / VIEW.tile / 2;
	const n = 2 ** z;
	const tiles = [];
	for (
		let x = Math.floor( cx - halfW );
		x <= Math.floor( cx + halfW );
		x++
	) {
		for (
			let y = Math.max( 0, Math.floor( cy - halfH ) );
			y <= Math.min( n - 1, Math.floor( cy + halfH ) );
			y++
		) {
			tiles.push( [ z, ( ( x % n ) + n ) % n, y ] );
		}
	}
	const clampLng = ( v ) => Math.max( -180, Math.min( 180, v ) );
	const bbox = [
		clampLng( xToLng( cx - halfW, z ) ),
		Math.max( -MAX_LAT, yToLat( Math.min( n, cy + halfH ), z ) ),
		clampLng( xToLng( cx + halfW, z ) ),
		Math.min( MAX_LAT, yToLat( Math.max( 0, cy - halfH ), z ) ),
	];
	return { tiles, bbox, z };
}

/**
 * The views of BENCH_TILE_SESSIONS visitors: zoom in around a place of the data, pan at each zoom.
 * With the seed's cities (BENCH_DATA=cities), each visitor zooms into a city (within 0.2° of its
 * centre), where the places are; else anywhere in the seed's box.
 * @param {number}     count  Visitors.
 * @param {string}     data   BENCH_DATA.
 * @param {number[][]} cities The seed's city centres, [ lng, lat ].
 */
export function sessions( count, data = DATA, cities = [] ) {
	const rng = random( 22 );
	// seed.php's boxes: [ west, width, south, height ].
	const box =
		'country' === data ? [ -8, 10, 50, 8 ] : [ -180, 360, -60, 130 ];
	const views = [];
	for ( let s = 0; s < count; s++ ) {
		let lng = box[ 0 ] + box[ 1 ] * rng();
		let lat = box[ 2 ] + box[ 3 ] * rng();
		if ( 'cities' === data && cities.length ) {
			const [ x, y ] = cities[ Math.floor( rng() * cities.length ) ];
			lng = Math.max( -180, Math.min( 180, x + ( rng() - 0.5 ) * 0.4 ) );
			lat = y + ( rng() - 0.5 ) * 0.4;
		}
		for ( const z of ZOOMS ) {
			views.push( view( lng, lat, z ) );
			// Half a screen east: 640 px.
			const panned = xToLng(
				lngToX( lng, z ) + VIEW.width / 2 / VIEW.tile,
				z
			);
			views.push( view( ( ( panned + 540 ) % 360 ) - 180, lat, z ) );
		}
	}
	return views;
}

export function uniqueTiles( views ) {
	const seen = new Set();
	const tiles = [];
	for ( const v of views ) {
		for ( const t of v.tiles ) {
			const key = t.join( '/' );
			if ( ! seen.has( key ) ) {
				seen.add( key );
				tiles.push( t );
			}
		}
	}
	return tiles;
}

/**
 * An address as a path on the bench site (the config's URLs are absolute).
 * @param url
 */
function local( url ) {
	if ( ! url ) {
		return '';
	}
	const parsed = new URL( url, BASE );
	return parsed.pathname + parsed.search;
}

export function tileUrl( template, [ z, x, y ] ) {
	return template
		.replace( /\{z\}|%7Bz%7D/i, z )
		.replace( /\{x\}|%7Bx%7D/i, x )
		.replace( /\{y\}|%7By%7D/i, y );
}

/** The tiled map's three addresses, from the maps route of the page (or built). */
async function config() {
	const response = await get(
		`/?rest_route=/cairn/v1/posts/${ PAGE }/maps`,
		{},
		'config'
	);
	let map = null;
	try {
		const body = JSON.parse( response.body.toString( 'utf8' ) );
		const maps = Array.isArray( body ) ? body : body.maps || [];
		map = maps[ 0 ]?.config || maps[ 0 ] || null;
	} catch {
		map = null;
	}
	if ( map?.tilesUrl ) {
		return {
			fromRoute: true,
			tiles: local( map.tilesUrl ),
			places: local( map.placesUrl ),
			summary: local( map.summaryUrl ),
		};
	}
	const version = wp( 'version' ).trim();
	const v = encodeURIComponent( version );
	return {
		fromRoute: false,
		tiles: `/?rest_route=/cairn/v1/tiles/{z}/{x}/{y}&v=${ v }`,
		places: `/?rest_route=/cairn/v1/places&v=${ v }`,
		summary: `/?rest_route=/cairn/v1/places/summary&v=${ v }`,
	};
}

const withQuery = ( url, params ) => {
	const extra = Object.entries( params )
		.filter(
			( [ , value ] ) =>
				undefined !== value && null !== value && '' !== value
		)
		.map(
			( [ key, value ] ) => `${ key }=${ encodeURIComponent( value ) }`
		)
		.join( '&' );
	return extra
		? `${ url }${ url.includes( '?' ) ? '&' : '?' }${ extra }`
		: url;
};

function json( response ) {
	try {
		const bytes =
			'gzip' === response.headers[ 'content-encoding' ]
				? zlib.gunzipSync( response.body )
				: response.body;
		return JSON.parse( bytes.toString( 'utf8' ) );
	} catch {
		return null;
	}
}

/**
 * Tiles: cold (after tile-flush), warm, 304 beside the static file's 304, bytes.
 * @param urls
 */
async function measureTiles( urls ) {
	const out = {};
	const flushed = JSON.parse( wp( 'tile-flush' ) );
	log(
		`tiles: ${ urls.length } cold at c${ CONCURRENCY } (flushed ${ JSON.stringify( flushed ) })`
	);
	const cold = await load( urls.length, CONCURRENCY, ( i ) =>
		get( urls[ i ], GZIP, 'tile-cold' )
	);
	expectStatus( cold.results, 200, 'cold tiles' );
	out.cold = {
		...stats( cold.results, cold.seconds ),
		memory: await peaks( cold.results ),
	};

	log( `tiles: ${ urls.length } warm at c${ CONCURRENCY }` );
	const warm = await load( urls.length, CONCURRENCY, ( i ) =>
		get( urls[ i ], GZIP, 'tile-warm' )
	);
	expectStatus( warm.results, 200, 'warm tiles' );
	out.warm = {
		...stats( warm.results, warm.seconds ),
		memory: await peaks( warm.results ),
	};

	// Bytes and features, from the warm answers.
	const features = [];
	const bytes = [];
	let clusters = 0;
	let points = 0;
	let overCap = 0;
	let invalid = 0;
	for ( const r of warm.results ) {
		bytes.push( r.body.length );
		const doc = json( r );
		if ( ! doc || ! Array.isArray( doc.features ) ) {
			invalid++;
			continue;
		}
		features.push( doc.features.length );
		overCap += doc.features.length > 4000 ? 1 : 0;
		for ( const f of doc.features ) {
			if ( f.properties?.cluster ) {
				clusters++;
			} else {
				points++;
			}
		}
	}
	const sample = warm.results[ 0 ];
	out.bytes = {
		encoding: sample.headers[ 'content-encoding' ] || 'identity',
		total: bytes.reduce( ( a, b ) => a + b, 0 ),
		mean: Math.round( bytes.reduce( ( a, b ) => a + b, 0 ) / bytes.length ),
		max: Math.max( ...bytes ),
		features_mean: round(
			features.reduce( ( a, b ) => a + b, 0 ) /
				Math.max( 1, features.length )
		),
		features_max: Math.max( 0, ...features ),
		clusters,
		points,
		over_4000: overCap,
		invalid,
	};
	out.headers = {
		content_type: sample.headers[ 'content-type' ] || null,
		cache_control: sample.headers[ 'cache-control' ] || null,
		etag: sample.headers.etag || null,
		access_control_allow_origin:
			sample.headers[ 'access-control-allow-origin' ] || null,
		set_cookie: Boolean( sample.headers[ 'set-cookie' ] ),
	};

	// 304s interleaved with the static file's.
	const etags = warm.results.map( ( r ) => r.headers.etag );
	let staticEtag = null;
	if ( STATIC ) {
		const first = await get( STATIC, {}, 'static' );
		staticEtag = first.status === 200 ? first.headers.etag : null;
	}
	const rounds = Math.max( 1, Math.ceil( 200 / urls.length ) );
	const total = urls.length * rounds;
	log(
		`tiles: ${ total } 304 interleaved with ${ staticEtag ? total : 0 } of ${ STATIC || 'no static file' }`
	);
	const nm = [];
	const st = [];
	await load( total, CONCURRENCY, async ( i ) => {
		const k = i % urls.length;
		nm.push(
			await get(
				urls[ k ],
				{ ...GZIP, 'If-None-Match': etags[ k ] || '' },
				'tile-304'
			)
		);
		if ( staticEtag ) {
			st.push(
				await get(
					STATIC,
					{ ...GZIP, 'If-None-Match': staticEtag },
					'static-304'
				)
			);
		}
	} );
	out.not_modified = {
		...stats( nm ),
		statuses: statuses( nm ),
		memory: await peaks( nm ),
	};
	out.static_not_modified = staticEtag
		? { ...stats( st ), statuses: statuses( st ) }
		: null;
	if ( PROXY ) {
		out.proxy = await measureProxy( urls, staticEtag );
	}
	return out;
}

/**
 * The same tiles through nginx's proxy_cache (what a CDN or a caching proxy serves): a first pass
 * that fills it, a warm pass (HIT), then each tile's 304 interleaved with the static file's 304.
 * @param {string[]}    urls       The tile set.
 * @param {string|null} staticEtag The static file's ETag.
 */
async function measureProxy( urls, staticEtag ) {
	log( `proxy: ${ urls.length } tiles fill, warm, 304 (through ${ PROXY })` );
	const fill = await load( urls.length, CONCURRENCY, ( i ) =>
		get( `proxy:${ urls[ i ] }`, GZIP, 'proxy-fill' )
	);
	expectStatus( fill.results, 200, 'proxy fill' );
	const warm = await load( urls.length, CONCURRENCY, ( i ) =>
		get( `proxy:${ urls[ i ] }`, GZIP, 'proxy-warm' )
	);
	expectStatus( warm.results, 200, 'proxy warm' );
	const cache = ( results ) =>
		results.reduce( ( count, r ) => {
			const key = r.headers[ 'x-cache-status' ] || 'none';
			count[ key ] = ( count[ key ] || 0 ) + 1;
			return count;
		}, {} );
	const etags = warm.results.map( ( r ) => r.headers.etag );
	const rounds = Math.max( 1, Math.ceil( 200 / urls.length ) );
	const nm = [];
	const st = [];
	await load( urls.length * rounds, CONCURRENCY, async ( i ) => {
		const k = i % urls.length;
		nm.push(
			await get(
				`proxy:${ urls[ k ] }`,
				{ ...GZIP, 'If-None-Match': etags[ k ] || '' },
				'proxy-304'
			)
		);
		if ( staticEtag ) {
			st.push(
				await get(
					STATIC,
					{ ...GZIP, 'If-None-Match': staticEtag },
					'static-304b'
				)
			);
		}
	} );
	return {
		fill: {
			...stats( fill.results, fill.seconds ),
			cache: cache( fill.results ),
		},
		warm: {
			...stats( warm.results, warm.seconds ),
			cache: cache( warm.results ),
		},
		not_modified: {
			...stats( nm ),
			statuses: statuses( nm ),
			cache: cache( nm ),
		},
		static_not_modified: staticEtag
			? { ...stats( st ), statuses: statuses( st ) }
			: null,
	};
}

/**
 * Whether the site answers this route (a helper's branch may not be merged yet).
 * @param {string} url The route's address.
 */
async function hasRoute( url ) {
	const response = await get( url, {}, 'route' );
	return ! (
		404 === response.status &&
		/rest_no_route/.test( response.body.toString() )
	);
}

/**
 * The summary and page 1 of the list asked together, as the panel asks them, for each set of
 * parameters (half the concurrency: two requests each); the time until both answered.
 * @param cfg
 * @param asks  Query parameters, one set per question.
 * @param label Request label.
 * @param what  What the status check names.
 */
async function summaryAndList( cfg, asks, label, what ) {
	const times = [];
	const all = [];
	await load(
		asks.length,
		Math.max( 1, Math.floor( CONCURRENCY / 2 ) ),
		async ( i ) => {
			const started = process.hrtime.bigint();
			const both = await Promise.all( [
				get(
					withQuery( cfg.summary, asks[ i ] ),
					GZIP,
					`${ label }-summary`
				),
				get(
					withQuery( cfg.places, asks[ i ] ),
					GZIP,
					`${ label }-list`
				),
			] );
			times.push( Number( process.hrtime.bigint() - started ) / 1e6 );
			all.push( ...both );
			return null;
		}
	);
	expectStatus( all, 200, `${ what } (${ label })` );
	return { times, all };
}

/**
 * Search → list: summary and page 1 together; first and repeated.
 * @param cfg
 */
async function measureSearch( cfg ) {
	const queries = QUERIES.slice( 0, SEARCHES );
	const asks = queries.map( ( q ) => ( { q } ) );
	const pass = ( label ) => summaryAndList( cfg, asks, label, 'search' );
	if ( ! ( await hasRoute( cfg.places ) ) ) {
		return { skipped: 'no /cairn/v1/places route (search not merged)' };
	}
	log( `search: ${ queries.length } queries x2 (summary + list together)` );
	const first = await pass( 'search' );
	const again = await pass( 'search-again' );
	const summaries = first.all.filter( ( r ) => r.id.includes( '-summary-' ) );
	const lists = first.all.filter( ( r ) => r.id.includes( '-list-' ) );
	const matches = summaries
		.map( ( r ) => json( r )?.matches )
		.filter( ( n ) => 'number' === typeof n );
	return {
		queries,
		first: {
			...stats( first.times ),
			memory_summary: await peaks( summaries ),
			memory_list: await peaks( lists ),
		},
		repeated: { ...stats( again.times ), memory: await peaks( again.all ) },
		matches_p50: percentile( matches, 50 ),
		matches_max: matches.length ? Math.max( ...matches ) : null,
	};
}

/** Broad searches whose z0–3 tiles are asked cold (issue 33: ≤ 300 ms each at 1M). */
const BROAD = [ 'm', 'sai', 'cafe', 'misty' ];

/**
 * A broad search on the whole map: every tile of z0–3 (85) for each of BROAD, right after the
 * plugin's caches are emptied (`wp.php tile-flush`), so each is built from the index.
 * @param cfg
 */
async function measureSearchTiles( cfg ) {
	const tiles = [];
	for ( let z = 0; z <= 3; z++ ) {
		for ( let x = 0; x < 2 ** z; x++ ) {
			for ( let y = 0; y < 2 ** z; y++ ) {
				tiles.push( [ z, x, y ] );
			}
		}
	}
	const urls = BROAD.flatMap( ( q ) =>
		tiles.map( ( t ) => withQuery( tileUrl( cfg.tiles, t ), { q } ) )
	);
	wp( 'tile-flush' );
	log(
		`search tiles: ${ BROAD.length } broad searches x ${ tiles.length } tiles of z0-3, cold at c${ CONCURRENCY }`
	);
	const run = await load( urls.length, CONCURRENCY, ( i ) =>
		get( urls[ i ], GZIP, 'search-tile-cold' )
	);
	expectStatus( run.results, 200, 'search tiles' );
	return {
		queries: BROAD,
		...stats( run.results, run.seconds ),
		memory: await peaks( run.results ),
	};
}

/**
 * Issue 33: the tiles' clusters against supercluster's on every place of the index
 * (bench/api/clusters.mjs): marks, spacing and expansion zooms per zoom, 0–12. BENCH_CLUSTERS=0
 * leaves it out.
 * @param cfg
 */
async function measureClusters( cfg ) {
	if ( '0' === process.env.BENCH_CLUSTERS ) {
		return { skipped: 'BENCH_CLUSTERS=0' };
	}
	const file = path.join(
		fs.mkdtempSync( path.join( os.tmpdir(), 'cairn-bench-' ) ),
		'places.bin'
	);
	const count = Number( wp( 'places-dump', file ).trim() );
	const bytes = fs.readFileSync( file );
	fs.rmSync( path.dirname( file ), { recursive: true, force: true } );
	const places = new Float64Array(
		bytes.buffer.slice( bytes.byteOffset, bytes.byteOffset + bytes.length )
	);
	const query = new URL( cfg.tiles, BASE ).searchParams;
	const options = {
		radius: Number( query.get( 'radius' ) ) || 80,
		maxZoom: Number( query.get( 'maxzoom' ) ) || 14,
	};
	log(
		`clusters: ${ count } places to supercluster (radius ${ options.radius }, max zoom ${ options.maxZoom }), tiles z0-${ DEEPEST }`
	);
	return compareClusters( places, options, async ( z, x, y ) => {
		const answer = await get(
			tileUrl( cfg.tiles, [ z, x, y ] ),
			GZIP,
			'clusters-tile'
		);
		expectStatus( [ answer ], 200, 'clusters tile' );
		return json( answer )?.features ?? [];
	} );
}

/**
 * The list in view after each move (zoom ≥ 4).
 * @param cfg
 * @param views
 */
async function measureList( cfg, views ) {
	const boxes = views
		.filter( ( v ) => v.z >= 4 )
		.map( ( v ) => v.bbox.map( ( n ) => n.toFixed( 5 ) ).join( ',' ) );
	if ( ! ( await hasRoute( cfg.places ) ) ) {
		return { skipped: 'no /cairn/v1/places route (search not merged)' };
	}
	log( `list after a move: ${ boxes.length } boxes at c${ CONCURRENCY }` );
	const run = await load( boxes.length, CONCURRENCY, ( i ) =>
		get( withQuery( cfg.places, { bbox: boxes[ i ] } ), GZIP, 'list-bbox' )
	);
	expectStatus( run.results, 200, 'list after a move' );
	const world = await get(
		withQuery( cfg.places, { bbox: '-180,-85,180,85' } ),
		GZIP,
		'list-world'
	);
	expectStatus( [ world ], 200, 'list of the world' );
	const totals = run.results
		.map( ( r ) => json( r )?.total )
		.filter( ( n ) => 'number' === typeof n );
	return {
		...stats( run.results, run.seconds ),
		memory: await peaks( run.results ),
		world_memory: await peaks( [ world ] ),
		world_ms: round( world.ms ),
		world_total: json( world )?.total ?? null,
		totals_p50: percentile( totals, 50 ),
	};
}

/**
 * Near a place (issue 34): the summary and page 1 of the places within a radius of a point,
 * together, as the panel's Near form asks them. Each centre is one of the seed's cities (or a
 * seeded random point on land-like latitudes), each radius one of the form's; first and repeated.
 * @param cfg
 * @param cities
 */
async function measureNear( cfg, cities ) {
	if ( ! ( await hasRoute( cfg.places ) ) ) {
		return { skipped: 'no /cairn/v1/places route' };
	}
	const rng = random( 3434 );
	const radii = [ 5000, 25000, 100000 ];
	const asks = Array.from( { length: SEARCHES }, ( _, i ) => {
		const [ lng, lat ] = cities.length
			? cities[ i % cities.length ]
			: [ -180 + 360 * rng(), -50 + 110 * rng() ];
		return {
			near: `${ lng.toFixed( 5 ) },${ lat.toFixed( 5 ) }`,
			radius: radii[ i % radii.length ],
		};
	} );
	const pass = ( label ) => summaryAndList( cfg, asks, label, 'near' );
	log(
		`near: ${ asks.length } centres x2 (summary + list together), radii ${ radii.join( ', ' ) } m`
	);
	const first = await pass( 'near' );
	const again = await pass( 'near-again' );
	const lists = first.all.filter( ( r ) => r.id.includes( '-list-' ) );
	const totals = lists
		.map( ( r ) => json( r )?.total )
		.filter( ( n ) => 'number' === typeof n );
	return {
		radii,
		first: { ...stats( first.times ), memory: await peaks( first.all ) },
		repeated: { ...stats( again.times ), memory: await peaks( again.all ) },
		totals_p50: percentile( totals, 50 ),
		totals_max: totals.length ? Math.max( ...totals ) : null,
	};
}

/**
 * A visitor's address from the cache (issue 34): `GET /cairn/v1/geocode/visitor?q=` for towns a
 * first pass looked up (wp.php geocode-prime: the geocoder itself, its provider answered by the
 * bench mu-plugin's stand-in, so the cache holds what a real lookup leaves), then asked again.
 */
async function measureVisitorGeocode() {
	const towns = QUERIES.slice( 0, SEARCHES ).map( ( q ) => `${ q } town` );
	let primed = null;
	try {
		primed = JSON.parse( wp( 'geocode-prime', ...towns ) );
	} catch ( error ) {
		primed = { error: error.message };
	}
	if ( ! primed || primed.primed !== towns.length ) {
		return { skipped: `geocode-prime: ${ JSON.stringify( primed ) }` };
	}
	const route = '/?rest_route=/cairn/v1/geocode/visitor';
	log(
		`visitor geocode: ${ towns.length } cached towns at c${ CONCURRENCY }, twice`
	);
	const runs = [];
	for ( const label of [ 'geocode', 'geocode-again' ] ) {
		const run = await load( towns.length, CONCURRENCY, ( i ) =>
			get( withQuery( route, { q: towns[ i ] } ), GZIP, label )
		);
		expectStatus( run.results, 200, `visitor geocode (${ label })` );
		runs.push( run );
	}
	const found = runs[ 1 ].results.filter(
		( r ) => 1 === json( r )?.results?.length
	).length;
	return {
		towns: towns.length,
		first: stats( runs[ 0 ].results, runs[ 0 ].seconds ),
		cached: {
			...stats( runs[ 1 ].results, runs[ 1 ].seconds ),
			memory: await peaks( runs[ 1 ].results ),
		},
		answered_with_a_place: found,
	};
}

/**
 * One place moved by the administrator: the save, then the next tiles that show it.
 * @param cfg
 */
async function measureMove( cfg ) {
	const auth = process.env.CAIRN_BENCH_AUTH || '';
	if ( ! auth ) {
		return { skipped: 'no CAIRN_BENCH_AUTH' };
	}
	// The first published marker, as core's REST API gives it (its coordinates are in `meta`).
	const first = json(
		await get(
			'/?rest_route=/wp/v2/cairn-markers&per_page=1&orderby=id&order=asc',
			{},
			'move-pick'
		)
	);
	const meta = first?.[ 0 ]?.meta || {};
	const item = {
		id: first?.[ 0 ]?.id,
		lat: Number( meta.cairn_lat ),
		lng: Number( meta.cairn_lng ),
	};
	if (
		! item.id ||
		! Number.isFinite( item.lat ) ||
		! Number.isFinite( item.lng )
	) {
		return { skipped: 'core gave no marker with coordinates' };
	}
	// A new position in another cell at every level from 3 up: 0.7° east and north, in range.
	const lng = Number(
		( item.lng > 170 ? item.lng - 0.7 : item.lng + 0.7 ).toFixed( 6 )
	);
	const lat = Number(
		( item.lat > 80 ? item.lat - 0.7 : item.lat + 0.7 ).toFixed( 6 )
	);
	const body = Buffer.from(
		JSON.stringify( {
			meta: { cairn_lat: String( lat ), cairn_lng: String( lng ) },
		} )
	);
	const headers = {
		'Content-Type': 'application/json',
		'Content-Length': body.length,
		Authorization: `Basic ${ Buffer.from( auth ).toString( 'base64' ) }`,
	};
	const save = await request(
		'POST',
		`/?rest_route=/wp/v2/cairn-markers/${ item.id }`,
		headers,
		'move-save',
		body
	);
	const saveMemory = await peaks( [ save ] );
	const next = await config();
	const z12 = [
		12,
		Math.floor( lngToX( lng, 12 ) ),
		Math.floor( latToY( lat, 12 ) ),
	];
	const z2 = [
		2,
		Math.floor( lngToX( lng, 2 ) ),
		Math.floor( latToY( lat, 2 ) ),
	];
	const z17 = [
		17,
		Math.floor( lngToX( lng, 17 ) ),
		Math.floor( latToY( lat, 17 ) ),
	];
	const tile12 = await get( tileUrl( next.tiles, z12 ), GZIP, 'move-tile' );
	const tile2 = await get( tileUrl( next.tiles, z2 ), GZIP, 'move-tile' );
	const tile17 = await get( tileUrl( next.tiles, z17 ), GZIP, 'move-tile' );
	const found = ( json( tile17 )?.features || [] ).find(
		( f ) => Number( f.id ) === Number( item.id )
	);
	const at = found?.geometry?.coordinates || null;
	return {
		id: item.id,
		from: [ item.lng, item.lat ],
		to: [ lng, lat ],
		save_status: save.status,
		save_ms: round( save.ms ),
		save_memory: saveMemory,
		version_changed: next.tiles !== cfg.tiles,
		next_tile_z12_ms: round( tile12.ms ),
		next_tile_z2_ms: round( tile2.ms ),
		next_tile_z17_ms: round( tile17.ms ),
		tiles_status: [ tile12.status, tile2.status, tile17.status ],
		tiles_memory: await peaks( [ tile12, tile2, tile17 ] ),
		// Save and the first tile that shows the change (the slower of z12 and z2).
		rebuild_ms: round( save.ms + Math.max( tile12.ms, tile2.ms ) ),
		moved_place_in_tile: Boolean(
			at &&
			Math.abs( at[ 0 ] - lng ) < 1e-5 &&
			Math.abs( at[ 1 ] - lat ) < 1e-5
		),
		next_config: next,
	};
}

/**
 * Distinct tile and search URLs, each sent twice; the plugin's storage before and after.
 * @param cfg
 * @param roundNo
 * @param rng
 */
async function measureFlood( cfg, roundNo, rng ) {
	const letters = 'abcdefghijklmnopqrstuvwxyzéøß東京';
	const word = () =>
		Array.from(
			{ length: 1 + Math.floor( rng() * 8 ) },
			() => letters[ Math.floor( rng() * letters.length ) ]
		).join( '' );
	const hidden = () => GROUPS.filter( () => rng() < 0.3 ).join( ',' );
	const urls = [];
	for ( let i = 0; i < FLOOD; i++ ) {
		const z = Math.floor( rng() * 18 );
		const n = 2 ** z;
		urls.push(
			withQuery(
				tileUrl( cfg.tiles, [
					z,
					Math.floor( rng() * n ),
					Math.floor( rng() * n ),
				] ),
				{
					radius:
						rng() < 0.3
							? 10 + Math.floor( rng() * 190 )
							: undefined,
					hidden: rng() < 0.5 ? hidden() : undefined,
					q: rng() < 0.5 ? word() : undefined,
				}
			)
		);
		const w = -180 + rng() * 300;
		const s = -80 + rng() * 120;
		urls.push(
			rng() < 0.5
				? withQuery( cfg.summary, { q: word(), hidden: hidden() } )
				: withQuery( cfg.places, {
						q: rng() < 0.5 ? word() : undefined,
						bbox: `${ w.toFixed( 4 ) },${ s.toFixed( 4 ) },${ ( w + rng() * 60 ).toFixed( 4 ) },${ ( s + rng() * 40 ).toFixed( 4 ) }`,
						page: 1 + Math.floor( rng() * 3 ),
					} )
		);
	}
	const doubled = [ ...urls, ...urls ];
	const run = await load( doubled.length, CONCURRENCY, ( i ) =>
		get( doubled[ i ], GZIP, `flood${ roundNo }` )
	);
	const bad = run.results.filter( ( r ) => r.status >= 500 );
	return {
		distinct: urls.length,
		requests: doubled.length,
		statuses: statuses( run.results ),
		server_errors: bad.length,
		sample_error: bad[ 0 ]
			? `${ bad[ 0 ].status } ${ bad[ 0 ].path }: ${ bad[ 0 ].body.toString( 'utf8', 0, 200 ) }`
			: null,
		...stats( run.results, run.seconds ),
		memory: await peaks( run.results ),
	};
}

/** Rows and bytes the plugin stores, without the index's own tables (which a flood never writes). */
function storage() {
	const rows = JSON.parse( wp( 'cache-rows' ) );
	const index = [
		'cairn_places',
		'cairn_place_combos',
		'cairn_place_words',
		'cairn_place_cells',
		'cairn_tile_stamps',
	];
	let cacheRows = 0;
	for ( const [ table, n ] of Object.entries( rows.tables || {} ) ) {
		if ( ! index.some( ( name ) => table.endsWith( name ) ) ) {
			cacheRows += n;
		}
	}
	return {
		...rows,
		cache_table_rows: cacheRows,
		stored_rows: cacheRows + rows.cairn_options,
	};
}

async function main() {
	if ( ! SIZE || ! BASE || ! args.out || ! PEAK_LOG || ! PAGE ) {
		console.error(
			'usage: tiles.mjs --size N --url URL --page ID --out FILE [--seed FILE] [--index FILE] [--static PATH] (CAIRN_BENCH_PEAK_LOG set)'
		);
		process.exit( 2 );
	}
	const out = {
		markers: SIZE,
		concurrency: CONCURRENCY,
		data: DATA,
		seed: null,
		index: null,
		checks: {},
	};
	for ( const key of [ 'seed', 'index' ] ) {
		if ( args[ key ] && fs.existsSync( args[ key ] ) ) {
			out[ key ] = JSON.parse( fs.readFileSync( args[ key ], 'utf8' ) );
		}
	}
	const info = JSON.parse(
		( await get( '/?cairn_bench_info=1', {}, 'info' ) ).body.toString()
	);
	out.runtime = info;
	if ( ! info.plugin_loaded ) {
		throw new Error(
			'cairn-maps is not loaded on the bench site (inactive, or idle: is build/ there?)'
		);
	}
	const cfg = await config();
	out.config = cfg;
	out.checks.config_from_route = cfg.fromRoute;
	log(
		`tilesUrl ${ cfg.tiles }${ cfg.fromRoute ? '' : ' (built: the maps route gave none)' }`
	);

	const views = sessions( SESSIONS, DATA, out.seed?.cities || [] );
	const tiles = uniqueTiles( views );
	const urls = tiles.map( ( t ) => tileUrl( cfg.tiles, t ) );
	out.tile_set = {
		sessions: SESSIONS,
		zooms: ZOOMS,
		views: views.length,
		tiles: tiles.length,
		by_zoom: Object.fromEntries(
			ZOOMS.map( ( z ) => [
				z,
				tiles.filter( ( t ) => t[ 0 ] === z ).length,
			] )
		),
	};
	// Prime OPcache and the code paths on one tile (then the flush makes it cold again).
	expectStatus(
		[ await get( urls[ 0 ], GZIP, 'prime' ) ],
		200,
		'first tile'
	);

	out.tiles = await measureTiles( urls );
	out.search = await measureSearch( cfg );
	out.search_tiles = await measureSearchTiles( cfg );
	out.list = await measureList( cfg, views );
	out.clusters = await measureClusters( cfg );
	out.near = await measureNear( cfg, out.seed?.cities || [] );
	out.visitor_geocode = await measureVisitorGeocode();

	const rng = random( 1022 );
	const before = storage();
	log( `flood: ${ FLOOD * 2 } distinct URLs x2, round 1` );
	const flood1 = await measureFlood( cfg, 1, rng );
	const middle = storage();
	log( 'flood: round 2 (other URLs)' );
	const flood2 = await measureFlood( cfg, 2, rng );
	const after = storage();
	out.flood = {
		round1: flood1,
		round2: flood2,
		storage: { before, after_round1: middle, after_round2: after },
		growth_rows: [
			middle.stored_rows - before.stored_rows,
			after.stored_rows - middle.stored_rows,
		],
		growth_option_bytes: [
			middle.cairn_options_bytes - before.cairn_options_bytes,
			after.cairn_options_bytes - middle.cairn_options_bytes,
		],
	};

	// Last: it changes the data (and the version).
	out.move = await measureMove( cfg );

	const peakOf = ( ...memories ) =>
		Math.max(
			0,
			...memories.filter( Boolean ).map( ( m ) => m.peak_bytes ?? 0 )
		);
	out.peak_bytes = {
		tile_cold: peakOf( out.tiles.cold.memory ),
		tile_warm: peakOf( out.tiles.warm.memory ),
		tile_304: peakOf( out.tiles.not_modified.memory ),
		summary: peakOf( out.search.first?.memory_summary ),
		list_search: peakOf(
			out.search.first?.memory_list,
			out.search.repeated?.memory
		),
		list_bbox: peakOf( out.list.memory ),
		list_world: peakOf( out.list.world_memory ),
		near: peakOf( out.near.first?.memory, out.near.repeated?.memory ),
		geocode_cached: peakOf( out.visitor_geocode.cached?.memory ),
		flood: peakOf( flood1.memory, flood2.memory ),
		save: peakOf( out.move.save_memory ),
		tile_after_save: peakOf( out.move.tiles_memory ),
	};
	const tileHeaders = out.tiles.headers;
	Object.assign( out.checks, {
		tile_content_type_geojson: /application\/geo\+json/.test(
			tileHeaders.content_type || ''
		),
		tile_etag: Boolean( tileHeaders.etag ),
		tile_immutable:
			/immutable/.test( tileHeaders.cache_control || '' ) &&
			/public/.test( tileHeaders.cache_control || '' ),
		tile_no_cookie: ! tileHeaders.set_cookie,
		tiles_valid_geojson: 0 === out.tiles.bytes.invalid,
		tiles_at_most_4000_features: 0 === out.tiles.bytes.over_4000,
		cold_built: out.tiles.cold.memory.built > 0,
		warm_built_none: 0 === out.tiles.warm.memory.built,
		not_modified_all_304:
			304 ===
			Number( Object.keys( out.tiles.not_modified.statuses ).join() ),
		static_all_304:
			! out.tiles.static_not_modified ||
			304 ===
				Number(
					Object.keys( out.tiles.static_not_modified.statuses ).join()
				),
		// Tile_Cache keeps at most slots() tiles (a transient and its timeout each without an object cache).
		flood_within_tile_cache_bound:
			null === after.tile_slots ||
			after.tile_transients <= 2 * after.tile_slots,
		flood_no_server_error:
			0 === flood1.server_errors + flood2.server_errors,
		// What the flood left stays within the tile cache's bound (slots × a transient and its
		// timeout) plus a little for other options; without Tile_Cache (unknown bound): round 2
		// must grow less than round 1 (a bounded cache fills; raise BENCH_TILE_FLOOD above it).
		flood_bounded:
			null === after.tile_slots
				? out.flood.growth_rows[ 1 ] < out.flood.growth_rows[ 0 ] ||
					0 ===
						out.flood.growth_rows[ 0 ] + out.flood.growth_rows[ 1 ]
				: after.stored_rows - before.stored_rows <=
					2 * after.tile_slots + 50,
		save_200: 200 === out.move.save_status,
		version_changed_after_save: Boolean( out.move.version_changed ),
		moved_place_in_tile: Boolean( out.move.moved_place_in_tile ),
	} );
	fs.writeFileSync( args.out, JSON.stringify( out, null, '\t' ) + '\n' );
	log(
		`tiles cold p95 ${ out.tiles.cold.p95_ms } ms, warm p95 ${ out.tiles.warm.p95_ms } ms, 304 p95 ${ out.tiles.not_modified.p95_ms } ms ` +
			`(static ${ out.tiles.static_not_modified?.p95_ms ?? '–' } ms); search p95 ${ out.search.first?.p95_ms ?? out.search.skipped } ms; list p95 ${ out.list.p95_ms } ms; ` +
			`move: save ${ out.move.save_ms } ms + tile ${ Math.max( out.move.next_tile_z12_ms ?? 0, out.move.next_tile_z2_ms ?? 0 ) } ms`
	);
}

if ( process.argv[ 1 ] === fileURLToPath( import.meta.url ) ) {
	main()
		.catch( ( error ) => {
			console.error(
				`[bench:api:tiles] ${ SIZE }: ${ error.stack || error.message }`
			);
			process.exitCode = 1;
		} )
		.finally( () => agent.destroy() );
}
