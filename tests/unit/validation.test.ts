/**
 * What the editor accepts in its fields before anything reaches the block attributes.
 */
import {
	RANGES,
	heightError,
	parseNumberIn,
	roundTo,
	styleError,
	zoomRangeError,
} from '../../src/blocks/map/validation';
import { markersFeedUrl } from '../../src/blocks/map/editor-data';

describe( 'editor field rules', () => {
	it.each( [
		[ '480px', true ],
		[ '30rem', true ],
		[ '60vh', true ],
		[ '12.5em', true ],
		[ '0px', false ],
		[ '480', false ],
		[ 'tall', false ],
		[ '100%', false ],
		[ '480px; background:url(x)', false ],
		[ '99999px', false ],
	] )( 'height %s valid: %p', ( value, valid ) => {
		expect( heightError( value ) === '' ).toBe( valid );
	} );

	it.each( [
		[ '55.95', RANGES.lat, 55.95 ],
		[ '-85.0511', RANGES.lat, -85.0511 ],
		[ '95', RANGES.lat, null ],
		[ '', RANGES.lat, null ],
		[ 'abc', RANGES.lng, null ],
		[ 'Infinity', RANGES.zoom, null ],
		[ '61', RANGES.pitch, null ],
		[ '60', RANGES.pitch, 60 ],
	] )( 'parses %p in %p as %p', ( text, range, expected ) => {
		expect( parseNumberIn( text, range ) ).toBe( expected );
	} );

	it( 'explains a minimum zoom above the maximum', () => {
		expect( zoomRangeError( 10, 4 ) ).toMatch( /minimum zoom/ );
		expect( zoomRangeError( 4, 4 ) ).toBe( '' );
	} );

	it( 'refuses style URLs that are not Mapbox styles or https', () => {
		expect( styleError( 'mapbox://styles/mapbox/dark-v11' ) ).toBe( '' );
		expect( styleError( 'ftp://example.com/style.json' ) ).not.toBe( '' );
	} );

	it( 'rounds camera values for storage', () => {
		expect( roundTo( 55.9533333333, 6 ) ).toBe( 55.953333 );
		expect( roundTo( 9.87654, 2 ) ).toBe( 9.88 );
	} );
} );

describe( 'markersFeedUrl', () => {
	const base = 'https://example.com/?rest_route=/cairn/v1/markers';

	it( 'adds the block filters to the feed URL', () => {
		expect(
			markersFeedUrl( base, {
				source: 'groups',
				groups: [ 'a', 'b' ],
				ids: [],
			} )
		).toBe(
			`${ base.replace( '/cairn/v1/markers', '%2Fcairn%2Fv1%2Fmarkers' ) }&group=a%2Cb`
		);
		expect(
			markersFeedUrl( base, { source: 'ids', groups: [], ids: [ 4, 9 ] } )
		).toContain( 'include=4%2C9' );
	} );

	it( 'gives no URL for an empty selection', () => {
		expect(
			markersFeedUrl( base, { source: 'groups', groups: [], ids: [] } )
		).toBe( '' );
		expect(
			markersFeedUrl( base, { source: 'ids', groups: [], ids: [] } )
		).toBe( '' );
	} );
} );
