/**
 * The access-token input with its verdict, checked as the owner types. Used by the settings screen
 * and by the map block's placeholder in the editor.
 */
import { TextControl } from '@wordpress/components';
import { useId } from '@wordpress/element';
import { __ } from '@wordpress/i18n';
import { checkToken } from '@cairn-maps/map';

import { tokenVerdict } from './token-messages';
import './token-field.scss';

export interface TokenFieldProps {
	/** The token as typed. */
	value: string;
	onChange: ( value: string ) => void;
	/** Field label; defaults to “Mapbox access token”. */
	label?: string;
	/** Hides the verdict while the field is empty (the editor placeholder explains that itself). */
	hideEmptyVerdict?: boolean;
}

export function TokenField( {
	value,
	onChange,
	label = __( 'Mapbox access token', 'cairn-maps' ),
	hideEmptyVerdict = false,
}: TokenFieldProps ) {
	const verdictId = `cairn-maps-token-verdict-${ useId() }`;
	const check = checkToken( value );
	const verdict = tokenVerdict( check );
	const showVerdict = ! ( hideEmptyVerdict && check.kind === 'empty' );
	return (
		<div className="cairn-maps-token-field">
			<TextControl
				__next40pxDefaultSize
				__nextHasNoMarginBottom
				className="cairn-maps-token-field__input"
				label={ label }
				value={ value }
				onChange={ onChange }
				autoComplete="off"
				spellCheck={ false }
				placeholder="pk.…"
				aria-describedby={ showVerdict ? verdictId : undefined }
				aria-invalid={ ! verdict.acceptable }
			/>
			{ showVerdict && (
				<p
					id={ verdictId }
					className={ `cairn-maps-token-field__verdict is-${ verdict.status }` }
					data-token-verdict={ check.kind }
					aria-live="polite"
				>
					{ verdict.message }
				</p>
			) }
		</div>
	);
}
