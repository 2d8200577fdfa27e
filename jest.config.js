const defaultConfig = require( '@wordpress/scripts/config/jest-unit.config' );

module.exports = {
	...defaultConfig,
	// The preset's, said here too: Stryker's jest runner wraps this environment and reads no preset.
	testEnvironment: 'jsdom',
	testMatch: [ '<rootDir>/tests/unit/**/*.test.[jt]s?(x)' ],
	// Supercluster and KDBush ship ES modules only: compile them like our sources.
	transformIgnorePatterns: [ '/node_modules/(?!(supercluster|kdbush)/)' ],
	// Scratch checkouts (the previous release's build, Stryker's sandboxes) hold a second copy of
	// the package.
	modulePathIgnorePatterns: [
		'<rootDir>/.cache/',
		'<rootDir>/.stryker-tmp/',
	],
};
