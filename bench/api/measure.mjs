#!/usr/bin/env node
/**
 * Measures one marker count for bench/api/run.sh: our GET /cairn/v1/markers (cold, warm, 304,
 * bytes, PHP peak memory) and core's GET /wp/v2/cairn-markers?per_page=100 (one page at
 * concurrency, all pages sequentially), and writes the numbers as JSON. With --maps-post, also
 * GET /cairn/v1/posts/<id>/maps (warm 200 and 304) interleaved with core's /wp/v2/pages/<id> and
 * with the feed's 304, so that each pair sees the same machine.
 *
 *   node bench/api/measure.mjs --size N --url http://127.0.0.1:PORT --seed seed.json [--maps-post ID] --out size-N.json
 *
 * Then a flood (issue 12): BENCH_FLOOD_REQUESTS requests with random `group`, `include` and `bbox`
 * values (half as many distinct values, each sent twice, so that a cache storing a selection on
 * its second request is driven past its bound), interleaved with as many real visitors (the whole
 * feed and the two group feeds of the maps page); the options table is counted before and after
 * (`wp.php feed-cache`), and the real visitors' warm latency is measured before, during and after.
 * BENCH_ONLY=flood runs the warm 200 and the flood alone (a quick check of the scenario).
 *
 * BENCH_ONLY=shapes (issue 21, with --shapes-seed and --gpx from run.sh): after the markers feed's
 * warm 200, GET /cairn/v1/shapes for the seeded routes (cold, warm, 304, bytes, PHP peak, what a
 * cold or warm request read), then the GPX file imported BENCH_GPX_RUNS times through
 * POST /cairn/v1/markers/import?format=gpx (as the administrator, CAIRN_BENCH_AUTH `user:password`
 * of an application password), each import's time to the answer, and the shapes feed of the
 * imported track alone (`include=<its id>`, what a map of that track loads): bytes raw and gzip.
 *
 * Latency is time to the last byte of the body as received (gzip when accepted, not decoded),
 * from a keep-alive agent with at most BENCH_CONCURRENCY sockets. Percentiles are nearest-rank.
 * PHP peak memory comes from the bench mu-plugin's shutdown log (CAIRN_BENCH_PEAK_LOG), matched by
 * the X-Bench-Id request header.
 */
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname( fileURLToPath( import.meta.url ) );
const args = Object.fromEntries(
	process.argv.slice( 2 ).reduce( ( pairs, arg, i, all ) => {
		if ( arg.startsWith( '--' ) ) {
			pairs.push( [ arg.slice( 2 ), all[ i + 1 ] ] );
		}
		return pairs;
	}, [] )
);
const SIZE = Number( args.size );
const BASE = String( args.url || '' ).replace( /\/$/, '' );
const env = ( name, fallback ) => {
	const value = Number( process.env[ name ] );
	return Number.isFinite( value ) && value > 0 ? value : fallback;
};
const CONCURRENCY = env( 'BENCH_CONCURRENCY', 4 );
const COLD_RUNS = env( 'BENCH_COLD_RUNS', 5 );
const WARM_REQUESTS = env( 'BENCH_WARM_REQUESTS', 40 );
const NOT_MODIFIED_REQUESTS = env( 'BENCH_304_REQUESTS', 200 );
const FLOOD_REQUESTS = env( 'BENCH_FLOOD_REQUESTS', 200 );
const FLOOD_ONLY = 'flood' === ( process.env.BENCH_ONLY || '' ).trim();
const SHAPES_ONLY = 'shapes' === ( process.env.BENCH_ONLY || '' ).trim();
const GPX_RUNS = env( 'BENCH_GPX_RUNS', 3 );
const CORE_REQUESTS = env( 'BENCH_CORE_REQUESTS', 40 );
const CORE_SAMPLE_PAGES = env( 'BENCH_CORE_SAMPLE_PAGES', 25 );
const CORE_ALL_PAGES_MAX = 100; // read every page up to this many, else sample and extrapolate
const REQUEST_TIMEOUT_MS = 120000;
const PEAK_LOG = process.env.CAIRN_BENCH_PEAK_LOG;

if ( ! SIZE || ! BASE || ! args.out || ! PEAK_LOG ) {
	console.error( 'usage: measure.mjs --size N --url URL --out FILE [--seed FILE] (CAIRN_BENCH_PEAK_LOG set)' );
	process.exit( 2 );
}

const OURS = '/?rest_route=/cairn/v1/markers';
// The shapes feed of issue 21.
const SHAPES = '/?rest_route=/cairn/v1/shapes';
// The posts feed of issue 24 (BENCH_POSTS=0: not seeded, not measured).
const POSTS = '/?rest_route=/cairn/v1/markers&post_type=post';
const WITH_POSTS = '0' !== ( process.env.BENCH_POSTS ?? '1' ).trim();
const MAPS_POST = Number( args[ 'maps-post' ] ) || 0;
const corePage = ( page ) => `/?rest_route=/wp/v2/cairn-markers&per_page=100&page=${ page }`;
const GZIP = { 'Accept-Encoding': 'gzip' };

const agent = new http.Agent( { keepAlive: true, maxSockets: CONCURRENCY, maxFreeSockets: CONCURRENCY } );
let counter = 0;
let seedCategories = [];
const runId = `${ SIZE }-${ Date.now().toString( 36 ) }`;

function log( message ) {
	process.stderr.write( `[bench:api] ${ SIZE }: ${ message }\n` );
}

/**
 * One GET. Resolves with status, headers, the raw body bytes and the time to the last byte.
 */
function get( pathname, headers = {}, label = 'req' ) {
	const id = `${ runId }-${ label }-${ ++counter }`;
	return new Promise( ( resolve, reject ) => {
		const started = process.hrtime.bigint();
		const request = http.get(
			BASE + pathname,
			{ agent, headers: { 'X-Bench-Id': id, 'User-Agent': 'cairn-bench', ...headers } },
			( response ) => {
				const chunks = [];
				response.on( 'data', ( chunk ) => chunks.push( chunk ) );
				response.on( 'end', () => {
					const ms = Number( process.hrtime.bigint() - started ) / 1e6;
					resolve( { id, status: response.statusCode, headers: response.headers, body: Buffer.concat( chunks ), ms } );
				} );
				response.on( 'error', reject );
			}
		);
		request.setTimeout( REQUEST_TIMEOUT_MS, () => request.destroy( new Error( `timeout after ${ REQUEST_TIMEOUT_MS } ms: ${ pathname }` ) ) );
		request.on( 'error', reject );
	} );
}

