/**
 * Directions: the map app each place's "Directions" link opens (setting `cairn_maps_directions`),
 * saved as soon as the owner picks one (InstantChoiceCard).
 * @since 0.9.0
 */
import { __, sprintf } from '@wordpress/i18n';
import type { DirectionsApp } from '@cairn-maps/map';
import { directionsApp } from '@cairn-maps/map/plugin';

import { directionsAppLabel, directionsAppOptions } from '../shared/directions';
import { InstantChoiceCard } from './instant-choice-card';

/** The option, in `/wp/v2/settings`. */
export const DIRECTIONS_OPTION = 'cairn_maps_directions';

/** The server's default (Directions_Setting::DEFAULT_APP). */
const DEFAULT_APP: DirectionsApp = 'osm';

/**
 * The stored app in a `/wp/v2/settings` answer: `none` kept, the default when missing or unknown.
 * @param settings The answer.
 */
export function parseDirections( settings: unknown ): DirectionsApp {
	const value =
		typeof settings === 'object' && settings !== null
			? ( settings as Record< string, unknown > )[ DIRECTIONS_OPTION ]
			: undefined;
	if ( value === 'none' ) {
		return 'none';
	}
	const app = directionsApp( value );
	return app === 'none' ? DEFAULT_APP : app;
}

function savedMessage( app: DirectionsApp ): string {
	return app === 'none'
		? __( 'Saved. Places show no directions link.', 'cairn-maps' )
		: sprintf(
				/* translators: %s: a map app ("OpenStreetMap"). */
				__( 'Saved. Directions links now open %s.', 'cairn-maps' ),
				directionsAppLabel( app )
			);
}

export function DirectionsPanel() {
	return (
		<InstantChoiceCard
			option={ DIRECTIONS_OPTION }
			parse={ parseDirections }
			options={ directionsAppOptions() }
			className="cairn-maps-settings__directions"
			title={ __( 'Directions', 'cairn-maps' ) }
			intro={ __(
				'Each place’s popup and list entry can link to directions in the visitor’s own map app. It is a plain link: no key is needed, and nothing is sent to the app until a visitor follows it. A map can choose another app in its block settings. Your choice is saved at once.',
				'cairn-maps'
			) }
			label={ __( 'Directions open in', 'cairn-maps' ) }
			savedMessage={ savedMessage }
		/>
	);
}
