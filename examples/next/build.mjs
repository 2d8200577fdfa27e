#!/usr/bin/env node
/**
 * Builds the Next.js example as a user who installs @cairn-maps/map from npm would:
 *
 *   1. the package (`packages/map/build.mjs`) when its dist/ is missing or older than its sources;
 *   2. `npm pack` of packages/map into examples/next/.pack/cairn-maps-map.tgz;
 *   3. `npm ci` in examples/next (its own package.json and lock, Next.js and React from the npm
 *      registry, @cairn-maps/map from that tarball), then checks that what was installed is the
 *      tarball just packed;
 *   4. `next build`, which type-checks under the tsconfig.json's `moduleResolution: "node"`;
 *   5. `tsc -p tsconfig.bundler.json`: the same sources under `moduleResolution: "bundler"`.
 *
 *   node examples/next/build.mjs             all of it
 *   node examples/next/build.mjs --if-stale  only the steps whose inputs changed since they last ran
 *   node examples/next/build.mjs --start     then `next start` (PORT, default 3000; HOST, default
 *                                            127.0.0.1; CAIRN_SITE, default http://localhost:8888/)
 *
 * The lock leaves out the tarball's integrity on purpose: the tarball is packed anew from this
 * repository, and npm would otherwise install the copy of an earlier tarball from its cache.
 * tests/e2e/next.spec.ts runs this with `--if-stale`.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { newest, packageIsStale } from '../headless/build.mjs';

const here = path.dirname( fileURLToPath( import.meta.url ) );
const packageDir = path.resolve( here, '../../packages/map' );
const tarball = path.join( here, '.pack', 'cairn-maps-map.tgz' );
const installed = path.join( here, 'node_modules', '@cairn-maps', 'map' );
// Written once `next build` and the second type check have both passed.
const stamp = path.join( here, '.next', 'cairn-example-built' );
/** Next's command line, run with this Node (no shell, no npx). */
const nextBin = path.join(
	here,
	'node_modules',
	'next',
	'dist',
	'bin',
	'next'
);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };

/** What the app's build reads, besides node_modules. */
const SOURCES = [
	'app',
	'components',
	'site.ts',
	'next.config.mjs',
	'tsconfig.json',
	'tsconfig.bundler.json',
	'package.json',
].map( ( name ) => path.join( here, name ) );

/**
 * When a file was written, or 0 when it is missing.
 *
 * @param {string} file An absolute path.
 * @return {number} Milliseconds since the epoch.
 */
function writtenAt( file ) {
	return fs.statSync( file, { throwIfNoEntry: false } )?.mtimeMs ?? 0;
}

/**
 * Runs a step and says how long it took.
 *
 * @param {string}   label   What the step does.
 * @param {string}   command The program.
 * @param {string[]} args    Its arguments.
 * @param {string}   cwd     Where it runs.
 */
function run( label, command, args, cwd ) {
	const started = Date.now();
	console.log( `[next example] ${ label }…` );
	execFileSync( command, args, { cwd, env, stdio: 'inherit' } );
	console.log(
		`[next example] ${ label }: ${ (
			( Date.now() - started ) /
			1000
		).toFixed( 1 ) } s`
	);
}

/** Packs the package into .pack/cairn-maps-map.tgz. */
function pack() {
	const folder = fs.mkdtempSync( path.join( os.tmpdir(), 'cairn-pack-' ) );
	try {
		run(
			'npm pack of packages/map',
			npm,
			[ 'pack', '--silent', '--pack-destination', folder ],
			packageDir
		);
		const [ file ] = fs
			.readdirSync( folder )
			.filter( ( name ) => name.endsWith( '.tgz' ) );
		if ( ! file ) {
			throw new Error( 'npm pack wrote no tarball.' );
		}
		fs.mkdirSync( path.dirname( tarball ), { recursive: true } );
		fs.copyFileSync( path.join( folder, file ), tarball );
	} finally {
		fs.rmSync( folder, { recursive: true, force: true } );
	}
}

/**
 * Throws unless node_modules holds the package as it was just packed (npm can install an older
 * tarball's copy from its cache when the lock pins an integrity), with its dependencies.
 */
