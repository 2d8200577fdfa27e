#!/usr/bin/env node
/**
 * `npm start`: one command from a fresh clone to a running site with demo content.
 *
 * 1. builds the plugin (`npm run build`) when build/ is missing or older than src/;
 * 2. provisions WordPress core into .cache/wordpress (bin/wp-core.sh, works offline);
 * 3. points wp-env at that core (.wp-env.override.json) and seeds wp-env's version cache,
 *    so it never needs wordpress.org;
 * 4. `wp-env start --runtime=playground` (WordPress in WebAssembly + SQLite, no Docker) on a
 *    fresh copy of core in wp-env's work folder (Playground writes wp-config.php and the SQLite
 *    database into the core it mounts). wp-env spawns the Playground server detached and records
 *    its pid in its work folder, so the site keeps running after this script exits; `npm stop`
 *    ends it;
 * 5. seeds demo content over the REST API (bin/seed.mjs) and prints the URL and the log-in.
 *    Without MAPBOX_ACCESS_TOKEN the seed also builds the self-hosted world basemap
 *    (bin/build-basemap.mjs, .cache/basemap/world.pmtiles, ~3 s), uploads it to the media library
 *    and makes it the site's basemap (`cairn_maps_basemap` = `pmtiles://…`), so every demo map
 *    draws offline with no token; with the token the demo keeps Mapbox. The site's root gets
 *    bin/site-root/cairn-byte-range.php, which answers the archive's Range requests (Playground
 *    answers ranges of static files with the whole file).
 *
 * Re-running while the site is up skips the start and only re-seeds (idempotent).
 *
 * Options (flags or environment):
 *   --port=N     | WP_ENV_PORT=N        port (default: .wp-env.json's, 8888)
 *   --no-seed    | CAIRN_SEED=none      no demo content (tests)
 *   --no-build   | CAIRN_BUILD=skip     never run the build
 *   --demo-size=N | CAIRN_DEMO_SIZE=N   also N generated places (1–200,000) and a page of them,
 *                                        its place index built before the URL is printed
 *                                        (12,000: tiled, about a minute on Playground)
 *   WP_ENV_HOME                          wp-env's work folder (default ~/.wp-env); a second site
 *                                        needs its own WP_ENV_HOME as well as its own port
 *   CAIRN_START_TIMEOUT=seconds          give up on wp-env start after this long (default 180)
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = path.resolve(
	path.dirname( fileURLToPath( import.meta.url ) ),
	'..'
);
const WP_ENV_BIN = path.join(
	ROOT,
	'node_modules',
	'@wordpress',
	'env',
	'bin',
	'wp-env'
);

export function log( message ) {
	process.stderr.write( `[cairn] ${ message }\n` );
}

export function fail( message ) {
	process.stderr.write( `[cairn] ERROR: ${ message }\n` );
	process.exit( 1 );
}

/** The site's port: WP_ENV_PORT, else .wp-env.json's "port", else wp-env's default. */
export function sitePort() {
	if ( process.env.WP_ENV_PORT ) {
		return Number( process.env.WP_ENV_PORT );
	}
	try {
		const config = JSON.parse(
			fs.readFileSync( path.join( ROOT, '.wp-env.json' ), 'utf8' )
		);
		return Number( config.port ) || 8888;
	} catch {
		return 8888;
	}
}

/**
 * wp-env's per-project work folder, computed the way @wordpress/env 11 does
 * (lib/config/load-config.js + get-cache-directory.js): WP_ENV_HOME or ~/.wp-env (~/wp-env when
 * /snap exists), then md5( config path ) if that legacy folder exists, else
 * `wp-env-<project>-<md5 prefix>`. It holds wp-env-cache.json, playground.pid and playground.log.
 */
export function wpEnvWorkDirectory() {
	const home = process.env.WP_ENV_HOME
		? path.resolve( process.env.WP_ENV_HOME )
		: path.join(
				os.homedir(),
				fs.existsSync( '/snap' ) ? 'wp-env' : '.wp-env'
			);
	const configFile = path.resolve( ROOT, '.wp-env.json' );
	const hash = createHash( 'md5' ).update( configFile ).digest( 'hex' );
	const legacy = path.join( home, hash );
	if ( fs.existsSync( legacy ) ) {
		return legacy;
	}
	return path.join(
		home,
		`wp-env-${ path.basename( ROOT ) }-${ hash.slice( 0, 8 ) }`
	);
}

