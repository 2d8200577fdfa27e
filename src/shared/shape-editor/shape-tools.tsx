/**
 * The shape tools of a map in the editor: draw a route or an area on the map, move a shape's
 * vertices, delete it, undo (the button, or Ctrl/⌘+Z while drawing or editing), or paste GeoJSON
 * instead of drawing. Controlled: `value` is the stored `meta.cairn_geometry`, each change goes
 * to `onChange`; the caller saves it with the post.
 */
import type { Map as MapboxMap } from 'mapbox-gl';
import { Button, Notice } from '@wordpress/components';
import { useEffect, useState } from '@wordpress/element';
import { __, _n, sprintf } from '@wordpress/i18n';

import {
	positionsOf,
	shapeKind,
	type ShapeGeometry,
	type ShapeKind,
} from './geometry';
import { PasteGeoJson } from './paste-geojson';
import { useShapeDraw } from './use-shape-draw';
import './shape-editor.scss';

export interface ShapeToolsProps {
	/** The ready map to draw on; null while it loads or when there is none (no token). */
	map: MapboxMap | null;
	/** The stored shape (`meta.cairn_geometry`): a geometry object, or null. */
	value: unknown;
	onChange: ( geometry: ShapeGeometry | null ) => void;
	/** Told whether a drawing or an edit is under way (map clicks are the tool's meanwhile). */
	onActive?: ( active: boolean ) => void;
	/** Starts drawing a shape of this kind as soon as the map is there. */
	autoStart?: ShapeKind;
}

function summary( shape: ShapeGeometry | null ): string {
	if ( ! shape ) {
		return __( 'No shape: the marker is a point.', 'cairn-maps' );
	}
	const vertices = positionsOf( shape ).reduce(
		( sum, part ) => sum + part.length,
		0
	);
	if ( shapeKind( shape ) === 'line' ) {
		return sprintf(
			/* translators: %s: how many vertices the route has. */
			_n(
				'A route of %s vertex.',
				'A route of %s vertices.',
				vertices,
				'cairn-maps'
			),
			vertices.toLocaleString()
		);
	}
	return sprintf(
		/* translators: %s: how many vertices the area's outline has. */
		_n(
			'An area of %s vertex.',
			'An area of %s vertices.',
			vertices,
			'cairn-maps'
		),
		vertices.toLocaleString()
	);
}

const HELP = {
	drawing: __(
		'Click the map to add vertices. Click the last vertex again, press Enter or choose Finish to end; Escape cancels.',
		'cairn-maps'
	),
	editing: __(
		'Drag a vertex to move it, drag a midpoint to add one; select a vertex and press Delete to remove it. Choose Done when finished.',
		'cairn-maps'
	),
};

export function ShapeTools( {
	map,
	value,
	onChange,
	onActive,
	autoStart,
}: ShapeToolsProps ) {
	const tools = useShapeDraw( map, value, onChange );
	const { shape, mode, undo, draw } = tools;
	const [ pasting, setPasting ] = useState( false );
	const active = mode !== 'idle';
	const noMap = ! map || tools.loading;

	useEffect( () => {
		onActive?.( active );
	}, [ active, onActive ] );

	useEffect( () => {
		if ( map && autoStart ) {
			draw( autoStart );
		}
	}, [ map, autoStart, draw ] );

	// Ctrl/⌘+Z while drawing or editing undoes the shape's last step, not the editor's.
	useEffect( () => {
		const view = map?.getContainer().ownerDocument.defaultView;
		if ( ! active || ! view ) {
			return undefined;
		}
		const onKey = ( event: KeyboardEvent ) => {
			if (
				( event.ctrlKey || event.metaKey ) &&
				! event.shiftKey &&
				event.key.toLowerCase() === 'z'
			) {
				event.preventDefault();
				event.stopPropagation();
				undo();
			}
		};
		view.addEventListener( 'keydown', onKey, true );
		return () => view.removeEventListener( 'keydown', onKey, true );
	}, [ map, active, undo ] );

	return (
		<div
			className="cairn-maps-shape-tools"
			role="group"
			aria-label={ __( 'Shape', 'cairn-maps' ) }
		>
			<p className="cairn-maps-shape-tools__summary">
				{ summary( shape ) }
			</p>
			{ tools.failed && (
				<Notice status="error" isDismissible={ false }>
					{ __(
						'The drawing tool could not be loaded. Paste GeoJSON instead.',
						'cairn-maps'
					) }
				</Notice>
			) }
			<div className="cairn-maps-shape-tools__buttons">
				{ active ? (
					<Button variant="primary" onClick={ tools.finish }>
						{ mode === 'drawing'
							? __( 'Finish', 'cairn-maps' )
							: __( 'Done', 'cairn-maps' ) }
					</Button>
				) : (
					<>
						<Button
							variant="secondary"
							disabled={ noMap }
							accessibleWhenDisabled
							onClick={ () => tools.draw( 'line' ) }
						>
							{ __( 'Draw a route', 'cairn-maps' ) }
						</Button>
						<Button
							variant="secondary"
							disabled={ noMap }
							accessibleWhenDisabled
							onClick={ () => tools.draw( 'area' ) }
						>
							{ __( 'Draw an area', 'cairn-maps' ) }
						</Button>
						<Button
							variant="secondary"
							disabled={ noMap || ! shape }
							accessibleWhenDisabled
							onClick={ tools.edit }
						>
							{ __( 'Edit shape', 'cairn-maps' ) }
						</Button>
					</>
				) }
				<Button
					variant="secondary"
					disabled={ ! tools.canUndo }
					accessibleWhenDisabled
					aria-keyshortcuts="Control+Z Meta+Z"
					onClick={ undo }
				>
					{ __( 'Undo', 'cairn-maps' ) }
				</Button>
				<Button
					variant="secondary"
					isDestructive
					disabled={ ! shape || mode === 'drawing' }
					accessibleWhenDisabled
					onClick={ () => tools.replace( null ) }
				>
					{ __( 'Delete shape', 'cairn-maps' ) }
				</Button>
				{ ! pasting && (
					<Button
						variant="tertiary"
						onClick={ () => setPasting( true ) }
					>
						{ __( 'Paste GeoJSON', 'cairn-maps' ) }
					</Button>
				) }
			</div>
			{ active && (
				<p className="cairn-maps-shape-tools__help">{ HELP[ mode ] }</p>
			) }
			{ pasting && (
				<PasteGeoJson
					onApply={ ( geometry ) => {
						tools.replace( geometry );
						setPasting( false );
					} }
					onClose={ () => setPasting( false ) }
				/>
			) }
		</div>
	);
}
