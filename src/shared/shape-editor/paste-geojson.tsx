/**
 * "Paste GeoJSON": the keyboard way to give a marker a shape. The text is checked here at once
 * (parseShapeText); the server checks it again when the post is saved.
 */
import { Button, TextareaControl } from '@wordpress/components';
import { useState } from '@wordpress/element';
import { __ } from '@wordpress/i18n';

import { parseShapeText, type ShapeGeometry } from './geometry';

export interface PasteGeoJsonProps {
	onApply: ( geometry: ShapeGeometry ) => void;
	onClose: () => void;
}

export function PasteGeoJson( { onApply, onClose }: PasteGeoJsonProps ) {
	const [ text, setText ] = useState( '' );
	const [ error, setError ] = useState( '' );
	const apply = () => {
		const result = parseShapeText( text );
		if ( result.error !== undefined ) {
			setError( result.error );
			return;
		}
		setError( '' );
		onApply( result.geometry );
	};

	return (
		// Not a form: the tools may sit inside one (the block's new-marker form).
		<div className="cairn-maps-shape-tools__paste">
			<TextareaControl
				__nextHasNoMarginBottom
				label={ __( 'GeoJSON of the shape', 'cairn-maps' ) }
				help={ __(
					'A LineString, MultiLineString, Polygon or MultiPolygon, or a Feature holding one.',
					'cairn-maps'
				) }
				value={ text }
				rows={ 5 }
				onChange={ ( next: string ) => {
					setText( next );
					setError( '' );
				} }
			/>
			{ error && (
				<p className="cairn-maps-shape-tools__error" role="alert">
					{ error }
				</p>
			) }
			<div className="cairn-maps-shape-tools__buttons">
				<Button
					variant="secondary"
					disabled={ ! text.trim() }
					accessibleWhenDisabled
					onClick={ apply }
				>
					{ __( 'Apply', 'cairn-maps' ) }
				</Button>
				<Button variant="tertiary" onClick={ onClose }>
					{ __( 'Cancel', 'cairn-maps' ) }
				</Button>
			</div>
		</div>
	);
}
