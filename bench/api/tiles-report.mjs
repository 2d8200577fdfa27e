#!/usr/bin/env node
/**
 * Issue 22: the table and target checks of `npm run bench:api:tiles` (bench/api/run.sh with
 * BENCH_ONLY=tiles), from the size-N.json files of bench/api/tiles.mjs; writes
 * bench/results/api-only-tiles-latest.json and a row in bench/results/history.jsonl
 * (`"only": "tiles"`), unless BENCH_NO_RESULTS=1. BENCH_STRICT=1: exit 1 when a target fails.
 *
 *   node bench/api/tiles-report.mjs --dir .cache/bench/run --sizes 1000,100000,1000000 --results bench/results
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
	HISTORY_FILE,
	gitState,
	historyRow,
	parseLoadAverage,
	recordRun,
	tilesApiNumbers,
} from '../history.mjs';

const MiB = 1024 * 1024;
// The issue's targets (issue 22, "Performance targets"): at 1M unless said.
export const TARGETS = {
	warm_p95_ms: 30,
	vs_static: 1.2,
	cold_p95_ms: 200,
	rebuild_ms: 1000,
	search_p95_ms: 150,
	list_p95_ms: 150,
	// Issue 33: a broad search's cold tiles of z0–3.
	search_tiles_p95_ms: 300,
	// Issue 34: a radius search's summary and list together, and a visitor's cached address.
	near_p95_ms: 150,
	geocode_cached_p95_ms: 30,
	// Issue 33: marks per zoom within 20 % of supercluster's, no two closer than radius / 2.
	clusters_ratio: 0.2,
	clusters_spacing: 0.5,
	peak_mib: 32,
	large: 1000000,
};

const mib = ( bytes ) => ( bytes ? ( bytes / MiB ).toFixed( 1 ) : '–' );
const ms = ( value ) =>
	null === value || undefined === value ? '–' : String( value );
const pair = ( a, b ) => `${ ms( a ) } / ${ ms( b ) }`;

const ROWS = [
	[
		'markers (seed s, inserted / index s)',
		( r ) =>
			`${ r.seed?.markers ?? r.markers } (${ r.seed?.seconds ?? '–' } s, ${ r.seed?.inserted ?? '–' } / ${ r.index?.skipped ? 'kept' : `${ r.index?.seconds ?? '–' } s` })`,
	],
	[
		'tile set: tiles (views)',
		( r ) =>
			`${ r.tile_set.tiles } (${ r.tile_set.views } views, z ${ r.tile_set.zooms.join( ',' ) })`,
	],
	[
		'tile cold p50 / p95 (ms)',
		( r ) => pair( r.tiles.cold.p50_ms, r.tiles.cold.p95_ms ),
	],
	[
		'tile warm p50 / p95 (ms)',
		( r ) => pair( r.tiles.warm.p50_ms, r.tiles.warm.p95_ms ),
	],
	[
		'tile 304 p50 / p95 (ms)',
		( r ) =>
			pair( r.tiles.not_modified.p50_ms, r.tiles.not_modified.p95_ms ),
	],
	[
		'static file 304 p50 / p95 (ms)',
		( r ) =>
			r.tiles.static_not_modified
				? pair(
						r.tiles.static_not_modified.p50_ms,
						r.tiles.static_not_modified.p95_ms
					)
				: '–',
	],
	[
		'through nginx proxy_cache: warm p50 / p95 (ms)',
		( r ) =>
			r.tiles.proxy
				? `${ pair( r.tiles.proxy.warm.p50_ms, r.tiles.proxy.warm.p95_ms ) } (${ JSON.stringify( r.tiles.proxy.warm.cache ) })`
				: '–',
	],
	[
		'through nginx proxy_cache: 304 p50 / p95, static',
		( r ) =>
			r.tiles.proxy
				? `${ pair( r.tiles.proxy.not_modified.p50_ms, r.tiles.proxy.not_modified.p95_ms ) }, ${ pair( r.tiles.proxy.static_not_modified?.p50_ms, r.tiles.proxy.static_not_modified?.p95_ms ) }`
				: '–',
	],
	[
		'tile bytes mean / max (encoding)',
		( r ) =>
			`${ r.tiles.bytes.mean } / ${ r.tiles.bytes.max } (${ r.tiles.bytes.encoding })`,
	],
	[
		'features a tile mean / max',
		( r ) =>
			`${ r.tiles.bytes.features_mean } / ${ r.tiles.bytes.features_max }`,
	],
	[
		'search → list p50 / p95 (ms)',
		( r ) => pair( r.search.first.p50_ms, r.search.first.p95_ms ),
	],
	[
		'search repeated p50 / p95 (ms)',
		( r ) => pair( r.search.repeated.p50_ms, r.search.repeated.p95_ms ),
	],
	[
		'broad search, cold z0–3 tiles p50 / p95 (ms)',
		( r ) =>
			r.search_tiles?.p95_ms
				? pair( r.search_tiles.p50_ms, r.search_tiles.p95_ms )
				: '–',
	],
	[
		'list after a move p50 / p95 (ms)',
		( r ) => pair( r.list.p50_ms, r.list.p95_ms ),
	],
	[
		'near a place: summary + list p50 / p95 (ms, total p50)',
		( r ) =>
			r.near?.first
				? `${ pair( r.near.first.p50_ms, r.near.first.p95_ms ) } (${ r.near.totals_p50 ?? '–' })`
				: r.near?.skipped || '–',
	],
	[
		'visitor geocode cached p50 / p95 (ms)',
		( r ) =>
			r.visitor_geocode?.cached
				? pair(
						r.visitor_geocode.cached.p50_ms,
						r.visitor_geocode.cached.p95_ms
					)
				: r.visitor_geocode?.skipped || '–',
	],
	[
		'list of the whole world (ms, total)',
		( r ) => `${ ms( r.list.world_ms ) } (${ r.list.world_total ?? '–' })`,
	],
	[
		'one place moved: save + next tile (ms)',
		( r ) =>
			r.move?.save_ms
				? `${ r.move.save_ms } + ${ Math.max( r.move.next_tile_z12_ms ?? 0, r.move.next_tile_z2_ms ?? 0 ) } = ${ r.move.rebuild_ms }`
				: r.move?.skipped || '–',
	],
	[
		'PHP peak MiB: tile cold / warm / 304',
		( r ) =>
			`${ mib( r.peak_bytes.tile_cold ) } / ${ mib( r.peak_bytes.tile_warm ) } / ${ mib( r.peak_bytes.tile_304 ) }`,
	],
	[
		'PHP peak MiB: summary / search / bbox',
		( r ) =>
			`${ mib( r.peak_bytes.summary ) } / ${ mib( r.peak_bytes.list_search ) } / ${ mib( r.peak_bytes.list_bbox ) }`,
	],
	[
		'PHP peak MiB: flood / save / tile after',
		( r ) =>
			`${ mib( r.peak_bytes.flood ) } / ${ mib( r.peak_bytes.save ) } / ${ mib( r.peak_bytes.tile_after_save ) }`,
	],
	[
		'flood: requests, statuses',
		( r ) =>
			`${ r.flood.round1.requests + r.flood.round2.requests } (${ JSON.stringify( r.flood.round1.statuses ) } ${ JSON.stringify( r.flood.round2.statuses ) })`,
	],
	[
		'flood: stored rows before → r1 → r2',
		( r ) =>
			`${ r.flood.storage.before.stored_rows } → ${ r.flood.storage.after_round1.stored_rows } → ${ r.flood.storage.after_round2.stored_rows }`,
	],
	[
		'flood: cairn option bytes before → r2',
		( r ) =>
			`${ r.flood.storage.before.cairn_options_bytes } → ${ r.flood.storage.after_round2.cairn_options_bytes }`,
	],
];

export function table( runs ) {
	const width = Math.max( ...ROWS.map( ( [ label ] ) => label.length ) );
	const header = [
		''.padEnd( width ),
		...runs.map( ( r ) => String( r.markers ).padStart( 12 ) ),
	].join( ' | ' );
	const lines = [ header, '-'.repeat( header.length ) ];
	for ( const [ label, cell ] of ROWS ) {
		lines.push(
			[
				label.padEnd( width ),
				...runs.map( ( r ) => {
					try {
						return String( cell( r ) );
					} catch {
						return '–';
					}
				} ),
			].join( ' | ' )
		);
	}
	return lines.join( '\n' );
}

/**
 * Issue 33: per zoom, the tiles' marks beside supercluster's on the same places (out.clusters).
 * @param runs
 */
