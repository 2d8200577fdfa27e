/**
 * Turns untrusted input (a data attribute, a headless caller's object) into a `MapConfig`.
 * Attributes keep the rules of map-schema.json (the server's too): invalid values fall back to
 * their defaults; a minimum zoom above the maximum is an error.
 */
import { MapError } from './errors';
import { LIMITS } from './limits';
import * as rules from './map-schema.json';
import { isRecord, sanitize } from './map-schema';
import { groupStyles } from './group-styles';
import { isValidStyleUrl } from './patterns';
import { isTileTemplate } from './places/tile-template';
import { directionsApp } from './directions';
import type { Schema } from './map-schema';
import type {
	BasemapConfig,
	ClusterConfig,
	ContentSelection,
	ConsentConfig,
	ControlsConfig,
	MapConfig,
	MarkerSelection,
	PlacesConfig,
} from './types';

/**
 * An attribute's value by its rule in map-schema.json, or its default.
 *
 * @param schema The attribute's rule (map-schema.json).
 * @param value  Untrusted input.
 */
function attribute< T >( schema: Schema, value: unknown ): T {
	// The one cast: the schema describes T (types.ts mirrors it; tests/unit/map-schema.test.ts
	// holds the schema, block.json and these types together).
	return sanitize( schema, value ) as T;
}

// The style URL and language rules and the group looks live apart: the admin screens and the
// post sidebars use them without the rest of the configuration (and its schema).
export { isValidStyleUrl, LANGUAGE_PATTERN, STYLE_PATTERN } from './patterns';
export { groupStyles } from './group-styles';

/**
 * The consent policy: required only when it says so; the category is a WP Consent API category
 * name (lower-case letters and dashes), else none.
 * @param value
 */
export function consent( value: unknown ): ConsentConfig {
	const input = isRecord( value ) ? value : {};
	const required = input.required === true;
	return {
		required,
		category:
			required &&
			typeof input.category === 'string' &&
			/^[a-z][a-z-]{0,63}$/.test( input.category )
				? input.category
				: '',
	};
}

/**
 * A map's post selection (attribute `content`): type names, term slugs by taxonomy, `current`.
 * Only the shape is checked here; the server decides which types and taxonomies are allowed.
 *
 * @param value Untrusted input.
 */
export function parseContentSelection( value: unknown ): ContentSelection {
	return attribute< ContentSelection >( rules.content, value );
}

/**
 * A map's marker selection (attribute `markers`).
 *
 * @param value Untrusted input.
 */
export function parseMarkerSelection( value: unknown ): MarkerSelection {
	return attribute< MarkerSelection >( rules.markers, value );
}

/**
 * The shapes feed's address: an http(s) URL, absolute or relative to the page; anything else
 * (another scheme, not a string, a malformed address) is no feed at all.
 * @param value Untrusted input.
 */
export function shapesUrl( value: unknown ): string {
	if ( typeof value !== 'string' || value.trim() === '' ) {
		return '';
	}
	try {
		const url = new URL(
			value.trim(),
			globalThis.location?.href ?? 'https://invalid.example/'
		);
		return url.protocol === 'https:' || url.protocol === 'http:'
			? value.trim()
			: '';
	} catch {
		return '';
	}
}

/**
 * The shape tiles' template: an http(s) URL as `shapesUrl`'s naming `{z}`, `{x}` and `{y}`, and
 * only beside a shapes feed (a map without shapes has no tiles of them either); else ''.
 * @param value Untrusted configuration.
 */
export function shapeTilesUrl( value: Record< string, unknown > ): string {
	const url = shapesUrl( value.shapeTilesUrl );
	return url && shapesUrl( value.shapesUrl ) && isTileTemplate( url )
		? url
		: '';
}

/**
 * A tiled map's three addresses, each an http(s) URL as `shapesUrl`'s; all three '' unless all
 * three are (the map then ships its feed). The tiles template's `{z}`/`{x}`/`{y}` are the
 * server's to write (a template without them asks the server's 400 for each tile).
 * @param value Untrusted configuration.
 */
export function tiledUrls(
	value: Record< string, unknown >
): Pick< MapConfig, 'tilesUrl' | 'placesUrl' | 'summaryUrl' > {
	const urls = {
		tilesUrl: shapesUrl( value.tilesUrl ),
		placesUrl: shapesUrl( value.placesUrl ),
		summaryUrl: shapesUrl( value.summaryUrl ),
	};
	return urls.tilesUrl && urls.placesUrl && urls.summaryUrl
		? urls
		: { tilesUrl: '', placesUrl: '', summaryUrl: '' };
}

const PROVIDERS: ReadonlyArray< BasemapConfig[ 'provider' ] > = [
	'mapbox',
	'openfreemap',
	'style-url',
	'self-hosted',
];
const OPENFREEMAP_HOST = 'tiles.openfreemap.org';
const HOST_NAME =
	/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

/**
 * The host of an https style URL, lower case, or ''.
 * @param style
 */
function hostOf( style: string ): string {
	try {
		const url = new URL( style );
		return url.protocol === 'https:' ? url.hostname.toLowerCase() : '';
	} catch {
		return '';
	}
}

/**
 * Who serves a style, by its reference alone (a configuration without `basemap`).
 * @param style
 */
function providerOf( style: string ): BasemapConfig[ 'provider' ] {
	if ( style.startsWith( 'pmtiles://' ) ) {
		return 'self-hosted';
	}
	const host = hostOf( style );
	if ( ! host || LIMITS.mapStyle.hosts.includes( host ) ) {
		return 'mapbox';
	}
	return host === OPENFREEMAP_HOST ? 'openfreemap' : 'style-url';
}

