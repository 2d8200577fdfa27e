/**
 * The marker edit screen's sidebar: the "Location" panel. Loaded by plugin/Markers/Marker_Editor.php
 * on that screen only.
 */
import { registerPlugin } from '@wordpress/plugins';

import { LocationPanel } from './location-panel';

registerPlugin( 'cairn-maps-marker-location', {
	render: LocationPanel,
	icon: null,
} );
