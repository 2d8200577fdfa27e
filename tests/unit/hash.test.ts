/**
 * The location fragment: what restores a view, what is dropped, and how two maps share it.
 */
import {
	formatView,
	parseView,
	readLocationHash,
	writeLocationHash,
} from '../../packages/map/src/hash';

describe( 'parseView', () => {
	it.each( [
		[
			'3/51.5/-0.12',
			{ zoom: 3, lat: 51.5, lng: -0.12, bearing: 0, pitch: 0 },
		],
		[
			'11.26/52.5/13.4/12.3/33',
			{ zoom: 11.26, lat: 52.5, lng: 13.4, bearing: 12.3, pitch: 33 },
		],
		[ '0/0/0', { zoom: 0, lat: 0, lng: 0, bearing: 0, pitch: 0 } ],
	] )( 'reads %s', ( value, view ) => {
		expect( parseView( value ) ).toEqual( view );
	} );

	it.each( [
		[ 'latitude 95 (mapbox-gl throws on it)', '3/95/10' ],
		[ 'longitude 181', '3/10/181' ],
		[ 'zoom 23', '23/0/0' ],
		[ 'negative zoom', '-1/0/0' ],
		[ 'Infinity', 'Infinity/0/0' ],
		[ 'exponent', '1e2/0/0' ],
		[ 'empty parts', '//' ],
		[ 'two parts', '3/10' ],
		[ 'six parts', '3/10/10/0/0/0' ],
		[ 'pitch 61', '3/10/10/0/61' ],
		[ 'bearing 200', '3/10/10/200' ],
		[ 'script', '3/10/<script>' ],
		[ 'hex', '0x3/10/10' ],
	] )( 'refuses %s', ( _name, value ) => {
		expect( parseView( value ) ).toBeNull();
	} );

	it( 'honours the block zoom limits', () => {
		expect( parseView( '3/0/0', { min: 5, max: 10 } ) ).toBeNull();
		expect( parseView( '7/0/0', { min: 5, max: 10 } ) ).not.toBeNull();
	} );
} );

describe( 'readLocationHash', () => {
	it( 'finds nothing in an empty fragment', () => {
		expect( readLocationHash( '', '' ) ).toEqual( { kind: 'none' } );
		expect( readLocationHash( '#', 'map-2' ) ).toEqual( { kind: 'none' } );
	} );

	it( 'reports an invalid fragment so it can be cleaned', () => {
		expect( readLocationHash( '#3/95/10', '' ) ).toEqual( {
			kind: 'invalid',
		} );
		expect( readLocationHash( '#map-2=3/95/10', 'map-2' ) ).toEqual( {
			kind: 'invalid',
		} );
	} );

	it( 'gives each map its own part', () => {
		const fragment = '#4/10/20&map-2=6/-33.9/151.2/0/30&utm=x';
		expect( readLocationHash( fragment, '' ) ).toMatchObject( {
			kind: 'valid',
			view: { zoom: 4, lat: 10, lng: 20 },
		} );
		expect( readLocationHash( fragment, 'map-2' ) ).toMatchObject( {
			kind: 'valid',
			view: { zoom: 6, lat: -33.9, lng: 151.2, pitch: 30 },
		} );
		expect( readLocationHash( fragment, 'map-3' ) ).toEqual( {
			kind: 'none',
		} );
	} );
} );

describe( 'writeLocationHash', () => {
	const view = { zoom: 5, lat: 48.8566, lng: 2.3522, bearing: 0, pitch: 0 };

	it( 'writes the spec format for the single map', () => {
		expect( writeLocationHash( '', '', view ) ).toBe( '#5/48.86/2.35' );
	} );

	it( 'adds bearing and pitch only when set', () => {
		expect( formatView( { ...view, bearing: 20 } ) ).toBe(
			'5/48.86/2.35/20'
		);
		expect( formatView( { ...view, pitch: 45 } ) ).toBe(
			'5/48.86/2.35/0/45'
		);
	} );

	it( 'keeps the other map and unrelated parts', () => {
		const fragment = '#4/10/20&utm=x';
		expect( writeLocationHash( fragment, 'map-2', view ) ).toBe(
			'#4/10/20&utm=x&map-2=5/48.86/2.35'
		);
		expect(
			writeLocationHash( '#4/10/20&map-2=5/48.857/2.352&utm=x', '', {
				...view,
				zoom: 2,
			} )
		).toBe( '#2/48.86/2.35&map-2=5/48.857/2.352&utm=x' );
	} );

	it( 'removes a bad part and nothing else', () => {
		expect( writeLocationHash( '#3/95/10&map-2=4/1/1', '', null ) ).toBe(
			'#map-2=4/1/1'
		);
	} );

	it( 'round-trips what it writes', () => {
		const written = writeLocationHash( '', 'map-2', {
			zoom: 12.5,
			lat: -33.8688,
			lng: 151.2093,
			bearing: -20,
			pitch: 40,
		} );
		expect( readLocationHash( written, 'map-2' ) ).toMatchObject( {
			kind: 'valid',
			view: { zoom: 12.5, bearing: -20, pitch: 40 },
		} );
	} );
} );
