/**
 * `npm run bench:front:tiles` (issue 22; bench/front/tiles.mjs starts this through Playwright with
 * CAIRN_BENCH_SPEC=tiles, inside `bench/api/run.sh` BENCH_ONLY=tiles, which seeds and indexes one
 * database per size and keeps the bench WordPress up while this runs).
 *
 * For each size, the map of every marker of the bench WordPress (its `tilesUrl`, `placesUrl`,
 * `summaryUrl` and `markersUrl` as `/cairn/v1/posts/<id>/maps` gives them, proxied through the
 * bench site's `/wp/` so that the page is same-origin as on WordPress) in three pages timed one
 * after the other, the order rotating each run:
 * - `map-0.html`: the same map without markers (what mapbox-gl costs by itself);
 * - `tiled-<n>.html`: the tiled map (the runtime's tiled client, tiles from the real PHP);
 * - `wpfeed-<n>.html` (the CAIRN_BENCH_THRESHOLD_SIZES only): the same map with its whole feed
 *   (`tilesUrl` ''), the same places from the same WordPress: tiled against whole feed at the
 *   sizes where the threshold is chosen.
 * Each: navigation → first frame with rendered clusters (front.bench.ts's method), long tasks
 * until the map is idle after it, and the place data transferred before that frame: every
 * finished request of `/cairn/v1/markers|tiles|places` whose response ended before it
 * (Playwright's request timing and sizes: body as transferred + headers).
 *
 * Environment: CAIRN_BENCH_WP (the bench WordPress origin), CAIRN_BENCH_WP_DB_FILE (the file naming
 * its database: `cairn_bench_t<n>` switches size), CAIRN_BENCH_TILED_SIZES (1000,100000,1000000),
 * CAIRN_BENCH_THRESHOLD_SIZES (1000,10000,20000,50000), CAIRN_BENCH_RUNS (3), CAIRN_BENCH_OUT.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, type Browser } from '@playwright/test';

import { longTasksUntil, newPage } from './page';
import { ROOT, startSite, type BenchSite, type WordPressMap } from './site';

const list = ( value: string | undefined, fallback: string ) =>
	( value ?? fallback )
		.split( ',' )
		.map( Number )
		.filter( ( n ) => n > 0 );
const TILED = list(
	process.env.CAIRN_BENCH_TILED_SIZES,
	'1000,100000,1000000'
);
const THRESHOLD = list(
	process.env.CAIRN_BENCH_THRESHOLD_SIZES,
	'1000,10000,20000,50000'
);
const RUNS = Number( process.env.CAIRN_BENCH_RUNS ?? 3 );
const WP = ( process.env.CAIRN_BENCH_WP ?? '' ).replace( /\/$/, '' );
const DB_FILE = process.env.CAIRN_BENCH_WP_DB_FILE ?? '';
/** bench/api/seed.php's distribution (run.sh's BENCH_DATA for tiles: `cities`). */
const DATA = process.env.BENCH_DATA ?? 'cities';
const PAGE_TIMEOUT = Number( process.env.CAIRN_BENCH_PAGE_TIMEOUT ?? 120_000 );
const OUT =
	process.env.CAIRN_BENCH_OUT ??
	path.join( ROOT, 'bench', 'results', 'front-tiles-raw.tmp' );
const PLACE_DATA = /\/cairn\/v1\/(markers|tiles|places)/;

type Kind = 'empty' | 'tiled' | 'feed';
const PAGE_OF: Record< Kind, ( n: number ) => string > = {
	empty: () => 'map-0',
	tiled: ( n ) => `tiled-${ n }`,
	feed: ( n ) => `wpfeed-${ n }`,
};

interface Sample {
	done: number | null;
	firstClusters?: number;
	longTasks?: number;
	longestTask?: number;
	/** Place data (feed, tiles, summary, list) before the first clusters. */
	bytes?: number;
	requests?: number;
	/** All place data until the map was idle after the first clusters. */
	bytesUntilDone?: number;
	requestsUntilDone?: number;
	kinds?: Record< string, number >;
	error?: string;
}

/** The bench WordPress's map of `n` markers: switch its database, read the page's maps. */
async function wordpressMap(
	n: number,
	origin: string
): Promise< WordPressMap > {
	fs.writeFileSync( DB_FILE, `cairn_bench_t${ n }_${ DATA }` );
	const pages = await (
		await fetch( `${ WP }/?rest_route=/wp/v2/pages&slug=cairn-bench-tiles` )
	).json();
	const id = pages?.[ 0 ]?.id;
	if ( ! id ) {
		throw new Error(
			`no page cairn-bench-tiles in cairn_bench_t${ n }_${ DATA }`
		);
	}
	const body = await (
		await fetch( `${ WP }/?rest_route=/cairn/v1/posts/${ id }/maps` )
	).json();
	const config = body?.maps?.[ 0 ]?.config ?? {};
	const local = ( url: string ) =>
		url ? url.replace( WP, `${ origin }/wp` ) : '';
	return {
		markersUrl: local( config.markersUrl ?? '' ),
		tilesUrl: local( config.tilesUrl ?? '' ),
		placesUrl: local( config.placesUrl ?? '' ),
		summaryUrl: local( config.summaryUrl ?? '' ),
	};
}

