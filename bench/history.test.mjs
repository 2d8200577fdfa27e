/**
 * The results writer, dry: `node --test bench/` (no benchmark runs, nothing under bench/results/
 * is touched).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';

import {
	HISTORY_FILE,
	apiNumbers,
	frontNumbers,
	historyRow,
	parseLoadAverage,
	recordRun,
	shapesFrontNumbers,
} from './history.mjs';

const front = {
	date: '2026-11-24T05:05:02.404Z',
	loadAverageBefore: [ 0.73, 2.45, 3.14 ],
	sizes: {
		0: {
			ours: { done: 3994, longTasks: 1198 },
			baseline: { done: 4080 },
			places: null,
		},
		100000: {
			ours: { done: 7326, longTasks: 2074 },
			baseline: { done: null, capped: true },
			posts: { done: 7510 },
			mixed: { done: null },
			places: {
				search: { median: 211 },
				toggle: { median: 286 },
				move: { median: 307 },
			},
		},
	},
	bytes: { pluginJsBeforeVisible: 3722 },
	calibration: { superclusterLoad100kMs: 761 },
	targets: [
		{ target: 'first clusters at 100k', pass: false },
		{ target: 'loader bytes', pass: true },
	],
};

const api = {
	date: '2026-11-24T02:54:49.477Z',
	environment: { load_average_before: '0.26 2.20 3.54' },
	sizes: [
		{
			markers: 1000,
			ours: {
				cold: { p95_ms: 55.9 },
				warm: { p95_ms: 55 },
				not_modified: { p95_ms: 20.9 },
			},
			core: { page: { p95_ms: 418.2 } },
			maps: { warm: { p95_ms: 68.1 } },
		},
	],
	targets: [
		{ id: 'cold_rebuild', pass: true },
		{ id: 'peak_memory', pass: false },
	],
};

test( 'front: the headline numbers per size', () => {
	assert.deepEqual( frontNumbers( front ), {
		first_clusters_ms: { 0: 3994, 100000: 7326 },
		baseline_ms: { 0: 4080, 100000: 'capped' },
		long_tasks_ms: { 0: 1198, 100000: 2074 },
		posts_first_clusters_ms: { 100000: 7510 },
		mixed_first_clusters_ms: {},
		search_ms: { 100000: 211 },
		toggle_ms: { 100000: 286 },
		move_ms: { 100000: 307 },
		loader_js_bytes: 3722,
		calibration_ms: 761,
		targets_failed: [ 'first clusters at 100k' ],
	} );
} );

test( 'front: a result from before issue 24 (no posts pages) still gives its row', () => {
	const before = structuredClone( front );
	delete before.sizes[ 100000 ].posts;
	delete before.sizes[ 100000 ].mixed;
	const numbers = frontNumbers( before );
	assert.deepEqual( numbers.posts_first_clusters_ms, {} );
	assert.deepEqual( numbers.mixed_first_clusters_ms, {} );
	assert.deepEqual( numbers.first_clusters_ms, { 0: 3994, 100000: 7326 } );
} );

test( 'api: the headline p95s per marker count', () => {
	assert.deepEqual( apiNumbers( api ), {
		cold_p95_ms: { 1000: 55.9 },
		warm_p95_ms: { 1000: 55 },
		not_modified_p95_ms: { 1000: 20.9 },
		core_page_p95_ms: { 1000: 418.2 },
		maps_warm_p95_ms: { 1000: 68.1 },
		flood_real_after_warm_p95_ms: {},
		posts_warm_p95_ms: {},
		posts_not_modified_p95_ms: {},
		shapes_warm_p95_ms: {},
		shapes_not_modified_p95_ms: {},
		shapes_gzip_bytes: {},
		gpx_import_max_ms: {},
		gpx_track_gzip_bytes: {},
		targets_failed: [ 'peak_memory' ],
	} );
} );

test( 'front shapes (issue 21): points only against the same map with routes', () => {
	const result = {
		points: 100000,
		routes: 500,
		vertices: 2000,
		summary: {
			points: {
				firstClusters: 3000,
				full: 3400,
				markersFeed: 1500000,
				shapesFeed: null,
				pans: { world: { fps: 6 }, routes: { fps: 7 } },
			},
			shapes: {
				firstClusters: 3020,
				full: 4100,
				markersFeed: 1507000,
				shapesFeed: 3000000,
				pans: { world: { fps: 5.8 }, routes: { fps: null } },
			},
		},
		targets: [ { id: 'shapes_full_draw_added', pass: true } ],
	};
	assert.deepEqual( shapesFrontNumbers( result ), {
		points: 100000,
		routes: 500,
		vertices: 2000,
		first_clusters_ms: { points_only: 3000, with_routes: 3020 },
		full_draw_ms: { points_only: 3400, with_routes: 4100 },
		pan_fps_world: { points_only: 6, with_routes: 5.8 },
		pan_fps_routes: { points_only: 7 },
		points_feed_bytes: { points_only: 1500000, with_routes: 1507000 },
		shapes_feed_bytes: 3000000,
		targets_failed: [],
	} );
	assert.deepEqual( shapesFrontNumbers( {} ).first_clusters_ms, {} );
} );

test( 'api: a shapes run (issue 21) gives its shapes numbers', () => {
	const run = structuredClone( api );
	run.sizes[ 0 ].shapes = {
		routes: {
			warm: { p95_ms: 80 },
			not_modified: { p95_ms: 12 },
			bytes: { gzip: 2900000 },
		},
		gpx: { import: { max_ms: 4200 }, track: { gzip: 41000 } },
	};
	const numbers = apiNumbers( run );
	assert.deepEqual( numbers.shapes_warm_p95_ms, { 1000: 80 } );
	assert.deepEqual( numbers.shapes_not_modified_p95_ms, { 1000: 12 } );
	assert.deepEqual( numbers.shapes_gzip_bytes, { 1000: 2900000 } );
	assert.deepEqual( numbers.gpx_import_max_ms, { 1000: 4200 } );
	assert.deepEqual( numbers.gpx_track_gzip_bytes, { 1000: 41000 } );
} );

test( 'load averages from /proc/loadavg text or a list', () => {
	assert.deepEqual(
		parseLoadAverage( '0.26 2.20 3.54' ),
		[ 0.26, 2.2, 3.54 ]
	);
	assert.deepEqual( parseLoadAverage( [ 1, 2, 3 ] ), [ 1, 2, 3 ] );
	assert.equal( parseLoadAverage( '' ), null );
	assert.equal( parseLoadAverage( undefined ), null );
} );

test( 'a run replaces <name>-latest.json and appends one history row', () => {
	const dir = fs.mkdtempSync( path.join( os.tmpdir(), 'cairn-bench-' ) );
	try {
		for ( const [ i, load ] of [
			[ 1, [ 0.5, 0.4, 0.3 ] ],
			[ 2, [ 1, 1, 1 ] ],
		] ) {
			recordRun(
				dir,
				'front-latest.json',
				{ ...front, run: i },
				historyRow( {
					benchmark: 'front',
					date: front.date,
					commit: 'abc1234',
					dirty: false,
					loadAverage: load,
					numbers: frontNumbers( front ),
				} )
			);
		}
		assert.deepEqual( fs.readdirSync( dir ).sort(), [
			'front-latest.json',
			HISTORY_FILE,
		] );
		assert.equal(
			JSON.parse(
				fs.readFileSync( path.join( dir, 'front-latest.json' ), 'utf8' )
			).run,
			2
		);
		const rows = fs
			.readFileSync( path.join( dir, HISTORY_FILE ), 'utf8' )
			.trimEnd()
			.split( '\n' )
			.map( ( line ) => JSON.parse( line ) );
		assert.equal( rows.length, 2 );
		assert.deepEqual( rows[ 1 ], {
			benchmark: 'front',
			date: front.date,
			commit: 'abc1234',
			dirty: false,
			load_average_start: [ 1, 1, 1 ],
			only: null,
			numbers: frontNumbers( front ),
		} );
	} finally {
		fs.rmSync( dir, { recursive: true, force: true } );
	}
} );
