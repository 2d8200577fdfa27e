/**
 * Where a spec's pictures go: docs/screenshots/ when the run is to refresh them
 * (`CAIRN_SCREENSHOTS=1`), else the test's own output folder.
 */
import path from 'node:path';

/**
 * The path of a picture named `name` (e.g. `editor.png`); `testInfo` is the test's, for its
 * output folder.
 */
export function screenshotPath(
	name: string,
	testInfo: { outputPath: ( f: string ) => string }
): string {
	return process.env.CAIRN_SCREENSHOTS
		? path.join( __dirname, '..', '..', '..', 'docs', 'screenshots', name )
		: testInfo.outputPath( name );
}
