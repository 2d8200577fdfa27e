/**
 * Routes and areas on the visitor's map (issue 21): markers with a `meta.cairn_geometry` written
 * through REST are drawn beneath the points (read back through `queryRenderedFeatures` on the
 * shapes' layers); a map of points only asks for no shapes and loads no shapes code; a keyboard
 * visitor chooses the route in the places list, the map fits the whole route and its popup shows
 * its length, ascent and an elevation profile with its text alternative; group toggles and the
 * search reach the shapes; a shapes feed that fails leaves the points map working.
 *
 * Contract: DESIGN.md "Routes and areas", COMMON interfaces (`shapesUrl`, the shapes feed).
 */
import type { Page, Request } from '@playwright/test';

import { VISITOR_STATE } from './global-setup';
import { expect, test } from './fixtures/maps-service';
import { FAKE_PUBLIC_TOKEN, mapBlock, setToken } from './utils/map-page';
import {
	ensureGroup,
	guardVisitorPages,
	pageCaughtUp,
	publishFrontPage,
	seedMarkers,
	waitForIdle,
} from './utils/front-map';
import { mapBounds, tabTo } from './utils/places';

const TRAILS = {
	slug: 'shapes-spec-trails',
	name: 'Shapes spec Trails',
	color: '#1b7f3b',
};
const ZONES = {
	slug: 'shapes-spec-zones',
	name: 'Shapes spec Zones',
	color: '#7b2cbf',
};

/**
 * A ridge route of 41 positions with elevations: up from 1,200 m to 1,850 m, then down to
 * 1,250 m, about 8 km long.
 */
function ridgeRoute(): number[][] {
	return Array.from( { length: 41 }, ( _, i ) => {
		const t = i / 40;
		const elevation =
			t < 0.6
				? 1200 + ( 650 * t ) / 0.6
				: 1850 - ( 600 * ( t - 0.6 ) ) / 0.4;
		return [
			7 + 0.08 * t,
			46 + 0.03 * Math.sin( Math.PI * t ),
			Math.round( elevation ),
		];
	} );
}
const ROUTE = ridgeRoute();
const ROUTE_BBOX = {
	west: 7,
	south: 46,
	east: 7.08,
	north: 46.03,
};
const AREA = [
	[
		[ 7.1, 46.1 ],
		[ 7.2, 46.1 ],
		[ 7.2, 46.18 ],
		[ 7.1, 46.18 ],
		[ 7.1, 46.1 ],
	],
];
const HUT = { title: 'Shapes spec Hut', lng: 7.3, lat: 46.25 };

const ids = { route: 0, area: 0, hut: 0 };
const urls = { overview: '', far: '', pointsOnly: '' };

/** Requests for the shapes feed and the shapes chunk. */
const SHAPES_FEED = /cairn(\/|%2F)v1(\/|%2F)shapes/;
const SHAPES_CHUNK = /\/build\/cairn-map-shapes\.js/;

function recordRequests( page: Page ): string[] {
	const seen: string[] = [];
	page.on( 'request', ( request: Request ) => seen.push( request.url() ) );
	return seen;
}

/** Waits for the map and for its shapes' source to be drawn. */
async function shapesDrawn( page: Page ): Promise< void > {
	await waitForIdle( page );
	await page.waitForFunction( () => {
		const map = window.cairnMap( 0 );
		return (
			Boolean( map.getSource( 'cairn-shapes' ) ) &&
			map.isSourceLoaded( 'cairn-shapes' )
		);
	} );
}

/** Ids drawn now on each of the shapes' layers. */
function drawnShapes( page: Page ) {
	return page.evaluate( () => {
		const map = window.cairnMap( 0 );
		const on = ( layer: string ) =>
			[
				...new Set(
					map
						.queryRenderedFeatures( { layers: [ layer ] } )
						.map( ( feature ) => Number( feature.id ) )
				),
			].sort( ( a, b ) => a - b );
		return {
			lines: on( 'cairn-shapes-line' ),
			fills: on( 'cairn-shapes-fill' ),
		};
	} );
}

