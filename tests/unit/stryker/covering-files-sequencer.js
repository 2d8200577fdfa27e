/**
 * Stryker only (stryker.config.mjs sets it as jest's `testSequencer`). For each mutant Stryker runs
 * the tests that covered its code in the dry run, by name (`testNamePattern`), in the test files
 * related to the mutated file (`findRelatedTests`). Related is wide: create-map.test.ts imports the
 * whole runtime, so a mutant of shapes/feed.ts would load it and the panel's and keyboard tests
 * only to skip them; loading is most of a mutant's time. This sequencer keeps the files that hold
 * at least one of the named tests (record-tests.js wrote which file holds which). Where it cannot
 * tell (no names asked, nothing recorded, no file matches), it keeps every file: a mutant is
 * never let off because its tests were left out.
 */
const { readTestsByFile } = require( './tests-by-file' );

/** What jest asks of a test sequencer, in the one process Stryker runs jest in (`runInBand`). */
class CoveringFilesSequencer {
	constructor( options ) {
		this.testNamePattern = options?.globalConfig?.testNamePattern ?? '';
	}

	sort( tests ) {
		const sorted = [ ...tests ].sort( ( a, b ) =>
			a.path < b.path ? -1 : Number( a.path > b.path )
		);
		const byFile = this.testNamePattern ? readTestsByFile() : null;
		if ( ! byFile ) {
			return sorted;
		}
		// As jest-circus matches a test's full name against --testNamePattern.
		const asked = new RegExp( this.testNamePattern, 'i' );
		const covering = sorted.filter( ( test ) =>
			( byFile.get( test.path ) ?? [] ).some( ( name ) =>
				asked.test( name )
			)
		);
		return covering.length > 0 ? covering : sorted;
	}

	allFailedTests( tests ) {
		return tests;
	}

	cacheResults() {}
}

module.exports = CoveringFilesSequencer;
