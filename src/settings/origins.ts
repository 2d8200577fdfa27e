/**
 * The allowed origins of headless front ends, checked as the owner types with the server's rules
 * (plugin/Settings/Allowed_Origins.php; both held to tests/fixtures/origins.json): an origin is stored
 * the way browsers send it in the Origin header, so matching it can be exact.
 */
import { __, sprintf } from '@wordpress/i18n';

/** Why an entry is refused; the server answers 400 with the code `cairn_maps_origin_<kind>`. */
export type OriginProblem =
	'null' | 'wildcard' | 'scheme' | 'path' | 'userinfo' | 'ascii' | 'host';

export type OriginCheck =
	{ origin: string } | { problem: OriginProblem; suggestion?: string };

/** A refused line of the list, numbered from 1. */
export interface OriginLineProblem {
	line: number;
	value: string;
	message: string;
}

const DEFAULT_PORTS = { http: 80, https: 443 } as const;

// PHP's trim(): the server trims exactly these, so " https://a.example\u00a0" is refused on both sides.
const PHP_TRIM = /^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g;

const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * An IPv6 address as browsers write it in an origin, in brackets, or null when it is not one.
 * The browser's own URL parser is the reference for that serialisation.
 *
 * @param address The address without brackets.
 */
function serializeIpv6( address: string ): string | null {
	try {
		return new URL( `http://[${ address }]/` ).hostname;
	} catch {
		// The URL parser throws for an invalid address: that is the answer, not a failure.
		return null;
	}
}

/**
 * A host name whose last label is a number is an IPv4 address to browsers; only the dotted
 * decimal form they write back is kept as it is.
 *
 * @param host Lowercase host name.
 */
function isAcceptableNumericHost( host: string ): boolean {
	const last = host.split( '.' ).pop() ?? '';
	if ( ! /^(\d+|0x[0-9a-f]*)$/.test( last ) ) {
		return true;
	}
	return /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(
		host
	);
}

function normalizeHostPort(
	authority: string,
	defaultPort: number
): string | null {
	let host: string | null;
	let portText: string | undefined;
	const ipv6 = /^\[([0-9a-f:.]+)\](?::(\d{1,5}))?$/i.exec( authority );
	if ( ipv6 ) {
		host = serializeIpv6( ipv6[ 1 ] ?? '' );
		portText = ipv6[ 2 ];
	} else {
		const named = /^([a-z0-9.-]+)(?::(\d{1,5}))?$/i.exec( authority );
		if ( ! named ) {
			return null;
		}
		host = ( named[ 1 ] ?? '' ).toLowerCase();
		portText = named[ 2 ];
		if (
			host.length > 253 ||
			! host
				.split( '.' )
				.every( ( label ) => HOST_LABEL.test( label ) ) ||
			! isAcceptableNumericHost( host )
		) {
			return null;
		}
	}
	const port = portText === undefined ? defaultPort : Number( portText );
	if ( host === null || port < 1 || port > 65535 ) {
		return null;
	}
	return port === defaultPort ? host : `${ host }:${ port }`;
}

/**
 * Normalises one origin as the server does on save: `scheme://host[:port]`, http or https,
 * lowercase, the scheme's default port and one trailing slash dropped; refuses `null`, wildcards,
 * other schemes, paths, queries, fragments, user names, malformed hosts or ports and non-ASCII
 * host names (browsers send their xn-- form).
 *
 * @param input An entry as typed.
 */
export function normalizeOrigin( input: string ): OriginCheck {
	const value = input.replace( PHP_TRIM, '' );
	if ( value.toLowerCase() === 'null' ) {
		return { problem: 'null' };
	}
	if ( value.includes( '*' ) ) {
		return { problem: 'wildcard' };
	}
	const parts = /^(https?):\/\/([\s\S]*)$/i.exec( value );
	if ( ! parts ) {
		return { problem: 'scheme' };
	}
	const scheme = (
		parts[ 1 ] ?? ''
	).toLowerCase() as keyof typeof DEFAULT_PORTS;
	let authority = parts[ 2 ] ?? '';
	if ( authority.endsWith( '/' ) ) {
		authority = authority.slice( 0, -1 );
	}
	const extra = authority.search( /[/?#]/ );
	if ( extra >= 0 ) {
		const suggestion = normalizeOrigin(
			`${ scheme }://${ authority.slice( 0, extra ) }`
		);
		return 'origin' in suggestion
			? { problem: 'path', suggestion: suggestion.origin }
			: { problem: 'path' };
	}
	if ( authority.includes( '@' ) ) {
		return { problem: 'userinfo' };
	}
	if ( /[^\x00-\x7F]/.test( authority ) ) {
		return { problem: 'ascii' };
	}
	const host = normalizeHostPort( authority, DEFAULT_PORTS[ scheme ] );
	return host === null
		? { problem: 'host' }
		: { origin: `${ scheme }://${ host }` };
}

/**
 * What is wrong with an entry, in the owner's language.
 *
 * @param value      The entry as typed.
 * @param problem    Why it is refused.
 * @param suggestion The origin it contains, for a path.
 */
export function originProblemMessage(
	value: string,
	problem: OriginProblem,
	suggestion?: string
): string {
	switch ( problem ) {
		case 'null':
			return __(
				'“null” cannot be allowed: it is the origin of local files and sandboxed frames, which any page can create.',
				'cairn-maps'
			);
		case 'wildcard':
			return __(
				'Wildcards are not accepted: list each origin exactly, or leave the list empty to let any site read the public map data.',
				'cairn-maps'
			);
		case 'scheme':
			return __(
				'An origin starts with https:// or http://, as in https://app.example.com.',
				'cairn-maps'
			);
		case 'path':
			return suggestion
				? sprintf(
						/* translators: %s: the origin without its path. */
						__(
							'An origin is only the scheme, host and port, without a path, query or fragment: %s',
							'cairn-maps'
						),
						suggestion
					)
				: __(
						'An origin is only the scheme, host and port, without a path, query or fragment.',
						'cairn-maps'
					);
		case 'userinfo':
			return __(
				'An origin cannot contain a user name or password.',
				'cairn-maps'
			);
		case 'ascii':
			return __(
				'Write the domain in its ASCII form (starting with xn--), as browsers send it.',
				'cairn-maps'
			);
		case 'host':
			return sprintf(
				/* translators: %s: the refused entry. */
				__(
					'“%s” does not have a valid host name (letters, digits, hyphens and dots, or an IPv6 address in brackets) and port (1 to 65535).',
					'cairn-maps'
				),
				value.replace( PHP_TRIM, '' )
			);
	}
}

/**
 * The list as the owner typed it, one origin per line: the origins to save (blank lines
 * skipped, duplicates once) and the refused lines with their messages.
 *
 * @param lines The lines of the field.
 */
export function checkOriginLines( lines: readonly string[] ): {
	origins: string[];
	problems: OriginLineProblem[];
} {
	const origins: string[] = [];
	const problems: OriginLineProblem[] = [];
	lines.forEach( ( value, index ) => {
		if ( value.replace( PHP_TRIM, '' ) === '' ) {
			return;
		}
		const check = normalizeOrigin( value );
		if ( 'origin' in check ) {
			if ( ! origins.includes( check.origin ) ) {
				origins.push( check.origin );
			}
			return;
		}
		problems.push( {
			line: index + 1,
			value,
			message: originProblemMessage(
				value,
				check.problem,
				check.suggestion
			),
		} );
	} );
	return { origins, problems };
}
