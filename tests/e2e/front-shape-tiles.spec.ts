/**
 * Routes drawn from the shape tiles (issue 33), in a real browser over the real site (Playground's
 * SQLite): a map whose shapes hold many positions gets `config.shapeTilesUrl` (the test site
 * tiles any selection of 500 positions or more: tests/fixtures/plugins/cairn-shape-tiles-fixture,
 * switched on here) and draws the tiles of its view, each route simplified for the zoom.
 *
 * - A route's detail grows as the map zooms in: the drawn route (the shapes source's data, read
 *   through the map) has a few positions at zoom 6 and many more at zoom 12, and the request log
 *   shows tile requests of both zooms and never the whole shapes feed.
 * - The list entry of the route tells its length and ascent, from the tiles' properties.
 *
 * Contract: DESIGN.md "Routes and areas" (`GET /cairn/v1/shapes/tiles/<z>/<x>/<y>`).
 */
import type { Page, Request } from '@playwright/test';

import { VISITOR_STATE } from './global-setup';
import { expect, test } from './fixtures/maps-service';
import { FAKE_PUBLIC_TOKEN, mapBlock, setToken } from './utils/map-page';
import {
	ensureGroup,
	guardVisitorPages,
	publishFrontPage,
	seedMarkers,
	waitForIdle,
} from './utils/front-map';

const FIXTURE = 'cairn-shape-tiles-fixture/cairn-shape-tiles-fixture';
const GROUP = {
	slug: 'shape-tiles-spec-trails',
	name: 'Shape tiles spec Trails',
	color: '#1b7f3b',
};
const START = { lng: 7.2, lat: 46.3 };

/**
 * A winding trail of 3,000 positions, 15 m apart (about 45 km), with elevations: bends of a few
 * hundred metres, as a recorded hike has. The same trail on every run.
 */
function trail(): number[][] {
	const positions: number[][] = [];
	let { lng, lat } = START;
	let heading = 0.3;
	for ( let i = 0; i < 3000; i++ ) {
		positions.push( [
			Number( lng.toFixed( 7 ) ),
			Number( lat.toFixed( 7 ) ),
			Math.round( 1000 + 300 * Math.sin( i / 400 ) ),
		] );
		heading += 0.09 * Math.sin( i / 23 ) + 0.04 * Math.sin( i / 7 );
		lat += ( 15 * Math.cos( heading ) ) / 111320;
		lng +=
			( 15 * Math.sin( heading ) ) /
			( 111320 * Math.cos( ( lat * Math.PI ) / 180 ) );
	}
	return positions;
}

/** Requests for the shape tiles, and for the whole shapes feed. */
const SHAPE_TILE =
	/cairn(\/|%2F)v1(\/|%2F)shapes(\/|%2F)tiles(\/|%2F)(\d+)(\/|%2F)/;
const SHAPES_FEED = /cairn(\/|%2F)v1(\/|%2F)shapes(?!(\/|%2F)tiles)/;

function recordRequests( page: Page ): string[] {
	const seen: string[] = [];
	page.on( 'request', ( request: Request ) => seen.push( request.url() ) );
	return seen;
}

/** The zooms of the shape tiles asked for so far. */
function tileZooms( requests: string[] ): number[] {
	return [
		...new Set(
			requests.flatMap( ( url ) => {
				const found = SHAPE_TILE.exec( decodeURIComponent( url ) );
				return found ? [ Number( found[ 5 ] ) ] : [];
			} )
		),
	].sort( ( a, b ) => a - b );
}

/**
 * The positions of a shape as the map draws it now: the shapes source's data, read through the
 * map (mapbox-gl's `serialize()`, maplibre-gl's `getData()`), not the rendered tiles (those are
 * the library's own tiling of it).
 * @param page
 * @param id
 */
function drawnPositions( page: Page, id: number ): Promise< number > {
	return page.evaluate( async ( shape ) => {
		const source = window.cairnMap( 0 ).getSource( 'cairn-shapes' ) as
			| {
					getData?: () => Promise< GeoJSON.FeatureCollection >;
					serialize: () => { data: GeoJSON.FeatureCollection };
			  }
			| undefined;
		if ( ! source ) {
			return 0;
		}
		const data = source.getData
			? await source.getData()
			: source.serialize().data;
		const feature = data.features.find( ( f ) => f.id === shape );
		const geometry = feature?.geometry as GeoJSON.LineString | undefined;
		return geometry?.coordinates.length ?? 0;
	}, id );
}

