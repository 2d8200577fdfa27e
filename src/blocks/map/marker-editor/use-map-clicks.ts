/**
 * Clicks on the preview: in "Add marker" mode a click picks the new marker's place; otherwise it
 * selects the marker under the pointer (or nothing).
 */
import type { Map as MapboxMap, MapMouseEvent } from 'mapbox-gl';
import { useEffect, useState } from '@wordpress/element';

import { POINTS_LAYER } from '@cairn-maps/map/plugin';
import { roundTo } from '../validation';
import type { Position } from './marker-data';

/**
 * @param map        The preview's map, null until it is ready.
 * @param adding     Whether "Add marker" mode is on.
 * @param clearError Called when a click picks a new place (the last failure no longer applies).
 * @param paused     Whether clicks belong to a shape being drawn or edited (then they do nothing here).
 */
export function useMapClicks(
	map: MapboxMap | null,
	adding: boolean,
	clearError: ( message: '' ) => void,
	paused = false
) {
	/** Where the marker being added goes, once the editor clicked. */
	const [ pending, setPending ] = useState< Position | null >( null );
	const [ selectedId, setSelectedId ] = useState< number | null >( null );
	/** Counts selecting clicks: each one starts the selected marker's form over (its trash question). */
	const [ selections, setSelections ] = useState( 0 );

	useEffect( () => {
		if ( ! map || paused ) {
			return undefined;
		}
		const onClick = ( event: MapMouseEvent ) => {
			if ( adding ) {
				setPending( {
					lng: roundTo( event.lngLat.wrap().lng, 6 ),
					lat: roundTo( event.lngLat.lat, 6 ),
				} );
				setSelectedId( null );
				clearError( '' );
				return;
			}
			const [ feature ] = map.getLayer( POINTS_LAYER )
				? map.queryRenderedFeatures( event.point, {
						layers: [ POINTS_LAYER ],
					} )
				: [];
			const id = Number( feature?.id ?? feature?.properties?.id );
			setSelections( ( count ) => count + 1 );
			setSelectedId( Number.isInteger( id ) && id > 0 ? id : null );
		};
		const canvas = map.getCanvas();
		map.on( 'click', onClick );
		canvas.style.cursor = adding ? 'crosshair' : '';
		return () => {
			// The map may already be removed (style change, block removed): touch only our canvas.
			map.off( 'click', onClick );
			canvas.style.cursor = '';
		};
	}, [ map, adding, clearError, paused ] );

	return { pending, setPending, selectedId, setSelectedId, selections };
}
