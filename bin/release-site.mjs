#!/usr/bin/env node
/**
 * A clean WordPress site with NO plugin mounted, for installing a release zip the way a site owner
 * does (Plugins → Add New → Upload Plugin). tests/e2e/release.spec.ts uses it; so can a person:
 *
 *   node bin/release-site.mjs start --port=8891 [--languages=de_DE[,fr_FR]] [--site-language=de_DE]
 *   node bin/release-site.mjs stop --port=8891
 *
 * From a spec: `const site = await startReleaseSite( { port: 8891, languages: [ 'de_DE' ] } );`
 * then `site.url`, and `await site.stop()` at the end.
 *
 * How it runs: wp-env's Playground CLI (`@wp-playground/cli server`, WordPress in WebAssembly
 * with SQLite), started the way wp-env's Playground runtime starts it — core mounted before
 * install from a folder, `--wordpress-install-mode install-from-existing-files-if-needed` — but
 * on a FRESH copy of core (bin/wp-core.sh's pristine tree) in .cache/release-sites/<port>/, since
 * Playground writes wp-config.php, the database and uploaded plugins into the core it mounts.
 * It runs detached in its own process group; the pid is recorded in that folder for `stop`.
 *
 * Unlike the development sites (`npm start`, the e2e site on 8889) it starts WITHOUT Playground's
 * `--login`: there is no auto-login, so a visitor is anonymous as on any real site and the admin
 * logs in through wp-login.php (admin / password, Playground's installer default). No
 * development mu-plugin is copied either (bin/site-mu-plugins only undoes the auto-login for REST).
 *
 * Languages (`languages`): core's translations for each locale (Debian's wordpress-l10n for the
 * same WordPress series, via bin/wp-languages.sh) go to wp-content/languages/, and every file in
 * tests/fixtures/languages/plugins/ to wp-content/languages/plugins/. `siteLanguage` also makes
 * that locale the site language (WPLANG) at install.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { compileInsteadOfFileCache, scriptFolder } from './start.mjs';

export const ROOT = path.resolve(
	path.dirname( fileURLToPath( import.meta.url ) ),
	'..'
);
const SITES = path.join( ROOT, '.cache', 'release-sites' );
const PLUGIN_LANGUAGE_FIXTURES = path.join(
	ROOT,
	'tests',
	'fixtures',
	'languages',
	'plugins'
);

export const ADMIN = { username: 'admin', password: 'password' };

const defaultLog = ( message ) =>
	process.stderr.write( `[release-site] ${ message }\n` );

/**
 * The folder of the site on a port: core copy, log and pid.
 *
 * @param {number} port The site's port.
 * @return {string} The folder.
 */
function siteFolder( port ) {
	return path.join( SITES, String( port ) );
}

function alive( pid ) {
	try {
		process.kill( pid, 0 );
		return true;
	} catch {
		return false;
	}
}

function recordedPid( port ) {
	try {
		const pid = Number.parseInt(
			fs.readFileSync( path.join( siteFolder( port ), 'pid' ), 'utf8' ),
			10
		);
		return pid > 0 ? pid : null;
	} catch {
		return null;
	}
}

/**
 * GET with a hard timeout; null when nothing answers.
 *
 * @param {string} url       Address.
 * @param {number} timeoutMs Give up after this long.
 * @return {Promise<Response|null>} The response.
 */
async function probe( url, timeoutMs = 5000 ) {
	try {
		return await fetch( url, {
			redirect: 'manual',
			signal: AbortSignal.timeout( timeoutMs ),
		} );
	} catch {
		return null;
	}
}

async function waitFor( check, timeoutMs, intervalMs = 500 ) {
	const deadline = Date.now() + timeoutMs;
	while ( Date.now() < deadline ) {
		if ( await check() ) {
			return true;
		}
		await new Promise( ( resolve ) => setTimeout( resolve, intervalMs ) );
	}
	return false;
}

/** bin/wp-core.sh's pristine core (provisioned on first use, offline through Debian). */
function pristineCore() {
	const core = scriptFolder( 'wp-core.sh', 15 * 60 * 1000 );
	if ( ! core ) {
		throw new Error( 'bin/wp-core.sh could not provision WordPress core' );
	}
	return core;
}

/** Core's translation folder from bin/wp-languages.sh. */
function coreLanguages() {
	const languages = scriptFolder( 'wp-languages.sh', 10 * 60 * 1000 );
	if ( ! languages ) {
		throw new Error(
			'bin/wp-languages.sh could not provide core translations'
		);
	}
	return languages;
}

