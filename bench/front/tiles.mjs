#!/usr/bin/env node
/**
 * `npm run bench:front:tiles` (issue 22): first clusters of a tiled map whose tiles come from the
 * real PHP, at 1,000, 100,000 and 1,000,000 places, against the same map without markers; and at
 * 1k/10k/20k/50k the tiled map against its whole feed (same WordPress, same places), to choose
 * `limits.json` `tiles.threshold`.
 *
 * Outside the bench site (no CAIRN_BENCH_WP): starts `bash bench/api/run.sh` with BENCH_ONLY=tiles
 * BENCH_MEASURE=0 (each size's database seeded and indexed once, then kept) and BENCH_THEN = this
 * script, which then finds CAIRN_BENCH_WP set: runs bench/front/tiles.bench.ts through Playwright
 * (CAIRN_BENCH_SPEC=tiles), prints the table, the targets and the threshold it recommends, writes
 * bench/results/front-tiles-latest.json and a history row (`"only": "tiles"`).
 *
 * Environment: CAIRN_BENCH_TILED_SIZES (1000,100000,1000000), CAIRN_BENCH_THRESHOLD_SIZES
 * (1000,10000,20000,50000), CAIRN_BENCH_RUNS (3 of each page), CAIRN_BENCH_TIMEOUT (s, 3600),
 * CAIRN_BENCH_NO_RESULTS=1 (print only), CHROMIUM_PATH; BENCH_HTTP_PORT / BENCH_DB_PORT as bench:api.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ensureBuild, runPlaywright } from './runner.mjs';
import {
	HISTORY_FILE,
	gitState,
	historyRow,
	loadAverage,
	recordRun,
} from '../history.mjs';

const ROOT = path.resolve(
	path.dirname( fileURLToPath( import.meta.url ) ),
	'..',
	'..'
);
const RESULTS = path.join( ROOT, 'bench', 'results' );
const RAW = path.join( RESULTS, 'front-tiles-raw.tmp' );
const TIMEOUT_S = Number( process.env.CAIRN_BENCH_TIMEOUT ?? 3600 );

// Issue 22's targets: what the places add to the first clusters at 1k, 100k and 1M; the place
// data before the first clusters and the long tasks the places add at 1M.
export const TARGETS = {
	addedMs: 300,
	bytesAt1M: 300_000,
	longTasksAddedAt1M: 150,
	large: 1_000_000,
};

function log( message ) {
	process.stderr.write( `[bench:front:tiles] ${ message }\n` );
}

const sub = ( a, b ) =>
	a === null || a === undefined || b === null || b === undefined
		? null
		: a - b;

/**
 * Per size: the medians and what the places add over the empty map (measured in the same runs).
 * @param {Object} raw The spec's raw results.
 */
export function rows( raw ) {
	return Object.entries( raw.sizes ?? {} )
		.map( ( [ n, entry ] ) => {
			const empty = entry.empty ?? {};
			const side = ( s ) =>
				s
					? {
							firstClusters: s.firstClusters,
							added: sub( s.firstClusters, empty.firstClusters ),
							longTasks: s.longTasks,
							longTasksAdded: sub( s.longTasks, empty.longTasks ),
							bytes: s.bytes,
							requests: s.requests,
							bytesUntilDone: s.bytesUntilDone,
							failed: s.failed,
						}
					: null;
			return {
				places: Number( n ),
				empty: empty.firstClusters ?? null,
				tiled: side( entry.tiled ),
				feed: side( entry.feed ),
				tiledUrlMissing: Boolean( entry.tiledUrlMissing ),
			};
		} )
		.sort( ( a, b ) => a.places - b.places );
}

/**
 * The threshold: the smallest measured size from which on the tiled map's first clusters come
 * no later than the whole feed's (every larger measured size too); null when the feed wins at
 * every size measured (then: above the largest).
 * @param {Object[]} list rows().
 */
