/**
 * The style URL and language tag rules (map-schema.json's `mapStyle` and `language` forms, by
 * limits.json's patterns), on their own: the settings screen and the post sidebars check these
 * without the rest of the map's configuration.
 */
import { LIMITS } from './limits';

/** A `mapbox://styles/owner/style` URL. */
export const STYLE_PATTERN = new RegExp( LIMITS.mapStyle.pattern );

/** An https URL without spaces, quotes, angle brackets or backslashes. */
const HTTPS_STYLE_PATTERN = new RegExp( LIMITS.mapStyle.httpsPattern );

/**
 * Whether a style URL may be used: a `mapbox://styles/…` URL, or an https URL. With `hosts`, the
 * https URL must be on one of them (exact host, no credentials, no other port): the rule for
 * styles a contributor chooses, which send every visitor's browser to that host (the server's
 * Map_Attributes applies the same rule; LIMITS.mapStyle.hosts plus the `cairn_maps_style_hosts`
 * filter). Without `hosts`, any https host: a site owner's own choice, or a configuration the
 * server already checked.
 *
 * @param value A style URL.
 * @param hosts The hosts an https style may be on (lower case).
 */
export function isValidStyleUrl(
	value: string,
	hosts?: readonly string[]
): boolean {
	if ( STYLE_PATTERN.test( value ) ) {
		return true;
	}
	if ( ! HTTPS_STYLE_PATTERN.test( value ) ) {
		return false;
	}
	try {
		const url = new URL( value );
		return (
			url.protocol === 'https:' &&
			( ! hosts ||
				( url.username === '' &&
					url.password === '' &&
					url.port === '' &&
					hosts.includes( url.hostname.toLowerCase() ) ) )
		);
	} catch {
		return false;
	}
}

/** A language tag the map's labels may take. */
export const LANGUAGE_PATTERN = new RegExp( LIMITS.language.pattern );
