/**
 * Stryker only (stryker.config.mjs adds it to `setupFilesAfterEnv`): during the dry run, the one
 * run without an active mutant, each test file notes the full names of its tests (as jest and
 * Stryker name them: the describe blocks and the test, joined by spaces). The sequencer then
 * loads, for a mutant, only the files holding the tests that cover it.
 */
const fs = require( 'node:fs' );
const path = require( 'node:path' );

const { FILE } = require( './tests-by-file' );

if (
	process.env.STRYKER_MUTATOR_WORKER &&
	! process.env.__STRYKER_ACTIVE_MUTANT__
) {
	const names = [];
	afterEach( () => {
		names.push( expect.getState().currentTestName );
	} );
	afterAll( () => {
		fs.mkdirSync( path.dirname( FILE ), { recursive: true } );
		fs.appendFileSync(
			FILE,
			JSON.stringify( { path: expect.getState().testPath, names } ) + '\n'
		);
	} );
}
