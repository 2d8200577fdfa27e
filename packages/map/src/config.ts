/**
 * Turns untrusted input (a data attribute, a headless caller's object) into a `MapConfig`.
 * Invalid values fall back to the block's defaults; a minimum zoom above the maximum is an error.
 */
import metadata from '../../../src/blocks/map/block.json';
import { MapError } from './errors';
import { LIMITS } from './limits';
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

const DEFAULTS = metadata.attributes;

type Record_ = Record< string, unknown >;

function isRecord( value: unknown ): value is Record_ {
	return (
		typeof value === 'object' && value !== null && ! Array.isArray( value )
	);
}

function numberIn(
	value: unknown,
	range: { min: number; max: number },
	fallback: number
): number {
	return typeof value === 'number' &&
		Number.isFinite( value ) &&
		value >= range.min &&
		value <= range.max
		? value
		: fallback;
}

function bool( value: unknown, fallback: boolean ): boolean {
	return typeof value === 'boolean' ? value : fallback;
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
	if ( ! value.startsWith( 'https://' ) || /[\s"'<>\\]/.test( value ) ) {
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

function controls( value: unknown ): ControlsConfig {
	const input = isRecord( value ) ? value : {};
	const fallback = DEFAULTS.controls.default;
	return {
		zoom: bool( input.zoom, fallback.zoom ),
		compass: bool( input.compass, fallback.compass ),
		scale: bool( input.scale, fallback.scale ),
		fullscreen: bool( input.fullscreen, fallback.fullscreen ),
		geolocate: bool( input.geolocate, fallback.geolocate ),
	};
}

function cluster( value: unknown ): ClusterConfig {
	const input = isRecord( value ) ? value : {};
	const fallback = DEFAULTS.cluster.default;
	return {
		enabled: bool( input.enabled, fallback.enabled ),
		radius: numberIn(
			input.radius,
			{ min: LIMITS.cluster.minRadius, max: LIMITS.cluster.maxRadius },
			fallback.radius
		),
	};
}

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

function places( value: unknown ): PlacesConfig {
	const input = isRecord( value ) ? value : {};
	return {
		search: bool( input.search, true ),
		groupFilter: bool( input.groupFilter, true ),
		followMap: bool( input.followMap, true ),
	};
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

/** The label languages visitors may choose from: valid tags, once each, at most the limit. */
function languages( value: unknown ): string[] {
	if ( ! Array.isArray( value ) ) {
		return [];
	}
	return [
		...new Set(
			value.filter(
				( tag ): tag is string =>
					typeof tag === 'string' && LANGUAGE_PATTERN.test( tag )
			)
		),
	].slice( 0, LIMITS.languages.maxItems );
}

/**
 * A map's post selection (attribute `content`): type names, term slugs by taxonomy, `current`.
 * Only the shape is checked here; the server decides which types and taxonomies are allowed.
 *
 * @param value Untrusted input.
 */
export function parseContentSelection( value: unknown ): ContentSelection {
	const input = isRecord( value ) ? value : {};
	const names = ( list: unknown ): string[] =>
		Array.isArray( list )
			? [
					...new Set(
						list.filter(
							( name ): name is string =>
								typeof name === 'string' &&
								/^[a-z0-9_%-]{1,200}$/.test( name )
						)
					),
				]
			: [];
	const terms: Record< string, string[] > = {};
	if ( isRecord( input.terms ) && ! Array.isArray( input.terms ) ) {
		for ( const [ taxonomy, slugs ] of Object.entries( input.terms ) ) {
			const clean = names( slugs );
			if ( /^[a-z0-9_-]{1,32}$/.test( taxonomy ) && clean.length ) {
				terms[ taxonomy ] = clean;
			}
		}
	}
	return {
		postTypes: names( input.postTypes ),
		terms,
		current: input.current === true,
	};
}

export function parseMarkerSelection( value: unknown ): MarkerSelection {
	const input = isRecord( value ) ? value : {};
	const source =
		input.source === 'groups' ||
		input.source === 'ids' ||
		input.source === 'none'
			? input.source
			: 'all';
	return {
		source,
		groups: Array.isArray( input.groups )
			? input.groups.filter(
					( slug ): slug is string =>
						typeof slug === 'string' && /^[a-z0-9_-]+$/.test( slug )
				)
			: [],
		ids: Array.isArray( input.ids )
			? input.ids.filter(
					( id ): id is number => Number.isInteger( id ) && id > 0
				)
			: [],
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
	const minZoom = numberIn(
		value.minZoom,
		LIMITS.zoom,
		DEFAULTS.minZoom.default
	);
	const maxZoom = numberIn(
		value.maxZoom,
		LIMITS.zoom,
		DEFAULTS.maxZoom.default
	);
	if ( minZoom > maxZoom ) {
		throw new MapError( 'zoom-range' );
	}
	const center = isRecord( value.center ) ? value.center : {};
	const style = typeof value.style === 'string' ? value.style : '';
	const language =
		typeof value.language === 'string' &&
		( value.language === 'auto' || LANGUAGE_PATTERN.test( value.language ) )
			? value.language
			: DEFAULTS.language.default;
	return {
		accessToken:
			typeof value.accessToken === 'string'
				? value.accessToken.trim()
				: '',
		style: isValidStyleUrl( style ) ? style : DEFAULTS.mapStyle.default,
		center: {
			lng: numberIn(
				center.lng,
				LIMITS.longitude,
				DEFAULTS.center.default.lng
			),
			lat: numberIn(
				center.lat,
				LIMITS.latitude,
				DEFAULTS.center.default.lat
			),
		},
		zoom: Math.min(
			maxZoom,
			Math.max(
				minZoom,
				numberIn( value.zoom, LIMITS.zoom, DEFAULTS.zoom.default )
			)
		),
		bearing: numberIn(
			value.bearing,
			LIMITS.bearing,
			DEFAULTS.bearing.default
		),
		pitch: numberIn( value.pitch, LIMITS.pitch, DEFAULTS.pitch.default ),
		minZoom,
		maxZoom,
		controls: controls( value.controls ),
		language,
		cluster: cluster( value.cluster ),
		hash: bool( value.hash, DEFAULTS.hash.default ),
		hashName:
			typeof value.hashName === 'string' &&
			/^[A-Za-z][\w-]{0,63}$/.test( value.hashName )
				? value.hashName
				: '',
		cooperativeGestures: bool(
			value.cooperativeGestures,
			DEFAULTS.cooperativeGestures.default
		),
		markersUrl:
			typeof value.markersUrl === 'string' ? value.markersUrl : '',
		postsUrl: typeof value.postsUrl === 'string' ? value.postsUrl : '',
		markerUrl: typeof value.markerUrl === 'string' ? value.markerUrl : '',
		groupStyles: groupStyles( value.groupStyles ),
		places: places( value.places ),
		languages: languages( value.languages ),
		units: value.units === 'imperial' ? 'imperial' : 'metric',
		consent: consent( value.consent ),
	};
}
