/**
 * The map runtime as the plugin loads it (the `cairn-map-runtime` chunk): the package's
 * `createMap` for the front-end loader, the editor preview and the marker Location panel, with
 * mapbox-gl from Mapbox's distribution (load-mapbox-gl.ts: the plugin ships none of it), and the
 * places panel rendered with WordPress's React (`wp-element`, loaded with this chunk: see
 * Blocks\View_Script). Headless pages get the same runtime from the npm package, where mapbox-gl
 * is imported lazily from the app's own dependencies instead.
 */
import { createElement, createRoot } from '@wordpress/element';
import type { CairnMap, MapLibSource, PlacesController } from '@cairn-maps/map';
import {
	createRuntimeMap,
	PlacesPanel,
	type RuntimeMapOptions,
} from '@cairn-maps/map/plugin';

import { loadMapboxGl } from './load-mapbox-gl';

export type { CairnMap, PlacesController };
export { PlacesPanel };

/**
 * Renders the places panel into the server's `.wp-block-cairn-map__places` region, in place of
 * the server's list (put back when the map goes). Null when the markup has no such region.
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

/**
 * The runtime's `createMap`. Without `mapLib`, mapbox-gl is loaded (once per page) when the map
 * starts; a library that cannot be loaded is the map's `style` alert.
 * @param container
 * @param config
 * @param options
 */
export function createMap(
	container: unknown,
	config: unknown,
	options: Omit< RuntimeMapOptions, 'mapLib' > & {
		mapLib?: MapLibSource;
	} = {}
): CairnMap {
	const host =
		options.host ?? ( container instanceof HTMLElement ? container : null );
	return createRuntimeMap( container, config, {
		onPlaces: host
			? ( places ) => mountPlacesPanel( host, places )
			: undefined,
		...options,
		// Without a host the runtime fails (`bad-container`) before it needs any library.
		mapLib:
			options.mapLib ??
			( host
				? loadMapboxGl( host.ownerDocument )
				: new Promise< never >( () => undefined ) ),
	} );
}
