/**
 * Mapbox access-token rules, from the same pattern the server uses (limits.json).
 */
import { LIMITS } from './limits';

export type TokenCheck =
	| { kind: 'public'; account: string }
	| { kind: 'secret' | 'temporary' | 'malformed' | 'empty' };

const TOKEN_PATTERN = new RegExp( LIMITS.token.pattern );

function decodeBase64Url( part: string ): string | null {
	try {
		const base64 = part.replace( /-/g, '+' ).replace( /_/g, '/' );
		const padded = base64 + '='.repeat( ( 4 - ( base64.length % 4 ) ) % 4 );
		const binary = atob( padded );
		const bytes = Uint8Array.from( binary, ( char ) =>
			char.charCodeAt( 0 )
		);
		return new TextDecoder( 'utf-8', { fatal: true } ).decode( bytes );
	} catch {
		// Not base64url or not UTF-8: the caller reports the token as malformed.
		return null;
	}
}

export function checkToken( raw: string ): TokenCheck {
	const token = raw.trim();
	if ( token === '' ) {
		return { kind: 'empty' };
	}
	const parts = TOKEN_PATTERN.exec( token );
	if ( ! parts ) {
		return { kind: 'malformed' };
	}
	if ( parts[ 1 ] === 'sk' ) {
		return { kind: 'secret' };
	}
	if ( parts[ 1 ] !== LIMITS.token.publicPrefix ) {
		return { kind: 'temporary' };
	}
	const json = decodeBase64Url( parts[ 2 ] ?? '' );
	let payload: unknown = null;
	try {
		payload = json === null ? null : JSON.parse( json );
	} catch {
		payload = null;
	}
	if (
		typeof payload !== 'object' ||
		payload === null ||
		! ( 'u' in payload ) ||
		typeof payload.u !== 'string' ||
		payload.u === ''
	) {
		return { kind: 'malformed' };
	}
	return { kind: 'public', account: payload.u };
}
