/**
 * `npm run bench:front:engines` (issue 31; bench/front/engines.mjs starts this through Playwright
 * with CAIRN_BENCH_SPEC=engines): the same page and the same places drawn by mapbox-gl (Mapbox
 * Standard, the token) and by maplibre-gl (OpenFreeMap Liberty, no token), both basemaps from the
 * offline maps service.
 *
 * - Whole feed at CAIRN_BENCH_ENGINE_SIZES (0, 1000, 100000): `/page/map-<n>.html?engine=<e>`.
 * - Tiled at CAIRN_BENCH_ENGINE_TILED (1000000) when run inside the bench WordPress
 *   (CAIRN_BENCH_WP set by `bench/api/run.sh BENCH_ONLY=tiles`): `/page/tiled-<n>.html?engine=<e>`.
 *
 * Each sample: a fresh context (cold cache); navigation → `cairn:map-ready` (first draw) and →
 * the first frame with rendered clusters (front.bench.ts's method, page.ts); the requests the page
 * made before that frame (every request, the basemap's and the library's included); the
 * JavaScript it loaded, as gzip -9 bytes of the files served (the plugin's build, mapbox-gl's
 * distribution, maplibre-gl's worker). The engines alternate within each run, the order rotating.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, type Browser } from '@playwright/test';

import { longTasksUntil, newPage } from './page';
import {
	ENGINES,
	PLUGIN_PATH,
	ROOT,
	gzipSize,
	startSite,
	type BenchSite,
	type Engine,
	type WordPressMap,
} from './site';

const list = ( value: string | undefined, fallback: string ) =>
	( value ?? fallback )
		.split( ',' )
		.filter( ( s ) => s.trim() !== '' )
		.map( Number )
		.filter( ( n ) => n >= 0 );
const SIZES = list( process.env.CAIRN_BENCH_ENGINE_SIZES, '0,1000,100000' );
const TILED = list( process.env.CAIRN_BENCH_ENGINE_TILED, '1000000' ).filter(
	( n ) => n > 0
);
const RUNS = Number( process.env.CAIRN_BENCH_RUNS ?? 3 );
const WP = ( process.env.CAIRN_BENCH_WP ?? '' ).replace( /\/$/, '' );
const DB_FILE = process.env.CAIRN_BENCH_WP_DB_FILE ?? '';
const DATA = process.env.BENCH_DATA ?? 'cities';
const PAGE_TIMEOUT = Number( process.env.CAIRN_BENCH_PAGE_TIMEOUT ?? 180_000 );
const OUT =
	process.env.CAIRN_BENCH_OUT ??
	path.join( ROOT, 'bench', 'results', 'front-engines-raw.tmp' );
const MAPBOX_DIST = path.join( ROOT, 'node_modules', 'mapbox-gl', 'dist' );

interface Sample {
	firstDraw: number | null;
	firstClusters?: number;
	longTasks?: number;
	/** Every request the page made before the first clusters' frame. */
	requests?: number;
	/** gzip -9 bytes of the JavaScript files the page loaded (until the map was idle). */
	jsBytes?: number;
	jsFiles?: string[];
	error?: string;
}

/** The local file a script URL was served from (the build, mapbox-gl's distribution), or null. */
function localFile( url: URL ): string | null {
	if ( url.pathname.startsWith( `${ PLUGIN_PATH }build/` ) ) {
		return path.join(
			ROOT,
			'build',
			url.pathname.slice( `${ PLUGIN_PATH }build/`.length )
		);
	}
	const mapbox = /^\/mapbox-gl-js\/v[^/]+\/(mapbox-gl\.js)$/.exec(
		url.pathname
	);
	if ( mapbox && /(^|\.)mapbox\.com$/.test( url.hostname ) ) {
		return path.join( MAPBOX_DIST, mapbox[ 1 ]! );
	}
	return null;
}

const sizes = new Map< string, number >();
function gzipOf( file: string ): number {
	if ( ! sizes.has( file ) ) {
		sizes.set( file, fs.existsSync( file ) ? gzipSize( file ) : 0 );
	}
	return sizes.get( file )!;
}

