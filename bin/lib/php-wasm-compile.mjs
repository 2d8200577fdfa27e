/**
 * WordPress Playground's PHP (php-wasm) keeps compiled scripts only in OPcache's file cache, with
 * `opcache.file_cache_consistency_checks` on: every request checksums each cached script before it
 * runs it. In WebAssembly that costs more than compiling the source again (measured here: the
 * plugin's 49 classes not yet loaded, 339 KB, take 80–93 ms from the file cache and 33–38 ms
 * compiled; a REST request falls from 1.3–1.5 s to 0.55–0.8 s). Playground writes its php.ini
 * before the first request and offers no setting for it, so a site's wp-config.php switches
 * OPcache off for the rest of each request (OPcache may always be disabled at run time). Only the
 * scripts Playground itself prepends still come from the cache.
 *
 * For the Playground sites this project starts (npm start, the e2e sites, the release sites).
 * Never part of the plugin.
 */
import fs from 'node:fs';
import path from 'node:path';

export const COMPILE_MARKER =
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
	const line = `<?php // ${ COMPILE_MARKER } (bin/lib/php-wasm-compile.mjs).\nini_set( 'opcache.enable', '0' );\n`;
	const temporary = `${ file }.${ process.pid }.tmp`;
	fs.writeFileSync(
		temporary,
		line + source.slice( '<?php'.length ).replace( /^[ \t]*\r?\n/, '' )
	);
	fs.renameSync( temporary, file );
	return true;
}
