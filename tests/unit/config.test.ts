/**
 * Attribute/config parsing: what the runtime accepts, and what it replaces with the block defaults.
 */
import metadata from '../../src/blocks/map/block.json';
import { isValidStyleUrl, parseMapConfig } from '../../packages/map/src/config';
import { MapError } from '../../packages/map/src/errors';

const defaults = metadata.attributes;

describe( 'parseMapConfig', () => {
	it( 'gives the block.json defaults for an empty input', () => {
		const config = parseMapConfig( {} );
		expect( config.center ).toEqual( defaults.center.default );
		expect( config.zoom ).toBe( defaults.zoom.default );
		expect( config.style ).toBe( defaults.mapStyle.default );
		expect( config.controls ).toEqual( defaults.controls.default );
		expect( config.cluster ).toEqual( defaults.cluster.default );
		expect( config.minZoom ).toBe( 0 );
		expect( config.maxZoom ).toBe( 22 );
	} );

	it( 'keeps valid values', () => {
		const config = parseMapConfig( {
			accessToken: ' pk.abc.def ',
			style: 'mapbox://styles/mapbox/outdoors-v12',
			center: { lng: -3.19, lat: 55.95 },
			zoom: 11,
			bearing: -45,
			pitch: 60,
			minZoom: 3,
			maxZoom: 16,
			language: 'de',
			controls: { scale: true, zoom: false },
			cluster: { enabled: false, radius: 40 },
			hash: true,
			cooperativeGestures: false,
		} );
		expect( config ).toMatchObject( {
			accessToken: 'pk.abc.def',
			style: 'mapbox://styles/mapbox/outdoors-v12',
			center: { lng: -3.19, lat: 55.95 },
			zoom: 11,
			bearing: -45,
			pitch: 60,
			minZoom: 3,
			maxZoom: 16,
			language: 'de',
			controls: {
				zoom: false,
				compass: true,
				scale: true,
				fullscreen: true,
				geolocate: false,
			},
			cluster: { enabled: false, radius: 40 },
			hash: true,
			cooperativeGestures: false,
		} );
	} );

	it.each( [
		[
			'latitude above the Mercator limit',
			{ center: { lng: 0, lat: 86 } },
		],
		[ 'longitude out of range', { center: { lng: 181, lat: 20 } } ],
		[ 'NaN zoom', { zoom: Number.NaN } ],
		[ 'Infinity pitch', { pitch: Infinity } ],
		[ 'pitch above 60', { pitch: 61 } ],
		[ 'bearing below -180', { bearing: -181 } ],
		[ 'zoom as a string', { zoom: '5' } ],
		[ 'javascript: style URL', { style: 'javascript:alert(1)' } ],
		[ 'http style URL', { style: 'http://example.com/style.json' } ],
		[ 'malformed mapbox style', { style: 'mapbox://styles/mapbox' } ],
		[ 'language with markup', { language: '<b>de</b>' } ],
		[
			'cluster radius of 5000',
			{ cluster: { enabled: true, radius: 5000 } },
		],
		[ 'controls as a string', { controls: 'all' } ],
	] )( 'replaces %s with the default', ( _name, input ) => {
		const config = parseMapConfig( input );
		const clean = parseMapConfig( {} );
		expect( config ).toEqual( clean );
	} );

	it( 'keeps the zoom inside the zoom limits', () => {
		expect( parseMapConfig( { zoom: 2, minZoom: 5 } ).zoom ).toBe( 5 );
		expect( parseMapConfig( { zoom: 20, maxZoom: 12 } ).zoom ).toBe( 12 );
	} );

	it( 'refuses a minimum zoom above the maximum with the zoom-range error', () => {
		expect( () => parseMapConfig( { minZoom: 10, maxZoom: 4 } ) ).toThrow(
			MapError
		);
		let caught: unknown = null;
		try {
			parseMapConfig( { minZoom: 10, maxZoom: 4 } );
		} catch ( error ) {
			caught = error;
		}
		expect( caught ).toMatchObject( { code: 'zoom-range' } );
		expect( ( caught as MapError ).message ).toMatch( /minimum zoom/ );
	} );

	it.each( [ null, undefined, 42, 'string', [] ] )(
		'treats %p as an empty configuration',
		( input ) => {
			expect( parseMapConfig( input ) ).toEqual( parseMapConfig( {} ) );
		}
	);
} );

describe( 'isValidStyleUrl', () => {
	it.each( [
		[ 'mapbox://styles/mapbox/standard', true ],
		[ 'mapbox://styles/my-team/cl0abc123', true ],
		[ 'https://tiles.example.com/style.json', true ],
		[ 'http://tiles.example.com/style.json', false ],
		[ 'mapbox://styles/../../x', false ],
		[ '', false ],
		[ 'data:application/json,{}', false ],
	] )( '%s → %p', ( url, valid ) => {
		expect( isValidStyleUrl( url ) ).toBe( valid );
	} );
} );
