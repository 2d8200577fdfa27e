/**
 * The shapes bench's summary and targets, dry: `node --test bench/` (no browser).
 */
import assert from 'node:assert/strict';
import test from 'node:test';

import { checks, median, summarize } from './shapes.mjs';

const run = ( kind, values ) => ( {
	kind,
	firstClusters: values.clusters,
	shapesDrawn: kind === 'shapes' ? values.clusters + 100 : null,
	full: values.full,
	shapesRendered: kind === 'shapes' ? 40 : 0,
	longTasks: 500,
	longestTask: 200,
	bytes: {
		markersFeed: kind === 'shapes' ? 100_500 : 100_000,
		shapesFeed: kind === 'shapes' ? 3_000_000 : null,
		shapesRequests: kind === 'shapes' ? 1 : 0,
		pluginJs: [
			{ path: 'build/blocks/map/view.js', encoded: 3000 },
			...( kind === 'shapes'
				? [ { path: 'build/cairn-map-shapes.js', encoded: 4000 } ]
				: [] ),
		],
	},
	pans: {
		world: { fps: values.fps, p95FrameMs: 200 },
		routes: { fps: values.fps, p95FrameMs: 200 },
	},
} );

const raw = { points: 1000, routes: 5, vertices: 2000 };
const byId = ( list ) =>
	Object.fromEntries( list.map( ( check ) => [ check.id, check.pass ] ) );

test( 'median of the numbers only, lower middle', () => {
	assert.equal( median( [ 3, null, 1, 2, undefined ] ), 2 );
	assert.equal( median( [ 4, 1 ] ), 1 );
	assert.equal( median( [] ), null );
} );

test( 'every target passes when the routes cost little', () => {
	const points = summarize( [
		run( 'points', { clusters: 3000, full: 3200, fps: 6 } ),
		run( 'points', { clusters: 3100, full: 3300, fps: 6 } ),
	] );
	const shapes = summarize( [
		run( 'shapes', { clusters: 3050, full: 3900, fps: 5.8 } ),
		run( 'shapes', { clusters: 3080, full: 4000, fps: 5.9 } ),
	] );
	const { list, extra } = checks( raw, points, shapes );
	assert.deepEqual(
		Object.values( byId( list ) ),
		list.map( () => true )
	);
	assert.deepEqual(
		extra.map( ( file ) => file.path ),
		[ 'build/cairn-map-shapes.js' ]
	);
} );

test( 'a slow full draw, a slower pan, a failed run and a shapes request on the points page fail', () => {
	const points = summarize( [
		run( 'points', { clusters: 3000, full: 3200, fps: 6 } ),
	] );
	points.shapesRequests = 1;
	const slow = summarize( [
		run( 'shapes', { clusters: 3000, full: 4300, fps: 4 } ),
	] );
	const verdict = byId( checks( raw, points, slow ).list );
	assert.equal( verdict.shapes_full_draw_added, false );
	assert.equal( verdict.shapes_pan_world, false );
	assert.equal( verdict.points_only_no_shapes_request, false );
	assert.equal( verdict.shapes_first_clusters_unchanged, true );

	const failed = summarize( [
		{ ...run( 'shapes', { clusters: 3000, full: 3500, fps: 6 } ) },
		{ kind: 'shapes', error: 'not fully drawn within 120000 ms' },
	] );
	assert.equal( failed.full, null );
	assert.deepEqual( failed.failed, [ 'not fully drawn within 120000 ms' ] );
	assert.equal(
		byId( checks( raw, points, failed ).list ).shapes_full_draw_added,
		false
	);
} );
