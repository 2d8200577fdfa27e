#!/usr/bin/env node
/**
 * Splits the e2e spec files into N lists of about equal run time, for bin/test-e2e.sh's shards
 * (one Playground site and one Playwright process each). Prints one line per shard: its spec
 * files, space-separated.
 *
 * Times come from tests/e2e/durations.json (seconds per spec file, written by
 * `node bin/lib/e2e-split.mjs --record <playwright json report>…`); a spec it does not list yet
 * counts as the median. Longest first, each onto the shard with the least time so far (LPT).
 *
 * Usage: node bin/lib/e2e-split.mjs <shards>
 *        node bin/lib/e2e-split.mjs --record artifacts/e2e-1.json artifacts/e2e-2.json
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(
	path.dirname( fileURLToPath( import.meta.url ) ),
	'..',
	'..'
);
const SPECS = path.join( ROOT, 'tests', 'e2e' );
const DURATIONS = path.join( SPECS, 'durations.json' );

function readDurations() {
	try {
		return JSON.parse( fs.readFileSync( DURATIONS, 'utf8' ) );
	} catch {
		return {};
	}
}

/**
 * Records seconds per spec file from Playwright JSON reports (a test's results summed).
 *
 * @param {string[]} reports Paths of the reports.
 */
function record( reports ) {
	const durations = readDurations();
	const walk = ( suite, totals ) => {
		for ( const spec of suite.specs ?? [] ) {
			for ( const t of spec.tests ?? [] ) {
				for ( const r of t.results ?? [] ) {
					totals[ spec.file ] =
						( totals[ spec.file ] ?? 0 ) + r.duration / 1000;
				}
			}
		}
		for ( const child of suite.suites ?? [] ) {
			walk( child, totals );
		}
	};
	for ( const report of reports ) {
		const json = JSON.parse( fs.readFileSync( report, 'utf8' ) );
		const totals = {};
		for ( const suite of json.suites ?? [] ) {
			walk( suite, totals );
		}
		for ( const [ file, seconds ] of Object.entries( totals ) ) {
			durations[ path.basename( file ) ] = Math.round( seconds );
		}
	}
	const sorted = Object.fromEntries(
		Object.entries( durations ).sort( ( [ a ], [ b ] ) =>
			a.localeCompare( b )
		)
	);
	fs.writeFileSync( DURATIONS, JSON.stringify( sorted, null, '\t' ) + '\n' );
	process.stderr.write(
		`recorded ${ Object.keys( sorted ).length } spec files in ${ DURATIONS }\n`
	);
}

function split( shards ) {
	const durations = readDurations();
	const files = fs
		.readdirSync( SPECS )
		.filter( ( name ) => name.endsWith( '.spec.ts' ) )
		.sort();
	const known = files
		.map( ( f ) => durations[ f ] )
		.filter( Number.isFinite )
		.sort( ( a, b ) => a - b );
	const median = known.length ? known[ Math.floor( known.length / 2 ) ] : 60;
	const weighted = files
		.map( ( file ) => ( { file, seconds: durations[ file ] ?? median } ) )
		.sort(
			( a, b ) => b.seconds - a.seconds || a.file.localeCompare( b.file )
		);
	const bins = Array.from( { length: shards }, () => ( {
		seconds: 0,
		files: [],
	} ) );
	for ( const { file, seconds } of weighted ) {
		const bin = bins.reduce( ( least, b ) =>
			b.seconds < least.seconds ? b : least
		);
		bin.seconds += seconds;
		bin.files.push( `tests/e2e/${ file }` );
	}
	for ( const [ i, bin ] of bins.entries() ) {
		process.stderr.write(
			`[e2e-split] shard ${ i + 1 }: ${ bin.files.length } files, ~${ Math.round( bin.seconds ) } s\n`
		);
		process.stdout.write( bin.files.sort().join( ' ' ) + '\n' );
	}
}

const [ first, ...rest ] = process.argv.slice( 2 );
if ( first === '--record' ) {
	record( rest );
} else {
	const shards = Number( first );
	if ( ! Number.isInteger( shards ) || shards < 1 || shards > 8 ) {
		process.stderr.write(
			'usage: e2e-split.mjs <shards 1-8> | --record <report.json>…\n'
		);
		process.exit( 2 );
	}
	split( shards );
}
