/**
 * The German site of tests/e2e/german.spec.ts: a clean site of its own (bin/release-site.mjs), so
 * that switching its language never reaches the other specs' site, with
 *
 * - core's German translations and the plugin's test translation in wp-content/languages
 *   (release-site's `languages` option copies Debian's wordpress-l10n files and everything in
 *   tests/fixtures/languages/plugins/);
 * - the plugin as a site receives it: the release zip (`npm run plugin-zip`), unpacked into
 *   wp-content/plugins (as an owner copying it over FTP would; uploading it through the Plugins
 *   screen is release.spec.ts's subject). Its translation files are compiled from the build
 *   inside that zip (bin/make-json.mjs --plugin), so their names and contents match the scripts
 *   the site really serves.
 *
 * The site starts in English: the spec switches it the way an owner does.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { startOnFreePort } from './free-port';

const ROOT = path.resolve( __dirname, '..', '..', '..' );
const PO = path.join(
	ROOT,
	'tests',
	'fixtures',
	'languages',
	'plugins',
	'cairn-maps-de_DE.po'
);

export interface GermanSite {
	url: string;
	stop: () => Promise< void >;
}

/**
 * bin/release-site.mjs, loaded as the ES module it is (a static import would be compiled to
 * CommonJS with the spec).
 */
const releaseSites = () => import( '../../../bin/release-site.mjs' );

function run( command: string, args: string[] ): void {
	execFileSync( command, args, { cwd: ROOT, stdio: 'inherit' } );
}

export async function germanSite(): Promise< GermanSite > {
	const work = fs.mkdtempSync( path.join( os.tmpdir(), 'cairn-german-' ) );
	try {
		const zip = path.join( work, 'cairn-maps.zip' );
		// Builds first when build/ is stale (under .cache/build.lock).
		run( process.execPath, [ 'bin/plugin-zip.mjs', `--out=${ zip }` ] );
		run( 'unzip', [ '-q', zip, '-d', work ] );
		const plugin = path.join( work, 'cairn-maps' );
		run( process.execPath, [
			'bin/make-json.mjs',
			PO,
			'--plugin',
			plugin,
		] );

		const { startReleaseSite } = await releaseSites();
		// Its own port, beside the shared e2e site.
		const site = await startOnFreePort( ( port ) =>
			startReleaseSite( { port, languages: [ 'de_DE' ] } )
		);
		fs.cpSync(
			plugin,
			path.join(
				site.folder,
				'wordpress',
				'wp-content',
				'plugins',
				'cairn-maps'
			),
			{ recursive: true }
		);
		return {
			url: site.url,
			stop: async () => {
				await site.stop();
				fs.rmSync( work, { recursive: true, force: true } );
			},
		};
	} catch ( error ) {
		fs.rmSync( work, { recursive: true, force: true } );
		throw error;
	}
}
