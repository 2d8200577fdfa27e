/**
 * The package as an app installs it: built (`npm run build:package`), packed (`npm pack`) and
 * unpacked into `node_modules/@cairn-maps/map` of a scratch consumer inside the repository's
 * ignored `.cache/`, so that its other imports (react, mapbox-gl, @wordpress/i18n and their
 * types) resolve from the repository's node_modules, offline. Type-checks consumers with the
 * repository's TypeScript.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve( __dirname, '../../..' );
const PACKAGE = path.join( ROOT, 'packages/map' );
const TSC = path.join( ROOT, 'node_modules/typescript/bin/tsc' );

/**
 * Builds and packs the package into a fresh consumer folder; returns the folder.
 *
 * @param name The consumer's folder name under `.cache/`.
 */
export function packedConsumer( name: string ): string {
	execFileSync( process.execPath, [ path.join( PACKAGE, 'build.mjs' ) ], {
		cwd: ROOT,
		stdio: 'ignore',
	} );
	const consumer = path.join( ROOT, '.cache', name );
	fs.rmSync( consumer, { recursive: true, force: true } );
	const installed = path.join( consumer, 'node_modules/@cairn-maps/map' );
	fs.mkdirSync( installed, { recursive: true } );
	const packed = JSON.parse(
		execFileSync(
			'npm',
			[
				'pack',
				'--json',
				'--ignore-scripts',
				'--pack-destination',
				consumer,
			],
			{
				cwd: PACKAGE,
				encoding: 'utf8',
				stdio: [ 'ignore', 'pipe', 'ignore' ],
			}
		)
	)[ 0 ].filename as string;
	execFileSync( 'tar', [
		'-xzf',
		path.join( consumer, path.basename( packed ) ),
		'-C',
		installed,
		'--strip-components=1',
	] );
	return consumer;
}

/**
 * Runs tsc on a consumer project; returns its output ('' when it type-checks).
 *
 * @param project Path of the tsconfig.json.
 */
export function typeCheck( project: string ): string {
	const result = spawnSync( process.execPath, [ TSC, '-p', project ], {
		encoding: 'utf8',
	} );
	return result.status === 0
		? ''
		: ( result.stdout + result.stderr ).trim() || 'tsc failed';
}
