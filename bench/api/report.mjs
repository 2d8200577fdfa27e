#!/usr/bin/env node
/**
 * Gathers bench/api/measure.mjs results into one table with the targets of issue 3 (the feed) and
 * issue 10 (the maps of a post), prints it, writes bench/results/api-latest.json and appends the
 * run's headline numbers to bench/results/history.jsonl (../history.mjs).
 *
 *   node bench/api/report.mjs --dir RUN_DIR --sizes 1000,10000,100000 --results bench/results
 *
 * BENCH_NO_RESULTS=1 prints only. BENCH_STRICT=1 exits 1 when a target fails. With BENCH_ONLY (a
 * partial run) the result goes to api-only-<what>-latest.json (its history row says `only`) and
 * api-latest.json is left alone.
 *
 * "Today's numbers" for the flood's target (issue 12) are those of the previous api-latest.json,
 * read before it is replaced.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { HISTORY_FILE, apiNumbers, historyRow, parseLoadAverage, recordRun } from '../history.mjs';

const args = Object.fromEntries(
	process.argv.slice( 2 ).reduce( ( pairs, arg, i, all ) => {
		if ( arg.startsWith( '--' ) ) {
			pairs.push( [ arg.slice( 2 ), all[ i + 1 ] ] );
		}
		return pairs;
	}, [] )
);
const sizes = String( args.sizes ).split( ',' ).map( Number );
const runs = sizes.map( ( size ) => JSON.parse( fs.readFileSync( path.join( args.dir, `size-${ size }.json` ), 'utf8' ) ) );

const ONLY = ( process.env.BENCH_ONLY || '' ).trim();
// The previous full run: today's numbers, which the flood must not push the real visitors above.
let previous = null;
try {
	previous = JSON.parse( fs.readFileSync( path.join( args.results, 'api-latest.json' ), 'utf8' ) );
} catch {
	// First run.
}
const previousWarmP95 = ( markers ) => previous?.sizes?.find( ( r ) => r.markers === markers )?.ours?.warm?.p95_ms ?? null;

const MiB = 1024 * 1024;
const TARGETS = { markers: 100000, not_modified_p95_ms: 50, cold_ms: 1500, peak_mib: 32, gzip_per_marker: 16, maps_304_vs_feed: 1.1, posts_vs_markers: 1.2, gpx_import_ms: 10000, track_gzip_bytes: 100000 };

const ms = ( v ) => ( null === v || undefined === v ? '–' : v >= 10000 ? `${ ( v / 1000 ).toFixed( 1 ) } s` : `${ Math.round( v ) }` );
const pair = ( a, b ) => `${ ms( a ) } / ${ ms( b ) }`;
const mib = ( bytes ) => ( bytes ? ( bytes / MiB ).toFixed( 1 ) : '–' );
const kb = ( bytes ) => {
	if ( ! bytes && 0 !== bytes ) {
		return '–';
	}
	return bytes >= MiB ? `${ ( bytes / MiB ).toFixed( 2 ) } MiB` : `${ ( bytes / 1024 ).toFixed( 1 ) } KiB`;
};

const rows = [
	[ 'ours cold rebuild p50 / p95 (ms)', ( r ) => pair( r.ours.cold.p50_ms, r.ours.cold.p95_ms ) ],
	[ 'ours cold at c4 p50 / max (ms)', ( r ) => ( r.ours.cold_concurrent ? pair( r.ours.cold_concurrent.p50_ms, r.ours.cold_concurrent.max_ms ) : '–' ) ],
	[ 'ours rebuilds per c4 cold burst', ( r ) => ( r.ours.cold_concurrent ? `${ r.ours.cold_concurrent.rebuilds_per_round } of ${ r.concurrency }` : '–' ) ],
	[ 'ours warm 200 p50 / p95 (ms, c4)', ( r ) => pair( r.ours.warm.p50_ms, r.ours.warm.p95_ms ) ],
	[ 'ours 304 p50 / p95 (ms, c4)', ( r ) => pair( r.ours.not_modified.p50_ms, r.ours.not_modified.p95_ms ) ],
	[ 'ours warm req/s (c4)', ( r ) => String( r.ours.warm.req_per_s ) ],
	[ 'ours bytes raw JSON', ( r ) => kb( r.ours.bytes.raw ) ],
	[ 'ours bytes gzip', ( r ) => kb( r.ours.bytes.gzip ) ],
	[ 'ours gzip bytes / marker', ( r ) => r.ours.bytes.gzip_per_marker.toFixed( 2 ) ],
	[ 'ours PHP peak MiB cold / warm / 304', ( r ) => [ r.ours.cold, r.ours.warm, r.ours.not_modified ].map( ( m ) => mib( m.memory.peak_bytes ) ).join( ' / ' ) ],
	[ 'ours PHP peak MiB, cold at c4', ( r ) => mib( r.ours.cold_concurrent?.memory.peak_bytes ) ],
	[ 'ours PHP peak MiB, raw (no gzip)', ( r ) => mib( r.ours.raw_request.memory.peak_bytes ) ],
	[ 'ours SQL queries cold / warm / 304', ( r ) => [ r.ours.cold, r.ours.warm, r.ours.not_modified ].map( ( m ) => String( m.memory.queries ?? '–' ) ).join( ' / ' ) ],
	[ 'core 1 page of 100 p50 / p95 (ms, c4)', ( r ) => pair( r.core.page.p50_ms, r.core.page.p95_ms ) ],
	[ 'core 1 page req/s (c4)', ( r ) => String( r.core.page.req_per_s ) ],
	[ 'core all pages, sequential', ( r ) => `${ ms( r.core.all_pages.total_ms ) }${ r.core.all_pages.total_ms < 10000 ? ' ms' : '' } (${ r.core.all_pages.pages } p${ r.core.all_pages.extrapolated ? `, est. from ${ r.core.all_pages.measured_pages }` : '' })` ],
	[ 'core first / last page (ms, c1)', ( r ) => pair( r.core.all_pages.first_page_ms, r.core.all_pages.last_page_ms ) ],
	[ 'core all pages bytes raw / gzip', ( r ) => `${ kb( r.core.all_pages.bytes_raw ) } / ${ kb( r.core.all_pages.bytes_gzip6 ) }` ],
	[ 'core PHP peak MiB (page)', ( r ) => mib( r.core.page.memory.peak_bytes ) ],
	[ 'core SQL queries (page)', ( r ) => String( r.core.page.memory.queries ?? '–' ) ],
	[ 'post maps warm 200 p50 / p95 (ms, c4)', ( r ) => ( r.maps ? pair( r.maps.warm.p50_ms, r.maps.warm.p95_ms ) : '–' ) ],
	[ 'core same page p50 / p95 (ms, c4)', ( r ) => ( r.maps ? pair( r.maps.core_page.p50_ms, r.maps.core_page.p95_ms ) : '–' ) ],
	[ 'post maps 304 p50 / p95 (ms, c4)', ( r ) => ( r.maps ? pair( r.maps.not_modified.p50_ms, r.maps.not_modified.p95_ms ) : '–' ) ],
	[ 'feed 304 beside it p50 / p95 (ms, c4)', ( r ) => ( r.maps ? pair( r.maps.feed_not_modified.p50_ms, r.maps.feed_not_modified.p95_ms ) : '–' ) ],
	[ 'post maps PHP peak MiB warm / 304', ( r ) => ( r.maps ? [ r.maps.warm, r.maps.not_modified ].map( ( m ) => mib( m.memory.peak_bytes ) ).join( ' / ' ) : '–' ) ],
	[ 'post maps SQL queries warm / 304', ( r ) => ( r.maps ? [ r.maps.warm, r.maps.not_modified ].map( ( m ) => String( m.memory.queries ?? '–' ) ).join( ' / ' ) : '–' ) ],
	[ 'posts feed cold p50 / p95 (ms)', ( r ) => ( r.posts ? pair( r.posts.cold.p50_ms, r.posts.cold.p95_ms ) : '–' ) ],
	[ 'posts feed warm p50 / p95 (ms, c4)', ( r ) => ( r.posts ? pair( r.posts.warm.p50_ms, r.posts.warm.p95_ms ) : '–' ) ],
	[ 'markers feed beside it p50 / p95 (ms, c4)', ( r ) => ( r.posts ? pair( r.posts.markers_warm.p50_ms, r.posts.markers_warm.p95_ms ) : '–' ) ],
	[ 'posts feed 304 p50 / p95 (ms, c4)', ( r ) => ( r.posts ? pair( r.posts.not_modified.p50_ms, r.posts.not_modified.p95_ms ) : '–' ) ],
	[ 'markers 304 beside it p50 / p95 (ms, c4)', ( r ) => ( r.posts ? pair( r.posts.markers_not_modified.p50_ms, r.posts.markers_not_modified.p95_ms ) : '–' ) ],
	[ 'posts feed gzip bytes / post', ( r ) => ( r.posts ? String( r.posts.bytes.gzip_per_post ) : '–' ) ],
	[ 'posts feed PHP peak MiB cold / warm / 304', ( r ) => ( r.posts ? [ r.posts.cold, r.posts.warm, r.posts.not_modified ].map( ( m ) => mib( m.memory.peak_bytes ) ).join( ' / ' ) : '–' ) ],
	[ 'posts terms=category first / second (ms)', ( r ) => ( r.posts ? pair( r.posts.terms.first_ms, r.posts.terms.second_ms ) : '–' ) ],
	[ 'shapes feed: routes x positions seeded (seconds)', ( r ) => ( r.shapes ? `${ r.shapes.routes.routes } x ${ r.shapes.routes.seed.vertices } (${ r.shapes.routes.seed.seconds } s)` : '–' ) ],
	[ 'shapes seed: check / derive / insert (ms)', ( r ) => ( r.shapes ? `${ r.shapes.routes.seed.check_ms } / ${ r.shapes.routes.seed.derive_ms } / ${ r.shapes.routes.seed.insert_ms }` : '–' ) ],
	[ 'shapes feed features / vertices served', ( r ) => ( r.shapes ? `${ r.shapes.routes.bytes.features } / ${ r.shapes.routes.bytes.vertices } (${ r.shapes.routes.bytes.vertices_per_route } a route)` : '–' ) ],
	[ 'shapes feed cold p50 / p95 (ms)', ( r ) => ( r.shapes ? pair( r.shapes.routes.cold.p50_ms, r.shapes.routes.cold.p95_ms ) : '–' ) ],
	[ 'shapes feed warm 200 p50 / p95 (ms, c4)', ( r ) => ( r.shapes ? pair( r.shapes.routes.warm.p50_ms, r.shapes.routes.warm.p95_ms ) : '–' ) ],
	[ 'shapes feed 304 p50 / p95 (ms, c4)', ( r ) => ( r.shapes ? pair( r.shapes.routes.not_modified.p50_ms, r.shapes.routes.not_modified.p95_ms ) : '–' ) ],
	[ 'shapes feed bytes raw / gzip', ( r ) => ( r.shapes ? `${ kb( r.shapes.routes.bytes.raw ) } / ${ kb( r.shapes.routes.bytes.gzip ) }` : '–' ) ],
	[ 'shapes feed PHP peak MiB cold / warm / 304', ( r ) => ( r.shapes ? [ r.shapes.routes.cold, r.shapes.routes.warm, r.shapes.routes.not_modified ].map( ( m ) => mib( m.memory.peak_bytes ) ).join( ' / ' ) : '–' ) ],
	[ 'shapes requests reading _cairn_shape c / w / 304', ( r ) => ( r.shapes ? [ r.shapes.routes.cold, r.shapes.routes.warm, r.shapes.routes.not_modified ].map( ( m ) => `${ m.memory.shape_reads ?? '–' } of ${ m.n }` ).join( ' / ' ) : '–' ) ],
	[ 'GPX import p50 / max (ms)', ( r ) => ( r.shapes ? `${ pair( r.shapes.gpx.import.p50_ms, r.shapes.gpx.import.max_ms ) } (${ r.shapes.gpx.runs } x ${ r.shapes.gpx.points } points, ${ kb( r.shapes.gpx.file_bytes ) })` : '–' ) ],
	[ 'GPX import PHP peak MiB / SQL queries', ( r ) => ( r.shapes ? `${ mib( r.shapes.gpx.import.memory.peak_bytes ) } / ${ r.shapes.gpx.import.memory.queries ?? '–' }` : '–' ) ],
	[ 'GPX track shapes feed gzip / raw', ( r ) => ( r.shapes?.gpx.track ? `${ kb( r.shapes.gpx.track.gzip ) } / ${ kb( r.shapes.gpx.track.raw ) }` : 'track not found' ) ],
	[ 'GPX track vertices served (of points)', ( r ) => ( r.shapes?.gpx.track ? `${ r.shapes.gpx.track.vertices } of ${ r.shapes.gpx.points }` : '–' ) ],
	[ 'GPX track length / ascent / profile', ( r ) => ( r.shapes?.gpx.track ? `${ ( r.shapes.gpx.track.length_m / 1000 ).toFixed( 1 ) } km / ${ r.shapes.gpx.track.ascent_m ?? '–' } m / ${ r.shapes.gpx.track.profile_points ?? '–' } points` : '–' ) ],
	[ 'whole set warm p95 vs core 1 page p95', ( r ) => `${ ( r.core.page.p95_ms / r.ours.warm.p95_ms ).toFixed( 1 ) }x faster` ],
	[ 'whole set warm p95 vs core all pages', ( r ) => `${ ( r.core.all_pages.total_ms / r.ours.warm.p95_ms ).toFixed( 0 ) }x faster` ],
	[ 'flood: random-filter requests (distinct)', ( r ) => `${ r.flood.requests } (${ r.flood.distinct })` ],
	[ 'flood: feed cache option rows before / after', ( r ) => `${ r.flood.cache_before.rows } / ${ r.flood.cache_after.rows }` ],
	[ 'flood: filtered + bookkeeping rows (bound)', ( r ) => `${ floodStored( r ) } (<= ${ r.flood.cache_after.bound.rows })` ],
	[ 'flood: stored copies, gzip (bound)', ( r ) => `${ r.flood.cache_after.entries }, ${ kb( r.flood.cache_after.entry_bytes ) } (<= ${ r.flood.cache_after.bound.entries }, ${ kb( r.flood.cache_after.bound.bytes ) })` ],
	[ 'flood: whole options table growth', ( r ) => `${ r.flood.cache_after.options_table.rows - r.flood.cache_before.options_table.rows } rows, ${ kb( r.flood.cache_after.options_table.bytes - r.flood.cache_before.options_table.bytes ) }` ],
	[ 'flood: requests p50 / p95 (ms, c4)', ( r ) => pair( r.flood.flood.p50_ms, r.flood.flood.p95_ms ) ],
	[ 'flood: group / include / bbox p95 (ms)', ( r ) => [ 'group', 'include', 'bbox' ].map( ( k ) => ms( r.flood.flood.by_kind[ k ].p95_ms ) ).join( ' / ' ) ],
	[ 'flood: requests reading markers g / i / b', ( r ) => [ 'group', 'include', 'bbox' ].map( ( k ) => `${ r.flood.flood.by_kind[ k ].memory.rebuilt ?? '–' } of ${ r.flood.flood.by_kind[ k ].n }` ).join( ' / ' ) ],
	[ 'flood: PHP peak MiB', ( r ) => mib( r.flood.flood.memory.peak_bytes ) ],
	[ 'real visitors whole feed p95 before / during / after', ( r ) => [ 'real_before', 'real_during', 'real_after' ].map( ( k ) => ms( r.flood[ k ].whole.p95_ms ) ).join( ' / ' ) ],
	[ 'real visitors group feeds p95 before / during / after', ( r ) => [ 'real_before', 'real_during', 'real_after' ].map( ( k ) => ms( r.flood[ k ].group.p95_ms ) ).join( ' / ' ) ],
];
// A partial run (BENCH_ONLY) lacks some measurements: their cells read "–".
for ( const row of rows ) {
	const cell = row[ 1 ];
	row[ 1 ] = ( r ) => {
		try {
			const value = cell( r );
			return undefined === value || null === value ? '–' : String( value );
		} catch {
			return '–';
		}
	};
}

function floodStored( r ) {
	return r.flood.cache_after.parts.filtered.rows + r.flood.cache_after.parts.bookkeeping.rows;
}

const header = [ 'metric', ...sizes.map( ( s ) => `${ s.toLocaleString( 'en-US' ) } markers` ) ];
const table = [ header, ...rows.map( ( [ label, cell ] ) => [ label, ...runs.map( ( r ) => cell( r ) ) ] ).filter( ( row ) => row.slice( 1 ).some( ( value ) => '–' !== value ) ) ];
const widths = header.map( ( _, c ) => Math.max( ...table.map( ( row ) => row[ c ].length ) ) );
const line = ( row ) => row.map( ( cell, c ) => ( 0 === c ? cell.padEnd( widths[ c ] ) : cell.padStart( widths[ c ] ) ) ).join( ' | ' );

// Targets: at 100k markers (or the largest size measured), memory at every size.
const big = runs.find( ( r ) => r.markers === TARGETS.markers ) || runs[ runs.length - 1 ];
const at = `${ big.markers.toLocaleString( 'en-US' ) } markers`;
const full = Boolean( big.ours.cold && big.core?.page );
const worstPeak = Math.max( ...runs.map( ( r ) => r.ours.peak_bytes ?? 0 ) );
const worstPeakAt = runs.find( ( r ) => ( r.ours.peak_bytes ?? 0 ) === worstPeak );
const targets = ! full ? [] : [
	{
		id: 'warm_whole_set_faster_than_core_one_page',
		label: `whole set warm p95 < core ONE page p95 (${ at })`,
		value: `${ big.ours.warm.p95_ms } ms vs ${ big.core.page.p95_ms } ms`,
		pass: big.ours.warm.p95_ms < big.core.page.p95_ms,
	},
	{
		id: 'not_modified_p95',
		label: `304 p95 <= ${ TARGETS.not_modified_p95_ms } ms (${ at })`,
		value: `${ big.ours.not_modified.p95_ms } ms`,
		pass: big.ours.not_modified.p95_ms <= TARGETS.not_modified_p95_ms,
	},
	{
		id: 'cold_rebuild',
		label: `cold rebuild <= ${ TARGETS.cold_ms / 1000 } s, p95 (${ at })`,
		value: `${ big.ours.cold.p95_ms } ms (p50 ${ big.ours.cold.p50_ms } ms)`,
		pass: big.ours.cold.p95_ms <= TARGETS.cold_ms,
	},
	{
		id: 'peak_memory',
		label: `PHP peak memory <= ${ TARGETS.peak_mib } MiB, any size, any request`,
		value: `${ mib( worstPeak ) } MiB (at ${ worstPeakAt.markers.toLocaleString( 'en-US' ) })`,
		pass: worstPeak <= TARGETS.peak_mib * MiB,
	},
	{
		id: 'gzip_bytes_per_marker',
		label: `<= ${ TARGETS.gzip_per_marker } bytes per marker gzipped (${ at })`,
		value: `${ big.ours.bytes.gzip_per_marker } B (${ kb( big.ours.bytes.gzip ) })`,
		pass: big.ours.bytes.gzip_per_marker <= TARGETS.gzip_per_marker,
	},
];
if ( big.maps ) {
	const feed304 = big.maps.feed_not_modified.p95_ms;
	targets.push(
		{
			id: 'maps_warm_vs_core_page',
			label: `post maps warm p95 <= core /wp/v2/pages/<id> p95, same page, interleaved (${ at })`,
			value: `${ big.maps.warm.p95_ms } ms vs ${ big.maps.core_page.p95_ms } ms`,
			pass: big.maps.warm.p95_ms <= big.maps.core_page.p95_ms,
		},
		{
			id: 'maps_304_vs_feed_304',
			label: `post maps 304 p95 within ${ Math.round( ( TARGETS.maps_304_vs_feed - 1 ) * 100 ) } % of the feed's 304 p95, interleaved (${ at })`,
			value: `${ big.maps.not_modified.p95_ms } ms vs ${ feed304 } ms (${ ( ( big.maps.not_modified.p95_ms / feed304 - 1 ) * 100 ).toFixed( 0 ) } %)`,
			pass: big.maps.not_modified.p95_ms <= feed304 * TARGETS.maps_304_vs_feed,
		}
	);
}
if ( big.posts ) {
	const ratio = ( a, b ) => `${ a } ms vs ${ b } ms (${ ( a / b ).toFixed( 2 ) }x)`;
	targets.push(
		{
			id: 'posts_warm_vs_markers_warm',
			label: `posts feed warm p95 within ${ TARGETS.posts_vs_markers }x the markers feed's, interleaved (${ at }, as many posts)`,
			value: ratio( big.posts.warm.p95_ms, big.posts.markers_warm.p95_ms ),
			pass: big.posts.warm.p95_ms <= TARGETS.posts_vs_markers * big.posts.markers_warm.p95_ms,
		},
		{
			id: 'posts_304_vs_markers_304',
			label: `posts feed 304 p95 within ${ TARGETS.posts_vs_markers }x the markers feed's 304, interleaved (${ at })`,
			value: ratio( big.posts.not_modified.p95_ms, big.posts.markers_not_modified.p95_ms ),
			pass: big.posts.not_modified.p95_ms <= TARGETS.posts_vs_markers * big.posts.markers_not_modified.p95_ms,
		},
		{
			id: 'posts_peak_memory',
			label: `posts feed PHP peak <= ${ TARGETS.peak_mib } MiB, any size, any request`,
			value: `${ mib( Math.max( ...runs.map( ( r ) => r.posts?.peak_bytes ?? 0 ) ) ) } MiB`,
			pass: runs.every( ( r ) => ( r.posts?.peak_bytes ?? 0 ) <= TARGETS.peak_mib * MiB ),
		}
	);
}
const flooded = runs.filter( ( r ) => r.flood );
if ( flooded.length ) {
	// The bound holds at every size; the real visitors' warm p95 after the flood at the largest.
	const withinBound = ( r ) => {
		const after = r.flood.cache_after;
		return Boolean( after.bound ) && floodStored( r ) <= after.bound.rows && after.entries <= after.bound.entries && after.entry_bytes <= after.bound.bytes;
	};
	targets.push( {
		id: 'flood_options_table_bound',
		label: `${ flooded[ 0 ].flood.requests } random group/include/bbox requests keep the feed cache within its bound (every size)`,
		value: flooded.map( ( r ) => `${ r.markers }: ${ floodStored( r ) } rows, ${ r.flood.cache_after.entries } copies, ${ kb( r.flood.cache_after.entry_bytes ) }` ).join( '; ' ) + ` (bound ${ flooded[ 0 ].flood.cache_after.bound?.rows } rows, ${ flooded[ 0 ].flood.cache_after.bound?.entries } copies, ${ kb( flooded[ 0 ].flood.cache_after.bound?.bytes ) })`,
		pass: flooded.every( withinBound ),
	} );
	const last = flooded[ flooded.length - 1 ];
	const today = previousWarmP95( last.markers );
	const reference = null !== today ? today : last.ours.warm.p95_ms;
	targets.push( {
		id: 'flood_real_visitors_warm_p95',
		label: `real visitors' warm p95 (whole feed) after the flood <= today's warm p95 (${ null !== today ? `previous api-latest.json, ${ previous.date }` : 'this run, before the flood' }; ${ last.markers.toLocaleString( 'en-US' ) } markers)`,
		value: `${ last.flood.real_after.whole.p95_ms } ms vs ${ reference } ms (before the flood ${ last.flood.real_before.whole.p95_ms } ms, during ${ last.flood.real_during.whole.p95_ms } ms; group feeds ${ last.flood.real_before.group.p95_ms } / ${ last.flood.real_during.group.p95_ms } / ${ last.flood.real_after.group.p95_ms } ms)`,
		pass: last.flood.real_after.whole.p95_ms <= reference,
	} );
}
if ( big.shapes ) {
	// Issue 21: a 50,000-point GPX imports in < 10 s (every run) and its track is served to the map
	// in <= 100 kB gzip (100,000 bytes); the shapes feed revalidates as fast as the points feed.
	const { gpx, routes: shapes } = big.shapes;
	targets.push(
		{
			id: 'gpx_import_time',
			label: `a ${ gpx.points.toLocaleString( 'en-US' ) }-point GPX imports through POST /cairn/v1/markers/import?format=gpx in < ${ TARGETS.gpx_import_ms / 1000 } s (slowest of ${ gpx.runs })`,
			value: `${ gpx.import.max_ms } ms (p50 ${ gpx.import.p50_ms } ms)`,
			pass: gpx.import.max_ms < TARGETS.gpx_import_ms,
		},
		{
			id: 'gpx_track_feed_gzip',
			label: `that track's shapes feed (include=<id>, the map's default view) <= ${ TARGETS.track_gzip_bytes.toLocaleString( 'en-US' ) } bytes gzip`,
			value: gpx.track ? `${ gpx.track.gzip } B (${ gpx.track.vertices } vertices, raw ${ kb( gpx.track.raw ) })` : 'the imported track was not found in the shapes feed',
			pass: Boolean( gpx.track ) && gpx.track.gzip <= TARGETS.track_gzip_bytes,
		},
		{
			id: 'shapes_304_p95',
			label: `shapes feed 304 p95 <= ${ TARGETS.not_modified_p95_ms } ms, as the points feed's (${ shapes.routes } routes)`,
			value: `${ shapes.not_modified.p95_ms } ms`,
			pass: shapes.not_modified.p95_ms <= TARGETS.not_modified_p95_ms,
		}
	);
}
if ( big.markers !== TARGETS.markers ) {
	targets.forEach( ( t ) => ( t.note = `targets are set for ${ TARGETS.markers } markers; largest size measured: ${ big.markers }` ) );
}

const runtime = runs[ 0 ].runtime;
const environment = {
	server: process.env.BENCH_SERVER_DESC || null,
	php: runtime.php,
	sapi: runtime.sapi,
	opcache: runtime.opcache_enabled,
	jit: runtime.opcache_jit,
	php_memory_limit: runtime.memory_limit,
	wordpress: runtime.wordpress,
	plugin_version: runtime.plugin_version,
	mariadb: process.env.BENCH_MARIADB_VERSION || null,
	node: process.version,
	cpus: os.cpus().length,
	cpu_model: os.cpus()[ 0 ]?.model || null,
	memory_gib: Number( ( os.totalmem() / 1024 ** 3 ).toFixed( 1 ) ),
	load_average_before: process.env.BENCH_LOAD_BEFORE || null,
	load_average_after: process.env.BENCH_LOAD_AFTER || null,
};
const busy = Number( String( environment.load_average_before || '0' ).split( ' ' )[ 0 ] ) > 0.5 * environment.cpus;
let commit = null;
let dirty = null;
try {
	const { execFileSync } = await import( 'node:child_process' );
	const root = path.resolve( path.dirname( new URL( import.meta.url ).pathname ), '../..' );
	commit = execFileSync( 'git', [ '-C', root, 'rev-parse', '--short', 'HEAD' ], { encoding: 'utf8' } ).trim();
	dirty = '' !== execFileSync( 'git', [ '-C', root, 'status', '--porcelain', '--', 'plugin', 'cairn-maps.php' ], { encoding: 'utf8' } ).trim();
} catch {
	// Not a git checkout.
}

const notes = [
	'Latency: time to last byte at the client (keep-alive, gzip accepted, body not decoded); nearest-rank percentiles.',
	'Cold: the markers version bumped through the plugin (`cairn_maps_markers_changed`) before each request, so the payload is rebuilt and stored.',
	'Memory: memory_get_peak_usage() at PHP shutdown (after the body was printed), logged by the bench mu-plugin; MiB = 1,048,576 bytes.',
	...( full ? [ `Core "all pages": ${ runs.map( ( r ) => `${ r.markers }: ${ r.core.all_pages.method }` ).join( '; ' ) }.` ] : [] ),
	...( flooded.length
		? [
				`Flood (issue 12): ${ flooded[ 0 ].flood.requests } requests with random group/include/bbox values (${ flooded[ 0 ].flood.distinct } distinct values, each sent twice), interleaved with as many real visitors (the whole feed, group=huts, group=peaks, gzip); "during" is under that load, "after" measures what the flood left in the cache. Rows: the feed cache's option rows (filtered copies and bookkeeping; the whole feed is always kept and not counted in the bound).`,
		  ]
		: [] ),
	`Data: ${ runs[ 0 ].seed?.data || 'see bench/api/seed.php' }.`,
	...( runs[ 0 ].shapes
		? [
				`Shapes (issue 21): ${ runs[ 0 ].shapes.routes.seed.data }; seeded through the plugin's Geometry_Rule, Geometry_Measures::anchor() and Shape_Store::derive() with batched INSERTs (wp.php seed-shapes). Cold: the markers version bumped before each request. The GPX (bench/api/trails.php, elevation and time on every point) is POSTed as the body with format=gpx by the administrator (application password); "track" is the shapes feed with include=<the imported marker>.`,
		  ]
		: [] ),
];

const out = [];
out.push( '' );
out.push( `Cairn Maps API benchmark — ${ environment.server || '?' }, PHP ${ environment.php } (OPcache ${ environment.opcache ? 'on' : 'OFF' }), MariaDB ${ environment.mariadb }, WordPress ${ environment.wordpress }, ${ environment.cpus } CPUs` );
out.push( `ours: GET /cairn/v1/markers (whole set)   core: GET /wp/v2/cairn-markers?per_page=100   concurrency ${ runs[ 0 ].concurrency }` );
if ( runs[ 0 ].posts ) {
	out.push( 'posts feed: GET /cairn/v1/markers?post_type=post (as many posts with public places as markers), interleaved with the markers feed' );
}
if ( runs[ 0 ].shapes ) {
	out.push( `shapes: GET /cairn/v1/shapes (${ runs[ 0 ].shapes.routes.routes } routes) cold / warm / 304; a ${ runs[ 0 ].shapes.gpx.points }-point GPX through POST /cairn/v1/markers/import?format=gpx` );
}
out.push( `load average at the start: ${ process.env.BENCH_LOAD_BEFORE || '?' } (${ os.cpus().length } CPUs)` );
if ( runs[ 0 ].maps ) {
	out.push( `post maps: GET /cairn/v1/posts/${ runs[ 0 ].maps.post }/maps (a page with 3 maps) beside core's GET /wp/v2/pages/${ runs[ 0 ].maps.post } and the feed's 304, interleaved` );
}
if ( busy ) {
	out.push( `WARNING: the machine was busy when the run started (load average ${ environment.load_average_before } on ${ environment.cpus } CPUs): timings are pessimistic.` );
}
out.push( '' );
out.push( line( table[ 0 ] ) );
out.push( widths.map( ( w ) => '-'.repeat( w ) ).join( '-|-' ) );
for ( const row of table.slice( 1 ) ) {
	out.push( line( row ) );
}
const phases = ( m ) =>
	Object.entries( m.marks_p50 || {} )
		.map( ( [ key, value ] ) => `${ key } ${ Math.round( value ) }` )
		.concat( [ `end ${ Math.round( m.php_ms_p50 ?? 0 ) }` ] )
		.join( ' → ' );
if ( full ) {
	out.push( '' );
	out.push( `Where PHP time goes at ${ at } (p50, ms since the request started, as reached):` );
	out.push( `  304:  ${ phases( big.ours.not_modified.memory ) }` );
	out.push( `  warm: ${ phases( big.ours.warm.memory ) }` );
	out.push( `  cold: ${ phases( big.ours.cold.memory ) }` );
	out.push( `  core: ${ phases( big.core.page.memory ) }` );
	if ( big.maps ) {
		out.push( `  post maps 304:  ${ phases( big.maps.not_modified.memory ) }` );
		out.push( `  post maps warm: ${ phases( big.maps.warm.memory ) }` );
		out.push( `  core same page: ${ phases( big.maps.core_page.memory ) }` );
	}
}
const profileFile = path.join( args.dir, 'profile.json' );
const profile = fs.existsSync( profileFile ) ? JSON.parse( fs.readFileSync( profileFile, 'utf8' ) ) : null;
if ( profile && ! profile.error ) {
	out.push( '' );
	out.push( `Cold rebuild step by step at ${ profile.markers.toLocaleString( 'en-US' ) } markers (php CLI, same database, ms):` );
	out.push(
		`  read rows+groups ${ profile.read_rows_and_groups_ms }` +
			( undefined !== profile.of_which_groups_ms ? ` (groups_of alone ${ profile.of_which_groups_ms })` : '' ) +
			` · feature_json ${ profile.feature_json_ms } · ` +
			[ 9, 8, 7, 6 ]
				.filter( ( level ) => undefined !== profile[ `gzip_level${ level }_ms` ] )
				.map( ( level ) => `gzip -${ level } ${ profile[ `gzip_level${ level }_ms` ] } (${ profile[ `gzip_level${ level }_bytes_per_marker` ] } B/marker)` )
				.join( ' vs ' ) +
			` · build() total ${ profile.build_total_ms }` +
			( profile.gzip_level ? ` (level ${ profile.gzip_level }, reads overlapped)` : '' ) +
			` · store ${ profile.store_ms } · load ${ profile.load_ms }`
	);
	if ( undefined !== profile.bbox_from_cache_ms ) {
		out.push(
			`  cut from the cached whole feed: a 20°x20° box ${ profile.bbox_from_cache_ms } (${ profile.bbox_from_cache_features } features) · two groups ${ profile.group_from_cache_ms } (${ profile.group_from_cache_features } features) · markers read ${ profile.from_cache_marker_reads }`
		);
	}
} else if ( profile?.error ) {
	out.push( '' );
	out.push( `Cold rebuild profile failed: ${ profile.error }` );
}
out.push( '' );
out.push( `Targets (${ [ full ? 'issue 3' : null, big.maps ? 'issue 10' : null, flooded.length ? 'issue 12' : null, big.shapes ? 'issue 21' : null, big.posts ? 'issue 24' : null ].filter( Boolean ).join( ', ' ) }):` );
for ( const t of targets ) {
	out.push( `  ${ t.pass ? 'PASS' : 'FAIL' }  ${ t.label }: ${ t.value }` );
}
const failedChecks = runs.flatMap( ( r ) =>
	Object.entries( r.checks )
		.filter( ( [ key, value ] ) => false === value )
		.map( ( [ key ] ) => `${ r.markers }: ${ key }` )
);
out.push( '' );
out.push( `Contract checks: ${ failedChecks.length ? `FAILED ${ failedChecks.join( ', ' ) }` : `all passed (${ full ? `feature count, ETag, 304, Cache-Control "${ runs[ 0 ].checks.cache_control }", no Set-Cookie, gzip, every cold run rebuilt, warm and 304 read no marker` : Object.keys( runs[ 0 ].checks ).join( ', ' ) })` }` );
out.push( '' );
for ( const note of notes ) {
	out.push( `- ${ note }` );
}
console.log( out.join( '\n' ) );

const date = new Date().toISOString();
const result = {
	benchmark: 'bench:api',
	date,
	commit,
	plugin_files_modified: dirty,
	elapsed_seconds: Number( process.env.BENCH_ELAPSED_SECONDS ) || null,
	environment,
	machine_busy: busy,
	only: ONLY || null,
	settings: {
		concurrency: runs[ 0 ].concurrency,
		cold_runs: runs[ 0 ].ours.cold?.n ?? null,
		warm_requests: runs[ 0 ].ours.warm?.n ?? null,
		not_modified_requests: runs[ 0 ].ours.not_modified?.n ?? null,
		core_requests: runs[ 0 ].core.page?.n ?? null,
		flood_requests: runs[ 0 ].flood?.requests ?? null,
	},
	targets,
	sizes: runs,
	rebuild_profile: profile,
	notes,
	table: out.join( '\n' ),
};
if ( '1' !== process.env.BENCH_NO_RESULTS ) {
	// A partial run keeps api-latest.json a full one (the flood's target reads it).
	const latest = ONLY ? `api-only-${ ONLY.replace( /[^a-z0-9]+/gi, '-' ) }-latest.json` : 'api-latest.json';
	recordRun(
		args.results,
		latest,
		result,
		historyRow( {
			benchmark: 'api',
			date,
			commit,
			dirty,
			loadAverage: parseLoadAverage( environment.load_average_before ),
			only: ONLY || null,
			numbers: apiNumbers( result ),
		} )
	);
	console.log( `\nwrote bench/results/${ latest } and a row in bench/results/${ HISTORY_FILE }` );
}
if ( '1' === process.env.BENCH_STRICT && targets.some( ( t ) => ! t.pass ) ) {
	process.exitCode = 1;
}
