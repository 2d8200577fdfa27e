/**
 * Address search: which service finds the places of addresses (setting `cairn_maps_geocoder`),
 * saved as soon as the owner picks one (InstantChoiceCard: a refused value keeps the stored
 * choice and shows the server's message).
 */
import { __ } from '@wordpress/i18n';

import { InstantChoiceCard } from './instant-choice-card';

/** The option, fixed by the REST contract. */
export const GEOCODER_OPTION = 'cairn_maps_geocoder';

export const GEOCODERS = [ 'nominatim', 'mapbox-permanent' ] as const;

export type Geocoder = ( typeof GEOCODERS )[ number ];

/** The stored choice in a `/wp/v2/settings` answer; the default when missing or unknown. */
export function parseGeocoder( settings: unknown ): Geocoder {
	const value =
		typeof settings === 'object' && settings !== null
			? ( settings as Record< string, unknown > )[ GEOCODER_OPTION ]
			: undefined;
	return GEOCODERS.find( ( geocoder ) => geocoder === value ) ?? 'nominatim';
}

function savedMessage( geocoder: Geocoder ): string {
	return geocoder === 'mapbox-permanent'
		? __(
				'Saved. Address search now uses Mapbox permanent geocoding.',
				'cairn-maps'
			)
		: __(
				'Saved. Address search now uses OpenStreetMap Nominatim.',
				'cairn-maps'
			);
}

export function GeocoderPanel() {
	return (
		<InstantChoiceCard
			option={ GEOCODER_OPTION }
			parse={ parseGeocoder }
			options={ [
				{
					value: 'nominatim',
					label: __(
						'OpenStreetMap Nominatim (free; at most one search a second for the whole site; results © OpenStreetMap contributors, ODbL)',
						'cairn-maps'
					),
				},
				{
					value: 'mapbox-permanent',
					label: __(
						'Mapbox permanent geocoding (uses the access token above; billed to its Mapbox account as permanent geocoding)',
						'cairn-maps'
					),
				},
			] }
			className="cairn-maps-settings__geocoder"
			title={ __( 'Address search', 'cairn-maps' ) }
			intro={ __(
				'When authors look up an address for a place, this service finds it. Its answers are stored with the place, so only services whose terms allow storing them are offered. Your choice is saved at once.',
				'cairn-maps'
			) }
			label={ __( 'Address search service', 'cairn-maps' ) }
			savedMessage={ savedMessage }
		/>
	);
}