test.describe( 'routes from the shape tiles', () => {
	test.use( { storageState: VISITOR_STATE } );
	guardVisitorPages();

	let route = 0;
	let url = '';

	test.beforeAll( async ( { requestUtils } ) => {
		test.setTimeout( 300_000 );
		await requestUtils.rest( {
			method: 'POST',
			path: `/wp/v2/plugins/${ FIXTURE }`,
			data: { status: 'active' },
			timeout: 180_000,
		} );
		await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
		const trails = await ensureGroup( requestUtils, GROUP );
		[ route ] = ( await seedMarkers( requestUtils, [
			{
				title: 'Shape tiles spec Long ridge trail',
				lng: START.lng,
				lat: START.lat,
				groups: [ trails ],
				geometry: { type: 'LineString', coordinates: trail() },
			},
		] ) ) as [ number ];
		url = await publishFrontPage(
			requestUtils,
			'Shape tiles spec: a long route',
			mapBlock( {
				center: { lng: 7.35, lat: 46.4 },
				zoom: 6,
				height: '480px',
				markers: { source: 'groups', groups: [ GROUP.slug ], ids: [] },
				cluster: { enabled: false, radius: 80 },
			} )
		);
	} );

	test.afterAll( async ( { requestUtils } ) => {
		test.setTimeout( 300_000 );
		await requestUtils.rest( {
			method: 'POST',
			path: `/wp/v2/plugins/${ FIXTURE }`,
			data: { status: 'inactive' },
			timeout: 180_000,
		} );
	} );

	test( 'a route’s detail grows as the map zooms in', async ( { page } ) => {
		const requests = recordRequests( page );
		await page.goto( url );
		const config = JSON.parse(
			( await page
				.locator( '.wp-block-cairn-map' )
				.first()
				.getAttribute( 'data-cairn-config' ) ) ?? '{}'
		) as { shapeTilesUrl?: string };
		expect( config.shapeTilesUrl ).toMatch( /shapes(\/|%2F)tiles/ );
		await waitForIdle( page );
		await expect
			.poll( () => drawnPositions( page, route ) )
			.toBeGreaterThan( 1 );
		const low = await drawnPositions( page, route );
		expect( low ).toBeLessThan( 60 );
		expect( tileZooms( requests ) ).toEqual( [ 0, 6 ] );

		// The list entry tells the whole route's length and ascent, from the tiles' properties.
		await expect(
			page.locator(
				`li[data-cairn-marker-id="${ route }"] .wp-block-cairn-map__card-route`
			)
		).toHaveText( /^\d+(\.\d)? (km|mi), [\d,]+ (m|ft) ascent/ );

		await page.evaluate( ( start ) => {
			window.cairnMap( 0 ).jumpTo( { center: start, zoom: 12.3 } );
		}, START );
		await expect
			.poll( () => drawnPositions( page, route ), { timeout: 60_000 } )
			.toBeGreaterThan( low * 10 );
		expect( tileZooms( requests ) ).toEqual( [ 0, 6, 12 ] );
		expect(
			requests.filter( ( request ) => SHAPES_FEED.test( request ) )
		).toEqual( [] );
		test.info().annotations.push( {
			type: 'positions drawn',
			description: `zoom 6: ${ low }, zoom 12: ${ await drawnPositions(
				page,
				route
			) }`,
		} );
	} );

	test( 'the route chosen in the list fits the map and its popup shows the profile the tiles leave out', async ( {
		page,
	} ) => {
		await page.goto( url );
		await waitForIdle( page );
		await expect
			.poll( () => drawnPositions( page, route ) )
			.toBeGreaterThan( 1 );
		await page
			.locator( `li[data-cairn-marker-id="${ route }"] > button` )
			.click();
		const popup = page.locator( '.mapboxgl-popup' );
		await expect( popup.locator( 'h2' ) ).toHaveText(
			'Shape tiles spec Long ridge trail'
		);
		await expect(
			popup.locator( '.cairn-map-popup__facts dt' )
		).toHaveText( [ 'Length', 'Ascent', 'Descent' ] );
		await expect(
			popup.getByRole( 'img', { name: 'Elevation profile' } )
		).toBeVisible();
		// Fitted to the whole route: zoomed in from 6, where the tiles hold more detail.
		expect(
			await page.evaluate( () => window.cairnMap( 0 ).getZoom() )
		).toBeGreaterThan( 8 );
	} );
} );
