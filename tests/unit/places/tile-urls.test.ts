/**
 * The addresses and tile arithmetic of a tiled map (places/tile-urls.ts), which the loader's
 * prefetch and the tiled client share: one filter is one URL (so a prefetched answer is found),
 * the server's cluster max zoom read from the template, the tiles of a view (none for a view that
 * is not one), and the first view's box from the centre, zoom and size.
 */
import {
	clusterMaxZoomOf,
	filterParams,
	tileUrl,
	tileZoom,
	tilesCovering,
	viewBounds,
	withQuery,
} from '../../../packages/map/src/places/tile-urls';

describe( 'withQuery', () => {
	it.each( [
		[ '/places', '/places?q=mill&page=2' ],
		[ '/places?v=1', '/places?v=1&q=mill&page=2' ],
		[ '/places#list', '/places?q=mill&page=2#list' ],
		[ '/places?v=1#list', '/places?v=1&q=mill&page=2#list' ],
		[ '/places#a#b', '/places?q=mill&page=2#a' ],
	] )( 'appends to %s: %s', ( url, expected ) => {
		expect(
			withQuery( url, [
				[ 'q', 'mill' ],
				[ 'hidden', '' ],
				[ 'page', '2' ],
			] )
		).toBe( expected );
	} );

	it( 'leaves the address as it is when every value is empty', () => {
		expect( withQuery( '/places#x', [ [ 'q', '' ] ] ) ).toBe( '/places#x' );
	} );

	it( 'encodes names and values', () => {
		expect( withQuery( '/p', [ [ 'a b', 'c&d=é' ] ] ) ).toBe(
			'/p?a%20b=c%26d%3D%C3%A9'
		);
	} );
} );

describe( 'withQuery and a fragment', () => {
	it( 'puts the query before the address’s fragment', () => {
		expect(
			withQuery( 'https://maps.test/p?a=1#map-2', [ [ 'q', 'x y' ] ] )
		).toBe( 'https://maps.test/p?a=1&q=x%20y#map-2' );
		expect( withQuery( 'https://maps.test/p#m', [ [ 'q', 'z' ] ] ) ).toBe(
			'https://maps.test/p?q=z#m'
		);
	} );
} );

describe( 'filterParams of a circle', () => {
	const near = { lng: 2.123456789, lat: -48.5, radius: 1234.6 };
	it( 'is near + near_radius on the tiles, near + radius on the places routes, in whole metres', () => {
		expect( filterParams( { search: '', hidden: [], near } ) ).toEqual( [
			[ 'hidden', '' ],
			[ 'q', '' ],
			[ 'near', '2.1234568,-48.5' ],
			[ 'near_radius', '1235' ],
		] );
		expect(
			filterParams( { search: '', hidden: [], near }, 'places' )
		).toEqual( [
			[ 'hidden', '' ],
			[ 'q', '' ],
			[ 'near', '2.1234568,-48.5' ],
			[ 'radius', '1235' ],
		] );
	} );
} );

describe( 'filterParams', () => {
	it( 'writes one filter one way: hidden groups once and sorted, the search trimmed', () => {
		expect(
			filterParams( { hidden: [ 'b', 'a', 'b' ], search: '  Mill  ' } )
		).toEqual( [
			[ 'hidden', 'a,b' ],
			[ 'q', 'Mill' ],
		] );
		expect( filterParams( null ) ).toEqual( [] );
		expect( filterParams( undefined ) ).toEqual( [] );
	} );

	it( 'cuts the search at 200 characters', () => {
		const [ , [ , q ] = [] ] = filterParams( {
			hidden: [],
			search: 'x'.repeat( 300 ),
		} );
		expect( q ).toHaveLength( 200 );
	} );
} );

describe( 'tileUrl', () => {
	it( 'fills every coordinate, percent-encoded in either case', () => {
		expect(
			tileUrl( '/t/%7bz%7d/%7Bx%7D/{y}.json?z={z}', [ 7, 65, 44 ] )
		).toBe( '/t/7/65/44.json?z=7' );
	} );

	it( 'appends the filter after the template’s own query', () => {
		expect(
			tileUrl( '/t/{z}/{x}/{y}?v=1', [ 1, 0, 1 ], {
				hidden: [],
				search: 'a',
			} )
		).toBe( '/t/1/0/1?v=1&q=a' );
	} );
} );

