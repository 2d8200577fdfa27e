/**
 * The styles offered in the editor: the Mapbox presets (Settings → Cairn Maps' Mapbox basemap),
 * and for a block the site's basemap, the keyless OpenFreeMap styles and those presets.
 */
import { __ } from '@wordpress/i18n';

export interface StyleOption {
	value: string;
	label: string;
}

export const CUSTOM_STYLE = 'custom';

export function styleOptions(): StyleOption[] {
	return [
		{
			value: 'mapbox://styles/mapbox/standard',
			label: __( 'Mapbox Standard', 'cairn-maps' ),
		},
		{
			value: 'mapbox://styles/mapbox/standard-satellite',
			label: __( 'Standard Satellite', 'cairn-maps' ),
		},
		{
			value: 'mapbox://styles/mapbox/streets-v12',
			label: __( 'Streets', 'cairn-maps' ),
		},
		{
			value: 'mapbox://styles/mapbox/outdoors-v12',
			label: __( 'Outdoors', 'cairn-maps' ),
		},
		{
			value: 'mapbox://styles/mapbox/light-v11',
			label: __( 'Light', 'cairn-maps' ),
		},
		{
			value: 'mapbox://styles/mapbox/dark-v11',
			label: __( 'Dark', 'cairn-maps' ),
		},
		{
			value: 'mapbox://styles/mapbox/satellite-streets-v12',
			label: __( 'Satellite Streets', 'cairn-maps' ),
		},
	];
}

/**
 * The styles a block may pick. block.json's default style draws the site's basemap (whatever the
 * owner chose in Settings → Cairn Maps, or OpenFreeMap without a Mapbox token), so it is offered
 * under that name; OpenFreeMap needs no key; the other Mapbox presets need the site's token.
 */
export function blockStyleOptions(): StyleOption[] {
	const [ standard, ...mapbox ] = styleOptions();
	return [
		{
			value: standard?.value ?? 'mapbox://styles/mapbox/standard',
			label: __( "The site's basemap", 'cairn-maps' ),
		},
		{
			value: 'https://tiles.openfreemap.org/styles/liberty',
			label: __( 'OpenFreeMap Liberty (no key)', 'cairn-maps' ),
		},
		{
			value: 'https://tiles.openfreemap.org/styles/bright',
			label: __( 'OpenFreeMap Bright (no key)', 'cairn-maps' ),
		},
		{
			value: 'https://tiles.openfreemap.org/styles/positron',
			label: __( 'OpenFreeMap Positron (no key)', 'cairn-maps' ),
		},
		...mapbox,
	];
}
