/**
 * Issue 22's benchmark logic, dry: `node --test bench/` (no site, no browser). The tile set a
 * visitor's views ask for, the tile URL template, the API report's targets and the front
 * runner's threshold recommendation.
 */
import assert from 'node:assert/strict';
import test from 'node:test';

import {
	latToY,
	lngToX,
	sessions,
	tileUrl,
	uniqueTiles,
	view,
} from './api/tiles.mjs';
import { targets, table } from './api/tiles-report.mjs';
import { checks, recommend, rows } from './front/tiles.mjs';
import { tilesApiNumbers } from './history.mjs';

test( 'slippy tile arithmetic: the corners and the centre of the world', () => {
	assert.equal( lngToX( -180, 3 ), 0 );
	assert.equal( lngToX( 180, 3 ), 8 );
	assert.equal( lngToX( 0, 0 ), 0.5 );
	assert.ok( Math.abs( latToY( 0, 1 ) - 1 ) < 1e-9 );
	assert.ok( latToY( 85.05112878, 2 ) < 1e-6 );
	// Clamped like Morton::code.
	assert.equal( latToY( 89, 2 ), latToY( 85.05112878, 2 ) );
} );

test( 'a 1280×800 view of 512-px tiles: the tiles it asks for, wrapped, y clamped', () => {
	const world = view( 0, 0, 2 );
	// 2.5 × 1.5625 tiles around the centre: x 0..3, y 1..2.
	assert.deepEqual(
		world.tiles.map( ( t ) => t.join( '/' ) ),
		[
			'2/0/1',
			'2/0/2',
			'2/1/1',
			'2/1/2',
			'2/2/1',
			'2/2/2',
			'2/3/1',
			'2/3/2',
		]
	);
	// Across the antimeridian: x wraps, never negative or ≥ 2^z.
	const east = view( 179.9, 10, 6 );
	assert.ok( east.tiles.every( ( [ , x ] ) => x >= 0 && x < 64 ) );
	assert.ok( east.tiles.some( ( [ , x ] ) => x === 0 ) );
	// Near the pole: no y outside 0..2^z-1.
	const north = view( 0, 85, 3 );
	assert.ok( north.tiles.every( ( [ , , y ] ) => y >= 0 && y < 8 ) );
	const [ w, s, e, n ] = view( 10, 45, 10 ).bbox;
	assert.ok( w < 10 && e > 10 && s < 45 && n > 45 );
} );

test( 'sessions: deterministic, every zoom of 2–12 and its pan, tiles unique', () => {
	const a = sessions( 3 );
	const b = sessions( 3 );
	assert.deepEqual( a, b );
	assert.equal( a.length, 3 * 7 * 2 );
	const tiles = uniqueTiles( a );
	assert.equal(
		new Set( tiles.map( ( t ) => t.join( '/' ) ) ).size,
		tiles.length
	);
	assert.deepEqual(
		[ ...new Set( tiles.map( ( [ z ] ) => z ) ) ].sort( ( x, y ) => x - y ),
		[ 2, 3, 4, 6, 8, 10, 12 ]
	);
	// Country data: the centres lie in seed.php's country box.
	const country = sessions( 4, 'country' ).filter( ( v ) => v.z === 12 );
	for ( const v of country ) {
		const lng = ( v.bbox[ 0 ] + v.bbox[ 2 ] ) / 2;
		assert.ok( lng > -9 && lng < 3, `centre ${ lng }` );
	}
} );

test( 'tileUrl fills the template, braces plain or percent-encoded', () => {
	assert.equal(
		tileUrl( '/wp-json/cairn/v1/tiles/{z}/{x}/{y}?v=1', [ 3, 4, 5 ] ),
		'/wp-json/cairn/v1/tiles/3/4/5?v=1'
	);
	assert.equal(
		tileUrl(
			'/wp-json/cairn/v1/tiles/%7Bz%7D/%7Bx%7D/%7By%7D?v=1',
			[ 12, 2047, 1360 ]
		),
		'/wp-json/cairn/v1/tiles/12/2047/1360?v=1'
	);
} );

