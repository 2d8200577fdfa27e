#!/usr/bin/env node
/**
 * `npm run bench:front:shapes`: issue 21's front-end side-by-side (bench/front/README.md,
 * "Routes and areas"): a map of 100,000 points against the same map plus 500 routes of 2,000
 * positions. Builds the plugin if build/ is missing, runs bench/front/shapes.bench.ts through
 * Playwright (CAIRN_BENCH_SPEC=shapes), prints the table and the targets, writes
 * bench/results/front-shapes-latest.json and appends a row (`"only": "shapes"`) to
 * bench/results/history.jsonl.
 *
 * Environment: CAIRN_BENCH_SHAPES_POINTS (100000), CAIRN_BENCH_ROUTES (500),
 * CAIRN_BENCH_ROUTE_VERTICES (2000), CAIRN_BENCH_RUNS (3 of each page), CAIRN_BENCH_TIMEOUT
 * (s, 1200), CAIRN_BENCH_PAGE_TIMEOUT (ms a page may take to its full draw, 120000),
 * CAIRN_BENCH_NO_RESULTS=1 (print only), CHROMIUM_PATH.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
	ensureBuild as ensureSharedBuild,
	runPlaywright as runSharedPlaywright,
} from './runner.mjs';

import {
	HISTORY_FILE,
	gitState,
	historyRow,
	loadAverage,
	recordRun,
	shapesFrontNumbers,
} from '../history.mjs';

const ROOT = path.resolve(
	path.dirname( fileURLToPath( import.meta.url ) ),
	'..',
	'..'
);
const RESULTS = path.join( ROOT, 'bench', 'results' );
const RAW = path.join( RESULTS, 'front-shapes-raw.tmp' );
const TIMEOUT_S = Number( process.env.CAIRN_BENCH_TIMEOUT ?? 1200 );

export const TARGETS = {
	// The points' first clusters unchanged: within 10 % or 50 ms, the larger (bench:front's noise
	// rule for issue 24's pages).
	clustersRatio: 1.1,
	clustersNoiseMs: 50,
	// The shapes add at most 1 s to the first full draw.
	fullDrawAddedMs: 1000,
	// Pan as smooth: frames per second at least 90 % of the points-only page's, at both views.
	panFpsRatio: 0.9,
	// The points feed grows only by the routes' markers (one point each): per feature within 2 %.
	pointsFeedPerFeature: 1.02,
};

function log( message ) {
	process.stderr.write( `[bench:front:shapes] ${ message }\n` );
}

function ensureBuild() {
	ensureSharedBuild( {
		root: ROOT,
		needed: [ 'build/blocks/map/view.js' ],
		log,
	} );
}

function runPlaywright() {
	return runSharedPlaywright( {
		root: ROOT,
		raw: RAW,
		timeoutS: TIMEOUT_S,
		env: { CAIRN_BENCH_SPEC: 'shapes' },
		log,
	} );
}

/**
 * Median (lower middle) of the numbers; null when there are none.
 * @param {Array<*>} values Numbers (anything else is left out).
 */
export function median( values ) {
	const list = values.filter( ( v ) => typeof v === 'number' );
	if ( list.length === 0 ) {
		return null;
	}
	const sorted = [ ...list ].sort( ( a, b ) => a - b );
	return sorted[ Math.floor( ( sorted.length - 1 ) / 2 ) ];
}

/**
 * Medians of one page's runs (a failed run makes the times null: no median over fewer runs).
 * @param {Object[]} runs Runs of one page.
 */