/** Pid of the Playground server wp-env recorded, if that process is alive. */
export function runningServerPid() {
	const pidFile = path.join( wpEnvWorkDirectory(), 'playground.pid' );
	let pid;
	try {
		pid = Number.parseInt( fs.readFileSync( pidFile, 'utf8' ).trim(), 10 );
	} catch {
		return null;
	}
	if ( ! pid ) {
		return null;
	}
	try {
		process.kill( pid, 0 );
		return pid;
	} catch {
		return null;
	}
}

/**
 * The port a Playground server process listens on, read from its command line (Linux).
 *
 * @param {number} pid Server process id.
 * @return {number|null} The port, or null when unknown.
 */
function serverPort( pid ) {
	try {
		const args = fs
			.readFileSync( `/proc/${ pid }/cmdline`, 'utf8' )
			.split( '\0' );
		const index = args.indexOf( '--port' );
		return index >= 0 ? Number( args[ index + 1 ] ) : null;
	} catch {
		return null;
	}
}

/**
 * GET with a hard timeout.
 *
 * @param {string} url               Address.
 * @param {Object} options           Options.
 * @param {number} options.timeoutMs Give up after this long.
 * @param {Object} options.headers   Request headers.
 * @return {Promise<Response|null>} The response, or null when nothing answers.
 */
export async function probe( url, { timeoutMs = 5000, headers = {} } = {} ) {
	try {
		return await fetch( url, {
			redirect: 'manual',
			headers,
			signal: AbortSignal.timeout( timeoutMs ),
		} );
	} catch {
		return null;
	}
}

/**
 * Runs wp-env with the given arguments.
 *
 * @param {string[]} args              wp-env arguments.
 * @param {Object}   options           Options.
 * @param {number}   options.timeoutMs Stop it after this long.
 * @return {Promise<number>} Its exit code.
 */
export function runWpEnv( args, { timeoutMs = 180000 } = {} ) {
	if ( ! fs.existsSync( WP_ENV_BIN ) ) {
		fail(
			'node_modules/@wordpress/env is missing: run `npm install` first.'
		);
	}
	return new Promise( ( resolve ) => {
		const child = spawn( process.execPath, [ WP_ENV_BIN, ...args ], {
			cwd: ROOT,
			stdio: [ 'ignore', 'inherit', 'inherit' ],
			env: process.env,
		} );
		const timer = setTimeout( () => {
			log(
				`wp-env ${ args[ 0 ] } did not finish within ${ timeoutMs / 1000 } s; stopping it.`
			);
			child.kill( 'SIGTERM' );
		}, timeoutMs );
		child.on( 'exit', ( code, signal ) => {
			clearTimeout( timer );
			resolve( code ?? ( signal ? 1 : 0 ) );
		} );
		child.on( 'error', ( error ) => {
			clearTimeout( timer );
			log( `could not run wp-env: ${ error.message }` );
			resolve( 1 );
		} );
	} );
}

/**
 * A stable folder named `cairn-maps` that links to this repository, so the plugin is mounted as
 * wp-content/plugins/cairn-maps whatever the clone is called (wp-env names a plugin folder after
 * the mounted path's basename). It lives outside the repository so that no tool walking the
 * repository meets a link back to its own root.
 */