/**
 * A size's result as tiles.mjs writes it, with these numbers.
 * @param markers
 * @param root0
 * @param root0.cold
 * @param root0.warm
 * @param root0.nm
 * @param root0.st
 * @param root0.search
 * @param root0.list
 * @param root0.rebuild
 * @param root0.peak
 * @param clusters
 * @param root0.searchTiles
 * @param root0.near
 */
function run(
	markers,
	{
		cold = 150,
		warm = 20,
		nm = 3,
		st = 2.8,
		search = 100,
		list = 90,
		rebuild = 600,
		peak = 8,
		searchTiles = 250,
		near = 100,
	} = {},
	clusters = undefined
) {
	return {
		markers,
		clusters,
		seed: { markers, seconds: 1, inserted: markers },
		index: { skipped: false, seconds: 2 },
		config: { tiles: '/t/{z}/{x}/{y}', fromRoute: true },
		tile_set: { tiles: 500, views: 112, zooms: [ 2, 12 ] },
		tiles: {
			cold: { p50_ms: cold / 2, p95_ms: cold },
			warm: { p50_ms: warm / 2, p95_ms: warm },
			not_modified: { p50_ms: nm / 2, p95_ms: nm },
			static_not_modified: { p50_ms: st / 2, p95_ms: st },
			bytes: {
				mean: 900,
				max: 9000,
				encoding: 'gzip',
				features_mean: 40,
				features_max: 300,
			},
		},
		search: {
			first: { p50_ms: search / 2, p95_ms: search },
			repeated: { p50_ms: 5, p95_ms: 9 },
		},
		list: {
			p50_ms: list / 2,
			p95_ms: list,
			world_ms: 50,
			world_total: markers,
		},
		search_tiles: { p50_ms: searchTiles / 2, p95_ms: searchTiles },
		near: { first: { p50_ms: near / 2, p95_ms: near } },
		visitor_geocode: {
			cached: { p50_ms: 5, p95_ms: 9 },
			towns: 24,
			answered_with_a_place: 24,
		},
		move: {
			save_ms: rebuild - 100,
			next_tile_z12_ms: 100,
			next_tile_z2_ms: 80,
			rebuild_ms: rebuild,
		},
		peak_bytes: { tile_cold: peak * 1048576, tile_warm: 4 * 1048576 },
		flood: {
			round1: { requests: 10, statuses: { 200: 10 } },
			round2: { requests: 10, statuses: { 200: 10 } },
			storage: {
				before: { stored_rows: 1, cairn_options_bytes: 1 },
				after_round1: { stored_rows: 5 },
				after_round2: { stored_rows: 6, cairn_options_bytes: 9 },
			},
		},
		checks: { tile_etag: true, config_from_route: false },
	};
}

test( 'API targets: checked at the largest size, each failing on its own number', () => {
	const pass = targets( [ run( 1000 ), run( 1000000 ) ] );
	assert.deepEqual(
		pass.filter( ( t ) => false === t.pass ),
		[]
	);
	const failing = {
		tile_warm: { warm: 31 },
		tile_304: { nm: 3.5, st: 2.8 },
		tile_cold: { cold: 201 },
		move_rebuild: { rebuild: 1001 },
		search: { search: 151 },
		list_move: { list: 151 },
		search_tiles: { searchTiles: 301 },
		near: { near: 151 },
		peak: { peak: 33 },
	};
	for ( const [ id, numbers ] of Object.entries( failing ) ) {
		const result = targets( [ run( 1000 ), run( 1000000, numbers ) ] );
		assert.deepEqual(
			result.filter( ( t ) => false === t.pass ).map( ( t ) => t.id ),
			[ id ],
			id
		);
	}
	// Only the largest size's latency counts; every size's memory does.
	assert.equal(
		targets( [ run( 1000, { cold: 999 } ), run( 1000000 ) ] ).filter(
			( t ) => false === t.pass
		).length,
		0
	);
	assert.equal(
		targets( [ run( 1000, { peak: 40 } ), run( 1000000 ) ] ).find(
			( t ) => 'peak' === t.id
		).pass,
		false
	);
	// A failed contract check fails; config_from_route is information only.
	const broken = run( 1000000 );
	broken.checks.tile_etag = false;
	assert.equal(
		targets( [ broken ] ).find( ( t ) => 'checks_1000000' === t.id ).pass,
		false
	);
	// Search not merged: the targets fail with the reason, nothing throws.
	const noSearch = run( 1000000 );
	noSearch.search = { skipped: 'no /cairn/v1/places route' };
	noSearch.list = { skipped: 'no /cairn/v1/places route' };
	const result = targets( [ noSearch ] );
	assert.equal( result.find( ( t ) => 'search' === t.id ).pass, false );
	assert.match(
		result.find( ( t ) => 'search' === t.id ).value,
		/no \/cairn\/v1\/places/
	);
	assert.match( table( [ noSearch ] ), /search → list/ );
	// Below 1M, a note says where the targets are set.
	assert.equal(
		targets( [ run( 100000 ) ] ).find( ( t ) => 'size' === t.id ).pass,
		null
	);
} );

