/**
 * A number field that keeps what the editor types, saves only valid values and says why not.
 */
import { TextControl } from '@wordpress/components';
import { useEffect, useState } from '@wordpress/element';
import { __, sprintf } from '@wordpress/i18n';

import { parseNumberIn } from './validation';

export interface NumberFieldProps {
	label: string;
	value: number;
	range: { min: number; max: number };
	step?: number;
	onChange: ( value: number ) => void;
	/** A rule that spans fields (e.g. the zoom range): a message refuses the value. */
	check?: ( value: number ) => string;
}

export function NumberField( {
	label,
	value,
	range,
	step = 0.0001,
	onChange,
	check,
}: NumberFieldProps ) {
	const [ text, setText ] = useState( String( value ) );
	useEffect( () => {
		// Follow outside changes (sliders, "Use current view") unless the field holds the same number.
		setText( ( current ) =>
			parseNumberIn( current, range ) === value
				? current
				: String( value )
		);
	}, [ value, range ] );
	const parsed = parseNumberIn( text, range );
	const message =
		parsed !== null
			? ( check?.( parsed ) ?? '' )
			: sprintf(
					/* translators: 1: minimum, 2: maximum. */
					__( 'Enter a number from %1$s to %2$s.', 'cairn-maps' ),
					String( range.min ),
					String( range.max )
				);
	return (
		<TextControl
			__next40pxDefaultSize
			__nextHasNoMarginBottom
			label={ label }
			type="number"
			min={ range.min }
			max={ range.max }
			step={ step }
			value={ text }
			aria-invalid={ message ? true : undefined }
			help={ message || undefined }
			className={ message ? 'cairn-maps-field-error' : undefined }
			onChange={ ( next: string ) => {
				setText( next );
				const number = parseNumberIn( next, range );
				if ( number !== null && ! check?.( number ) ) {
					onChange( number );
				}
			} }
		/>
	);
}
