/**
 * A map too big to ship whole (issue 22), in a real browser over the real site (Playground's
 * SQLite): the server clusters its places into tiles and answers its panel. The test site tiles
 * any selection of 100 places or more (tests/fixtures/plugins/cairn-tiles-fixture, switched on
 * here); the map shows 240 places in 3 groups of 80, all in its first view.
 *
 * - The clusters drawn come from `/cairn/v1/tiles/…` (the markers feed is never fetched), and the
 *   counts the map draws (queryRenderedFeatures) add up to the 240 places.
 * - A group switched off: the clusters count 160.
 * - A search: the list holds its 80 matches, 50 then 30 on page 2; a place opens from its link.
 * - A marker unpublished: a new page view neither draws nor finds it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page, Request } from '@playwright/test';

import { VISITOR_STATE } from './global-setup';
import { expect, test } from './fixtures/maps-service';
import { FAKE_PUBLIC_TOKEN, mapBlock } from './utils/map-page';
import {
	recordMapEvents,
	waitForIdle,
	watchPageErrors,
} from './utils/front-map';
import { KeptSeed } from './utils/kept-seed';
import {
	drawnMarkers,
	placesEventCount,
	publishTrackedPage,
	recordPlacesEvents,
	seedPlaces,
	waitForPlacesChange,
	withQuery,
	type SpecPlace,
} from './utils/places';

const FIXTURE = 'cairn-tiles-fixture/cairn-tiles-fixture';
const COUNT = 240;
const BOX = { west: 2, south: 45.5, east: 12, north: 50.5 };
const VIEW = { center: { lng: 7, lat: 48 }, zoom: 4 };
const GROUPS = [
	{
		slug: 'tiles-spec-harbours',
		name: 'Tiles spec Harbours',
		color: '#1f77b4',
	},
	{
		slug: 'tiles-spec-museums',
		name: 'Tiles spec Museums',
		color: '#2ca02c',
	},
	{ slug: 'tiles-spec-parks', name: 'Tiles spec Parks', color: '#9467bd' },
];
const KINDS: Record< string, string > = {
	'tiles-spec-harbours': 'Harbour',
	'tiles-spec-museums': 'Museum',
	'tiles-spec-parks': 'Park',
};
const PER_GROUP = COUNT / GROUPS.length;
/** Playground answers one request at a time: a view's few tiles can take a while on a busy machine. */
const SLOW = 120_000;

interface Seed {
	places: SpecPlace[];
	url: string;
}

const declared: string[] = [];
const tilesTest = ( ( title: string, body: unknown ) => {
	declared.push( title );
	( test as unknown as ( name: string, fn: unknown ) => void )( title, body );
} ) as unknown as typeof test;

let seedData: Seed = { places: [], url: '' };

const host = ( page: Page ): Locator =>
	page.locator( '.wp-block-cairn-map' ).first();

/** The REST requests the page makes to the places routes, by route. */
function recordRequests( page: Page ) {
	const seen = {
		tiles: [] as string[],
		markers: [] as string[],
		places: [] as string[],
	};
	page.on( 'request', ( request: Request ) => {
		const url = decodeURIComponent( request.url() );
		if ( url.includes( '/cairn/v1/tiles/' ) ) {
			seen.tiles.push( url );
		} else if ( url.includes( '/cairn/v1/markers' ) ) {
			seen.markers.push( url );
		} else if ( url.includes( '/cairn/v1/places' ) ) {
			seen.places.push( url );
		}
	} );
	return seen;
}

async function openMap( page: Page, url = seedData.url ) {
	await page.goto( url );
	await waitForIdle( page );
	await expect(
		host( page )
			.locator(
				'.wp-block-cairn-map__list > li[data-cairn-marker-id] > button'
			)
			.first()
	).toBeVisible( { timeout: SLOW } );
}

