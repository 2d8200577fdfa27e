/**
 * The access-token check the settings screen and the map run as the owner types. The same table
 * holds the server (tests/php/Settings/Token_RulesTest.php), so both sides give the same verdict.
 */
import { TextDecoder as NodeTextDecoder } from 'node:util';

import table from '../fixtures/tokens.json';
import { checkToken } from '../../packages/map/src/token';
import { tokenVerdict } from '../../src/shared/token-messages';

// jsdom, Jest's stand-in browser, lacks TextDecoder; every browser the plugin supports has it.
if ( typeof globalThis.TextDecoder === 'undefined' ) {
	Object.assign( globalThis, { TextDecoder: NodeTextDecoder } );
}

interface Row {
	name: string;
	token: string;
	kind: string;
	account?: string;
}

const rows: Row[] = table.tokens;

describe( 'checkToken', () => {
	it.each( rows.map( ( row ) => [ row.name, row ] as const ) )(
		'%s',
		( _name, { token, kind, account } ) => {
			const expected =
				account === undefined ? { kind } : { kind, account };
			expect( checkToken( token ) ).toEqual( expected );
		}
	);

	it( 'covers every kind of verdict', () => {
		expect( new Set( rows.map( ( row ) => row.kind ) ) ).toEqual(
			new Set( [ 'public', 'secret', 'temporary', 'malformed', 'empty' ] )
		);
	} );
} );

describe( 'tokenVerdict', () => {
	const withText = rows.filter( ( row ) => row.token.trim() !== '' );
	it.each( withText.map( ( row ) => [ row.name, row ] as const ) )(
		'%s: the message never repeats the token',
		( _name, { token } ) => {
			const { message } = tokenVerdict( checkToken( token ) );
			const trimmed = token.trim();
			const longParts = trimmed
				.split( '.' )
				.filter( ( part ) => part.length > 8 );
			expect( message ).not.toBe( '' );
			expect( message ).not.toContain( trimmed );
			expect(
				longParts.filter( ( part ) => message.includes( part ) )
			).toEqual( [] );
		}
	);

	it( 'accepts a public token and names its account', () => {
		const verdict = tokenVerdict( checkToken( rows[ 0 ]!.token ) );
		expect( verdict ).toEqual( {
			acceptable: true,
			status: 'success',
			message: 'Token of Mapbox account “cairn-demo”.',
		} );
	} );

	it( 'refuses a secret token and says why', () => {
		const secret = rows.find( ( row ) => row.kind === 'secret' )!;
		const verdict = tokenVerdict( checkToken( secret.token ) );
		expect( verdict.acceptable ).toBe( false );
		expect( verdict.status ).toBe( 'error' );
		expect( verdict.message ).toMatch( /Only a public token/ );
		expect( verdict.message ).toMatch( /secret token/ );
		expect( verdict.message ).toMatch( /copy it from your pages/ );
	} );

	it.each( [
		[ 'temporary', /temporary token/ ],
		[ 'malformed', /does not look like a Mapbox access token/ ],
	] )( 'refuses a %s token with its own message', ( kind, pattern ) => {
		const row = rows.find( ( candidate ) => candidate.kind === kind )!;
		const verdict = tokenVerdict( checkToken( row.token ) );
		expect( verdict.acceptable ).toBe( false );
		expect( verdict.message ).toMatch( pattern );
	} );

	it( 'lets an empty field through (it removes the token)', () => {
		expect( tokenVerdict( checkToken( '   ' ) ) ).toMatchObject( {
			acceptable: true,
			status: 'info',
		} );
	} );
} );
