/**
 * Turns untrusted input (a data attribute, a headless caller's object) into a `MapConfig`.
 * Attributes keep the rules of map-schema.json (the server's too): invalid values fall back to
 * their defaults; a minimum zoom above the maximum is an error.
 */
import { MapError } from './errors';
import { LIMITS } from './limits';
import * as rules from './map-schema.json';
import { isRecord, isValid, sanitize } from './map-schema';
import type { Schema } from './map-schema';
import type {
	ClusterConfig,
	ContentSelection,
	ConsentConfig,
	ControlsConfig,
	GroupStyle,
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

export const STYLE_PATTERN = new RegExp( LIMITS.mapStyle.pattern );

/**
 * Whether a style URL may be used: a `mapbox://styles/…` URL, or an https URL. With `hosts`, the
 * https URL must be on one of them (exact host, no credentials, no other port): the rule for
 * styles a contributor chooses, which send every visitor's browser to that host (the server's
 * Map_Attributes applies the same rule; LIMITS.mapStyle.hosts plus the `cairn_maps_style_hosts`
 * filter). Without `hosts`, any https host: a site owner's own choice, or a configuration the
 * server already checked.
 *
 * @param value A style URL.
 * @param hosts The hosts an https style may be on (lower case).
 */
export function isValidStyleUrl(
	value: string,
	hosts?: readonly string[]
): boolean {
	if ( STYLE_PATTERN.test( value ) ) {
		return true;
	}
	// The schema's other form: an https URL without spaces, quotes, angle brackets or backslashes.
	if ( ! isValid( rules.mapStyle, value ) ) {
		return false;
	}
	try {
		const url = new URL( value );
		return (
			url.protocol === 'https:' &&
			( ! hosts ||
				( url.username === '' &&
					url.password === '' &&
					url.port === '' &&
					hosts.includes( url.hostname.toLowerCase() ) ) )
		);
	} catch {
		return false;
	}
}

export const LANGUAGE_PATTERN = new RegExp( LIMITS.language.pattern );

/**
 * The group looks a map may use; anything malformed is left out.
 *
 * @param value Untrusted input.
 */
export function groupStyles( value: unknown ): GroupStyle[] {
	if ( ! Array.isArray( value ) ) {
		return [];
	}
	return value.filter( isRecord ).flatMap( ( style ) => {
		if (
			typeof style.slug !== 'string' ||
			// A marker group's slug, or a term's `taxonomy:slug` key (maps of posts).
			! /^(?:[a-z0-9_-]+:)?[a-z0-9_%-]+$/.test( style.slug )
		) {
			return [];
		}
		const color =
			typeof style.color === 'string' &&
			/^#[0-9a-fA-F]{6}$/.test( style.color )
				? style.color
				: '';
		const icon =
			typeof style.icon === 'string' && /^https?:\/\//.test( style.icon )
				? style.icon
				: '';
		const name =
			typeof style.name === 'string' ? style.name.slice( 0, 200 ) : '';
		return [ { slug: style.slug, name: name || style.slug, color, icon } ];
	} );
}

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
	const style = typeof value.style === 'string' ? value.style : '';
	return {
		accessToken:
			typeof value.accessToken === 'string'
				? value.accessToken.trim()
				: '',
		style: isValidStyleUrl( style )
			? style
			: attribute< string >( rules.mapStyle, undefined ),
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
		markerUrl: typeof value.markerUrl === 'string' ? value.markerUrl : '',
		groupStyles: groupStyles( value.groupStyles ),
		places: attribute< PlacesConfig >( rules.places, value.places ),
		languages: attribute< string[] >( rules.languages, value.languages ),
		units: value.units === 'imperial' ? 'imperial' : 'metric',
		consent: consent( value.consent ),
	};
}
