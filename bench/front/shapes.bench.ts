/**
 * `npm run bench:front:shapes` (shapes.mjs starts this through Playwright, with
 * bench/front/playwright.config.ts and CAIRN_BENCH_SPEC=shapes): issue 21's side-by-side.
 *
 * The same bench site as bench:front (site.ts: no WordPress, the offline maps service, Debian's
 * Chromium with SwiftShader), two pages, each loaded in a fresh context, alternating, the order
 * swapped every run:
 * - points: `map-<n>.html`, the block with n places and `shapesUrl` '' (a points-only map);
 * - shapes: `shapes-<n>.html`, the same places plus R routes of V positions (routes.ts): the
 *   points feed with the routes' markers at their anchors, and `shapesUrl`, the shapes feed.
 * Per page: time to the first clusters (as bench:front), time to the first full draw (the map
 * `idle` after a frame in which the clusters and, on the shapes page, the `cairn-shapes` layers
 * have rendered features), long tasks until then, the feeds' and the plugin scripts' bytes as
 * transferred, requests to the shapes feed; then two scripted pans (800 px in 4 s at the first
 * view, and at zoom 8 over the routes of the first city), with frame times and long tasks.
 * Writes its raw results to CAIRN_BENCH_OUT; shapes.mjs reports them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, type Browser, type Page } from '@playwright/test';

import { MapsService } from '../../tests/e2e/fixtures/maps-service';
import {
	PLUGIN_PATH,
	ROOT,
	cityCentres,
	startSite,
	type BenchSite,
} from './site';

const SIZE = Number( process.env.CAIRN_BENCH_SHAPES_POINTS ?? 100_000 );
const ROUTES = Number( process.env.CAIRN_BENCH_ROUTES ?? 500 );
const VERTICES = Number( process.env.CAIRN_BENCH_ROUTE_VERTICES ?? 2000 );
const RUNS = Number( process.env.CAIRN_BENCH_RUNS ?? 3 );
/** How long a page may take to its full draw before the run counts as failed, ms. */
const PAGE_TIMEOUT = Number( process.env.CAIRN_BENCH_PAGE_TIMEOUT ?? 120_000 );
const OUT =
	process.env.CAIRN_BENCH_OUT ??
	path.join( ROOT, 'bench', 'results', 'front-shapes-raw.tmp' );
/** The shapes source of the runtime (runtime brief / DESIGN.md). */
const SHAPES_SOURCE = 'cairn-shapes';

type Kind = 'points' | 'shapes';

interface Pan {
	fps: number | null;
	frames: number;
	p50FrameMs: number | null;
	p95FrameMs: number | null;
	maxFrameMs: number | null;
	longTasksMs: number;
	longestTaskMs: number;
}

interface Run {
	kind: Kind;
	firstClusters: number | null;
	shapesDrawn?: number | null;
	/** The map idle after a frame with everything drawn (clusters; and shapes on that page). */
	full: number | null;
	marks?: Record< string, number >;
	shapesRendered?: number;
	longTasks: number;
	longestTask: number;
	/** When each response finished arriving, ms from navigation (where the time goes). */
	arrived?: Record< string, number | null >;
	bytes?: {
		markersFeed: number | null;
		shapesFeed: number | null;
		pluginJs: Array< { path: string; encoded: number } >;
		shapesRequests: number;
	};
	pans?: { world: Pan | null; routes: Pan | null };
	error?: string;
}

/**
 * Runs before the page's scripts: long tasks and the map's milestones. The map is caught when
 * mapbox-gl creates it (a subclass of its `Map`, through the `window.mapboxgl` the library's
 * bundle sets), not at `cairn:map-ready`: the runtime announces ready once the points and the
 * shapes are both drawn, and the points' first frame may come well before.
 *
 * @param shapesSource The runtime's shapes source id.
 */
