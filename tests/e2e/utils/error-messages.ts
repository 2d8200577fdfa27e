/**
 * The exact words a visitor reads for each map error code: tests/fixtures/error-messages.json, the
 * table jest (packages/map/src/errors.ts) and PHPUnit (Map_Block::error_message()) are held to too.
 */
import table from '../../fixtures/error-messages.json';

const messages: Record< string, string > = Object.fromEntries(
	table.messages.map( ( row ) => [ row.code, row.message ] )
);

/** The English message of an error code (throws for a code the table does not know). */
export function errorMessageFor( code: string ): string {
	const message = messages[ code ];
	if ( message === undefined ) {
		throw new Error(
			`tests/fixtures/error-messages.json has no "${ code }"`
		);
	}
	return message;
}
