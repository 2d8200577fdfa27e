/**
 * wp-scripts' configuration, plus the settings screen, the marker sidebar, the post Location
 * panel and the classic editor's "Add map" dialog as entries.
 * Block entries (index, view) come from block.json. The map runtime lives in the npm package's
 * sources (packages/map/src), which the plugin imports by the package's name only: its public
 * entry `@cairn-maps/map`, the plugin's own entry `@cairn-maps/map/plugin` and the stylesheet
 * `@cairn-maps/map/style` (Sass) resolve to those sources (the plugin is built from them, not from
 * the package's dist/). Its limits.json is copied into build/ for the PHP side, so a release
 * needs build/ only.
 *
 * Third-party code bundled into build/ (supercluster, kdbush, @mapbox/mapbox-gl-draw and theirs)
 * keeps its notices: license-webpack-plugin writes each bundled package's name, version, licence
 * and licence text to build/third-party-licenses.txt, which the zip ships. Only GPL-compatible
 * licences may be bundled: anything else fails the build.
 *
 * maplibre-gl (BSD-3) is bundled as its own lazily loaded chunk (`cairn-map-maplibre`,
 * src/blocks/map/maplibre-gl.ts), with pmtiles and @protomaps/basemaps in `cairn-map-pmtiles` (only
 * for self-hosted basemaps); its worker (`maplibre-gl-worker.js`, an ES module) and stylesheet are copied into
 * build/, so the site serves the worker itself (`worker-src 'self'`).
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
const { LicenseWebpackPlugin } = require( 'license-webpack-plugin' );
const defaultConfig = require( '@wordpress/scripts/config/webpack.config' );

const MAPBOX_GL = path.dirname( require.resolve( 'mapbox-gl/package.json' ) );
const MAPLIBRE_GL = path.dirname(
	require.resolve( 'maplibre-gl/package.json' )
);

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
 * The standard text of a permissive licence, for a package that names its licence but ships no
 * licence file.
 *
 * @param {'ISC'|'BSD-2-Clause'|'BSD-3-Clause'} type   SPDX identifier.
 * @param {string}                              holder The copyright holder.
 * @return {string} The licence text.
 */
function standardLicence( type, holder ) {
	if ( type === 'BSD-3-Clause' ) {
		return standardLicence( 'BSD-2-Clause', holder )
			.replace( /^BSD-2-Clause License/, 'BSD-3-Clause License' )
			.replace(
				'\n\nTHIS SOFTWARE',
				'\n\n3. Neither the name of the copyright holder nor the names of its contributors may be used to endorse or promote products derived from this software without specific prior written permission.\n\nTHIS SOFTWARE'
			);
	}
	const disclaimer =
		type === 'ISC'
			? 'THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES WITH REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR ANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS, WHETHER IN AN ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.'
			: 'THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS" AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.';
	const grant =
		type === 'ISC'
			? 'Permission to use, copy, modify, and/or distribute this software for any purpose with or without fee is hereby granted, provided that the above copyright notice and this permission notice appear in all copies.'
			: 'Redistribution and use in source and binary forms, with or without modification, are permitted provided that the following conditions are met:\n\n1. Redistributions of source code must retain the above copyright notice, this list of conditions and the following disclaimer.\n\n2. Redistributions in binary form must reproduce the above copyright notice, this list of conditions and the following disclaimer in the documentation and/or other materials provided with the distribution.';
	return `${ type } License\n\nCopyright (c) ${ holder }\n\n${ grant }\n\n${ disclaimer }`;
}

