/**
 * Stryker only (stryker.config.mjs sets it as jest's `testEnvironment`; Stryker wraps it to
 * count coverage): jsdom, as `npm run test:unit` uses, with a bail. Once a test has failed under
 * the active mutant, that mutant is detected, and the rest of its tests, in this file and the
 * next, are skipped instead of run: jest's own `bail` does not work in a programmatic run, and
 * without it a mutant that breaks the controller ran every covering test to its time-out.
 * The dry run (no active mutant) runs everything.
 */
// The environment `testEnvironment: 'jsdom'` names, installed with jest (@wordpress/scripts).
// eslint-disable-next-line import/no-extraneous-dependencies
const { TestEnvironment } = require( 'jest-environment-jsdom' );

/** The mutant a test has failed under (a mutant is run once: no reset needed). */
let failedUnder = null;

class BailEnvironment extends TestEnvironment {
	handleTestEvent( event ) {
		const mutant = process.env.__STRYKER_ACTIVE_MUTANT__;
		if ( ! mutant ) {
			return;
		}
		if (
			event.name === 'test_fn_failure' ||
			event.name === 'hook_failure'
		) {
			failedUnder = mutant;
		} else if ( event.name === 'test_start' && failedUnder === mutant ) {
			event.test.mode = 'skip';
		}
	}
}

module.exports = BailEnvironment;