function instrument( shapesSource: string ) {
	const bench = {
		longTasks: [] as Array< [ number, number ] >,
		marks: {} as Record< string, number >,
		shapesRendered: 0,
	};
	const view = window as unknown as {
		bench: typeof bench;
		benchMap?: unknown;
		mapboxgl?: unknown;
	};
	view.bench = bench;
	new PerformanceObserver( ( list ) => {
		for ( const entry of list.getEntries() ) {
			bench.longTasks.push( [ entry.startTime, entry.duration ] );
		}
	} ).observe( { type: 'longtask', buffered: true } );
	document.addEventListener( 'cairn:map-ready', () => {
		bench.marks.ready = performance.now();
	} );

	const watch = ( map: any ) => {
		view.benchMap = map;
		bench.marks.mapCreated = performance.now();
		const wrapper = document.querySelector< HTMLElement >(
			'.wp-block-cairn-map'
		);
		let expectShapes = false;
		try {
			expectShapes =
				JSON.parse( wrapper?.dataset.cairnConfig ?? '{}' ).shapesUrl !==
				'';
		} catch {
			// No config: no shapes.
		}
		const shapeLayers = (): string[] =>
			( map.getStyle()?.layers ?? [] )
				.filter(
					( layer: { source?: string } ) =>
						layer.source === shapesSource
				)
				.map( ( layer: { id: string } ) => layer.id );
		const check = () => {
			const now = performance.now();
			if (
				bench.marks.firstClusters === undefined &&
				map.getSource( 'cairn-markers' ) &&
				map.isSourceLoaded( 'cairn-markers' )
			) {
				bench.marks.sourceLoaded ??= now;
				if (
					map.queryRenderedFeatures( {
						layers: [ 'cairn-clusters', 'cairn-points' ],
					} ).length > 0
				) {
					bench.marks.firstClusters = now;
				}
			}
			if (
				expectShapes &&
				bench.marks.shapesDrawn === undefined &&
				map.getSource( shapesSource ) &&
				map.isSourceLoaded( shapesSource )
			) {
				bench.marks.shapesSourceLoaded ??= now;
				const layers = shapeLayers();
				const drawn = layers.length
					? map.queryRenderedFeatures( { layers } ).length
					: 0;
				if ( drawn > 0 ) {
					bench.marks.shapesDrawn = now;
					bench.shapesRendered = drawn;
				}
			}
			if (
				bench.marks.firstClusters !== undefined &&
				( ! expectShapes || bench.marks.shapesDrawn !== undefined )
			) {
				map.off( 'render', check );
				// `idle` comes after the next frame; the map may be idle already.
				map.once( 'idle', () => {
					bench.marks.full = performance.now();
				} );
				map.triggerRepaint();
			}
		};
		map.on( 'render', check );
	};
	// mapbox-gl's bundle sets `window.mapboxgl`; the loader reads it back and calls `new Map()`.
	let library: unknown;
	Object.defineProperty( window, 'mapboxgl', {
		configurable: true,
		get: () => library,
		set: ( value ) => {
			const Base = ( value as { Map?: any } | undefined )?.Map;
			if ( typeof Base !== 'function' ) {
				library = value;
				return;
			}
			class BenchMap extends Base {
				constructor( ...args: any[] ) {
					super( ...args );
					watch( this );
				}
			}
			library = new Proxy( value as object, {
				get: ( target, key ) =>
					key === 'Map' ? BenchMap : Reflect.get( target, key ),
			} );
		},
	} );
}

async function newPage( browser: Browser, site: BenchSite ) {
	const context = await browser.newContext( {
		viewport: { width: 1280, height: 800 },
	} );
	const service = new MapsService( [ new URL( site.origin ).host ] );
	await service.install( context );
	const page = await context.newPage();
	await page.addInitScript( instrument, SHAPES_SOURCE );
	return { context, page };
}

/**
 * A scripted pan of the loaded map: 800 px east in 4 s, linear (bench:front's speed, twice the
 * frames); frame times from requestAnimationFrame and the long tasks in that window.
 *
 * @param page The page.
 */
function pan( page: Page ): Promise< Pan | null > {
	return page.evaluate(
		() =>
			new Promise< Pan | null >( ( resolve ) => {
				const { benchMap, bench } = window as unknown as {
					benchMap?: {
						panBy: (
							offset: [ number, number ],
							options: object
						) => void;
						once: ( type: string, listener: () => void ) => void;
					};
					bench: { longTasks: Array< [ number, number ] > };
				};
				if ( ! benchMap ) {
					resolve( null );
					return;
				}
				const deltas: number[] = [];
				let last = 0;
				let moving = true;
				const started = performance.now();
				const tick = ( time: number ) => {
					if ( last ) {
						deltas.push( time - last );
					}
					last = time;
					if ( moving ) {
						requestAnimationFrame( tick );
					}
				};
				const finish = () => {
					if ( ! moving ) {
						return;
					}
					moving = false;
					const ended = performance.now();
					const sorted = [ ...deltas ].sort( ( a, b ) => a - b );
					const at = ( p: number ) =>
						sorted.length
							? Math.round(
									sorted[
										Math.min(
											sorted.length - 1,
											Math.ceil( p * sorted.length ) - 1
										)
									]!
								)
							: null;
					const tasks = bench.longTasks.filter(
						( [ start ] ) => start >= started && start <= ended
					);
					resolve( {
						fps:
							Math.round(
								( deltas.length /
									( ( ended - started ) / 1000 ) ) *
									10
							) / 10,
						frames: deltas.length,
						p50FrameMs: at( 0.5 ),
						p95FrameMs: at( 0.95 ),
						maxFrameMs: sorted.length
							? Math.round( sorted[ sorted.length - 1 ]! )
							: null,
						longTasksMs: Math.round(
							tasks.reduce( ( sum, [ , d ] ) => sum + d, 0 )
						),
						longestTaskMs: Math.round(
							Math.max( 0, ...tasks.map( ( [ , d ] ) => d ) )
						),
					} );
				};
				benchMap.once( 'moveend', finish );
				// A page too busy to finish the pan is measured over 12 s.
				setTimeout( finish, 12000 );
				benchMap.panBy( [ 800, 0 ], {
					duration: 4000,
					easing: ( t: number ) => t,
				} );
				requestAnimationFrame( tick );
			} )
	);
}

