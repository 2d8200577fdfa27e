/**
 * The group looks a map's configuration may carry (`groupStyles`), apart from the rest of the
 * configuration: the editor's data reads them too.
 */
import { LIMITS } from './limits';
import { isRecord } from './map-schema';
import type { GroupStyle } from './types';

const COLOR = /^#[0-9a-fA-F]{6}$/;

/**
 * A number within `min`…`max`, else `fallback` (a bad value is left out like any other).
 * @param value
 * @param min
 * @param max
 * @param fallback
 */
function within(
	value: unknown,
	min: number,
	max: number,
	fallback: number
): number {
	return typeof value === 'number' &&
		Number.isFinite( value ) &&
		value >= min &&
		value <= max
		? value
		: fallback;
}

/**
 * The looks of a group's routes and areas (term meta `cairn_line_color`, `cairn_line_width`,
 * `cairn_fill_opacity`): anything malformed takes its default.
 * @param style Untrusted input.
 */
export function lineLooks(
	style: Record< string, unknown >
): Pick< GroupStyle, 'lineColor' | 'lineWidth' | 'fillOpacity' > {
	const line = LIMITS.groupLine;
	return {
		lineColor:
			typeof style.lineColor === 'string' && COLOR.test( style.lineColor )
				? style.lineColor
				: '',
		lineWidth: within(
			style.lineWidth,
			line.minWidth,
			line.maxWidth,
			line.width
		),
		fillOpacity: within( style.fillOpacity, 0, 1, line.fillOpacity ),
	};
}

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
			typeof style.color === 'string' && COLOR.test( style.color )
				? style.color
				: '';
		const icon =
			typeof style.icon === 'string' && /^https?:\/\//.test( style.icon )
				? style.icon
				: '';
		const name =
			typeof style.name === 'string' ? style.name.slice( 0, 200 ) : '';
		return [
			{
				slug: style.slug,
				name: name || style.slug,
				color,
				icon,
				...lineLooks( style ),
			},
		];
	} );
}