test( 'history numbers of a tiles run, per size', () => {
	const numbers = tilesApiNumbers( {
		sizes: [ run( 1000 ), run( 1000000, { warm: 25 } ) ],
		targets: [ { id: 'tile_cold', pass: false } ],
	} );
	assert.deepEqual( numbers.tile_warm_p95_ms, { 1000: 20, 1000000: 25 } );
	assert.deepEqual( numbers.static_not_modified_p95_ms, {
		1000: 2.8,
		1000000: 2.8,
	} );
	assert.equal( numbers.peak_bytes[ 1000000 ], 8 * 1048576 );
	assert.deepEqual( numbers.targets_failed, [ 'tile_cold' ] );
} );

/**
 * The front spec's raw result for one size.
 * @param empty
 * @param tiled
 * @param feed
 * @param bytes
 * @param longTasks
 */
function front( empty, tiled, feed, bytes = 50000, longTasks = [ 400, 480 ] ) {
	const side = ( ms, lt ) =>
		null === ms
			? null
			: {
					firstClusters: ms,
					longTasks: lt,
					bytes,
					requests: 9,
					failed: 0,
				};
	return {
		empty: { firstClusters: empty, longTasks: longTasks[ 0 ] },
		tiled: side( tiled, longTasks[ 1 ] ),
		feed: side( feed, longTasks[ 1 ] ),
	};
}

test( 'front: what the places add, the targets, the threshold', () => {
	const raw = {
		sizes: {
			1000: front( 2000, 2250, 2100 ),
			10000: front( 2000, 2260, 2300 ),
			20000: front( 2000, 2240, 2500 ),
			50000: front( 2000, 2270, 2900 ),
			100000: front( 2000, 2280, null ),
			1000000: front( 2000, 2290, null, 120000 ),
		},
	};
	const list = rows( raw );
	assert.equal( list[ 0 ].tiled.added, 250 );
	assert.equal( list[ 5 ].tiled.longTasksAdded, 80 );
	// Tiled wins from 10k on (and at every larger size compared).
	assert.deepEqual( recommend( list ), {
		threshold: 10000,
		// Every page here moved 50,000 B: the tiles are no heavier from the first size on.
		bytesThreshold: 1000,
		compared: [ 1000, 10000, 20000, 50000 ],
	} );
	assert.deepEqual(
		checks( list ).filter( ( t ) => ! t.pass ),
		[]
	);
	// A win at 10k that is lost again at 20k does not count: from 50k on.
	raw.sizes[ 20000 ] = front( 2000, 2600, 2500 );
	assert.equal( recommend( rows( raw ) ).threshold, 50000 );
	// Bytes: tiles heavier at 1k and 10k, lighter from 20k on.
	const heavy = rows( {
		sizes: {
			1000: front( 2000, 2100, 2100, 20000 ),
			10000: front( 2000, 2100, 2100, 20000 ),
			20000: front( 2000, 2100, 2100, 20000 ),
		},
	} );
	heavy[ 0 ].feed.bytes = 17000;
	heavy[ 1 ].feed.bytes = 16000;
	heavy[ 2 ].feed.bytes = 320000;
	assert.equal( recommend( heavy ).bytesThreshold, 20000 );
	// The feed faster everywhere: no threshold among the sizes compared.
	raw.sizes[ 50000 ] = front( 2000, 3000, 2900 );
	raw.sizes[ 10000 ] = front( 2000, 3000, 2300 );
	raw.sizes[ 1000 ] = front( 2000, 3000, 2100 );
	assert.equal( recommend( rows( raw ) ).threshold, null );
	// 1M: more than 300 kB or 150 ms of long tasks added fail.
	raw.sizes[ 1000000 ] = front( 2000, 2290, null, 300001, [ 400, 551 ] );
	const failed = checks( rows( raw ) )
		.filter( ( t ) => ! t.pass )
		.map( ( t ) => t.id );
	assert.deepEqual( failed.sort(), [
		'tiled_added_1000',
		'tiled_bytes_1m',
		'tiled_long_tasks_1m',
	] );
} );

