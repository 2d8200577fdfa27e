import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

// mapbox-gl's stylesheet and the maps' own; mapbox-gl's code is loaded by the package, lazily,
// when the first map starts.
import 'mapbox-gl/dist/mapbox-gl.css';
import '@cairn-maps/map/style.css';
import './style.css';
import { App } from './App';

const root = document.getElementById( 'root' );
if ( root ) {
	createRoot( root ).render(
		<StrictMode>
			<App />
		</StrictMode>
	);
}