/** limits.json's `mapStyle.pmtilesPattern`: `pmtiles://` and an http(s) archive URL. */
const PMTILES_STYLE_PATTERN = new RegExp( LIMITS.mapStyle.pmtilesPattern );

/**
 * A style reference the map may use: `mapbox://styles/…`, an https style URL, or
 * `pmtiles://<http(s) archive URL>`. The server applies the full engine rule
 * (engine/style-engine.ts, Basemap::engine_for) before it renders a configuration.
 * @param style
 */
function isStyleReference( style: string ): boolean {
	return style.startsWith( 'pmtiles://' )
		? PMTILES_STYLE_PATTERN.test( style )
		: isValidStyleUrl( style );
}

/**
 * The basemap: the server's, each key checked, else what the style implies (the contract's
 * defaults: OpenFreeMap's host, a style URL's own host, none for an archive on the site).
 * @param value Untrusted input.
 * @param style The validated style reference.
 */
export function basemap( value: unknown, style: string ): BasemapConfig {
	const input = isRecord( value ) ? value : {};
	const provider = PROVIDERS.includes( input.provider as never )
		? ( input.provider as BasemapConfig[ 'provider' ] )
		: providerOf( style );
	const implied = () => {
		if ( provider === 'openfreemap' ) {
			return [ OPENFREEMAP_HOST ];
		}
		const host = provider === 'style-url' ? hostOf( style ) : '';
		return host ? [ host ] : [];
	};
	return {
		provider,
		glyphs: provider === 'self-hosted' ? shapesUrl( input.glyphs ) : '',
		hosts: Array.isArray( input.hosts )
			? input.hosts
					.filter(
						( host ): host is string => typeof host === 'string'
					)
					.map( ( host ) => host.toLowerCase() )
					.filter( ( host ) => HOST_NAME.test( host ) )
			: implied(),
		attribution:
			typeof input.attribution === 'string'
				? input.attribution.trim().slice( 0, 500 )
				: '',
	};
}

/**
 * Parses a configuration.
 *
 * @param input
 * @throws MapError `zoom-range` when the minimum zoom is above the maximum.
 */
export function parseMapConfig( input: unknown ): MapConfig {
	const value = isRecord( input ) ? input : {};
	const minZoom = attribute< number >( rules.minZoom, value.minZoom );
	const maxZoom = attribute< number >( rules.maxZoom, value.maxZoom );
	// Across fields, so not the schema's: the server's Map_Attributes says the same.
	if ( minZoom > maxZoom ) {
		throw new MapError( 'zoom-range' );
	}
	const given = typeof value.style === 'string' ? value.style : '';
	// A style reference, else block.json's default.
	const style = isStyleReference( given )
		? given
		: attribute< string >( rules.mapStyle, undefined );
	return {
		// Absent: mapbox, as every configuration before there were two engines.
		engine: value.engine === 'maplibre' ? 'maplibre' : 'mapbox',
		accessToken:
			typeof value.accessToken === 'string'
				? value.accessToken.trim()
				: '',
		style,
		basemap: basemap( value.basemap, style ),
		center: attribute< MapConfig[ 'center' ] >(
			rules.center,
			value.center
		),
		zoom: Math.min(
			maxZoom,
			Math.max( minZoom, attribute< number >( rules.zoom, value.zoom ) )
		),
		bearing: attribute< number >( rules.bearing, value.bearing ),
		pitch: attribute< number >( rules.pitch, value.pitch ),
		minZoom,
		maxZoom,
		controls: attribute< ControlsConfig >( rules.controls, value.controls ),
		language: attribute< string >( rules.language, value.language ),
		cluster: attribute< ClusterConfig >( rules.cluster, value.cluster ),
		hash: attribute< boolean >( rules.hash, value.hash ),
		hashName:
			typeof value.hashName === 'string' &&
			/^[A-Za-z][\w-]{0,63}$/.test( value.hashName )
				? value.hashName
				: '',
		cooperativeGestures: attribute< boolean >(
			rules.cooperativeGestures,
			value.cooperativeGestures
		),
		markersUrl:
			typeof value.markersUrl === 'string' ? value.markersUrl : '',
		postsUrl: typeof value.postsUrl === 'string' ? value.postsUrl : '',
		shapesUrl: shapesUrl( value.shapesUrl ),
		shapeTilesUrl: shapeTilesUrl( value ),
		...tiledUrls( value ),
		markerUrl: typeof value.markerUrl === 'string' ? value.markerUrl : '',
		groupStyles: groupStyles( value.groupStyles ),
		places: attribute< PlacesConfig >( rules.places, value.places ),
		languages: attribute< string[] >( rules.languages, value.languages ),
		units: value.units === 'imperial' ? 'imperial' : 'metric',
		directions: directionsApp( value.directions ),
		consent: consent( value.consent ),
		...visitorGeocoder( value ),
	};
}

/**
 * How a visitor's typed address is looked up: `site` only with an http(s) route to ask,
 * `mapbox` only with a token; anything else is `none`.
 * @since 0.8.0
 * @param value Untrusted configuration.
 */
export function visitorGeocoder(
	value: Record< string, unknown >
): Pick< MapConfig, 'geocoder' | 'geocodeUrl' > {
	const url = shapesUrl( value.geocodeUrl );
	if ( value.geocoder === 'site' && url ) {
		return { geocoder: 'site', geocodeUrl: url };
	}
	if (
		value.geocoder === 'mapbox' &&
		typeof value.accessToken === 'string' &&
		value.accessToken.trim().startsWith( 'pk.' )
	) {
		return { geocoder: 'mapbox', geocodeUrl: '' };
	}
	return { geocoder: 'none', geocodeUrl: '' };
}