/**
 * One POST of a file as the request body, authenticated with CAIRN_BENCH_AUTH (an application
 * password). Resolves like get().
 */
function post( pathname, body, contentType, label = 'post' ) {
	const id = `${ runId }-${ label }-${ ++counter }`;
	return new Promise( ( resolve, reject ) => {
		const started = process.hrtime.bigint();
		const request = http.request(
			BASE + pathname,
			{
				method: 'POST',
				agent,
				headers: {
					'X-Bench-Id': id,
					'User-Agent': 'cairn-bench',
					'Content-Type': contentType,
					'Content-Length': body.length,
					Authorization: `Basic ${ Buffer.from( process.env.CAIRN_BENCH_AUTH || '' ).toString( 'base64' ) }`,
				},
			},
			( response ) => {
				const chunks = [];
				response.on( 'data', ( chunk ) => chunks.push( chunk ) );
				response.on( 'end', () => {
					const ms = Number( process.hrtime.bigint() - started ) / 1e6;
					resolve( { id, status: response.statusCode, headers: response.headers, body: Buffer.concat( chunks ), ms } );
				} );
				response.on( 'error', reject );
			}
		);
		request.setTimeout( REQUEST_TIMEOUT_MS, () => request.destroy( new Error( `timeout after ${ REQUEST_TIMEOUT_MS } ms: POST ${ pathname }` ) ) );
		request.on( 'error', reject );
		request.end( body );
	} );
}

/**
 * `total` requests made by `concurrency` workers, each starting its next as soon as one ends.
 */
async function load( total, concurrency, makeRequest ) {
	const results = [];
	let next = 0;
	const started = process.hrtime.bigint();
	const worker = async () => {
		while ( next < total ) {
			const index = next++;
			results[ index ] = await makeRequest( index );
		}
	};
	await Promise.all( Array.from( { length: Math.min( concurrency, total ) }, worker ) );
	const seconds = Number( process.hrtime.bigint() - started ) / 1e9;
	return { results, seconds };
}

function percentile( values, p ) {
	if ( ! values.length ) {
		return null;
	}
	const sorted = [ ...values ].sort( ( a, b ) => a - b );
	return sorted[ Math.max( 0, Math.ceil( ( p / 100 ) * sorted.length ) - 1 ) ];
}

const round = ( value, digits = 1 ) => ( null === value || undefined === value ? null : Number( value.toFixed( digits ) ) );

function stats( results, seconds ) {
	const ms = results.map( ( r ) => r.ms );
	return {
		n: ms.length,
		p50_ms: round( percentile( ms, 50 ) ),
		p95_ms: round( percentile( ms, 95 ) ),
		min_ms: round( Math.min( ...ms ) ),
		max_ms: round( Math.max( ...ms ) ),
		mean_ms: round( ms.reduce( ( a, b ) => a + b, 0 ) / ms.length ),
		...( seconds ? { req_per_s: round( ms.length / seconds ) } : {} ),
	};
}

function expectStatus( results, status, what ) {
	const wrong = results.filter( ( r ) => r.status !== status );
	if ( wrong.length ) {
		const sample = wrong[ 0 ];
		throw new Error( `${ what }: expected HTTP ${ status }, got ${ sample.status } (${ wrong.length } of ${ results.length }): ${ sample.body.toString( 'utf8', 0, 300 ) }` );
	}
}

/**
 * PHP peak memory of these requests, from the mu-plugin's shutdown log.
 */