/** The licences (SPDX) of the third-party code the zip may ship: permissive, GPL-compatible. */
const GPL_COMPATIBLE = new Set( [
	'MIT',
	'ISC',
	'BSD-2-Clause',
	'BSD-3-Clause',
	'Apache-2.0',
	'0BSD',
	'GPL-2.0-or-later',
] );

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
	optimization: {
		...defaultConfig.optimization,
		splitChunks: {
			...defaultConfig.optimization?.splitChunks,
			cacheGroups: {
				...defaultConfig.optimization?.splitChunks?.cacheGroups,
				// maplibre-gl stays in its one named chunk, `cairn-map-maplibre`, and pmtiles with
				// @protomaps/basemaps in `cairn-map-pmtiles` (webpack's vendors group would move
				// each to a numbered chunk of its own).
				defaultVendors: {
					test: /[\\/]node_modules[\\/](?!(maplibre-gl|pmtiles|fflate|@protomaps)[\\/])/,
					priority: -10,
					reuseExistingChunk: true,
				},
			},
		},
	},
	// maplibre-gl's own `import( url )` (importScriptInWorkers) is meant to stay dynamic.
	ignoreWarnings: [
		{
			module: /maplibre-gl[\\/]dist[\\/]maplibre-gl\.mjs$/,
			message: /the request of a dependency is an expression/,
		},
	],
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
		'classic-editor/add-map': './src/classic-editor/add-map.ts',
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
					from: path.join(
						MAPLIBRE_GL,
						'dist',
						'maplibre-gl-worker.mjs'
					),
					to: 'maplibre-gl-worker.js',
				},
				{
					from: path.join( MAPLIBRE_GL, 'dist', 'maplibre-gl.css' ),
					to: 'maplibre-gl.css',
				},
				{
					from: path.join( MAPBOX_GL, 'package.json' ),
					to: 'mapbox-gl.json',
					transform: mapboxGlLibrary,
				},
			],
		} ),
		new NoMapboxGlCode(),
		new LicenseWebpackPlugin( {
			outputFilename: 'third-party-licenses.txt',
			perChunkOutput: false,
			addBanner: false,
			// One block per package, each opened by a `Package:` line, so a reader (or the
			// release test) can tell where one licence text ends and the next begins.
			renderLicenses: ( modules ) =>
				modules
					.slice()
					.sort( ( a, b ) => a.name.localeCompare( b.name ) )
					.map(
						( module ) =>
							`Package: ${ module.name }@${ module.packageJson.version }\nLicense: ${ module.licenseId }\n\n${ String(
								module.licenseText ?? ''
							).trim() }\n`
					)
					.join( '\n' + '-'.repeat( 72 ) + '\n\n' ),
			// The packages of this repository itself (the npm package's sources, under
			// packages/) are the plugin's own code, GPL-2.0-or-later.
			excludedPackageTest: ( name ) => name.startsWith( '@cairn-maps/' ),
			// Scope hoisting folds pmtiles and @protomaps/basemaps into the runtime's own module of
			// the cairn-map-pmtiles chunk, where the plugin no longer sees them: named here.
			// world-atlas is in no bundle: the world archive the zip ships
			// (assets/basemap/world.pmtiles, bin/build-basemap.mjs) is cut from its Natural Earth
			// data (public domain), and the package itself is ISC.
			additionalModules: [
				'pmtiles',
				'@protomaps/basemaps',
				'world-atlas',
			].map( ( name ) => ( {
				name,
				directory: path.dirname(
					require.resolve( `${ name }/package.json` )
				),
			} ) ),
			// Two of mapbox-gl-draw's small dependencies publish no licence file: their licence
			// (package.json) in its standard wording, with the author their package.json names.
			licenseTextOverrides: {
				'@mapbox/geojson-normalize': standardLicence(
					'ISC',
					'Tom MacWright'
				),
				wgs84: standardLicence( 'BSD-2-Clause', 'Tom MacWright' ),
				// pmtiles and @protomaps/basemaps (BSD-3-Clause in their package.json) publish none.
				pmtiles: standardLicence( 'BSD-3-Clause', 'Brandon Liu' ),
				'@protomaps/basemaps': standardLicence(
					'BSD-3-Clause',
					'The Protomaps Authors'
				),
			},
			unacceptableLicenseTest: ( type ) =>
				! GPL_COMPATIBLE.has( String( type ) ),
			handleUnacceptableLicense: ( name, type ) => {
				throw new Error(
					`${ name } is licensed ${ type }, which the plugin's zip may not ship (GPL-compatible licences only: ${ [
						...GPL_COMPATIBLE,
					].join( ', ' ) }).`
				);
			},
		} ),
	],
};
