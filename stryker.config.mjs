/**
 * Mutation testing of the runtime's places (the worker's engine, its client, the controller and
 * the panel) and of fetchPostMaps: `npm run test:mutation` (not part of `npm test`). Stryker
 * changes the code one small way at a time and runs the jest tests that reach it; a change no
 * test notices is a surviving mutant. Reports go to reports/mutation/ (not committed).
 *
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
	testRunner: 'jest',
	jest: {
		// The config `npm run test:unit` runs (wp-scripts' preset, our testMatch and transforms).
		projectType: 'custom',
		configFile: 'jest.config.js',
		enableFindRelatedTests: true,
		config: {
			// Stryker counts what each test reaches through the environment it wraps, and it
			// cannot wrap one a file picks itself: the server-rendering check (`@jest-environment
			// node`, no window) stays out. It tests no behaviour of the places or of fetchPostMaps.
			// A mutant that stops the places from answering leaves tests waiting for a change
			// that never comes: each fails after 2.5 s instead of 5 (the slowest test takes
			// half a second on a loaded machine).
			testTimeout: 2500,
			testPathIgnorePatterns: [
				'/node_modules/',
				'<rootDir>/vendor/',
				'<rootDir>/tests/unit/package/server-render.test.ts',
			],
		},
	},
	mutate: [
		'packages/map/src/places/**/*.{ts,tsx}',
		'!packages/map/src/places/**/*.d.ts',
		'packages/map/src/fetch-post-maps.ts',
	],
	coverageAnalysis: 'perTest',
	// The machines have 2 cores.
	concurrency: 2,
	// A later run tests only the mutants whose code or tests changed (reports/ is not committed).
	incremental: true,
	incrementalFile: 'reports/mutation/incremental.json',
	thresholds: { high: 90, low: 80, break: 80 },
	reporters: [ 'clear-text', 'progress', 'html', 'json' ],
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