export function pluginLink() {
	const cacheHome =
		process.env.XDG_CACHE_HOME || path.join( os.homedir(), '.cache' );
	const hash = createHash( 'md5' )
		.update( ROOT )
		.digest( 'hex' )
		.slice( 0, 8 );
	const link = path.join(
		cacheHome,
		'cairn-maps',
		'links',
		`${ path.basename( ROOT ) }-${ hash }`,
		'cairn-maps'
	);
	let current = null;
	try {
		current = fs.readlinkSync( link );
	} catch {
		// Missing (or not a link): (re)create below.
	}
	if ( current !== ROOT ) {
		// Made under a name of its own and renamed over the old one: the e2e run starts two sites
		// at once, and a remove-then-link by each could meet the other's new link (EEXIST).
		fs.mkdirSync( path.dirname( link ), { recursive: true } );
		const temporary = `${ link }.${ process.pid }.tmp`;
		fs.rmSync( temporary, { force: true } );
		fs.symlinkSync( ROOT, temporary, 'dir' );
		try {
			fs.renameSync( temporary, link );
		} catch {
			// A real folder in the way (rename cannot replace one): remove it, then rename.
			fs.rmSync( link, { recursive: true, force: true } );
			fs.renameSync( temporary, link );
		}
	}
	return link;
}

/**
 * Runs one of bin/'s provisioning scripts (wp-core.sh, wp-languages.sh), which print the folder
 * they made or found as their last line; their messages go to stderr.
 *
 * @param {string} script    File name in bin/.
 * @param {number} timeoutMs Give up after this long.
 * @return {string|null} The folder, or null when the script failed.
 */
export function scriptFolder( script, timeoutMs ) {
	const result = spawnSync( 'bash', [ path.join( ROOT, 'bin', script ) ], {
		cwd: ROOT,
		stdio: [ 'ignore', 'pipe', 'inherit' ],
		encoding: 'utf8',
		timeout: timeoutMs,
	} );
	return result.status === 0
		? result.stdout.trim().split( '\n' ).pop()
		: null;
}

/**
 * Writes a file whole or not at all (a temporary file renamed over it), so a second start running
 * beside this one never reads it half written.
 *
 * @param {string} file     Path.
 * @param {string} contents Text.
 */
function writeAtomically( file, contents ) {
	const temporary = `${ file }.${ process.pid }.tmp`;
	fs.writeFileSync( temporary, contents );
	fs.renameSync( temporary, file );
}

/**
 * WordPress Playground's PHP (php-wasm) keeps compiled scripts only in OPcache's file cache, with
 * `opcache.file_cache_consistency_checks` on: every request checksums each cached script before it
 * runs it. In WebAssembly that costs more than compiling the source again (measured here: the
 * plugin's 49 classes not yet loaded, 339 KB, take 80–93 ms from the file cache and 33–38 ms
 * compiled; a REST request falls from about 1.4 s to 0.9 s, 0.55–0.8 s once warm). Playground writes its php.ini
 * before the first request and offers no setting for it, so a site's wp-config.php switches
 * OPcache off for the rest of each request (OPcache may always be disabled at run time). Only the
 * scripts Playground itself prepends still come from the cache.
 *
 * For the Playground sites this project starts (npm start, the e2e sites, the release sites).
 */
const COMPILE_MARKER =
	'cairn: php-wasm compiles faster than its OPcache file cache';

/**
 * Makes a Playground site's wp-config.php switch OPcache off (once; later calls change nothing).
 *
 * @param {string} siteCore The site's WordPress folder (Playground's /wordpress on this machine).
 * @return {boolean} Whether wp-config.php now switches it off (false: no wp-config.php yet).
 */
export function compileInsteadOfFileCache( siteCore ) {
	const file = path.join( siteCore, 'wp-config.php' );
	let source;
	try {
		source = fs.readFileSync( file, 'utf8' );
	} catch {
		return false;
	}
	if ( source.includes( COMPILE_MARKER ) ) {
		return true;
	}
	if ( ! source.startsWith( '<?php' ) ) {
		return false;
	}
	writeAtomically(
		file,
		`<?php // ${ COMPILE_MARKER } (bin/start.mjs).\nini_set( 'opcache.enable', '0' );\n` +
			source.slice( '<?php'.length ).replace( /^[ \t]*\r?\n/, '' )
	);
	return true;
}

/**
 * Everything wp-env needs to run offline:
 * - WordPress core from bin/wp-core.sh (the pristine tree in .cache/wordpress);
 * - .wp-env.override.json with that core and the plugin mounted as `cairn-maps` (for hand-run
 *   wp-env commands too; other keys a developer put there are kept);
 * - the "latest WordPress version" wp-env insists on looking up: it asks wordpress.org unless its
 *   cache file holds one, even when "core" is a local folder.
 * Returns the pristine core folder and its version.
 */
