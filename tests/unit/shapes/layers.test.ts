/**
 * Routes and areas on the map (shapes/layers.ts), against a stand-in map that records what is
 * drawn and answers "what is under the pointer" as the test says: the shapes go beneath the
 * points, filters show only the shapes the places filter keeps, a click on a route (or a few
 * pixels beside a thin one) or inside an area opens its popup unless a point is on top, the
 * pointer over a shape highlights it, and removing the shapes leaves nothing behind.
 */
import type { Map as MapboxMap } from 'mapbox-gl';

import feed from '../../fixtures/shapes-feed.json';
import { parseShapes } from '../../../packages/map/src/shapes/feed';
import {
	addShapesLayers,
	pointsLayerBelow,
	shapesCollection,
} from '../../../packages/map/src/shapes/layers';
import { StandInMap, type Query } from './stand-in-map';

const SHAPES = parseShapes( feed );
const IS_AREA = [ '==', [ 'get', 'kind' ], 'area' ];
const POINT_LAYERS = [
	'cairn-clusters',
	'cairn-points',
	'cairn-point-icons',
	'cairn-cluster-count',
];

function draw( styleLayers = POINT_LAYERS ) {
	const map = new StandInMap( [ 'background', ...styleLayers ] );
	const onClick = jest.fn();
	const layers = addShapesLayers( map as unknown as MapboxMap, SHAPES, {
		groupStyles: [],
		defaultColor: '#3858e9',
		onClick,
	} );
	return { map, layers, onClick };
}

/** Under the pointer: the route (by the line layer's box query), the area, or a point. */
function under( what: {
	line?: number;
	area?: number;
	point?: boolean;
} ): Query {
	return ( where, layers ) => {
		if ( layers.some( ( id ) => POINT_LAYERS.includes( id ) ) ) {
			return what.point ? [ { id: 5 } ] : [];
		}
		if ( Array.isArray( where ) ) {
			return what.line !== undefined &&
				layers.length === 1 &&
				layers[ 0 ] === 'cairn-shapes-line'
				? [ { id: what.line } ]
				: [];
		}
		return what.area !== undefined ? [ { id: what.area } ] : [];
	};
}

describe( 'the shapes’ source', () => {
	it( 'holds each shape with its first group and whether it is a line or an area', () => {
		const collection = shapesCollection( SHAPES );
		expect(
			collection.features.map( ( { id, properties } ) => ( {
				id,
				...properties,
			} ) )
		).toEqual( [
			{ id: 101, title: 'Ridge trail', group: 'trails', kind: 'line' },
			{ id: 102, title: 'Quiet zone', group: 'zones', kind: 'area' },
			{ id: 103, title: 'Old road', group: '', kind: 'line' },
		] );
		expect( collection.features[ 1 ]!.geometry ).toBe(
			SHAPES[ 1 ]!.geometry
		);
	} );

	it( 'calls a MultiPolygon an area', () => {
		const [ shape ] = parseShapes( {
			type: 'FeatureCollection',
			features: [
				{
					type: 'Feature',
					id: 8,
					geometry: {
						type: 'MultiPolygon',
						coordinates: [
							[
								[
									[ 0, 0 ],
									[ 1, 0 ],
									[ 1, 1 ],
									[ 0, 0 ],
								],
							],
						],
					},
					properties: { groups: [ 'b', 'a' ] },
				},
			],
		} );
		expect(
			shapesCollection( [ shape! ] ).features[ 0 ]!.properties
		).toEqual( { title: '', group: 'b', kind: 'area' } );
	} );
} );

