/**
 * The error codes of the map and the plain-language messages visitors see.
 * Messages never contain a token or a URL.
 */
import { __ } from '@wordpress/i18n';

import type { MapErrorCode } from './types';

/** Every error code a map can report, the one list the `MapErrorCode` type is made from. */
export const MAP_ERROR_CODES = [
	'missing-token',
	'secret-token',
	'invalid-token',
	'bad-container',
	'zoom-range',
	'webgl',
	'image-type',
	'style',
	'markers',
] as const;

export class MapError extends Error {
	readonly code: MapErrorCode;

	constructor( code: MapErrorCode, cause?: unknown ) {
		super( errorMessage( code ), { cause } );
		this.name = 'MapError';
		this.code = code;
	}
}

/**
 * Failures after which the map stays usable: a marker image that could not be loaded (its markers
 * keep the default symbol) and marker data that could not be loaded (the map itself still works).
 * They are reported like every other failure (state `error`, one alert, `cairn:map-error`), but the
 * map is not stopped.
 *
 * @param code Error code.
 */
export function isNonFatal( code: MapErrorCode ): boolean {
	return code === 'image-type' || code === 'markers';
}

export function errorMessage( code: MapErrorCode ): string {
	switch ( code ) {
		case 'missing-token':
			return __(
				'This map cannot be shown yet: a public Mapbox access token must be provided in Settings → Cairn Maps.',
				'cairn-maps'
			);
		case 'secret-token':
			return __(
				'This map cannot be shown: only a public Mapbox access token may be used.',
				'cairn-maps'
			);
		case 'invalid-token':
			return __(
				'This map cannot be shown: the Mapbox access token is invalid or not allowed for this site.',
				'cairn-maps'
			);
		case 'bad-container':
			return __(
				'This map cannot be shown because of a configuration error: it has no place on the page to draw in.',
				'cairn-maps'
			);
		case 'zoom-range':
			return __(
				'This map cannot be shown because of a configuration error: the minimum zoom is above the maximum zoom.',
				'cairn-maps'
			);
		case 'webgl':
			return __(
				'The map could not start because this browser cannot draw it (WebGL is unavailable). The list of places below still works.',
				'cairn-maps'
			);
		case 'image-type':
			return __(
				'A marker image could not be loaded: a supported PNG or JPEG image is required.',
				'cairn-maps'
			);
		case 'style':
			return __(
				'The map could not be loaded. Please try again later.',
				'cairn-maps'
			);
		case 'markers':
			return __(
				'The places on this map could not be loaded. Please try again later.',
				'cairn-maps'
			);
	}
}

/**
 * Shows a failure on the page: `data-cairn-state="error"`, one `role="alert"` message (before the
 * list of places, replacing any earlier one) and a bubbling `cairn:map-error` event. Free of
 * mapbox-gl, so the front-end loader can report a runtime that failed to download.
 *
 * @param host The element that carries the map's state (the block's wrapper).
 * @param code Error code.
 */
export function showError( host: HTMLElement, code: MapErrorCode ): MapError {
	const error = new MapError( code );
	host.dataset.cairnState = 'error';
	for ( const old of host.querySelectorAll( ':scope > [role="alert"]' ) ) {
		old.remove();
	}
	const alert = host.ownerDocument.createElement( 'div' );
	alert.className = 'wp-block-cairn-map__error';
	alert.setAttribute( 'role', 'alert' );
	alert.dataset.cairnError = code;
	alert.textContent = errorMessage( code );
	// Before the places (the panel, or the list of older markup), where the server renders it.
	const list = host.querySelector(
		':scope > .wp-block-cairn-map__places, :scope > .wp-block-cairn-map__markers'
	);
	host.insertBefore( alert, list );
	const view = host.ownerDocument.defaultView;
	if ( view ) {
		host.dispatchEvent(
			new view.CustomEvent( 'cairn:map-error', {
				bubbles: true,
				detail: { code, message: error.message },
			} )
		);
	}
	return error;
}
