/**
 * The selected marker's drag handle on the preview: dropped, it saves the marker's new place, and
 * goes back where it was when that fails.
 */
import type { Map as MapboxMap, Marker as MapboxMarker } from 'mapbox-gl';
import { useEffect, useRef } from '@wordpress/element';
import { __ } from '@wordpress/i18n';

import { libraryOf } from '../load-map-library';
import { roundTo } from '../validation';
import type { Position } from './marker-data';

/**
 * @param map      The preview's map, null until it is ready.
 * @param markerId The selected marker, null for none.
 * @param place    Where it is saved (unknown while it loads).
 * @param save     Saves a new place; resolves whether it was saved. Keep it stable: a new
 *                 function recreates the handle.
 */
export function useDragHandle(
	map: MapboxMap | null,
	markerId: number | null,
	place: Partial< Position >,
	save: ( id: number, position: Position ) => Promise< boolean >
) {
	const dragMarker = useRef< MapboxMarker | null >( null );
	const { lat, lng } = place;
	useEffect( () => {
		if ( ! map || ! markerId || lat === undefined || lng === undefined ) {
			return undefined;
		}
		let cancelled = false;
		// Loaded already: the library that drew the map (see load-map-library.ts).
		libraryOf( map ).then(
			( mapboxgl ) => {
				if ( cancelled ) {
					return;
				}
				const element = map
					.getContainer()
					.ownerDocument.createElement( 'div' );
				element.className = 'cairn-maps-drag-handle';
				element.setAttribute(
					'aria-label',
					__( 'Selected marker: drag to move it', 'cairn-maps' )
				);
				const marker = new mapboxgl.Marker( { element } )
					.setLngLat( [ lng, lat ] )
					.addTo( map );
				// Our own pointer dragging: mapbox-gl's draggable markers follow the mouse through
				// the document it was loaded in, which in the iframed editor is not the canvas's.
				const drop = () => {
					const position = marker.getLngLat().wrap();
					save( markerId, {
						lat: roundTo( position.lat, 6 ),
						lng: roundTo( position.lng, 6 ),
					} ).then( ( saved ) => {
						if ( ! saved ) {
							marker.setLngLat( [ lng, lat ] );
						}
					} );
				};
				const follow = ( event: PointerEvent ) => {
					const box = map.getContainer().getBoundingClientRect();
					marker.setLngLat(
						map.unproject( [
							event.clientX - box.left,
							event.clientY - box.top,
						] )
					);
				};
				element.addEventListener( 'pointerdown', ( event ) => {
					event.preventDefault();
					event.stopPropagation();
					element.setPointerCapture( event.pointerId );
					element.addEventListener( 'pointermove', follow );
				} );
				element.addEventListener( 'pointerup', ( event ) => {
					if ( ! element.hasPointerCapture( event.pointerId ) ) {
						return;
					}
					element.releasePointerCapture( event.pointerId );
					element.removeEventListener( 'pointermove', follow );
					follow( event );
					drop();
				} );
				dragMarker.current = marker;
			},
			() => undefined // Not expected: the map exists, so its library is here.
		);
		return () => {
			cancelled = true;
			dragMarker.current?.remove();
			dragMarker.current = null;
		};
	}, [ map, markerId, lat, lng, save ] );
}
