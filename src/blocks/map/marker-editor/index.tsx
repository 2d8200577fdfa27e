/**
 * Markers placed and edited on the live preview.
 *
 * - "Add marker" mode: a click on the map asks for a title (and optional text) inline, then creates
 *   a published `cairn_marker` through the REST API and adds it to the block's selection.
 * - A click on a marker selects it: edit its title, text and group, open its full edit screen,
 *   drag it to a new place, or move it to the trash after a confirmation.
 * Failed saves show a notice and leave nothing half-created (the server refuses bad coordinates
 * before it stores anything).
 */
import type { Map as MapboxMap } from 'mapbox-gl';
import { Notice } from '@wordpress/components';
import { useCallback, useState } from '@wordpress/element';
import { __ } from '@wordpress/i18n';

import type { MarkerSelection } from '@cairn-maps/map';
import { useMarkerGroups } from '../marker-groups';
import { AddMarkerForm, type AddDraft } from './add-marker-form';
import {
	useMarkerRecord,
	useMarkerWrites,
	type MarkerDraft,
	type Position,
} from './marker-data';
import { SelectedMarkerForm } from './selected-marker-form';
import { useDragHandle } from './use-drag-handle';
import { useMapClicks } from './use-map-clicks';

export interface MarkerEditorProps {
	map: MapboxMap | null;
	markers: MarkerSelection;
	setMarkers: ( markers: MarkerSelection ) => void;
	/** Called after any change, so the preview reloads the marker data. */
	onChanged: () => void;
	/** Called with the id of every marker this editor creates. */
	onCreated: ( id: number ) => void;
	editUrl: string;
	adding: boolean;
	setAdding: ( adding: boolean ) => void;
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
}: MarkerEditorProps ) {
	const writes = useMarkerWrites();
	const { busy, error, setError, run, move } = writes;
	const groups = useMarkerGroups();
	const { pending, setPending, selectedId, setSelectedId, selections } =
		useMapClicks( map, adding, setError );
	const selected = useMarkerRecord( selectedId );
	const [ addDraft, setAddDraft ] = useState< AddDraft >( {
		title: '',
		text: '',
	} );

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

	const create = () => {
		const title = addDraft.title.trim();
		if ( ! pending || ! title ) {
			return;
		}
		// A map of chosen groups puts the new marker in the first of them that exists.
		const group =
			markers.source === 'groups'
				? groups.find( ( term ) =>
						markers.groups.includes( term.slug )
					)
				: undefined;
		run( async () => {
			const record = await writes.create( {
				title,
				content: addDraft.text,
				position: pending,
				groups: group ? [ group.id ] : [],
			} );
			onCreated( record.id );
			if ( markers.source === 'ids' ) {
				setMarkers( {
					...markers,
					ids: [ ...markers.ids, record.id ],
				} );
			}
			setPending( null );
			setAddDraft( { title: '', text: '' } );
			setAdding( false );
			onChanged();
		} );
	};

	const update = ( draft: MarkerDraft ) =>
		selectedId &&
		run( async () => {
			await writes.update( selectedId, draft );
			onChanged();
		} );

	const trash = () =>
		selectedId &&
		run( async () => {
			await writes.trash( selectedId );
			if ( markers.ids.includes( selectedId ) ) {
				setMarkers( {
					...markers,
					ids: markers.ids.filter( ( id ) => id !== selectedId ),
				} );
			}
			setSelectedId( null );
			onChanged();
		}, false );

	if ( ! pending && ! selectedId && ! error && ! adding ) {
		return null;
	}

	return (
		<div
			className="cairn-maps-marker-editor"
			role="group"
			aria-label={ __( 'Marker', 'cairn-maps' ) }
		>
			{ error && (
				<Notice status="error" onRemove={ () => setError( '' ) }>
					{ error }
				</Notice>
			) }
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
					onSubmit={ create }
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
		</div>
	);
}
