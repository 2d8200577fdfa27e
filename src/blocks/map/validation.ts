/**
 * Editor-side checks of values an editor types, with the messages shown next to the fields.
 */
import { __ } from '@wordpress/i18n';

import { HEIGHT_RULE, LANGUAGE_PATTERN, LIMITS } from '@cairn-maps/map/plugin';
import type { LanguageOption } from '../../shared/languages';

/** A CSS length for the map's height: the attribute's rule (map-schema.json), the server's too. */
export const HEIGHT_PATTERN = new RegExp( HEIGHT_RULE.pattern );

export function heightError( value: string ): string {
	return HEIGHT_PATTERN.test( value )
		? ''
		: __( 'Use a CSS length such as 480px, 30rem or 60vh.', 'cairn-maps' );
}

/**
 * The label languages visitors may switch between, from the tokens of the editor's chooser: each
 * token a language's name or tag from `options`; unknown tokens, `auto` and repeats are left out,
 * and the list is cut at the limit the server keeps (as Map_Attributes does).
 *
 * @param tokens  The chooser's tokens.
 * @param options The languages on offer.
 */
export function languagesFromTokens(
	tokens: ReadonlyArray< string | { value: string } >,
	options: readonly LanguageOption[]
): string[] {
	const tags: string[] = [];
	for ( const token of tokens ) {
		const text = typeof token === 'string' ? token : token.value;
		const tag = options.find(
			( option ) => option.label === text || option.value === text
		)?.value;
		if ( tag && LANGUAGE_PATTERN.test( tag ) && ! tags.includes( tag ) ) {
			tags.push( tag );
		}
	}
	return tags.slice( 0, LIMITS.languages.maxItems );
}

export function zoomRangeError( minZoom: number, maxZoom: number ): string {
	return minZoom > maxZoom
		? __(
				'The minimum zoom cannot be above the maximum zoom.',
				'cairn-maps'
			)
		: '';
}

/** Parses a typed number, or null when it is not a finite number inside the range. */
export function parseNumberIn(
	value: string | number | undefined,
	range: { min: number; max: number }
): number | null {
	const number = typeof value === 'number' ? value : Number( value );
	if (
		value === '' ||
		value === undefined ||
		! Number.isFinite( number ) ||
		number < range.min ||
		number > range.max
	) {
		return null;
	}
	return number;
}

export const RANGES = {
	lat: LIMITS.latitude,
	lng: LIMITS.longitude,
	zoom: LIMITS.zoom,
	bearing: LIMITS.bearing,
	pitch: LIMITS.pitch,
	clusterRadius: {
		min: LIMITS.cluster.minRadius,
		max: LIMITS.cluster.maxRadius,
	},
};

/** Rounds a camera value for storage: enough precision, no float noise in the post content. */
export function roundTo( value: number, digits: number ): number {
	const factor = 10 ** digits;
	return Math.round( value * factor ) / factor;
}
