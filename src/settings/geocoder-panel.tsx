/**
 * Address search: which service finds the places of addresses (setting `cairn_maps_geocoder`).
 *
 * The panel loads and saves its one setting itself, as soon as the owner picks a service, so the
 * screen's own form and its "Save changes" stay as they are. The server refuses anything but the
 * two services with a 400 and keeps the stored choice; the panel then shows the stored choice
 * again with the server's message.
 */
import apiFetch from '@wordpress/api-fetch';
import {
	Card,
	CardBody,
	CardHeader,
	Notice,
	RadioControl,
	Spinner,
} from '@wordpress/components';
import { useEffect, useState } from '@wordpress/element';
import { __ } from '@wordpress/i18n';

import { requestErrorMessage } from '../shared/settings-api';

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

function isGeocoder( value: string ): value is Geocoder {
	return GEOCODERS.some( ( geocoder ) => geocoder === value );
}

type Status =
	| { kind: 'idle' }
	| { kind: 'saving' }
	| { kind: 'saved'; geocoder: Geocoder }
	| { kind: 'error'; message: string };

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
	const [ geocoder, setGeocoder ] = useState< Geocoder | null >( null );
	const [ status, setStatus ] = useState< Status >( { kind: 'idle' } );

	useEffect( () => {
		let current = true;
		apiFetch( { path: '/wp/v2/settings' } ).then(
			( settings: unknown ) =>
				current && setGeocoder( parseGeocoder( settings ) ),
			( error: unknown ) =>
				current &&
				setStatus( {
					kind: 'error',
					message: requestErrorMessage( error ),
				} )
		);
		return () => {
			current = false;
		};
	}, [] );

	const choose = async ( value: string ) => {
		if ( ! isGeocoder( value ) || geocoder === null ) {
			return;
		}
		const previous = geocoder;
		setGeocoder( value );
		setStatus( { kind: 'saving' } );
		try {
			const stored = parseGeocoder(
				await apiFetch( {
					path: '/wp/v2/settings',
					method: 'POST',
					data: { [ GEOCODER_OPTION ]: value },
				} )
			);
			setGeocoder( stored );
			setStatus( { kind: 'saved', geocoder: stored } );
		} catch ( error ) {
			setGeocoder( previous );
			setStatus( {
				kind: 'error',
				message: requestErrorMessage( error ),
			} );
		}
	};

	return (
		<Card className="cairn-maps-settings__card cairn-maps-settings__geocoder">
			<CardHeader>
				<h2>{ __( 'Address search', 'cairn-maps' ) }</h2>
			</CardHeader>
			<CardBody>
				<p>
					{ __(
						'When authors look up an address for a place, this service finds it. Its answers are stored with the place, so only services whose terms allow storing them are offered. Your choice is saved at once.',
						'cairn-maps'
					) }
				</p>
				{ geocoder === null && status.kind !== 'error' && <Spinner /> }
				{ geocoder !== null && (
					<RadioControl
						label={ __( 'Address search service', 'cairn-maps' ) }
						selected={ geocoder }
						disabled={ status.kind === 'saving' }
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
						onChange={ ( value ) => void choose( value ) }
					/>
				) }
				<div aria-live="polite">
					{ status.kind === 'saving' && (
						<p>{ __( 'Saving…', 'cairn-maps' ) }</p>
					) }
					{ status.kind === 'saved' && (
						<p>{ savedMessage( status.geocoder ) }</p>
					) }
				</div>
				{ status.kind === 'error' && (
					<Notice status="error" isDismissible={ false }>
						{ status.message }
					</Notice>
				) }
			</CardBody>
		</Card>
	);
}
