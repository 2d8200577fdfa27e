/**
 * The style URL rule with its message, for every field that takes a style: the block's inspector
 * and the settings screen's site defaults. The rule itself is the runtime's (`isValidStyleUrl`),
 * the one the server mirrors.
 */
import { __, sprintf } from '@wordpress/i18n';
import { isValidStyleUrl, urlParts } from '@cairn-maps/map/plugin';

const PMTILES_PREFIX = 'pmtiles://';

/**
 * Whether an archive URL is on the host this screen was opened from (the site; the server checks
 * the whole origin again when the block is saved and rendered: Style_Reference::is_on_site).
 *
 * @param url  The archive URL after `pmtiles://`.
 * @param site The site's host (lower case).
 */
function isOnSite( url: string, site: string ): boolean {
	const parts = urlParts( url );
	return !! parts && parts.host === site;
}

/**
 * Why a style URL cannot be used, or ''.
 *
 * @param value A style URL.
 * @param hosts The hosts an https style may be on (a block's style); none for any https host (the
 *              site owner's default style).
 * @param site  The site's host, which a `pmtiles://` archive must be on (the page's own).
 */
export function styleError(
	value: string,
	hosts?: readonly string[],
	site: string = typeof window === 'undefined'
		? ''
		: window.location.hostname.toLowerCase()
): string {
	if ( value.startsWith( PMTILES_PREFIX ) ) {
		// A self-hosted archive: on this site only, whoever picks it (it contacts no other host).
		return isOnSite( value.slice( PMTILES_PREFIX.length ), site )
			? ''
			: __(
					'A pmtiles:// basemap must be an archive on this site: pmtiles://https://this-site/…/world.pmtiles.',
					'cairn-maps'
				);
	}
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
		'Use a Mapbox style URL (mapbox://styles/owner/style), an https:// address of a style JSON, or pmtiles:// and an archive on this site.',
		'cairn-maps'
	);
}
