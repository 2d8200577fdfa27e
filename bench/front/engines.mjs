#!/usr/bin/env node
/**
 * `npm run bench:front:engines` (issue 31): bench:front's engine dimension. The same page and the
 * same places on mapbox-gl (Mapbox Standard) and on maplibre-gl (OpenFreeMap Liberty), both from
 * the offline maps service: first draw and first clusters at 0, 1k and 100k places (whole feed),
 * and at 1M (tiled, from the real PHP), the JavaScript bytes per engine (gzip -9 of the files the
 * page loaded) and the requests before the first clusters. Target: on MapLibre the first
 * clusters come no later than on mapbox-gl, at every size (median; 50 ms of noise allowed).
 *
 * Without CAIRN_BENCH_ENGINE_TILED='' the 1M tiled part needs the bench WordPress: this script then
 * starts `bench/api/run.sh` (BENCH_ONLY=tiles BENCH_MEASURE=0, as bench:front:tiles does) and
 * runs again inside it. `CAIRN_BENCH_ENGINE_TILED= CAIRN_BENCH_ENGINE_SIZES=0,1000 npm run
 * bench:front:engines` is a quick run without WordPress. Run the 1M part on an idle machine.
 *
 * Environment: CAIRN_BENCH_ENGINE_SIZES (0,1000,100000), CAIRN_BENCH_ENGINE_TILED (1000000),
 * CAIRN_BENCH_RUNS (3), CAIRN_BENCH_TIMEOUT (s, 3600), CAIRN_BENCH_NO_RESULTS=1 (print only),
 * CHROMIUM_PATH. Writes bench/results/front-engines-latest.json and a history row
 * (`"only": "engines"`).
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
const RAW = path.join( RESULTS, 'front-engines-raw.tmp' );
const TIMEOUT_S = Number( process.env.CAIRN_BENCH_TIMEOUT ?? 3600 );
const TILED = ( process.env.CAIRN_BENCH_ENGINE_TILED ?? '1000000' )
	.split( ',' )
	.map( Number )
	.filter( ( n ) => n > 0 );
/** ms of run-to-run noise of one first frame on this set-up (front.bench.ts's margin). */
export const NOISE_MS = 50;

function log( message ) {
	process.stderr.write( `[bench:front:engines] ${ message }\n` );
}

/**
 * One row per size and kind: both engines' medians and MapLibre's difference.
 * @param {Object} raw The spec's raw results.
 */
export function rows( raw ) {
	const out = [];
	for ( const [ kind, entries ] of [
		[ 'feed', raw.sizes ?? {} ],
		[ 'tiled', raw.tiled ?? {} ],
	] ) {
		for ( const [ n, entry ] of Object.entries( entries ) ) {
			if ( ! entry.mapbox ) {
				continue;
			}
			const a = entry.mapbox;
			const b = entry.maplibre;
			out.push( {
				places: Number( n ),
				kind,
				mapbox: a,
				maplibre: b,
				pass:
					a.firstClusters !== null &&
					b.firstClusters !== null &&
					b.firstClusters <= a.firstClusters + NOISE_MS,
			} );
		}
	}
	return out;
}

export function table( list ) {
	const cell = ( v ) => ( v === null || v === undefined ? '–' : String( v ) );
	const kb = ( v ) =>
		v === null || v === undefined
			? '–'
			: `${ ( v / 1000 ).toFixed( 1 ) } kB`;
	const lines = [
		'places      | engine   | first draw ms | first clusters ms | long tasks ms | requests before | JS gzip | failed',
		'------------|----------|---------------|-------------------|---------------|-----------------|---------|-------',
	];
	for ( const r of list ) {
		for ( const engine of [ 'mapbox', 'maplibre' ] ) {
			const s = r[ engine ];
			lines.push(
				[
					`${ r.places } ${ r.kind }`.padEnd( 11 ),
					engine.padEnd( 8 ),
					cell( s.firstDraw ).padStart( 13 ),
					cell( s.firstClusters ).padStart( 17 ),
					cell( s.longTasks ).padStart( 13 ),
					cell( s.requests ).padStart( 15 ),
					kb( s.jsBytes ).padStart( 7 ),
					cell( s.failed ).padStart( 6 ),
				].join( ' | ' )
			);
		}
	}
	return lines.join( '\n' );
}

