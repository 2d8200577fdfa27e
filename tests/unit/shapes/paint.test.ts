/**
 * The shapes' paint from the group looks, evaluated by mapbox-gl's own style specification (the
 * expression engine the map runs): each shape takes its first group's line colour (else the
 * group's colour, else the default), line width and fill opacity; a highlighted shape stands
 * out. The layers as a whole pass mapbox-gl's style validation.
 */
import {
	expression,
	latest,
	validate,
} from 'mapbox-gl/dist/style-spec/index.cjs';

import { groupStyles } from '../../../packages/map/src/group-styles';
import {
	fillOpacity,
	haloWidth,
	lineColor,
	lineWidth,
} from '../../../packages/map/src/shapes/paint';

const STYLES = groupStyles( [
	// Its own line colour, width and fill.
	{
		slug: 'trails',
		color: '#00aa00',
		lineColor: '#123456',
		lineWidth: 6,
		fillOpacity: 0.5,
	},
	// No line colour: the group's colour; the defaults for the rest.
	{ slug: 'zones', color: '#aa0000' },
	// No colour at all: the default.
	{ slug: 'plain' },
] );
const DEFAULT = '#d1495b';

type PaintSpec = ( typeof latest )[ 'paint_line' ][ 'line-color' ];

/**
 * The value mapbox-gl computes for a shape of this group.
 * @param value The paint value (an expression or a constant).
 * @param spec  The property's specification.
 * @param group The shape's first group.
 * @param state Its feature-state.
 */
function evaluate(
	value: unknown,
	spec: PaintSpec,
	group: string,
	state: Record< string, unknown > = {}
): unknown {
	const compiled = expression.createPropertyExpression( value, spec );
	if ( compiled.result !== 'success' ) {
		throw new Error( JSON.stringify( compiled.value ) );
	}
	return compiled.value.evaluate(
		{ zoom: 10 },
		{ type: 2, properties: { group } },
		state
	);
}

const hex = ( color: unknown ) => {
	const { r, g, b } = color as { r: number; g: number; b: number };
	return (
		'#' +
		[ r, g, b ]
			.map( ( c ) =>
				Math.round( c * 255 )
					.toString( 16 )
					.padStart( 2, '0' )
			)
			.join( '' )
	);
};

describe( 'shape paint by group', () => {
	const color = lineColor( STYLES, DEFAULT );
	const spec = latest.paint_line;

	it.each( [
		[ 'trails', '#123456' ],
		[ 'zones', '#aa0000' ],
		[ 'plain', DEFAULT ],
		[ '', DEFAULT ],
		[ 'unknown', DEFAULT ],
	] )( 'a shape of %p is drawn in %s', ( group, expected ) => {
		expect( hex( evaluate( color, spec[ 'line-color' ], group ) ) ).toBe(
			expected
		);
	} );

	it( 'takes the group line width, else 3 px', () => {
		const width = lineWidth( STYLES );
		expect( evaluate( width, spec[ 'line-width' ], 'trails' ) ).toBe( 6 );
		expect( evaluate( width, spec[ 'line-width' ], 'zones' ) ).toBe( 3 );
		expect(
			evaluate( haloWidth( STYLES ), spec[ 'line-width' ], 'trails' )
		).toBe( 12 );
	} );

	it( 'fills areas with the group opacity, more when highlighted', () => {
		const opacity = fillOpacity( STYLES );
		const fill = latest.paint_fill[ 'fill-opacity' ];
		expect( evaluate( opacity, fill, 'trails' ) ).toBe( 0.5 );
		expect( evaluate( opacity, fill, 'zones' ) ).toBe( 0.25 );
		expect(
			evaluate( opacity, fill, 'zones', { hover: true } )
		).toBeCloseTo( 0.45 );
		expect(
			evaluate( opacity, fill, 'trails', { focus: true } )
		).toBeCloseTo( 0.7 );
	} );

	it( 'is a constant when no group has looks of its own', () => {
		expect( lineColor( [], DEFAULT ) ).toBe( DEFAULT );
		expect( lineWidth( groupStyles( [ { slug: 'a' } ] ) ) ).toBe( 3 );
	} );

	it( 'makes layers mapbox-gl accepts', () => {
		const errors = validate( {
			version: 8,
			sources: {
				s: {
					type: 'geojson',
					data: { type: 'FeatureCollection', features: [] },
				},
			},
			layers: [
				{
					id: 'fill',
					type: 'fill',
					source: 's',
					filter: [
						'all',
						[ '==', [ 'get', 'kind' ], 'area' ],
						[ 'in', [ 'id' ], [ 'literal', [ 1, 2 ] ] ],
					],
					paint: {
						'fill-color': color,
						'fill-opacity': fillOpacity( STYLES ),
					},
				},
				{
					id: 'line',
					type: 'line',
					source: 's',
					paint: {
						'line-color': color,
						'line-width': lineWidth( STYLES ),
					},
				},
				{
					id: 'halo',
					type: 'line',
					source: 's',
					paint: { 'line-width': haloWidth( STYLES ) },
				},
			],
		} );
		expect( errors ).toEqual( [] );
	} );
} );
