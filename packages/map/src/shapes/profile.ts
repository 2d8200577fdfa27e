/**
 * A route's elevation profile for its popup: a small SVG chart (an image with an accessible name)
 * and its text alternative (lowest and highest point, ascent, descent, length), built with DOM
 * APIs and text only.
 * @since 0.4.0
 */
import { __, sprintf } from '@wordpress/i18n';

import type { MapConfig } from '../types';
import type { ShapeFeature } from './feed';
import { formatHeight, formatLength } from './units';

const SVG = 'http://www.w3.org/2000/svg';
/** The chart's drawing box (its viewBox): it scales to the popup's width. */
export const CHART = { width: 280, height: 72 } as const;

/** A number with at most one decimal, for path data. */
function round( value: number ): number {
	return Math.round( value * 10 ) / 10;
}

/**
 * The profile's line as SVG path data in the chart's box: distance along x (0 at the left, the
 * whole length at the right), elevation along y (the highest point at the top).
 * @param profile    `[distance_m, elevation_m]` pairs, in order.
 * @param box        The drawing box.
 * @param box.width
 * @param box.height
 */
export function profilePath(
	profile: ReadonlyArray< readonly [ number, number ] >,
	box: { width: number; height: number } = CHART
): string {
	if ( profile.length < 2 ) {
		return '';
	}
	const first = profile[ 0 ]![ 0 ];
	const span = profile[ profile.length - 1 ]![ 0 ] - first || 1;
	const { min, max } = elevationRange( profile );
	const rise = max - min || 1;
	return profile
		.map( ( [ distance, elevation ], index ) => {
			const x = round( ( ( distance - first ) / span ) * box.width );
			const y = round(
				box.height - ( ( elevation - min ) / rise ) * box.height
			);
			return `${ index === 0 ? 'M' : 'L' }${ x },${ y }`;
		} )
		.join( ' ' );
}

/**
 * The lowest and highest elevations of a profile.
 * @param profile
 */
export function elevationRange(
	profile: ReadonlyArray< readonly [ number, number ] >
): { min: number; max: number } {
	let min = Infinity;
	let max = -Infinity;
	for ( const [ , elevation ] of profile ) {
		min = Math.min( min, elevation );
		max = Math.max( max, elevation );
	}
	return { min, max };
}

/** The facts of a route as text, in the site's units. */
export interface RouteFacts {
	length?: string;
	ascent?: string;
	descent?: string;
	lowest?: string;
	highest?: string;
}

/**
 * A shape's facts, formatted.
 * @param shape
 * @param units
 * @param lang
 */
export function routeFacts(
	shape: Pick< ShapeFeature, 'length' | 'ascent' | 'descent' | 'profile' >,
	units: MapConfig[ 'units' ],
	lang?: string
): RouteFacts {
	const facts: RouteFacts = {};
	if ( shape.length !== undefined ) {
		facts.length = formatLength( shape.length, units, lang );
	}
	if ( shape.ascent !== undefined ) {
		facts.ascent = formatHeight( shape.ascent, units, lang );
	}
	if ( shape.descent !== undefined ) {
		facts.descent = formatHeight( shape.descent, units, lang );
	}
	if ( shape.profile ) {
		const { min, max } = elevationRange( shape.profile );
		facts.lowest = formatHeight( min, units, lang );
		facts.highest = formatHeight( max, units, lang );
	}
	return facts;
}

/**
 * The profile's text alternative: one sentence with every fact the chart shows.
 * @param facts
 */
export function profileText( facts: RouteFacts ): string {
	const parts = [
		facts.lowest &&
			sprintf(
				/* translators: %s: an elevation ("120 m"). */
				__( 'lowest point %s', 'cairn-maps' ),
				facts.lowest
			),
		facts.highest &&
			sprintf(
				/* translators: %s: an elevation ("870 m"). */
				__( 'highest point %s', 'cairn-maps' ),
				facts.highest
			),
		facts.ascent &&
			sprintf(
				/* translators: %s: a height ("650 m"). */
				__( 'ascent %s', 'cairn-maps' ),
				facts.ascent
			),
		facts.descent &&
			sprintf(
				/* translators: %s: a height ("600 m"). */
				__( 'descent %s', 'cairn-maps' ),
				facts.descent
			),
		facts.length &&
			sprintf(
				/* translators: %s: a length ("12.4 km"). */
				__( 'length %s', 'cairn-maps' ),
				facts.length
			),
	].filter( Boolean );
	return sprintf(
		/* translators: %s: the profile's facts ("lowest point 120 m, highest point 870 m, …"). */
		__( 'Elevation profile: %s.', 'cairn-maps' ),
		parts.join( ', ' )
	);
}

