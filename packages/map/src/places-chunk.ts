/**
 * The places chunk (places/setup: the worker's client, the controller, the popups), loaded once
 * per page. The runtime asks for it when a map with places starts; the plugin's loader asks for it
 * as soon as such a map nears the viewport, beside the runtime chunk and mapbox-gl, so the places
 * worker can start as soon as mapbox-gl has created the map instead of one download later. Both
 * get the same module (webpack and esbuild load a chunk once).
 *
 * Dependency-free on purpose: the loader imports it, and nothing of the chunk runs before it is
 * asked for.
 */
export type PlacesChunk = typeof import( './places/setup' );

export function loadPlacesChunk(): Promise< PlacesChunk > {
	return import(
		/* webpackChunkName: "cairn-map-places" */ './places/setup'
	);
}
