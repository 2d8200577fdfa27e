/**
 * "Near a place" for visitors: the radius choices in the map's units, the search in the page's
 * address (`?cairn-near=<lng>,<lat>|<text>&cairn-radius=<km>`, DESIGN.md "Visitors near a
 * place"), what is announced, and where a typed address is looked up:
 *
 * - `config.geocoder` `site`: the site's own route (`config.geocodeUrl`,
 *   `GET /cairn/v1/geocode/visitor?q=`), which asks the owner's Nominatim (or their own), cached
 *   and limited there;
 * - `mapbox`: Mapbox temporary geocoding from the browser with the map's public token (nothing is
 *   stored, as its terms allow);
 * - `none`: nothing is asked; the map's own place names are matched instead (the controller).
 *
 * Nothing here runs before the map does, and the map waits for consent where the site asks it:
 * so does every lookup.
 * @since 0.8.0
 */
import { __, _n, sprintf } from '@wordpress/i18n';

import type { MapConfig } from '../types';
import type { NearState } from './controller';
import { LIMITS } from '../limits';
import { METRES_PER_MILE, formatUnit } from '../shapes/units';
import { withQuery } from './tile-urls';
import { formatCount } from '../count';

export const NEAR_PARAM = 'cairn-near';
export const RADIUS_PARAM = 'cairn-radius';

/** The Mapbox geocoding endpoint (temporary results: `permanent` is not asked for). */
const MAPBOX_GEOCODE = 'https://api.mapbox.com/search/geocode/v6/forward';

/** A lookup that takes longer is given up. */
const GEOCODE_TIMEOUT = 8000;

/**
 * The radius choices, in metres, in the map's units (1, 5, 10, 25, 50, 100 km or mi).
 * @param units
 */
export function radiusChoices( units: MapConfig[ 'units' ] ): number[] {
	const unit = units === 'imperial' ? METRES_PER_MILE : 1000;
	return LIMITS.near.radiiKm.map( ( value ) => Math.round( value * unit ) );
}

/**
 * A radius in the map's units: "25 km", "10 mi".
 * @param metres
 * @param units
 * @param lang
 */
export function formatRadius(
	metres: number,
	units: MapConfig[ 'units' ],
	lang?: string
): string {
	return units === 'imperial'
		? formatUnit( metres / METRES_PER_MILE, 'mile', 1, lang )
		: formatUnit( metres / 1000, 'kilometer', 1, lang );
}

/**
 * Degrees as the address carries them (6 decimals, about 10 cm).
 * @param value
 */
function degrees( value: number ): string {
	return String( Math.round( value * 1e6 ) / 1e6 );
}

/**
 * The `cairn-near` value of a search: "lng,lat|text".
 * @param near
 */
export function nearParam( near: NearState ): string {
	return `${ degrees( near.lng ) },${ degrees( near.lat ) }|${ near.text }`;
}

/**
 * The "near" search an address carries, or null (absent or unreadable: ignored, never an error).
 * @param href The page's address.
 */
export function nearFromAddress( href: string ): NearState | null {
	let params: URLSearchParams;
	try {
		params = new URL( href ).searchParams;
	} catch {
		return null;
	}
	const value = params.get( NEAR_PARAM );
	if ( ! value ) {
		return null;
	}
	const bar = value.indexOf( '|' );
	const position = ( bar < 0 ? value : value.slice( 0, bar ) ).split( ',' );
	const lng = Number( position[ 0 ] );
	const lat = Number( position[ 1 ] );
	if (
		position.length !== 2 ||
		position.some( ( part ) => ! /^\s*-?\d+(\.\d+)?\s*$/.test( part ) ) ||
		Math.abs( lng ) > 180 ||
		Math.abs( lat ) > 90
	) {
		return null;
	}
	const km = Number( params.get( RADIUS_PARAM ) ?? '' );
	const metres = Math.round( km * 1000 );
	const radius =
		Number.isFinite( km ) &&
		metres >= LIMITS.near.minRadius &&
		metres <= LIMITS.near.maxRadius
			? metres
			: 0;
	const text =
		bar < 0
			? ''
			: value
					.slice( bar + 1 )
					.trim()
					.slice( 0, 200 );
	return { lng, lat, radius, text };
}

/**
 * A "near" the address names by text alone (`?cairn-near=Edinburgh&cairn-radius=25`, as the
 * no-JavaScript form sends it): the text and the radius in metres (0: any), or null.
 * @param href The page's address.
 */
export function nearTextFromAddress(
	href: string
): { text: string; radius: number } | null {
	let params: URLSearchParams;
	try {
		params = new URL( href ).searchParams;
	} catch {
		return null;
	}
	const value = ( params.get( NEAR_PARAM ) ?? '' ).trim();
	if ( value === '' || value.includes( '|' ) || nearFromAddress( href ) ) {
		return null;
	}
	const metres = Math.round( Number( params.get( RADIUS_PARAM ) ) * 1000 );
	return {
		text: value.slice( 0, 200 ),
		radius:
			metres >= LIMITS.near.minRadius && metres <= LIMITS.near.maxRadius
				? metres
				: 0,
	};
}

