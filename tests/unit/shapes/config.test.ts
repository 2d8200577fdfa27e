/**
 * The configuration's shapes feed, its shape tiles and group line looks: parsed like the rest of the
 * configuration, a bad value replaced by its default (no feed, the default width), never an
 * exception.
 */
import { parseMapConfig } from '../../../packages/map/src/config';

describe( 'shapesUrl', () => {
	it.each( [
		[
			'https://example.test/wp-json/cairn/v1/shapes',
			'https://example.test/wp-json/cairn/v1/shapes',
		],
		[
			'/wp-json/cairn/v1/shapes?group=trails',
			'/wp-json/cairn/v1/shapes?group=trails',
		],
		[ '?rest_route=/cairn/v1/shapes', '?rest_route=/cairn/v1/shapes' ],
		[ '', '' ],
		[ '   ', '' ],
		[ 'javascript:alert(1)', '' ],
		[ 'data:application/json,{}', '' ],
		[ 'https://', '' ],
		[ 42, '' ],
		[ null, '' ],
		[ { href: 'https://example.test' }, '' ],
	] )( '%p gives %p', ( value, expected ) => {
		expect( parseMapConfig( { shapesUrl: value } ).shapesUrl ).toBe(
			expected
		);
	} );

	it( 'is no feed when absent (maps of points only)', () => {
		expect( parseMapConfig( {} ).shapesUrl ).toBe( '' );
	} );
} );

describe( 'shapeTilesUrl', () => {
	const FEED = 'https://example.test/wp-json/cairn/v1/shapes';
	const TILES =
		'https://example.test/wp-json/cairn/v1/shapes/tiles/{z}/{x}/{y}?v=abc';

	it.each( [
		[ 'a template beside a feed', FEED, TILES, TILES ],
		[
			'percent-encoded coordinates',
			FEED,
			'/wp-json/cairn/v1/shapes/tiles/%7Bz%7D/%7Bx%7D/%7By%7D',
			'/wp-json/cairn/v1/shapes/tiles/%7Bz%7D/%7Bx%7D/%7By%7D',
		],
		[ 'no feed: no shapes at all', '', TILES, '' ],
		[
			'a template without its coordinates',
			FEED,
			'https://example.test/wp-json/cairn/v1/shapes/tiles/0/0/0',
			'',
		],
		[ 'another scheme', FEED, 'javascript:alert("{z}{x}{y}")', '' ],
		[ 'not a string', FEED, 42, '' ],
		[ 'absent', FEED, undefined, '' ],
	] )( '%s', ( _name, shapesUrl, shapeTilesUrl, expected ) => {
		expect(
			parseMapConfig( { shapesUrl, shapeTilesUrl } ).shapeTilesUrl
		).toBe( expected );
	} );
} );

describe( 'group line looks', () => {
	const looks = ( style: Record< string, unknown > ) => {
		const [ parsed ] = parseMapConfig( {
			groupStyles: [ { slug: 'trails', color: '#00aa00', ...style } ],
		} ).groupStyles;
		return {
			lineColor: parsed!.lineColor,
			lineWidth: parsed!.lineWidth,
			fillOpacity: parsed!.fillOpacity,
		};
	};

	it( 'keeps valid looks', () => {
		expect(
			looks( { lineColor: '#112233', lineWidth: 12, fillOpacity: 0 } )
		).toEqual( { lineColor: '#112233', lineWidth: 12, fillOpacity: 0 } );
		expect( looks( { lineWidth: 1, fillOpacity: 1 } ) ).toEqual( {
			lineColor: '',
			lineWidth: 1,
			fillOpacity: 1,
		} );
	} );

	it.each( [
		[ { lineWidth: 0 } ],
		[ { lineWidth: 13 } ],
		[ { lineWidth: '6' } ],
		[ { lineWidth: Number.NaN } ],
		[ { lineWidth: Infinity } ],
		[ { fillOpacity: -0.1 } ],
		[ { fillOpacity: 1.5 } ],
		[ { fillOpacity: '0.5' } ],
		[ { lineColor: 'red' } ],
		[ { lineColor: '#12345' } ],
		[ { lineColor: 'url(javascript:alert(1))' } ],
	] )( 'replaces %p by the default', ( style ) => {
		expect( looks( style ) ).toEqual( {
			lineColor: '',
			lineWidth: 3,
			fillOpacity: 0.25,
		} );
	} );
} );