export function summarize( runs ) {
	const ok = runs.filter( ( run ) => ! run.error );
	const all = ok.length === runs.length && ok.length > 0;
	const pick = ( fn ) => median( ok.map( fn ) );
	const panOf = ( view ) => ( {
		fps: pick( ( run ) => run.pans?.[ view ]?.fps ),
		p95FrameMs: pick( ( run ) => run.pans?.[ view ]?.p95FrameMs ),
		maxFrameMs: pick( ( run ) => run.pans?.[ view ]?.maxFrameMs ),
		longTasksMs: pick( ( run ) => run.pans?.[ view ]?.longTasksMs ),
	} );
	const js = ok[ 0 ]?.bytes?.pluginJs ?? [];
	return {
		runs: runs.length,
		failed: runs.filter( ( run ) => run.error ).map( ( run ) => run.error ),
		firstClusters: all ? pick( ( run ) => run.firstClusters ) : null,
		shapesDrawn: all ? pick( ( run ) => run.shapesDrawn ) : null,
		full: all ? pick( ( run ) => run.full ) : null,
		longTasks: pick( ( run ) => run.longTasks ),
		longestTask: pick( ( run ) => run.longestTask ),
		shapesRendered: pick( ( run ) => run.shapesRendered ),
		markersFeed: pick( ( run ) => run.bytes?.markersFeed ),
		shapesFeed: pick( ( run ) => run.bytes?.shapesFeed ),
		shapesRequests: Math.max(
			0,
			...ok.map( ( run ) => run.bytes?.shapesRequests ?? 0 )
		),
		pluginJs: js,
		pluginJsBytes: js.reduce( ( sum, file ) => sum + file.encoded, 0 ),
		pans: { world: panOf( 'world' ), routes: panOf( 'routes' ) },
		arrived: Object.fromEntries(
			[
				'mapboxGl',
				'runtimeChunk',
				'markersFeed',
				'shapesChunk',
				'shapesFeed',
			].map( ( key ) => [ key, pick( ( r ) => r.arrived?.[ key ] ) ] )
		),
		marks: Object.fromEntries(
			[ 'mapCreated', 'sourceLoaded', 'shapesSourceLoaded', 'ready' ].map(
				( key ) => [ key, pick( ( r ) => r.marks?.[ key ] ) ]
			)
		),
	};
}

/**
 * The target checks of a run.
 * @param {Object} raw    Raw results.
 * @param {Object} points Points page summary.
 * @param {Object} shapes Shapes page summary.
 */
export function checks( raw, points, shapes ) {
	const list = [];
	const limit = ( value ) =>
		Math.round(
			Math.max(
				value * TARGETS.clustersRatio,
				value + TARGETS.clustersNoiseMs
			)
		);
	list.push( {
		id: 'shapes_first_clusters_unchanged',
		target: `first clusters with ${ raw.routes } routes no slower than points only (${ points.firstClusters } ms)`,
		limit: `≤ ${ points.firstClusters === null ? '—' : limit( points.firstClusters ) } ms: × ${ TARGETS.clustersRatio } or + ${ TARGETS.clustersNoiseMs } ms, the larger`,
		value: shapes.firstClusters,
		pass:
			points.firstClusters !== null &&
			shapes.firstClusters !== null &&
			shapes.firstClusters <= limit( points.firstClusters ),
	} );
	const added =
		points.full === null || shapes.full === null
			? null
			: shapes.full - points.full;
	list.push( {
		id: 'shapes_full_draw_added',
		target: `time the routes add to the first full draw (map idle with clusters${
			raw.routes ? ' and routes' : ''
		} drawn; ${ shapes.full } vs ${ points.full } ms)`,
		limit: `≤ ${ TARGETS.fullDrawAddedMs } ms`,
		value: added,
		pass: added !== null && added <= TARGETS.fullDrawAddedMs,
	} );
	list.push( {
		id: 'shapes_drawn',
		target: 'the routes are drawn (rendered features in the cairn-shapes layers)',
		limit: '> 0',
		value: shapes.shapesRendered,
		pass: ( shapes.shapesRendered ?? 0 ) > 0,
	} );
	const perFeature = ( bytes, count ) =>
		bytes === null ? null : bytes / count;
	const pointsPer = perFeature( points.markersFeed, raw.points );
	const shapesPer = perFeature( shapes.markersFeed, raw.points + raw.routes );
	list.push( {
		id: 'shapes_points_feed_bytes',
		target: `points feed bytes per feature unchanged by the routes (${ points.markersFeed } B for ${ raw.points }, ${ shapes.markersFeed } B for ${ raw.points } + ${ raw.routes } anchors)`,
		limit: `≤ × ${ TARGETS.pointsFeedPerFeature }`,
		value:
			pointsPer && shapesPer
				? Number( ( shapesPer / pointsPer ).toFixed( 3 ) )
				: null,
		pass:
			Boolean( pointsPer && shapesPer ) &&
			shapesPer <= pointsPer * TARGETS.pointsFeedPerFeature,
	} );
	list.push( {
		id: 'points_only_no_shapes_request',
		target: 'the points-only map requests no shapes feed',
		limit: '0',
		value: points.shapesRequests,
		pass: points.shapesRequests === 0,
	} );
	const extra = shapes.pluginJs.filter(
		( file ) => ! points.pluginJs.some( ( p ) => p.path === file.path )
	);
	list.push( {
		id: 'shapes_code_lazy',
		target: `the shapes code comes in a chunk of its own, only on the map with routes (${
			extra
				.map( ( file ) => `${ file.path } ${ file.encoded } B` )
				.join( ', ' ) || 'none'
		})`,
		limit: '≥ 1 chunk',
		value: extra.length,
		pass: extra.length > 0,
	} );
	for ( const view of [ 'world', 'routes' ] ) {
		const a = points.pans[ view ].fps;
		const b = shapes.pans[ view ].fps;
		list.push( {
			id: `shapes_pan_${ view }`,
			target: `pan ${ view === 'world' ? 'at the first view' : 'at zoom 8 over routes' } as smooth (fps ${ b } vs ${ a } points only)`,
			limit: `≥ ${ TARGETS.panFpsRatio } × points only`,
			value: a && b ? Number( ( b / a ).toFixed( 2 ) ) : null,
			pass: Boolean( a && b ) && b >= a * TARGETS.panFpsRatio,
		} );
	}
	return { list, extra };
}

