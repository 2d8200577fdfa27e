#!/usr/bin/env node
/**
 * Builds the headless example into examples/headless/dist with Vite's JavaScript API.
 *
 *   node examples/headless/build.mjs                       build it
 *   node examples/headless/build.mjs --if-stale            only when dist/ is missing or older than
 *                                                          the example's sources or the package's dist/
 *   node examples/headless/build.mjs --if-stale --package  the same, after building @cairn-maps/map
 *                                                          when its dist/ is missing or older than its sources
 *
 * The e2e spec (tests/e2e/headless.spec.ts) runs it with `--if-stale`; `npm run build` builds the
 * package before the suite. Variables named VITE_* in the environment are built in (see README.md),
 * and a build with other values than the last one's is stale.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname( fileURLToPath( import.meta.url ) );
const packageDir = path.resolve( here, '../../packages/map' );

/**
 * The newest modification time under the given files and folders (0 when none exists).
 *
 * @param {string[]} entries Absolute paths.
 * @return {number} Milliseconds since the epoch.
 */
export function newest( entries ) {
	let time = 0;
	for ( const entry of entries ) {
		const stat = fs.statSync( entry, { throwIfNoEntry: false } );
		if ( stat?.isDirectory() ) {
			time = Math.max(
				time,
				newest(
					fs
						.readdirSync( entry )
						.map( ( name ) => path.join( entry, name ) )
				)
			);
		} else if ( stat ) {
			time = Math.max( time, stat.mtimeMs );
		}
	}
	return time;
}

/**
 * When a build was written: its entry file's time, or 0 when it is missing.
 *
 * @param {string} file The file a build writes last (or at least always).
 * @return {number} Milliseconds since the epoch.
 */
function builtAt( file ) {
	return fs.statSync( file, { throwIfNoEntry: false } )?.mtimeMs ?? 0;
}

/** Whether the package's dist/ is missing or older than its sources. */
export function packageIsStale() {
	const built = builtAt( path.join( packageDir, 'dist', 'index.js' ) );
	return (
		built === 0 ||
		newest( [
			path.join( packageDir, 'src' ),
			path.join( packageDir, 'build.mjs' ),
			path.join( packageDir, 'package.json' ),
		] ) > built
	);
}

/** Where a build records the VITE_* variables it was built with. */
const builtEnvFile = path.join( here, 'dist', '.build-env.json' );

/** The VITE_* variables of the environment (Vite builds them in), sorted by name. */
function viteEnv() {
	return JSON.stringify(
		Object.fromEntries(
			Object.entries( process.env )
				.filter( ( [ name ] ) => name.startsWith( 'VITE_' ) )
				.sort( ( [ a ], [ b ] ) => a.localeCompare( b ) )
		)
	);
}

/**
 * Whether the example's dist/ is missing, older than its sources or the package's dist/, or built
 * with other VITE_* variables (the sites it may read are one of them).
 */
export function exampleIsStale() {
	const builtEnv = fs.existsSync( builtEnvFile )
		? fs.readFileSync( builtEnvFile, 'utf8' )
		: null;
	if ( builtEnv !== viteEnv() ) {
		return true;
	}
	const built = builtAt( path.join( here, 'dist', 'index.html' ) );
	const envFiles = fs
		.readdirSync( here )
		.filter( ( name ) => name.startsWith( '.env' ) )
		.map( ( name ) => path.join( here, name ) );
	return (
		built === 0 ||
		newest( [
			path.join( here, 'src' ),
			path.join( here, 'index.html' ),
			path.join( here, 'vite.config.ts' ),
			path.join( here, 'package.json' ),
			path.join( packageDir, 'dist' ),
			...envFiles,
		] ) > built
	);
}

/** Builds the example. */
export async function buildExample() {
	// Imported here: Vite is a devDependency of the example only.
	const { build } = await import( 'vite' );
	await build( {
		root: here,
		configFile: path.join( here, 'vite.config.ts' ),
		logLevel: 'warn',
	} );
	fs.writeFileSync( builtEnvFile, viteEnv() );
}

if ( process.argv[ 1 ] === fileURLToPath( import.meta.url ) ) {
	const args = new Set( process.argv.slice( 2 ) );
	const ifStale = args.has( '--if-stale' );
	if ( args.has( '--package' ) && ( ! ifStale || packageIsStale() ) ) {
		console.log( 'Building @cairn-maps/map…' );
		execFileSync(
			process.execPath,
			[ path.join( packageDir, 'build.mjs' ) ],
			{
				stdio: 'inherit',
			}
		);
	}
	if ( ! fs.existsSync( path.join( packageDir, 'dist', 'index.js' ) ) ) {
		console.error(
			'@cairn-maps/map is not built: run `npm run build:package` (or add --package).'
		);
		process.exit( 1 );
	}
	if ( ifStale && ! exampleIsStale() ) {
		console.log(
			'The headless example is up to date (examples/headless/dist).'
		);
	} else {
		const started = Date.now();
		await buildExample();
		console.log(
			`The headless example is built (examples/headless/dist) in ${ (
				( Date.now() - started ) /
				1000
			).toFixed( 1 ) } s.`
		);
	}
}
