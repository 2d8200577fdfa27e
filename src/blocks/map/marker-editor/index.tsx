/**
 * Markers placed and edited on the live preview.
 *
 * - "Add marker" mode: a click on the map asks for a title (and optional text) inline, then creates
 *   a published `cairn_marker` through the REST API and adds it to the block's selection.
 * - A click on a marker selects it: edit its title, text and group, open its full edit screen,
 *   drag it to a new place, or move it to the trash after a confirmation; a marker with a shape
 *   also gets the shape tools (edit its vertices, delete it, paste another).
 * - "Draw a route" / "Draw an area": the shape is drawn on the map, then titled, and a marker is
 *   created with it (its point is the server's anchor for the shape).
 * Failed saves show a notice and leave nothing half-created (the server refuses bad coordinates
 * before it stores anything).
 */
import type { Map as MapboxMap } from 'mapbox-gl';
import { Notice } from '@wordpress/components';
import { useCallback, useState } from '@wordpress/element';
import { __ } from '@wordpress/i18n';

import type { MarkerSelection } from '@cairn-maps/map';
import {
	readShape,
	type ShapeGeometry,
	type ShapeKind,
} from '../../../shared/shape-editor';
import { useMarkerGroups } from '../marker-groups';
import { AddMarkerForm, type AddDraft } from './add-marker-form';
import {
	useMarkerRecord,
	useMarkerWrites,
	type MarkerDraft,
	type Position,
} from './marker-data';
import { NewShapeForm } from './new-shape-form';
import { SelectedMarkerForm } from './selected-marker-form';
import { SelectedShape } from './selected-shape';
import { useDragHandle } from './use-drag-handle';
import { useMapClicks } from './use-map-clicks';

export interface MarkerEditorProps {
	map: MapboxMap | null;
	markers: MarkerSelection;
	setMarkers: ( markers: MarkerSelection ) => void;
	/** Called after any change, so the preview reloads the marker data. */
	onChanged: () => void;
	/** Called after a shape was saved or a marker was trashed, so the preview reloads shapes. */
	onShapesChanged?: () => void;
	/** Called with the id of every marker this editor creates. */
	onCreated: ( id: number ) => void;
	editUrl: string;
	adding: boolean;
	setAdding: ( adding: boolean ) => void;
	/** The kind of shape being drawn for a new marker (the toolbar's choice), or null. */
	newShape?: ShapeKind | null;
	setNewShape?: ( kind: ShapeKind | null ) => void;
}

const EMPTY_DRAFT: AddDraft = { title: '', text: '' };

/** Where a new marker goes: a clicked point, or a drawn shape (the server takes its anchor). */
type NewPlace = { position: Position } | { geometry: ShapeGeometry };

/**
 * Creates a published marker at a clicked point or with a drawn shape, puts it in the block's
 * selection, then calls `done`.
 * @param writes The marker editor's writes.
 * @param block  The block's selection and callbacks.
 * @param done   Called with the place once the marker exists.
 */
function useCreateMarker(
	writes: ReturnType< typeof useMarkerWrites >,
	block: Pick<
		MarkerEditorProps,
		'markers' | 'setMarkers' | 'onCreated' | 'onChanged'
	>,
	done: ( place: NewPlace ) => void
) {
	const groups = useMarkerGroups();
	const { markers } = block;
	return ( draft: AddDraft, place: NewPlace ) => {
		const title = draft.title.trim();
		if ( ! title ) {
			return;
		}
		// A map of chosen groups puts the new marker in the first of them that exists.
		const group =
			markers.source === 'groups'
				? groups.find( ( term ) =>
						markers.groups.includes( term.slug )
					)
				: undefined;
		writes.run( async () => {
			const record = await writes.create( {
				title,
				content: draft.text,
				...place,
				groups: group ? [ group.id ] : [],
			} );
			block.onCreated( record.id );
			if ( markers.source === 'ids' ) {
				block.setMarkers( {
					...markers,
					ids: [ ...markers.ids, record.id ],
				} );
			}
			done( place );
			block.onChanged();
		} );
	};
}

/**
 * The writes of the selected marker: its form saved, moved to the trash (and out of the block's
 * ids), its shape saved.
 * @param writes     The marker editor's writes.
 * @param selectedId The selected marker.
 * @param deselect   Called once the marker is in the trash.
 * @param block      The block's selection and callbacks.
 */
