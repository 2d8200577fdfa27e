/** bench:draw candidate b: terra-draw with its MapLibre GL adapter, on maplibre-gl. */
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';

import { session } from './terra-draw.js';

export function start( map ) {
	return session( new TerraDrawMapLibreGLAdapter( { map } ) );
}