export function recommend( list ) {
	const compared = list.filter(
		( r ) =>
			r.tiled?.added !== null &&
			r.tiled?.added !== undefined &&
			r.feed?.added !== null &&
			r.feed?.added !== undefined
	);
	// The same rule on the place data before the first clusters (steadier than times on a busy
	// machine): from which size on the tiles bring no more bytes than the whole feed.
	const byBytes = list.filter(
		( r ) =>
			typeof r.tiled?.bytes === 'number' &&
			typeof r.feed?.bytes === 'number'
	);
	let bytesThreshold = null;
	for ( let i = 0; i < byBytes.length; i++ ) {
		if (
			byBytes.slice( i ).every( ( r ) => r.tiled.bytes <= r.feed.bytes )
		) {
			bytesThreshold = byBytes[ i ].places;
			break;
		}
	}
	for ( let i = 0; i < compared.length; i++ ) {
		if (
			compared.slice( i ).every( ( r ) => r.tiled.added <= r.feed.added )
		) {
			return {
				threshold: compared[ i ].places,
				bytesThreshold,
				compared: compared.map( ( r ) => r.places ),
			};
		}
	}
	return {
		threshold: null,
		bytesThreshold,
		compared: compared.map( ( r ) => r.places ),
	};
}

export function checks( list ) {
	const out = [];
	for ( const r of list.filter( ( row ) =>
		[ 1000, 100_000, 1_000_000 ].includes( row.places )
	) ) {
		out.push( {
			id: `tiled_added_${ r.places }`,
			target: `first clusters minus the empty map, tiled, ${ r.places.toLocaleString( 'en-US' ) } places`,
			limit: `≤ ${ TARGETS.addedMs } ms`,
			value: r.tiled?.added ?? null,
			pass:
				r.tiled?.added !== null &&
				r.tiled?.added !== undefined &&
				r.tiled.added <= TARGETS.addedMs,
		} );
	}
	const large = list.find( ( r ) => r.places === TARGETS.large );
	if ( large ) {
		out.push( {
			id: 'tiled_bytes_1m',
			target: 'place data transferred before the first clusters, 1,000,000 places',
			limit: `≤ ${ TARGETS.bytesAt1M } B`,
			value: large.tiled?.bytes ?? null,
			pass: ( large.tiled?.bytes ?? Infinity ) <= TARGETS.bytesAt1M,
		} );
		out.push( {
			id: 'tiled_long_tasks_1m',
			target: 'long tasks the places add, 1,000,000 places',
			limit: `≤ ${ TARGETS.longTasksAddedAt1M } ms`,
			value: large.tiled?.longTasksAdded ?? null,
			pass:
				( large.tiled?.longTasksAdded ?? Infinity ) <=
				TARGETS.longTasksAddedAt1M,
		} );
	}
	return out;
}

function tiledCell( r ) {
	if ( r.tiled ) {
		return `${ r.tiled.firstClusters ?? '–' } (+${ r.tiled.added ?? '–' })`;
	}
	return r.tiledUrlMissing ? 'no tilesUrl' : '–';
}

export function table( list ) {
	const cell = ( v ) => ( v === null || v === undefined ? '–' : String( v ) );
	const kb = ( v ) =>
		v === null || v === undefined
			? '–'
			: `${ ( v / 1000 ).toFixed( 1 ) } kB`;
	const lines = [
		'places    | empty ms | tiled ms (+added) | long tasks (+added) | data before 1st clusters (req) | feed ms (+added) | feed data',
		'----------|----------|-------------------|---------------------|--------------------------------|------------------|----------',
	];
	for ( const r of list ) {
		lines.push(
			[
				String( r.places ).padEnd( 9 ),
				cell( r.empty ).padStart( 8 ),
				tiledCell( r ).padStart( 17 ),
				( r.tiled
					? `${ cell( r.tiled.longTasks ) } (+${ cell( r.tiled.longTasksAdded ) })`
					: '–'
				).padStart( 19 ),
				( r.tiled
					? `${ kb( r.tiled.bytes ) } (${ cell( r.tiled.requests ) })`
					: '–'
				).padStart( 30 ),
				( r.feed
					? `${ cell( r.feed.firstClusters ) } (+${ cell( r.feed.added ) })`
					: '–'
				).padStart( 16 ),
				r.feed ? kb( r.feed.bytes ) : '–',
			].join( ' | ' )
		);
	}
	return lines.join( '\n' );
}

