/**
 * wp-scripts' configuration, plus the settings screen and the marker sidebar as entries.
 * Block entries (index, view) come from block.json.
 */
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
	performance: {
		// mapbox-gl is a lazily loaded chunk of ~1.7 MB; the loaders stay small.
		hints: false,
	},
};
