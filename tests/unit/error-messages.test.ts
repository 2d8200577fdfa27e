/**
 * The message of every error code is exactly the one in tests/fixtures/error-messages.json, the
 * table the server (tests/php/Blocks/Error_MessagesTest.php) and the e2e specs are held to as well,
 * so a visitor reads the same words whichever side found the failure.
 */
import table from '../fixtures/error-messages.json';
import {
	MAP_ERROR_CODES,
	MapError,
	errorMessage,
	showError,
} from '../../packages/map/src/errors';
import type { MapErrorCode } from '../../packages/map/src/types';

const rows = table.messages as Array< {
	code: MapErrorCode;
	message: string;
} >;

describe( 'error messages', () => {
	it( 'the table lists every error code of the runtime, once', () => {
		expect( rows.map( ( row ) => row.code ).sort() ).toEqual(
			[ ...MAP_ERROR_CODES ].sort()
		);
	} );

	it.each( rows.map( ( row ) => [ row.code, row.message ] as const ) )(
		'%s: errorMessage() and MapError say the table’s words',
		( code, message ) => {
			expect( errorMessage( code ) ).toBe( message );
			expect( new MapError( code ).message ).toBe( message );
		}
	);

	it.each( rows.map( ( row ) => [ row.code, row.message ] as const ) )(
		'%s: the alert and the cairn:map-error event carry the table’s words',
		( code, message ) => {
			const host = document.createElement( 'div' );
			host.innerHTML =
				'<div class="wp-block-cairn-map__markers"><ul><li>A place</li></ul></div>';
			document.body.append( host );
			const details: unknown[] = [];
			host.addEventListener( 'cairn:map-error', ( event ) =>
				details.push( ( event as CustomEvent ).detail )
			);
			showError( host, code );
			const alert = host.querySelector( '[role="alert"]' );
			expect( alert?.getAttribute( 'data-cairn-error' ) ).toBe( code );
			expect( alert?.textContent ).toBe( message );
			expect( details ).toEqual( [ { code, message } ] );
			host.remove();
		}
	);
} );
