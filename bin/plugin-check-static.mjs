#!/usr/bin/env node
/**
 * `npm run test:plugin-check`: the parts of WordPress.org's Plugin Check that the registries
 * reachable here can run, on the release zip, unpacked (what the directory receives, not the
 * checkout). Prints a report in Plugin Check's columns and exits 1 when it holds an ERROR.
 *
 *   node bin/plugin-check-static.mjs [--zip=FILE] [--json]
 *
 * Plugin Check itself (the plugin `plugin-check`, its sniffs `plugin-check/phpcs-sniffs`, the
 * readme parser it requires and `automattic/vipwpcs`) is in none of the registries these machines
 * reach (Packagist, npm, Debian), so `bash bin/plugin-check.sh`, which runs the real thing, needs
 * it brought by hand (PLUGIN_CHECK_DIR). What runs here instead:
 * - its PHPCS checks (late escaping, direct database queries, i18n, performant query params,
 *   enqueued resources, prefixing, the plugin review team's rules) with the sniffs of
 *   WordPress Coding Standards 2.3.0 and PHP_CodeSniffer from composer.lock:
 *   tests/plugin-check/ruleset.xml says which, and with which type;
 * - its file checks: no compressed, phar, application, hidden or badly named files (white space
 *   anywhere in the path, or one of !@#$%^&*()+=[]{};:"'<>,?/\|`~ in the name), no VCS folders;
 * - no localhost URL and no ALLOW_UNFILTERED_UPLOADS in PHP, no Update URI header;
 * - the plugin header's required fields and text domain, and readme.txt agreeing with it (stable
 *   tag = version, same Requires at least / Requires PHP, a Tested up to and a licence).
 * Not run: its runtime checks (enqueued scripts' size and scope, which need WordPress and the
 * plugin active), its readme parser's own warnings, its offloading and image-function sniffs.
 *
 * Work folder: .cache/plugin-check-static/ (the zip, unless --zip or CAIRN_PLUGIN_ZIP names one).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import {
	codeFindings,
	fileFindings,
	finding,
	headerFindings,
	walk,
} from './lib/plugin-check-rules.mjs';

const ROOT = path.resolve(
	path.dirname( fileURLToPath( import.meta.url ) ),
	'..'
);
const SLUG = 'cairn-maps';
const WORK = path.join( ROOT, '.cache', 'plugin-check-static' );
const RULESET = path.join( ROOT, 'tests', 'plugin-check', 'ruleset.xml' );

/**
 * PHPCS with tests/plugin-check/ruleset.xml on the unpacked plugin.
 *
 * @param {string} folder The unpacked plugin.
 * @return {Object[]} Findings.
 */
function phpcsFindings( folder ) {
	const result = spawnSync(
		path.join( ROOT, 'vendor', 'bin', 'phpcs' ),
		[ `--standard=${ RULESET }`, '--report=json', '-q', folder ],
		{ encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }
	);
	let report;
	try {
		report = JSON.parse( result.stdout );
	} catch {
		throw new Error(
			`phpcs gave no report (exit ${ result.status }): ${ ( result.stderr || result.stdout ).slice( 0, 2000 ) }`
		);
	}
	return Object.entries( report.files ).flatMap( ( [ file, { messages } ] ) =>
		messages.map( ( message ) =>
			finding(
				path.relative( folder, file ).split( path.sep ).join( '/' ),
				message.type,
				message.source,
				message.message,
				message.line
			)
		)
	);
}

/**
 * Runs every check on the release zip.
 *
 * @param {string} [zip] The zip (default: `npm run plugin-zip` into the work folder).
 * @return {Object[]} Findings, errors first.
 */
export function checkZip( zip ) {
	fs.mkdirSync( WORK, { recursive: true } );
	if ( ! zip ) {
		zip = path.join( WORK, `${ SLUG }.zip` );
		const made = spawnSync(
			process.execPath,
			[ path.join( ROOT, 'bin', 'plugin-zip.mjs' ), `--out=${ zip }` ],
			{ stdio: [ 'ignore', 'ignore', 'inherit' ] }
		);
		if ( made.status !== 0 ) {
			throw new Error( 'npm run plugin-zip failed (see above)' );
		}
	}
	const unpacked = path.join( WORK, 'unpacked' );
	fs.rmSync( unpacked, { recursive: true, force: true } );
	const unzip = spawnSync( 'unzip', [ '-q', zip, '-d', unpacked ], {
		encoding: 'utf8',
	} );
	if ( unzip.status !== 0 ) {
		throw new Error( `could not unpack ${ zip }: ${ unzip.stderr }` );
	}
	const folder = path.join( unpacked, SLUG );
	if ( ! fs.existsSync( path.join( folder, `${ SLUG }.php` ) ) ) {
		throw new Error( `${ zip } has no ${ SLUG }/${ SLUG }.php` );
	}
	const tree = walk( folder );
	return [
		...fileFindings( tree ),
		...headerFindings( folder ),
		...codeFindings( folder, tree.files ),
		...phpcsFindings( folder ),
	].sort(
		( a, b ) =>
			( a.type === 'ERROR' ? 0 : 1 ) - ( b.type === 'ERROR' ? 0 : 1 ) ||
			a.file.localeCompare( b.file ) ||
			a.line - b.line
	);
}

if ( import.meta.url === pathToFileURL( process.argv[ 1 ] ).href ) {
	const zipArg = process.argv
		.slice( 2 )
		.find( ( arg ) => arg.startsWith( '--zip=' ) );
	const zip = zipArg
		? path.resolve( zipArg.slice( 6 ) )
		: process.env.CAIRN_PLUGIN_ZIP;
	try {
		const started = Date.now();
		const findings = checkZip( zip );
		const errors = findings.filter( ( item ) => item.type === 'ERROR' );
		if ( process.argv.includes( '--json' ) ) {
			process.stdout.write(
				JSON.stringify( findings, null, '\t' ) + '\n'
			);
		} else {
			for ( const item of findings ) {
				process.stdout.write(
					`${ item.file }\t${ item.line }\t${ item.type }\t${ item.code }\t${ item.message }\n`
				);
			}
		}
		process.stderr.write(
			`[plugin-check] ${ errors.length } errors, ${ findings.length - errors.length } warnings (the static part of Plugin Check, ${ (
				( Date.now() - started ) /
				1000
			).toFixed( 1 ) } s)\n`
		);
		process.exit( errors.length ? 1 : 0 );
	} catch ( error ) {
		process.stderr.write( `[plugin-check] ERROR: ${ error.message }\n` );
		process.exit( 2 );
	}
}