async function peaks( results ) {
	const wanted = new Set( results.map( ( r ) => r.id ) );
	let found = new Map();
	for ( let attempt = 0; attempt < 20; attempt++ ) {
		found = new Map();
		for ( const line of fs.readFileSync( PEAK_LOG, 'utf8' ).split( '\n' ) ) {
			if ( ! line ) {
				continue;
			}
			try {
				const entry = JSON.parse( line );
				if ( wanted.has( entry.id ) ) {
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
		return { logged: 0, peak_bytes: null, peak_real_bytes: null, php_ms_p50: null, php_ms_p95: null, queries: null };
	}
	return {
		logged: entries.length,
		peak_bytes: Math.max( ...entries.map( ( e ) => e.peak ) ),
		peak_real_bytes: Math.max( ...entries.map( ( e ) => e.peak_real ) ),
		php_ms_p50: round( percentile( entries.map( ( e ) => e.php_ms ), 50 ) ),
		php_ms_p95: round( percentile( entries.map( ( e ) => e.php_ms ), 95 ) ),
		queries: Math.max( ...entries.map( ( e ) => e.queries ?? 0 ) ),
		// How many of these requests read marker coordinates from the database (rebuilt the feed).
		rebuilt: entries.filter( ( e ) => e.reads > 0 ).length,
		// How many read stored shapes (`_cairn_shape`: a shapes feed not served from a cache).
		shape_reads: entries.filter( ( e ) => e.shape_reads > 0 ).length,
		// p50 of the time (ms since the request started) at which PHP reached each WordPress stage.
		marks_p50: Object.fromEntries(
			[ ...new Set( entries.flatMap( ( e ) => Object.keys( e.marks || {} ) ) ) ].map( ( key ) => [
				key,
				round( percentile( entries.map( ( e ) => e.marks?.[ key ] ).filter( ( v ) => 'number' === typeof v ), 50 ) ),
			] )
		),
	};
}

function bump( what = 'bump' ) {
	execFileSync( 'php', [ path.join( HERE, 'wp.php' ), what ], {
		stdio: [ 'ignore', 'ignore', 'inherit' ],
		timeout: 60000,
	} );
}

/**
 * The posts feed (issue 24) beside the markers feed at the same size: cold (places version
 * bumped before each request), warm 200 and 304 each interleaved with the markers feed's (so both
 * meet the same load), bytes, PHP peak of every posts request, and a `terms` selection.
 */
async function measurePosts( markersEtag ) {
	const prime = await get( POSTS, GZIP, 'posts-prime' );
	expectStatus( [ prime ], 200, 'prime posts' );
	log( `posts cold x${ COLD_RUNS }` );
	const cold = [];
	for ( let i = 0; i < COLD_RUNS; i++ ) {
		bump( 'bump-places' );
		cold.push( await get( POSTS, GZIP, 'posts-cold' ) );
	}
	expectStatus( cold, 200, 'posts cold' );
	log( `posts warm x${ WARM_REQUESTS } interleaved with the markers feed's, c${ CONCURRENCY }` );
	const warm = await interleaved(
		WARM_REQUESTS,
		() => get( POSTS, GZIP, 'posts-warm' ),
		() => get( OURS, GZIP, 'posts-markers-warm' )
	);
	expectStatus( warm.a, 200, 'posts warm' );
	expectStatus( warm.b, 200, 'markers warm beside posts' );
	const etag = warm.a[ 0 ].headers.etag;
	log( `posts 304 x${ NOT_MODIFIED_REQUESTS } interleaved with the markers feed's` );
	const notModified = await interleaved(
		NOT_MODIFIED_REQUESTS,
		() => get( POSTS, { ...GZIP, 'If-None-Match': etag }, 'posts-nm' ),
		() => get( OURS, { ...GZIP, 'If-None-Match': markersEtag }, 'posts-markers-nm' )
	);
	expectStatus( notModified.a, 304, 'posts 304' );
	expectStatus( notModified.b, 304, 'markers 304 beside posts' );
	const raw = await get( POSTS, {}, 'posts-raw' );
	expectStatus( [ raw ], 200, 'posts raw' );
	const document = JSON.parse( raw.body.toString( 'utf8' ) );
	const features = Array.isArray( document.features ) ? document.features : [];
	const withThumb = features.filter( ( f ) => 'string' === typeof f.properties?.thumb ).length;
	const category = seedCategories[ 0 ] || 'travel';
	const terms = await get( `${ POSTS }&terms=category:${ category }`, GZIP, 'posts-terms' );
	expectStatus( [ terms ], 200, 'posts terms' );
	const termsTwice = await get( `${ POSTS }&terms=category:${ category }`, GZIP, 'posts-terms' );
	const result = {
		cold: { ...stats( cold ), memory: await peaks( cold ) },
		warm: { ...stats( warm.a ), memory: await peaks( warm.a ) },
		markers_warm: { ...stats( warm.b ), memory: await peaks( warm.b ) },
		not_modified: { ...stats( notModified.a ), memory: await peaks( notModified.a ) },
		markers_not_modified: { ...stats( notModified.b ), memory: await peaks( notModified.b ) },
		raw_request: { ms: round( raw.ms ), memory: await peaks( [ raw ] ) },
		terms: { first_ms: round( terms.ms ), second_ms: round( termsTwice.ms ), memory: await peaks( [ terms, termsTwice ] ), features: JSON.parse( ( 'gzip' === terms.headers[ 'content-encoding' ] ? zlib.gunzipSync( terms.body ) : terms.body ).toString( 'utf8' ) ).features.length },
		bytes: {
			raw: raw.body.length,
			gzip: 'gzip' === warm.a[ 0 ].headers[ 'content-encoding' ] ? warm.a[ 0 ].body.length : null,
			gzip_per_post: 'gzip' === warm.a[ 0 ].headers[ 'content-encoding' ] ? round( warm.a[ 0 ].body.length / SIZE, 2 ) : null,
			features: features.length,
			with_thumb: withThumb,
		},
	};
	result.peak_bytes = Math.max( ...[ result.cold, result.warm, result.not_modified, result.raw_request, result.terms ].map( ( m ) => m.memory.peak_bytes ?? 0 ) );
	result.checks = {
		posts_features_match: features.length === SIZE,
		posts_have_type: features.every( ( f ) => 'post' === f.properties?.type ),
		posts_thumbs_present: withThumb > 0,
		posts_etag: Boolean( etag ),
		posts_cache_control_public: /\bpublic\b/.test( warm.a[ 0 ].headers[ 'cache-control' ] || '' ),
		posts_cold_rebuilt_every_time: result.cold.memory.rebuilt === COLD_RUNS,
		posts_warm_served_from_cache: 0 === result.warm.memory.rebuilt,
		posts_not_modified_read_nothing: 0 === result.not_modified.memory.rebuilt,
		posts_terms_cut_from_cache: 0 === result.terms.memory.rebuilt,
	};
	log( `posts warm p95 ${ result.warm.p95_ms } ms (markers ${ result.markers_warm.p95_ms } ms), 304 p95 ${ result.not_modified.p95_ms } ms (markers ${ result.markers_not_modified.p95_ms } ms), peak ${ ( result.peak_bytes / 1048576 ).toFixed( 1 ) } MiB` );
	return result;
}

/**
 * `total` requests of each of two kinds, alternating, at concurrency: both kinds meet the same
 * load on the machine. Returns the results of each kind.
 */
async function interleaved( total, makeA, makeB ) {
	const run = await load( 2 * total, CONCURRENCY, ( i ) => ( i % 2 ? makeB() : makeA() ) );
	return {
		a: run.results.filter( ( _, i ) => 0 === i % 2 ),
		b: run.results.filter( ( _, i ) => 1 === i % 2 ),
	};
}

/**
 * GET /cairn/v1/posts/<id>/maps beside core's GET /wp/v2/pages/<id> (warm 200) and beside the
 * feed's 304 (both revalidating a matching ETag).
 */
async function measureMaps( feedEtag ) {
	const maps = `/?rest_route=/cairn/v1/posts/${ MAPS_POST }/maps`;
	const page = `/?rest_route=/wp/v2/pages/${ MAPS_POST }`;
	// Prime: the first REST request remembers which post types the early 304 may answer for.
	const first = await get( maps, {}, 'maps-prime' );
	expectStatus( [ first ], 200, 'prime maps' );
	for ( let i = 0; i < CONCURRENCY; i++ ) {
		expectStatus( [ await get( maps, {}, 'maps-prime' ), await get( page, {}, 'page-prime' ) ], 200, 'prime maps and page' );
	}
	const body = JSON.parse( first.body.toString( 'utf8' ) );
	const mapsEtag = first.headers.etag;

	log( `post maps warm x${ WARM_REQUESTS } interleaved with core's page at c${ CONCURRENCY }` );
	const warm = await interleaved( WARM_REQUESTS, () => get( maps, {}, 'maps' ), () => get( page, {}, 'page' ) );
	expectStatus( warm.a, 200, 'post maps warm' );
	expectStatus( warm.b, 200, 'core page' );

	log( `post maps 304 x${ NOT_MODIFIED_REQUESTS } interleaved with the feed's 304 at c${ CONCURRENCY }` );
	const nm = await interleaved(
		NOT_MODIFIED_REQUESTS,
		() => get( maps, { 'If-None-Match': mapsEtag }, 'maps-nm' ),
		() => get( OURS, { ...GZIP, 'If-None-Match': feedEtag }, 'feed-nm' )
	);
	expectStatus( nm.a, 304, 'post maps 304' );
	expectStatus( nm.b, 304, 'feed 304' );

	const result = {
		post: MAPS_POST,
		maps: Array.isArray( body.maps ) ? body.maps.length : -1,
		bytes: first.body.length,
		warm: { ...stats( warm.a ), memory: await peaks( warm.a ) },
		core_page: { ...stats( warm.b ), memory: await peaks( warm.b ), bytes: warm.b[ 0 ].body.length },
		not_modified: { ...stats( nm.a ), memory: await peaks( nm.a ) },
		feed_not_modified: { ...stats( nm.b ), memory: await peaks( nm.b ) },
	};
	result.checks = {
		maps_count: 3 === result.maps,
		maps_etag: Boolean( mapsEtag ),
		maps_cache_control_public: /\bpublic\b/.test( first.headers[ 'cache-control' ] || '' ),
		maps_no_set_cookie: ! first.headers[ 'set-cookie' ],
		// No request of the run reached `init`: every 304 was the early one.
		maps_not_modified_before_init: ! ( 'init' in ( result.not_modified.memory.marks_p50 || {} ) ),
	};
	return result;
}

/**
 * What the feed cache holds in the options table (`wp.php feed-cache`).
 */
function feedCache() {
	return JSON.parse(
		execFileSync( 'php', [ path.join( HERE, 'wp.php' ), 'feed-cache' ], {
			encoding: 'utf8',
			stdio: [ 'ignore', 'pipe', 'inherit' ],
			timeout: 60000,
		} )
	);
}

/**
 * A deterministic random number generator (mulberry32): the same flood at every run of a size.
 */
function random( seed ) {
	let a = seed >>> 0;
	return () => {
		a = ( a + 0x6d2b79f5 ) >>> 0;
		let t = Math.imul( a ^ ( a >>> 15 ), 1 | a );
		t = ( t + Math.imul( t ^ ( t >>> 7 ), 61 | t ) ) ^ t;
		return ( ( t ^ ( t >>> 14 ) ) >>> 0 ) / 4294967296;
	};
}

/**
 * `count` distinct query strings an anonymous visitor could invent: real groups beside invented
 * ones, invented groups alone, ids (real ones in the markers' range, a few that are no marker),
 * boxes (some across the antimeridian), a group with a box.
 */
function floodValues( count, rng, groups, ids ) {
	const int = ( min, max ) => min + Math.floor( rng() * ( max - min + 1 ) );
	const pick = ( list, n ) => [ ...list ].sort( () => rng() - 0.5 ).slice( 0, n );
	const invented = () => `x${ Math.floor( rng() * 1e9 ).toString( 36 ) }`;
	const degrees = ( value ) => value.toFixed( int( 0, 4 ) );
	const box = () => {
		const west = -180 + rng() * 360;
		const width = 0.1 + rng() * 90;
		const east = west + width > 180 ? west + width - 360 : west + width; // Across the antimeridian.
		const south = -80 + rng() * 150;
		const north = Math.min( 85, south + 1 + rng() * 40 );
		return [ west, south, east, north ].map( degrees ).join( ',' );
	};
	const kinds = [
		[ 0.3, 'group', () => `group=${ [ ...pick( groups, int( 1, 3 ) ), ...Array.from( { length: int( 0, 2 ) }, invented ) ].sort( () => rng() - 0.5 ).join( ',' ) }` ],
		[ 0.1, 'group', () => `group=${ Array.from( { length: int( 1, 3 ) }, invented ).join( ',' ) }` ],
		[ 0.25, 'include', () => `include=${ [ ...Array.from( { length: int( 1, 40 ) }, () => int( ids.min_id, ids.max_id ) ), ...Array.from( { length: int( 0, 3 ) }, () => ids.max_id + int( 1e6, 9e6 ) ) ].join( ',' ) }` ],
		[ 0.25, 'bbox', () => `bbox=${ box() }` ],
		[ 0.1, 'bbox', () => `group=${ pick( groups, int( 1, 2 ) ).join( ',' ) }&bbox=${ box() }` ],
	];
	const values = new Map();
	while ( values.size < count ) {
		let roll = rng();
		const kind = kinds.find( ( [ share ] ) => ( roll -= share ) < 0 ) || kinds[ kinds.length - 1 ];
		const query = kind[ 2 ]();
		values.set( query, kind[ 1 ] );
	}
	return [ ...values ].map( ( [ query, kind ] ) => ( { query, kind } ) );
}

/**
 * The flood of issue 12: random filters, each value twice, interleaved with real visitors; the
 * options table before and after, and the real visitors' warm latency before, during and after.
 */
async function measureFlood( groups ) {
	const visitors = [
		{ kind: 'whole', path: OURS },
		{ kind: 'group', path: `${ OURS }&group=huts` },
		{ kind: 'group', path: `${ OURS }&group=peaks` },
	];
	// Real visitors' selections: asked for a few times, so stored and in use, as on a live site.
	for ( const visitor of visitors ) {
		for ( let i = 0; i < 3; i++ ) {
			expectStatus( [ await get( visitor.path, GZIP, 'real-prime' ) ], 200, `prime ${ visitor.path }` );
		}
	}
	const visit = ( i, label ) => {
		const visitor = visitors[ i % visitors.length ];
		return get( visitor.path, GZIP, `${ label }-${ visitor.kind }` );
	};
	const byKind = async ( results ) => {
		const kinds = {};
		for ( const kind of [ 'whole', 'group' ] ) {
			const mine = results.filter( ( r ) => r.id.includes( `-${ kind }-` ) );
			kinds[ kind ] = { ...stats( mine ), memory: await peaks( mine ) };
		}
		return kinds;
	};

	const before = feedCache();
	log( `real visitors before the flood: ${ 3 * WARM_REQUESTS } (whole feed, group=huts, group=peaks) at c${ CONCURRENCY }` );
	const pre = await load( 3 * WARM_REQUESTS, CONCURRENCY, ( i ) => visit( i, 'real-before' ) );
	expectStatus( pre.results, 200, 'real visitors before the flood' );

	const distinct = floodValues( Math.ceil( FLOOD_REQUESTS / 2 ), random( SIZE ), groups, before.markers );
	// Every value twice, the second time later on, as a script in a loop would.
	const rng = random( SIZE + 1 );
	const shuffled = ( list ) => list.map( ( v ) => [ rng(), v ] ).sort( ( a, b ) => a[ 0 ] - b[ 0 ] ).map( ( [ , v ] ) => v );
	const values = [ ...shuffled( distinct ), ...shuffled( distinct ) ].slice( 0, FLOOD_REQUESTS );
	log( `flood: ${ values.length } requests with random group/include/bbox values (${ distinct.length } distinct, each twice), interleaved with ${ values.length } real visitors at c${ CONCURRENCY }` );
	const during = await load( 2 * values.length, CONCURRENCY, ( i ) => ( i % 2 ? visit( i >> 1, 'real-during' ) : get( `${ OURS }&${ values[ i >> 1 ].query }`, GZIP, `flood-${ values[ i >> 1 ].kind }` ) ) );
	const flood = during.results.filter( ( r ) => r.id.includes( '-flood-' ) );
	const real = during.results.filter( ( r ) => r.id.includes( '-real-during-' ) );
	expectStatus( flood, 200, 'flood' );
	expectStatus( real, 200, 'real visitors during the flood' );
	const after = feedCache();

	log( `real visitors after the flood: ${ 3 * WARM_REQUESTS } at c${ CONCURRENCY }` );
	const post = await load( 3 * WARM_REQUESTS, CONCURRENCY, ( i ) => visit( i, 'real-after' ) );
	expectStatus( post.results, 200, 'real visitors after the flood' );

	const floodKinds = {};
	for ( const kind of [ 'group', 'include', 'bbox' ] ) {
		const mine = flood.filter( ( r ) => r.id.includes( `-flood-${ kind }-` ) );
		floodKinds[ kind ] = { ...stats( mine ), memory: await peaks( mine ) };
	}
	const result = {
		requests: flood.length,
		distinct: distinct.length,
		sample: values.slice( 0, 8 ).map( ( v ) => v.query ),
		cache_before: before,
		cache_after: after,
		flood: { ...stats( flood ), memory: await peaks( flood ), by_kind: floodKinds },
		real_before: await byKind( pre.results ),
		real_during: await byKind( real ),
		real_after: await byKind( post.results ),
	};
	const bound = after.bound;
	const stored = after.parts.filtered.rows + after.parts.bookkeeping.rows;
	result.checks = {
		flood_all_200: true,
		flood_filtered_rows_within_bound: Boolean( bound ) && stored <= bound.rows,
		flood_entries_within_bound: Boolean( bound ) && after.entries <= bound.entries && after.entry_bytes <= bound.bytes,
		// Group and box answers are cut from the cached whole feed: no marker read from the database.
		flood_group_bbox_read_no_marker: 0 === floodKinds.group.memory.rebuilt && 0 === floodKinds.bbox.memory.rebuilt,
		// The real visitors' whole feed and group feeds stayed in the cache.
		real_after_served_from_cache: 0 === result.real_after.whole.memory.rebuilt && 0 === result.real_after.group.memory.rebuilt,
	};
	log(
		`flood: feed cache ${ before.rows } -> ${ after.rows } option rows (filtered + bookkeeping ${ stored }, bound ${ bound ? bound.rows : '?' }), ` +
			`${ after.entries } stored copies (bound ${ bound ? bound.entries : '?' }); real visitors' whole-feed warm p95 ` +
			`${ result.real_before.whole.p95_ms } / ${ result.real_during.whole.p95_ms } / ${ result.real_after.whole.p95_ms } ms before / during / after`
	);
	return result;
}

/**
 * Positions in a GeoJSON geometry (any type).
 */
function vertices( geometry ) {
	const walk = ( value ) => ( Array.isArray( value ) && 'number' === typeof value[ 0 ] ? 1 : Array.isArray( value ) ? value.reduce( ( sum, part ) => sum + walk( part ), 0 ) : 0 );
	return walk( geometry?.coordinates );
}

const decoded = ( response ) => JSON.parse( ( 'gzip' === response.headers[ 'content-encoding' ] ? zlib.gunzipSync( response.body ) : response.body ).toString( 'utf8' ) );

/**
 * Issue 21: the shapes feed of the seeded routes (cold, warm, 304, bytes), then the GPX import and
 * the shapes feed of the imported track alone.
 */
async function measureShapes() {
	const seeded = JSON.parse( fs.readFileSync( args[ 'shapes-seed' ], 'utf8' ) );
	const prime = await get( SHAPES, GZIP, 'shapes-prime' );
	expectStatus( [ prime ], 200, 'prime shapes' );
	log( `shapes feed (${ seeded.routes } routes of ${ seeded.vertices } positions): cold x${ COLD_RUNS }` );
	const cold = [];
	for ( let i = 0; i < COLD_RUNS; i++ ) {
		bump();
		cold.push( await get( SHAPES, GZIP, 'shapes-cold' ) );
	}
	expectStatus( cold, 200, 'shapes cold' );
	log( `shapes feed warm x${ WARM_REQUESTS } at c${ CONCURRENCY }` );
	const warm = await load( WARM_REQUESTS, CONCURRENCY, () => get( SHAPES, GZIP, 'shapes-warm' ) );
	expectStatus( warm.results, 200, 'shapes warm' );
	const sample = warm.results[ 0 ];
	const etag = sample.headers.etag;
	log( `shapes feed 304 x${ NOT_MODIFIED_REQUESTS } at c${ CONCURRENCY }` );
	const notModified = await load( NOT_MODIFIED_REQUESTS, CONCURRENCY, () => get( SHAPES, { ...GZIP, 'If-None-Match': etag }, 'shapes-nm' ) );
	expectStatus( notModified.results, 304, 'shapes 304 with If-None-Match' );
	const raw = await get( SHAPES, {}, 'shapes-raw' );
	expectStatus( [ raw ], 200, 'shapes raw' );
	const document = decoded( raw );
	const features = Array.isArray( document.features ) ? document.features : [];
	const servedGzip = 'gzip' === sample.headers[ 'content-encoding' ];
	const routes = {
		routes: seeded.routes,
		seed: seeded,
		cold: { ...stats( cold ), memory: await peaks( cold ) },
		warm: { ...stats( warm.results, warm.seconds ), memory: await peaks( warm.results ) },
		not_modified: { ...stats( notModified.results, notModified.seconds ), memory: await peaks( notModified.results ) },
		raw_request: { ms: round( raw.ms ), memory: await peaks( [ raw ] ) },
		bytes: {
			raw: raw.body.length,
			gzip: servedGzip ? sample.body.length : zlib.gzipSync( raw.body, { level: 9 } ).length,
			gzip_source: servedGzip ? 'as served (Content-Encoding: gzip)' : 'computed: gzip -9 of the raw body',
			features: features.length,
			vertices: features.reduce( ( sum, f ) => sum + vertices( f.geometry ), 0 ),
		},
		headers: { etag: etag || null, cache_control: sample.headers[ 'cache-control' ] || null, vary: sample.headers.vary || null },
	};
	routes.bytes.vertices_per_route = features.length ? Math.round( routes.bytes.vertices / features.length ) : null;

	// The GPX import, as the administrator.
	const gpx = fs.readFileSync( args.gpx );
	const name = /<name>([^<]*)<\/name>/.exec( gpx.toString( 'utf8', 0, 2000 ) )?.[ 1 ] ?? '';
	const points = ( gpx.toString( 'utf8' ).match( /<trkpt /g ) || [] ).length;
	const imports = [];
	for ( let i = 0; i < GPX_RUNS; i++ ) {
		log( `GPX import ${ i + 1 } of ${ GPX_RUNS }: ${ points } points, ${ ( gpx.length / 1048576 ).toFixed( 2 ) } MiB` );
		const answer = await post( '/?rest_route=/cairn/v1/markers/import&format=gpx', gpx, 'application/gpx+xml', 'gpx-import' );
		if ( 200 !== answer.status ) {
			throw new Error( `GPX import: expected HTTP 200, got ${ answer.status }: ${ answer.body.toString( 'utf8', 0, 400 ) }` );
		}
		imports.push( answer );
	}
	const importMemory = await peaks( imports );
	const report = JSON.parse( imports[ imports.length - 1 ].body.toString( 'utf8' ) );
	// The imported track: the newest shape of that title.
	const after = await get( SHAPES, GZIP, 'shapes-after-import' );
	expectStatus( [ after ], 200, 'shapes after the import' );
	const tracks = decoded( after ).features.filter( ( f ) => f.properties?.title === name );
	const trackId = tracks.length ? Math.max( ...tracks.map( ( f ) => Number( f.id ) ) ) : null;
	let track = null;
	if ( trackId ) {
		const path1 = `${ SHAPES }&include=${ trackId }`;
		const gz = await get( path1, GZIP, 'track-gzip' );
		const plain = await get( path1, {}, 'track-raw' );
		expectStatus( [ gz, plain ], 200, 'the track\'s shapes feed' );
		const feature = decoded( plain ).features?.[ 0 ] ?? null;
		track = {
			id: trackId,
			features: decoded( plain ).features?.length ?? 0,
			raw: plain.body.length,
			gzip: 'gzip' === gz.headers[ 'content-encoding' ] ? gz.body.length : zlib.gzipSync( plain.body, { level: 9 } ).length,
			gzip_source: 'gzip' === gz.headers[ 'content-encoding' ] ? 'as served' : 'computed: gzip -9 of the raw body',
			vertices: vertices( feature?.geometry ),
			type: feature?.geometry?.type ?? null,
			length_m: feature?.properties?.length_m ?? null,
			ascent_m: feature?.properties?.ascent_m ?? null,
			descent_m: feature?.properties?.descent_m ?? null,
			profile_points: Array.isArray( feature?.properties?.profile ) ? feature.properties.profile.length : null,
			ms: round( gz.ms ),
		};
	}
	const gpxResult = {
		points,
		file_bytes: gpx.length,
		runs: imports.length,
		import: { ...stats( imports ), memory: importMemory },
		answer: report,
		tracks_found: tracks.length,
		track,
	};
	const result = { routes, gpx: gpxResult };
	result.checks = {
		shapes_features_match: features.length === seeded.routes,
		shapes_all_lines: features.every( ( f ) => 'LineString' === f.geometry?.type || 'MultiLineString' === f.geometry?.type ),
		shapes_etag: Boolean( etag ),
		shapes_cache_control_public: /\bpublic\b/.test( sample.headers[ 'cache-control' ] || '' ),
		shapes_no_set_cookie: ! sample.headers[ 'set-cookie' ],
		shapes_not_modified_all_304: true,
		gpx_imports_all_200: true,
		gpx_each_import_made_its_track: tracks.length === imports.length,
		gpx_track_has_profile: Boolean( track && track.profile_points > 0 && null !== track.ascent_m ),
	};
	log(
		`shapes: cold p95 ${ routes.cold.p95_ms } ms, warm p95 ${ routes.warm.p95_ms } ms, 304 p95 ${ routes.not_modified.p95_ms } ms, ` +
			`${ ( routes.bytes.gzip / 1024 ).toFixed( 1 ) } KiB gzip (${ routes.bytes.vertices } vertices); GPX import max ${ gpxResult.import.max_ms } ms, ` +
			`track feed ${ track ? `${ track.gzip } B gzip, ${ track.vertices } vertices` : 'NOT FOUND' }`
	);
	return result;
}

async function main() {
	const out = { markers: SIZE, concurrency: CONCURRENCY, seed: null, runtime: null, ours: {}, core: {}, checks: {} };
	if ( args.seed && fs.existsSync( args.seed ) ) {
		out.seed = JSON.parse( fs.readFileSync( args.seed, 'utf8' ) );
	}

	// Runtime facts, and a check that the setup is what we claim.
	const info = await get( '/?cairn_bench_info=1', {}, 'info' );
	out.runtime = JSON.parse( info.body.toString() );
	if ( ! out.runtime.opcache_enabled ) {
		throw new Error( 'OPcache is not enabled in the PHP that serves the site' );
	}
	if ( ! out.runtime.plugin_loaded ) {
		throw new Error( 'cairn-maps is not loaded on the bench site (inactive, or idle: is build/ there?)' );
	}

	// Prime: the first build after seeding (discarded), and OPcache for the code paths.
	const prime = await get( OURS, GZIP, 'prime' );
	expectStatus( [ prime ], 200, 'prime ours' );
	for ( let i = 0; i < CONCURRENCY; i++ ) {
		expectStatus( [ await get( corePage( 1 ), GZIP, 'prime-core' ) ], 200, 'prime core' );
	}

	// (a) Cold: invalidate through the plugin's own hook, then one request; repeated.
	log( `cold x${ COLD_RUNS }` );
	const cold = [];
	for ( let i = 0; i < COLD_RUNS; i++ ) {
		bump();
		cold.push( await get( OURS, GZIP, 'cold' ) );
	}
	expectStatus( cold, 200, 'cold' );
	out.ours.cold = { ...stats( cold ), memory: await peaks( cold ) };

	// (b) Warm 200 at concurrency.
	log( `warm x${ WARM_REQUESTS } at c${ CONCURRENCY }` );
	const warm = await load( WARM_REQUESTS, CONCURRENCY, () => get( OURS, GZIP, 'warm' ) );
	expectStatus( warm.results, 200, 'warm' );
	out.ours.warm = { ...stats( warm.results, warm.seconds ), memory: await peaks( warm.results ) };
	const sample = warm.results[ 0 ];
	const etag = sample.headers.etag;

	if ( SHAPES_ONLY ) {
		out.shapes = await measureShapes();
		out.checks = { etag: Boolean( etag ), warm_served_from_cache: 0 === out.ours.warm.memory.rebuilt, ...out.shapes.checks };
		fs.writeFileSync( args.out, JSON.stringify( out, null, '\t' ) + '\n' );
		return;
	}

	if ( FLOOD_ONLY ) {
		out.flood = await measureFlood( out.seed?.groups || [ 'huts', 'peaks', 'springs', 'viewpoints', 'bridges' ] );
		out.checks = { etag: Boolean( etag ), warm_served_from_cache: 0 === out.ours.warm.memory.rebuilt, ...out.flood.checks };
		fs.writeFileSync( args.out, JSON.stringify( out, null, '\t' ) + '\n' );
		log( `BENCH_ONLY=flood: ours warm p95 ${ out.ours.warm.p95_ms } ms` );
		return;
	}

	// (c) 304 at concurrency.
	log( `304 x${ NOT_MODIFIED_REQUESTS } at c${ CONCURRENCY }` );
	const notModified = await load( NOT_MODIFIED_REQUESTS, CONCURRENCY, () => get( OURS, { ...GZIP, 'If-None-Match': etag }, 'nm' ) );
	expectStatus( notModified.results, 304, '304 with If-None-Match' );
	out.ours.not_modified = { ...stats( notModified.results, notModified.seconds ), memory: await peaks( notModified.results ) };

	// (e) The maps of a post: warm 200 interleaved with core's route for the same page, 304
	// interleaved with the feed's 304 (the early answer of each).
	if ( MAPS_POST ) {
		out.maps = await measureMaps( etag );
	}

	// (e') The posts feed (issue 24) beside the markers feed.
	if ( WITH_POSTS ) {
		seedCategories = out.seed?.categories || [];
		out.posts = await measurePosts( etag );
	}

	// Cold under load: right after an invalidation, CONCURRENCY visitors at once (a cache stampede:
	// how many of them rebuild the payload, and how long they wait). Two rounds.
	log( `cold at c${ CONCURRENCY } x2 rounds` );
	const stampede = [];
	let rebuilds = 0;
	for ( let burstIndex = 0; burstIndex < 2; burstIndex++ ) {
		bump();
		const burst = await load( CONCURRENCY, CONCURRENCY, () => get( OURS, GZIP, 'stampede' ) );
		expectStatus( burst.results, 200, 'cold at concurrency' );
		stampede.push( ...burst.results );
	}
	const stampedeEntries = await peaks( stampede );
	for ( const line of fs.readFileSync( PEAK_LOG, 'utf8' ).split( '\n' ) ) {
		try {
			const entry = line ? JSON.parse( line ) : null;
			// A request that rebuilt read marker coordinates (a cached answer reads none).
			if ( entry && entry.id.startsWith( `${ runId }-stampede-` ) && entry.reads > 0 ) {
				rebuilds++;
			}
		} catch {
			// ignore
		}
	}
	out.ours.cold_concurrent = {
		...stats( stampede ),
		rounds: 2,
		rebuilds_per_round: round( rebuilds / 2, 1 ),
		memory: stampedeEntries,
	};

	// (d) Bytes: the JSON as sent without Accept-Encoding, and with gzip accepted.
	const raw = await get( OURS, {}, 'raw' );
	expectStatus( [ raw ], 200, 'raw' );
	const rawMemory = await peaks( [ raw ] );
	let document;
	try {
		document = JSON.parse( raw.body.toString( 'utf8' ) );
	} catch ( error ) {
		throw new Error( `the feed is not valid JSON: ${ error.message }` );
	}
	const features = Array.isArray( document.features ) ? document.features.length : -1;
	const servedGzip = 'gzip' === sample.headers[ 'content-encoding' ];
	const gzipBytes = servedGzip ? sample.body.length : zlib.gzipSync( raw.body, { level: 9 } ).length;
	if ( servedGzip && zlib.gunzipSync( sample.body ).length !== raw.body.length ) {
		throw new Error( 'the gzip body does not inflate to the raw body' );
	}
	out.ours.bytes = {
		raw: raw.body.length,
		gzip: gzipBytes,
		gzip_source: servedGzip ? 'as served (Content-Encoding: gzip)' : 'computed: gzip -9 of the raw body',
		gzip9_of_raw: zlib.gzipSync( raw.body, { level: 9 } ).length,
		raw_per_marker: round( raw.body.length / SIZE, 2 ),
		gzip_per_marker: round( gzipBytes / SIZE, 2 ),
		features,
	};
	out.ours.raw_request = { ms: round( raw.ms ), memory: rawMemory };
	const measured = [ out.ours.cold.memory, out.ours.cold_concurrent.memory, out.ours.warm.memory, out.ours.not_modified.memory, rawMemory ];
	out.ours.peak_bytes = Math.max( ...measured.map( ( m ) => m.peak_bytes ?? 0 ) );
	out.ours.peak_real_bytes = Math.max( ...measured.map( ( m ) => m.peak_real_bytes ?? 0 ) );

	out.checks = {
		features_match: features === SIZE,
		etag: Boolean( etag ),
		cache_control: sample.headers[ 'cache-control' ] || null,
		cache_control_public: /\bpublic\b/.test( sample.headers[ 'cache-control' ] || '' ),
		no_set_cookie: ! sample.headers[ 'set-cookie' ] && ! raw.headers[ 'set-cookie' ],
		content_type: raw.headers[ 'content-type' ] || null,
		content_encoding_gzip: servedGzip,
		vary: sample.headers.vary || null,
		not_modified_all_304: true,
		cold_rebuilt_every_time: out.ours.cold.memory.rebuilt === COLD_RUNS,
		warm_served_from_cache: 0 === out.ours.warm.memory.rebuilt,
		not_modified_read_no_marker: 0 === out.ours.not_modified.memory.rebuilt,
	};
	if ( features !== SIZE ) {
		log( `WARNING: the feed has ${ features } features, ${ SIZE } markers were seeded` );
	}

	// (f) Core: one page at concurrency.
	log( `core page 1 x${ CORE_REQUESTS } at c${ CONCURRENCY }` );
	const page = await load( CORE_REQUESTS, CONCURRENCY, () => get( corePage( 1 ), GZIP, 'core' ) );
	expectStatus( page.results, 200, 'core page' );
	const total = Number( page.results[ 0 ].headers[ 'x-wp-total' ] );
	const totalPages = Number( page.results[ 0 ].headers[ 'x-wp-totalpages' ] );
	const pageBody = page.results[ 0 ].body;
	const pageItems = JSON.parse( pageBody.toString( 'utf8' ) ).length;
	out.core.page = {
		...stats( page.results, page.seconds ),
		memory: await peaks( page.results ),
		items: pageItems,
		bytes_raw: pageBody.length,
		bytes_gzip6: zlib.gzipSync( pageBody, { level: 6 } ).length,
		content_encoding: page.results[ 0 ].headers[ 'content-encoding' ] || null,
	};
	out.core.total = total;
	out.core.total_pages = totalPages;
	out.checks.core_total_matches = total === SIZE;

	// (f) Core: every page, one after the other (a client walking the collection); sampled above
	// CORE_ALL_PAGES_MAX pages: evenly spaced pages from first to last, mean × page count.
	let pages;
	if ( totalPages <= CORE_ALL_PAGES_MAX ) {
		pages = Array.from( { length: totalPages }, ( _, i ) => i + 1 );
	} else {
		const n = Math.min( CORE_SAMPLE_PAGES, totalPages );
		pages = [ ...new Set( Array.from( { length: n }, ( _, i ) => 1 + Math.round( ( i * ( totalPages - 1 ) ) / ( n - 1 ) ) ) ) ];
	}
	log( `core pages: ${ pages.length } of ${ totalPages }, sequential` );
	const walk = [];
	const walkStart = process.hrtime.bigint();
	for ( const p of pages ) {
		walk.push( await get( corePage( p ), GZIP, 'walk' ) );
	}
	const walkSeconds = Number( process.hrtime.bigint() - walkStart ) / 1e9;
	expectStatus( walk, 200, 'core page walk' );
	const walkMs = walk.map( ( r ) => r.ms );
	const walkMean = walkMs.reduce( ( a, b ) => a + b, 0 ) / walkMs.length;
	const walkBytes = walk.reduce( ( sum, r ) => sum + r.body.length, 0 );
	const walkGzip = walk.reduce( ( sum, r ) => sum + zlib.gzipSync( r.body, { level: 6 } ).length, 0 );
	const extrapolated = pages.length < totalPages;
	out.core.all_pages = {
		pages: totalPages,
		measured_pages: pages.length,
		extrapolated,
		method: extrapolated
			? `${ pages.length } evenly spaced pages (1…${ totalPages }) read sequentially; total = mean × ${ totalPages }`
			: 'every page read sequentially',
		total_ms: round( extrapolated ? walkMean * totalPages : walkSeconds * 1000 ),
		mean_page_ms: round( walkMean ),
		first_page_ms: round( walkMs[ 0 ] ),
		last_page_ms: round( walkMs[ walkMs.length - 1 ] ),
		bytes_raw: Math.round( extrapolated ? ( walkBytes / walk.length ) * totalPages : walkBytes ),
		bytes_gzip6: Math.round( extrapolated ? ( walkGzip / walk.length ) * totalPages : walkGzip ),
		memory: await peaks( walk ),
	};
	out.core.peak_bytes = Math.max( out.core.page.memory.peak_bytes ?? 0, out.core.all_pages.memory.peak_bytes ?? 0 );

	if ( out.maps ) {
		Object.assign( out.checks, out.maps.checks );
	}
	if ( out.posts ) {
		Object.assign( out.checks, out.posts.checks );
	}

	// (g) The flood of random filters (issue 12), last: what it leaves behind touches nothing above.
	out.flood = await measureFlood( out.seed?.groups || [ 'huts', 'peaks', 'springs', 'viewpoints', 'bridges' ] );
	Object.assign( out.checks, out.flood.checks );

	fs.writeFileSync( args.out, JSON.stringify( out, null, '\t' ) + '\n' );
	log(
		`ours cold p95 ${ out.ours.cold.p95_ms } ms, warm p95 ${ out.ours.warm.p95_ms } ms, 304 p95 ${ out.ours.not_modified.p95_ms } ms, ` +
			`${ out.ours.bytes.gzip_per_marker } B/marker gz; core page p95 ${ out.core.page.p95_ms } ms` +
			( out.maps ? `; post maps warm p95 ${ out.maps.warm.p95_ms } ms (core page ${ out.maps.core_page.p95_ms } ms), 304 p95 ${ out.maps.not_modified.p95_ms } ms (feed ${ out.maps.feed_not_modified.p95_ms } ms)` : '' )
	);
}

main()
	.catch( ( error ) => {
		console.error( `[bench:api] ${ SIZE }: ${ error.stack || error.message }` );
		process.exitCode = 1;
	} )
	.finally( () => agent.destroy() );
