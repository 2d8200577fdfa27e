/**
 * Jest's global setup: the places worker's text (packages/map/src/places/worker-source.generated.js,
 * git-ignored) is built by packages/map/build-worker.mjs. The client imports it, so on a fresh
 * clone, or after a change to the worker's sources, `npx jest` builds it first instead of failing
 * to load the suites that reach the client.
 *
 * Inside a Stryker sandbox (STRYKER_MUTATOR_WORKER) the sources are instrumented: the worker is
 * built there only when it is missing, never rebuilt from mutated code on every run.
 */
const { execFileSync } = require( 'node:child_process' );
const fs = require( 'node:fs' );
const path = require( 'node:path' );

const ROOT = path.resolve( __dirname, '../..' );
const PACKAGE = path.join( ROOT, 'packages/map' );
const OUT = path.join( PACKAGE, 'src/places/worker-source.generated.js' );
const BUILD = path.join( PACKAGE, 'build-worker.mjs' );

/**
 * The newest modification time (ms) of the files the worker's bundle can depend on: the
 * package's sources, the build script and the lock file (Supercluster's and KDBush's versions).
 *
 * @param {string} dir
 * @return {number} Milliseconds since the epoch.
 */
function newestSource( dir ) {
	let newest = 0;
	for ( const entry of fs.readdirSync( dir, { withFileTypes: true } ) ) {
		const file = path.join( dir, entry.name );
		if ( entry.isDirectory() ) {
			newest = Math.max( newest, newestSource( file ) );
		} else if ( /\.(ts|tsx|js|json)$/.test( entry.name ) && file !== OUT ) {
			newest = Math.max( newest, fs.statSync( file ).mtimeMs );
		}
	}
	return newest;
}

/**
 * Whether the generated worker is missing or older than anything it is built from.
 *
 * @return {boolean} True when it must be (re)built.
 */
function isStale() {
	if ( ! fs.existsSync( OUT ) ) {
		return true;
	}
	if ( process.env.STRYKER_MUTATOR_WORKER ) {
		return false;
	}
	const built = fs.statSync( OUT ).mtimeMs;
	const inputs = [ BUILD, path.join( ROOT, 'package-lock.json' ) ]
		.filter( ( file ) => fs.existsSync( file ) )
		.map( ( file ) => fs.statSync( file ).mtimeMs );
	return (
		Math.max( newestSource( path.join( PACKAGE, 'src' ) ), ...inputs ) >
		built
	);
}

module.exports = function buildPlacesWorker() {
	if ( ! isStale() ) {
		return;
	}
	execFileSync( process.execPath, [ BUILD ], {
		cwd: ROOT,
		stdio: [ 'ignore', 'ignore', 'inherit' ],
	} );
	// The build leaves an unchanged file as it was: mark it current so the next run skips it.
	const now = new Date();
	fs.utimesSync( OUT, now, now );
};