const ms = ( value ) =>
	value === null || value === undefined
		? '—'
		: `${ Math.round( value ).toLocaleString( 'en' ) } ms`;
const kb = ( bytes ) =>
	bytes === null || bytes === undefined
		? '—'
		: `${ ( bytes / 1024 ).toFixed( 1 ) } kB`;

function table( raw, points, shapes, extra ) {
	const diff = ( a, b ) =>
		a === null || b === null || a === undefined || b === undefined
			? '—'
			: `${ b - a >= 0 ? '+' : '' }${ Math.round( b - a ).toLocaleString( 'en' ) } ms`;
	const panCell = ( p ) =>
		`${ p.fps ?? '—' } fps, p95 frame ${ ms( p.p95FrameMs ) }, max ${ ms( p.maxFrameMs ) }, long tasks ${ ms( p.longTasksMs ) }`;
	const rows = [
		[
			'first clusters',
			ms( points.firstClusters ),
			ms( shapes.firstClusters ),
			diff( points.firstClusters, shapes.firstClusters ),
		],
		[ 'routes drawn', '—', ms( shapes.shapesDrawn ), '' ],
		[
			'first full draw (idle)',
			ms( points.full ),
			ms( shapes.full ),
			diff( points.full, shapes.full ),
		],
		[
			'long tasks until then',
			ms( points.longTasks ),
			ms( shapes.longTasks ),
			diff( points.longTasks, shapes.longTasks ),
		],
		[
			'longest task',
			ms( points.longestTask ),
			ms( shapes.longestTask ),
			'',
		],
		[
			'points feed (gzip)',
			kb( points.markersFeed ),
			kb( shapes.markersFeed ),
			`${ raw.routes } anchors more`,
		],
		[
			'shapes feed (gzip)',
			'—',
			kb( shapes.shapesFeed ),
			`${ raw.shapesFeed?.vertices?.toLocaleString( 'en' ) ?? '?' } vertices`,
		],
		[
			'plugin JS (gzip)',
			kb( points.pluginJsBytes ),
			kb( shapes.pluginJsBytes ),
			extra.map( ( f ) => f.path ).join( ', ' ),
		],
		[
			'shapes feed requests',
			String( points.shapesRequests ),
			String( shapes.shapesRequests ),
			'',
		],
		[
			'pan, first view',
			panCell( points.pans.world ),
			panCell( shapes.pans.world ),
			'',
		],
		[
			'pan, zoom 8 over routes',
			panCell( points.pans.routes ),
			panCell( shapes.pans.routes ),
			'',
		],
	];
	const head = [
		'',
		'points only',
		`+ ${ raw.routes } routes`,
		'difference',
	];
	const widths = head.map( ( h, i ) =>
		Math.max( h.length, ...rows.map( ( r ) => String( r[ i ] ).length ) )
	);
	const pad = ( cells ) =>
		cells.map( ( c, i ) => String( c ).padEnd( widths[ i ] ) ).join( '  ' );
	return [
		'',
		`Front-end map with routes (issue 21), Chromium ${ raw.browser } (SwiftShader): ${ raw.points.toLocaleString( 'en' ) } points, and the same plus ${ raw.routes } routes of ${ raw.vertices.toLocaleString( 'en' ) } positions (${ raw.shapesFeed?.vertices?.toLocaleString( 'en' ) ?? '?' } vertices served after simplification); medians of ${ raw.runs } runs of each page, alternating`,
		`Load average at the start: ${ raw.loadAverageBefore?.join( ' ' ) } (${ raw.cpus } CPUs); after: ${ raw.loadAverageAfter?.join( ' ' ) ?? '?' }. Other work on the machine slows every number.`,
		'Times from navigation start. First clusters: the first frame with the points drawn; routes drawn: the first frame with features in the cairn-shapes layers;',
		'first full draw: the map idle after a frame with everything drawn. Pan: 800 px in 4 s, frames from requestAnimationFrame, long tasks in that window.',
		pad( head ),
		pad( widths.map( ( w ) => '-'.repeat( w ) ) ),
		...rows.map( pad ),
		'',
		'Where the time goes (medians, ms from navigation; a response counts when its last byte arrived):',
		...[
			[ 'points only', points ],
			[ 'with routes', shapes ],
		].map(
			( [ name, side ] ) =>
				`  ${ name }: mapbox-gl ${ ms( side.arrived.mapboxGl ) }, runtime chunk ${ ms( side.arrived.runtimeChunk ) }, map created ${ ms( side.marks.mapCreated ) }, points feed ${ ms( side.arrived.markersFeed ) }, points source loaded ${ ms( side.marks.sourceLoaded ) }` +
				( side.arrived.shapesFeed === null
					? ''
					: `, shapes chunk ${ ms( side.arrived.shapesChunk ) }, shapes feed ${ ms( side.arrived.shapesFeed ) }, shapes source loaded ${ ms( side.marks.shapesSourceLoaded ) }` ) +
				`, cairn:map-ready ${ ms( side.marks.ready ) }`
		),
		'',
	];
}