/** Moves the map (no animation) and waits until it is idle. */
function jumpAndSettle(
	page: Page,
	center: [ number, number ],
	zoom: number
): Promise< void > {
	return page.evaluate(
		( [ lng, lat, z ] ) =>
			new Promise< void >( ( resolve ) => {
				const { benchMap } = window as unknown as {
					benchMap: {
						jumpTo: ( options: object ) => void;
						once: ( type: string, listener: () => void ) => void;
					};
				};
				benchMap.once( 'idle', () => resolve() );
				benchMap.jumpTo( { center: [ lng, lat ], zoom: z } );
			} ),
		[ center[ 0 ], center[ 1 ], zoom ] as [ number, number, number ]
	);
}

async function measure(
	browser: Browser,
	site: BenchSite,
	kind: Kind
): Promise< Run > {
	const { context, page } = await newPage( browser, site );
	try {
		await page.goto(
			`${ site.origin }/page/${ kind === 'shapes' ? 'shapes' : 'map' }-${ SIZE }.html`
		);
		// A page that never draws everything still tells what it reached (marks, bytes, requests).
		let unfinished = '';
		const marks = ( await page
			.waitForFunction(
				() => {
					const { bench } = window as unknown as {
						bench: { marks: Record< string, number > };
					};
					return bench.marks.full !== undefined ? bench.marks : null;
				},
				null,
				{ timeout: PAGE_TIMEOUT, polling: 100 }
			)
			.then( ( handle ) => handle.jsonValue() )
			.catch( () => {
				unfinished = `not fully drawn within ${ PAGE_TIMEOUT } ms`;
				return page.evaluate(
					() =>
						(
							window as unknown as {
								bench: { marks: Record< string, number > };
							}
						 ).bench.marks
				);
			} ) ) as Record< string, number >;
		const state = await page.getAttribute(
			'.wp-block-cairn-map',
			'data-cairn-state'
		);
		if ( state !== 'ready' ) {
			unfinished ||= `map state ${ state }`;
		}
		const measured = await page.evaluate( ( pluginPath ) => {
			const { bench } = window as unknown as {
				bench: {
					longTasks: Array< [ number, number ] >;
					shapesRendered: number;
					marks: Record< string, number >;
				};
			};
			const entries = performance.getEntriesByType(
				'resource'
			) as PerformanceResourceTiming[];
			const feed = ( pattern: RegExp ) => {
				const found = entries.filter( ( entry ) =>
					pattern.test( new URL( entry.name ).pathname )
				);
				return found.length ? found[ 0 ]!.encodedBodySize : null;
			};
			const until = bench.marks.full ?? performance.now();
			const tasks = bench.longTasks.filter(
				( [ start ] ) => start <= until
			);
			return {
				markersFeed: feed( /\/wp-json\/cairn\/v1\/markers$/ ),
				shapesFeed: feed( /\/wp-json\/cairn\/v1\/shapes$/ ),
				shapesRequests: entries.filter( ( entry ) =>
					/\/wp-json\/cairn\/v1\/shapes$/.test(
						new URL( entry.name ).pathname
					)
				).length,
				pluginJs: entries
					.filter( ( entry ) => {
						const p = new URL( entry.name ).pathname;
						return (
							p.startsWith( pluginPath ) && p.endsWith( '.js' )
						);
					} )
					.map( ( entry ) => ( {
						path: new URL( entry.name ).pathname.slice(
							pluginPath.length
						),
						encoded: entry.encodedBodySize,
					} ) ),
				longTasks: Math.round(
					tasks.reduce( ( sum, [ , d ] ) => sum + d, 0 )
				),
				longestTask: Math.round(
					Math.max( 0, ...tasks.map( ( [ , d ] ) => d ) )
				),
				shapesRendered: bench.shapesRendered,
				arrived: Object.fromEntries(
					(
						[
							[ 'markersFeed', /\/wp-json\/cairn\/v1\/markers$/ ],
							[ 'shapesFeed', /\/wp-json\/cairn\/v1\/shapes$/ ],
							[ 'mapboxGl', /\/mapbox-gl\.js$/ ],
							[ 'runtimeChunk', /\/cairn-map-runtime\.js$/ ],
							[ 'shapesChunk', /\/cairn-map-shapes\.js$/ ],
						] as Array< [ string, RegExp ] >
					 ).map( ( [ key, pattern ] ) => {
						const entry = entries.find( ( e ) =>
							pattern.test( new URL( e.name ).pathname )
						);
						return [
							key,
							entry ? Math.round( entry.responseEnd ) : null,
						];
					} )
				),
			};
		}, PLUGIN_PATH );
		let world: Pan | null = null;
		let routes: Pan | null = null;
		if ( ! unfinished ) {
			world = await pan( page );
			const [ lng, lat ] = cityCentres()[ 0 ]!;
			await jumpAndSettle( page, [ lng, lat ], 8 );
			routes = await pan( page );
		}
		const at = ( key: string ) =>
			marks[ key ] === undefined ? null : Math.round( marks[ key ]! );
		return {
			kind,
			...( unfinished ? { error: unfinished } : {} ),
			firstClusters: at( 'firstClusters' ),
			shapesDrawn: at( 'shapesDrawn' ),
			full: at( 'full' ),
			marks: Object.fromEntries(
				Object.entries( marks ).map( ( [ key, value ] ) => [
					key,
					Math.round( value ),
				] )
			),
			shapesRendered: measured.shapesRendered,
			arrived: measured.arrived,
			longTasks: measured.longTasks,
			longestTask: measured.longestTask,
			bytes: {
				markersFeed: measured.markersFeed,
				shapesFeed: measured.shapesFeed,
				pluginJs: measured.pluginJs,
				shapesRequests: measured.shapesRequests,
			},
			pans: { world, routes },
		};
	} catch ( error ) {
		return {
			kind,
			firstClusters: null,
			full: null,
			longTasks: 0,
			longestTask: 0,
			error: String( error ).split( '\n' )[ 0 ],
		};
	} finally {
		await context.close();
	}
}

