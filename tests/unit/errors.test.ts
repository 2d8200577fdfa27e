/**
 * Every error code has a plain-language message, and none leaks a URL or a token.
 */
import { MapError, errorMessage } from '../../packages/map/src/errors';
import type { MapErrorCode } from '../../packages/map/src/types';

const CODES: MapErrorCode[] = [
	'missing-token',
	'secret-token',
	'invalid-token',
	'bad-container',
	'zoom-range',
	'webgl',
	'image-type',
	'style',
	'markers',
];

describe( 'error messages', () => {
	it.each( CODES )( '%s has a message without URLs or tokens', ( code ) => {
		const message = errorMessage( code );
		expect( message.length ).toBeGreaterThan( 20 );
		expect( message ).not.toMatch( /https?:|mapbox\.com|pk\.|sk\./ );
		expect( new MapError( code ).code ).toBe( code );
	} );

	it( 'says what the spec asks for the token errors', () => {
		expect( errorMessage( 'missing-token' ) ).toMatch(
			/public Mapbox access token/
		);
		expect( errorMessage( 'secret-token' ) ).toMatch( /only a public/i );
		expect( errorMessage( 'image-type' ) ).toMatch( /PNG or JPEG/ );
	} );
} );