function checkInstalled() {
	const read = ( file ) => fs.readFileSync( file );
	for ( const file of [ 'dist/index.js', 'dist/react.js', 'package.json' ] ) {
		if (
			! read( path.join( installed, file ) ).equals(
				read( path.join( packageDir, file ) )
			)
		) {
			throw new Error(
				`examples/next/node_modules/@cairn-maps/map/${ file } differs from packages/map/${ file }. ` +
					'Run this script without --if-stale; if it persists, examples/next/package-lock.json ' +
					'pins an "integrity" for the tarball: remove that line.'
			);
		}
	}
	const manifest = JSON.parse(
		fs.readFileSync( path.join( installed, 'package.json' ), 'utf8' )
	);
	const needed = [
		...Object.keys( manifest.dependencies ?? {} ),
		...Object.keys( manifest.peerDependencies ?? {} ),
	];
	const missing = needed.filter(
		( name ) =>
			! fs.existsSync(
				path.join( here, 'node_modules', name, 'package.json' )
			)
	);
	if ( missing.length > 0 ) {
		throw new Error(
			`examples/next/node_modules lacks ${ missing.join( ', ' ) }, which @cairn-maps/map needs: ` +
				'add them to examples/next/package.json and its lock (npm install in examples/next).'
		);
	}
}

/**
 * Builds what is out of date (or everything).
 *
 * @param {{ ifStale?: boolean }} options `ifStale`: skip the steps whose inputs are older than their output.
 */
export function buildNextExample( { ifStale = false } = {} ) {
	const started = Date.now();
	if ( ! ifStale || packageIsStale() ) {
		run(
			'building @cairn-maps/map',
			process.execPath,
			[ path.join( packageDir, 'build.mjs' ) ],
			packageDir
		);
	}
	const packInputs = [
		path.join( packageDir, 'dist' ),
		path.join( packageDir, 'package.json' ),
		path.join( packageDir, 'README.md' ),
	];
	if ( ! ifStale || newest( packInputs ) > writtenAt( tarball ) ) {
		pack();
	}
	const installedAt = writtenAt(
		path.join( here, 'node_modules', '.package-lock.json' )
	);
	if (
		! ifStale ||
		Math.max(
			writtenAt( tarball ),
			writtenAt( path.join( here, 'package-lock.json' ) ),
			writtenAt( path.join( here, 'package.json' ) )
		) > installedAt
	) {
		run(
			'npm ci in examples/next',
			npm,
			[ 'ci', '--no-audit', '--no-fund', '--loglevel=error' ],
			here
		);
	}
	checkInstalled();
	const builtAt = writtenAt( stamp );
	if (
		! ifStale ||
		Math.max(
			newest( SOURCES ),
			writtenAt( path.join( here, 'node_modules', '.package-lock.json' ) )
		) > builtAt
	) {
		fs.rmSync( stamp, { force: true } );
		run(
			'next build (moduleResolution "node")',
			process.execPath,
			[ nextBin, 'build' ],
			here
		);
		run(
			'tsc under moduleResolution "bundler"',
			process.execPath,
			[
				path.join( here, 'node_modules', 'typescript', 'bin', 'tsc' ),
				'--noEmit',
				'-p',
				'tsconfig.bundler.json',
			],
			here
		);
		fs.writeFileSync( stamp, new Date().toISOString() + '\n' );
	} else {
		console.log(
			'[next example] the build is up to date (examples/next/.next).'
		);
	}
	console.log(
		`[next example] ready in ${ ( ( Date.now() - started ) / 1000 ).toFixed( 1 ) } s.`
	);
}

if ( process.argv[ 1 ] === fileURLToPath( import.meta.url ) ) {
	const args = new Set( process.argv.slice( 2 ) );
	try {
		buildNextExample( { ifStale: args.has( '--if-stale' ) } );
	} catch ( error ) {
		// A failed step has printed its own output; say which one, without a stack.
		console.error(
			`[next example] failed: ${ error.message.split( '\n' )[ 0 ] }`
		);
		process.exit( 1 );
	}
	if ( args.has( '--start' ) ) {
		const child = spawn(
			process.execPath,
			[
				nextBin,
				'start',
				'--port',
				process.env.PORT || '3000',
				'--hostname',
				process.env.HOST || '127.0.0.1',
			],
			{ cwd: here, env, stdio: 'inherit' }
		);
		child.on( 'exit', ( code ) => process.exit( code ?? 0 ) );
	}
}
