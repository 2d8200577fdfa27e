#!/usr/bin/env node
/**
 * `npm stop`: stops the Playground site `npm start` started (same WP_ENV_HOME / WP_ENV_PORT).
 *
 * Asks `wp-env stop` first (it kills the server's process group from the pid file in its work
 * folder); if the server is still alive after that, ends that process group itself. The site's
 * database lives in its copy of core, which is removed: the next start is a fresh site.
 */
import fs from 'node:fs';
import path from 'node:path';

import {
	log,
	probe,
	runningServerPid,
	runWpEnv,
	sitePort,
	wpEnvWorkDirectory,
} from './start.mjs';

function alive( pid ) {
	try {
		process.kill( pid, 0 );
		return true;
	} catch {
		return false;
	}
}

async function waitForExit( pid, timeoutMs ) {
	const deadline = Date.now() + timeoutMs;
	while ( alive( pid ) && Date.now() < deadline ) {
		await new Promise( ( r ) => setTimeout( r, 200 ) );
	}
	return ! alive( pid );
}

async function main() {
	const workDirectory = wpEnvWorkDirectory();
	const pid = runningServerPid();
	const port = sitePort();

	if ( ! pid ) {
		log(
			`no Playground site recorded in ${ workDirectory }; nothing to stop.`
		);
		if (
			await probe( `http://localhost:${ port }/`, { timeoutMs: 2000 } )
		) {
			log(
				`(something still answers on port ${ port }; it was not started by npm start here)`
			);
		}
		return;
	}

	// wp-env reads its configuration (and the cached WordPress version) even to stop.
	const code = await runWpEnv( [ 'stop' ], { timeoutMs: 60000 } );
	if ( code !== 0 ) {
		log(
			`wp-env stop exited with ${ code }; stopping the server process group ${ pid } directly.`
		);
	}
	if ( ! ( await waitForExit( pid, 5000 ) ) ) {
		for ( const signal of [ 'SIGTERM', 'SIGKILL' ] ) {
			try {
				// The server runs detached in its own process group (wp-env spawns it that way).
				process.kill( -pid, signal );
			} catch {
				// Already gone.
			}
			if ( await waitForExit( pid, 5000 ) ) {
				break;
			}
		}
	}
	if ( alive( pid ) ) {
		log( `the server (pid ${ pid }) would not stop.` );
		process.exit( 1 );
	}
	fs.rmSync( path.join( workDirectory, 'playground.pid' ), { force: true } );
	fs.rmSync( path.join( workDirectory, 'wordpress' ), {
		recursive: true,
		force: true,
	} );
	log( `stopped the site on port ${ port }.` );
}

main().catch( ( error ) => {
	log( `ERROR: ${ error.stack || error }` );
	process.exit( 1 );
} );