/**
 * Whether two searches are the same (to the address's precision).
 * @param a
 * @param b
 */
export function sameNear( a: NearState | null, b: NearState | null ): boolean {
	if ( ! a || ! b ) {
		return a === b;
	}
	return nearParam( a ) === nearParam( b ) && a.radius === b.radius;
}

/**
 * What is announced once the list shows a "near" search.
 * @param total Places listed.
 * @param near
 * @param units
 * @param lang
 */
export function nearAnnouncement(
	total: number,
	near: NearState,
	units: MapConfig[ 'units' ],
	lang?: string
): string {
	const text = near.text.slice( 0, 100 );
	if ( near.radius <= 0 ) {
		return near.text
			? sprintf(
					/* translators: 1: number of places ("1,234"), 2: a place the visitor typed. */
					_n(
						'%1$s place, nearest to “%2$s” first',
						'%1$s places, nearest to “%2$s” first',
						total,
						'cairn-maps'
					),
					formatCount( total, lang ),
					text
				)
			: sprintf(
					/* translators: %s: number of places ("1,234"). */
					_n(
						'%s place, nearest to you first',
						'%s places, nearest to you first',
						total,
						'cairn-maps'
					),
					formatCount( total, lang )
				);
	}
	const radius = formatRadius( near.radius, units, lang );
	return near.text
		? sprintf(
				/* translators: 1: number of places ("1,234"), 2: a distance ("25 km"), 3: a place the visitor typed. */
				_n(
					'%1$s place within %2$s of “%3$s”',
					'%1$s places within %2$s of “%3$s”',
					total,
					'cairn-maps'
				),
				formatCount( total, lang ),
				radius,
				text
			)
		: sprintf(
				/* translators: 1: number of places ("1,234"), 2: a distance ("25 km"). */
				_n(
					'%1$s place within %2$s of you',
					'%1$s places within %2$s of you',
					total,
					'cairn-maps'
				),
				formatCount( total, lang ),
				radius
			);
}

/**
 * A JSON answer, or an error for a failed request (a 4xx/5xx, no answer in time).
 * @param url
 */
async function getJson( url: string ): Promise< unknown > {
	const controller = new AbortController();
	let timer: ReturnType< typeof setTimeout > | undefined;
	try {
		timer = setTimeout( () => controller.abort(), GEOCODE_TIMEOUT );
		const response = await fetch( url, {
			signal: controller.signal,
			credentials: 'same-origin',
			headers: { Accept: 'application/json' },
		} );
		if ( ! response.ok ) {
			throw new Error( `The lookup answered ${ response.status }.` );
		}
		return await response.json();
	} finally {
		clearTimeout( timer );
	}
}

function finite( value: unknown ): value is number {
	return typeof value === 'number' && Number.isFinite( value );
}

/**
 * Where a typed address is, as the owner's geocoder says: null when it finds nothing or when
 * the map has none (`none`); an error when it could not answer.
 * @param config The map's configuration.
 * @param text   What the visitor typed (trimmed, at most 200 characters).
 */
export async function geocodeText(
	config: Pick< MapConfig, 'geocoder' | 'geocodeUrl' | 'accessToken' >,
	text: string
): Promise< { lng: number; lat: number } | null > {
	if ( text.length < 2 ) {
		return null;
	}
	if ( config.geocoder === 'site' && config.geocodeUrl ) {
		const answer = ( await getJson(
			withQuery( config.geocodeUrl, [ [ 'q', text ] ] )
		) ) as { results?: Array< { lng?: unknown; lat?: unknown } > };
		const first = Array.isArray( answer?.results )
			? answer.results[ 0 ]
			: undefined;
		return first && finite( first.lng ) && finite( first.lat )
			? { lng: first.lng, lat: first.lat }
			: null;
	}
	if ( config.geocoder === 'mapbox' && config.accessToken ) {
		const answer = ( await getJson(
			withQuery( MAPBOX_GEOCODE, [
				[ 'q', text ],
				[ 'limit', '1' ],
				[ 'access_token', config.accessToken ],
			] )
		) ) as {
			features?: Array< { geometry?: { coordinates?: unknown } } >;
		};
		const coordinates = Array.isArray( answer?.features )
			? answer.features[ 0 ]?.geometry?.coordinates
			: undefined;
		return Array.isArray( coordinates ) &&
			finite( coordinates[ 0 ] ) &&
			finite( coordinates[ 1 ] )
			? { lng: coordinates[ 0 ], lat: coordinates[ 1 ] }
			: null;
	}
	return null;
}

/** The label of the "near" field's own-position choice. */
export const MY_LOCATION = (): string => __( 'My location', 'cairn-maps' );