export function prepareWpEnv() {
	const core = scriptFolder( 'wp-core.sh', 15 * 60 * 1000 );
	if ( ! core ) {
		fail(
			'bin/wp-core.sh could not provision WordPress core (see its message above).'
		);
	}
	const version = fs
		.readFileSync( path.join( core, 'wp-includes', 'version.php' ), 'utf8' )
		.match( /\$wp_version = '([^']+)'/ )?.[ 1 ];

	const overrideFile = path.join( ROOT, '.wp-env.override.json' );
	let override = {};
	if ( fs.existsSync( overrideFile ) ) {
		try {
			override = JSON.parse( fs.readFileSync( overrideFile, 'utf8' ) );
		} catch {
			fail( `${ overrideFile } is not valid JSON; fix or delete it.` );
		}
	}
	const wanted = {
		...override,
		core: './' + path.relative( ROOT, core ).split( path.sep ).join( '/' ),
		plugins: [ pluginLink() ],
	};
	if ( JSON.stringify( wanted ) !== JSON.stringify( override ) ) {
		writeAtomically(
			overrideFile,
			JSON.stringify( wanted, null, '\t' ) + '\n'
		);
	}

	const workDirectory = wpEnvWorkDirectory();
	const cacheFile = path.join( workDirectory, 'wp-env-cache.json' );
	let cache = {};
	try {
		cache = JSON.parse( fs.readFileSync( cacheFile, 'utf8' ) );
	} catch {
		// No cache yet.
	}
	if ( ! cache.latestWordPressVersion && version ) {
		cache.latestWordPressVersion = version;
		fs.mkdirSync( workDirectory, { recursive: true } );
		writeAtomically( cacheFile, JSON.stringify( cache ) );
	}
	return { core, version };
}

/**
 * A fresh copy of core for one site, in wp-env's work folder. Playground writes into the core it
 * mounts (wp-config.php, the SQLite database in wp-content/database, mount points), so a shared
 * core would leak one site's database into the next start and into every other site.
 *
 * @param {string} core The pristine core folder.
 * @return {string} The site's copy.
 */
export function freshSiteCore( core ) {
	const siteCore = path.join( wpEnvWorkDirectory(), 'wordpress' );
	fs.rmSync( siteCore, { recursive: true, force: true } );
	fs.mkdirSync( path.dirname( siteCore ), { recursive: true } );
	const copy = spawnSync( 'cp', [ '-a', core, siteCore ], {
		stdio: 'inherit',
	} );
	if ( copy.status !== 0 ) {
		fail( `could not copy ${ core } to ${ siteCore }` );
	}
	// Development-site helpers (see each file): not part of the plugin.
	const muPlugins = path.join( siteCore, 'wp-content', 'mu-plugins' );
	fs.mkdirSync( muPlugins, { recursive: true } );
	for ( const file of fs.readdirSync(
		path.join( ROOT, 'bin', 'site-mu-plugins' )
	) ) {
		fs.copyFileSync(
			path.join( ROOT, 'bin', 'site-mu-plugins', file ),
			path.join( muPlugins, file )
		);
	}
	// Development-site scripts outside WordPress (see each file), at the site's root.
	for ( const file of fs.readdirSync(
		path.join( ROOT, 'bin', 'site-root' )
	) ) {
		fs.copyFileSync(
			path.join( ROOT, 'bin', 'site-root', file ),
			path.join( siteCore, file )
		);
	}
	// Test-only plugins (tests/fixtures/plugins/*), installed but inactive: specs switch them on
	// and off over REST. Never part of the plugin.
	const fixturePlugins = path.join( ROOT, 'tests', 'fixtures', 'plugins' );
	for ( const name of fs.existsSync( fixturePlugins )
		? fs.readdirSync( fixturePlugins )
		: [] ) {
		fs.cpSync(
			path.join( fixturePlugins, name ),
			path.join( siteCore, 'wp-content', 'plugins', name ),
			{ recursive: true }
		);
	}
	return siteCore;
}

