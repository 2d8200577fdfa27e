/**
 * Find a place by name (Mapbox geocoding, with the public token) and centre the map on it.
 */
import { Button, Notice, TextControl } from '@wordpress/components';
import { useState } from '@wordpress/element';
import { __ } from '@wordpress/i18n';

export interface Place {
	name: string;
	lng: number;
	lat: number;
}

export interface PlaceSearchProps {
	accessToken: string;
	onSelect: ( place: Place ) => void;
}

const GEOCODE_URL = 'https://api.mapbox.com/search/geocode/v6/forward';

/** Reads the places out of a geocoding answer; anything unexpected is skipped. */
export function parsePlaces( body: unknown ): Place[] {
	const features =
		typeof body === 'object' && body !== null && 'features' in body
			? ( body as { features: unknown } ).features
			: null;
	if ( ! Array.isArray( features ) ) {
		return [];
	}
	const places: Place[] = [];
	for ( const feature of features ) {
		const coordinates = feature?.geometry?.coordinates;
		const properties = feature?.properties ?? {};
		const name =
			properties.full_address ?? properties.name ?? feature?.place_name;
		if (
			Array.isArray( coordinates ) &&
			typeof coordinates[ 0 ] === 'number' &&
			typeof coordinates[ 1 ] === 'number' &&
			typeof name === 'string'
		) {
			places.push( {
				name,
				lng: coordinates[ 0 ],
				lat: coordinates[ 1 ],
			} );
		}
	}
	return places;
}

export function PlaceSearch( { accessToken, onSelect }: PlaceSearchProps ) {
	const [ query, setQuery ] = useState( '' );
	const [ places, setPlaces ] = useState< Place[] >( [] );
	const [ status, setStatus ] = useState<
		'idle' | 'busy' | 'none' | 'error'
	>( 'idle' );

	const search = async () => {
		if ( ! query.trim() || ! accessToken ) {
			return;
		}
		setStatus( 'busy' );
		try {
			const url = new URL( GEOCODE_URL );
			url.searchParams.set( 'q', query.trim() );
			url.searchParams.set( 'limit', '5' );
			url.searchParams.set( 'access_token', accessToken );
			const response = await window.fetch( url.toString() );
			if ( ! response.ok ) {
				throw new Error( String( response.status ) );
			}
			const found = parsePlaces( await response.json() );
			setPlaces( found );
			setStatus( found.length ? 'idle' : 'none' );
		} catch {
			// Shown as a notice below; the URL (with the token) is never shown.
			setPlaces( [] );
			setStatus( 'error' );
		}
	};

	return (
		<div className="cairn-maps-place-search">
			<form
				onSubmit={ ( event ) => {
					event.preventDefault();
					search();
				} }
			>
				<TextControl
					__next40pxDefaultSize
					__nextHasNoMarginBottom
					label={ __( 'Find a place', 'cairn-maps' ) }
					value={ query }
					onChange={ setQuery }
				/>
				<Button
					variant="secondary"
					type="submit"
					isBusy={ status === 'busy' }
					disabled={ ! accessToken || status === 'busy' }
				>
					{ __( 'Search', 'cairn-maps' ) }
				</Button>
			</form>
			{ status === 'none' && (
				<p role="status">{ __( 'No place found.', 'cairn-maps' ) }</p>
			) }
			{ status === 'error' && (
				<Notice status="error" isDismissible={ false }>
					{ __(
						'The place search is not available right now.',
						'cairn-maps'
					) }
				</Notice>
			) }
			{ places.length > 0 && (
				<ul className="cairn-maps-place-search__results">
					{ places.map( ( place ) => (
						<li
							key={ `${ place.lng },${ place.lat },${ place.name }` }
						>
							<Button
								variant="link"
								onClick={ () => {
									onSelect( place );
									setPlaces( [] );
								} }
							>
								{ place.name }
							</Button>
						</li>
					) ) }
				</ul>
			) }
		</div>
	);
}