test( 'sessions on the seed cities: every visitor zooms into one of them', () => {
	const cities = [
		[ 10, 45 ],
		[ -70, -30 ],
	];
	const views = sessions( 6, 'cities', cities ).filter( ( v ) => v.z === 12 );
	assert.equal( views.length, 12 );
	for ( const v of views.filter( ( _, i ) => i % 2 === 0 ) ) {
		const lng = ( v.bbox[ 0 ] + v.bbox[ 2 ] ) / 2;
		const lat = ( v.bbox[ 1 ] + v.bbox[ 3 ] ) / 2;
		assert.ok(
			cities.some(
				( [ x, y ] ) =>
					Math.abs( lng - x ) < 0.3 && Math.abs( lat - y ) < 0.3
			),
			`${ lng },${ lat }`
		);
	}
} );

test( 'API targets: the 304 through nginx proxy_cache against the static file, when measured', () => {
	const withProxy = ( proxy304, static304 ) => {
		const r = run( 1000000 );
		r.tiles.proxy = {
			warm: { p50_ms: 1, p95_ms: 2, cache: { HIT: 10 } },
			not_modified: { p50_ms: 0.5, p95_ms: proxy304 },
			static_not_modified: { p50_ms: 0.5, p95_ms: static304 },
		};
		return targets( [ r ] ).find( ( t ) => 'tile_304_proxy' === t.id );
	};
	assert.equal( withProxy( 1.0, 0.9 ).pass, true );
	assert.equal( withProxy( 1.2, 0.9 ).pass, false );
	assert.equal(
		targets( [ run( 1000000 ) ] ).find(
			( t ) => 'tile_304_proxy' === t.id
		),
		undefined
	);
} );

test( 'clusters: supercluster compared with itself matches at every zoom', async () => {
	const { compareClusters, superclusterOf, tileBounds, tileOf } =
		await import( './api/clusters.mjs' );
	const { places } = await import( '../bin/cluster-vectors.mjs' );
	const flat = new Float64Array( places().flat() );
	const options = { radius: 80, maxZoom: 16 };
	const index = superclusterOf( flat, options );
	// A "server" whose tiles are supercluster's own marks, each in the tile holding it.
	const result = await compareClusters( flat, options, async ( z, x, y ) =>
		index
			.getClusters( tileBounds( z, x, y ), z )
			.filter(
				( mark ) =>
					tileOf( ...mark.geometry.coordinates, z ).join() ===
					`${ x },${ y }`
			)
			.map( ( mark ) =>
				mark.properties.cluster
					? {
							...mark,
							properties: {
								...mark.properties,
								expansion_zoom: index.getClusterExpansionZoom(
									mark.properties.cluster_id
								),
							},
						}
					: mark
			)
	);
	assert.equal( result.zooms.length, 13 );
	assert.equal(
		result.zooms[ 0 ].places,
		10000,
		'the world at z0 holds every place'
	);
	for ( const zoom of result.zooms ) {
		assert.equal( zoom.ratio, zoom.marks ? 1 : null, `z${ zoom.zoom }` );
		assert.equal( zoom.spacing_px, zoom.supercluster_spacing_px );
		assert.equal( zoom.matched, zoom.clusters );
		assert.equal( zoom.same_expansion, zoom.matched );
	}
	const pass = targets( [ run( 1000000, {}, result ) ] ).filter( ( t ) =>
		t.id.startsWith( 'clusters_' )
	);
	assert.deepEqual(
		pass.map( ( t ) => [ t.id, t.pass ] ),
		[
			[ 'clusters_marks', true ],
			[ 'clusters_spacing', true ],
			[ 'clusters_expansion', null ],
		]
	);
} );
