/**
 * Find a place by its address: a search field and the list of what the site's geocoder found
 * (`GET /cairn/v1/geocode?q=`, plugin/Geocoding). Choosing a result hands its label and
 * coordinates to the caller, which stores them.
 *
 * A search runs when asked (Enter or the button), never while typing: the providers' policies
 * (Nominatim's above all) forbid autocomplete on their free service, and the site shares one
 * request a second. The field is a combobox over the results: ↓/↑ move through them, Enter
 * chooses, Escape closes them. The number found is announced; the provider's attribution is shown
 * under the results, as its terms require; a refusal (429: too many searches) or a failure shows
 * the server's message.
 */
import apiFetch from '@wordpress/api-fetch';
import { speak } from '@wordpress/a11y';
import { Button, Notice, TextControl } from '@wordpress/components';
import { useId, useRef, useState } from '@wordpress/element';
import type { KeyboardEvent } from 'react';
import { __, _n, sprintf } from '@wordpress/i18n';

import {
	AddressSearchResults,
	resultId,
	resultsId,
} from './address-search-results';
import { geocodeErrorMessage, parseGeocodeAnswer } from './geocode-answer';
import type { GeocodeAnswer, GeocodeResult } from './geocode-answer';

export type { GeocodeAnswer, GeocodeResult } from './geocode-answer';

export interface AddressSearchProps {
	/** Called with the chosen result. */
	onSelect: ( result: GeocodeResult ) => void;
}

/** Says how many addresses a search found, and how to choose one. */
function announceFound( count: number ): void {
	speak(
		count > 0
			? sprintf(
					/* translators: %d: number of addresses. */
					_n(
						'%d address found. Use the up and down arrow keys to choose, Enter to set it.',
						'%d addresses found. Use the up and down arrow keys to choose, Enter to set one.',
						count,
						'cairn-maps'
					),
					count
				)
			: __( 'No address found.', 'cairn-maps' ),
		'polite'
	);
}

export function AddressSearch( { onSelect }: AddressSearchProps ) {
	const id = `cairn-maps-address-search${ useId() }`;
	const [ query, setQuery ] = useState( '' );
	const [ answer, setAnswer ] = useState< GeocodeAnswer | null >( null );
	const [ open, setOpen ] = useState( false );
	const [ active, setActive ] = useState( -1 );
	const [ busy, setBusy ] = useState( false );
	const [ error, setError ] = useState( '' );
	// Only the latest search's answer counts.
	const latest = useRef( 0 );

	const search = async () => {
		const q = query.trim();
		if ( q === '' || busy ) {
			return;
		}
		const request = ++latest.current;
		setBusy( true );
		setError( '' );
		try {
			const found = parseGeocodeAnswer(
				await apiFetch( {
					path: `/cairn/v1/geocode?q=${ encodeURIComponent( q ) }`,
				} )
			);
			if ( request !== latest.current ) {
				return;
			}
			setAnswer( found );
			setOpen( true );
			setActive( found.results.length > 0 ? 0 : -1 );
			announceFound( found.results.length );
		} catch ( caught ) {
			if ( request !== latest.current ) {
				return;
			}
			const message = geocodeErrorMessage( caught );
			setAnswer( null );
			setOpen( false );
			setError( message );
			speak( message, 'assertive' );
		} finally {
			if ( request === latest.current ) {
				setBusy( false );
			}
		}
	};

	const results = answer?.results ?? [];
	const choose = ( result: GeocodeResult ) => {
		onSelect( result );
		setOpen( false );
		setActive( -1 );
	};

	const onKeyDown = ( event: KeyboardEvent< HTMLInputElement > ) => {
		const count = results.length;
		if ( event.key === 'Enter' ) {
			event.preventDefault();
			const chosen = open ? results[ active ] : undefined;
			if ( chosen ) {
				choose( chosen );
			} else {
				search();
			}
		} else if (
			( event.key === 'ArrowDown' || event.key === 'ArrowUp' ) &&
			count > 0
		) {
			event.preventDefault();
			setOpen( true );
			const step = event.key === 'ArrowDown' ? 1 : -1;
			setActive( ( current ) => ( current + step + count ) % count );
		} else if ( event.key === 'Escape' && open ) {
			event.preventDefault();
			event.stopPropagation();
			setOpen( false );
		}
	};

	const shown = open ? answer : null;

	return (
		<div className="cairn-maps-address-search">
			<div className="cairn-maps-address-search__row">
				<TextControl
					__next40pxDefaultSize
					__nextHasNoMarginBottom
					type="search"
					label={ __( 'Find an address', 'cairn-maps' ) }
					value={ query }
					autoComplete="off"
					role="combobox"
					aria-autocomplete="list"
					aria-expanded={ !! shown && results.length > 0 }
					aria-controls={ resultsId( id ) }
					aria-activedescendant={
						shown && active >= 0
							? resultId( id, active )
							: undefined
					}
					onChange={ ( next: string ) => {
						setQuery( next );
						setOpen( false );
					} }
					onKeyDown={ onKeyDown }
				/>
				<Button
					__next40pxDefaultSize
					variant="secondary"
					isBusy={ busy }
					disabled={ query.trim() === '' || busy }
					accessibleWhenDisabled
					onClick={ search }
				>
					{ __( 'Search', 'cairn-maps' ) }
				</Button>
			</div>
			{ error && (
				<Notice
					status="error"
					isDismissible={ false }
					className="cairn-maps-address-search__error"
				>
					{ error }
				</Notice>
			) }
			<AddressSearchResults
				id={ id }
				answer={ shown }
				active={ active }
				onChoose={ choose }
			/>
		</div>
	);
}
