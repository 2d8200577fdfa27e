/**
 * `npm run bench:front` (run.mjs starts this through Playwright, with bench/front/playwright.config.ts).
 *
 * For 0, 1k, 10k and 100k markers, in headless Chromium (SwiftShader WebGL) with every Mapbox host
 * answered by the offline maps service of the e2e suite:
 * - ours: the block's page (view script → lazy runtime → clustered GeoJSON source); time from
 *   navigation to the first frame that shows the markers' clusters, and the long tasks until the
 *   map is idle after that;
 * - baseline: one DOM `mapboxgl.Marker` per point; time until all are added and the map is idle
 *   (capped), and its long tasks;
 * - issue 24: the same places as posts only and as half markers, half posts (both feeds, one
 *   source); their first clusters timed exactly as ours, interleaved with the markers-only page;
 * - bytes: plugin JavaScript transferred (gzip) on a page whose map is below the fold, before the
 *   visitor scrolls near it, then what the scroll brings; and on a page without the block.
 * Writes its raw results to CAIRN_BENCH_OUT; run.mjs reports them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, type Browser, type Page } from '@playwright/test';
import Supercluster from 'supercluster';

import {
	PLUGIN_PATH,
	ROOT,
	gzipSize,
	startSite,
	type BenchSite,
	type Layout,
} from './site';
import { longTasksUntil, newPage } from './page';
import { measurePlaces, type PlacesRun, type PlacesSample } from './places';

const SIZES = ( process.env.CAIRN_BENCH_SIZES ?? '0,1000,10000,100000' )
	.split( ',' )
	.map( Number );
const OURS_RUNS = Number( process.env.CAIRN_BENCH_RUNS ?? 3 );
const BASELINE_CAP_MS = Number(
	process.env.CAIRN_BENCH_BASELINE_CAP ?? 60_000
);
/** Repetitions of each places-panel interaction per page (0: skip them). */
const PLACES_REPEAT = Number( process.env.CAIRN_BENCH_PLACES_REPEAT ?? 3 );
/** How many of the OURS_RUNS pages per size also run those interactions. */
const PLACES_RUNS = Number( process.env.CAIRN_BENCH_PLACES_RUNS ?? 2 );
/** Issue 24's posts-only and mixed pages beside the markers-only one (`0` skips them). */
const POSTS = process.env.CAIRN_BENCH_POSTS !== '0';
const OUT =
	process.env.CAIRN_BENCH_OUT ??
	path.join( ROOT, 'bench', 'results', 'front-raw.tmp' );

interface Run {
	/** ms from navigation; null when not reached (baseline over its cap). */
	done: number | null;
	/** ms from navigation to `cairn:map-ready` (ours). */
	ready?: number | null;
	/** Milestones, ms from navigation. */
	marks?: Record< string, number >;
	/** Sum of long-task durations until `done` (or the cap), ms. */
	longTasks: number;
	longTaskCount: number;
	/** Longest single task, ms. */
	longestTask: number;
	/** Main-thread waits for shader links (SwiftShader), ms; see shaderStalls(). */
	shaderStalls?: number | null;
	/** Frames per second while the map pans 400 px in 2 s after loading; see panFps(). */
	panFps?: number | null;
	capped?: boolean;
	error?: string;
	/** The places panel's interactions on the same page, after the first draw (issue 11). */
	places?: PlacesRun;
}

/**
 * Diagnostic only: the time mapbox-gl's main thread waited for shader programs to link (its own
 * count, read from a private field because no public one exists). With SwiftShader the GPU is the
 * CPU, so these stalls are far longer than on a real graphics card.
 *
 * @param page The page.
 */
type StatsWindow = {
	benchMap?: {
		painter?: { context?: { _compileStats?: { totalStallMs?: number } } };
	};
};

function shaderStalls( page: Page ): Promise< number | null > {
	return page.evaluate( () => {
		const { benchMap } = window as unknown as StatsWindow;
		const stall = benchMap?.painter?.context?._compileStats?.totalStallMs;
		return typeof stall === 'number' ? Math.round( stall ) : null;
	} );
}

