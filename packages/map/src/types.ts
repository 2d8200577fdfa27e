/**
 * Types of the map runtime, shared by every host (editor preview, view script, headless pages).
 */
import type mapboxgl from 'mapbox-gl';

import type { MAP_ERROR_CODES } from './errors';

export interface LngLat {
	lng: number;
	lat: number;
}

export interface ControlsConfig {
	zoom: boolean;
	compass: boolean;
	scale: boolean;
	fullscreen: boolean;
	geolocate: boolean;
}

export interface ClusterConfig {
	enabled: boolean;
	radius: number;
}

/** Which markers a map shows; `none`: only posts (`content`). */
export type MarkerSource = 'all' | 'groups' | 'ids' | 'none';

export interface MarkerSelection {
	source: MarkerSource;
	groups: string[];
	ids: number[];
}

/**
 * Which posts with a public place a map shows (block attribute `content`): posts of these types,
 * narrowed to these terms (slugs by taxonomy), or the post from block context (`current`).
 */
export interface ContentSelection {
	postTypes: string[];
	terms: Record< string, string[] >;
	current: boolean;
}

/** How the markers of one group look: a colour, and optionally a PNG/JPEG icon. */
export interface GroupStyle {
	slug: string;
	/** The group's name, plain text (the slug when the server gave none). */
	name: string;
	/** `#rrggbb`, or '' for the default colour. */
	color: string;
	/** URL of a PNG or JPEG icon, or '' for the default symbol. */
	icon: string;
	/** Colour of the group's routes and area outlines, `#rrggbb`, or '' for the group's colour. */
	lineColor: string;
	/** Width of the group's routes and area outlines, in CSS pixels (limits.json `groupLine`). */
	lineWidth: number;
	/** Opacity of the group's areas, 0–1. */
	fillOpacity: number;
}

/** What the places panel offers visitors (block attribute `places`). */
export interface PlacesConfig {
	search: boolean;
	groupFilter: boolean;
	/** The list shows the places in view after each move (else every place). */
	followMap: boolean;
}

/**
 * Whether a map waits for the visitor's consent before it contacts any Mapbox host (the site's
 * "Load maps only after the visitor agrees"), and the WP Consent API category that counts as
 * consent: '' when not required or when the site has no consent API.
 */
/**
 * The map app a place's "Directions" link opens: OpenStreetMap, Google Maps, Apple Maps, the
 * phone's own (`geo:`), or none (no link).
 * @since 0.9.0
 */
export type DirectionsApp = 'none' | 'osm' | 'google' | 'apple' | 'geo';

/**
 * A block's `directions` attribute: `site` follows the site's setting (Settings → Cairn Maps),
 * anything else is that app.
 * @since 0.9.0
 */
export type DirectionsChoice = 'site' | DirectionsApp;

export interface ConsentConfig {
	required: boolean;
	category: string;
}

/** Who serves a map's basemap, and what a MapLibre map may contact for it (issue 31 contract). */
export interface BasemapConfig {
	provider: 'mapbox' | 'openfreemap' | 'style-url' | 'self-hosted';
	/** Self-hosted: the site's glyph URL template (`…/{fontstack}/{range}.pbf`); '' otherwise. */
	glyphs: string;
	/**
	 * Lower-case host names a MapLibre map may contact for its basemap besides the origins of the
	 * page and of the configuration's own URLs; any other host fails the map (`style`).
	 */
	hosts: string[];
	/** Plain text the map shows when the style or archive carries no attribution ('' = its own). */
	attribution: string;
}

