#!/usr/bin/env node
/**
 * Boots WordPress.org's Live Preview offline: the committed
 * `.wordpress-org/blueprints/blueprint.json` in the Playground CLI (the package
 * `@wp-playground/cli`, a dependency of wp-env), with its one change for this machine: the plugin is installed from the
 * release zip (`npm run plugin-zip`) beside a copy of the blueprint instead of from the plugin
 * directory (bin/blueprint.mjs `localBlueprint()`). WordPress core is bin/wp-core.sh's, copied
 * for this site and mounted, as bin/start.mjs does; nothing asks wordpress.org.
 *
 *   node bin/live-preview.mjs [--port=N] [--zip=FILE]    prints the demo page's URL; Ctrl-C stops it
 *
 * Its work folder is .cache/live-preview/<port>/ (the blueprint copy, the zip, the site's core and
 * the server's log), removed when it stops. tests/live-preview/ boots it the same way.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { BLUEPRINT_FILE, LANDING_PAGE, localBlueprint } from './blueprint.mjs';

const ROOT = path.resolve(
	path.dirname( fileURLToPath( import.meta.url ) ),
	'..'
);
const CLI = path.join(
	ROOT,
	'node_modules',
	'@wp-playground',
	'cli',
	'wp-playground.js'
);

/**
 * A free port on 127.0.0.1 below the ephemeral range (as bin/test-e2e.sh picks them).
 *
 * @return {Promise<number>} The port.
 */
export function freePort() {
	return new Promise( ( resolve, reject ) => {
		const attempt = ( left ) => {
			const port = 20000 + Math.floor( Math.random() * 12000 );
			const server = net.createServer();
			server.once( 'error', () =>
				left > 0
					? attempt( left - 1 )
					: reject( new Error( 'no free port' ) )
			);
			server.listen( { port, host: '127.0.0.1', exclusive: true }, () =>
				server.close( () => resolve( port ) )
			);
		};
		attempt( 20 );
	} );
}

/**
 * Runs a command; throws with its output when it fails.
 *
 * @param {string}   command Program.
 * @param {string[]} args    Arguments.
 * @return {string} Its standard output.
 */
function run( command, args ) {
	const result = spawnSync( command, args, {
		cwd: ROOT,
		encoding: 'utf8',
		stdio: [ 'ignore', 'pipe', 'pipe' ],
		timeout: 15 * 60 * 1000,
	} );
	if ( result.status !== 0 ) {
		throw new Error(
			`${ command } ${ args.join( ' ' ) } failed: ${ result.stderr || result.stdout }`
		);
	}
	return result.stdout;
}

/**
 * Starts the Live Preview on a port of its own and resolves once the blueprint has run and the
 * site answers.
 *
 * @param {Object}   options           Options.
 * @param {number}   [options.port]    Port (default: a free one).
 * @param {string}   [options.zip]     The release zip (default: `npm run plugin-zip` into the work folder).
 * @param {number}   [options.timeout] Milliseconds to wait for the site (default 240 000).
 * @param {Function} [options.log]     Progress logger.
 * @return {Promise<{url: string, landingUrl: string, log: string, stop: () => Promise<void>}>}
 *     The site's address, the demo page's, the server log's path, and how to stop it.
 */
