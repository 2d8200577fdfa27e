/**
 * A place's "Directions" link as a React element: the places panel's entries and the server's
 * list that `<CairnMap>` renders (the popup builds the same link with DOM nodes,
 * buildDirectionsLink()). Nothing for `none` or a point that is none.
 * @since 0.9.0
 */
import { __ } from '@wordpress/i18n';

import { directionsLink } from './directions-link';
import type { DirectionsApp } from './types';

/**
 * @param root0
 * @param root0.app       The map's app.
 * @param root0.title     The place's name.
 * @param root0.lat       Latitude.
 * @param root0.lng       Longitude.
 * @param root0.className The element's own class, beside `cairn-map-directions`.
 */
export function DirectionsAnchor( {
	app,
	title,
	lat,
	lng,
	className,
}: {
	app: DirectionsApp;
	title: string;
	lat: number;
	lng: number;
	className: string;
} ) {
	const link = directionsLink( app, title, lat, lng );
	return link ? (
		<a
			className={ `cairn-map-directions ${ className }` }
			href={ link.href }
			aria-label={ link.label }
			target={ link.target }
			rel={ link.rel }
		>
			{ __( 'Directions', 'cairn-maps' ) }
		</a>
	) : null;
}
