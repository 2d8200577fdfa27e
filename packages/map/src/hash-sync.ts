/**
 * Keeps a map's view in the page address, safely (see hash.ts).
 */
import type { Map as MapboxMap } from 'mapbox-gl';

import { readLocationHash, writeLocationHash } from './hash';
import type { HashView } from './hash';

const WRITE_DELAY = 300;

function replaceFragment( view: Window, fragment: string ): void {
	const url = new URL( view.location.href );
	url.hash = fragment;
	view.history.replaceState( view.history.state, '', url.toString() );
}

/**
 * The view the address asks for, if valid. A malformed or out-of-range fragment for this map is
 * removed from the address, and the block's own view is used.
 */
export function viewFromAddress(
	view: Window,
	name: string,
	zoomRange: { min: number; max: number }
): HashView | null {
	const reading = readLocationHash( view.location.hash, name, zoomRange );
	if ( reading.kind === 'invalid' ) {
		replaceFragment(
			view,
			writeLocationHash( view.location.hash, name, null )
		);
		return null;
	}
	return reading.kind === 'valid' ? reading.view : null;
}

export function attachHashSync(
	map: MapboxMap,
	view: Window,
	name: string
): () => void {
	const zoomRange = { min: map.getMinZoom(), max: map.getMaxZoom() };
	let timer = 0;
	const write = () => {
		view.clearTimeout( timer );
		timer = view.setTimeout( () => {
			const center = map.getCenter().wrap();
			replaceFragment(
				view,
				writeLocationHash( view.location.hash, name, {
					zoom: map.getZoom(),
					lat: center.lat,
					lng: center.lng,
					bearing: map.getBearing(),
					pitch: map.getPitch(),
				} )
			);
		}, WRITE_DELAY );
	};
	const onHashChange = () => {
		const wanted = viewFromAddress( view, name, zoomRange );
		if ( wanted ) {
			map.jumpTo( {
				center: [ wanted.lng, wanted.lat ],
				zoom: wanted.zoom,
				bearing: wanted.bearing,
				pitch: wanted.pitch,
			} );
		}
	};
	map.on( 'moveend', write );
	view.addEventListener( 'hashchange', onHashChange );
	return () => {
		view.clearTimeout( timer );
		map.off( 'moveend', write );
		view.removeEventListener( 'hashchange', onHashChange );
	};
}