test.describe( 'routes and areas on the visitor map', () => {
	test.use( { storageState: VISITOR_STATE } );
	guardVisitorPages();

	test.beforeAll( async ( { requestUtils } ) => {
		test.setTimeout( 300_000 );
		await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
		const trails = await ensureGroup( requestUtils, TRAILS );
		const zones = await ensureGroup( requestUtils, ZONES );
		const seeded = await seedMarkers( requestUtils, [
			{
				title: 'Shapes spec Ridge trail',
				content: '<p>Along the ridge, above the lakes.</p>',
				lng: ROUTE[ 0 ]![ 0 ]!,
				lat: ROUTE[ 0 ]![ 1 ]!,
				groups: [ trails ],
				geometry: { type: 'LineString', coordinates: ROUTE },
			},
			{
				title: 'Shapes spec Quiet zone',
				lng: 7.15,
				lat: 46.14,
				groups: [ zones ],
				geometry: { type: 'Polygon', coordinates: AREA },
			},
			{ ...HUT, groups: [ trails ] },
		] );
		[ ids.route, ids.area, ids.hut ] = seeded as [ number, number, number ];
		const markers = {
			source: 'groups',
			groups: [ TRAILS.slug, ZONES.slug ],
			ids: [],
		};
		urls.overview = await publishFrontPage(
			requestUtils,
			'Shapes spec: overview',
			mapBlock( {
				center: { lng: 7.15, lat: 46.13 },
				zoom: 10,
				height: '480px',
				markers,
				cluster: { enabled: false, radius: 80 },
			} )
		);
		// Zoomed on the hut, the list holding every place: the route is out of view.
		urls.far = await publishFrontPage(
			requestUtils,
			'Shapes spec: far from the route',
			mapBlock( {
				center: { lng: HUT.lng, lat: HUT.lat },
				zoom: 13,
				height: '480px',
				markers,
				cluster: { enabled: false, radius: 80 },
				places: { search: true, groupFilter: true, followMap: false },
			} )
		);
		urls.pointsOnly = await publishFrontPage(
			requestUtils,
			'Shapes spec: points only',
			mapBlock( {
				center: { lng: HUT.lng, lat: HUT.lat },
				zoom: 10,
				height: '480px',
				markers: { source: 'ids', groups: [], ids: [ ids.hut ] },
			} )
		);
	} );

	test( 'lines and areas are drawn beneath the points', async ( {
		page,
	} ) => {
		const requests = recordRequests( page );
		await page.goto( urls.overview );
		await shapesDrawn( page );
		expect(
			requests.filter( ( url ) => SHAPES_FEED.test( url ) )
		).toHaveLength( 1 );
		expect( await drawnShapes( page ) ).toEqual( {
			lines: [ ids.route, ids.area ].sort( ( a, b ) => a - b ),
			fills: [ ids.area ],
		} );
		const order = await page.evaluate( () =>
			( window.cairnMap( 0 ).getStyle()?.layers ?? [] ).map(
				( layer ) => layer.id
			)
		);
		const lowestPoint = order.indexOf( 'cairn-clusters' );
		expect( lowestPoint ).toBeGreaterThan( -1 );
		for ( const layer of [
			'cairn-shapes-fill',
			'cairn-shapes-halo',
			'cairn-shapes-line',
		] ) {
			expect( order.indexOf( layer ) ).toBeGreaterThan( -1 );
			expect( order.indexOf( layer ) ).toBeLessThan( lowestPoint );
		}
		// The route in its group's colour.
		const color = await page.evaluate(
			( id ) =>
				String(
					window
						.cairnMap( 0 )
						.queryRenderedFeatures( {
							layers: [ 'cairn-shapes-line' ],
						} )
						.find( ( feature ) => feature.id === id )?.layer
						?.paint?.[ 'line-color' as never ]
				),
			ids.route
		);
		expect( color ).toBe( 'rgba(27,127,59,1)' );
	} );

	test( 'a map of points only asks for no shapes and loads no shapes code', async ( {
		page,
	} ) => {
		const requests = recordRequests( page );
		await page.goto( urls.pointsOnly );
		await waitForIdle( page );
		await pageCaughtUp( page );
		expect(
			requests.filter(
				( url ) => SHAPES_FEED.test( url ) || SHAPES_CHUNK.test( url )
			)
		).toEqual( [] );
		expect(
			await page.evaluate( () =>
				Boolean( window.cairnMap( 0 ).getSource( 'cairn-shapes' ) )
			)
		).toBe( false );
	} );

	test( 'a keyboard visitor chooses the route in the list: the map fits it and the popup tells its length, ascent and profile', async ( {
		page,
	} ) => {
		await page.goto( urls.far );
		await shapesDrawn( page );
		const entry = page.locator(
			`li[data-cairn-marker-id="${ ids.route }"]`
		);
		// The list entry tells the route's length and ascent.
		await expect(
			entry.locator( '.wp-block-cairn-map__card-route' )
		).toHaveText( /^\d+(\.\d)? km, 650 m ascent/ );
		const before = await mapBounds( page );
		expect( before.west ).toBeGreaterThan( ROUTE_BBOX.east );
		await tabTo(
			page,
			`li[data-cairn-marker-id="${ ids.route }"] > button`
		);
		await page.keyboard.press( 'Enter' );
		const popup = page.locator( '.mapboxgl-popup' );
		await expect( popup ).toBeVisible();
		await expect( popup.locator( 'h2' ) ).toHaveText(
			'Shapes spec Ridge trail'
		);
		await expect( popup ).toContainText(
			'Along the ridge, above the lakes.'
		);
		const bounds = await mapBounds( page );
		expect( bounds.west ).toBeLessThanOrEqual( ROUTE_BBOX.west );
		expect( bounds.south ).toBeLessThanOrEqual( ROUTE_BBOX.south );
		expect( bounds.east ).toBeGreaterThanOrEqual( ROUTE_BBOX.east );
		expect( bounds.north ).toBeGreaterThanOrEqual( ROUTE_BBOX.north );
		const facts = popup.locator( '.cairn-map-popup__facts' );
		await expect( facts.locator( 'dt' ) ).toHaveText( [
			'Length',
			'Ascent',
			'Descent',
		] );
		await expect( facts.locator( 'dd' ).nth( 0 ) ).toHaveText(
			/^\d+(\.\d)? km$/
		);
		await expect( facts.locator( 'dd' ).nth( 1 ) ).toHaveText( '650 m' );
		await expect( facts.locator( 'dd' ).nth( 2 ) ).toHaveText( '600 m' );
		const chart = popup.getByRole( 'img', { name: 'Elevation profile' } );
		await expect( chart ).toBeVisible();
		await expect( chart ).toHaveAccessibleDescription(
			/^Elevation profile: lowest point 1,200 m, highest point 1,850 m, ascent 650 m, descent 600 m, length \d+(\.\d)? km\.$/
		);
		await expect( popup.locator( 'figcaption' ) ).toBeVisible();
		// Focus went into the popup; Escape closes it and returns to the entry.
		await page.keyboard.press( 'Escape' );
		await expect( popup ).toHaveCount( 0 );
		await expect(
			page.locator( `li[data-cairn-marker-id="${ ids.route }"] > button` )
		).toBeFocused();
	} );

	test( 'group toggles hide the shapes of hidden groups; the search finds the route', async ( {
		page,
	} ) => {
		await page.goto( urls.overview );
		await shapesDrawn( page );
		const toggle = page.locator(
			`button[data-cairn-group="${ ZONES.slug }"]`
		);
		await toggle.click();
		await expect( toggle ).toHaveAttribute( 'aria-pressed', 'false' );
		await expect
			.poll( async () => ( await drawnShapes( page ) ).fills )
			.toEqual( [] );
		expect( ( await drawnShapes( page ) ).lines ).toEqual( [ ids.route ] );
		await toggle.click();
		await expect
			.poll( async () => ( await drawnShapes( page ) ).fills )
			.toEqual( [ ids.area ] );
		await page
			.locator( '.wp-block-cairn-map__places input[type="search"]' )
			.fill( 'ridge' );
		await expect(
			page.locator(
				'.wp-block-cairn-map__list > li[data-cairn-marker-id]'
			)
		).toHaveCount( 1 );
		await expect(
			page.locator( `li[data-cairn-marker-id="${ ids.route }"]` )
		).toBeVisible();
		await expect
			.poll( async () => await drawnShapes( page ) )
			.toEqual( { lines: [ ids.route ], fills: [] } );
	} );

	test( 'a shapes feed that fails leaves the points map working and says so', async ( {
		page,
	} ) => {
		await page.route( SHAPES_FEED, ( route ) =>
			route.fulfill( { status: 500, body: 'down' } )
		);
		await page.goto( urls.overview );
		await waitForIdle( page );
		const host = page.locator( '.wp-block-cairn-map' ).first();
		await expect( host ).toHaveAttribute( 'data-cairn-state', 'ready' );
		await expect( page.locator( '[role="alert"]' ) ).toHaveCount( 0 );
		await expect(
			host.locator( '.wp-block-cairn-map__notice' )
		).toHaveText(
			'The routes and areas of this map could not be loaded. Its places are shown.'
		);
		const points = await page.evaluate( () =>
			window
				.cairnMap( 0 )
				.queryRenderedFeatures( { layers: [ 'cairn-points' ] } )
				.map( ( feature ) => Number( feature.id ) )
		);
		expect( points.length ).toBeGreaterThan( 0 );
	} );
} );