describe( 'addShapesLayers', () => {
	it( 'draws areas, a halo and the lines, in that order, beneath the lowest point layer', () => {
		const { map } = draw( [ 'cairn-points', 'cairn-clusters' ] );
		expect( map.sources ).toHaveProperty( 'cairn-shapes' );
		expect(
			map.layers.map( ( { id, before } ) => [ id, before ] )
		).toEqual( [
			[ 'cairn-shapes-fill', 'cairn-points' ],
			[ 'cairn-shapes-halo', 'cairn-points' ],
			[ 'cairn-shapes-line', 'cairn-points' ],
		] );
		const [ fill, halo, line ] = map.layers.map( ( { spec } ) => spec );
		expect( fill ).toMatchObject( {
			type: 'fill',
			source: 'cairn-shapes',
			filter: IS_AREA,
		} );
		expect( halo ).toMatchObject( {
			type: 'line',
			source: 'cairn-shapes',
			layout: { 'line-join': 'round', 'line-cap': 'round' },
		} );
		// The halo shows only under a highlighted shape.
		expect(
			( halo!.paint as Record< string, unknown > )[ 'line-opacity' ]
		).toEqual( [ 'case', expect.anything(), 0.55, 0 ] );
		expect( line ).toMatchObject( {
			type: 'line',
			source: 'cairn-shapes',
			layout: { 'line-join': 'round', 'line-cap': 'round' },
			paint: { 'line-color': '#3858e9' },
		} );
		expect( line ).not.toHaveProperty( 'filter' );
	} );

	it( 'draws on top when the points are not on the map yet', () => {
		const map = new StandInMap( [ 'background', 'water' ] );
		expect(
			pointsLayerBelow( map as unknown as MapboxMap )
		).toBeUndefined();
		const { map: drawn } = draw( [] );
		expect( drawn.layers.map( ( { before } ) => before ) ).toEqual( [
			undefined,
			undefined,
			undefined,
		] );
	} );

	it( 'shows only the shapes asked for, areas still filled only as areas', () => {
		const { map, layers } = draw();
		layers.show( [ 101, 103 ] );
		const visible = [ 'in', [ 'id' ], [ 'literal', [ 101, 103 ] ] ];
		expect( map.filters ).toEqual( {
			'cairn-shapes-fill': [ 'all', IS_AREA, visible ],
			'cairn-shapes-halo': visible,
			'cairn-shapes-line': visible,
		} );
		layers.show( null );
		expect( map.filters ).toEqual( {
			'cairn-shapes-fill': IS_AREA,
			'cairn-shapes-halo': null,
			'cairn-shapes-line': null,
		} );
	} );

	it( 'highlights one shape at a time for the keyboard', () => {
		const { map, layers } = draw();
		layers.focus( 101 );
		expect( map.featureState ).toEqual( {
			'cairn-shapes/101': { focus: true },
		} );
		layers.focus( 102 );
		expect( map.featureState ).toEqual( {
			'cairn-shapes/101': { focus: false },
			'cairn-shapes/102': { focus: true },
		} );
		layers.focus( null );
		expect( map.featureState[ 'cairn-shapes/102' ] ).toEqual( {
			focus: false,
		} );
		// Nothing was highlighted: nothing to switch off.
		const before = { ...map.featureState };
		layers.focus( null );
		expect( map.featureState ).toEqual( before );
	} );
} );

