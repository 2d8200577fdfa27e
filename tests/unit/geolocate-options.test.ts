/**
 * The geolocate control gets the spec's timeout (6 s) and zoom cap (15) from limits.json, written
 * out: they equal mapbox-gl 3's own defaults, so no visitor could tell them apart in a browser
 * (tests/e2e/front-controls.spec.ts checks the behaviour). This checks what only the options can
 * show — that the plugin passes them, whole (mapbox-gl merges them shallowly), and from the one
 * home of its limits — and fails if they are deleted or written twice.
 */
import type { Map as MapboxMap } from 'mapbox-gl';

import limits from '../../packages/map/src/limits.json';
import { addControls } from '../../packages/map/src/controls';
import type { MapLib } from '../../packages/map/src/types';

function recordingLib() {
	const made: Array< { kind: string; options: unknown } > = [];
	const control = ( kind: string ) =>
		class {
			constructor( options?: unknown ) {
				made.push( { kind, options } );
			}
			on() {
				return this;
			}
			off() {
				return this;
			}
			onAdd() {
				return document.createElement( 'div' );
			}
			onRemove() {}
		};
	const lib = {
		NavigationControl: control( 'navigation' ),
		FullscreenControl: control( 'fullscreen' ),
		GeolocateControl: control( 'geolocate' ),
		ScaleControl: control( 'scale' ),
	} as unknown as MapLib;
	const container = document.createElement( 'div' );
	const map = {
		addControl: jest.fn(),
		hasControl: () => true,
		removeControl: jest.fn(),
		getContainer: () => container,
	} as unknown as MapboxMap;
	return { lib, map, made };
}

const CONTROLS = {
	zoom: false,
	compass: false,
	scale: false,
	fullscreen: false,
	geolocate: true,
};

describe( 'geolocate control options', () => {
	it( 'passes the timeout and zoom cap of limits.json, as whole option objects', () => {
		const { lib, map, made } = recordingLib();
		addControls( lib, map, CONTROLS );
		expect( made ).toEqual( [
			{
				kind: 'geolocate',
				options: {
					positionOptions: {
						enableHighAccuracy: false,
						timeout: limits.geolocate.timeout,
						maximumAge: 0,
					},
					fitBoundsOptions: { maxZoom: limits.geolocate.maxZoom },
					trackUserLocation: false,
					showUserLocation: true,
				},
			},
		] );
		expect( map.addControl ).toHaveBeenCalledTimes( 1 );
	} );

	it( 'limits.json holds the spec’s numbers: 6 s and zoom 15', () => {
		expect( limits.geolocate ).toEqual( { timeout: 6000, maxZoom: 15 } );
	} );

	it( 'no geolocate control when the block turns it off', () => {
		const { lib, map, made } = recordingLib();
		addControls( lib, map, { ...CONTROLS, geolocate: false } );
		expect( made ).toEqual( [] );
	} );
} );
