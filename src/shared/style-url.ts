/**
 * The style URL rule with its message, for every field that takes a style: the block's inspector
 * and the settings screen's site defaults. The rule itself is the runtime's (`isValidStyleUrl`),
 * the one the server mirrors.
 */
import { __, sprintf } from '@wordpress/i18n';
import { isValidStyleUrl, LIMITS, urlParts } from '@cairn-maps/map/plugin';

export const PMTILES_PREFIX = 'pmtiles://';

const PMTILES_PATTERN = new RegExp( LIMITS.mapStyle.pmtilesPattern );

/**
 * Why a `pmtiles://` reference cannot be used, or '': the site's basemap and a block's own style
 * alike. Only what needs no server: the server checks the whole origin again when it is saved and
 * rendered (Style_Reference::is_on_site).
 *
 * @param value      A `pmtiles://` reference.
 * @param localHosts The hosts of the site's addresses (home, site, uploads:
 *                   Style_Reference::local_hosts()); none to leave that to the server.
 */
export function archiveProblem(
	value: string,
	localHosts: readonly string[]
): string {
	const parts = PMTILES_PATTERN.test( value )
		? urlParts( value.slice( PMTILES_PREFIX.length ) )
		: null;
	if ( ! parts ) {
		return __(
			'Choose a .pmtiles file from the media library, or enter the full address of one on this site.',
			'cairn-maps'
		);
	}
	if ( localHosts.length > 0 && ! localHosts.includes( parts.host ) ) {
		return __(
			'A self-hosted archive must be on this site, so that maps contact no other server.',
			'cairn-maps'
		);
	}
	return '';
}

/**
 * Why a style URL cannot be used, or ''.
 *
 * @param value      A style URL.
 * @param hosts      The hosts an https style may be on (a block's style); none for any https host (the
 *                   site owner's default style).
 * @param localHosts The site's hosts, which a `pmtiles://` archive must be on (archiveProblem()).
 */
export function styleError(
	value: string,
	hosts?: readonly string[],
	localHosts: readonly string[] = []
): string {
	if ( value.startsWith( PMTILES_PREFIX ) ) {
		// A self-hosted archive: on this site only, whoever picks it (it contacts no other host).
		return archiveProblem( value, localHosts );
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
