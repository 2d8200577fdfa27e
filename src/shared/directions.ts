/**
 * The map apps of the places' "Directions" links, as the settings screen and the block's sidebar
 * name them (the runtime's DIRECTIONS_APPS, and `none`).
 * @since 0.9.0
 */
import { __ } from '@wordpress/i18n';
import type { DirectionsApp } from '@cairn-maps/map';
import { DIRECTIONS_APPS } from '@cairn-maps/map/plugin';

/**
 * An app's name for the owner.
 * @param app
 */
export function directionsAppLabel( app: DirectionsApp ): string {
	switch ( app ) {
		case 'osm':
			return __( 'OpenStreetMap', 'cairn-maps' );
		case 'google':
			return __( 'Google Maps', 'cairn-maps' );
		case 'apple':
			return __( 'Apple Maps', 'cairn-maps' );
		case 'geo':
			return __(
				'The visitor’s own map app (a geo: link, for phones)',
				'cairn-maps'
			);
		default:
			return __( 'No directions link', 'cairn-maps' );
	}
}

/** Every choice of app, `none` last, with its name: for a radio or a select. */
export function directionsAppOptions(): Array< {
	value: DirectionsApp;
	label: string;
} > {
	return [ ...DIRECTIONS_APPS, 'none' as const ].map( ( app ) => ( {
		value: app,
		label: directionsAppLabel( app ),
	} ) );
}
