/**
 * The Mapbox styles offered in the editor.
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
