/**
 * mapbox-gl's own controls, as configured.
 */
import type { IControl, Map as MapboxMap } from 'mapbox-gl';
import { __ } from '@wordpress/i18n';

import { LIMITS } from './limits';
import { createNotice } from './notice';
import type { ControlsConfig, MapLib } from './types';

/** The `code` of a GeolocationPositionError. */
const PERMISSION_DENIED = 1;
const TIMEOUT = 3;

/**
 * What to tell a visitor whose position could not be found. Not an error of the map: the map
 * keeps working, so this is a polite status message, never the error alert.
 *
 * @param code GeolocationPositionError code.
 */
export function geolocateMessage( code: number ): string {
	switch ( code ) {
		case PERMISSION_DENIED:
			return __(
				'Your location is not shared with this site, so the map cannot show where you are. You can allow it in your browser’s settings.',
				'cairn-maps'
			);
		case TIMEOUT:
			return __(
				'Finding your location took too long. Please try again.',
				'cairn-maps'
			);
		default:
			return __(
				'Your location could not be found right now. Please try again later.',
				'cairn-maps'
			);
	}
}

function geolocateControl(
	mapLib: MapLib,
	map: MapboxMap,
	onLocate?: ( position: { lng: number; lat: number } ) => void
): {
	control: IControl;
	release: () => void;
} {
	// mapbox-gl merges these options shallowly: pass whole objects.
	const control = new mapLib.GeolocateControl( {
		positionOptions: {
			enableHighAccuracy: false,
			timeout: LIMITS.geolocate.timeout,
			maximumAge: 0,
		},
		fitBoundsOptions: { maxZoom: LIMITS.geolocate.maxZoom },
		trackUserLocation: false,
		showUserLocation: true,
	} );
	const notice = createNotice( map.getContainer() );
	const onError = ( error: { code: number } | undefined ) =>
		notice.show( geolocateMessage( error?.code ?? 0 ) );
	const onFound = ( position?: GeolocationPosition ) => {
		notice.clear();
		const coords = position?.coords;
		if ( coords && Number.isFinite( coords.longitude + coords.latitude ) ) {
			onLocate?.( { lng: coords.longitude, lat: coords.latitude } );
		}
	};
	control.on( 'error', onError );
	control.on( 'geolocate', onFound );
	return {
		control,
		release: () => {
			control.off( 'error', onError );
			control.off( 'geolocate', onFound );
			notice.remove();
		},
	};
}

export function addControls(
	mapLib: MapLib,
	map: MapboxMap,
	controls: ControlsConfig,
	options: {
		/** The scale bar's units (the site's). Default: metric. */
		units?: 'metric' | 'imperial';
		/** The visitor located themselves (the places list sorts by distance). */
		onLocate?: ( position: { lng: number; lat: number } ) => void;
	} = {}
): () => void {
	const added: IControl[] = [];
	const releases: Array< () => void > = [];
	const add = (
		control: IControl,
		position: 'top-right' | 'bottom-left'
	) => {
		map.addControl( control, position );
		added.push( control );
	};
	if ( controls.zoom || controls.compass ) {
		add(
			new mapLib.NavigationControl( {
				showZoom: controls.zoom,
				showCompass: controls.compass,
				visualizePitch: true,
			} ),
			'top-right'
		);
	}
	if ( controls.fullscreen ) {
		add( new mapLib.FullscreenControl(), 'top-right' );
	}
	if ( controls.geolocate ) {
		const { control, release } = geolocateControl(
			mapLib,
			map,
			options.onLocate
		);
		add( control, 'top-right' );
		releases.push( release );
	}
	if ( controls.scale ) {
		add(
			new mapLib.ScaleControl( {
				unit: options.units === 'imperial' ? 'imperial' : 'metric',
			} ),
			'bottom-left'
		);
	}
	return () => {
		releases.forEach( ( release ) => release() );
		// map.remove() removes controls too; this is for hosts that keep the map.
		added.forEach( ( control ) => {
			if ( map.hasControl( control ) ) {
				map.removeControl( control );
			}
		} );
	};
}