/**
 * Copies core's translations for the locales, and the plugin translation fixtures.
 *
 * @param {string}   siteCore The site's core copy.
 * @param {string[]} locales  Locales such as de_DE.
 * @return {string[]} The files copied (relative to wp-content/languages).
 */
function installLanguages( siteCore, locales ) {
	const target = path.join( siteCore, 'wp-content', 'languages' );
	const source = coreLanguages();
	const copied = [];
	fs.mkdirSync( path.join( target, 'plugins' ), { recursive: true } );
	for ( const locale of locales ) {
		const files = fs
			.readdirSync( source )
			.filter(
				( name ) =>
					name === `${ locale }.mo` ||
					name === `${ locale }.po` ||
					name.endsWith( `-${ locale }.mo` ) ||
					name.endsWith( `-${ locale }.po` )
			);
		if ( ! files.includes( `${ locale }.mo` ) ) {
			throw new Error(
				`no core translation for ${ locale } in ${ source }`
			);
		}
		for ( const name of files ) {
			fs.copyFileSync(
				path.join( source, name ),
				path.join( target, name )
			);
			copied.push( name );
		}
	}
	if ( fs.existsSync( PLUGIN_LANGUAGE_FIXTURES ) ) {
		for ( const name of fs.readdirSync( PLUGIN_LANGUAGE_FIXTURES ) ) {
			const file = path.join( PLUGIN_LANGUAGE_FIXTURES, name );
			if ( fs.statSync( file ).isFile() ) {
				fs.copyFileSync( file, path.join( target, 'plugins', name ) );
				copied.push( `plugins/${ name }` );
			}
		}
	}
	return copied;
}

/**
 * Stops the release site on a port (if this script started one there) and removes its folder.
 *
 * @param {number}   port  Its port.
 * @param {Function} [log] Progress logger.
 */
export async function stopReleaseSite( port, log = defaultLog ) {
	const pid = recordedPid( port );
	if ( pid && alive( pid ) ) {
		for ( const signal of [ 'SIGTERM', 'SIGKILL' ] ) {
			try {
				// Detached: the server and its workers form one process group.
				process.kill( -pid, signal );
			} catch {
				// Already gone.
			}
			if ( await waitFor( () => ! alive( pid ), 5000, 100 ) ) {
				break;
			}
		}
		if ( alive( pid ) ) {
			throw new Error(
				`the release site on port ${ port } (pid ${ pid }) would not stop`
			);
		}
		log( `stopped the release site on port ${ port }` );
	}
	fs.rmSync( siteFolder( port ), { recursive: true, force: true } );
}

/**
 * Starts a fresh site with no plugin on a port.
 *
 * @param {Object}   options                Options.
 * @param {number}   options.port           Port (e.g. 8891; the e2e site has 8889).
 * @param {string[]} [options.languages]    Locales whose translations to install (e.g. ['de_DE']).
 * @param {string}   [options.siteLanguage] Locale to make the site language at install.
 * @param {number}   [options.timeoutMs]    Give up after this long (default 180 s).
 * @param {Function} [options.log]          Progress logger.
 * @return {Promise<{url: string, port: number, pid: number, folder: string, stop: () => Promise<void>}>} The site.
 */