test.describe( 'a tiled map', () => {
	test.use( { storageState: VISITOR_STATE } );
	test.describe.configure( { timeout: 4 * SLOW } );

	let seed: KeptSeed< Seed >;
	let pageErrors: Error[] = [];

	test.beforeAll( async ( { requestUtils, request, baseURL } ) => {
		test.setTimeout( 600_000 );
		await requestUtils.rest( {
			method: 'POST',
			path: `/wp/v2/plugins/${ FIXTURE }`,
			data: { status: 'active' },
			timeout: 180_000,
		} );
		await requestUtils.rest( {
			method: 'POST',
			path: '/wp/v2/settings',
			data: { cairn_maps_access_token: FAKE_PUBLIC_TOKEN },
			timeout: 180_000,
		} );
		seed = new KeptSeed< Seed >( 'front-tiles-spec', baseURL!, declared );
		seedData = await seed.get(
			requestUtils,
			async ( track ) => {
				const seeded = await seedPlaces(
					requestUtils,
					track,
					GROUPS,
					COUNT,
					BOX,
					( _i, word, group ) => `${ word } ${ KINDS[ group ] }`
				);
				const url = await publishTrackedPage(
					requestUtils,
					track,
					'Tiles spec: 240 places',
					mapBlock( {
						...VIEW,
						height: '480px',
						markers: {
							source: 'groups',
							groups: seeded.groups.map(
								( group ) => group.slug
							),
							ids: [],
						},
						cluster: { enabled: true, radius: 80 },
						places: {
							search: true,
							groupFilter: true,
							followMap: true,
						},
					} )
				);
				return { places: seeded.places, url };
			},
			async ( kept ) =>
				( await request.get( kept.url, { timeout: 120_000 } ) ).ok()
		);
		// The server tiles this map: its configuration names the three routes.
		const html = await (
			await request.get( seedData.url, { timeout: 120_000 } )
		).text();
		expect( html ).toContain( 'tilesUrl' );
		expect( html ).toMatch( /tilesUrl&quot;:&quot;http|"tilesUrl":"http/ );
	} );

	test.afterAll( async ( { requestUtils } ) => {
		test.setTimeout( 600_000 );
		await seed?.finish( requestUtils );
		await requestUtils.rest( {
			method: 'POST',
			path: `/wp/v2/plugins/${ FIXTURE }`,
			data: { status: 'inactive' },
			timeout: 180_000,
		} );
	} );

	test.beforeEach( async ( { page } ) => {
		pageErrors = watchPageErrors( page );
		await recordMapEvents( page );
		await recordPlacesEvents( page );
	} );

	test.afterEach( async ( {}, testInfo ) => {
		seed.ran( testInfo.title );
		expect( pageErrors.map( ( error ) => error.message ) ).toEqual( [] );
	} );

	tilesTest(
		'draws the clusters of its tiles, never fetching the markers feed, and a group off drops its places',
		async ( { page } ) => {
			const seen = recordRequests( page );
			await openMap( page );
			expect( seen.tiles.length ).toBeGreaterThan( 0 );
			expect(
				seen.tiles.every( ( url ) =>
					/\/tiles\/4\/\d+\/\d+/.test( url )
				)
			).toBe( true );
			expect( seen.markers ).toEqual( [] );
			await expect
				.poll( async () => ( await drawnMarkers( page ) ).total, {
					timeout: SLOW,
				} )
				.toBe( COUNT );
			expect(
				( await drawnMarkers( page ) ).clusterCounts.length
			).toBeGreaterThan( 0 );

			const since = await placesEventCount( page );
			const parks = GROUPS[ 2 ]!.slug;
			await host( page )
				.locator( `button[data-cairn-group="${ parks }"]` )
				.click();
			await waitForPlacesChange(
				page,
				since,
				{
					hiddenGroups: [ parks ],
				},
				SLOW
			);
			await expect
				.poll( async () => ( await drawnMarkers( page ) ).total, {
					timeout: SLOW,
				} )
				.toBe( COUNT - PER_GROUP );
			// The filtered clusters came from tiles asked with the group hidden.
			expect(
				seen.tiles.some( ( url ) =>
					url.includes( `hidden=${ parks }` )
				)
			).toBe( true );
			expect( seen.markers ).toEqual( [] );
		}
	);

	tilesTest(
		'a search lists its matches from the server, page 2 too, and a place opens from its link',
		async ( { page } ) => {
			const seen = recordRequests( page );
			await openMap( page );
			const since = await placesEventCount( page );
			await host( page )
				.locator( 'input[type="search"]' )
				.fill( 'museum' );
			const change = await waitForPlacesChange(
				page,
				since,
				{
					search: 'museum',
				},
				SLOW
			);
			expect( change.total ).toBe( PER_GROUP );
			const entries = host( page ).locator(
				'.wp-block-cairn-map__list > li[data-cairn-marker-id]'
			);
			await expect( entries ).toHaveCount( 50, { timeout: SLOW } );
			await expect(
				host( page ).locator( '.wp-block-cairn-map__page-info' )
			).toHaveText( `Places 1–50 of ${ PER_GROUP }` );
			await expect
				.poll( async () => ( await drawnMarkers( page ) ).total, {
					timeout: SLOW,
				} )
				.toBe( PER_GROUP );
			await host( page )
				.getByRole( 'button', { name: 'Next places' } )
				.click();
			await expect( entries ).toHaveCount( PER_GROUP - 50, {
				timeout: SLOW,
			} );
			const museums = seedData.places.filter(
				( p ) => p.group === GROUPS[ 1 ]!.slug
			);
			const listed = await entries.evaluateAll( ( items ) =>
				items.map( ( item ) =>
					Number( item.getAttribute( 'data-cairn-marker-id' ) )
				)
			);
			expect(
				listed.every( ( id ) => museums.some( ( p ) => p.id === id ) )
			).toBe( true );
			expect(
				seen.places.some( ( url ) => /[?&]page=2/.test( url ) )
			).toBe( true );
			expect( seen.markers ).toEqual( [] );

			// A deep link opens its place: the map flies to it, its popup shows its title.
			const target = museums[ 17 ]!;
			await page.goto(
				withQuery( seedData.url, 'cairn-place', String( target.id ) )
			);
			await waitForIdle( page );
			await expect( page.locator( '.mapboxgl-popup' ) ).toContainText(
				target.title,
				{
					timeout: 30_000,
				}
			);
			expect(
				seen.places.some( ( url ) =>
					url.includes( `include=${ target.id }` )
				)
			).toBe( true );
		}
	);

	tilesTest(
		'another origin reads the tiles, the summary and the list as the runtime asks for them (CORS)',
		async ( { page, request } ) => {
			const html = await (
				await request.get( seedData.url, { timeout: 120_000 } )
			).text();
			const attribute =
				/data-cairn-config="([^"]*)"/.exec( html )?.[ 1 ] ?? '';
			const config = JSON.parse(
				attribute
					.replace( /&quot;/g, '"' )
					.replace( /&#0?39;/g, "'" )
					.replace( /&lt;/g, '<' )
					.replace( /&gt;/g, '>' )
					.replace( /&amp;/g, '&' )
			) as { tilesUrl: string; placesUrl: string; summaryUrl: string };
			const site = new URL( seedData.url );
			// Another origin: a real server on 127.0.0.1 (a page Playwright fulfils has no address,
			// and Chromium then refuses its requests to the loopback site before CORS is asked).
			const app = http.createServer( ( _request, response ) => {
				response.writeHead( 200, { 'Content-Type': 'text/html' } );
				response.end( '<!doctype html><title>app</title>' );
			} );
			await new Promise< void >( ( resolve ) =>
				app.listen( 0, '127.0.0.1', () => resolve() )
			);
			const { port } = app.address() as AddressInfo;
			try {
				await page.goto( `http://127.0.0.1:${ port }/` );
			} finally {
				app.close();
			}
			const answers = await page.evaluate( async ( urls ) => {
				// As the tiled client asks (places/prefetch-tiles.ts getJson).
				const read = async ( url: string ) => {
					const response = await fetch( url, {
						credentials: 'same-origin',
						headers: {
							Accept: 'application/geo+json, application/json',
						},
					} );
					return {
						status: response.status,
						body: await response.json(),
					};
				};
				return {
					tile: await read(
						urls.tilesUrl
							.replace( '{z}', '4' )
							.replace( '{x}', '8' )
							.replace( '{y}', '5' )
					),
					summary: await read( urls.summaryUrl ),
					list: await read( urls.placesUrl ),
				};
			}, config );
			expect(
				new URL( config.tilesUrl.replace( /[{}]/g, '' ) ).origin
			).toBe( site.origin );
			expect( answers.tile.status ).toBe( 200 );
			expect( answers.tile.body.features.length ).toBeGreaterThan( 0 );
			expect( answers.summary.body.total ).toBe( COUNT );
			expect( answers.list.body.items ).toHaveLength( 50 );
		}
	);

	tilesTest(
		'a marker unpublished is gone from the next page view',
		async ( { page, requestUtils } ) => {
			const gone = seedData.places[ 5 ]!;
			await requestUtils.rest( {
				method: 'POST',
				path: `/wp/v2/cairn-markers/${ gone.id }`,
				data: { status: 'draft' },
				timeout: 180_000,
			} );
			try {
				// Drawn from its tiles (a whole-feed map would drop the place too): the tile cache
				// and the places answers must forget it.
				const seen = recordRequests( page );
				await openMap( page );
				await expect
					.poll( async () => ( await drawnMarkers( page ) ).total, {
						timeout: SLOW,
					} )
					.toBe( COUNT - 1 );
				expect( seen.tiles.length ).toBeGreaterThan( 0 );
				expect( seen.markers ).toEqual( [] );
				const since = await placesEventCount( page );
				const word = gone.title.split( ' ' )[ 0 ]!;
				await host( page )
					.locator( 'input[type="search"]' )
					.fill( word );
				const change = await waitForPlacesChange(
					page,
					since,
					{
						search: word,
					},
					SLOW
				);
				expect( change.total ).toBe( 0 );
			} finally {
				await requestUtils.rest( {
					method: 'POST',
					path: `/wp/v2/cairn-markers/${ gone.id }`,
					data: { status: 'publish' },
					timeout: 180_000,
				} );
			}
		}
	);
} );
