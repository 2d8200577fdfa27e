/**
 * The shape of the marker selected on the preview: the shape tools on a copy of it, and "Save
 * shape", which writes `meta.cairn_geometry` (the marker's point stays where it is).
 */
import type { Map as MapboxMap } from 'mapbox-gl';
import { Button } from '@wordpress/components';
import { useState } from '@wordpress/element';
import { __ } from '@wordpress/i18n';

import {
	ShapeTools,
	readShape,
	type ShapeGeometry,
} from '../../../shared/shape-editor';

export interface SelectedShapeProps {
	map: MapboxMap | null;
	/** The stored shape. */
	stored: ShapeGeometry;
	busy: boolean;
	onActive: ( active: boolean ) => void;
	onSave: ( geometry: ShapeGeometry | null ) => void;
}

export function SelectedShape( {
	map,
	stored,
	busy,
	onActive,
	onSave,
}: SelectedShapeProps ) {
	const [ geometry, setGeometry ] = useState< ShapeGeometry | null >(
		readShape( stored )
	);
	const changed = JSON.stringify( geometry ) !== JSON.stringify( stored );

	return (
		<div className="cairn-maps-marker-editor__shape">
			<ShapeTools
				map={ map }
				value={ geometry }
				onChange={ setGeometry }
				onActive={ onActive }
			/>
			<Button
				variant="secondary"
				isBusy={ busy }
				disabled={ busy || ! changed }
				accessibleWhenDisabled
				onClick={ () => onSave( geometry ) }
			>
				{ __( 'Save shape', 'cairn-maps' ) }
			</Button>
		</div>
	);
}