export async function startLivePreview( {
	port,
	zip,
	timeout = 240000,
	log = ( message ) =>
		process.stderr.write( `[live-preview] ${ message }\n` ),
} = {} ) {
	const started = Date.now();
	port ??= await freePort();
	const work = path.join( ROOT, '.cache', 'live-preview', String( port ) );
	fs.rmSync( work, { recursive: true, force: true } );
	fs.mkdirSync( work, { recursive: true } );
	const localZip = path.join( work, 'cairn-maps.zip' );
	if ( zip ) {
		fs.copyFileSync( zip, localZip );
	} else {
		run( process.execPath, [
			path.join( ROOT, 'bin', 'plugin-zip.mjs' ),
			`--out=${ localZip }`,
		] );
	}
	const blueprint = localBlueprint(
		JSON.parse( fs.readFileSync( BLUEPRINT_FILE, 'utf8' ) ),
		path.basename( localZip )
	);
	const blueprintFile = path.join( work, 'blueprint.json' );
	fs.writeFileSync( blueprintFile, JSON.stringify( blueprint, null, '\t' ) );
	const core = run( 'bash', [ path.join( ROOT, 'bin', 'wp-core.sh' ) ] )
		.trim()
		.split( '\n' )
		.pop();
	const siteCore = path.join( work, 'wordpress' );
	run( 'cp', [ '-a', core, siteCore ] );
	log(
		`prepared in ${ ( ( Date.now() - started ) / 1000 ).toFixed( 1 ) } s`
	);

	const logFile = path.join( work, 'playground.log' );
	const output = fs.openSync( logFile, 'w' );
	const child = spawn(
		process.execPath,
		[
			CLI,
			'server',
			`--port=${ port }`,
			`--blueprint=${ blueprintFile }`,
			'--blueprint-may-read-adjacent-files',
			'--mount-dir-before-install',
			siteCore,
			'/wordpress',
			'--wordpress-install-mode=install-from-existing-files-if-needed',
		],
		{
			cwd: work,
			stdio: [ 'ignore', output, output ],
			env: { ...process.env, FORCE_COLOR: '0' },
		}
	);
	fs.closeSync( output );
	let exited = null;
	child.on( 'exit', ( code, signal ) => {
		exited = code ?? signal;
	} );
	const stop = async () => {
		if ( exited === null ) {
			child.kill( 'SIGTERM' );
			await new Promise( ( resolve ) => {
				const timer = setTimeout( () => {
					child.kill( 'SIGKILL' );
					resolve();
				}, 10000 );
				child.once( 'exit', () => {
					clearTimeout( timer );
					resolve();
				} );
			} );
		}
		fs.rmSync( work, { recursive: true, force: true } );
	};

	const url = `http://127.0.0.1:${ port }`;
	const deadline = started + timeout;
	// The CLI prints "Ready!" once the blueprint has run and the server listens.
	while ( ! /Ready!/.test( fs.readFileSync( logFile, 'utf8' ) ) ) {
		if ( exited !== null || Date.now() > deadline ) {
			const tail = fs
				.readFileSync( logFile, 'utf8' )
				.split( '\n' )
				.slice( -40 )
				.join( '\n' );
			await stop();
			throw new Error(
				`the Live Preview did not start (${
					exited !== null
						? `the Playground CLI exited: ${ exited }`
						: `not ready after ${ timeout / 1000 } s`
				}). End of its output:\n${ tail }`
			);
		}
		await new Promise( ( resolve ) => setTimeout( resolve, 250 ) );
	}
	log(
		`${ url } ready after ${ ( ( Date.now() - started ) / 1000 ).toFixed( 1 ) } s`
	);
	return { url, landingUrl: url + LANDING_PAGE, log: logFile, stop };
}

if ( import.meta.url === pathToFileURL( process.argv[ 1 ] ).href ) {
	const options = {};
	for ( const arg of process.argv.slice( 2 ) ) {
		if ( arg.startsWith( '--port=' ) ) {
			options.port = Number( arg.slice( 7 ) );
		} else if ( arg.startsWith( '--zip=' ) ) {
			options.zip = path.resolve( arg.slice( 6 ) );
		} else {
			process.stderr.write(
				`[live-preview] unknown option ${ arg } (known: --port=N, --zip=FILE)\n`
			);
			process.exit( 2 );
		}
	}
	startLivePreview( options )
		.then( ( site ) => {
			process.stdout.write(
				`Live Preview: ${ site.landingUrl }\n(Ctrl-C stops it)\n`
			);
			const end = () => site.stop().then( () => process.exit( 0 ) );
			process.on( 'SIGINT', end );
			process.on( 'SIGTERM', end );
		} )
		.catch( ( error ) => {
			process.stderr.write(
				`[live-preview] ERROR: ${ error.message }\n`
			);
			process.exit( 1 );
		} );
}
