/**
 * A route's popup and list facts: the elevation profile as an SVG path, its text alternative,
 * lengths and heights in the site's units (metric and imperial), all as DOM text.
 */
import feed from '../../fixtures/shapes-feed.json';
import { parseShapes } from '../../../packages/map/src/shapes/feed';
import {
	buildShapeDetails,
	listSummary,
	profilePath,
	profileText,
	routeFacts,
} from '../../../packages/map/src/shapes/profile';
import {
	formatHeight,
	formatLength,
	formatUnit,
} from '../../../packages/map/src/shapes/units';

const [ route, area ] = parseShapes( feed );

describe( 'profilePath', () => {
	it( 'puts the start at the left, the end at the right, the highest point at the top', () => {
		// 0 m → 1200, 3100 → 1450, 8000 → 1850 (the top), 12400 → 1250, in a 280 × 72 box.
		expect( profilePath( route!.profile! ) ).toBe(
			'M0,72 L70,44.3 L180.6,0 L280,66.5'
		);
	} );

	it( 'draws a flat route along the bottom and needs two points', () => {
		expect(
			profilePath(
				[
					[ 0, 100 ],
					[ 50, 100 ],
				],
				{ width: 10, height: 10 }
			)
		).toBe( 'M0,10 L10,10' );
		expect( profilePath( [ [ 0, 100 ] ] ) ).toBe( '' );
	} );
} );

describe( 'units', () => {
	it.each( [
		[ 850, 'metric', '850 m' ],
		[ 999.4, 'metric', '999 m' ],
		// 1 km is never "1,000 m", however it rounds.
		[ 999.6, 'metric', '1 km' ],
		[ 1000, 'metric', '1 km' ],
		[ 1049, 'metric', '1 km' ],
		[ 1050, 'metric', '1.1 km' ],
		[ 12400, 'metric', '12.4 km' ],
		[ 99_940, 'metric', '99.9 km' ],
		[ 100_000, 'metric', '100 km' ],
		[ 100_600, 'metric', '101 km' ],
		[ 250000, 'metric', '250 km' ],
		[ 12400, 'imperial', '7.7 mi' ],
		[ 100, 'imperial', '328 ft' ],
		// A tenth of a mile (528 ft) is where feet give way to miles.
		[ 160, 'imperial', '525 ft' ],
		[ 161, 'imperial', '0.1 mi' ],
		[ 160.9344, 'imperial', '0.1 mi' ],
		[ 160_000, 'imperial', '99.4 mi' ],
		[ 161_000, 'imperial', '100 mi' ],
		[ 170_000, 'imperial', '106 mi' ],
	] as const )(
		'a length of %d m in %s units reads %s',
		( metres, units, text ) => {
			expect( formatLength( metres, units, 'en' ) ).toBe( text );
		}
	);

	it( 'falls back to the number and the unit’s name where Intl does not know the unit', () => {
		expect( formatUnit( 12.44, 'parsec', 1, 'en' ) ).toBe( '12.4 parsec' );
	} );

	it( 'gives heights in metres or feet', () => {
		expect( formatHeight( 650, 'metric', 'en' ) ).toBe( '650 m' );
		expect( formatHeight( 650, 'imperial', 'en' ) ).toBe( '2,133 ft' );
	} );
} );

describe( 'text alternative', () => {
	it( 'says every fact of the chart in metric units', () => {
		expect( profileText( routeFacts( route!, 'metric', 'en' ) ) ).toBe(
			'Elevation profile: lowest point 1,200 m, highest point 1,850 m, ascent 650 m, descent 600 m, length 12.4 km.'
		);
	} );

	it( 'and in imperial units', () => {
		expect( profileText( routeFacts( route!, 'imperial', 'en' ) ) ).toBe(
			'Elevation profile: lowest point 3,937 ft, highest point 6,070 ft, ascent 2,133 ft, descent 1,969 ft, length 7.7 mi.'
		);
	} );
} );

describe( 'buildShapeDetails', () => {
	it( 'lists length, ascent and descent and draws the profile as a named image', () => {
		const details = buildShapeDetails( document, route!, 'metric', 'en' )!;
		document.body.appendChild( details );
		const facts = Array.from( details.querySelectorAll( 'dt, dd' ) ).map(
			( node ) => node.textContent
		);
		expect( facts ).toEqual( [
			'Length',
			'12.4 km',
			'Ascent',
			'650 m',
			'Descent',
			'600 m',
		] );
		const chart = details.querySelector( 'svg' )!;
		expect( chart.getAttribute( 'role' ) ).toBe( 'img' );
		expect( chart.getAttribute( 'aria-label' ) ).toBe(
			'Elevation profile'
		);
		const description = document.getElementById(
			chart.getAttribute( 'aria-describedby' )!
		);
		expect( description?.textContent ).toBe(
			profileText( routeFacts( route!, 'metric', 'en' ) )
		);
		expect(
			chart
				.querySelector( '.cairn-map-popup__profile-line' )!
				.getAttribute( 'd' )
		).toBe( profilePath( route!.profile! ) );
		details.remove();
	} );

	it( 'adds nothing to an area, and no chart to a route without elevations', () => {
		expect(
			buildShapeDetails( document, area!, 'metric', 'en' )
		).toBeNull();
		const flat = buildShapeDetails(
			document,
			{
				...route!,
				ascent: undefined,
				descent: undefined,
				profile: undefined,
			},
			'imperial',
			'en'
		)!;
		expect( flat.querySelector( 'svg' ) ).toBeNull();
		expect( flat.textContent ).toBe( 'Length7.7 mi' );
	} );
} );

describe( 'listSummary', () => {
	it( 'gives a route length and ascent, a route without elevation its length, an area nothing', () => {
		expect( listSummary( route!, 'metric', 'en' ) ).toBe(
			'12.4 km, 650 m ascent'
		);
		expect( listSummary( route!, 'imperial', 'en' ) ).toBe(
			'7.7 mi, 2,133 ft ascent'
		);
		expect( listSummary( { length: 2500 }, 'metric', 'en' ) ).toBe(
			'2.5 km'
		);
		expect( listSummary( area!, 'metric', 'en' ) ).toBe( '' );
	} );
} );