function outside() {
	log(
		`bench WordPress with ${ TILED.join( ', ' ) } places (bench/api/run.sh BENCH_ONLY=tiles BENCH_MEASURE=0)`
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
				BENCH_SIZES: TILED.join( ',' ),
				BENCH_TIMEOUT: String( TIMEOUT_S + 3600 ),
				BENCH_THEN: `node ${ JSON.stringify( fileURLToPath( import.meta.url ) ) }`,
			},
		}
	);
	process.exitCode = result.status ?? 1;
}

function inside() {
	ensureBuild( {
		root: ROOT,
		needed: [
			'build/blocks/map/view.js',
			'build/cairn-map-maplibre.js',
			'build/maplibre-gl-worker.js',
		],
		log,
	} );
	const load = loadAverage();
	log( `load average at the start: ${ load ? load.join( ' ' ) : '?' }` );
	const { raw, status } = runPlaywright( {
		root: ROOT,
		raw: RAW,
		timeoutS: TIMEOUT_S,
		env: { CAIRN_BENCH_SPEC: 'engines' },
		log,
	} );
	const list = rows( raw );
	const failed = list.filter( ( r ) => ! r.pass );
	const text = [
		`bench:front:engines — ${ raw.date } — load average ${ ( raw.loadAverageBefore ?? load ?? [] ).join( ' ' ) } before, ${ ( raw.loadAverageAfter ?? [] ).join( ' ' ) } after — medians of ${ raw.runs } runs each`,
		table( list ),
		`target (MapLibre's first clusters ≤ mapbox-gl's + ${ NOISE_MS } ms at every size): ${
			failed.length
				? `FAIL at ${ failed.map( ( r ) => `${ r.places } ${ r.kind }` ).join( ', ' ) }`
				: 'PASS'
		}`,
	].join( '\n' );
	// eslint-disable-next-line no-console
	console.log( text );
	const date = new Date().toISOString();
	const { commit, dirty } = gitState( ROOT );
	if ( process.env.CAIRN_BENCH_NO_RESULTS !== '1' ) {
		const bySize = ( engine, key ) =>
			Object.fromEntries(
				list.flatMap( ( r ) =>
					r[ engine ]?.[ key ] === null ||
					r[ engine ]?.[ key ] === undefined
						? []
						: [
								[
									`${ r.places }${ r.kind === 'tiled' ? 't' : '' }`,
									r[ engine ][ key ],
								],
							]
				)
			);
		recordRun(
			RESULTS,
			'front-engines-latest.json',
			{
				benchmark: 'front',
				only: 'engines',
				date,
				commit,
				dirty,
				raw,
				rows: list,
				table: text,
			},
			historyRow( {
				benchmark: 'front',
				date,
				commit,
				dirty,
				loadAverage: raw.loadAverageBefore ?? load,
				only: 'engines',
				numbers: {
					mapbox_first_clusters_ms: bySize(
						'mapbox',
						'firstClusters'
					),
					maplibre_first_clusters_ms: bySize(
						'maplibre',
						'firstClusters'
					),
					mapbox_js_gzip_bytes: bySize( 'mapbox', 'jsBytes' ),
					maplibre_js_gzip_bytes: bySize( 'maplibre', 'jsBytes' ),
					targets_failed: failed.map(
						( r ) =>
							`${ r.places }${ r.kind === 'tiled' ? 't' : '' }`
					),
				},
			} )
		);
		log(
			`wrote bench/results/front-engines-latest.json and a row in bench/results/${ HISTORY_FILE }`
		);
	}
	if ( status !== 0 || failed.length ) {
		process.exitCode = status || 1;
	}
}

if ( process.argv[ 1 ] === fileURLToPath( import.meta.url ) ) {
	if ( process.env.CAIRN_BENCH_WP || TILED.length === 0 ) {
		inside();
	} else {
		outside();
	}
}
