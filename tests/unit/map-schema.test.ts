/**
 * The map's attribute schema (packages/map/src/map-schema.json): block.json agrees with it, its
 * limits references resolve, and its interpreter keeps the rules the server keeps.
 */
import metadata from '../../src/blocks/map/block.json';
import limits from '../../packages/map/src/limits.json';
import schema from '../../packages/map/src/map-schema.json';
import {
	parseContentSelection,
	parseMarkerSelection,
} from '../../packages/map/src/config';
import { isValid, sanitize } from '../../packages/map/src/map-schema';
import type { Schema } from '../../packages/map/src/map-schema';

const { $comment: comment, ...attributes } = schema;
const rules: Record< string, Schema > = attributes;

describe( 'map-schema.json', () => {
	it( 'says what it is', () => {
		expect( comment ).toContain( 'block.json' );
	} );

	it( 'has a rule for every block.json attribute, and no other', () => {
		expect( Object.keys( rules ).sort() ).toEqual(
			Object.keys( metadata.attributes ).sort()
		);
	} );

	it.each( Object.entries( metadata.attributes ) )(
		'%s: block.json has the schema’s type and default',
		( name, attribute ) => {
			expect( attribute.type ).toBe( rules[ name ]?.type );
			expect( attribute.default ).toEqual( rules[ name ]?.default );
		}
	);

	/** Every `"$a.b"` value of the schema, with the keyword it is the value of. */
	function references(
		value: unknown,
		keyword = ''
	): Array< [ string, string ] > {
		if ( typeof value === 'string' && value.startsWith( '$' ) ) {
			return [ [ keyword, value ] ];
		}
		return typeof value === 'object' && value !== null
			? Object.entries( value ).flatMap( ( [ key, part ] ) =>
					references( part, key )
				)
			: [];
	}

	it.each( references( attributes ) )(
		'%s %s names a limit of the kind the keyword takes',
		( keyword, reference ) => {
			const value = reference
				.slice( 1 )
				.split( '.' )
				.reduce< unknown >(
					( part, key ) =>
						( part as Record< string, unknown > | undefined )?.[
							key
						],
					limits
				);
			expect( typeof value ).toBe(
				keyword === 'pattern' ? 'string' : 'number'
			);
		}
	);
} );

describe( 'the interpreter', () => {
	it.each( [
		[
			'a number in range',
			{ type: 'number', minimum: 0, maximum: 2 },
			2,
			true,
		],
		[ 'a number above range', { type: 'number', maximum: 2 }, 2.1, false ],
		[ 'infinity', { type: 'number' }, Infinity, false ],
		[ 'not a number', { type: 'number' }, NaN, false ],
		[ 'a numeric string', { type: 'number' }, '5', false ],
		[ 'an integer', { type: 'integer', minimum: 1 }, 3, true ],
		[ 'a fraction', { type: 'integer' }, 1.5, false ],
		[
			'a limit by reference',
			{ type: 'number', maximum: '$pitch.max' },
			61,
			false,
		],
		[ 'a boolean-like string', { type: 'boolean' }, 'true', false ],
		[
			'a pattern, whole string',
			{ type: 'string', pattern: '^a$' },
			'a\n',
			false,
		],
		[ 'an enum', { type: 'string', enum: [ 'x' ] }, 'y', false ],
		[
			'anyOf, second form',
			{
				type: 'string',
				anyOf: [
					{ enum: [ 'auto' ] },
					{ pattern: '$language.pattern' },
				],
			},
			'de-CH',
			true,
		],
		[
			'anyOf, neither',
			{
				type: 'string',
				anyOf: [
					{ enum: [ 'auto' ] },
					{ pattern: '$language.pattern' },
				],
			},
			'Deutsch',
			false,
		],
	] as Array< [ string, Schema, unknown, boolean ] > )(
		'%s',
		( _name, rule, value, valid ) => {
			expect( isValid( rule, value ) ).toBe( valid );
		}
	);

	it( 'keeps a list’s valid items, once each, up to its maximum', () => {
		expect(
			sanitize( rules.languages ?? {}, [
				'de',
				'Deutsch',
				'fr',
				'de',
				7,
			] )
		).toEqual( [ 'de', 'fr' ] );
		const many = Array.from( { length: 40 }, ( _, i ) =>
			String.fromCharCode( 97 + Math.floor( i / 26 ), 97 + ( i % 26 ) )
		);
		expect( sanitize( rules.languages ?? {}, many ) ).toHaveLength(
			limits.languages.maxItems
		);
		expect( sanitize( rules.languages ?? {}, 'de' ) ).toEqual( [] );
	} );

	it( 'falls back field by field in an object', () => {
		expect(
			sanitize( rules.cluster ?? {}, { enabled: 'no', radius: 40 } )
		).toEqual( { enabled: true, radius: 40 } );
		expect( sanitize( rules.center ?? {}, [ 1, 2 ] ) ).toEqual( {
			lng: 0,
			lat: 20,
		} );
	} );
} );

// Rules only the server kept before the schema: the editor now keeps them too.
describe( 'selections as the server bounds them', () => {
	it( 'keeps at most the feed’s number of groups and ids', () => {
		const selection = parseMarkerSelection( {
			source: 'groups',
			groups: Array.from( { length: 60 }, ( _, i ) => `g${ i }` ),
			ids: Array.from( { length: 600 }, ( _, i ) => i + 1 ),
		} );
		expect( selection.groups ).toHaveLength(
			limits.markersQuery.maxGroups
		);
		expect( selection.ids ).toHaveLength( limits.markersQuery.maxInclude );
	} );

	it( 'keeps at most the server’s number of taxonomies', () => {
		const terms = Object.fromEntries(
			Array.from( { length: 12 }, ( _, i ) => [ `tax${ i }`, [ 'a' ] ] )
		);
		expect(
			Object.keys(
				parseContentSelection( { postTypes: [ 'post' ], terms } ).terms
			)
		).toHaveLength( limits.content.maxTaxonomies );
	} );
} );

it( 'gives each caller its own copy of a default list', () => {
	const languages = rules.languages ?? {};
	( sanitize( languages, 'nonsense' ) as string[] ).push( 'de' );
	expect( sanitize( languages, 'nonsense' ) ).toEqual( [] );
	expect( languages.default ).toEqual( [] );
} );
