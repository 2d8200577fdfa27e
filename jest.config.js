const defaultConfig = require( '@wordpress/scripts/config/jest-unit.config' );

module.exports = {
	...defaultConfig,
	testMatch: [ '<rootDir>/tests/unit/**/*.test.[jt]s?(x)' ],
	// Supercluster and KDBush ship ES modules only: compile them like our sources.
	transformIgnorePatterns: [ '/node_modules/(?!(supercluster|kdbush)/)' ],
	// Scratch checkouts (the previous release's build) hold a second copy of the package.
	modulePathIgnorePatterns: [ '<rootDir>/.cache/' ],
};
