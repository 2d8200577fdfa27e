const defaultConfig = require( '@wordpress/scripts/config/jest-unit.config' );

module.exports = {
	...defaultConfig,
	// The preset's, said here too: Stryker's jest runner wraps this environment and reads no preset.
	testEnvironment: 'jsdom',
	testMatch: [ '<rootDir>/tests/unit/**/*.test.[jt]s?(x)' ],
	// A test waits for what the user would see, never for time: the 5 s default only measures the
	// machine (the editor's component tests took 5-37 s on 2 loaded cores).
	testTimeout: 30_000,
	// Builds the places worker's text (git-ignored) when it is missing or older than its sources:
	// a fresh clone runs `npx jest` without a build step first.
	globalSetup: '<rootDir>/tests/unit/global-setup.js',
	// The plugin's imports of its own package, as webpack.config.js and tsconfig.json resolve them:
	// to the package's sources.
	moduleNameMapper: {
		...defaultConfig.moduleNameMapper,
		'^@cairn-maps/map$': '<rootDir>/packages/map/src/index.ts',
		'^@cairn-maps/map/plugin$': '<rootDir>/packages/map/src/plugin.ts',
	},
	// Supercluster and KDBush ship ES modules only: compile them like our sources. So do uuid, marked
	// and @wordpress/theme (.mjs), which @wordpress/components and core-data import (the editor's component tests).
	transform: {
		...defaultConfig.transform,
		'\\.mjs$': defaultConfig.transform[ '\\.[jt]sx?$' ],
	},
	transformIgnorePatterns: [
		'/node_modules/(?!(supercluster|kdbush|uuid|marked|parsel-js|@wordpress/theme|@mapbox/mapbox-gl-draw|@mapbox/point-geometry|@turf|nanoid)/)',
	],
	// Scratch checkouts (the previous release's build, Stryker's sandboxes) hold a second copy of
	// the package.
	modulePathIgnorePatterns: [
		'<rootDir>/.cache/',
		'<rootDir>/.stryker-tmp/',
	],
};