function outside() {
	const sizes = [
		...new Set(
			[
				process.env.CAIRN_BENCH_TILED_SIZES ?? '1000,100000,1000000',
				process.env.CAIRN_BENCH_THRESHOLD_SIZES ??
					'1000,10000,20000,50000',
			]
				.join( ',' )
				.split( ',' )
				.map( Number )
				.filter( ( n ) => n > 0 )
		),
	].sort( ( a, b ) => a - b );
	log(
		`bench WordPress with ${ sizes.join( ', ' ) } places (bench/api/run.sh BENCH_ONLY=tiles BENCH_MEASURE=0)`
	);
	const result = spawnSync(
		'bash',
		[ path.join( ROOT, 'bench', 'api', 'run.sh' ) ],
		{
			stdio: 'inherit',
			env: {
				...process.env,
				BENCH_ONLY: 'tiles',
				BENCH_MEASURE: '0',
				BENCH_SIZES: sizes.join( ',' ),
				BENCH_TIMEOUT: String( TIMEOUT_S + 3600 ),
				BENCH_THEN: `node ${ JSON.stringify( fileURLToPath( import.meta.url ) ) }`,
			},
		}
	);
	process.exitCode = result.status ?? 1;
}

function inside() {
	ensureBuild( { root: ROOT, needed: [ 'build/blocks/map/view.js' ], log } );
	const load = loadAverage();
	log( `load average at the start: ${ load ? load.join( ' ' ) : '?' }` );
	const { raw, status } = runPlaywright( {
		root: ROOT,
		raw: RAW,
		timeoutS: TIMEOUT_S,
		env: { CAIRN_BENCH_SPEC: 'tiles' },
		log,
	} );
	const list = rows( raw );
	const targets = checks( list );
	const threshold = recommend( list );
	const out = [
		`bench:front:tiles — Chromium ${ raw.browser }, ${ raw.runs } runs of each page (medians), load ${ ( raw.loadAverageBefore ?? [] ).join( ' ' ) } → ${ ( raw.loadAverageAfter ?? [] ).join( ' ' ) } (${ raw.cpus } CPUs)`,
		'',
		table( list ),
		'',
		...targets.map(
			( t ) =>
				`${ t.pass ? 'PASS' : 'FAIL' }  ${ t.target }: ${ t.value ?? '–' } (${ t.limit })`
		),
		threshold.threshold
			? `threshold: tiled first clusters no later than the whole feed's from ${ threshold.threshold.toLocaleString( 'en-US' ) } places on (compared at ${ threshold.compared.join( ', ' ) }): limits.json tiles.threshold = ${ threshold.threshold }`
			: `threshold: the whole feed was as fast or faster at every size compared (${ threshold.compared.join( ', ' ) || 'none' }): keep tiles.threshold above the largest`,
		`bytes: the tiles bring no more place data before the first clusters than the whole feed ${ threshold.bytesThreshold ? `from ${ threshold.bytesThreshold.toLocaleString( 'en-US' ) } places on` : 'at none of the sizes compared' }`,
	];
	const text = out.join( '\n' );
	// eslint-disable-next-line no-console
	console.log( text );
	const date = new Date().toISOString();
	const { commit, dirty } = gitState( ROOT );
	const result = {
		benchmark: 'front',
		only: 'tiles',
		date,
		commit,
		dirty,
		raw,
		rows: list,
		targets,
		threshold,
		table: text,
	};
	if ( process.env.CAIRN_BENCH_NO_RESULTS !== '1' ) {
		const bySize = ( pick ) =>
			Object.fromEntries(
				list.flatMap( ( r ) =>
					pick( r ) === null || pick( r ) === undefined
						? []
						: [ [ String( r.places ), pick( r ) ] ]
				)
			);
		recordRun(
			RESULTS,
			'front-tiles-latest.json',
			result,
			historyRow( {
				benchmark: 'front',
				date,
				commit,
				dirty,
				loadAverage: raw.loadAverageBefore ?? load,
				only: 'tiles',
				numbers: {
					tiled_added_ms: bySize( ( r ) => r.tiled?.added ),
					feed_added_ms: bySize( ( r ) => r.feed?.added ),
					tiled_bytes: bySize( ( r ) => r.tiled?.bytes ),
					tiled_long_tasks_added_ms: bySize(
						( r ) => r.tiled?.longTasksAdded
					),
					threshold: threshold.threshold,
					bytes_threshold: threshold.bytesThreshold,
					targets_failed: targets
						.filter( ( t ) => ! t.pass )
						.map( ( t ) => t.id ),
				},
			} )
		);
		log(
			`wrote bench/results/front-tiles-latest.json and a row in bench/results/${ HISTORY_FILE }`
		);
	}
	if ( status !== 0 ) {
		process.exitCode = status;
	}
}

if ( process.argv[ 1 ] === fileURLToPath( import.meta.url ) ) {
	if ( process.env.CAIRN_BENCH_WP ) {
		inside();
	} else {
		outside();
	}
}
