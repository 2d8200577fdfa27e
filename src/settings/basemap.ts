/**
 * The site's basemap (setting `cairn_maps_basemap`) as the settings screen edits it: which kind of
 * basemap a stored value is, and what the screen can say about a value before the server checks it
 * (plugin/Settings/Basemap_Setting.php has the last word, with a 400 and its message).
 */
import { __ } from '@wordpress/i18n';

import { archiveProblem, PMTILES_PREFIX } from '../shared/style-url';

export type BasemapKind =
	'automatic' | 'openfreemap' | 'mapbox' | 'style-url' | 'self-hosted';

export { PMTILES_PREFIX };

export const MAPBOX_STANDARD = 'mapbox://styles/mapbox/standard';

/** The OpenFreeMap styles the screen offers. */
export const OPENFREEMAP_STYLES: ReadonlyArray< {
	value: string;
	label: string;
} > = [
	{
		value: 'https://tiles.openfreemap.org/styles/liberty',
		label: 'Liberty',
	},
	{
		value: 'https://tiles.openfreemap.org/styles/bright',
		label: 'Bright',
	},
	{
		value: 'https://tiles.openfreemap.org/styles/positron',
		label: 'Positron',
	},
];

export const OPENFREEMAP_LIBERTY = OPENFREEMAP_STYLES[ 0 ]!.value;

/**
 * The kind of basemap a stored value is.
 *
 * @param value The setting's value.
 */
export function basemapKind( value: string ): BasemapKind {
	if ( value === '' ) {
		return 'automatic';
	}
	if ( value.startsWith( PMTILES_PREFIX ) ) {
		return 'self-hosted';
	}
	if (
		value.startsWith( 'mapbox://' ) ||
		/^https:\/\/api\.mapbox\.com[/?#]/i.test( value )
	) {
		return 'mapbox';
	}
	if ( OPENFREEMAP_STYLES.some( ( style ) => style.value === value ) ) {
		return 'openfreemap';
	}
	return 'style-url';
}

/**
 * What the automatic basemap is on this site: Mapbox Standard with a public token, else
 * OpenFreeMap Liberty (Blocks\Basemap::automatic_style()).
 *
 * @param hasPublicToken Whether the token field holds a public token.
 */
export function automaticStyle( hasPublicToken: boolean ): string {
	return hasPublicToken ? MAPBOX_STANDARD : OPENFREEMAP_LIBERTY;
}

/**
 * The value a kind starts with when the owner switches to it.
 *
 * @param kind The kind chosen.
 */
export function firstValue( kind: BasemapKind ): string {
	switch ( kind ) {
		case 'openfreemap':
			return OPENFREEMAP_LIBERTY;
		case 'mapbox':
			return MAPBOX_STANDARD;
		case 'style-url':
			return 'https://';
		case 'self-hosted':
			return PMTILES_PREFIX;
		default:
			return '';
	}
}

/**
 * The archive address of a `pmtiles://` value ('' for others).
 *
 * @param value The setting's value.
 */
export function archiveUrl( value: string ): string {
	return value.startsWith( PMTILES_PREFIX )
		? value.slice( PMTILES_PREFIX.length )
		: '';
}

/**
 * Why the screen will not save a value yet, or ''. Only what needs no server: the server checks
 * everything again (the engine rule, that an archive is on this site).
 *
 * @param value      The setting's value.
 * @param localHosts The hosts of the site's addresses (home, site, uploads), for archives; none
 *                   to leave that to the server.
 */
export function basemapProblem(
	value: string,
	localHosts: readonly string[]
): string {
	const kind = basemapKind( value );
	if ( kind === 'automatic' || kind === 'openfreemap' ) {
		return '';
	}
	if ( /\s/.test( value.trim() ) || /["'<>\\]/.test( value ) ) {
		return __(
			'The basemap address may not contain spaces, quotes or angle brackets.',
			'cairn-maps'
		);
	}
	if ( kind === 'self-hosted' ) {
		return archiveProblem( value.trim(), localHosts );
	}
	if ( kind === 'mapbox' ) {
		return value.startsWith( 'mapbox://' ) &&
			! /^mapbox:\/\/styles\/[\w.-]+\/[\w.-]+$/.test( value )
			? __(
					'A Mapbox style looks like mapbox://styles/owner/style-id.',
					'cairn-maps'
				)
			: '';
	}
	if ( /^http:\/\//i.test( value.trim() ) ) {
		return __(
			'Style URLs must start with https://: a style loaded over plain http could be changed on the way to the visitor.',
			'cairn-maps'
		);
	}
	if ( ! /^https:\/\/[^/?#]+\.[^/?#]+/.test( value.trim() ) ) {
		return __(
			'Enter the https address of a MapLibre style (a style.json).',
			'cairn-maps'
		);
	}
	return '';
}

/**
 * Why the screen will not save the basemap as edited, or '': basemapProblem(), and a kind
 * other than Automatic whose field was emptied (an empty value would mean Automatic).
 *
 * @param kind       The kind the owner picked.
 * @param value      The setting's value.
 * @param localHosts As for basemapProblem().
 */
export function editedBasemapProblem(
	kind: BasemapKind,
	value: string,
	localHosts: readonly string[]
): string {
	if ( kind !== 'automatic' && value.trim() === '' ) {
		return __( 'Enter the basemap’s address.', 'cairn-maps' );
	}
	return basemapProblem( value, localHosts );
}