/**
 * Newest modification time (ms) of any file under dir, 0 when it does not exist.
 *
 * @param {string} dir Folder.
 * @return {number} Milliseconds since the epoch.
 */
function newestMtime( dir ) {
	let newest = 0;
	let entries;
	try {
		entries = fs.readdirSync( dir, { withFileTypes: true } );
	} catch {
		return 0;
	}
	for ( const entry of entries ) {
		const full = path.join( dir, entry.name );
		newest = Math.max(
			newest,
			entry.isDirectory()
				? newestMtime( full )
				: fs.statSync( full ).mtimeMs
		);
	}
	return newest;
}

function buildIfNeeded() {
	const built = path.join( ROOT, 'build', 'blocks', 'map', 'block.json' );
	const sourceTime = Math.max(
		newestMtime( path.join( ROOT, 'src' ) ),
		fs.statSync( path.join( ROOT, 'package.json' ) ).mtimeMs
	);
	if (
		fs.existsSync( built ) &&
		newestMtime( path.join( ROOT, 'build' ) ) >= sourceTime
	) {
		return;
	}
	log( 'building the plugin (npm run build)…' );
	const result = spawnSync( 'npm', [ 'run', 'build' ], {
		cwd: ROOT,
		stdio: 'inherit',
	} );
	if ( result.status !== 0 ) {
		fail( '`npm run build` failed; fix the build or run with --no-build.' );
	}
}

async function waitForSite( url, timeoutMs ) {
	const deadline = Date.now() + timeoutMs;
	while ( Date.now() < deadline ) {
		const response = await probe( url, { timeoutMs: 5000 } );
		if ( response && response.status < 500 ) {
			return true;
		}
		await new Promise( ( r ) => setTimeout( r, 1000 ) );
	}
	return false;
}

/**
 * What the big demo map is, in a few words.
 *
 * @param {{places: number, tiled: boolean}} big What bin/seed.mjs seeded.
 * @return {string} E.g. "12,000 places, served as tiles".
 */
function bigMapNote( big ) {
	const places = `${ big.places.toLocaleString( 'en' ) } places`;
	if ( big.tiled ) {
		return `${ places }, served as tiles`;
	}
	return big.places >= 10000
		? `${ places }, its index still being built by admin page loads`
		: `${ places }: maps of fewer than 10,000 send their whole feed`;
}

