/**
 * A place's "Directions" link: its accessible name, its attributes, the popup's DOM element.
 * Built with DOM nodes and text only (no markup), for the popup and the places panel alike.
 * @since 0.9.0
 */
import { __, sprintf } from '@wordpress/i18n';

import { directionsUrl } from './directions';
import type { DirectionsApp } from './types';

/**
 * The accessible name of a place's link: "Directions to <place>", and that a web app opens in a
 * new tab (the `geo:` handler is the phone's app, no tab).
 * @param app   The app.
 * @param title The place's name (plain text; '' for none).
 */
export function directionsLabel( app: DirectionsApp, title: string ): string {
	const name = title || __( '(no title)', 'cairn-maps' );
	return app === 'geo'
		? sprintf(
				/* translators: %s: place name. */
				__( 'Directions to %s', 'cairn-maps' ),
				name
			)
		: sprintf(
				/* translators: %s: place name. */
				__( 'Directions to %s (opens in a new tab)', 'cairn-maps' ),
				name
			);
}

/**
 * The attributes of a place's link, for the DOM and for React alike: its address, its name, and
 * for a web app a new tab that cannot reach back into this page nor learn its address.
 * @param app   The app.
 * @param title The place's name.
 * @param lat   Latitude.
 * @param lng   Longitude.
 * @return null when there is no link to show.
 */
export function directionsLink(
	app: DirectionsApp,
	title: string,
	lat: number,
	lng: number
): {
	href: string;
	label: string;
	target?: '_blank';
	rel?: string;
} | null {
	const href = directionsUrl( app, lat, lng );
	if ( ! href ) {
		return null;
	}
	const label = directionsLabel( app, title );
	return app === 'geo'
		? { href, label }
		: { href, label, target: '_blank', rel: 'noopener noreferrer' };
}

/**
 * A place's "Directions" link as a DOM element (the popup's), or null for none.
 * @param doc   The document.
 * @param app   The app.
 * @param title The place's name.
 * @param lat   Latitude.
 * @param lng   Longitude.
 */
export function buildDirectionsLink(
	doc: Document,
	app: DirectionsApp,
	title: string,
	lat: number,
	lng: number
): HTMLAnchorElement | null {
	const link = directionsLink( app, title, lat, lng );
	if ( ! link ) {
		return null;
	}
	const element = doc.createElement( 'a' );
	element.className = 'cairn-map-directions';
	element.href = link.href;
	element.setAttribute( 'aria-label', link.label );
	if ( link.target ) {
		element.target = link.target;
		element.rel = link.rel ?? '';
	}
	element.textContent = __( 'Directions', 'cairn-maps' );
	return element;
}
