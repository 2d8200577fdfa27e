/**
 * Lengths and heights of routes in the site's units (`config.units`): kilometres and metres, or
 * miles and feet, in the page's language.
 * @since 0.5.0
 */
import type { MapConfig } from '../types';

type Units = MapConfig[ 'units' ];

export const FEET_PER_METRE = 3.28084;
export const METRES_PER_MILE = 1609.344;

/**
 * A number with its unit in the page's language ("12.4 km"); a plain "12.4 kilometer" where the
 * browser's Intl does not know the unit.
 * @param value
 * @param unit   An Intl unit identifier (`meter`, `kilometer`, `foot`, `mile`).
 * @param digits The most fraction digits.
 * @param lang   The page's language.
 */
export function formatUnit(
	value: number,
	unit: string,
	digits: number,
	lang?: string
): string {
	try {
		return new Intl.NumberFormat( lang, {
			style: 'unit',
			unit,
			maximumFractionDigits: digits,
		} ).format( value );
	} catch {
		return `${ value.toFixed( digits ) } ${ unit }`;
	}
}

/**
 * A route's length: "850 m", "12.4 km", "0.3 mi", "124 mi".
 * @param metres
 * @param units
 * @param lang   The page's language.
 */
export function formatLength(
	metres: number,
	units: Units,
	lang?: string
): string {
	if ( units === 'imperial' ) {
		const miles = metres / METRES_PER_MILE;
		return miles < 0.1
			? formatUnit(
					Math.round( metres * FEET_PER_METRE ),
					'foot',
					0,
					lang
				)
			: formatUnit( miles, 'mile', miles < 100 ? 1 : 0, lang );
	}
	// Rounded first: 999.6 m is "1 km", never "1,000 m".
	return Math.round( metres ) < 1000
		? formatUnit( Math.round( metres ), 'meter', 0, lang )
		: formatUnit(
				metres / 1000,
				'kilometer',
				metres < 100_000 ? 1 : 0,
				lang
			);
}

/**
 * A height (an elevation, an ascent): "650 m", "2,133 ft".
 * @param metres
 * @param units
 * @param lang
 */
export function formatHeight(
	metres: number,
	units: Units,
	lang?: string
): string {
	return units === 'imperial'
		? formatUnit( Math.round( metres * FEET_PER_METRE ), 'foot', 0, lang )
		: formatUnit( Math.round( metres ), 'meter', 0, lang );
}
