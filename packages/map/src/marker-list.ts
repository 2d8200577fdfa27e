/**
 * The server-rendered list of places is the keyboard and screen-reader way into the map: each entry
 * becomes a button that flies the map to the place and opens its popup.
 */
import type { Map as MapboxMap } from 'mapbox-gl';
import { __, _n, sprintf } from '@wordpress/i18n';

import { CLUSTERS_LAYER, POINTS_LAYER } from './markers-layer';
import type { PopupController } from './popup';

const FLY_ZOOM = 14;

export function upgradeMarkerList(
	host: HTMLElement,
	map: MapboxMap,
	popups: PopupController
): () => void {
	const doc = host.ownerDocument;
	const items = Array.from(
		host.querySelectorAll< HTMLElement >( 'li[data-cairn-marker-id]' )
	);
	const cleanups: Array< () => void > = [];
	for ( const item of items ) {
		const id = Number( item.dataset.cairnMarkerId );
		const lng = Number( item.dataset.lng );
		const lat = Number( item.dataset.lat );
		if ( ! Number.isInteger( id ) || ! Number.isFinite( lng + lat ) ) {
			continue;
		}
		const button = doc.createElement( 'button' );
		button.type = 'button';
		button.className = 'wp-block-cairn-map__list-button';
		button.textContent = item.textContent;
		button.setAttribute(
			'aria-label',
			sprintf(
				/* translators: %s: place name. */
				__( 'Show %s on the map', 'cairn-maps' ),
				item.textContent ?? ''
			)
		);
		const onClick = () => {
			map.flyTo( {
				center: [ lng, lat ],
				zoom: Math.max( map.getZoom(), FLY_ZOOM ),
				essential: true,
			} );
			map.once( 'moveend', () => popups.open( id, { lng, lat } ) );
		};
		button.addEventListener( 'click', onClick );
		const original = Array.from( item.childNodes );
		item.replaceChildren( button );
		cleanups.push( () => {
			button.removeEventListener( 'click', onClick );
			item.replaceChildren( ...original );
		} );
	}
	return () => cleanups.forEach( ( cleanup ) => cleanup() );
}

/** Tells screen-reader users what the map shows after each move. */
export function announceView( host: HTMLElement, map: MapboxMap ): () => void {
	const doc = host.ownerDocument;
	const region = doc.createElement( 'div' );
	region.className = 'wp-block-cairn-map__status screen-reader-text';
	region.setAttribute( 'aria-live', 'polite' );
	region.setAttribute( 'role', 'status' );
	host.appendChild( region );
	const announce = () => {
		if ( ! map.getLayer( POINTS_LAYER ) ) {
			return;
		}
		const places = map.queryRenderedFeatures( {
			layers: [ POINTS_LAYER ],
		} ).length;
		const clusters = map.getLayer( CLUSTERS_LAYER )
			? map.queryRenderedFeatures( {
					layers: [ CLUSTERS_LAYER ],
				} ).length
			: 0;
		region.textContent = sprintf(
			/* translators: 1: "N places", 2: "N clusters". */
			__( 'In view: %1$s and %2$s.', 'cairn-maps' ),
			sprintf(
				/* translators: %d: number of places. */
				_n( '%d place', '%d places', places, 'cairn-maps' ),
				places
			),
			sprintf(
				/* translators: %d: number of clusters. */
				_n( '%d cluster', '%d clusters', clusters, 'cairn-maps' ),
				clusters
			)
		);
	};
	const onMoveEnd = () => map.once( 'idle', announce );
	map.on( 'moveend', onMoveEnd );
	return () => {
		map.off( 'moveend', onMoveEnd );
		region.remove();
	};
}
