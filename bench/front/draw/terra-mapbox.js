/** bench:draw candidate c: terra-draw with its Mapbox GL adapter, on mapbox-gl v3. */
import { TerraDrawMapboxGLAdapter } from 'terra-draw-mapbox-gl-adapter';

import { session } from './terra-draw.js';

export function start( map ) {
	return session( new TerraDrawMapboxGLAdapter( { map } ) );
}
