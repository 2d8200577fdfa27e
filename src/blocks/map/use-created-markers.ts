/**
 * Undo of "marker added to this map" must not leave an orphan: a marker this editor created that
 * leaves the hand-picked selection goes to the trash, and comes back on redo.
 */
import { store as coreStore } from '@wordpress/core-data';
import { useDispatch } from '@wordpress/data';
import { useCallback, useEffect, useRef } from '@wordpress/element';

import type { MarkerSelection } from '@cairn-maps/map';

/**
 * @param markers The block's `markers`.
 * @param refresh Called after a marker went to the trash or came back.
 * @return Records a marker this editor created.
 */
export function useCreatedMarkers(
	markers: MarkerSelection,
	refresh: () => void
): ( id: number ) => void {
	const created = useRef( new Set< number >() );
	const { deleteEntityRecord, saveEntityRecord } = useDispatch( coreStore );
	const { source, ids } = markers;
	const previousIds = useRef( ids );
	useEffect( () => {
		if ( source !== 'ids' ) {
			previousIds.current = ids;
			return;
		}
		for ( const id of previousIds.current ) {
			if ( created.current.has( id ) && ! ids.includes( id ) ) {
				deleteEntityRecord( 'postType', 'cairn_marker', id, {} ).then(
					refresh
				);
			}
		}
		for ( const id of ids ) {
			if (
				created.current.has( id ) &&
				! previousIds.current.includes( id )
			) {
				saveEntityRecord( 'postType', 'cairn_marker', {
					id,
					status: 'publish',
				} ).then( refresh );
			}
		}
		previousIds.current = ids;
	}, [ source, ids, deleteEntityRecord, saveEntityRecord, refresh ] );
	return useCallback( ( id: number ) => {
		created.current.add( id );
	}, [] );
}