describe( 'clusterMaxZoomOf and tileZoom', () => {
	it.each( [
		[ '/t/{z}/{x}/{y}?maxzoom=9', 9 ],
		[ '/t/{z}/{x}/{y}?v=1&maxzoom=0&radius=80', 0 ],
		[ '/t/{z}/{x}/{y}?maxzoom=16#x', 16 ],
		// Out of range, not a number, not the whole value, or absent: the default.
		[ '/t/{z}/{x}/{y}?maxzoom=17', 16 ],
		[ '/t/{z}/{x}/{y}?maxzoom=9x', 16 ],
		[ '/t/{z}/{x}/{y}?maxzoom=', 16 ],
		[ '/t/{z}/{x}/{y}?notmaxzoom=9', 16 ],
		[ '/t/{z}/{x}/{y}', 16 ],
	] )( '%s clusters up to zoom %d', ( template, zoom ) => {
		expect( clusterMaxZoomOf( template ) ).toBe( zoom );
	} );

	it.each( [
		[ 3.9, 9, 3 ],
		[ -2, 9, 0 ],
		[ 9.5, 9, 9 ],
		// Past the cluster max zoom, the one level that holds every point; never past 17.
		[ 14, 9, 10 ],
		[ 20, 16, 17 ],
	] )(
		'a map at zoom %d (clusters to %d) asks tiles of zoom %d',
		( zoom, max, z ) => {
			expect( tileZoom( zoom, max ) ).toBe( z );
		}
	);
} );

describe( 'tilesCovering', () => {
	it( 'the whole world at zoom 0 is one tile', () => {
		expect( tilesCovering( [ -180, -85, 180, 85 ], 0 ) ).toEqual( [
			[ 0, 0, 0 ],
		] );
	} );

	it( 'a box of one point is the tile under it, not the world around it', () => {
		expect( tilesCovering( [ 1, 1, 1, 1 ], 3 ) ).toEqual( [ [ 3, 4, 3 ] ] );
	} );

	it( 'a box across the antimeridian at zoom 0 is its one tile, once', () => {
		expect( tilesCovering( [ 10, -1, 5, 1 ], 0 ) ).toEqual( [
			[ 0, 0, 0 ],
		] );
	} );

	it( 'reads a box whose south is north of its north the right way up', () => {
		expect( tilesCovering( [ 1, 2, 2, 1 ], 3 ) ).toEqual(
			tilesCovering( [ 1, 1, 2, 2 ], 3 )
		);
	} );

	it( 'a box past the poles and the antimeridian stays in the world', () => {
		expect( tilesCovering( [ 179, 89, 180, 90 ], 2 ) ).toEqual( [
			[ 2, 3, 0 ],
		] );
		expect( tilesCovering( [ -180, -90, -179, -89 ], 2 ) ).toEqual( [
			[ 2, 0, 3 ],
		] );
	} );

	it.each( [
		[ 'an infinite edge', [ 1, 1, Infinity, 2 ] ],
		[ 'no number', [ 1, NaN, 2, 2 ] ],
	] )( 'covers nothing for a box with %s', ( _name, bbox ) => {
		expect(
			tilesCovering( bbox as [ number, number, number, number ], 3 )
		).toEqual( [] );
	} );
} );

describe( 'viewBounds', () => {
	it( 'grows the view by its size on each side', () => {
		const plain = viewBounds( { lng: 10, lat: 0 }, 4, 512, 256 );
		const padded = viewBounds( { lng: 10, lat: 0 }, 4, 512, 256, 0.5 );
		const width = plain[ 2 ] - plain[ 0 ];
		expect( width ).toBeCloseTo( 22.5 );
		expect( padded[ 0 ] ).toBeCloseTo( plain[ 0 ] - width / 2 );
		expect( padded[ 2 ] ).toBeCloseTo( plain[ 2 ] + width / 2 );
		const height = plain[ 3 ] - plain[ 1 ];
		expect( padded[ 1 ] ).toBeCloseTo( plain[ 1 ] - height / 2 );
		expect( padded[ 3 ] ).toBeCloseTo( plain[ 3 ] + height / 2 );
	} );

	it( 'a view wider than the world is the whole world, its height clamped at the poles', () => {
		expect( viewBounds( { lng: 30, lat: 0 }, 0, 2000, 4000, 0.5 ) ).toEqual(
			[ -180, -90, 180, 90 ]
		);
	} );

	it( 'a view across the antimeridian has its west east of its east', () => {
		const [ west, , east ] = viewBounds(
			{ lng: 179, lat: 0 },
			4,
			512,
			512
		);
		expect( west ).toBeCloseTo( 167.75 );
		expect( east ).toBeCloseTo( -169.75 );
	} );

	it( 'a view whose east edge is the antimeridian ends at 180, not -180', () => {
		const [ west, , east ] = viewBounds( { lng: 90, lat: 0 }, 1, 512, 512 );
		expect( west ).toBeCloseTo( 0 );
		expect( east ).toBe( 180 );
	} );
} );
