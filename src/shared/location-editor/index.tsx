/**
 * The body of a "Location" panel, shared by the marker sidebar and the post sidebar: a small map
 * to click or drag the point, an address search, latitude and longitude fields, a field for
 * pasted coordinates or map links, and an optional address field.
 *
 * It only reports edits (`onChange`); the panel decides which meta keys they go to, and saving is
 * the editor's. The server is the judge of what is valid: a value typed out of range is kept as
 * typed, flagged here, and refused with a 400 when the post is saved, so the editor shows the
 * server's message.
 */
import type { Map as MapboxMap } from 'mapbox-gl';
import { TextControl } from '@wordpress/components';
import { useState } from '@wordpress/element';
import type { ReactNode } from 'react';
import { __, sprintf } from '@wordpress/i18n';
import type { LngLat } from '@cairn-maps/map';
import { LIMITS } from '@cairn-maps/map/plugin';

import { getEditorData } from '../../blocks/map/editor-data';
import { AddressSearch } from '../address-search';
import type { GeocodeResult } from '../address-search';
import { CoordinateField, PasteField, TokenNotice, coordinate } from './fields';
import { LocationMap } from './location-map';
import { ReverseAddress } from './reverse-address';
import './location-editor.scss';

/** An edit: each key present is changed (null removes the value). */
export interface LocationChanges {
	lat?: number | string | null;
	lng?: number | string | null;
	address?: string;
}

export interface LocationEditorProps {
	/** The stored or edited latitude (a number, or what was typed). */
	latitude: unknown;
	/** The stored or edited longitude. */
	longitude: unknown;
	/** The address, when the panel keeps one (undefined hides the field). */
	address?: unknown;
	onChange: ( changes: LocationChanges ) => void;
	/** Shown while there is no position. */
	hint: string;
	/** The map's accessible name, saying what a click does. */
	mapLabel: string;
	/** The pin's accessible name. */
	pinLabel: string;
	/** More controls, after the fields. */
	children?: ReactNode;
	/**
	 * Tools that work on the map (the shape tools), shown under it: given the ready map (null
	 * while there is none) and a switch that keeps clicks from placing the point while set.
	 */
	mapTools?: (
		map: MapboxMap | null,
		setBusy: ( busy: boolean ) => void
	) => ReactNode;
}

function positionText( position: LngLat ): string {
	return sprintf(
		/* translators: 1: latitude, 2: longitude, in degrees. */
		__( 'Position set: %1$s, %2$s', 'cairn-maps' ),
		String( position.lat ),
		String( position.lng )
	);
}

export function LocationEditor( {
	latitude,
	longitude,
	address,
	onChange,
	hint,
	mapLabel,
	pinLabel,
	children,
	mapTools,
}: LocationEditorProps ) {
	const { accessToken } = getEditorData();
	const [ status, setStatus ] = useState( '' );
	const [ map, setMap ] = useState< MapboxMap | null >( null );
	const [ toolBusy, setToolBusy ] = useState( false );

	const lat = coordinate( latitude, LIMITS.markerLatitude );
	const lng = coordinate( longitude, LIMITS.longitude );
	const position = lat !== null && lng !== null ? { lat, lng } : null;
	const place = ( next: LngLat ) => {
		onChange( { lat: next.lat, lng: next.lng } );
		setStatus( positionText( next ) );
	};
	const choose = ( result: GeocodeResult ) => {
		onChange( { lat: result.lat, lng: result.lng, address: result.label } );
		setStatus(
			sprintf(
				/* translators: 1: an address, 2: latitude, 3: longitude. */
				__( 'Position set to %1$s: %2$s, %3$s', 'cairn-maps' ),
				result.label,
				String( result.lat ),
				String( result.lng )
			)
		);
	};

	return (
		<>
			{ accessToken ? (
				<LocationMap
					accessToken={ accessToken }
					position={ position }
					onChange={ place }
					label={ mapLabel }
					pinLabel={ pinLabel }
					picking={ ! toolBusy }
					onMap={ mapTools ? setMap : undefined }
				/>
			) : (
				<TokenNotice />
			) }
			{ mapTools?.( map, setToolBusy ) }
			<AddressSearch onSelect={ choose } />
			<div className="cairn-maps-location-panel__fields">
				<CoordinateField
					label={ __( 'Latitude', 'cairn-maps' ) }
					range={ LIMITS.markerLatitude }
					value={ latitude }
					onChange={ ( value ) => {
						onChange( { lat: value } );
						setStatus( '' );
					} }
				/>
				<CoordinateField
					label={ __( 'Longitude', 'cairn-maps' ) }
					range={ LIMITS.longitude }
					value={ longitude }
					onChange={ ( value ) => {
						onChange( { lng: value } );
						setStatus( '' );
					} }
				/>
				{ address !== undefined && (
					<TextControl
						__next40pxDefaultSize
						__nextHasNoMarginBottom
						label={ __( 'Address', 'cairn-maps' ) }
						value={ typeof address === 'string' ? address : '' }
						maxLength={ 500 }
						autoComplete="off"
						onChange={ ( next: string ) =>
							onChange( { address: next } )
						}
					/>
				) }
				{ address !== undefined && position && (
					<ReverseAddress
						position={ position }
						onAddress={ ( found ) =>
							onChange( { address: found } )
						}
					/>
				) }
			</div>
			{ ! position && (
				<p className="cairn-maps-location-panel__hint">{ hint }</p>
			) }
			<PasteField onPosition={ place } />
			{ children }
			<p
				className="cairn-maps-location-panel__status"
				role="status"
				aria-live="polite"
			>
				{ status }
			</p>
		</>
	);
}
