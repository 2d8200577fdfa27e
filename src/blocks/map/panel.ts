/**
 * The places panel as the plugin shows it (the `cairn-map-panel` chunk): the package's React
 * panel rendered with WordPress's React (`wp-element`) into the server's
 * `.wp-block-cairn-map__places` region. A chunk of its own, loaded once a map's places are drawn:
 * React and the panel never hold up the map's first clusters, and the front-end loader runs
 * WordPress's React scripts (downloaded beside mapbox-gl) only then, before this chunk, which
 * reads them when it is evaluated.
 */
import { createElement, createRoot } from '@wordpress/element';
import type { PlacesController } from '@cairn-maps/map';
import { PlacesPanel } from '@cairn-maps/map/plugin';

export { PlacesPanel };

/**
 * Renders the places panel into the server's `.wp-block-cairn-map__places` region, in place of
 * the server's list (put back when the map goes). Undefined when the markup has no such region
 * or React could not be loaded (the runtime then upgrades the server's list).
 * @param host
 * @param places
 */
export function mountPlacesPanel(
	host: HTMLElement,
	places: PlacesController
): ( () => void ) | undefined {
	const region = host.querySelector< HTMLElement >(
		':scope > .wp-block-cairn-map__places'
	);
	if ( ! region ) {
		return undefined;
	}
	// A container of its own: a panel being removed (after the render in progress, see below)
	// never shares it with the next map's panel.
	const mount = region.ownerDocument.createElement( 'div' );
	let root: ReturnType< typeof createRoot >;
	try {
		root = createRoot( mount );
	} catch {
		return undefined; // React could not be loaded: the server's list stays, upgraded.
	}
	const server = Array.from( region.childNodes );
	region.replaceChildren( mount );
	root.render( createElement( PlacesPanel, { places } ) );
	return () => {
		// The editor's preview removes its map from inside React's own commit: unmounting then
		// would be deferred by React while the DOM is already changed. After it, in order.
		window.setTimeout( () => {
			root.unmount();
			mount.remove();
			if ( ! region.hasChildNodes() ) {
				region.append( ...server );
			}
		}, 0 );
	};
}
