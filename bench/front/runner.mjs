/**
 * What the two front-end benchmark commands (run.mjs: bench:front; shapes.mjs: bench:front:shapes)
 * share: a build when build/ lacks what the pages load, and one Playwright run of
 * bench/front/playwright.config.ts whose spec writes its raw measures to a file.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Runs `npm run build` when a file the bench pages load is missing; exits on a failed build.
 *
 * @param {Object}                      options
 * @param {string}                      options.root   The repository.
 * @param {string[]}                    options.needed Files under the repository the pages load.
 * @param {( message: string ) => void} options.log    Where to say it.
 */
export function ensureBuild( { root, needed, log } ) {
	if (
		needed.every( ( file ) => fs.existsSync( path.join( root, file ) ) )
	) {
		return;
	}
	log( 'build/ is missing: running npm run build' );
	const build = spawnSync( 'npm', [ 'run', 'build' ], {
		cwd: root,
		stdio: 'inherit',
	} );
	if ( build.status !== 0 ) {
		log( 'ERROR: the build failed' );
		process.exit( 1 );
	}
}

/**
 * Runs the benchmark spec(s) and reads the raw measures they wrote; exits when none were written.
 *
 * @param {Object}                      options
 * @param {string}                      options.root     The repository.
 * @param {string}                      options.raw      The file the spec writes (CAIRN_BENCH_OUT).
 * @param {number}                      options.timeoutS Seconds before Playwright is stopped.
 * @param {Record<string, string>}      [options.env]    More environment for the spec.
 * @param {( message: string ) => void} options.log      Where to say it.
 * @return {{ raw: *, status: number|null }} The measures, and Playwright's exit status.
 */
export function runPlaywright( { root, raw, timeoutS, env = {}, log } ) {
	fs.rmSync( raw, { force: true } );
	const started = Date.now();
	const run = spawnSync(
		'npx',
		[
			'--no-install',
			'playwright',
			'test',
			'-c',
			'bench/front/playwright.config.ts',
		],
		{
			cwd: root,
			stdio: 'inherit',
			timeout: timeoutS * 1000,
			killSignal: 'SIGTERM',
			env: { ...process.env, ...env, CAIRN_BENCH_OUT: raw },
		}
	);
	log( `measured in ${ Math.round( ( Date.now() - started ) / 1000 ) } s` );
	if ( run.error ) {
		log( `ERROR: ${ run.error.message }` );
	}
	if ( ! fs.existsSync( raw ) ) {
		log( 'ERROR: no results were written' );
		process.exit( 1 );
	}
	const measures = JSON.parse( fs.readFileSync( raw, 'utf8' ) );
	fs.rmSync( raw, { force: true } );
	return { raw: measures, status: run.status };
}
