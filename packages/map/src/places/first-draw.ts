/**
 * What keeps a map's first clusters quick (issue 22), in the places chunk: when and how the
 * places panel shows (React and the panel's layout wait for the first clusters).
 */
import type { Map as MapboxMap } from 'mapbox-gl';

import { CLUSTERS_LAYER, POINTS_LAYER } from '../layer-ids';
import { upgradeMarkerList } from '../marker-list';
import type { PlacesController } from './controller';

/**
 * How long after the first frame that shows the places the panel waits for the map to be ready
 * (its base map loaded) before it shows anyway, in ms: rendering the panel (React, the list's
 * layout) then no longer competes with the map's first frames.
 */
const PANEL_WAIT = 1500;
/** The panel shows at the latest this long after the places' data is in the map (none in view). */
const PANEL_LATEST = 10_000;

/**
 * When the places panel may show: the places are first drawn and the map is ready (its base map
 * loaded too), or `PANEL_WAIT` ms after the first frame that shows places (`PANEL_LATEST` after
 * their data when none is drawn), whichever comes first; or when the map stops. Never rejects.
 * @param map
 * @param drawing Settles once the places' first data is in the map.
 * @param ready   The map's `ready`.
 * @param onStop  Registers what to do when the map stops.
 */
export function panelTime(
	map: MapboxMap,
	drawing: Promise< void >,
	ready: Promise< unknown >,
	onStop: ( cleanup: () => void ) => void
): Promise< void > {
	return drawing.then(
		() =>
			new Promise< void >( ( resolve ) => {
				let timer = window.setTimeout( () => done(), PANEL_LATEST );
				const onRender = () => {
					const shown = map.queryRenderedFeatures( {
						layers: [ CLUSTERS_LAYER, POINTS_LAYER ].filter(
							( id ) => map.getLayer( id )
						),
					} );
					if ( shown.length > 0 ) {
						map.off( 'render', onRender );
						window.clearTimeout( timer );
						timer = window.setTimeout( () => done(), PANEL_WAIT );
					}
				};
				const done = () => {
					map.off( 'render', onRender );
					window.clearTimeout( timer );
					resolve();
				};
				map.on( 'render', onRender );
				ready.then( done, done );
				onStop( done );
			} )
	);
}

/**
 * The host's places panel, else the server-rendered list's entries as buttons that fly to their
 * place. Returns what takes it away.
 * @param host
 * @param controller
 * @param onPlaces
 */
export function showPlaces(
	host: HTMLElement,
	controller: PlacesController,
	onPlaces:
		| ( (
				places: PlacesController
		  ) => void | ( () => void ) | Promise< void | ( () => void ) > )
		| undefined
): () => void {
	// A panel may come later (its code on its way): the server's list stays until it is there,
	// and is upgraded if none comes. Taken away before it came, it is taken away when it comes.
	let stopped = false;
	let undo: ( () => void ) | undefined;
	Promise.resolve( onPlaces?.( controller ) )
		.catch( () => undefined )
		.then( ( shown ) => {
			if ( stopped && typeof shown === 'function' ) {
				shown();
			} else if ( ! stopped ) {
				undo =
					typeof shown === 'function'
						? shown
						: upgradeMarkerList( host, ( id ) =>
								controller.choose( id )
							);
			}
		} );
	return () => {
		stopped = true;
		undo?.();
	};
}