function useSelectedWrites(
	writes: ReturnType< typeof useMarkerWrites >,
	selectedId: number | null,
	deselect: () => void,
	block: Pick<
		MarkerEditorProps,
		'markers' | 'setMarkers' | 'onChanged' | 'onShapesChanged'
	>
) {
	const { run } = writes;
	const { markers, onChanged } = block;
	const shapesChanged = () => block.onShapesChanged?.();
	return {
		update: ( draft: MarkerDraft ) =>
			selectedId &&
			run( async () => {
				await writes.update( selectedId, draft );
				onChanged();
			} ),
		trash: () =>
			selectedId &&
			run( async () => {
				await writes.trash( selectedId );
				if ( markers.ids.includes( selectedId ) ) {
					block.setMarkers( {
						...markers,
						ids: markers.ids.filter( ( id ) => id !== selectedId ),
					} );
				}
				deselect();
				onChanged();
				shapesChanged();
			}, false ),
		reshape: ( geometry: ShapeGeometry | null ) =>
			selectedId &&
			run( async () => {
				await writes.reshape( selectedId, geometry );
				onChanged();
				shapesChanged();
			} ),
	};
}

export function MarkerEditor( {
	map,
	markers,
	setMarkers,
	onChanged,
	onCreated,
	editUrl,
	adding,
	setAdding,
	newShape = null,
	setNewShape = () => undefined,
	onShapesChanged = () => undefined,
}: MarkerEditorProps ) {
	const writes = useMarkerWrites();
	const { busy, error, setError, run, move } = writes;
	const groups = useMarkerGroups();
	// A shape being drawn or edited: clicks on the map are the drawing tool's.
	const [ drawing, setDrawing ] = useState( false );
	const { pending, setPending, selectedId, setSelectedId, selections } =
		useMapClicks( map, adding, setError, drawing || newShape !== null );
	const selected = useMarkerRecord( selectedId );
	const [ addDraft, setAddDraft ] = useState< AddDraft >( EMPTY_DRAFT );

	const moveTo = useCallback(
		( id: number, position: Position ) =>
			run( async () => {
				await move( id, position );
				onChanged();
			}, false ),
		[ run, move, onChanged ]
	);
	useDragHandle(
		map,
		selectedId,
		{ lat: selected?.meta?.cairn_lat, lng: selected?.meta?.cairn_lng },
		moveTo
	);

	const create = useCreateMarker(
		writes,
		{ markers, setMarkers, onCreated, onChanged },
		( place ) => {
			if ( 'geometry' in place ) {
				setNewShape( null );
				onShapesChanged();
			} else {
				setPending( null );
				setAddDraft( EMPTY_DRAFT );
				setAdding( false );
			}
		}
	);

	const { update, trash, reshape } = useSelectedWrites(
		writes,
		selectedId,
		() => setSelectedId( null ),
		{ markers, setMarkers, onChanged, onShapesChanged }
	);
	const selectedShape = readShape( selected?.meta?.cairn_geometry );

	const notice = error && (
		<Notice status="error" onRemove={ () => setError( '' ) }>
			{ error }
		</Notice>
	);
	if ( newShape ) {
		return (
			<div
				className="cairn-maps-marker-editor"
				role="group"
				aria-label={ __( 'New marker with a shape', 'cairn-maps' ) }
			>
				{ notice }
				<NewShapeForm
					key={ newShape }
					map={ map }
					kind={ newShape }
					busy={ busy }
					onActive={ setDrawing }
					onSubmit={ ( draft, geometry ) =>
						create( draft, { geometry } )
					}
					onCancel={ () => setNewShape( null ) }
				/>
			</div>
		);
	}
	if ( ! pending && ! selectedId && ! error && ! adding ) {
		return null;
	}

	return (
		<div
			className="cairn-maps-marker-editor"
			role="group"
			aria-label={ __( 'Marker', 'cairn-maps' ) }
		>
			{ notice }
			{ adding && ! pending && (
				<p role="status">
					{ __(
						'Click the map where the new marker belongs.',
						'cairn-maps'
					) }
				</p>
			) }
			{ pending && (
				<AddMarkerForm
					position={ pending }
					draft={ addDraft }
					onDraft={ setAddDraft }
					busy={ busy }
					onSubmit={ () =>
						pending && create( addDraft, { position: pending } )
					}
					onCancel={ () => {
						setPending( null );
						setAdding( false );
					} }
				/>
			) }
			{ selectedId && ! pending && (
				<SelectedMarkerForm
					markerId={ selectedId }
					record={ selected }
					groups={ groups }
					busy={ busy }
					editUrl={ editUrl }
					selection={ selections }
					onSave={ update }
					onTrash={ trash }
					onClose={ () => setSelectedId( null ) }
				/>
			) }
			{ selectedId && ! pending && selectedShape && (
				<SelectedShape
					key={ selectedId }
					map={ map }
					stored={ selectedShape }
					busy={ busy }
					onActive={ setDrawing }
					onSave={ reshape }
				/>
			) }
		</div>
	);
}