test( 'front-end map: points only against the same map with routes', async ( {
	browser,
} ) => {
	const started = Date.now();
	const site = await startSite( [ SIZE ], undefined, false, {
		routes: ROUTES,
		vertices: VERTICES,
	} );
	const results: Record< string, unknown > = {
		date: new Date().toISOString(),
		browser: browser.version(),
		points: SIZE,
		routes: ROUTES,
		vertices: VERTICES,
		runs: RUNS,
		cpus: os.cpus().length,
		loadAverageBefore: os
			.loadavg()
			.map( ( value ) => Number( value.toFixed( 2 ) ) ),
		siteStartMs: Date.now() - started,
	};
	try {
		// The shapes feed as the bench serves it (the plugin's PHP made its features: routes.ts).
		const feed = await fetch(
			`${ site.origin }/wp-json/cairn/v1/shapes?n=${ SIZE }`
		);
		const document = ( await feed.json() ) as {
			features: Array< { geometry: { coordinates: unknown[] } } >;
		};
		results.shapesFeed = {
			features: document.features.length,
			vertices: document.features.reduce(
				( sum, f ) => sum + f.geometry.coordinates.length,
				0
			),
		};
		// Warm-up: the first browser context pays for SwiftShader and disk caches.
		await measure( browser, site, 'points' );
		const runs: Run[] = [];
		for ( let i = 0; i < RUNS; i++ ) {
			const order: Kind[] =
				i % 2 === 0 ? [ 'points', 'shapes' ] : [ 'shapes', 'points' ];
			for ( const kind of order ) {
				const run = await measure( browser, site, kind );
				runs.push( run );
				// eslint-disable-next-line no-console
				console.log(
					`[bench:front:shapes] run ${ i + 1 } ${ kind }: ${ JSON.stringify(
						run.marks ?? {}
					) }${ run.error ? ` (${ run.error })` : '' }`
				);
			}
		}
		results.runsByKind = {
			points: runs.filter( ( run ) => run.kind === 'points' ),
			shapes: runs.filter( ( run ) => run.kind === 'shapes' ),
		};
		results.loadAverageAfter = os
			.loadavg()
			.map( ( value ) => Number( value.toFixed( 2 ) ) );
	} finally {
		await site.close();
		fs.mkdirSync( path.dirname( OUT ), { recursive: true } );
		fs.writeFileSync( OUT, JSON.stringify( results, null, '\t' ) );
	}
} );
