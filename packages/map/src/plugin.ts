/**
 * `@cairn-maps/map/plugin`: what only the WordPress plugin (`src/`) takes from the runtime besides
 * the public entry (`@cairn-maps/map`). Source-only: the published package does not carry it (its
 * `exports` have no `./plugin`); the plugin's build, type check, tests and lint resolve the name
 * to this file (webpack.config.js, tsconfig.json, jest.config.js). These are internals, free to
 * change in any release: keep this list short, and add here only what the plugin cannot take
 * from the public entry.
 */

// The front-end loader (view.ts): finds the server-rendered maps, waits for the viewport and the
// visitor's consent, and starts the marker feed's request and the places chunk together with
// mapbox-gl.
export { watchMaps } from './watch-maps';
export type { RenderedMap } from './watch-maps';
export { prefetchMarkers } from './prefetch-markers';
export { prefetchTilesFor } from './places/prefetch-tiles';
export { loadPlacesChunk } from './places-chunk';

// The runtime chunk (runtime.ts): `createMap` with the map library the plugin passes (mapbox-gl
// from Mapbox's distribution), and the places panel it renders with WordPress's React.
export { createMap as createRuntimeMap } from './create-map';
export type { CreateMapOptions as RuntimeMapOptions } from './create-map';
export { PlacesPanel } from './places/panel';

// The engine that drew a map (the editor's own objects: a pin, drawing tools' class names).
export { engineOf } from './engine/registry';
export { engineForStyle, urlParts } from './engine/style-engine';
export type { EngineName, MapEngine } from './engine/types';

// The editor: the layer its marker editor listens on, and the limits and rules it validates
// attributes and settings with (the same ones the runtime applies).
export { POINTS_LAYER } from './layer-ids';
// The Tools page's import preview labels its own layers in the style's font, where it has glyphs.
export { drawsText, labelFont } from './markers-layer';
export { LIMITS } from './limits';
export {
	groupStyles,
	isValidStyleUrl,
	LANGUAGE_PATTERN,
	parseContentSelection,
} from './config';
export type { TokenCheck } from './token';

// The feed addresses of a map's selection (the rule the server's Feed_Url keeps too; shared test
// vectors in tests/fixtures/feed-urls.json), and the height rule of the schema.
export {
	feedUrl,
	markersFeedUrl,
	postsFeedUrl,
	shapesFeedUrl,
} from './feed-url';
export { height as HEIGHT_RULE } from './map-schema.json';
export { isRecord } from './map-schema';
// The apps of the places' "Directions" links (the editor's choice, the settings screen's).
export { DIRECTIONS_APPS, directionsApp } from './directions';
