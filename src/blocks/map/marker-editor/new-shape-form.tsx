/**
 * A marker drawn as a route or an area on the live preview: the shape tools (drawing starts at
 * once with the kind chosen in the toolbar), then the title and optional text the add-marker form
 * asks for. The new marker's point is the server's anchor for the shape.
 */
import type { Map as MapboxMap } from 'mapbox-gl';
import { Button, TextControl, TextareaControl } from '@wordpress/components';
import { useState } from '@wordpress/element';
import { __ } from '@wordpress/i18n';

import {
	ShapeTools,
	type ShapeGeometry,
	type ShapeKind,
} from '../../../shared/shape-editor';
import type { AddDraft } from './add-marker-form';

export interface NewShapeFormProps {
	map: MapboxMap | null;
	/** The kind chosen in the toolbar: drawing it starts at once. */
	kind: ShapeKind;
	busy: boolean;
	/** Told while a drawing or an edit is under way (clicks on the map are the tool's). */
	onActive: ( active: boolean ) => void;
	onSubmit: ( draft: AddDraft, geometry: ShapeGeometry ) => void;
	onCancel: () => void;
}

export function NewShapeForm( {
	map,
	kind,
	busy,
	onActive,
	onSubmit,
	onCancel,
}: NewShapeFormProps ) {
	const [ geometry, setGeometry ] = useState< ShapeGeometry | null >( null );
	const [ draft, setDraft ] = useState< AddDraft >( { title: '', text: '' } );

	return (
		<>
			<ShapeTools
				map={ map }
				value={ geometry }
				onChange={ setGeometry }
				onActive={ onActive }
				autoStart={ kind }
			/>
			<form
				onSubmit={ ( event ) => {
					event.preventDefault();
					if ( geometry && draft.title.trim() ) {
						onSubmit( draft, geometry );
					}
				} }
			>
				<TextControl
					__next40pxDefaultSize
					__nextHasNoMarginBottom
					label={ __( 'Marker title', 'cairn-maps' ) }
					value={ draft.title }
					onChange={ ( title: string ) =>
						setDraft( { ...draft, title } )
					}
					required
				/>
				<TextareaControl
					__nextHasNoMarginBottom
					label={ __( 'Text (optional)', 'cairn-maps' ) }
					value={ draft.text }
					onChange={ ( text: string ) =>
						setDraft( { ...draft, text } )
					}
				/>
				<Button
					variant="primary"
					type="submit"
					isBusy={ busy }
					disabled={ busy || ! geometry || ! draft.title.trim() }
					accessibleWhenDisabled
				>
					{ __( 'Save marker', 'cairn-maps' ) }
				</Button>
				<Button variant="tertiary" onClick={ onCancel }>
					{ __( 'Cancel', 'cairn-maps' ) }
				</Button>
			</form>
		</>
	);
}
