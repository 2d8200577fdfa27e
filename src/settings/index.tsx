/**
 * Entry of Settings → Cairn Maps (plugin/Settings/Settings_Page.php enqueues it on that screen only).
 */
import { createRoot } from '@wordpress/element';

import { getPageData } from './page-data';
import { SettingsScreen } from './settings-screen';
import './screen.scss';

function mount(): void {
	const root = document.getElementById( 'cairn-maps-settings-root' );
	if ( root ) {
		createRoot( root ).render( <SettingsScreen page={ getPageData() } /> );
	}
}

if ( document.readyState === 'loading' ) {
	document.addEventListener( 'DOMContentLoaded', mount );
} else {
	mount();
}
