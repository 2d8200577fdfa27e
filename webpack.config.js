/**
 * wp-scripts' configuration, plus the settings screen, the marker sidebar and the post Location
 * panel as entries.
 * Block entries (index, view) come from block.json. The map runtime lives in the npm package's
 * sources (packages/map/src), which the plugin imports by the package's name only: its public
 * entry `@cairn-maps/map`, the plugin's own entry `@cairn-maps/map/plugin` and the stylesheet
 * `@cairn-maps/map/style` (Sass) resolve to those sources (the plugin is built from them, not from
 * the package's dist/). Its limits.json is copied into build/ for the PHP side, so a release
 * needs build/ only.
 *
 * mapbox-gl is never bundled (its licence forbids redistributing it in the plugin): the plugin
 * loads it from Mapbox's distribution (src/blocks/map/load-mapbox-gl.ts). The build writes
 * build/mapbox-gl.json, the pinned version and the Subresource Integrity hashes of the release's
 * mapbox-gl.js and mapbox-gl.css, computed from node_modules/mapbox-gl/dist (the files Mapbox
 * serves for that version), and fails if any of mapbox-gl's code would end up in build/.
 */
const crypto = require( 'crypto' );
const fs = require( 'fs' );
const path = require( 'path' );
const CopyWebpackPlugin = require( 'copy-webpack-plugin' );
const defaultConfig = require( '@wordpress/scripts/config/webpack.config' );

const MAPBOX_GL = path.dirname( require.resolve( 'mapbox-gl/package.json' ) );

/**
 * build/mapbox-gl.json: what plugin/Blocks/Mapbox_Gl.php hands the loader.
 *
 * @param {Buffer} manifest mapbox-gl's package.json.
 * @return {string} The JSON.
 */
function mapboxGlLibrary( manifest ) {
	const { version } = JSON.parse( manifest.toString( 'utf8' ) );
	const pinned = require( './package.json' ).devDependencies[ 'mapbox-gl' ];
	if ( pinned !== version ) {
		throw new Error(
			`mapbox-gl ${ version } is installed, package.json pins "${ pinned }": run npm ci.`
		);
	}
	const integrity = ( file ) =>
		'sha384-' +
		crypto
			.createHash( 'sha384' )
			.update( fs.readFileSync( path.join( MAPBOX_GL, 'dist', file ) ) )
			.digest( 'base64' );
	return (
		JSON.stringify(
			{
				version,
				js: integrity( 'mapbox-gl.js' ),
				css: integrity( 'mapbox-gl.css' ),
			},
			null,
			'\t'
		) + '\n'
	);
}

/** Fails the build when a module of mapbox-gl (JS or CSS) would be bundled. */
class NoMapboxGlCode {
	apply( compiler ) {
		compiler.hooks.thisCompilation.tap(
			'NoMapboxGlCode',
			( compilation ) => {
				compilation.hooks.finishModules.tap(
					'NoMapboxGlCode',
					( modules ) => {
						for ( const module of modules ) {
							const resource = module.resource ?? '';
							if ( resource.startsWith( MAPBOX_GL + path.sep ) ) {
								compilation.errors.push(
									new Error(
										`${ path.relative(
											__dirname,
											resource
										) } would be bundled: the plugin loads mapbox-gl from Mapbox's distribution (src/blocks/map/load-mapbox-gl.ts); import only its types.`
									)
								);
							}
						}
					}
				);
			}
		);
	}
}

const PACKAGE_SOURCES = path.resolve( __dirname, 'packages/map/src' );

/**
 * A JSON module of the runtime's sources without its top-level `$comment` (limits.json,
 * map-schema.json): a note for the files' readers (and PHP's), which no script reads.
 * packages/map/build.mjs does the same.
 *
 * @param {string} text The file's text.
 * @return {unknown} Its value.
 */
function jsonWithoutComment( text ) {
	const value = JSON.parse( text );
	if ( value && typeof value === 'object' && ! Array.isArray( value ) ) {
		delete value.$comment;
	}
	return value;
}

module.exports = {
	...defaultConfig,
	module: {
		...defaultConfig.module,
		rules: [
			...defaultConfig.module.rules,
			{
				test: /\.json$/,
				include: PACKAGE_SOURCES,
				type: 'json',
				parser: { parse: jsonWithoutComment },
			},
		],
		parser: {
			...defaultConfig.module.parser,
			// map-schema.json is imported by name (one attribute's rule): each bundle keeps only
			// the rules its scripts read, and so does the package's esbuild build.
			json: { namedExports: true },
		},
	},
	resolve: {
		...defaultConfig.resolve,
		// Exact names (`$`): only these reach the sources. Any other `@cairn-maps/map/…` would go
		// through the package's `exports` to its built dist/; eslint.config.cjs forbids it in src/.
		alias: {
			...defaultConfig.resolve?.alias,
			'@cairn-maps/map$': path.join( PACKAGE_SOURCES, 'index.ts' ),
			'@cairn-maps/map/plugin$': path.join(
				PACKAGE_SOURCES,
				'plugin.ts'
			),
			'@cairn-maps/map/style$': path.join(
				PACKAGE_SOURCES,
				'style.scss'
			),
		},
	},
	entry: () => ( {
		...( typeof defaultConfig.entry === 'function'
			? defaultConfig.entry()
			: defaultConfig.entry ),
		'settings/index': './src/settings/index.tsx',
		'markers/index': './src/markers/index.ts',
		'import-export/index': './src/import-export/index.ts',
		'locations/index': './src/locations/index.ts',
	} ),
	plugins: [
		...defaultConfig.plugins,
		new CopyWebpackPlugin( {
			patterns: [
				{
					from: path.resolve(
						__dirname,
						'packages/map/src/limits.json'
					),
					to: 'limits.json',
				},
				{
					from: path.resolve(
						__dirname,
						'packages/map/src/map-schema.json'
					),
					to: 'map-schema.json',
				},
				{
					from: path.join( MAPBOX_GL, 'package.json' ),
					to: 'mapbox-gl.json',
					transform: mapboxGlLibrary,
				},
			],
		} ),
		new NoMapboxGlCode(),
	],
};