async function main() {
	const args = process.argv.slice( 2 );
	for ( const arg of args ) {
		if ( arg.startsWith( '--port=' ) ) {
			process.env.WP_ENV_PORT = arg.slice( 7 );
		} else if ( arg === '--no-seed' ) {
			process.env.CAIRN_SEED = 'none';
		} else if ( arg === '--no-build' ) {
			process.env.CAIRN_BUILD = 'skip';
		} else if ( arg.startsWith( '--demo-size=' ) ) {
			process.env.CAIRN_DEMO_SIZE = arg.slice( 12 );
		} else {
			fail(
				`unknown option ${ arg } (known: --port=N, --no-seed, --no-build, --demo-size=N)`
			);
		}
	}
	const { demoSize } = await import(
		pathToFileURL( path.join( ROOT, 'bin', 'seed.mjs' ) ).href
	);
	try {
		demoSize( process.env.CAIRN_DEMO_SIZE );
	} catch ( error ) {
		fail( error.message );
	}
	const started = Date.now();
	const port = sitePort();
	const siteUrl = `http://localhost:${ port }`;
	process.env.WP_ENV_PORT = String( port );

	if ( process.env.CAIRN_BUILD !== 'skip' ) {
		buildIfNeeded();
	}
	const { core } = prepareWpEnv();

	const ourPid = runningServerPid();
	if ( ourPid ) {
		// One site per wp-env work folder: never start a second one over it (wp-env would
		// overwrite its pid file and orphan the running server).
		const runningPort = serverPort( ourPid );
		if ( runningPort && runningPort !== port ) {
			fail(
				`this project's site already runs on port ${ runningPort } (pid ${ ourPid }). ` +
					'Stop it first (npm stop), or give the second site its own WP_ENV_HOME.'
			);
		}
		log(
			`the site is already running at ${ siteUrl } (pid ${ ourPid }); not starting it again.`
		);
		if ( ! ( await waitForSite( siteUrl + '/', 60000 ) ) ) {
			fail(
				`the running site (pid ${ ourPid }) does not answer at ${ siteUrl }; run npm stop and start again.`
			);
		}
	} else {
		if ( await probe( siteUrl + '/', { timeoutMs: 5000 } ) ) {
			fail(
				`something else answers on port ${ port }. Stop it, or pick another port: WP_ENV_PORT=8890 npm start`
			);
		}
		// WP_ENV_CORE outranks the override file: this site runs in its own copy of core.
		process.env.WP_ENV_CORE = freshSiteCore( core );
		log(
			`starting WordPress Playground on port ${ port } (wp-env --runtime=playground)…`
		);
		const timeoutMs =
			Number( process.env.CAIRN_START_TIMEOUT || 180 ) * 1000;
		const code = await runWpEnv( [ 'start', '--runtime=playground' ], {
			timeoutMs,
		} );
		if ( code !== 0 ) {
			fail(
				`wp-env start failed (exit ${ code }). Its server log: ${ path.join(
					wpEnvWorkDirectory(),
					'playground.log'
				) }`
			);
		}
		if ( ! ( await waitForSite( siteUrl + '/', 60000 ) ) ) {
			fail( `wp-env started but ${ siteUrl } does not answer.` );
		}
		// Each request about twice as fast: see compileInsteadOfFileCache().
		if ( ! compileInsteadOfFileCache( process.env.WP_ENV_CORE ) ) {
			log(
				'note: the site has no wp-config.php to switch its OPcache file cache off.'
			);
		}
		// A fresh site has no salts yet, and its first log-in can be refused by the next
		// request; one proven log-in now spares every later client (seed, tests) that trap.
		const { warmUp } = await import(
			pathToFileURL( path.join( ROOT, 'bin', 'seed.mjs' ) ).href
		);
		try {
			await warmUp( { siteUrl } );
		} catch ( error ) {
			fail(
				`the site does not accept the admin log-in: ${ error.message }`
			);
		}
	}
	log(
		`site up after ${ ( ( Date.now() - started ) / 1000 ).toFixed( 1 ) } s`
	);

	let pageUrl = null;
	let big = null;
	if ( ( process.env.CAIRN_SEED || 'demo' ) !== 'none' ) {
		const { seed } = await import(
			pathToFileURL( path.join( ROOT, 'bin', 'seed.mjs' ) ).href
		);
		try {
			( { pageUrl, big } = await seed( { siteUrl } ) );
		} catch ( error ) {
			fail( `seeding demo content failed: ${ error.message }` );
		}
	}

	const stopCommand = [
		process.env.WP_ENV_HOME
			? `WP_ENV_HOME=${ process.env.WP_ENV_HOME }`
			: null,
		port !== 8888 ? `WP_ENV_PORT=${ port }` : null,
		'npm stop',
	]
		.filter( Boolean )
		.join( ' ' );
	const lines = [
		'',
		`Cairn Maps is running (${ ( ( Date.now() - started ) / 1000 ).toFixed( 1 ) } s).`,
		pageUrl ? `  Demo page:  ${ pageUrl }` : null,
		big
			? `  Big map:    ${ big.pageUrl }   (${ bigMapNote( big ) })`
			: null,
		`  Site:       ${ siteUrl }/`,
		`  Dashboard:  ${ siteUrl }/wp-admin/   log in as admin / password`,
		'  Note: the Playground site logs every new browser in as admin automatically.',
		'  Every start is a fresh site (SQLite in a per-site copy of core): stopping it resets it.',
		`  Stop it with: ${ stopCommand }`,
		'',
	];
	process.stdout.write(
		lines.filter( ( line ) => line !== null ).join( '\n' ) + '\n'
	);
}

if ( import.meta.url === pathToFileURL( process.argv[ 1 ] ).href ) {
	main().catch( ( error ) => fail( error.stack || String( error ) ) );
}