async function measure(
	browser: Browser,
	site: BenchSite,
	address: string
): Promise< Sample > {
	const { context, page } = await newPage( browser, site );
	const requests: Array< { at: number; url: string } > = [];
	context.on( 'request', ( request ) => {
		requests.push( { at: Date.now(), url: request.url() } );
	} );
	try {
		await page.goto( address );
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
		const before = requests.filter(
			( r ) => r.at <= origin + marks.firstClusters!
		);
		const scripts = [
			...new Set(
				requests
					.map( ( r ) => new URL( r.url ) )
					.filter( ( u ) => /\.m?js$/.test( u.pathname ) )
					.map( localFile )
					.filter( ( f ): f is string => f !== null )
			),
		];
		const tasks = await longTasksUntil( page, marks.done! );
		return {
			firstDraw: Math.round( marks.ready! ),
			firstClusters: Math.round( marks.firstClusters! ),
			longTasks: tasks.longTasks,
			requests: before.length,
			jsBytes: scripts.reduce( ( sum, f ) => sum + gzipOf( f ), 0 ),
			jsFiles: scripts.map( ( f ) => path.relative( ROOT, f ) ),
		};
	} catch ( error ) {
		return { firstDraw: null, error: String( error ) };
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
	const ok = samples.filter( ( s ) => s.firstDraw !== null );
	const of = ( key: keyof Sample ) =>
		median(
			ok.flatMap( ( s ) =>
				typeof s[ key ] === 'number' ? [ s[ key ] as number ] : []
			)
		);
	return {
		samples,
		failed: samples.length - ok.length,
		firstDraw: ok.length === samples.length ? of( 'firstDraw' ) : null,
		firstClusters:
			ok.length === samples.length ? of( 'firstClusters' ) : null,
		longTasks: of( 'longTasks' ),
		requests: of( 'requests' ),
		jsBytes: of( 'jsBytes' ),
	};
}

/** The bench WordPress's map of `n` markers (tiles.bench.ts's way): its addresses on this site. */
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

/** Both engines on one page, `RUNS` times each, alternating (the first engine rotates). */
async function compare(
	browser: Browser,
	address: ( engine: Engine ) => string
) {
	const by: Record< Engine, Sample[] > = { mapbox: [], maplibre: [] };
	for ( let i = 0; i < RUNS; i++ ) {
		for ( let k = 0; k < ENGINES.length; k++ ) {
			const engine = ENGINES[ ( i + k ) % ENGINES.length ]!;
			by[ engine ].push(
				await measure( browser, site!, address( engine ) )
			);
		}
	}
	return { mapbox: summary( by.mapbox ), maplibre: summary( by.maplibre ) };
}

let site: BenchSite | null = null;

test( 'first draw and first clusters on mapbox-gl and maplibre-gl (issue 31)', async ( {
	browser,
} ) => {
	const tiled = WP && DB_FILE ? TILED : [];
	const maps = new Map< number, WordPressMap >();
	site = await startSite(
		SIZES.filter( ( n ) => n > 0 ),
		undefined,
		false,
		null,
		tiled.length ? { origin: WP, maps } : null
	);
	const results: Record< string, unknown > = {
		date: new Date().toISOString(),
		browser: browser.version(),
		runs: RUNS,
		cpus: os.cpus().length,
		loadAverageBefore: os
			.loadavg()
			.map( ( v ) => Number( v.toFixed( 2 ) ) ),
		sizes: {},
		tiled: {},
	};
	try {
		const origin = site.origin;
		// Warm-up: the first context pays for SwiftShader and disk caches, on each engine.
		for ( const engine of ENGINES ) {
			await measure(
				browser,
				site,
				`${ origin }/page/map-0.html?engine=${ engine }`
			);
		}
		for ( const n of SIZES ) {
			( results.sizes as Record< number, unknown > )[ n ] = await compare(
				browser,
				( engine ) =>
					`${ origin }/page/map-${ n }.html?engine=${ engine }`
			);
			// eslint-disable-next-line no-console
			console.log(
				`[bench:front:engines] ${ n } places (whole feed) done`
			);
		}
		for ( const n of tiled ) {
			const map = await wordpressMap( n, origin );
			maps.set( n, map );
			( results.tiled as Record< number, unknown > )[ n ] = map.tilesUrl
				? await compare(
						browser,
						( engine ) =>
							`${ origin }/page/tiled-${ n }.html?engine=${ engine }`
					)
				: { tiledUrlMissing: true };
			// eslint-disable-next-line no-console
			console.log( `[bench:front:engines] ${ n } places (tiled) done` );
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