/** A validated map configuration: code past `parseMapConfig` trusts it. */
export interface MapConfig {
	/** The library that draws the map. @since 0.7.0 */
	engine: 'mapbox' | 'maplibre';
	/** '' for MapLibre maps (the token is never printed for them). */
	accessToken: string;
	/** `mapbox://styles/…`, an https style URL, or `pmtiles://<archive URL>` (engine maplibre). */
	style: string;
	/** @since 0.7.0 */
	basemap: BasemapConfig;
	center: LngLat;
	zoom: number;
	bearing: number;
	pitch: number;
	minZoom: number;
	maxZoom: number;
	controls: ControlsConfig;
	language: string;
	cluster: ClusterConfig;
	hash: boolean;
	/** Name of this map's part of the address fragment; '' for the page's only hashed map. */
	hashName: string;
	cooperativeGestures: boolean;
	/** GeoJSON feed of the markers to show; empty for none. */
	markersUrl: string;
	/**
	 * GeoJSON feed of the posts to show (same route, `post_type=…`); empty for none. Drawn with
	 * the markers as one source: their ids never collide (both are post ids).
	 */
	postsUrl: string;
	/**
	 * GeoJSON feed of the selection's routes and areas (`/cairn/v1/shapes`); '' when the
	 * selection holds none: then no request is made and no shapes code is loaded.
	 */
	shapesUrl: string;
	/**
	 * A map whose routes and areas hold many positions: the server's tiles of them
	 * (`/cairn/v1/shapes/tiles/{z}/{x}/{y}?…`, the three coordinates left to fill), each shape
	 * whole and simplified for the tile's zoom. With it the map draws the tiles of each view
	 * instead of downloading `shapesUrl` (which stays set); '' otherwise.
	 * @since 0.7.0
	 */
	shapeTilesUrl: string;
	/**
	 * A map too big to ship whole: the server's tiles of clusters and points
	 * (`/cairn/v1/tiles/{z}/{x}/{y}?…`, the three coordinates left to fill). With it the map draws
	 * from tiles and its panel asks `placesUrl`/`summaryUrl`: `markersUrl` is not downloaded.
	 * All three are '' for a map that ships its whole feed.
	 * @since 0.6.0
	 */
	tilesUrl: string;
	/** A tiled map's list of places (`/cairn/v1/places?…`); '' otherwise. @since 0.6.0 */
	placesUrl: string;
	/** A tiled map's counts and search matches (`/cairn/v1/places/summary?…`); '' otherwise. @since 0.6.0 */
	summaryUrl: string;
	/** Base URL of the single-marker route, ending in `/`. */
	markerUrl: string;
	/** Looks of the marker groups (the first group of a marker decides). */
	groupStyles: GroupStyle[];
	places: PlacesConfig;
	/** Label languages visitors may switch between; fewer than 2: no language control. */
	languages: string[];
	/** Units for distances (the places list, the scale bar): the site's. */
	units: 'metric' | 'imperial';
	/**
	 * The app each popup's and list entry's "Directions" link opens ('none': no link), the
	 * block's choice or the site's, as the server resolved it. Absent: none. @since 0.9.0
	 */
	directions: DirectionsApp;
	/** Whether the map waits for the visitor's consent. */
	consent: ConsentConfig;
	/**
	 * Where a visitor's typed address is looked up ("near a place"): `site` asks `geocodeUrl`
	 * (the site's route, cached and limited there), `mapbox` Mapbox's temporary geocoding with
	 * `accessToken`, `none` nothing (the map's own place names only).
	 * @since 0.8.0
	 */
	geocoder: 'site' | 'mapbox' | 'none';
	/** `/cairn/v1/geocode/visitor` for `geocoder` `site`; '' otherwise. @since 0.8.0 */
	geocodeUrl: string;
}

/** The error codes of the DOM contract (`data-cairn-error`, `cairn:map-error`): see errors.ts. */
export type MapErrorCode = ( typeof MAP_ERROR_CODES )[ number ];

/**
 * The parts of a map library the runtime uses: mapbox-gl's default export or maplibre-gl's module
 * (or a compatible build of either; the runtime tells them apart: engine/select.ts). Hosts pass
 * it (`mapLib`), so the runtime never imports a map library itself: a headless app loads it
 * lazily, or brings its own copy. maplibre-gl has no `supported()`.
 */
export type MapLib = Pick<
	typeof mapboxgl,
	| 'Map'
	| 'Popup'
	| 'NavigationControl'
	| 'GeolocateControl'
	| 'FullscreenControl'
	| 'ScaleControl'
> &
	Partial< Pick< typeof mapboxgl, 'supported' > >;

/** A map library, its module namespace (`import * as`), or a promise of either (`import()`). */
export type MapLibSource =
	MapLib | { default: MapLib } | Promise< MapLib | { default: MapLib } >;

/** The `cairn/map` block's attributes, mirroring its block.json (the REST route fills in every default). */
export type MapBlockAttributes = {
	center: LngLat;
	zoom: number;
	bearing: number;
	pitch: number;
	minZoom: number;
	maxZoom: number;
	mapStyle: string;
	controls: ControlsConfig;
	language: string;
	markers: MarkerSelection;
	cluster: ClusterConfig;
	hash: boolean;
	height: string;
	cooperativeGestures: boolean;
	/** Which parts of the visitors' places panel are shown. */
	places: PlacesConfig;
	/** Label languages visitors may switch between (the control shows with 2 or more). */
	languages: string[];
	/** Posts with a public place the map shows. */
	content: ContentSelection;
	/** The app of the places' "Directions" links: `site` for the site's setting. @since 0.9.0 */
	directions: DirectionsChoice;
	anchor?: string;
	className?: string;
	align?: string;
};

/** One place of a map's server-rendered list. */
export interface PlaceListItem {
	id: number;
	/** Plain text. */
	title: string;
	lng: number;
	lat: number;
	/** A post's address (posts only: markers have no page of their own). */
	link?: string;
}

/**
 * The first page of a map's places, as the server renders its list without JavaScript (and
 * `<CairnMap places>` on a headless page).
 */
export interface PostMapPlaces {
	items: PlaceListItem[];
	/** How many places the map has in all. */
	total: number;
	/** The page these are (1). */
	page: number;
	/** How many places a page holds. */
	perPage: number;
}

/** One map of a post, as `GET /cairn/v1/posts/<id>/maps` and the `cairn_maps` field give it. */
export interface PostMap {
	/** The block's anchor, or `map-<n>` (1-based, document order). */
	id: string;
	attributes: MapBlockAttributes;
	/** Exactly what `createMap()` takes: the server renders the same into `data-cairn-config`. */
	config: Record< string, unknown >;
	/** The error the server found for this map (`missing-token`, `zoom-range`, …), or ''. */
	error: MapErrorCode | '';
	/** The first page of its places (what the server renders without JavaScript). */
	places: PostMapPlaces;
}

/** The maps of one post. */
export interface PostMaps {
	post: number;
	/** When the post was last modified (ISO 8601, UTC). */
	modified: string;
	maps: PostMap[];
}