export function clustersTable( runs ) {
	const lines = [];
	for ( const r of runs ) {
		if ( ! r.clusters?.zooms ) {
			continue;
		}
		lines.push(
			`clusters at ${ r.markers.toLocaleString( 'en-US' ) } (radius ${ r.clusters.radius }, supercluster loaded in ${ r.clusters.supercluster_load_ms } ms; z0–${ r.clusters.window.from_zoom - 1 } the world, deeper ${ r.clusters.window.tiles }×${ r.clusters.window.tiles } tiles around [${ r.clusters.window.centre.map( ( n ) => n.toFixed( 2 ) ).join( ', ' ) }])`,
			'zoom | tiles | marks (supercluster) | ratio | least spacing px (supercluster) | clusters matched | same expansion'
		);
		for ( const z of r.clusters.zooms ) {
			lines.push(
				`${ String( z.zoom ).padStart( 4 ) } | ${ String( z.tiles ).padStart( 5 ) } | ${ `${ z.marks } (${ z.supercluster_marks })`.padEnd( 20 ) } | ${ String( z.ratio ).padEnd( 5 ) } | ${ `${ z.spacing_px } (${ z.supercluster_spacing_px })`.padEnd( 31 ) } | ${ `${ z.matched }/${ z.clusters }`.padEnd( 16 ) } | ${ z.same_expansion }/${ z.matched }`
			);
		}
	}
	return lines.join( '\n' );
}

