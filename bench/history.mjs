/**
 * Benchmark results as data: each run replaces `bench/results/<name>-latest.json` (the whole
 * result, for the READMEs and the next run's comparisons) and appends one row to
 * `bench/results/history.jsonl` (the date, the machine's load at the start, the commit and the
 * headline numbers), so the history of a number is one file to read, not one file per run.
 *
 * A history row: `{ benchmark, date, commit, dirty, load_average_start: [1, 5, 15 min],
 * only, numbers }`. `numbers` holds, per marker count, the medians and p95s each benchmark's
 * README puts in its tables, plus `targets_failed` (ids or labels of the targets not met).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const HISTORY_FILE = 'history.jsonl';

/**
 * The machine's load averages (1, 5, 15 minutes), rounded to hundredths; null where the system
 * has none (Windows answers zeros).
 */
export function loadAverage() {
	const load = os.loadavg();
	return load.every( ( value ) => value === 0 )
		? null
		: load.map( ( value ) => Math.round( value * 100 ) / 100 );
}

/**
 * `"0.26 2.20 3.54"` (as /proc/loadavg and the API bench write it) or a list, as numbers.
 * @param {string|number[]|null|undefined} value
 */
export function parseLoadAverage( value ) {
	if ( Array.isArray( value ) ) {
		return value.map( Number );
	}
	if ( typeof value !== 'string' || value.trim() === '' ) {
		return null;
	}
	const numbers = value.trim().split( /\s+/ ).slice( 0, 3 ).map( Number );
	return numbers.every( Number.isFinite ) ? numbers : null;
}

/**
 * The checked-out commit (short hash) and whether tracked files differ from it; nulls outside git.
 * @param {string} root The repository.
 */
export function gitState( root ) {
	const git = ( ...args ) =>
		execFileSync( 'git', args, {
			cwd: root,
			encoding: 'utf8',
			stdio: [ 'ignore', 'pipe', 'ignore' ],
		} ).trim();
	try {
		return {
			commit: git( 'rev-parse', '--short', 'HEAD' ),
			dirty:
				git( 'status', '--porcelain', '--untracked-files=no' ) !== '',
		};
	} catch {
		return { commit: null, dirty: null };
	}
}

const failedTargets = ( targets = [] ) =>
	targets
		.filter( ( target ) => target.pass === false )
		.map( ( target ) => target.id ?? target.target ?? target.label );

/**
 * `{ [size]: value }` for the sizes that have the value.
 * @param {Array<[string, *]>} entries `[ size, value ]` pairs.
 */
const bySize = ( entries ) =>
	Object.fromEntries(
		entries.filter(
			( [ , value ] ) => value !== undefined && value !== null
		)
	);

/**
 * The headline numbers of a `bench:front` result (bench/front/README.md): per size, the first
 * clusters (ours, median ms) and the baseline's time, the first clusters of the same places as
 * posts only and as half markers + half posts (issue 24), the places panel's medians, then the
 * loader bytes and the calibration.
 * @param {Object} result What run.mjs writes to front-latest.json.
 */
export function frontNumbers( result ) {
	const sizes = Object.entries( result.sizes ?? {} );
	const places = ( what ) =>
		bySize(
			sizes.map( ( [ size, entry ] ) => [
				size,
				entry.places && ! entry.places.skipped
					? entry.places[ what ]?.median
					: undefined,
			] )
		);
	return {
		first_clusters_ms: bySize(
			sizes.map( ( [ size, entry ] ) => [ size, entry.ours?.done ] )
		),
		baseline_ms: bySize(
			sizes.map( ( [ size, entry ] ) => [
				size,
				entry.baseline?.capped ? 'capped' : entry.baseline?.done,
			] )
		),
		long_tasks_ms: bySize(
			sizes.map( ( [ size, entry ] ) => [ size, entry.ours?.longTasks ] )
		),
		// Issue 24: the same places as posts only, and half markers + half posts (medians);
		// `{}` in runs before them or without them.
		posts_first_clusters_ms: bySize(
			sizes.map( ( [ size, entry ] ) => [ size, entry.posts?.done ] )
		),
		mixed_first_clusters_ms: bySize(
			sizes.map( ( [ size, entry ] ) => [ size, entry.mixed?.done ] )
		),
		search_ms: places( 'search' ),
		toggle_ms: places( 'toggle' ),
		move_ms: places( 'move' ),
		loader_js_bytes: result.bytes?.pluginJsBeforeVisible ?? null,
		calibration_ms: result.calibration?.superclusterLoad100kMs ?? null,
		targets_failed: failedTargets( result.targets ),
	};
}

