/**
 * Mutation testing of the runtime's places (the worker's engine, its client, the controller, the
 * panel, the tiled client and its tile arithmetic and prefetch), its routes and areas (shapes/),
 * its popups and fetchPostMaps: `npm run test:mutation` (not part of `npm test`). Stryker changes
 * the code one small way at a time and runs the jest tests that reach it; a change no test
 * notices is a surviving mutant. Reports go to reports/mutation/ (not committed).
 *
 * What keeps it to minutes on 2 busy cores:
 * - only the suites that test these files run (`TESTS`), and for each mutant only the tests that
 *   reached its code in the first run (`coverageAnalysis: 'perTest'`), loaded from the files
 *   that hold them (tests/unit/stryker/covering-files-sequencer.js): without that, a mutant of
 *   shapes/feed.ts also loaded create-map.test.ts and the panel's tests only to skip them;
 * - static mutants (a module's constants, run once when it loads) are left out
 *   (`ignoreStatic`): each would reload every suite. They were 31 % of the shapes' mutants and
 *   96 % of their time.
 *
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */

/** The suites of the mutated files (each mutant runs the ones among them that reach it). */
const TESTS = [
	'<rootDir>/tests/unit/places/**/*.test.ts?(x)',
	'<rootDir>/tests/unit/shapes/**/*.test.ts',
	'<rootDir>/tests/unit/package/fetch-post-maps.test.ts',
	'<rootDir>/tests/unit/popup.test.ts',
	// The shapes' layers and chunk, and the runtime's use of the places, through createMap.
	'<rootDir>/tests/unit/create-map.test.ts',
	// The places client, controller, panel and popups together, from the keyboard.
	'<rootDir>/tests/unit/runtime/keyboard-visit.test.tsx',
	// The "Directions" links of the popups and the places panel's entries.
	'<rootDir>/tests/unit/directions.test.tsx',
];

export default {
	testRunner: 'jest',
	jest: {
		// The config `npm run test:unit` runs (wp-scripts' preset, our testMatch and transforms).
		projectType: 'custom',
		configFile: 'jest.config.js',
		// Each mutant's tests are the ones that covered it (perTest), from the files holding them
		// (the sequencer below): narrower than jest's related files, and no import graph to build.
		enableFindRelatedTests: false,
		config: {
			// A mutant that stops the places from answering leaves tests waiting for a change
			// that never comes: each fails after 2.5 s instead of 5 (the slowest test takes
			// half a second on a loaded machine).
			testTimeout: 2500,
			testMatch: TESTS,
			// jsdom with a bail: a mutant's remaining tests are skipped once one has failed.
			// Relative to the sandbox (Stryker resolves it from there, and reads no <rootDir>).
			testEnvironment: './tests/unit/stryker/bail-environment.js',
			// The dry run notes which file holds which test; each mutant's run then loads only
			// the files holding the tests that cover it.
			setupFilesAfterEnv: [
				'<rootDir>/tests/unit/stryker/record-tests.js',
			],
			testSequencer:
				'<rootDir>/tests/unit/stryker/covering-files-sequencer.js',
			testPathIgnorePatterns: [ '/node_modules/', '<rootDir>/vendor/' ],
		},
	},
	mutate: [
		'packages/map/src/places/**/*.{ts,tsx}',
		'!packages/map/src/places/**/*.d.ts',
		// The worker's entry only wires the engine to `self.onmessage`: it runs in a real worker
		// (e2e front-markers), never in jsdom.
		'!packages/map/src/places/worker.ts',
		'packages/map/src/shapes/**/*.ts',
		'packages/map/src/fetch-post-maps.ts',
		'packages/map/src/popup.ts',
	],
	plugins: [
		'@stryker-mutator/jest-runner',
		'./tests/unit/stryker/ignore-text-domain.mjs',
		'./tests/unit/stryker/tested-file-reporter.mjs',
	],
	ignorers: [ 'text-domain' ],
	coverageAnalysis: 'perTest',
	ignoreStatic: true,
	// The machines have 2 cores, and other jobs share them.
	concurrency: 2,
	// The first run of every suite with coverage takes about a minute on a loaded machine; the
	// default limit (5 minutes) was hit when it ran the whole unit suite.
	dryRunTimeoutMinutes: 20,
	// A later run tests only the mutants whose code or tests changed (reports/ is not committed).
	incremental: true,
	incrementalFile: 'reports/mutation/incremental.json',
	thresholds: { high: 90, low: 80, break: 80 },
	// tested-file: each result as it comes (bin/mutation-score.mjs reads it), for runs cut short.
	reporters: [ 'clear-text', 'progress', 'html', 'json', 'tested-file' ],
	htmlReporter: { fileName: 'reports/mutation/index.html' },
	jsonReporter: { fileName: 'reports/mutation/mutation.json' },
	clearTextReporter: { allowColor: false, logTests: false },
	// What the sandbox need not copy: WordPress, Composer's packages, the PHP, e2e and fixtures.
	ignorePatterns: [
		'/.cache',
		'/vendor',
		'/build',
		'/plugin',
		'/languages',
		'/bench',
		'/docs',
		'/tests/e2e',
		'/tests/php',
		'/tests/fixtures/mapbox',
		'/tests/fixtures/releases',
		'/test-results',
		'/playwright-report',
		'/artifacts',
		'/reports',
	],
	tempDirName: '.stryker-tmp',
	cleanTempDir: 'always',
	// A mutant that makes a test wait forever is cut short (counted as detected). Generous: on a
	// loaded 2-core machine a shorter limit cut runs that were only slow.
	timeoutMS: 10000,
};