/**
 * The issue's targets, checked on the largest size measured (the 1M run) and on every size.
 * @param runs
 */
export function targets( runs ) {
	const largest = runs[ runs.length - 1 ];
	const at = `${ largest.markers.toLocaleString( 'en-US' ) }`;
	const out = [];
	const check = ( id, label, value, pass ) =>
		out.push( { id, label, value, pass } );
	const staticP95 = largest.tiles.static_not_modified?.p95_ms ?? null;
	check(
		'tile_warm',
		`tile warm p95 ≤ ${ TARGETS.warm_p95_ms } ms at ${ at }`,
		`${ largest.tiles.warm.p95_ms } ms`,
		largest.tiles.warm.p95_ms <= TARGETS.warm_p95_ms
	);
	check(
		'tile_304',
		`tile 304 p95 ≤ ${ TARGETS.vs_static } × a static file's 304 p95 (same nginx, interleaved) at ${ at }`,
		staticP95
			? `${ largest.tiles.not_modified.p95_ms } ms vs ${ staticP95 } ms (× ${ ( largest.tiles.not_modified.p95_ms / staticP95 ).toFixed( 2 ) })`
			: 'no static file measured',
		Boolean( staticP95 ) &&
			largest.tiles.not_modified.p95_ms <= TARGETS.vs_static * staticP95
	);
	// The same through nginx's proxy_cache (docs/cdn.md's set-up), when run.sh put one in front.
	const proxy = largest.tiles.proxy;
	if ( proxy ) {
		const proxyStatic = proxy.static_not_modified?.p95_ms ?? null;
		check(
			'tile_304_proxy',
			`tile 304 p95 through nginx proxy_cache ≤ ${ TARGETS.vs_static } × the static file's 304 p95 (same nginx, interleaved) at ${ at }`,
			proxyStatic
				? `${ proxy.not_modified.p95_ms } ms vs ${ proxyStatic } ms (× ${ ( proxy.not_modified.p95_ms / proxyStatic ).toFixed( 2 ) })`
				: 'no static file measured',
			Boolean( proxyStatic ) &&
				proxy.not_modified.p95_ms <= TARGETS.vs_static * proxyStatic
		);
	}
	check(
		'tile_cold',
		`tile cold p95 ≤ ${ TARGETS.cold_p95_ms } ms at ${ at }`,
		`${ largest.tiles.cold.p95_ms } ms`,
		largest.tiles.cold.p95_ms <= TARGETS.cold_p95_ms
	);
	check(
		'move_rebuild',
		`one place moved: save + next tile ≤ ${ TARGETS.rebuild_ms } ms at ${ at }`,
		largest.move?.rebuild_ms
			? `${ largest.move.rebuild_ms } ms`
			: String( largest.move?.skipped ),
		( largest.move?.rebuild_ms ?? Infinity ) <= TARGETS.rebuild_ms
	);
	const skipped = ( part ) => part?.skipped || null;
	check(
		'search',
		`search → list p95 ≤ ${ TARGETS.search_p95_ms } ms at ${ at }`,
		skipped( largest.search ) ?? `${ largest.search.first.p95_ms } ms`,
		! skipped( largest.search ) &&
			largest.search.first.p95_ms <= TARGETS.search_p95_ms
	);
	check(
		'list_move',
		`list after a move p95 ≤ ${ TARGETS.list_p95_ms } ms at ${ at }`,
		skipped( largest.list ) ?? `${ largest.list.p95_ms } ms`,
		! skipped( largest.list ) && largest.list.p95_ms <= TARGETS.list_p95_ms
	);
	check(
		'search_tiles',
		`a broad search's cold z0–3 tiles p95 ≤ ${ TARGETS.search_tiles_p95_ms } ms at ${ at }`,
		largest.search_tiles?.p95_ms
			? `${ largest.search_tiles.p95_ms } ms`
			: 'not measured',
		Boolean( largest.search_tiles?.p95_ms ) &&
			largest.search_tiles.p95_ms <= TARGETS.search_tiles_p95_ms
	);
	check(
		'near',
		`near a place (summary + list) p95 ≤ ${ TARGETS.near_p95_ms } ms at ${ at }`,
		skipped( largest.near ) ??
			( largest.near
				? `${ largest.near.first.p95_ms } ms`
				: 'not measured' ),
		Boolean( largest.near?.first ) &&
			largest.near.first.p95_ms <= TARGETS.near_p95_ms
	);
	check(
		'geocode_cached',
		`a visitor's cached address p95 ≤ ${ TARGETS.geocode_cached_p95_ms } ms at ${ at }`,
		skipped( largest.visitor_geocode ) ??
			( largest.visitor_geocode
				? `${ largest.visitor_geocode.cached.p95_ms } ms (${ largest.visitor_geocode.answered_with_a_place }/${ largest.visitor_geocode.towns } with a place)`
				: 'not measured' ),
		Boolean( largest.visitor_geocode?.cached ) &&
			largest.visitor_geocode.cached.p95_ms <=
				TARGETS.geocode_cached_p95_ms &&
			largest.visitor_geocode.answered_with_a_place ===
				largest.visitor_geocode.towns
	);
	const zooms = largest.clusters?.zooms ?? [];
	if ( zooms.length ) {
		const off = zooms.filter( ( z ) =>
			null === z.ratio
				? z.marks > 0
				: Math.abs( z.ratio - 1 ) > TARGETS.clusters_ratio
		);
		const ratios = zooms
			.map( ( z ) => z.ratio )
			.filter( ( ratio ) => null !== ratio );
		check(
			'clusters_marks',
			`marks per zoom within ${ TARGETS.clusters_ratio * 100 } % of supercluster's, z0–${ zooms[ zooms.length - 1 ].zoom } at ${ at }`,
			off.length
				? `off at z${ off.map( ( z ) => `${ z.zoom } (× ${ z.ratio })` ).join( ', z' ) }`
				: `× ${ Math.min( ...ratios ) }–${ Math.max( ...ratios ) }`,
			0 === off.length
		);
		const least = Math.min( ...zooms.map( ( z ) => z.spacing_px ) );
		check(
			'clusters_spacing',
			`no two marks closer than radius × ${ TARGETS.clusters_spacing } (${ largest.clusters.radius * TARGETS.clusters_spacing } px) at any zoom at ${ at }`,
			`${ least } px`,
			least >= largest.clusters.radius * TARGETS.clusters_spacing
		);
		const matched = zooms.reduce( ( n, z ) => n + z.matched, 0 );
		const same = zooms.reduce( ( n, z ) => n + z.same_expansion, 0 );
		out.push( {
			id: 'clusters_expansion',
			label: `expansion_zoom equal to supercluster's, of the clusters matched to one of its (same count, within radius / 4) at ${ at }`,
			value: `${ same } of ${ matched } (${ zooms.reduce( ( n, z ) => n + z.clusters, 0 ) } clusters)`,
			pass: null,
		} );
	}
	const peaks = runs.map( ( r ) =>
		Math.max( ...Object.values( r.peak_bytes ) )
	);
	check(
		'peak',
		`PHP peak ≤ ${ TARGETS.peak_mib } MiB on every request, every size`,
		peaks.map( ( p ) => `${ mib( p ) } MiB` ).join( ', ' ),
		peaks.every( ( p ) => p <= TARGETS.peak_mib * MiB )
	);
	for ( const r of runs ) {
		const failed = Object.entries( r.checks )
			.filter(
				( [ key, value ] ) =>
					false === value && 'config_from_route' !== key
			)
			.map( ( [ key ] ) => key );
		check(
			`checks_${ r.markers }`,
			`contract checks at ${ r.markers.toLocaleString( 'en-US' ) }`,
			failed.length ? `failed: ${ failed.join( ', ' ) }` : 'all pass',
			0 === failed.length
		);
	}
	if ( largest.markers < TARGETS.large ) {
		out.push( {
			id: 'size',
			label: `the targets are set at ${ TARGETS.large.toLocaleString( 'en-US' ) } places`,
			value: `largest size measured: ${ at }`,
			pass: null,
		} );
	}
	return out;
}

