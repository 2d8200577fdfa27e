/**
 * What the token field says about a token as it is typed. The server gives the same verdicts
 * (plugin/Settings/Token_Rules.php) from the same pattern in limits.json. Messages never repeat the
 * token.
 */
import { __, sprintf } from '@wordpress/i18n';
import type { TokenCheck } from '@cairn-maps/map/plugin';

export interface TokenVerdict {
	/** Whether the token may be saved (a public token, or empty to remove the token). */
	acceptable: boolean;
	status: 'success' | 'error' | 'info';
	message: string;
}

export function tokenVerdict( check: TokenCheck ): TokenVerdict {
	switch ( check.kind ) {
		case 'public':
			return {
				acceptable: true,
				status: 'success',
				message: sprintf(
					/* translators: %s: Mapbox account (user) name. */
					__( 'Token of Mapbox account “%s”.', 'cairn-maps' ),
					check.account
				),
			};
		case 'secret':
			return {
				acceptable: false,
				status: 'error',
				message: __(
					'Only a public token (starting with “pk.”) may be used. This is a secret token (“sk.”): every visitor could copy it from your pages and use your Mapbox account with its full rights. It cannot be saved; copy or create a public token instead.',
					'cairn-maps'
				),
			};
		case 'temporary':
			return {
				acceptable: false,
				status: 'error',
				message: __(
					'This is a temporary token (“tk.”), which stops working within an hour. Paste a public token (starting with “pk.”) instead.',
					'cairn-maps'
				),
			};
		case 'malformed':
			return {
				acceptable: false,
				status: 'error',
				message: __(
					'This does not look like a Mapbox access token. A public token starts with “pk.” followed by two parts separated by a dot; copy it whole from your Mapbox account page.',
					'cairn-maps'
				),
			};
		case 'empty':
			return {
				acceptable: true,
				status: 'info',
				message: __(
					'No token yet: maps show a notice instead of the map until a public token is saved.',
					'cairn-maps'
				),
			};
	}
}