let profiles = 0;

/**
 * The chart and its text alternative. The SVG is an image named "Elevation profile" and
 * described by the sentence below it, which any reader can read too.
 * @param doc     The popup's document.
 * @param profile `[distance_m, elevation_m]` pairs.
 * @param facts   The route's facts, formatted.
 */
export function buildProfile(
	doc: Document,
	profile: ReadonlyArray< readonly [ number, number ] >,
	facts: RouteFacts
): HTMLElement {
	const figure = doc.createElement( 'figure' );
	figure.className = 'cairn-map-popup__profile';
	const textId = `cairn-profile-text-${ ++profiles }`;
	const svg = doc.createElementNS( SVG, 'svg' );
	svg.setAttribute( 'viewBox', `0 0 ${ CHART.width } ${ CHART.height }` );
	svg.setAttribute( 'preserveAspectRatio', 'none' );
	svg.setAttribute( 'role', 'img' );
	svg.setAttribute( 'aria-label', __( 'Elevation profile', 'cairn-maps' ) );
	svg.setAttribute( 'aria-describedby', textId );
	svg.setAttribute( 'focusable', 'false' );
	svg.classList.add( 'cairn-map-popup__profile-chart' );
	const line = profilePath( profile );
	const area = doc.createElementNS( SVG, 'path' );
	area.setAttribute(
		'd',
		`${ line } L${ CHART.width },${ CHART.height } L0,${ CHART.height } Z`
	);
	area.setAttribute( 'class', 'cairn-map-popup__profile-area' );
	const stroke = doc.createElementNS( SVG, 'path' );
	stroke.setAttribute( 'd', line );
	stroke.setAttribute( 'class', 'cairn-map-popup__profile-line' );
	stroke.setAttribute( 'vector-effect', 'non-scaling-stroke' );
	svg.append( area, stroke );
	const caption = doc.createElement( 'figcaption' );
	caption.id = textId;
	caption.className = 'cairn-map-popup__profile-text';
	caption.textContent = profileText( facts );
	figure.append( svg, caption );
	return figure;
}

/**
 * What a route's popup adds below the place's own details: its length, ascent and descent, and
 * its elevation profile when it has one. Null for an area (nothing to add).
 * @param doc
 * @param shape
 * @param units
 * @param lang
 */
export function buildShapeDetails(
	doc: Document,
	shape: ShapeFeature,
	units: MapConfig[ 'units' ],
	lang?: string
): HTMLElement | null {
	const facts = routeFacts( shape, units, lang );
	const rows: Array< [ string, string | undefined ] > = [
		[ __( 'Length', 'cairn-maps' ), facts.length ],
		[ __( 'Ascent', 'cairn-maps' ), facts.ascent ],
		[ __( 'Descent', 'cairn-maps' ), facts.descent ],
	];
	if ( ! rows.some( ( [ , value ] ) => value ) && ! shape.profile ) {
		return null;
	}
	const root = doc.createElement( 'div' );
	root.className = 'cairn-map-popup__route';
	const list = doc.createElement( 'dl' );
	list.className = 'cairn-map-popup__facts';
	for ( const [ label, value ] of rows ) {
		if ( value ) {
			const term = doc.createElement( 'dt' );
			term.textContent = label;
			const detail = doc.createElement( 'dd' );
			detail.textContent = value;
			list.append( term, detail );
		}
	}
	if ( list.childElementCount > 0 ) {
		root.appendChild( list );
	}
	if ( shape.profile ) {
		root.appendChild( buildProfile( doc, shape.profile, facts ) );
	}
	return root;
}

/**
 * A route's line in the places list: "12.4 km, 650 m ascent"; '' for an area.
 * @param shape
 * @param units
 * @param lang
 */
export function listSummary(
	shape: Pick< ShapeFeature, 'length' | 'ascent' >,
	units: MapConfig[ 'units' ],
	lang?: string
): string {
	const facts = routeFacts( shape, units, lang );
	if ( facts.length && facts.ascent ) {
		return sprintf(
			/* translators: 1: a route's length ("12.4 km"), 2: its ascent ("650 m"). */
			__( '%1$s, %2$s ascent', 'cairn-maps' ),
			facts.length,
			facts.ascent
		);
	}
	return facts.length ?? '';
}