/**
 * What moving the map feels like once everything is drawn: frames per second during a linear
 * 2-second pan of 400 px (DOM markers are repositioned on every frame; clusters are not DOM).
 *
 * @param page The page.
 */
function panFps( page: Page ): Promise< number | null > {
	return page.evaluate(
		() =>
			new Promise< number | null >( ( resolve ) => {
				const { benchMap } = window as unknown as {
					benchMap?: {
						panBy: (
							offset: [ number, number ],
							options: object
						) => void;
						once: ( type: string, listener: () => void ) => void;
					};
				};
				if ( ! benchMap ) {
					resolve( null );
					return;
				}
				let frames = 0;
				let moving = true;
				const started = performance.now();
				const tick = () => {
					frames++;
					if ( moving ) {
						requestAnimationFrame( tick );
					}
				};
				const finish = () => {
					if ( ! moving ) {
						return;
					}
					moving = false;
					const seconds = ( performance.now() - started ) / 1000;
					resolve( Math.round( ( frames / seconds ) * 10 ) / 10 );
				};
				benchMap.once( 'moveend', finish );
				// A page too busy to finish the pan is measured over 6 s.
				setTimeout( finish, 6000 );
				benchMap.panBy( [ 400, 0 ], {
					duration: 2000,
					easing: ( t: number ) => t,
				} );
				requestAnimationFrame( tick );
			} )
	);
}

/** Issue 24's pages of the same places: `posts-<n>.html` (posts only), `mixed-<n>.html`. */
const PAGE_OF: Record< Layout, string > = {
	markers: 'map',
	posts: 'posts',
	mixed: 'mixed',
};

async function measureOurs(
	browser: Browser,
	site: BenchSite,
	size: number,
	withPlaces = false,
	layout: Layout = 'markers'
): Promise< Run > {
	const { context, page } = await newPage( browser, site );
	try {
		await page.goto(
			`${ site.origin }/page/${ PAGE_OF[ layout ] }-${ size }.html`
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
				{ timeout: 60_000, polling: 100 }
			)
		).jsonValue() ) as Record< string, number >;
		const chunk = await page.evaluate( () =>
			(
				performance.getEntriesByType(
					'resource'
				) as PerformanceResourceTiming[]
			 )
				.filter( ( entry ) =>
					/\/build\/[^/]+\.js$/.test( new URL( entry.name ).pathname )
				)
				.reduce(
					( latest, entry ) => Math.max( latest, entry.responseEnd ),
					0
				)
		);
		marks.chunksLoaded = chunk;
		const state = await page.getAttribute(
			'.wp-block-cairn-map',
			'data-cairn-state'
		);
		if ( state !== 'ready' ) {
			throw new Error( `map state ${ state }` );
		}
		return {
			done: Math.round( marks.firstClusters! ),
			ready: Math.round( marks.ready! ),
			marks: Object.fromEntries(
				Object.entries( marks ).map( ( [ key, value ] ) => [
					key,
					Math.round( value ),
				] )
			),
			...( await longTasksUntil( page, marks.done! ) ),
			shaderStalls: await shaderStalls( page ),
			// The posts pages time the first draw only (the pan and the panel: markers page).
			panFps: layout === 'markers' ? await panFps( page ) : null,
			...( withPlaces && size > 0 && PLACES_REPEAT > 0
				? { places: await measurePlaces( page, PLACES_REPEAT ) }
				: {} ),
		};
	} catch ( error ) {
		return {
			done: null,
			longTasks: 0,
			longTaskCount: 0,
			longestTask: 0,
			error: String( error ),
		};
	} finally {
		await context.close();
	}
}

