/**
 * wp-scripts' ESLint config, with TypeScript types standing in for JSDoc types.
 */
const defaultConfig = require( '@wordpress/scripts/config/eslint.config.cjs' );
const wpPlugin = require( '@wordpress/eslint-plugin' );

module.exports = [
	...defaultConfig,
	{
		ignores: [
			'tests/fixtures/mapbox/generated/**',
			'artifacts/**',
			'packages/*/dist/**',
			'examples/*/dist/**',
			// The Next.js example's own install and build (examples/next/build.mjs).
			'examples/next/.next/**',
			'examples/next/.pack/**',
			'examples/next/next-env.d.ts',
			'packages/map/src/places/worker-source.generated.js',
			// Type declarations of bin/*.mjs for the specs: tsc checks them.
			'bin/*.d.mts',
		],
	},
	...wpPlugin.configs[ 'test-unit' ].map( ( c ) => ( {
		...c,
		files: [ 'tests/unit/**/*.{js,ts,tsx}' ],
	} ) ),
	{
		files: [ 'tests/unit/**/*.{js,ts,tsx}' ],
		rules: {
			// Jest reads a test file's environment from its first docblock.
			'jsdoc/check-tag-names': [
				'error',
				{ definedTags: [ 'jest-environment' ] },
			],
		},
	},
	{
		files: [ '**/*.ts', '**/*.tsx' ],
		rules: {
			// Parameters are typed and named in TypeScript; JSDoc repeats would drift.
			'jsdoc/require-param': 'off',
			'jsdoc/require-returns': 'off',
		},
	},
	{
		files: [
			'bin/**',
			'packages/map/build.mjs',
			'packages/map/build-worker.mjs',
			'examples/*/*.mjs',
			'tests/e2e/**',
			'playwright.config.ts',
			'*.config.js',
			'*.config.cjs',
		],
		rules: {
			'no-console': 'off',
			'import/no-extraneous-dependencies': 'off',
		},
	},
];
