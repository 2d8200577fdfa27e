/**
 * "Find the address of this point": one reverse lookup through the site's geocoder
 * (`GET /cairn/v1/geocode?lat=&lng=`), on request only, so that an address kept with a point that
 * was moved can be brought up to date. The provider's attribution is shown with the answer.
 */
import apiFetch from '@wordpress/api-fetch';
import { speak } from '@wordpress/a11y';
import { Button, Notice } from '@wordpress/components';
import { useState } from '@wordpress/element';
import { __, sprintf } from '@wordpress/i18n';
import type { LngLat } from '@cairn-maps/map';

import { geocodeErrorMessage, parseGeocodeAnswer } from '../geocode-answer';

export interface ReverseAddressProps {
	/** The point whose address to find. */
	position: LngLat;
	/** Called with the address found. */
	onAddress: ( address: string ) => void;
}

export function ReverseAddress( { position, onAddress }: ReverseAddressProps ) {
	const [ busy, setBusy ] = useState( false );
	const [ note, setNote ] = useState( '' );
	const [ attribution, setAttribution ] = useState( '' );
	const [ error, setError ] = useState( '' );

	const lookUp = async () => {
		setBusy( true );
		setError( '' );
		setNote( '' );
		try {
			const answer = parseGeocodeAnswer(
				await apiFetch( {
					path: `/cairn/v1/geocode?lat=${ position.lat }&lng=${ position.lng }`,
				} )
			);
			const found = answer.results[ 0 ];
			setAttribution( answer.attribution );
			const message = found
				? sprintf(
						/* translators: %s: an address. */
						__( 'Address found: %s', 'cairn-maps' ),
						found.label
					)
				: __( 'No address was found for this point.', 'cairn-maps' );
			if ( found ) {
				onAddress( found.label );
			}
			setNote( message );
			speak( message, 'polite' );
		} catch ( caught ) {
			const message = geocodeErrorMessage( caught );
			setError( message );
			speak( message, 'assertive' );
		} finally {
			setBusy( false );
		}
	};

	return (
		<div className="cairn-maps-address-search__reverse">
			<Button
				__next40pxDefaultSize
				variant="secondary"
				isBusy={ busy }
				disabled={ busy }
				accessibleWhenDisabled
				onClick={ lookUp }
			>
				{ __( 'Find the address of this point', 'cairn-maps' ) }
			</Button>
			{ error && (
				<Notice
					status="error"
					isDismissible={ false }
					className="cairn-maps-address-search__error"
				>
					{ error }
				</Notice>
			) }
			{ note && (
				<p className="cairn-maps-address-search__empty">
					{ note }
					{ attribution && (
						<span className="cairn-maps-address-search__attribution">
							{ ' ' }
							{ attribution }
						</span>
					) }
				</p>
			) }
		</div>
	);
}
