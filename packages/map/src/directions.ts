/**
 * "Directions": the address of a place in the visitor's own map app (OpenStreetMap, Google Maps,
 * Apple Maps, or the phone's `geo:` handler), as the owner chose. No API, no key: nothing leaves
 * the page until the visitor follows the link (directions-link.ts builds it). Small and free of
 * text, so the configuration's parser can read the app.
 * @since 0.9.0
 */
import type { DirectionsApp } from './types';

/** The apps a link can open ('none' aside), in the order the settings offer them. */
export const DIRECTIONS_APPS: ReadonlyArray<
	Exclude< DirectionsApp, 'none' >
> = [ 'osm', 'google', 'apple', 'geo' ];

/**
 * A configuration's app: one of DIRECTIONS_APPS, else none (absent, `site`, anything else).
 * @param value Untrusted input.
 */
export function directionsApp( value: unknown ): DirectionsApp {
	return DIRECTIONS_APPS.find( ( app ) => app === value ) ?? 'none';
}

/**
 * A coordinate as the apps read it: at most 6 decimals (about 10 cm), no exponent, no trailing
 * zeros ("56.79685", "-5.0036").
 * @param value Degrees.
 */
function degrees( value: number ): string {
	return value
		.toFixed( 6 )
		.replace( /\.?0+$/, '' )
		.replace( /^-0$/, '0' );
}

/**
 * The address of the directions to a point in an app, or '' for none (or a point that is not
 * one: out of range, not a number).
 *
 * - OpenStreetMap: `https://www.openstreetmap.org/directions?route=;<lat>,<lng>` (its `route`
 *   is `<from>;<to>`: the visitor fills in the start, or the site's router locates them).
 * - Google Maps: `https://www.google.com/maps/dir/?api=1&destination=<lat>,<lng>` (Maps URLs).
 * - Apple Maps: `https://maps.apple.com/?daddr=<lat>,<lng>` (Map Links).
 * - `geo:<lat>,<lng>` (RFC 5870): the phone's own map app.
 * @param app The app.
 * @param lat Latitude.
 * @param lng Longitude.
 */
export function directionsUrl(
	app: DirectionsApp,
	lat: number,
	lng: number
): string {
	if (
		! Number.isFinite( lat ) ||
		! Number.isFinite( lng ) ||
		Math.abs( lat ) > 90 ||
		Math.abs( lng ) > 180
	) {
		return '';
	}
	const point = `${ degrees( lat ) },${ degrees( lng ) }`;
	switch ( app ) {
		case 'osm':
			return `https://www.openstreetmap.org/directions?route=;${ point }`;
		case 'google':
			return `https://www.google.com/maps/dir/?api=1&destination=${ point }`;
		case 'apple':
			return `https://maps.apple.com/?daddr=${ point }`;
		case 'geo':
			return `geo:${ point }`;
		default:
			return '';
	}
}
