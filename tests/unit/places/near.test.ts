/**
 * "Near a place": the engine's circle filter against a direct distance, and the search in the
 * page's address.
 */
import {
	PlacesEngine,
	distance,
} from '../../../packages/map/src/places/engine';
import {
	geocodeText,
	nearFromAddress,
	nearParam,
	radiusChoices,
} from '../../../packages/map/src/places/near';
import { visitorGeocoder } from '../../../packages/map/src/config';

const CENTRE = { lng: -3.1875, lat: 55.95 };

/** 200 places spread 0–150 km around Edinburgh, a fixed pseudo-random spread. */
function scattered() {
	let seed = 34;
	const random = () => {
		seed = ( seed * 16807 ) % 2147483647;
		return seed / 2147483647;
	};
	return Array.from( { length: 200 }, ( _, index ) => ( {
		type: 'Feature',
		id: index + 1,
		geometry: {
			type: 'Point',
			coordinates: [
				CENTRE.lng + ( random() - 0.5 ) * 4,
				CENTRE.lat + ( random() - 0.5 ) * 2,
			],
		},
		properties: { title: `Place ${ index + 1 }`, groups: [] },
	} ) );
}

describe( 'places engine: near a place', () => {
	it( 'keeps exactly the places within the radius, lists them nearest first, and counts and bounds them', () => {
		const features = scattered();
		const engine = new PlacesEngine( {
			clusterEnabled: true,
			clusterRadius: 80,
			clusterMaxZoom: 16,
			groups: [],
		} );
		engine.load( { type: 'FeatureCollection', features } );
		const within = features
			.map( ( feature ) => ( {
				id: feature.id,
				metres: distance( CENTRE, {
					lng: feature.geometry.coordinates[ 0 ]!,
					lat: feature.geometry.coordinates[ 1 ]!,
				} ),
			} ) )
			.filter( ( place ) => place.metres <= 25_000 )
			.sort( ( a, b ) => a.metres - b.metres );
		expect( within.length ).toBeGreaterThan( 3 );
		expect( within.length ).toBeLessThan( 100 );
		const result = engine.setFilter( {
			search: '',
			hidden: [],
			near: { ...CENTRE, radius: 25_000 },
		} );
		expect( result.count ).toBe( within.length );
		const list = engine.list( {
			bbox: null,
			page: 0,
			pageSize: 50,
			origin: CENTRE,
		} );
		expect( list.items.map( ( item ) => item.id ) ).toEqual(
			within.map( ( place ) => place.id )
		);
		// The map draws only them: the clusters of zoom 0 count as many.
		const drawn = engine.mapFeatures( [ -180, -85, 180, 85 ], 0 );
		const counted = drawn.reduce(
			( sum, feature ) =>
				sum +
				( 'point_count' in feature.properties
					? feature.properties.point_count
					: 1 ),
			0
		);
		expect( counted ).toBe( within.length );
		// Without the circle, every place again.
		expect( engine.setFilter( { search: '', hidden: [] } ).count ).toBe(
			200
		);
	} );
} );

describe( 'the search in the address', () => {
	it( 'reads what it wrote', () => {
		const near = {
			lng: -3.1875,
			lat: 55.95,
			radius: 25_000,
			text: 'Edinburgh',
		};
		const href = `https://example.test/map/?cairn-near=${ encodeURIComponent(
			nearParam( near )
		) }&cairn-radius=25`;
		expect( nearFromAddress( href ) ).toEqual( near );
	} );

	it.each( [
		[ '?cairn-near=200,10|x&cairn-radius=5' ],
		[ '?cairn-near=abc' ],
		[ '?cairn-near=1,2,3|x' ],
		[ '?cairn-near=1e3,2|x' ],
		[ '?other=1' ],
	] )( 'ignores %s', ( query ) => {
		expect(
			nearFromAddress( `https://example.test/${ query }` )
		).toBeNull();
	} );

	it( 'takes a radius out of range as any distance', () => {
		expect(
			nearFromAddress(
				'https://example.test/?cairn-near=1,2|x&cairn-radius=9000'
			)
		).toEqual( { lng: 1, lat: 2, radius: 0, text: 'x' } );
	} );

	it( 'offers 1 to 100 km or miles', () => {
		expect( radiusChoices( 'metric' ) ).toEqual( [
			1000, 5000, 10000, 25000, 50000, 100000,
		] );
		expect( radiusChoices( 'imperial' )[ 3 ] ).toBe( 40234 );
	} );
} );