/**
 * The headline numbers of a `bench:front:shapes` result (issue 21; its row says
 * `"only": "shapes"`): for the points-only page and the same page with routes (keyed
 * `points_only` and `with_routes`, not by size), the medians of first clusters and first full
 * draw, the pan's frames per second at the first view and over routes, and the feeds' gzip bytes.
 * @param {Object} result What shapes.mjs writes to front-shapes-latest.json.
 */
export function shapesFrontNumbers( result ) {
	const { points = {}, shapes = {} } = result.summary ?? {};
	const pair = ( pick ) =>
		bySize( [
			[ 'points_only', pick( points ) ],
			[ 'with_routes', pick( shapes ) ],
		] );
	return {
		points: result.points ?? null,
		routes: result.routes ?? null,
		vertices: result.vertices ?? null,
		first_clusters_ms: pair( ( side ) => side.firstClusters ),
		full_draw_ms: pair( ( side ) => side.full ),
		pan_fps_world: pair( ( side ) => side.pans?.world?.fps ),
		pan_fps_routes: pair( ( side ) => side.pans?.routes?.fps ),
		points_feed_bytes: pair( ( side ) => side.markersFeed ),
		shapes_feed_bytes: shapes.shapesFeed ?? null,
		targets_failed: failedTargets( result.targets ),
	};
}

/**
 * The headline numbers of a `bench:api` result (bench/api/README.md), per marker count: the
 * feed's cold, warm and 304 p95, core's one page p95, a post's maps warm p95, and for a flood run
 * real visitors' warm p95 after it.
 * @param {Object} result What report.mjs writes to api-latest.json.
 */
export function apiNumbers( result ) {
	const sizes = ( result.sizes ?? [] ).map( ( entry ) => [
		String( entry.markers ),
		entry,
	] );
	const p95 = ( pick ) =>
		bySize( sizes.map( ( [ size, entry ] ) => [ size, pick( entry ) ] ) );
	return {
		cold_p95_ms: p95( ( entry ) => entry.ours?.cold?.p95_ms ),
		warm_p95_ms: p95( ( entry ) => entry.ours?.warm?.p95_ms ),
		not_modified_p95_ms: p95(
			( entry ) => entry.ours?.not_modified?.p95_ms
		),
		core_page_p95_ms: p95( ( entry ) => entry.core?.page?.p95_ms ),
		maps_warm_p95_ms: p95( ( entry ) => entry.maps?.warm?.p95_ms ),
		flood_real_after_warm_p95_ms: p95(
			( entry ) => entry.flood?.real_after?.whole?.p95_ms
		),
		posts_warm_p95_ms: p95( ( entry ) => entry.posts?.warm?.p95_ms ),
		posts_not_modified_p95_ms: p95(
			( entry ) => entry.posts?.not_modified?.p95_ms
		),
		// Issue 21 (BENCH_ONLY=shapes): the shapes feed of the seeded routes, the GPX import and
		// its track's gzip bytes; `{}` in other runs.
		shapes_warm_p95_ms: p95(
			( entry ) => entry.shapes?.routes?.warm?.p95_ms
		),
		shapes_not_modified_p95_ms: p95(
			( entry ) => entry.shapes?.routes?.not_modified?.p95_ms
		),
		shapes_gzip_bytes: p95(
			( entry ) => entry.shapes?.routes?.bytes?.gzip
		),
		gpx_import_max_ms: p95(
			( entry ) => entry.shapes?.gpx?.import?.max_ms
		),
		gpx_track_gzip_bytes: p95(
			( entry ) => entry.shapes?.gpx?.track?.gzip
		),
		targets_failed: failedTargets( result.targets ),
	};
}