export async function startReleaseSite( {
	port,
	languages = [],
	siteLanguage,
	timeoutMs = 180_000,
	log = defaultLog,
} ) {
	if ( ! Number.isInteger( port ) || port < 1024 ) {
		throw new Error( `startReleaseSite needs a port (got ${ port })` );
	}
	const started = Date.now();
	const url = `http://localhost:${ port }`;
	const folder = siteFolder( port );

	// A site an earlier run left behind (a crashed test) on this port: stop it first.
	await stopReleaseSite( port, log );
	if ( await probe( `${ url }/`, 2000 ) ) {
		throw new Error(
			`something else answers on port ${ port }; pick another port`
		);
	}
	if ( siteLanguage && ! languages.includes( siteLanguage ) ) {
		languages = [ ...languages, siteLanguage ];
	}

	const siteCore = path.join( folder, 'wordpress' );
	fs.mkdirSync( folder, { recursive: true } );
	const copy = spawnSync( 'cp', [ '-a', pristineCore(), siteCore ], {
		stdio: 'inherit',
	} );
	if ( copy.status !== 0 ) {
		throw new Error( `could not copy WordPress core to ${ siteCore }` );
	}
	if ( languages.length ) {
		const copied = installLanguages( siteCore, languages );
		log( `languages: ${ copied.join( ', ' ) }` );
	}

	const blueprint = {
		landingPage: '/wp-admin/',
		preferredVersions: { php: '8.2', wp: 'latest' },
		steps: siteLanguage
			? [ { step: 'setSiteOptions', options: { WPLANG: siteLanguage } } ]
			: [],
	};
	const blueprintFile = path.join( folder, 'blueprint.json' );
	fs.writeFileSync( blueprintFile, JSON.stringify( blueprint, null, '\t' ) );

	// The CLI wp-env itself depends on (and spawns the same way).
	const requireFromEnv = createRequire(
		createRequire( import.meta.url ).resolve(
			'@wordpress/env/package.json'
		)
	);
	const cli = path.join(
		path.dirname(
			requireFromEnv.resolve( '@wp-playground/cli/package.json' )
		),
		'wp-playground.js'
	);
	const logFile = path.join( folder, 'playground.log' );
	const output = fs.openSync( logFile, 'w' );
	const child = spawn(
		process.execPath,
		[
			cli,
			'server',
			'--port',
			String( port ),
			'--site-url',
			url,
			'--php',
			'8.2',
			'--blueprint',
			blueprintFile,
			'--mount-dir-before-install',
			siteCore,
			'/wordpress',
			'--wordpress-install-mode',
			'install-from-existing-files-if-needed',
		],
		{
			cwd: folder,
			detached: true,
			stdio: [ 'ignore', output, output ],
			env: { ...process.env, FORCE_COLOR: '0' },
		}
	);
	fs.closeSync( output );
	child.unref();
	fs.writeFileSync( path.join( folder, 'pid' ), String( child.pid ) );
	let exited = false;
	child.on( 'exit', () => ( exited = true ) );
	log( `starting a clean site on port ${ port } (pid ${ child.pid })…` );

	const up = await waitFor( async () => {
		if ( exited ) {
			return true;
		}
		const response = await probe( `${ url }/`, 5000 );
		return Boolean( response && response.status < 500 );
	}, timeoutMs );
	const tail = () =>
		fs
			.readFileSync( logFile, 'utf8' )
			.split( '\n' )
			.slice( -20 )
			.join( '\n' );
	if ( exited || ! up ) {
		await stopReleaseSite( port, log ).catch( () => {} );
		throw new Error(
			`the release site on port ${ port } did not start (${
				exited ? 'the server exited' : 'no answer in time'
			}). Its log:\n${ tail() }`
		);
	}

	// Each request about twice as fast: see compileInsteadOfFileCache() in bin/start.mjs.
	compileInsteadOfFileCache( siteCore );

	// A fresh site has no salts yet and may refuse its very first log-in: one proven log-in
	// now spares the browser that trap (bin/seed.mjs explains).
	const { warmUp } = await import(
		pathToFileURL( path.join( ROOT, 'bin', 'seed.mjs' ) ).href
	);
	await warmUp( { siteUrl: url } );

	log(
		`clean site up at ${ url } after ${ (
			( Date.now() - started ) /
			1000
		).toFixed( 1 ) } s`
	);
	return {
		url,
		port,
		pid: child.pid,
		folder,
		stop: () => stopReleaseSite( port, log ),
	};
}

async function main() {
	const [ command, ...args ] = process.argv.slice( 2 );
	const options = { port: 8891, languages: [] };
	for ( const arg of args ) {
		if ( arg.startsWith( '--port=' ) ) {
			options.port = Number( arg.slice( 7 ) );
		} else if ( arg.startsWith( '--languages=' ) ) {
			options.languages = arg.slice( 12 ).split( ',' ).filter( Boolean );
		} else if ( arg.startsWith( '--site-language=' ) ) {
			options.siteLanguage = arg.slice( 16 );
		} else {
			throw new Error(
				`unknown option ${ arg } (known: --port=N, --languages=de_DE,…, --site-language=de_DE)`
			);
		}
	}
	if ( command === 'start' ) {
		const site = await startReleaseSite( options );
		process.stdout.write(
			[
				`Clean site (no plugin) at ${ site.url }/ — log in as ${ ADMIN.username } / ${ ADMIN.password }.`,
				`Stop it with: node bin/release-site.mjs stop --port=${ site.port }`,
				'',
			].join( '\n' )
		);
	} else if ( command === 'stop' ) {
		await stopReleaseSite( options.port );
	} else {
		throw new Error(
			'usage: node bin/release-site.mjs start|stop [--port=8891] [--languages=de_DE] [--site-language=de_DE]'
		);
	}
}

if ( import.meta.url === pathToFileURL( process.argv[ 1 ] ).href ) {
	main().catch( ( error ) => {
		defaultLog( `ERROR: ${ error.message }` );
		process.exit( 1 );
	} );
}
