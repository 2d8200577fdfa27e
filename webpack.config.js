/**
 * wp-scripts' configuration, plus the settings screen and the marker sidebar as entries.
 * Block entries (index, view) come from block.json. The map runtime lives in the npm package's
 * sources (packages/map/src); its limits.json is copied into build/ for the PHP side, so a
 * release needs build/ only.
 */
const path = require( 'path' );
const CopyWebpackPlugin = require( 'copy-webpack-plugin' );
const defaultConfig = require( '@wordpress/scripts/config/webpack.config' );

module.exports = {
	...defaultConfig,
	entry: () => ( {
		...( typeof defaultConfig.entry === 'function'
			? defaultConfig.entry()
			: defaultConfig.entry ),
		'settings/index': './src/settings/index.tsx',
		'markers/index': './src/markers/index.ts',
	} ),
	plugins: [
		...defaultConfig.plugins,
		new CopyWebpackPlugin( {
			patterns: [
				{
					from: path.resolve( __dirname, 'packages/map/src/limits.json' ),
					to: 'limits.json',
				},
			],
		} ),
	],
	performance: {
		// mapbox-gl is a lazily loaded chunk of ~1.7 MB; the loaders stay small.
		hints: false,
	},
};
