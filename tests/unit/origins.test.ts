/**
 * The allowed-origins check of the settings screen. The same table holds the server
 * (tests/php/Rest/CorsTest.php), so an entry the field accepts is stored as shown, and one it
 * refuses would be refused with a 400.
 */
import table from '../fixtures/origins.json';
import {
	checkOriginLines,
	normalizeOrigin,
	originProblemMessage,
} from '../../src/settings/origins';
import type { OriginProblem } from '../../src/settings/origins';

interface Row {
	name: string;
	input: string;
	origin?: string;
	refused?: string;
}

const rows: Row[] = table.origins;

describe( 'normalizeOrigin', () => {
	const accepted = rows.filter( ( row ) => row.origin !== undefined );
	const refused = rows.filter( ( row ) => row.refused !== undefined );

	it.each( accepted.map( ( row ) => [ row.name, row ] as const ) )(
		'stores %s normalised',
		( _name, { input, origin } ) => {
			expect( normalizeOrigin( input ) ).toEqual( { origin } );
			expect( normalizeOrigin( origin ?? '' ) ).toEqual( { origin } );
		}
	);

	it.each( refused.map( ( row ) => [ row.name, row ] as const ) )(
		'refuses %s',
		( _name, { input, refused: problem } ) => {
			expect( normalizeOrigin( input ) ).toMatchObject( { problem } );
		}
	);

	it( 'covers every kind of refusal', () => {
		const kinds: OriginProblem[] = [
			'null',
			'wildcard',
			'scheme',
			'path',
			'userinfo',
			'ascii',
			'host',
		];
		expect( new Set( rows.map( ( row ) => row.refused ) ) ).toEqual(
			new Set( [ undefined, ...kinds ] )
		);
	} );

	it( 'suggests the origin inside a URL with a path', () => {
		expect(
			normalizeOrigin( 'https://App.Example.com:443/maps?x=1' )
		).toEqual( {
			problem: 'path',
			suggestion: 'https://app.example.com',
		} );
		expect(
			originProblemMessage(
				'https://App.Example.com/maps',
				'path',
				'https://app.example.com'
			)
		).toContain( 'https://app.example.com' );
	} );
} );

describe( 'checkOriginLines', () => {
	it( 'skips blank lines, keeps each origin once, numbers refused lines', () => {
		const { origins, problems } = checkOriginLines( [
			'https://app.example.com/',
			'',
			'   ',
			'http://localhost:5173',
			'HTTPS://APP.example.com',
			'https://*.example.com',
			'null',
		] );
		expect( origins ).toEqual( [
			'https://app.example.com',
			'http://localhost:5173',
		] );
		expect(
			problems.map( ( { line, value } ) => ( { line, value } ) )
		).toEqual( [
			{ line: 6, value: 'https://*.example.com' },
			{ line: 7, value: 'null' },
		] );
		expect( problems.every( ( problem ) => problem.message ) ).toBe( true );
	} );

	it( 'accepts an empty list: any site may read', () => {
		expect( checkOriginLines( [ '' ] ) ).toEqual( {
			origins: [],
			problems: [],
		} );
	} );
} );