function main() {
	const args = Object.fromEntries(
		process.argv.slice( 2 ).reduce( ( pairs, arg, i, all ) => {
			if ( arg.startsWith( '--' ) ) {
				pairs.push( [ arg.slice( 2 ), all[ i + 1 ] ] );
			}
			return pairs;
		}, [] )
	);
	const sizes = String( args.sizes ).split( ',' ).map( Number );
	const runs = sizes.map( ( size ) =>
		JSON.parse(
			fs.readFileSync(
				path.join( args.dir, `size-${ size }.json` ),
				'utf8'
			)
		)
	);
	const cpus = os.cpus().length;
	const environment = {
		server: process.env.BENCH_SERVER_DESC || null,
		mariadb: process.env.BENCH_MARIADB_VERSION || null,
		php: runs[ 0 ].runtime?.php || null,
		wordpress: runs[ 0 ].runtime?.wordpress || null,
		node: process.version,
		cpus,
		load_average_before: process.env.BENCH_LOAD_BEFORE || null,
		load_average_after: process.env.BENCH_LOAD_AFTER || null,
		elapsed_seconds: Number( process.env.BENCH_ELAPSED_SECONDS ) || null,
	};
	const checks = targets( runs );
	const out = [];
	out.push(
		`bench:api:tiles — ${ environment.server || 'server ?' }, MariaDB ${ environment.mariadb || '?' }, PHP ${ environment.php || '?' }`
	);
	out.push(
		`load average at the start: ${ environment.load_average_before || '?' } (${ cpus } CPUs), at the end: ${ environment.load_average_after || '?' }`
	);
	if (
		Number(
			String( environment.load_average_before || '0' ).split( ' ' )[ 0 ]
		) >
		0.5 * cpus
	) {
		out.push(
			'WARNING: the machine was busy when the run started: every number is slower than on an idle machine'
		);
	}
	out.push(
		`tilesUrl ${ runs[ 0 ].config.tiles }${ runs[ 0 ].config.fromRoute ? '' : ' (built by the bench: the maps route gave no tilesUrl)' }`
	);
	out.push( '' );
	out.push( table( runs ) );
	out.push( '' );
	const clusters = clustersTable( runs );
	if ( clusters ) {
		out.push( clusters, '' );
	}
	for ( const t of checks ) {
		out.push(
			`${ { true: 'PASS', false: 'FAIL' }[ t.pass ] ?? 'NOTE' }  ${ t.label }: ${ t.value }`
		);
	}
	const text = out.join( '\n' );
	// eslint-disable-next-line no-console
	console.log( text );
	const date = new Date().toISOString();
	const root = path.resolve(
		path.dirname( fileURLToPath( import.meta.url ) ),
		'../..'
	);
	const { commit, dirty } = gitState( root );
	const result = {
		benchmark: 'api',
		only: 'tiles',
		date,
		commit,
		dirty,
		environment,
		targets: checks,
		sizes: runs,
		table: text,
	};
	if ( '1' !== process.env.BENCH_NO_RESULTS ) {
		recordRun(
			args.results,
			'api-only-tiles-latest.json',
			result,
			historyRow( {
				benchmark: 'api',
				date,
				commit,
				dirty,
				loadAverage: parseLoadAverage(
					environment.load_average_before
				),
				only: 'tiles',
				numbers: tilesApiNumbers( result ),
			} )
		);
		// eslint-disable-next-line no-console
		console.log(
			`\nwrote bench/results/api-only-tiles-latest.json and a row in bench/results/${ HISTORY_FILE }`
		);
	}
	if (
		'1' === process.env.BENCH_STRICT &&
		checks.some( ( t ) => false === t.pass )
	) {
		process.exitCode = 1;
	}
}

if ( process.argv[ 1 ] === fileURLToPath( import.meta.url ) ) {
	main();
}