function main() {
	const loadAtStart = loadAverage();
	log( `load average at the start: ${ loadAtStart?.join( ' ' ) ?? '?' }` );
	const git = gitState( ROOT );
	ensureBuild();
	const { raw, status } = runPlaywright();
	const points = summarize( raw.runsByKind?.points ?? [] );
	const shapes = summarize( raw.runsByKind?.shapes ?? [] );
	const { list, extra } = checks( raw, points, shapes );
	const lines = table( raw, points, shapes, extra );
	// The points-only map before issue 21, as bench:front last measured it (another run, another
	// load: a pointer for the eye, not a target).
	try {
		const before = JSON.parse(
			fs.readFileSync( path.join( RESULTS, 'front-latest.json' ), 'utf8' )
		);
		const then = before.sizes?.[ raw.points ]?.ours?.done;
		if ( typeof then === 'number' ) {
			lines.push(
				`bench:front's last run at ${ raw.points.toLocaleString( 'en' ) } points (${ before.date }, commit ${ before.commit ?? '?' }, load ${ before.loadAverageBefore?.join( ' ' ) ?? '?' }): first clusters ${ ms( then ) }; points only here: ${ ms( points.firstClusters ) }.`,
				''
			);
		}
	} catch {
		// No earlier bench:front result.
	}
	for ( const [ name, side ] of [
		[ 'points only', points ],
		[ 'with routes', shapes ],
	] ) {
		for ( const error of side.failed ) {
			lines.push( `  run failed (${ name }): ${ error }` );
		}
	}
	lines.push( 'Targets (issue 21):' );
	for ( const check of list ) {
		lines.push(
			`  ${ check.pass ? 'PASS' : 'FAIL' }  ${ check.target }: ${ check.value ?? '—' } (${ check.limit })`
		);
	}
	process.stdout.write( lines.join( '\n' ) + '\n' );
	const output = {
		...raw,
		summary: { points, shapes },
		commit: git.commit,
		dirty: git.dirty,
		targets: list,
		table: lines.join( '\n' ),
		playwrightStatus: status,
	};
	if ( process.env.CAIRN_BENCH_NO_RESULTS !== '1' ) {
		recordRun(
			RESULTS,
			'front-shapes-latest.json',
			output,
			historyRow( {
				benchmark: 'front',
				date: raw.date,
				commit: git.commit,
				dirty: git.dirty,
				loadAverage: raw.loadAverageBefore ?? loadAtStart,
				only: 'shapes',
				numbers: shapesFrontNumbers( output ),
			} )
		);
		log(
			`results: bench/results/front-shapes-latest.json, a row in bench/results/${ HISTORY_FILE }`
		);
	}
	process.exit( status === 0 ? 0 : 1 );
}

if (
	process.argv[ 1 ] &&
	fileURLToPath( import.meta.url ) === path.resolve( process.argv[ 1 ] )
) {
	main();
}
