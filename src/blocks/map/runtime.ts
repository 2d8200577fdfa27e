/**
 * The map runtime as the plugin loads it (the `cairn-map-runtime` chunk): the package's
 * `createMap` for the front-end loader, the editor preview and the marker Location panel, with
 * mapbox-gl from Mapbox's distribution (load-mapbox-gl.ts: the plugin ships none of it). The
 * places panel, rendered with WordPress's React (`wp-element`: see Blocks\View_Script), is a chunk
 * of its own (panel.ts) that comes once the map's places are drawn, so this chunk neither needs
 * React nor waits for it. Headless pages get the same runtime from the npm package, where
 * mapbox-gl is imported lazily from the app's own dependencies instead.
 */
import type { CairnMap, MapLibSource, PlacesController } from '@cairn-maps/map';
import {
	createRuntimeMap,
	type RuntimeMapOptions,
} from '@cairn-maps/map/plugin';

import { loadMapLibrary } from './load-map-library';

export type { CairnMap, PlacesController };

export interface PluginMapOptions extends Omit< RuntimeMapOptions, 'mapLib' > {
	mapLib?: MapLibSource;
	/**
	 * Loads what the panel's chunk reads when it is evaluated (the front-end loader: WordPress's
	 * React scripts); the editor has them already. A failure leaves the server's list, upgraded.
	 */
	beforePanel?: () => Promise< void >;
}

/**
 * The places panel in the host's `.wp-block-cairn-map__places` region, once its chunk (and what
 * it needs) is loaded; resolves with what takes it away, or undefined when it cannot be shown.
 * @param host
 * @param places
 * @param beforePanel
 */
export async function showPlacesPanel(
	host: HTMLElement,
	places: PlacesController,
	beforePanel: () => Promise< void > = () => Promise.resolve()
): Promise< ( () => void ) | undefined > {
	await beforePanel();
	const { mountPlacesPanel } = await import(
		/* webpackChunkName: "cairn-map-panel" */ './panel'
	);
	return mountPlacesPanel( host, places );
}

/**
 * The runtime's `createMap`. Without `mapLib`, the configuration's engine's library is loaded
 * (once per page) when the map starts; a library that cannot be loaded is the map's `style` alert.
 * @param container
 * @param config
 * @param options
 */
export function createMap(
	container: unknown,
	config: unknown,
	options: PluginMapOptions = {}
): CairnMap {
	const { beforePanel, ...rest } = options;
	const host =
		rest.host ?? ( container instanceof HTMLElement ? container : null );
	return createRuntimeMap( container, config, {
		onPlaces: host
			? ( places ) => showPlacesPanel( host, places, beforePanel )
			: undefined,
		...rest,
		// Without a host the runtime fails (`bad-container`) before it needs any library.
		mapLib:
			rest.mapLib ??
			( ( engine ) =>
				host
					? loadMapLibrary( engine, host.ownerDocument )
					: new Promise< never >( () => undefined ) ),
	} );
}