async function measureBaseline(
	browser: Browser,
	site: BenchSite,
	size: number
): Promise< Run > {
	const { context, page } = await newPage( browser, site );
	const started = Date.now();
	try {
		await page.goto( `${ site.origin }/page/baseline-${ size }.html`, {
			timeout: BASELINE_CAP_MS,
		} );
		const left = BASELINE_CAP_MS - ( Date.now() - started );
		const done = await page
			.waitForFunction(
				() =>
					(
						window as unknown as {
							bench: { marks: Record< string, number > };
						}
					 ).bench.marks.done ?? null,
				null,
				{ timeout: Math.max( 1000, left ), polling: 200 }
			)
			.then( async ( handle ) => ( await handle.jsonValue() ) as number )
			.catch( () => null );
		if ( done === null ) {
			return {
				done: null,
				capped: true,
				longTasks: 0,
				longTaskCount: 0,
				longestTask: 0,
			};
		}
		return {
			done: Math.round( done ),
			...( await longTasksUntil( page, done ) ),
			shaderStalls: await shaderStalls( page ),
			panFps: await panFps( page ),
		};
	} catch ( error ) {
		return {
			done: null,
			capped: Date.now() - started >= BASELINE_CAP_MS,
			longTasks: 0,
			longTaskCount: 0,
			longestTask: 0,
			error: String( error ).split( '\n' )[ 0 ],
		};
	} finally {
		// A page stuck in a 100k-marker loop: closing the context ends its renderer.
		await Promise.race( [
			context.close(),
			new Promise( ( resolve ) => setTimeout( resolve, 15_000 ) ),
		] );
	}
}

/** Plugin bytes: below-the-fold page before and after scrolling to the map; a page without it. */
async function measureBytes( browser: Browser, site: BenchSite ) {
	const { context, page } = await newPage( browser, site );
	// React and wp-element (issue 11's panel) are WordPress's: they must load with the map too.
	const reactScripts = () =>
		page.evaluate( () =>
			(
				performance.getEntriesByType(
					'resource'
				) as PerformanceResourceTiming[]
			 )
				.map( ( entry ) => new URL( entry.name ).pathname )
				.filter( ( p ) =>
					/\/wp-includes\/js\/dist\/(vendor\/react|element|escape-html)/.test(
						p
					)
				)
		);
	const resources = () =>
		page.evaluate(
			( pluginPath ) =>
				(
					performance.getEntriesByType(
						'resource'
					) as PerformanceResourceTiming[]
				 )
					.filter( ( entry ) =>
						new URL( entry.name ).pathname.startsWith( pluginPath )
					)
					.map( ( entry ) => ( {
						path: new URL( entry.name ).pathname.slice(
							pluginPath.length
						),
						encoded: entry.encodedBodySize,
						decoded: entry.decodedBodySize,
						start: Math.round( entry.startTime ),
					} ) ),
			PLUGIN_PATH
		);
	try {
		await page.goto( `${ site.origin }/page/map-1000-below.html` );
		await page.waitForLoadState( 'networkidle' );
		await page.waitForTimeout( 1500 );
		const beforeVisible = await resources();
		const reactBeforeVisible = await reactScripts();
		const stateBefore = await page.getAttribute(
			'.wp-block-cairn-map',
			'data-cairn-state'
		);
		await page.locator( '.wp-block-cairn-map' ).scrollIntoViewIfNeeded();
		await page.waitForFunction(
			() =>
				(
					window as unknown as {
						bench: { marks: Record< string, number > };
					}
				 ).bench.marks.done !== undefined,
			null,
			{ timeout: 60_000 }
		);
		const afterVisible = await resources();
		const reactWhenVisible = ( await reactScripts() ).filter(
			( p ) => ! reactBeforeVisible.includes( p )
		);
		await page.goto( `${ site.origin }/page/plain.html` );
		await page.waitForLoadState( 'networkidle' );
		const withoutBlock = await resources();
		const js = ( list: typeof beforeVisible ) =>
			list.filter( ( r ) => r.path.endsWith( '.js' ) );
		const sum = ( list: typeof beforeVisible ) =>
			list.reduce( ( total, r ) => total + r.encoded, 0 );
		const lazy = afterVisible.filter(
			( r ) => ! beforeVisible.some( ( b ) => b.path === r.path )
		);
		return {
			stateBeforeScroll: stateBefore,
			reactBeforeVisible,
			reactWhenVisible,
			beforeVisible,
			pluginJsBeforeVisible: sum( js( beforeVisible ) ),
			lazy,
			pluginJsWhenVisible: sum( js( lazy ) ),
			pluginCssWhenVisible: sum(
				lazy.filter( ( r ) => r.path.endsWith( '.css' ) )
			),
			pluginBytesWithoutBlock: sum( withoutBlock ),
			pluginRequestsWithoutBlock: withoutBlock.length,
			coreDependencies: {
				scripts: [ 'wp-hooks', 'wp-i18n' ],
				source: site.coreScripts,
				gzip:
					site.coreScripts === 'wordpress'
						? [ 'hooks.min.js', 'i18n.min.js' ].reduce(
								( total, name ) =>
									total +
									gzipSize(
										path.join(
											ROOT,
											'.cache',
											'wordpress',
											'wp-includes',
											'js',
											'dist',
											name
										)
									),
								0
							)
						: null,
			},
		};
	} finally {
		await context.close();
	}
}

