/**
 * The marker editor's reads and writes of `cairn_marker` posts, through core-data (and so the
 * REST API's `/wp/v2/cairn-markers`), and the state of those writes: busy while one runs, its
 * failure as the message of the editor's notice.
 */
import { store as coreStore } from '@wordpress/core-data';
import { useDispatch, useSelect } from '@wordpress/data';
import { useCallback, useMemo, useState } from '@wordpress/element';
import { __ } from '@wordpress/i18n';

import type { ShapeGeometry } from '../../../shared/shape-editor';

export interface MarkerRecord {
	id: number;
	title: { raw?: string; rendered: string };
	content: { raw?: string; rendered: string };
	meta: {
		cairn_lat?: number;
		cairn_lng?: number;
		/** The marker's shape (a GeoJSON geometry), null or absent for none. */
		cairn_geometry?: unknown;
	};
	'cairn-marker-groups'?: number[];
}

export interface Position {
	lng: number;
	lat: number;
}

export interface NewMarker {
	title: string;
	content: string;
	/** Where it is; a marker with a shape may leave it to the server (the shape's anchor). */
	position?: Position;
	/** A route's or an area's geometry. */
	geometry?: ShapeGeometry;
	groups: number[];
}

export interface MarkerDraft {
	title: string;
	content: string;
	/** A group's term id, 0 for none. */
	group: number;
}

export function errorText( error: unknown ): string {
	const message =
		typeof error === 'object' && error !== null && 'message' in error
			? String( ( error as { message: unknown } ).message )
			: '';
	return message || __( 'The marker could not be saved.', 'cairn-maps' );
}

/**
 * A marker as the editor edits it (raw title and text), undefined while it loads.
 * @param id The marker's post id, null for none.
 */
export function useMarkerRecord( id: number | null ): MarkerRecord | undefined {
	return useSelect(
		( select ) =>
			id
				? ( select( coreStore ).getEntityRecord(
						'postType',
						'cairn_marker',
						id,
						{ context: 'edit' }
					) as MarkerRecord | undefined )
				: undefined,
		[ id ]
	);
}

export function useMarkerWrites() {
	const { saveEntityRecord, deleteEntityRecord } = useDispatch( coreStore );
	const [ busy, setBusy ] = useState( false );
	const [ error, setError ] = useState( '' );

	/**
	 * Runs `write` (a save and what follows it); meanwhile the editor is busy, and a failure
	 * becomes the notice. Resolves whether it succeeded.
	 */
	const run = useCallback(
		async (
			write: () => Promise< void >,
			clearError = true
		): Promise< boolean > => {
			setBusy( true );
			if ( clearError ) {
				setError( '' );
			}
			try {
				await write();
				return true;
			} catch ( reason ) {
				setError( errorText( reason ) );
				return false;
			} finally {
				setBusy( false );
			}
		},
		[]
	);

	const writes = useMemo( () => {
		// Failures reject (with the server's message), so nothing is taken for saved.
		const options = { throwOnError: true };
		const save = ( record: Record< string, unknown > ) =>
			saveEntityRecord( 'postType', 'cairn_marker', record, options );
		return {
			/** Creates a published marker; resolves the new record. */
			create: ( marker: NewMarker ) =>
				save( {
					title: marker.title,
					content: marker.content,
					status: 'publish',
					meta: {
						...( marker.position && {
							cairn_lat: marker.position.lat,
							cairn_lng: marker.position.lng,
						} ),
						...( marker.geometry && {
							cairn_geometry: marker.geometry,
						} ),
					},
					'cairn-marker-groups': marker.groups,
				} ) as Promise< MarkerRecord >,
			update: ( id: number, draft: MarkerDraft ) =>
				save( {
					id,
					title: draft.title.trim(),
					content: draft.content,
					'cairn-marker-groups': draft.group ? [ draft.group ] : [],
				} ),
			move: ( id: number, position: Position ) =>
				save( {
					id,
					meta: { cairn_lat: position.lat, cairn_lng: position.lng },
				} ),
			/** Sets the marker's shape (null: none); its point stays. */
			reshape: ( id: number, geometry: ShapeGeometry | null ) =>
				save( { id, meta: { cairn_geometry: geometry } } ),
			/** Moves the marker to the trash (core's DELETE without `force`). */
			trash: ( id: number ) =>
				deleteEntityRecord(
					'postType',
					'cairn_marker',
					id,
					{},
					options
				),
		};
	}, [ saveEntityRecord, deleteEntityRecord ] );

	return { ...writes, busy, error, setError, run };
}
