/**
 * The address search reads the geocode route's answer defensively and shows the server's message.
 */
import {
	geocodeErrorMessage,
	parseGeocodeAnswer,
} from '../../src/shared/geocode-answer';

describe( 'parseGeocodeAnswer', () => {
	it( 'keeps well-formed results and the attribution', () => {
		expect(
			parseGeocodeAnswer( {
				results: [
					{ label: 'Calton Hill', lat: 55.9553, lng: -3.1826 },
				],
				attribution: '© OpenStreetMap contributors (ODbL)',
				attribution_url: 'https://www.openstreetmap.org/copyright',
			} )
		).toEqual( {
			results: [ { label: 'Calton Hill', lat: 55.9553, lng: -3.1826 } ],
			attribution: '© OpenStreetMap contributors (ODbL)',
			attributionUrl: 'https://www.openstreetmap.org/copyright',
		} );
	} );

	it.each( [
		[ 'coordinates as text', { label: 'A', lat: '1', lng: 2 } ],
		[ 'latitude out of range', { label: 'A', lat: 91, lng: 2 } ],
		[ 'longitude not finite', { label: 'A', lat: 1, lng: Infinity } ],
		[ 'no label', { lat: 1, lng: 2 } ],
		[ 'not an object', 'Calton Hill' ],
	] )( 'leaves out a result with %s', ( _name, result ) => {
		expect(
			parseGeocodeAnswer( {
				results: [ result, { label: 'Good', lat: 1, lng: 2 } ],
			} ).results
		).toEqual( [ { label: 'Good', lat: 1, lng: 2 } ] );
	} );

	it.each( [
		[ 'null', null ],
		[ 'an HTML page', '<html></html>' ],
		[ 'results not a list', { results: { label: 'A' } } ],
	] )( 'reads %s as nothing found', ( _name, answer ) => {
		expect( parseGeocodeAnswer( answer ) ).toEqual( {
			results: [],
			attribution: '',
			attributionUrl: '',
		} );
	} );

	it.each( [
		'javascript:alert(1)',
		'http://example.com/',
		'https://example.com/"><script>',
	] )(
		'drops an attribution link that is not a plain https address: %s',
		( url ) => {
			expect(
				parseGeocodeAnswer( {
					results: [],
					attribution: 'A',
					attribution_url: url,
				} ).attributionUrl
			).toBe( '' );
		}
	);
} );

describe( 'geocodeErrorMessage', () => {
	it( 'shows the server’s message (a 429 says when to try again)', () => {
		expect(
			geocodeErrorMessage( {
				code: 'cairn_geocode_rate_limited',
				message: 'Too many address searches. Try again in 2 seconds.',
				data: { status: 429 },
			} )
		).toBe( 'Too many address searches. Try again in 2 seconds.' );
	} );

	it.each( [
		[
			'a network failure',
			{ code: 'fetch_error', message: 'You are probably offline.' },
		],
		[
			'an unreadable answer',
			{
				code: 'invalid_json',
				message: 'The response is not a valid JSON response.',
			},
		],
		[ 'an Error without message', new Error( '' ) ],
		[ 'a string', 'boom' ],
	] )( 'gives a general message for %s', ( _name, error ) => {
		expect( geocodeErrorMessage( error ) ).toContain(
			'The address search is not available right now.'
		);
	} );
} );