async function measure(
	browser: Browser,
	site: BenchSite,
	kind: Kind,
	n: number
): Promise< Sample > {
	const { context, page } = await newPage( browser, site );
	const finished: Array<
		Promise< { end: number; bytes: number; what: string } >
	> = [];
	page.on( 'requestfinished', ( request ) => {
		const url = decodeURIComponent( request.url() );
		const what = PLACE_DATA.exec( url );
		if ( ! what ) {
			return;
		}
		finished.push(
			request.sizes().then( ( sizes ) => {
				const timing = request.timing();
				return {
					end: timing.startTime + timing.responseEnd,
					bytes: sizes.responseBodySize + sizes.responseHeadersSize,
					what: what[ 1 ]!,
				};
			} )
		);
	} );
	try {
		await page.goto(
			`${ site.origin }/page/${ PAGE_OF[ kind ]( n ) }.html`
		);
		const marks = ( await (
			await page.waitForFunction(
				() => {
					const { bench } = window as unknown as {
						bench: { marks: Record< string, number > };
					};
					return bench.marks.done !== undefined ? bench.marks : null;
				},
				null,
				{ timeout: PAGE_TIMEOUT, polling: 100 }
			)
		).jsonValue() ) as Record< string, number >;
		const origin = await page.evaluate( () => performance.timeOrigin );
		const requests = await Promise.all( finished );
		const before = requests.filter(
			( r ) => r.end <= origin + marks.firstClusters!
		);
		const kinds: Record< string, number > = {};
		for ( const r of before ) {
			kinds[ r.what ] = ( kinds[ r.what ] ?? 0 ) + 1;
		}
		const tasks = await longTasksUntil( page, marks.done! );
		return {
			done: Math.round( marks.firstClusters! ),
			firstClusters: Math.round( marks.firstClusters! ),
			longTasks: tasks.longTasks,
			longestTask: tasks.longestTask,
			bytes: before.reduce( ( sum, r ) => sum + r.bytes, 0 ),
			requests: before.length,
			bytesUntilDone: requests.reduce( ( sum, r ) => sum + r.bytes, 0 ),
			requestsUntilDone: requests.length,
			kinds,
		};
	} catch ( error ) {
		return { done: null, error: String( error ) };
	} finally {
		await context.close();
	}
}

function median( values: number[] ): number | null {
	if ( values.length === 0 ) {
		return null;
	}
	const sorted = [ ...values ].sort( ( a, b ) => a - b );
	return sorted[ Math.floor( ( sorted.length - 1 ) / 2 ) ]!;
}

function summary( samples: Sample[] ) {
	const ok = samples.filter( ( s ) => s.done !== null );
	const of = ( key: keyof Sample ) =>
		median(
			ok.flatMap( ( s ) =>
				typeof s[ key ] === 'number' ? [ s[ key ] as number ] : []
			)
		);
	return {
		samples,
		failed: samples.length - ok.length,
		firstClusters:
			ok.length === samples.length ? of( 'firstClusters' ) : null,
		longTasks: of( 'longTasks' ),
		longestTask: of( 'longestTask' ),
		bytes: of( 'bytes' ),
		requests: of( 'requests' ),
		bytesUntilDone: of( 'bytesUntilDone' ),
	};
}

test( 'tiled maps against the empty map and the whole feed (issue 22)', async ( {
	browser,
} ) => {
	if ( ! WP || ! DB_FILE ) {
		throw new Error(
			'CAIRN_BENCH_WP and CAIRN_BENCH_WP_DB_FILE are unset: run npm run bench:front:tiles'
		);
	}
	const sizes = [ ...new Set( [ ...TILED, ...THRESHOLD ] ) ].sort(
		( a, b ) => a - b
	);
	const maps = new Map< number, WordPressMap >();
	const site = await startSite( [ 1000 ], undefined, false, null, {
		origin: WP,
		maps,
	} );
	const results: Record< string, unknown > = {
		date: new Date().toISOString(),
		browser: browser.version(),
		runs: RUNS,
		tiledSizes: TILED,
		thresholdSizes: THRESHOLD,
		cpus: os.cpus().length,
		loadAverageBefore: os
			.loadavg()
			.map( ( v ) => Number( v.toFixed( 2 ) ) ),
		sizes: {},
	};
	try {
		// Warm-up: the first context pays for SwiftShader and disk caches.
		await measure( browser, site, 'empty', 0 );
		for ( const n of sizes ) {
			const map = await wordpressMap( n, site.origin );
			maps.set( n, map );
			const kinds: Kind[] = [ 'empty' ];
			if ( map.tilesUrl ) {
				kinds.push( 'tiled' );
			}
			if ( THRESHOLD.includes( n ) ) {
				kinds.push( 'feed' );
			}
			const byKind: Record< Kind, Sample[] > = {
				empty: [],
				tiled: [],
				feed: [],
			};
			for ( let i = 0; i < RUNS; i++ ) {
				for ( let k = 0; k < kinds.length; k++ ) {
					const kind = kinds[ ( i + k ) % kinds.length ]!;
					byKind[ kind ].push(
						await measure( browser, site, kind, n )
					);
				}
			}
			( results.sizes as Record< number, unknown > )[ n ] = {
				map,
				tiledUrlMissing: ! map.tilesUrl,
				empty: summary( byKind.empty ),
				tiled: map.tilesUrl ? summary( byKind.tiled ) : null,
				feed: THRESHOLD.includes( n ) ? summary( byKind.feed ) : null,
			};
			// eslint-disable-next-line no-console
			console.log( `[bench:front:tiles] ${ n } places done` );
		}
		results.loadAverageAfter = os
			.loadavg()
			.map( ( v ) => Number( v.toFixed( 2 ) ) );
	} finally {
		await site.close();
		fs.mkdirSync( path.dirname( OUT ), { recursive: true } );
		fs.writeFileSync( OUT, JSON.stringify( results, null, '\t' ) );
	}
} );
