/**
 * The style URL rule with its message, for every field that takes a style: the block's inspector
 * and the settings screen's site defaults. The rule itself is the runtime's (`isValidStyleUrl`),
 * the one the server mirrors.
 */
import { __, sprintf } from '@wordpress/i18n';
import { isValidStyleUrl } from '@cairn-maps/map/plugin';

/**
 * Why a style URL cannot be used, or ''.
 *
 * @param value A style URL.
 * @param hosts The hosts an https style may be on (a block's style); none for any https host (the
 *              site owner's default style).
 */
export function styleError( value: string, hosts?: readonly string[] ): string {
	if ( isValidStyleUrl( value, hosts ) ) {
		return '';
	}
	if ( hosts && isValidStyleUrl( value ) ) {
		return sprintf(
			/* translators: %s: the hosts allowed, comma-separated. */
			__(
				'Styles on other hosts than %s are not allowed on this site: visitors’ browsers would contact that host. Use a Mapbox style, or ask the site owner to allow the host.',
				'cairn-maps'
			),
			hosts.join( ', ' )
		);
	}
	return __(
		'Use a Mapbox style URL (mapbox://styles/owner/style) or an https:// address of a style JSON.',
		'cairn-maps'
	);
}
