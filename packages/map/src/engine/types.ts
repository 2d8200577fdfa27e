/**
 * The one seam between the runtime and a map library. Everything the runtime, the places, the
 * shapes and the editor need that differs between mapbox-gl and maplibre-gl is a member of
 * `MapEngine`; each library has one adapter (mapbox.ts, maplibre.ts) and select.ts is the only
 * place that tells them apart. docs/architecture.md lists this interface.
 */
import type {
	ErrorEvent as MapboxErrorEvent,
	GeoJSONSource,
	Map as MapboxMap,
	StyleSpecification,
} from 'mapbox-gl';

import type { LngLat, MapConfig, MapErrorCode, MapLib } from '../types';

/** The two engines a configuration may name (`config.engine`). */
export type EngineName = 'mapbox' | 'maplibre';

/**
 * The map as the runtime drives it. Both libraries' `Map` share this surface (sources, layers,
 * events, camera); where they differ, the runtime asks the engine instead of the map.
 */
export type EngineMap = MapboxMap;

/** The camera a map starts at. */
export interface Camera {
	center: LngLat;
	zoom: number;
	bearing: number;
	pitch: number;
}

/** The label language: the tag the map starts with, and the page's and visitor's languages. */
export interface MapLanguage {
	tag: string;
	preferred: string[];
}

/** What the map is created with: a style reference (URL) or a style built for it. */
export type StyleInput = string | StyleSpecification;

/** The cooperative gestures' three messages, translated by the runtime. */
export interface GestureMessages {
	/** Windows/Linux: hold Ctrl to zoom with the wheel. */
	ctrl: string;
	/** macOS: hold ⌘ to zoom with the wheel. */
	cmd: string;
	/** Touch: two fingers to pan. */
	touch: string;
}

/** A cluster or point feature as a clustered GeoJSON source gives it. */
export type ClusterLeaf = GeoJSON.Feature;

export interface MapEngine {
	readonly name: EngineName;
	/** The library's constructors the runtime uses (Popup, controls, Marker). */
	readonly lib: MapLib;
	/** The class prefix of the library's DOM (`mapboxgl-`, `maplibregl-`). */
	readonly classPrefix: string;
	/** Whether the browser can draw this engine's maps (WebGL). */
	supported: () => boolean;
	/** The code for a configuration this engine refuses before any map exists (a token), or null. */
	refuse: ( config: MapConfig ) => MapErrorCode | null;
	/**
	 * The style the map starts with: the configuration's reference as it is, or a style built
	 * in the browser (a `pmtiles://` archive). Rejects (`style`) when it cannot be built.
	 */
	style: (
		config: MapConfig,
		language: MapLanguage
	) => StyleInput | Promise< StyleInput >;
	/** Constructs the map with the engine's own options. Throws what the library throws. */
	create: (
		container: HTMLElement,
		config: MapConfig,
		camera: Camera,
		language: MapLanguage,
		style: StyleInput,
		fail: ( code: MapErrorCode ) => void
	) => EngineMap;
	/** The code for an `error` event of the map, or null when the map can live with it. */
	classify: (
		event: MapboxErrorEvent,
		loaded: boolean,
		markersSource: string
	) => MapErrorCode | null;
	/** Puts the style's labels in the language (each time a style loads, and on a switch). */
	localize: (
		map: EngineMap,
		tag: string,
		preferred: readonly string[]
	) => void;
	/** A visitor's language switch: the engine's own option where it has one, then `localize`. */
	setLanguage: ( map: EngineMap, tag: string ) => void;
	/** The zoom at which a cluster of a clustered source breaks apart. */
	clusterExpansionZoom: (
		source: GeoJSONSource,
		clusterId: number
	) => Promise< number >;
	/** The points of a cluster of a clustered source. */
	clusterLeaves: (
		source: GeoJSONSource,
		clusterId: number,
		limit: number,
		offset: number
	) => Promise< ClusterLeaf[] >;
	/** Loads a PNG/JPEG for `addImage`; rejects when it cannot be loaded or decoded. */
	loadImage: (
		map: EngineMap,
		url: string
	) => Promise< HTMLImageElement | ImageBitmap | ImageData >;
	/** Calls back for each image a layer names that the style lacks; returns what stops it. */
	onMissingImage: (
		map: EngineMap,
		handler: ( id: string ) => void
	) => () => void;
	/** The library's `locale` entries for the cooperative gestures' messages. */
	gestureLocale: ( messages: GestureMessages ) => Record< string, string >;
}
