const defaultConfig = require( '@wordpress/scripts/config/jest-unit.config' );

module.exports = {
	...defaultConfig,
	testMatch: [ '<rootDir>/tests/unit/**/*.test.[jt]s?(x)' ],
};
