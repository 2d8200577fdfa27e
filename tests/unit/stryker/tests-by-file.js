/**
 * Which tests each test file holds, as Stryker's first (dry) run saw them: written by
 * record-tests.js, read by covering-files-sequencer.js. Only `npm run test:mutation` uses these
 * (stryker.config.mjs); the file lives in Stryker's sandbox and goes with it.
 */
const fs = require( 'node:fs' );
const path = require( 'node:path' );

/** One line per test file: `{ "path": …, "names": [ full test names ] }`. */
const FILE = path.resolve(
	__dirname,
	'../../../reports/stryker-tests-by-file.jsonl'
);

/**
 * The full names of the tests of each test file, or null before the dry run has written them.
 *
 * @return {Map<string, string[]>|null} Test file path → full test names.
 */
function readTestsByFile() {
	let text;
	try {
		text = fs.readFileSync( FILE, 'utf8' );
	} catch {
		return null;
	}
	const byFile = new Map();
	for ( const line of text.split( '\n' ) ) {
		if ( line.trim() === '' ) {
			continue;
		}
		const { path: file, names } = JSON.parse( line );
		byFile.set( file, [ ...( byFile.get( file ) ?? [] ), ...names ] );
	}
	return byFile;
}

module.exports = { FILE, readTestsByFile };