/**
 * How fast this machine is right now: Supercluster indexing 100,000 points in Node, the work
 * mapbox-gl's worker does for our map (reference: 540–650 ms on an idle 2-vCPU EPYC, see
 * reference/mapbox-gl-facts.md §9). Other processes on a shared machine slow every number.
 */
function calibrate() {
	const next = ( () => {
		let seed = 1;
		return () => ( seed = ( seed * 16807 ) % 2147483647 ) / 2147483647;
	} )();
	const points = Array.from( { length: 100_000 }, ( _, id ) => ( {
		type: 'Feature' as const,
		id,
		properties: {},
		geometry: {
			type: 'Point' as const,
			coordinates: [ -180 + 360 * next(), -70 + 140 * next() ],
		},
	} ) );
	const started = performance.now();
	new Supercluster( { radius: 80, extent: 512, maxZoom: 16 } ).load( points );
	return {
		superclusterLoad100kMs: Math.round( performance.now() - started ),
		referenceMs: '540–650',
	};
}

function median( values: number[] ): number | null {
	if ( values.length === 0 ) {
		return null;
	}
	const sorted = [ ...values ].sort( ( a, b ) => a - b );
	return sorted[ Math.floor( ( sorted.length - 1 ) / 2 ) ]!;
}

test( 'front-end map: ours against one DOM marker per point', async ( {
	browser,
} ) => {
	// 1,000 markers also feed the bytes page.
	const site = await startSite(
		[ ...new Set( [ 1000, ...SIZES.filter( ( size ) => size > 0 ) ] ) ],
		undefined,
		POSTS
	);
	const results: Record< string, unknown > = {
		date: new Date().toISOString(),
		browser: browser.version(),
		sizes: {},
		coreScripts: site.coreScripts,
		oursRuns: OURS_RUNS,
		placesRepeat: PLACES_REPEAT,
		placesRuns: Math.min( PLACES_RUNS, OURS_RUNS ),
		postsPages: POSTS,
		cpus: os.cpus().length,
		loadAverageBefore: os
			.loadavg()
			.map( ( value ) => Number( value.toFixed( 2 ) ) ),
		baselineCapMs: BASELINE_CAP_MS,
	};
	try {
		results.calibration = calibrate();
		// Warm-up: the first browser context pays for SwiftShader and disk caches.
		await measureOurs( browser, site, 0 );

		for ( const size of SIZES ) {
			// Issue 24: the same places as posts only and as half markers, half posts, timed
			// page by page with the markers-only page (interleaved, the order rotating each
			// run), so that a load drift on the shared machine hits all three alike.
			const layouts: Layout[] =
				size > 0 && POSTS
					? [ 'markers', 'posts', 'mixed' ]
					: [ 'markers' ];
			const byLayout: Record< Layout, Run[] > = {
				markers: [],
				posts: [],
				mixed: [],
			};
			for ( let i = 0; i < OURS_RUNS; i++ ) {
				for ( let k = 0; k < layouts.length; k++ ) {
					const layout = layouts[ ( i + k ) % layouts.length ]!;
					byLayout[ layout ].push(
						await measureOurs(
							browser,
							site,
							size,
							layout === 'markers' && i < PLACES_RUNS,
							layout
						)
					);
				}
			}
			const ours = byLayout.markers;
			const baseline: Run[] = [];
			{
				// The baseline is slow: fewer runs for the large sizes.
				let runs = OURS_RUNS;
				if ( size >= 100_000 ) {
					runs = 1;
				} else if ( size >= 10_000 ) {
					runs = Math.min( 2, OURS_RUNS );
				}
				for ( let i = 0; i < runs; i++ ) {
					const run = await measureBaseline( browser, site, size );
					baseline.push( run );
					if ( run.done === null ) {
						break; // Over the cap once is enough.
					}
				}
			}
			const summary = ( runs: Run[] ) => {
				const ok = runs.filter( ( run ) => run.done !== null );
				return {
					runs,
					done:
						ok.length === runs.length
							? median( ok.map( ( run ) => run.done! ) )
							: null,
					ready: median(
						ok.flatMap( ( run ) =>
							run.ready === undefined || run.ready === null
								? []
								: [ run.ready ]
						)
					),
					longTasks: median( ok.map( ( run ) => run.longTasks ) ),
					longestTask: median( ok.map( ( run ) => run.longestTask ) ),
					panFps: median(
						ok.flatMap( ( run ) =>
							typeof run.panFps === 'number' ? [ run.panFps ] : []
						)
					),
					shaderStalls: median(
						ok.flatMap( ( run ) =>
							typeof run.shaderStalls === 'number'
								? [ run.shaderStalls ]
								: []
						)
					),
					capped: runs.some( ( run ) => run.capped ),
				};
			};
			// Every sample of every run, per interaction: median time, longest task of all.
			const placesSummary = ( runs: Run[] ) => {
				const all = runs.flatMap( ( run ) =>
					run.places ? [ run.places ] : []
				);
				if ( all.length === 0 ) {
					return null;
				}
				const skipped = all.find( ( run ) => run.skipped )?.skipped;
				if ( skipped && all.every( ( run ) => run.skipped ) ) {
					return { skipped };
				}
				const of = ( key: 'search' | 'toggle' | 'move' ) => {
					const samples: PlacesSample[] = all.flatMap(
						( run ) => run[ key ]
					);
					const timed = samples.filter(
						( sample ) => sample.ms !== null
					);
					return {
						samples: samples.length,
						timed: timed.length,
						median: median( timed.map( ( sample ) => sample.ms! ) ),
						listMedian: median(
							samples.flatMap( ( sample ) =>
								typeof sample.listMs === 'number'
									? [ sample.listMs ]
									: []
							)
						),
						max: timed.length
							? Math.max(
									...timed.map( ( sample ) => sample.ms! )
								)
							: null,
						longestTask: samples.length
							? Math.max(
									...samples.map(
										( sample ) => sample.longestTask
									)
								)
							: null,
						notOk: samples.filter( ( sample ) => ! sample.ok )
							.length,
						notes: [
							...new Set(
								samples.flatMap( ( sample ) =>
									sample.note ? [ sample.note ] : []
								)
							),
						].slice( 0, 5 ),
					};
				};
				return {
					search: of( 'search' ),
					toggle: of( 'toggle' ),
					move: of( 'move' ),
					errors: all.flatMap( ( run ) =>
						run.error ? [ run.error ] : []
					),
				};
			};
			( results.sizes as Record< number, unknown > )[ size ] = {
				ours: summary( ours ),
				baseline: summary( baseline ),
				places: placesSummary( ours ),
				...( layouts.length > 1
					? {
							posts: summary( byLayout.posts ),
							mixed: summary( byLayout.mixed ),
						}
					: {} ),
			};
			// eslint-disable-next-line no-console
			console.log( `[bench:front] ${ size } markers done` );
		}
		results.bytes = await measureBytes( browser, site );
		// gzip -9 of every script the map can load (the loader and the lazy chunks).
		const build = path.join( ROOT, 'build' );
		results.files = Object.fromEntries(
			[
				'blocks/map/view.js',
				...fs
					.readdirSync( build )
					.filter( ( name ) => name.endsWith( '.js' ) ),
			].map( ( name ) => [ name, gzipSize( path.join( build, name ) ) ] )
		);
		results.loadAverageAfter = os
			.loadavg()
			.map( ( value ) => Number( value.toFixed( 2 ) ) );
	} finally {
		await site.close();
		fs.mkdirSync( path.dirname( OUT ), { recursive: true } );
		fs.writeFileSync( OUT, JSON.stringify( results, null, '\t' ) );
	}
} );
