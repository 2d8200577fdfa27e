/**
 * A small live map in a sidebar (a marker's or a post's Location panel): click to place the
 * point, drag it to move it.
 *
 * The same `createMap` runtime and map lifecycle as the block's preview (`useCairnMap`). The
 * container sits in the editor's own document (the sidebar), not in the canvas iframe.
 */
import type {
	Map as MapboxMap,
	MapMouseEvent,
	Marker as MapboxMarker,
} from 'mapbox-gl';
import { useEffect, useRef } from '@wordpress/element';
import type { LngLat } from '@cairn-maps/map';

import { MapHost } from '../map-host';
import { useCairnMap } from '../use-cairn-map';

export interface LocationMapProps {
	/** Public Mapbox token. */
	accessToken: string;
	/** The point's position, or null while it has none. */
	position: LngLat | null;
	/** Called with the clicked or dragged-to position (6 decimals, about 10 cm). */
	onChange: ( position: LngLat ) => void;
	/** The map's accessible name, saying what a click does. */
	label: string;
	/** The pin's accessible name. */
	pinLabel: string;
	/** Whether a click places the point (not while a shape is drawn on the map). Default true. */
	picking?: boolean;
	/** Told of the ready map, and of null when it goes (for tools that work on it). */
	onMap?: ( map: MapboxMap | null ) => void;
}

/** Zoom for a marker that has a position; the whole world otherwise. */
const PLACE_ZOOM = 12;
const WORLD_ZOOM = 0.5;

function rounded( lngLat: { lng: number; lat: number } ): LngLat {
	return {
		lng: Math.round( lngLat.lng * 1e6 ) / 1e6,
		lat: Math.round( lngLat.lat * 1e6 ) / 1e6,
	};
}

export function LocationMap( {
	accessToken,
	position,
	onChange,
	label,
	pinLabel,
	picking = true,
	onMap,
}: LocationMapProps ) {
	const marker = useRef< MapboxMarker | null >( null );
	// The latest callback, for the pin the map keeps.
	const latest = useRef( onChange );
	latest.current = onChange;
	// The last position picked on this map (a click or a drag).
	const picks = useRef< LngLat | null >( null );

	const { hostRef, containerRef, map } = useCairnMap( {
		rebuildKey: accessToken,
		config: () => ( {
			accessToken,
			center: position ?? { lng: 0, lat: 20 },
			zoom: position ? PLACE_ZOOM : WORLD_ZOOM,
			controls: {
				zoom: true,
				compass: false,
				scale: false,
				fullscreen: true,
				geolocate: false,
			},
			// The sidebar scrolls: wheel zooming needs ctrl/⌘.
			cooperativeGestures: true,
			markersUrl: '',
		} ),
		onReady: ( ready, mapboxgl ) => {
			const pin = new mapboxgl.Marker( {
				draggable: true,
				color: '#1e1e1e',
			} );
			pin.getElement().setAttribute( 'aria-label', pinLabel );
			pin.on( 'dragend', () => {
				picks.current = rounded( pin.getLngLat().wrap() );
				latest.current( picks.current );
			} );
			marker.current = pin;
			ready.getCanvas().style.cursor = 'crosshair';
			return () => {
				pin.remove();
				marker.current = null;
			};
		},
	} );

	useEffect( () => {
		onMap?.( map );
	}, [ map, onMap ] );

	// Clicks place the marker.
	useEffect( () => {
		if ( ! map || ! picking ) {
			return undefined;
		}
		const onClick = ( event: MapMouseEvent ) => {
			picks.current = rounded( event.lngLat.wrap() );
			latest.current( picks.current );
		};
		map.on( 'click', onClick );
		return () => {
			map.off( 'click', onClick );
		};
	}, [ map, picking ] );

	// The marker follows the position. A position typed or pasted elsewhere is brought into view
	// (close up); one picked on this map leaves the view as it is.
	const lng = position?.lng;
	const lat = position?.lat;
	useEffect( () => {
		const pin = marker.current;
		if ( ! map || ! pin ) {
			return;
		}
		if ( lng === undefined || lat === undefined ) {
			pin.remove();
			return;
		}
		pin.setLngLat( [ lng, lat ] );
		if ( ! pin.getElement().isConnected ) {
			pin.addTo( map );
		}
		const picked = picks.current;
		if ( picked && picked.lng === lng && picked.lat === lat ) {
			return;
		}
		map.easeTo( {
			center: [ lng, lat ],
			zoom: Math.max( map.getZoom(), PLACE_ZOOM ),
		} );
	}, [ map, lng, lat ] );

	return (
		<MapHost
			handle={ { hostRef, containerRef } }
			className="cairn-maps-location-map"
			mapClassName="cairn-maps-location-map__map"
			label={ label }
		/>
	);
}
