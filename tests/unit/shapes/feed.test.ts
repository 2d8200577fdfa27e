/**
 * The shapes feed as the runtime reads it: routes and areas kept with their facts, anything
 * else left out, a body that is not a FeatureCollection refused (the map then says the shapes
 * could not be loaded).
 */
import feed from '../../fixtures/shapes-feed.json';
import {
	fetchShapes,
	parseShapes,
} from '../../../packages/map/src/shapes/feed';

describe( 'parseShapes', () => {
	it( 'keeps the routes and areas with their facts', () => {
		const shapes = parseShapes( feed );
		expect( shapes.map( ( shape ) => shape.id ) ).toEqual( [
			101, 102, 103,
		] );
		expect( shapes[ 0 ] ).toMatchObject( {
			title: 'Ridge trail',
			groups: [ 'trails' ],
			bbox: [ 7.0, 46.0, 7.08, 46.03 ],
			length: 12400,
			ascent: 650,
			descent: 600,
		} );
		expect( shapes[ 0 ]!.profile ).toHaveLength( 4 );
		// An area has no length; absent keys stay absent.
		expect( shapes[ 1 ] ).not.toHaveProperty( 'length' );
		expect( shapes[ 1 ] ).not.toHaveProperty( 'profile' );
	} );

	it( 'computes the bbox a feature lacks from its geometry', () => {
		expect( parseShapes( feed )[ 2 ]!.bbox ).toEqual( [
			7.3, 46.3, 7.33, 46.34,
		] );
	} );

	/** One route from (7, 46) to (8, 47) whose feed says `bbox`. */
	const routeWithBox = ( box: unknown ) =>
		parseShapes( {
			type: 'FeatureCollection',
			features: [
				{
					type: 'Feature',
					id: 7,
					geometry: {
						type: 'LineString',
						coordinates: [
							[ 7, 46 ],
							[ 8, 47 ],
						],
					},
					properties: { bbox: box },
				},
			],
		} )[ 0 ]!.bbox;

	it.each( [
		[ 'three numbers', [ 7, 46, 8 ] ],
		[ 'five numbers', [ 7, 46, 8, 47, 9 ] ],
		[ 'a number as text', [ 7, '46', 8, 47 ] ],
		[ 'an infinite edge (1e999 in the JSON)', [ 7, 46, Infinity, 47 ] ],
		[ 'south of its north', [ 7, 47, 8, 46 ] ],
		[ 'a latitude past the pole', [ 7, 46, 8, 91 ] ],
		[ 'a latitude past the south pole', [ 7, -91, 8, 47 ] ],
		[ 'a longitude past 180', [ 7, 46, 181, 47 ] ],
		[ 'a longitude past -180', [ -181, 46, 8, 47 ] ],
		[ 'an object', { west: 7, south: 46, east: 8, north: 47 } ],
	] )(
		'ignores a feed bbox of %s and fits the route’s own',
		( _name, box ) => {
			expect( routeWithBox( box ) ).toEqual( [ 7, 46, 8, 47 ] );
		}
	);

	it.each( [
		[ 'the feed’s, larger than the route', [ 6.5, 45.5, 8.5, 47.5 ] ],
		[ 'one across the antimeridian', [ 170, -10, -170, 10 ] ],
		[ 'the whole world', [ -180, -90, 180, 90 ] ],
		[ 'a point', [ 7, 46, 7, 46 ] ],
	] )( 'keeps a feed bbox: %s', ( _name, box ) => {
		expect( routeWithBox( box ) ).toEqual( box );
	} );

	it.each( [
		[ 'a point', { type: 'Point', coordinates: [ 7, 46 ] }, 5 ],
		[ 'no coordinates', { type: 'LineString' }, 5 ],
		[
			'a string position',
			{
				type: 'LineString',
				coordinates: [
					[ '7', 46 ],
					[ 7, 46 ],
				],
			},
			5,
		],
		[ 'a ring of numbers', { type: 'Polygon', coordinates: [ 7, 46 ] }, 5 ],
		[
			'a position of one number',
			{ type: 'LineString', coordinates: [ [ 7 ], [ 8, 47 ] ] },
			5,
		],
		[
			'an infinite position (1e999 in the JSON)',
			{
				type: 'LineString',
				coordinates: [
					[ 7, Infinity ],
					[ 8, 47 ],
				],
			},
			5,
		],
		[
			'a bad id',
			{
				type: 'LineString',
				coordinates: [
					[ 7, 46 ],
					[ 8, 47 ],
				],
			},
			-1,
		],
		[
			'an id as text',
			{
				type: 'LineString',
				coordinates: [
					[ 7, 46 ],
					[ 8, 47 ],
				],
			},
			'5',
		],
	] )( 'leaves out %s', ( _name, geometry, id ) => {
		expect(
			parseShapes( {
				type: 'FeatureCollection',
				features: [ { type: 'Feature', id, geometry, properties: {} } ],
			} )
		).toEqual( [] );
	} );

	it( 'drops facts that are not measures and a profile that is not pairs', () => {
		const [ shape ] = parseShapes( {
			type: 'FeatureCollection',
			features: [
				{
					type: 'Feature',
					id: 9,
					geometry: {
						type: 'LineString',
						coordinates: [
							[ 7, 46 ],
							[ 8, 47 ],
						],
					},
					properties: {
						title: 5,
						groups: [ 'a', 3 ],
						length_m: -1,
						ascent_m: 'high',
						profile: [ [ 0, 'x' ], 'y' ],
					},
				},
			],
		} );
		expect( shape ).toEqual( {
			id: 9,
			geometry: {
				type: 'LineString',
				coordinates: [
					[ 7, 46 ],
					[ 8, 47 ],
				],
			},
			title: '',
			groups: [ 'a' ],
			bbox: [ 7, 46, 8, 47 ],
		} );
	} );

	it.each( [ null, [], { type: 'Feature' }, { type: 'FeatureCollection' } ] )(
		'refuses %p',
		( body ) => {
			expect( () => parseShapes( body ) ).toThrow(
				'Not a FeatureCollection.'
			);
		}
	);

	it( 'reads groups that are not a list as none', () => {
		const [ shape ] = parseShapes( {
			type: 'FeatureCollection',
			features: [
				{
					type: 'Feature',
					id: 9,
					geometry: {
						type: 'LineString',
						coordinates: [
							[ 7, 46 ],
							[ 8, 47 ],
						],
					},
					properties: { groups: 'trails' },
				},
			],
		} );
		expect( shape!.groups ).toEqual( [] );
	} );
} );

describe( 'fetchShapes', () => {
	afterEach( () => {
		delete ( window as { fetch?: unknown } ).fetch;
	} );

	function serve( status: number, body: unknown ) {
		const fetch = jest.fn( async () => ( {
			ok: status >= 200 && status < 300,
			status,
			json: async () => body,
		} ) );
		Object.assign( window, { fetch } );
		return fetch;
	}

	it( 'asks as the markers feed is asked: the site’s cookies, JSON, with a deadline', async () => {
		const fetch = serve( 200, feed );
		await expect( fetchShapes( '/shapes?group=a' ) ).resolves.toHaveLength(
			3
		);
		expect( fetch ).toHaveBeenCalledWith( '/shapes?group=a', {
			credentials: 'same-origin',
			headers: { Accept: 'application/geo+json, application/json' },
			signal: expect.any( AbortSignal ),
		} );
	} );

	it( 'says what the feed answered when it refuses', async () => {
		serve( 503, {} );
		await expect( fetchShapes( '/shapes' ) ).rejects.toThrow(
			'The shapes feed answered 503.'
		);
	} );
} );
