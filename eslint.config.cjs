/**
 * wp-scripts' ESLint config, with TypeScript types standing in for JSDoc types.
 */
const defaultConfig = require( '@wordpress/scripts/config/eslint.config.cjs' );
const wpPlugin = require( '@wordpress/eslint-plugin' );

const PLUGIN_IMPORTS =
	"The plugin imports its runtime by the package's entries only: `@cairn-maps/map` (the public entry) or `@cairn-maps/map/plugin` (what only the plugin needs, packages/map/src/plugin.ts). Never a path into packages/.";

/**
 * What the package (packages/map/src) may not import: the plugin's code, or the block editor.
 *
 * @param {string} pluginPath Regular expression of an import path that reaches the plugin.
 * @return {Object[]} Patterns for no-restricted-imports.
 */
function packagePatterns( pluginPath ) {
	return [
		{
			regex: pluginPath,
			message:
				'The package knows nothing of the plugin: nothing under src/ (the plugin imports the package, never the reverse).',
		},
		{
			regex: '^@wordpress/(block-editor|blocks)(/|$)',
			message:
				'The package runs on any front end, without the block editor: @wordpress/block-editor and @wordpress/blocks belong in src/.',
		},
	];
}

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
			'bin/lib/*.d.mts',
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
	// The border between the plugin and its package: src/ is a client of @cairn-maps/map like any
	// other front end (the aliases in webpack.config.js, tsconfig.json and jest.config.js resolve
	// the names to the package's sources), and the package knows nothing of the plugin or the
	// block editor.
	{
		files: [ 'src/**/*.{js,jsx,ts,tsx}' ],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{
							regex: 'packages/',
							message: PLUGIN_IMPORTS,
						},
						{
							regex: '^@cairn-maps/map/(?!plugin$)',
							message: PLUGIN_IMPORTS,
						},
					],
				},
			],
		},
	},
	{
		files: [ 'packages/*/src/**/*.{js,jsx,ts,tsx}' ],
		rules: {
			'no-restricted-imports': [
				'error',
				{ patterns: packagePatterns( '(^|/)src(/|$)' ) },
			],
		},
	},
	// No function over 150 lines in the plugin's or the package's sources (issue 20): split it into
	// parts with their own state, as src/blocks/map/inspector/ and marker-editor/ are.
	{
		files: [
			'src/**/*.{js,jsx,ts,tsx}',
			'packages/*/src/**/*.{js,jsx,ts,tsx}',
		],
		rules: {
			'max-lines-per-function': [
				'error',
				{
					max: 150,
					skipBlankLines: false,
					skipComments: false,
					IIFEs: true,
				},
			],
		},
	},
	// Unit tests never time the code (issue 30): a limit in ms fails on a loaded machine and passes
	// a slow algorithm on a fast one. Count what the code does (comparisons, requests, draws) or
	// measure it in bench/.
	{
		files: [ 'tests/unit/**/*.{js,ts,tsx}' ],
		rules: {
			'no-restricted-properties': [
				'error',
				...[
					[ 'performance', 'now' ],
					[ 'Date', 'now' ],
					[ 'process', 'hrtime' ],
					[ 'console', 'time' ],
				].map( ( [ object, property ] ) => ( {
					object,
					property,
					message:
						'No wall-clock time in unit tests: assert counts, or move the measurement to bench/.',
				} ) ),
			],
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
