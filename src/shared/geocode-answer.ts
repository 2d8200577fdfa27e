/**
 * What `GET /cairn/v1/geocode` answers (plugin/Geocoding/Geocode_Controller.php), read defensively,
 * and the message for a failed search.
 */
import { __ } from '@wordpress/i18n';
import { isRecord } from '@cairn-maps/map/plugin';

/** One place the geocoder found. */
export interface GeocodeResult {
	label: string;
	lat: number;
	lng: number;
}

/** The route's answer, checked. */
export interface GeocodeAnswer {
	results: GeocodeResult[];
	attribution: string;
	/** Where the attribution links to (an https address), or ''. */
	attributionUrl: string;
}

/** Reads the route's answer; anything malformed is left out. */
export function parseGeocodeAnswer( value: unknown ): GeocodeAnswer {
	const data = isRecord( value ) ? value : {};
	const results: GeocodeResult[] = [];
	for ( const item of Array.isArray( data.results ) ? data.results : [] ) {
		if (
			isRecord( item ) &&
			typeof item.label === 'string' &&
			typeof item.lat === 'number' &&
			typeof item.lng === 'number' &&
			Number.isFinite( item.lat ) &&
			Number.isFinite( item.lng ) &&
			Math.abs( item.lat ) <= 90 &&
			Math.abs( item.lng ) <= 180
		) {
			results.push( { label: item.label, lat: item.lat, lng: item.lng } );
		}
	}
	return {
		results,
		attribution:
			typeof data.attribution === 'string' ? data.attribution : '',
		attributionUrl:
			typeof data.attribution_url === 'string' &&
			/^https:\/\/[^\s"<>]+$/.test( data.attribution_url )
				? data.attribution_url
				: '',
	};
}

/** The message for a failed search: the server's own (a 429 says to wait), or a general one. */
export function geocodeErrorMessage( error: unknown ): string {
	if (
		isRecord( error ) &&
		typeof error.message === 'string' &&
		error.message &&
		error.code !== 'fetch_error' &&
		error.code !== 'invalid_json'
	) {
		return error.message;
	}
	return __(
		'The address search is not available right now. Try again later, or place the point on the map.',
		'cairn-maps'
	);
}