/**
 * The headline numbers of a `bench:api:tiles` result (issue 22, bench/api/tiles-report.mjs): per
 * marker count, the tiles' cold, warm and 304 p95 and the static file's 304 p95 beside it, search
 * and list after a move p95, one place moved (save + next tile), the seed and index times, the
 * highest PHP peak of any request.
 * @param {Object} result What tiles-report.mjs writes to api-only-tiles-latest.json.
 */
export function tilesApiNumbers( result ) {
	const sizes = ( result.sizes ?? [] ).map( ( entry ) => [
		String( entry.markers ),
		entry,
	] );
	const pick = ( fn ) =>
		bySize( sizes.map( ( [ size, entry ] ) => [ size, fn( entry ) ] ) );
	return {
		tile_cold_p95_ms: pick( ( e ) => e.tiles?.cold?.p95_ms ),
		tile_warm_p95_ms: pick( ( e ) => e.tiles?.warm?.p95_ms ),
		tile_not_modified_p95_ms: pick(
			( e ) => e.tiles?.not_modified?.p95_ms
		),
		static_not_modified_p95_ms: pick(
			( e ) => e.tiles?.static_not_modified?.p95_ms
		),
		search_p95_ms: pick( ( e ) => e.search?.first?.p95_ms ),
		list_move_p95_ms: pick( ( e ) => e.list?.p95_ms ),
		move_rebuild_ms: pick( ( e ) => e.move?.rebuild_ms ),
		seed_seconds: pick( ( e ) => e.seed?.seconds ),
		index_seconds: pick( ( e ) =>
			e.index?.skipped ? undefined : e.index?.seconds
		),
		peak_bytes: pick( ( e ) =>
			e.peak_bytes ? Math.max( ...Object.values( e.peak_bytes ) ) : null
		),
		targets_failed: failedTargets( result.targets ),
	};
}

/**
 * One history row.
 * @param {Object}        row
 * @param {string}        row.benchmark   `front` or `api`.
 * @param {string}        row.date        ISO date of the run.
 * @param {string|null}   row.commit      Short hash the run measured.
 * @param {boolean|null}  [row.dirty]     Tracked files differed from the commit.
 * @param {number[]|null} row.loadAverage Load averages when the run started.
 * @param {string|null}   [row.only]      A partial run: what it measured.
 * @param {Object}        row.numbers     The headline numbers.
 */
export function historyRow( {
	benchmark,
	date,
	commit,
	dirty = null,
	loadAverage: load,
	only = null,
	numbers,
} ) {
	return {
		benchmark,
		date,
		commit,
		dirty,
		load_average_start: load,
		only,
		numbers,
	};
}

/**
 * Writes a run: `<latest>` (the whole result) and one row appended to history.jsonl.
 * @param {string} dir    bench/results.
 * @param {string} latest The latest file's name, e.g. `front-latest.json`.
 * @param {Object} result The whole result.
 * @param {Object} row    Its history row (historyRow()).
 */
export function recordRun( dir, latest, result, row ) {
	fs.mkdirSync( dir, { recursive: true } );
	fs.writeFileSync(
		path.join( dir, latest ),
		JSON.stringify( result, null, '\t' ) + '\n'
	);
	fs.appendFileSync(
		path.join( dir, HISTORY_FILE ),
		JSON.stringify( row ) + '\n'
	);
}