describe( 'how a typed address is looked up (config)', () => {
	it( 'asks the site only with an http(s) route, Mapbox only with a public token', () => {
		expect(
			visitorGeocoder( {
				geocoder: 'site',
				geocodeUrl:
					'https://example.test/wp-json/cairn/v1/geocode/visitor',
			} )
		).toEqual( {
			geocoder: 'site',
			geocodeUrl: 'https://example.test/wp-json/cairn/v1/geocode/visitor',
		} );
		expect(
			visitorGeocoder( {
				geocoder: 'site',
				geocodeUrl: 'javascript:alert(1)',
			} )
		).toEqual( { geocoder: 'none', geocodeUrl: '' } );
		expect(
			visitorGeocoder( { geocoder: 'mapbox', accessToken: 'pk.abc' } )
		).toEqual( { geocoder: 'mapbox', geocodeUrl: '' } );
		expect(
			visitorGeocoder( { geocoder: 'mapbox', accessToken: 'sk.secret' } )
		).toEqual( { geocoder: 'none', geocodeUrl: '' } );
		expect( visitorGeocoder( {} ) ).toEqual( {
			geocoder: 'none',
			geocodeUrl: '',
		} );
	} );
} );

describe( 'a typed address through Mapbox, from the browser', () => {
	const MAPBOX = {
		geocoder: 'mapbox' as const,
		geocodeUrl: '',
		accessToken: 'pk.public-token',
	};
	let asked: Array< { url: URL; init?: RequestInit } > = [];
	/** What the stand-in for Mapbox answers next: a status and a JSON body. */
	let answer: () => { status: number; body: unknown };
	const realFetch = window.fetch;

	beforeEach( () => {
		asked = [];
		answer = () => ( {
			status: 200,
			body: {
				type: 'FeatureCollection',
				features: [
					{
						type: 'Feature',
						geometry: {
							type: 'Point',
							coordinates: [ -3.19, 55.95 ],
						},
						properties: { name: 'Edinburgh' },
					},
					{
						type: 'Feature',
						geometry: {
							type: 'Point',
							coordinates: [ -81.1, 32.1 ],
						},
						properties: { name: 'Edinburgh, Georgia' },
					},
				],
			},
		} );
		window.fetch = jest.fn( async ( input: string, init?: RequestInit ) => {
			asked.push( { url: new URL( String( input ) ), init } );
			const { status, body } = answer();
			return {
				ok: status >= 200 && status < 300,
				status,
				json: async () => body,
			};
		} ) as unknown as typeof window.fetch;
	} );

	afterEach( () => {
		window.fetch = realFetch;
	} );

	it( 'asks forward geocoding once with the public token, for temporary results, and takes the first place', async () => {
		await expect(
			geocodeText( MAPBOX, 'Edinburgh & Leith' )
		).resolves.toEqual( {
			lng: -3.19,
			lat: 55.95,
		} );
		expect( asked ).toHaveLength( 1 );
		const { url, init } = asked[ 0 ]!;
		expect( url.origin + url.pathname ).toBe(
			'https://api.mapbox.com/search/geocode/v6/forward'
		);
		expect( Object.fromEntries( url.searchParams ) ).toEqual( {
			q: 'Edinburgh & Leith',
			limit: '1',
			access_token: 'pk.public-token',
		} );
		// No `permanent=true`: results that may be shown, never stored. No cookies go to Mapbox.
		expect( url.searchParams.has( 'permanent' ) ).toBe( false );
		expect( init?.credentials ).not.toBe( 'include' );
	} );

	it( 'finds nothing when Mapbox has no place, or answers with no usable point', async () => {
		answer = () => ( { status: 200, body: { features: [] } } );
		await expect(
			geocodeText( MAPBOX, 'Nowhere at all' )
		).resolves.toBeNull();
		answer = () => ( {
			status: 200,
			body: { features: [ { geometry: { coordinates: [ 'x', 55 ] } } ] },
		} );
		await expect( geocodeText( MAPBOX, 'Odd answer' ) ).resolves.toBeNull();
	} );

	it( 'fails when Mapbox refuses (a bad token, its rate limit), so the panel can say so', async () => {
		answer = () => ( { status: 401, body: { message: 'Not Authorized' } } );
		await expect( geocodeText( MAPBOX, 'Edinburgh' ) ).rejects.toThrow(
			'401'
		);
		answer = () => ( { status: 429, body: {} } );
		await expect( geocodeText( MAPBOX, 'Edinburgh' ) ).rejects.toThrow(
			'429'
		);
	} );

	it( 'asks nothing without a token, for one letter, or when the map has no geocoder', async () => {
		await expect(
			geocodeText( { ...MAPBOX, accessToken: '' }, 'Edinburgh' )
		).resolves.toBeNull();
		await expect( geocodeText( MAPBOX, 'E' ) ).resolves.toBeNull();
		await expect(
			geocodeText( { ...MAPBOX, geocoder: 'none' }, 'Edinburgh' )
		).resolves.toBeNull();
		expect( asked ).toEqual( [] );
	} );
} );
