/**
 * mapbox-gl's own controls, as configured.
 */
import mapboxgl from 'mapbox-gl';
import type { IControl, Map as MapboxMap } from 'mapbox-gl';

import { LIMITS } from './limits';
import type { ControlsConfig } from './types';

export function addControls(
	map: MapboxMap,
	controls: ControlsConfig
): () => void {
	const added: IControl[] = [];
	const add = (
		control: IControl,
		position: 'top-right' | 'bottom-left'
	) => {
		map.addControl( control, position );
		added.push( control );
	};
	if ( controls.zoom || controls.compass ) {
		add(
			new mapboxgl.NavigationControl( {
				showZoom: controls.zoom,
				showCompass: controls.compass,
				visualizePitch: true,
			} ),
			'top-right'
		);
	}
	if ( controls.fullscreen ) {
		add( new mapboxgl.FullscreenControl(), 'top-right' );
	}
	if ( controls.geolocate ) {
		// mapbox-gl merges these options shallowly: pass whole objects.
		add(
			new mapboxgl.GeolocateControl( {
				positionOptions: {
					enableHighAccuracy: false,
					timeout: LIMITS.geolocate.timeout,
					maximumAge: 0,
				},
				fitBoundsOptions: { maxZoom: LIMITS.geolocate.maxZoom },
				trackUserLocation: false,
				showUserLocation: true,
			} ),
			'top-right'
		);
	}
	if ( controls.scale ) {
		add( new mapboxgl.ScaleControl(), 'bottom-left' );
	}
	return () => {
		// map.remove() removes controls too; this is for hosts that keep the map.
		added.forEach( ( control ) => {
			if ( map.hasControl( control ) ) {
				map.removeControl( control );
			}
		} );
	};
}
