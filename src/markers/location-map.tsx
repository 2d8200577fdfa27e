/**
 * A small live map in the marker sidebar: click to place the marker, drag it to move it.
 *
 * The same `createMap` runtime as the block, loaded on demand; one effect owns the map's life and
 * always destroys it. The container sits in the editor's own document (the sidebar), not in the
 * canvas iframe.
 */
import type {
	Map as MapboxMap,
	MapMouseEvent,
	Marker as MapboxMarker,
} from 'mapbox-gl';
import { useEffect, useRef, useState } from '@wordpress/element';
import { __ } from '@wordpress/i18n';

import type { CairnMap } from '../blocks/map/runtime';
import type { LngLat } from '../../packages/map/src/types';

export interface LocationMapProps {
	/** Public Mapbox token. */
	accessToken: string;
	/** The marker's position, or null while it has none. */
	position: LngLat | null;
	/** Called with the clicked or dragged-to position (6 decimals, about 10 cm). */
	onChange: ( position: LngLat ) => void;
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
}: LocationMapProps ) {
	const hostRef = useRef< HTMLDivElement >( null );
	const containerRef = useRef< HTMLDivElement >( null );
	const [ map, setMap ] = useState< MapboxMap | null >( null );
	const marker = useRef< MapboxMarker | null >( null );
	// The latest values, for the callbacks the map keeps.
	const latest = useRef( { position, onChange } );
	latest.current = { position, onChange };
	// The last position picked on this map (a click or a drag).
	const picks = useRef< LngLat | null >( null );

	useEffect( () => {
		const host = hostRef.current;
		const container = containerRef.current;
		if ( ! host || ! container ) {
			return undefined;
		}
		let cairn: CairnMap | null = null;
		let cancelled = false;
		const start = latest.current.position;
		Promise.all( [
			import(
				/* webpackChunkName: "cairn-map-runtime" */ '../blocks/map/runtime'
			),
			import( /* webpackChunkName: "cairn-mapbox" */ 'mapbox-gl' ),
		] ).then( ( [ { createMap }, { default: mapboxgl } ] ) => {
			if ( cancelled ) {
				return;
			}
			cairn = createMap(
				container,
				{
					accessToken,
					center: start ?? { lng: 0, lat: 20 },
					zoom: start ? PLACE_ZOOM : WORLD_ZOOM,
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
				},
				{ host }
			);
			cairn.ready.then(
				( ready ) => {
					if ( cancelled ) {
						return;
					}
					const pin = new mapboxgl.Marker( {
						draggable: true,
						color: '#1e1e1e',
					} );
					pin.getElement().setAttribute(
						'aria-label',
						__( 'Marker position: drag to move it', 'cairn-maps' )
					);
					pin.on( 'dragend', () => {
						picks.current = rounded( pin.getLngLat().wrap() );
						latest.current.onChange( picks.current );
					} );
					marker.current = pin;
					ready.getCanvas().style.cursor = 'crosshair';
					setMap( ready );
				},
				() => undefined // The runtime shows the error in the host.
			);
		} );
		return () => {
			cancelled = true;
			setMap( null );
			marker.current?.remove();
			marker.current = null;
			cairn?.destroy();
		};
	}, [ accessToken ] );

	// Clicks place the marker.
	useEffect( () => {
		if ( ! map ) {
			return undefined;
		}
		const onClick = ( event: MapMouseEvent ) => {
			picks.current = rounded( event.lngLat.wrap() );
			latest.current.onChange( picks.current );
		};
		map.on( 'click', onClick );
		return () => {
			map.off( 'click', onClick );
		};
	}, [ map ] );

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
		<div
			ref={ hostRef }
			className="cairn-maps-location-map"
			data-cairn-state="loading"
		>
			<div
				ref={ containerRef }
				className="cairn-maps-location-map__map"
				role="region"
				aria-label={ __(
					'Map: click to place the marker, or drag it',
					'cairn-maps'
				) }
			/>
		</div>
	);
}
