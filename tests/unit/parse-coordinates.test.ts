/**
 * Pasted positions: the forms people copy from maps and pages, and what is refused.
 */
import { parseCoordinates } from '../../src/markers/parse-coordinates';

const EDINBURGH_DMS = { lat: 55 + 57 / 60, lng: -( 3 + 11 / 60 + 24 / 3600 ) };

describe( 'parseCoordinates', () => {
	it.each( [
		[ 'decimal with comma', '55.95, -3.19', 55.95, -3.19 ],
		[ 'decimal without space', '55.95,-3.19', 55.95, -3.19 ],
		[ 'decimal with space only', '55.95 -3.19', 55.95, -3.19 ],
		[ 'decimal with semicolon', '55.95;-3.19', 55.95, -3.19 ],
		[ 'surrounding whitespace', '  55.95 ,  -3.19\n', 55.95, -3.19 ],
		[ 'brackets', '(55.95, -3.19)', 55.95, -3.19 ],
		[ 'explicit plus', '+55.95, +3.19', 55.95, 3.19 ],
		[ 'integers', '0, 0', 0, 0 ],
		[ 'the poles and the antimeridian', '-90, 180', -90, 180 ],
		[ 'labels', 'lat: 55.95, lng: -3.19', 55.95, -3.19 ],
		[ 'long labels', 'Latitude 55.95 Longitude -3.19', 55.95, -3.19 ],
		[ 'decimal commas, semicolon', '55,95; -3,19', 55.95, -3.19 ],
		[ 'decimal commas, space', '55,95 -3,19', 55.95, -3.19 ],
	] )( 'reads %s: %s', ( _name, text, lat, lng ) => {
		expect( parseCoordinates( text ) ).toEqual( { lat, lng } );
	} );

	it.each( [
		[ 'degree signs, trailing letters', '55.95° N, 3.19° W', 55.95, -3.19 ],
		[ 'no degree signs', '55.95 N 3.19 W', 55.95, -3.19 ],
		[ 'letters stuck to numbers', '55.95N 3.19W', 55.95, -3.19 ],
		[ 'leading letters', 'N 55.95, W 3.19', 55.95, -3.19 ],
		[ 'leading letters without comma', 'N55.95 W3.19', 55.95, -3.19 ],
		[ 'lower case', '55.95n, 3.19w', 55.95, -3.19 ],
		[
			'longitude first, letters decide',
			'3.19° W, 55.95° N',
			55.95,
			-3.19,
		],
		[ 'south and east', '33.87° S, 151.21° E', -33.87, 151.21 ],
		[ 'one letter decides both axes', '151.21 E, -33.87', -33.87, 151.21 ],
		[ 'masculine ordinal as degree', '55.95º N, 3.19º W', 55.95, -3.19 ],
	] )( 'reads hemispheres, %s: %s', ( _name, text, lat, lng ) => {
		expect( parseCoordinates( text ) ).toEqual( { lat, lng } );
	} );

	it.each( [
		[ 'ASCII marks', `55°57'00"N 3°11'24"W` ],
		[ 'typographic primes', '55°57′00″N 3°11′24″W' ],
		[ 'curly quotes', '55°57’00”N, 3°11’24”W' ],
		[ 'spaces and a comma', `55° 57' 0" N, 3° 11' 24" W` ],
		[ 'two apostrophes for seconds', `55°57'00''N 3°11'24''W` ],
		[ 'leading letters', `N 55°57'00" W 3°11'24"` ],
		[ 'signed degrees', `55°57'00", -3°11'24"` ],
	] )( 'reads degrees, minutes and seconds (%s)', ( _name, text ) => {
		const result = parseCoordinates( text );
		expect( result?.lat ).toBeCloseTo( EDINBURGH_DMS.lat, 9 );
		expect( result?.lng ).toBeCloseTo( EDINBURGH_DMS.lng, 9 );
	} );

	it( 'reads degrees and decimal minutes', () => {
		const result = parseCoordinates( `55° 57.5' N, 3° 11.4' W` );
		expect( result?.lat ).toBeCloseTo( 55 + 57.5 / 60, 9 );
		expect( result?.lng ).toBeCloseTo( -( 3 + 11.4 / 60 ), 9 );
	} );

	it.each( [
		[
			'Google Maps view',
			'https://www.google.com/maps/@55.9533456,-3.1883749,15z',
			55.9533456,
			-3.1883749,
		],
		[
			'Google Maps place: the pin, not the view',
			'https://www.google.com/maps/place/Edinburgh/@55.94,-3.3,11z/data=!3m1!4b1!4m6!3m5!1s0x48:0x64!8m2!3d55.953252!4d-3.188267!16zL20vMDJtNzc',
			55.953252,
			-3.188267,
		],
		[
			'Google Maps search',
			'https://www.google.com/maps/search/?api=1&query=55.95%2C-3.19',
			55.95,
			-3.19,
		],
		[
			'Google Maps q',
			'https://maps.google.com/?q=55.95,-3.19',
			55.95,
			-3.19,
		],
		[
			'OpenStreetMap marker',
			'https://www.openstreetmap.org/?mlat=55.9533&mlon=-3.1884#map=12/55.9/-3.2',
			55.9533,
			-3.1884,
		],
		[
			'OpenStreetMap view',
			'https://www.openstreetmap.org/#map=15/55.95330/-3.18840',
			55.9533,
			-3.1884,
		],
		[
			'OpenStreetMap view after a layer',
			'https://www.openstreetmap.org/#layers=C&map=15/55.95/-3.19',
			55.95,
			-3.19,
		],
		[
			'Apple Maps',
			'https://maps.apple.com/?ll=55.95,-3.19&q=Edinburgh',
			55.95,
			-3.19,
		],
		[
			'Bing Maps',
			'https://www.bing.com/maps?cp=55.95~-3.19',
			55.95,
			-3.19,
		],
		[ 'geo URI', 'geo:55.95,-3.19;u=35', 55.95, -3.19 ],
	] )( 'reads a link: %s', ( _name, text, lat, lng ) => {
		expect( parseCoordinates( text ) ).toEqual( { lat, lng } );
	} );

	it.each( [
		[ 'nothing', '' ],
		[ 'spaces', '   ' ],
		[ 'one number', '55.95' ],
		[ 'three numbers', '55.95, -3.19, 12' ],
		[ 'latitude above 90', '90.5, 10' ],
		[ 'latitude below -90', '-91, 10' ],
		[ 'longitude above 180', '10, 180.1' ],
		[ 'hemisphere latitude above 90', '95° N, 3° W' ],
		[ 'two latitudes', '55° N, 3° S' ],
		[ 'two longitudes', '55° E, 3° W' ],
		[ 'sign and hemisphere', '-55.95 S, 3.19 W' ],
		[ 'minutes of 60', `55°60'00"N 3°11'24"W` ],
		[ 'seconds of 60', `55°57'60"N 3°11'24"W` ],
		[ 'minutes without degrees', `57'N 11'W` ],
		[ 'negative minutes', `55°-57'N 3°11'W` ],
		[ 'fractional degrees with minutes', `55.5°57'N 3°11'W` ],
		[ 'letters after letters', 'N N 55, 3' ],
		[ 'words', 'Edinburgh' ],
		[ 'a place name with numbers', 'Flat 3, 12 High Street' ],
		[ 'exponents', '1e1, 2' ],
		[ 'hex', '0x10, 2' ],
		[ 'Infinity', 'Infinity, 2' ],
		[ 'script', '<script>55, 3</script>' ],
		[ 'a link without a position', 'https://www.openstreetmap.org/' ],
		[
			'an empty marker parameter',
			'https://www.openstreetmap.org/?mlat=&mlon=',
		],
		[
			'a link with a position out of range',
			'https://maps.google.com/?q=95,10',
		],
		[ 'a broken link', 'https://%%%' ],
		[ 'a very long text', `55, ${ '1'.repeat( 3000 ) }` ],
	] )( 'refuses %s', ( _name, text ) => {
		expect( parseCoordinates( text ) ).toBeNull();
	} );
} );
