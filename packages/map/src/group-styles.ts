/**
 * The group looks a map's configuration may carry (`groupStyles`), apart from the rest of the
 * configuration: the editor's data reads them too.
 */
import { isRecord } from './map-schema';
import type { GroupStyle } from './types';

/**
 * The group looks a map may use; anything malformed is left out.
 *
 * @param value Untrusted input.
 */
export function groupStyles( value: unknown ): GroupStyle[] {
	if ( ! Array.isArray( value ) ) {
		return [];
	}
	return value.filter( isRecord ).flatMap( ( style ) => {
		if (
			typeof style.slug !== 'string' ||
			// A marker group's slug, or a term's `taxonomy:slug` key (maps of posts).
			! /^(?:[a-z0-9_-]+:)?[a-z0-9_%-]+$/.test( style.slug )
		) {
			return [];
		}
		const color =
			typeof style.color === 'string' &&
			/^#[0-9a-fA-F]{6}$/.test( style.color )
				? style.color
				: '';
		const icon =
			typeof style.icon === 'string' && /^https?:\/\//.test( style.icon )
				? style.icon
				: '';
		const name =
			typeof style.name === 'string' ? style.name.slice( 0, 200 ) : '';
		return [ { slug: style.slug, name: name || style.slug, color, icon } ];
	} );
}
