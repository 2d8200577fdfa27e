/**
 * The drawing tool on either engine: mapbox-gl-draw names its control and finds the map's canvas
 * by mapbox-gl's class names; on a MapLibre map they must be the engine's own, or its Delete and
 * Backspace keys (which answer only on the canvas) do nothing (bench:draw found them dead).
 */
import MapboxDraw from '@mapbox/mapbox-gl-draw';
import type { Map as MapboxMap } from 'mapbox-gl';

import { registerEngine } from '../../../packages/map/src/engine/registry';
import { maplibreEngine } from '../../../packages/map/src/engine/maplibre';
import { mapboxEngine } from '../../../packages/map/src/engine/mapbox';
import { applyClassesOf } from '../../../src/shared/shape-editor/draw-session';

const classes = () =>
	(
		MapboxDraw as unknown as {
			constants: { classes: Record< string, string > };
		}
	 ).constants.classes;

describe( 'the drawing tool’s class names', () => {
	it( 'on a MapLibre map, are MapLibre’s: its canvas (for the keys) and its controls', () => {
		const map = {} as MapboxMap;
		registerEngine( map, maplibreEngine() );
		applyClassesOf( map );
		expect( classes().CANVAS ).toBe( 'maplibregl-canvas' );
		expect( classes().CONTROL_BASE ).toBe( 'maplibregl-ctrl' );
		expect( classes().CONTROL_GROUP ).toBe( 'maplibregl-ctrl-group' );
	} );

	it( 'on a mapbox-gl map, are mapbox-gl’s again', () => {
		const map = {} as MapboxMap;
		registerEngine( map, mapboxEngine() );
		applyClassesOf( map );
		expect( classes().CANVAS ).toBe( 'mapboxgl-canvas' );
		expect( classes().CONTROL_BASE ).toBe( 'mapboxgl-ctrl' );
	} );
} );