describe( 'the pointer on the shapes', () => {
	it( 'a click a few pixels beside a thin route opens the route’s popup', () => {
		const { map, onClick } = draw();
		map.answer = under( { line: 101 } );
		map.fire( 'click', { x: 100, y: 50 } );
		expect( onClick ).toHaveBeenCalledWith( 101, {
			lng: 7.01,
			lat: 46.01,
		} );
		expect( map.queries ).toContainEqual( {
			where: [
				[ 96, 46 ],
				[ 104, 54 ],
			],
			layers: [ 'cairn-shapes-line' ],
		} );
	} );

	it( 'a click inside an area opens the area’s popup', () => {
		const { map, onClick } = draw();
		map.answer = under( { area: 102 } );
		map.fire( 'click', { x: 100, y: 50 } );
		expect( onClick ).toHaveBeenCalledWith( 102, expect.anything() );
		expect( map.queries ).toContainEqual( {
			where: { x: 100, y: 50 },
			layers: [ 'cairn-shapes-fill', 'cairn-shapes-line' ],
		} );
	} );

	it( 'a route beside the pointer wins over the area under it', () => {
		const { map, onClick } = draw();
		map.answer = under( { line: 101, area: 102 } );
		map.fire( 'click' );
		expect( onClick ).toHaveBeenCalledTimes( 1 );
		expect( onClick ).toHaveBeenCalledWith( 101, expect.anything() );
	} );

	it.each( [
		[ 'a point is drawn on top', { line: 101, area: 102, point: true } ],
		[ 'nothing is there', {} ],
	] )( 'a click opens nothing when %s', ( _name, what ) => {
		const { map, onClick } = draw();
		map.answer = under( what );
		map.fire( 'click' );
		expect( onClick ).not.toHaveBeenCalled();
	} );

	it( 'a feature without a numeric id is no shape', () => {
		const { map, onClick } = draw();
		map.answer = ( where, layers ) =>
			layers.includes( 'cairn-clusters' ) ? [] : [ { id: '101' } ];
		map.fire( 'click' );
		expect( onClick ).not.toHaveBeenCalled();
	} );

	it( 'asks no point layer that is not on the map, and no shape layer once they are gone', () => {
		const { map, layers, onClick } = draw( [ 'cairn-points' ] );
		map.answer = under( { area: 102 } );
		map.fire( 'click' );
		expect( map.queries[ 0 ]!.layers ).toEqual( [ 'cairn-points' ] );
		expect( onClick ).toHaveBeenCalledTimes( 1 );
		// The shape layers removed by someone else: a click finds no shape.
		map.layers = [];
		map.fire( 'click' );
		expect( onClick ).toHaveBeenCalledTimes( 1 );
		layers.remove();
	} );

	it( 'the pointer over a shape highlights it and shows a hand; leaving it undoes both', () => {
		const { map } = draw();
		map.answer = under( { line: 101 } );
		map.fire( 'mousemove' );
		expect( map.featureState ).toEqual( {
			'cairn-shapes/101': { hover: true },
		} );
		expect( map.canvas.style.cursor ).toBe( 'pointer' );
		// Still over it: nothing changes.
		map.featureState = {};
		map.fire( 'mousemove' );
		expect( map.featureState ).toEqual( {} );
		map.answer = under( { area: 102 } );
		map.fire( 'mousemove' );
		expect( map.featureState ).toEqual( {
			'cairn-shapes/101': { hover: false },
			'cairn-shapes/102': { hover: true },
		} );
		map.fire( 'mouseout' );
		expect( map.featureState[ 'cairn-shapes/102' ] ).toEqual( {
			hover: false,
		} );
		expect( map.canvas.style.cursor ).toBe( '' );
	} );

	it( 'moving from a shape onto a point leaves the points’ own pointer', () => {
		const { map } = draw();
		map.answer = under( { line: 101 } );
		map.fire( 'mousemove' );
		map.answer = under( { line: 101, point: true } );
		map.fire( 'mousemove' );
		expect( map.featureState[ 'cairn-shapes/101' ] ).toEqual( {
			hover: false,
		} );
		expect( map.canvas.style.cursor ).toBe( 'pointer' );
		// Onto the bare map: the hand goes.
		map.answer = under( { line: 101 } );
		map.fire( 'mousemove' );
		map.answer = under( {} );
		map.fire( 'mousemove' );
		expect( map.canvas.style.cursor ).toBe( '' );
	} );

	it( 'removing the shapes removes their layers and source and stops listening', () => {
		const { map, layers, onClick } = draw();
		layers.remove();
		expect( map.layers ).toEqual( [] );
		expect( map.sources ).not.toHaveProperty( 'cairn-shapes' );
		expect( map.handlers ).toEqual( {
			click: [],
			mousemove: [],
			mouseout: [],
		} );
		map.answer = under( { line: 101 } );
		map.fire( 'click' );
		expect( onClick ).not.toHaveBeenCalled();
		// Twice, or after the style dropped them: no error.
		expect( () => layers.remove() ).not.toThrow();
	} );
} );
