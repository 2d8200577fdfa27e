/**
 * Types of the map runtime, shared by every host (editor preview, view script, headless pages).
 */

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

export type MarkerSource = 'all' | 'groups' | 'ids';

export interface MarkerSelection {
	source: MarkerSource;
	groups: string[];
	ids: number[];
}

/** How the markers of one group look: a colour, and optionally a PNG/JPEG icon. */
export interface GroupStyle {
	slug: string;
	/** `#rrggbb`, or '' for the default colour. */
	color: string;
	/** URL of a PNG or JPEG icon, or '' for the default symbol. */
	icon: string;
}

/** A validated map configuration: code past `parseMapConfig` trusts it. */
export interface MapConfig {
	accessToken: string;
	style: string;
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
	/** Base URL of the single-marker route, ending in `/`. */
	markerUrl: string;
	/** Looks of the marker groups (the first group of a marker decides). */
	groupStyles: GroupStyle[];
}

export type MapErrorCode =
	| 'missing-token'
	| 'secret-token'
	| 'invalid-token'
	| 'bad-container'
	| 'zoom-range'
	| 'webgl'
	| 'image-type'
	| 'style'
	| 'markers';
