/**
 * The shapes' paint from the group looks: each shape takes the looks of its first group
 * (`properties.group`, set when the source is filled), like a point takes its first group's
 * colour. Hovered and focused shapes (feature-state) stand out.
 * @since 0.4.0
 */
import type { ExpressionSpecification } from 'mapbox-gl';

import { LIMITS } from '../limits';
import type { GroupStyle } from '../types';

/** A shape's group: its first, or '' (a flat property: expressions read arrays as JSON text). */
const GROUP: ExpressionSpecification = [ 'get', 'group' ];
/** Highlighted: the pointer is over it, or the keyboard is on it (list entry, popup). */
export const HIGHLIGHTED: ExpressionSpecification = [
	'any',
	[ 'boolean', [ 'feature-state', 'hover' ], false ],
	[ 'boolean', [ 'feature-state', 'focus' ], false ],
];

/**
 * `['match', group, slug, value, …, fallback]`, or the fallback alone when no group has a look
 * of its own (`match` needs at least one label).
 * @param styles   The map's group looks.
 * @param value    A group's value.
 * @param fallback Shapes without a group (or of a group the map does not know).
 */
function byGroup< T extends string | number >(
	styles: readonly GroupStyle[],
	value: ( style: GroupStyle ) => T,
	fallback: T
): ExpressionSpecification | T {
	const seen = new Set< string >();
	const pairs = styles.flatMap( ( style ) => {
		if ( seen.has( style.slug ) ) {
			return [];
		}
		seen.add( style.slug );
		const own = value( style );
		return own === fallback ? [] : [ style.slug, own ];
	} );
	return pairs.length === 0
		? fallback
		: ( [ 'match', GROUP, ...pairs, fallback ] as ExpressionSpecification );
}

/**
 * The line colour: the group's line colour, else its colour, else the default.
 * @param styles
 * @param fallback The markers' default colour.
 */
export function lineColor(
	styles: readonly GroupStyle[],
	fallback: string
): ExpressionSpecification | string {
	return byGroup(
		styles,
		( style ) => style.lineColor || style.color || fallback,
		fallback
	);
}

/**
 * The line width in pixels.
 * @param styles
 */
export function lineWidth(
	styles: readonly GroupStyle[]
): ExpressionSpecification | number {
	return byGroup(
		styles,
		( style ) => style.lineWidth,
		LIMITS.groupLine.width
	);
}

/**
 * The fill opacity of areas; a highlighted area is filled more.
 * @param styles
 */
export function fillOpacity(
	styles: readonly GroupStyle[]
): ExpressionSpecification {
	const base = byGroup(
		styles,
		( style ) => style.fillOpacity,
		LIMITS.groupLine.fillOpacity
	);
	return [
		'case',
		HIGHLIGHTED,
		[ 'min', 1, [ '+', base, 0.2 ] ],
		base,
	] as ExpressionSpecification;
}

/**
 * The halo under a highlighted shape's line: its width plus 6 px.
 * @param styles
 */
export function haloWidth(
	styles: readonly GroupStyle[]
): ExpressionSpecification {
	return [ '+', lineWidth( styles ), 6 ] as ExpressionSpecification;
}
