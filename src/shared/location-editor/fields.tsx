/**
 * The fields of a Location editor: a coordinate typed as a number, coordinates pasted in any common
 * notation or as a map link (src/markers/parse-coordinates.ts), and the notice shown instead of the
 * map when there is no usable token.
 */
import { Button, Notice, TextControl } from '@wordpress/components';
import { useEffect, useState } from '@wordpress/element';
import { __, sprintf } from '@wordpress/i18n';
import { errorMessage, type LngLat } from '@cairn-maps/map';

import { getEditorData } from '../../blocks/map/editor-data';
import { parseCoordinates } from '../../markers/parse-coordinates';

/** A number as people type it: optional sign, digits, optional decimals (no exponent, no hex). */
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** A coordinate that places the point: a number in range, else null (unset, or being corrected). */
export function coordinate(
	value: unknown,
	range: { min: number; max: number }
): number | null {
	return typeof value === 'number' &&
		Number.isFinite( value ) &&
		value >= range.min &&
		value <= range.max
		? value
		: null;
}

/** What a field shows for a meta value. */
function display( value: unknown ): string {
	if ( typeof value === 'number' && Number.isFinite( value ) ) {
		return String( value );
	}
	return typeof value === 'string' ? value : '';
}

/** The meta value for what was typed: a number when it is one, null when empty, else the text. */
function valueOf( text: string ): number | string | null {
	const trimmed = text.trim();
	if ( trimmed === '' ) {
		return null;
	}
	return PLAIN_NUMBER.test( trimmed ) ? Number( trimmed ) : trimmed;
}

export interface CoordinateFieldProps {
	label: string;
	range: { min: number; max: number };
	value: unknown;
	onChange: ( value: number | string | null ) => void;
}

export function CoordinateField( {
	label,
	range,
	value,
	onChange,
}: CoordinateFieldProps ) {
	const [ text, setText ] = useState( display( value ) );
	useEffect( () => {
		// Follow changes made elsewhere (the map, a paste), unless the field says the same.
		setText( ( current ) =>
			valueOf( current ) === ( value ?? null )
				? current
				: display( value )
		);
	}, [ value ] );
	const typed = valueOf( text );
	const invalid =
		typed !== null &&
		( typeof typed !== 'number' || typed < range.min || typed > range.max );
	return (
		<TextControl
			__next40pxDefaultSize
			__nextHasNoMarginBottom
			className={ invalid ? 'cairn-maps-field-error' : undefined }
			label={ label }
			value={ text }
			inputMode="decimal"
			autoComplete="off"
			aria-invalid={ invalid ? true : undefined }
			help={
				invalid
					? sprintf(
							/* translators: 1: minimum, 2: maximum, in degrees. */
							__(
								'Enter a number of degrees from %1$s to %2$s.',
								'cairn-maps'
							),
							String( range.min ),
							String( range.max )
						)
					: undefined
			}
			onChange={ ( next: string ) => {
				setText( next );
				onChange( valueOf( next ) );
			} }
		/>
	);
}

export interface PasteFieldProps {
	onPosition: ( position: LngLat ) => void;
}

export function PasteField( { onPosition }: PasteFieldProps ) {
	const [ text, setText ] = useState( '' );
	const [ error, setError ] = useState( '' );
	const apply = ( value: string ) => {
		const position = parseCoordinates( value );
		if ( ! position ) {
			setError(
				__(
					'These are not coordinates this field can read. Use for example 55.95, -3.19 or 55°57′N 3°11′W, or paste a Google Maps or OpenStreetMap link.',
					'cairn-maps'
				)
			);
			return false;
		}
		onPosition( position );
		setText( '' );
		setError( '' );
		return true;
	};
	return (
		<div className="cairn-maps-location-panel__paste">
			<TextControl
				__next40pxDefaultSize
				__nextHasNoMarginBottom
				className={ error ? 'cairn-maps-field-error' : undefined }
				label={ __( 'Paste coordinates', 'cairn-maps' ) }
				value={ text }
				autoComplete="off"
				placeholder="55.95, -3.19"
				aria-invalid={ error ? true : undefined }
				help={
					error ||
					__(
						'Latitude, longitude in decimal or degrees, minutes and seconds, or a map link.',
						'cairn-maps'
					)
				}
				onChange={ ( next: string ) => {
					setText( next );
					setError( '' );
				} }
				onPaste={ ( event ) => {
					// A clean paste is used at once; anything else stays for correcting.
					if (
						text.trim() === '' &&
						parseCoordinates(
							event.clipboardData.getData( 'text' )
						)
					) {
						event.preventDefault();
						apply( event.clipboardData.getData( 'text' ) );
					}
				} }
				onKeyDown={ ( event ) => {
					if ( event.key === 'Enter' ) {
						event.preventDefault();
						apply( text );
					}
				} }
			/>
			<Button
				__next40pxDefaultSize
				variant="secondary"
				disabled={ text.trim() === '' }
				accessibleWhenDisabled
				onClick={ () => apply( text ) }
			>
				{ __( 'Set position', 'cairn-maps' ) }
			</Button>
		</div>
	);
}

export function TokenNotice() {
	const data = getEditorData();
	const message =
		data.tokenError && data.tokenError !== 'missing-token'
			? errorMessage( data.tokenError )
			: __(
					'The map needs a public Mapbox access token (Settings → Cairn Maps). Meanwhile, type or paste the coordinates.',
					'cairn-maps'
				);
	return (
		<Notice
			status="warning"
			isDismissible={ false }
			className="cairn-maps-location-panel__notice"
		>
			{ message }
			{ data.canManageOptions && data.settingsUrl && (
				<>
					{ ' ' }
					<a href={ data.settingsUrl }>
						{ __( 'Open the settings', 'cairn-maps' ) }
					</a>
				</>
			) }
		</Notice>
	);
}
