/**
 * The shapes feed as the runtime reads it: routes and areas kept with their facts, anything
 * else left out, a body that is not a FeatureCollection refused (the map then says the shapes
 * could not be loaded).
 */
import feed from '../../fixtures/shapes-feed.json';
import { parseShapes } from '../../../packages/map/src/shapes/feed';

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
			expect( () => parseShapes( body ) ).toThrow();
		}
	);
} );
