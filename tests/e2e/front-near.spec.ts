/**
 * "Near a place" for visitors (issue 34), in a real browser over the real site: a visitor types a
 * town into the places panel's "Near" field, chooses 25 (km or mi, the site's units) and the list
 * shows exactly the places within that distance of the point the geocoder gives, nearest first,
 * with the count announced; the address carries the search (`?cairn-near=…&cairn-radius=…`), the
 * back button takes it away and a fresh page view of that address shows it again.
 *
 * The geocoder is the test plugin `cairn-geocoder-fixture` (Nominatim's answers from
 * tests/fixtures/plugins/cairn-geocoder-fixture/answers.php: "Edinburgh" is the Royal Mile,
 * 55.95, -3.1875), asked through the site's `/cairn/v1/geocode/visitor`. Two maps over one seed:
 * 40 places shipped whole (the engine filters them), and 120 places tiled (the test site tiles
 * any selection of 100 places or more with `cairn-tiles-fixture`): the server filters them.
 */
import type { Locator, Page } from '@playwright/test';

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
	distanceKm,
	listedIds,
	publishTrackedPage,
	seedPlaces,
	type SpecPlace,
} from './utils/places';

const TILES = 'cairn-tiles-fixture/cairn-tiles-fixture';
const GEOCODER = 'cairn-geocoder-fixture/cairn-geocoder-fixture';
/** The fixture's "Edinburgh". */
const POINT = { lng: -3.1875, lat: 55.95 };
/** Mapbox's "Edinburgh", as the maps service's stand-in answers (tests/fixtures/mapbox/places.json). */
const MAPBOX_POINT = { lng: -3.19, lat: 55.95 };
/** About 120 km square around it: a 25 km circle holds some places, leaves most out. */
const BOX = { west: -4.19, south: 55.4, east: -2.19, north: 56.5 };
const WHOLE = 40;
const TILED = 120;
const SLOW = 120_000;

interface Seed {
	whole: { places: SpecPlace[]; url: string };
	tiled: { places: SpecPlace[]; url: string };
}

const declared: string[] = [];
const nearTest = ( ( title: string, body: unknown ) => {
	declared.push( title );
	( test as unknown as ( name: string, fn: unknown ) => void )( title, body );
} ) as unknown as typeof test;

let seedData: Seed | null = null;

const host = ( page: Page ): Locator =>
	page.locator( '.wp-block-cairn-map' ).first();

/** The map's units, as its configuration carries them (an en_US site measures in miles). */
async function unitsOf( page: Page ): Promise< 'metric' | 'imperial' > {
	const config = await host( page ).evaluate( ( element ) =>
		JSON.parse( element.getAttribute( 'data-cairn-config' ) ?? '{}' )
	);
	return ( config as { units?: string } ).units === 'imperial'
		? 'imperial'
		: 'metric';
}

/** The places within `km` of the point, nearest first (then by id), as the list must show them. */
function within(
	places: SpecPlace[],
	km: number,
	from: { lng: number; lat: number } = POINT
): number[] {
	return places
		.map( ( place ) => ( { id: place.id, d: distanceKm( from, place ) } ) )
		.filter( ( place ) => place.d <= km )
		.sort( ( a, b ) => a.d - b.d || a.id - b.id )
		.map( ( place ) => place.id );
}

async function openMap( page: Page, url: string ) {
	await page.goto( url );
	await waitForIdle( page );
	await expect(
		host( page ).locator( '.wp-block-cairn-map__near input' )
	).toBeVisible( { timeout: SLOW } );
}

/**
 * Types the town, chooses 25 of the site's unit, finds; resolves with the radius in km.
 * @param page
 */
async function searchNear( page: Page ): Promise< number > {
	const units = await unitsOf( page );
	const form = host( page ).locator( '.wp-block-cairn-map__near' );
	await form.getByLabel( 'Near', { exact: true } ).fill( 'Edinburgh' );
	await form
		.getByLabel( 'within' )
		.selectOption( { label: units === 'imperial' ? '25 mi' : '25 km' } );
	await form.getByRole( 'button', { name: 'Find' } ).click();
	return units === 'imperial' ? 25 * 1.609344 : 25;
}

async function expectListed( page: Page, expected: number[] ) {
	await expect
		.poll( () => listedIds( page ), { timeout: SLOW } )
		.toEqual( expected );
}

test.describe( 'near a place', () => {
	test.use( { storageState: VISITOR_STATE } );
	test.describe.configure( { timeout: 4 * SLOW } );

	let seed: KeptSeed< Seed >;
	let pageErrors: Error[] = [];

	test.beforeAll( async ( { requestUtils, request, baseURL } ) => {
		test.setTimeout( 600_000 );
		for ( const plugin of [ TILES, GEOCODER ] ) {
			await requestUtils.rest( {
				method: 'POST',
				path: `/wp/v2/plugins/${ plugin }`,
				data: { status: 'active' },
				timeout: 180_000,
			} );
		}
		await requestUtils.rest( {
			method: 'POST',
			path: '/wp/v2/settings',
			data: {
				cairn_maps_access_token: FAKE_PUBLIC_TOKEN,
				cairn_maps_geocoder: 'nominatim',
			},
			timeout: 180_000,
		} );
		seed = new KeptSeed< Seed >( 'front-near-spec', baseURL!, declared );
		seedData = await seed.get(
			requestUtils,
			async ( track ) => {
				const page = async (
					title: string,
					slug: string,
					places: SpecPlace[]
				) => ( {
					places,
					url: await publishTrackedPage(
						requestUtils,
						track,
						title,
						mapBlock( {
							center: POINT,
							zoom: 7,
							height: '480px',
							markers: {
								source: 'groups',
								groups: [ slug ],
								ids: [],
							},
							cluster: { enabled: true, radius: 80 },
							places: {
								search: true,
								groupFilter: false,
								followMap: true,
							},
						} )
					),
				} );
				const whole = await seedPlaces(
					requestUtils,
					track,
					[
						{
							slug: 'near-spec-whole',
							name: 'Near spec whole',
							color: '#1f77b4',
						},
					],
					WHOLE,
					BOX,
					( _i, word ) => `${ word } Bothy`
				);
				const tiled = await seedPlaces(
					requestUtils,
					track,
					[
						{
							slug: 'near-spec-tiled',
							name: 'Near spec tiled',
							color: '#2ca02c',
						},
					],
					TILED,
					BOX,
					( _i, word ) => `${ word } Cairn`
				);
				return {
					whole: await page(
						'Near spec: 40 places',
						'near-spec-whole',
						whole.places
					),
					tiled: await page(
						'Near spec: 120 places, tiled',
						'near-spec-tiled',
						tiled.places
					),
				};
			},
			async ( kept ) =>
				(
					await request.get( kept.whole.url, { timeout: 120_000 } )
				).ok()
		);
	} );

	test.afterAll( async ( { requestUtils } ) => {
		test.setTimeout( 600_000 );
		await seed?.finish( requestUtils );
		for ( const plugin of [ TILES, GEOCODER ] ) {
			await requestUtils.rest( {
				method: 'POST',
				path: `/wp/v2/plugins/${ plugin }`,
				data: { status: 'inactive' },
				timeout: 180_000,
			} );
		}
	} );

	test.beforeEach( async ( { page } ) => {
		pageErrors = watchPageErrors( page );
		await recordMapEvents( page );
	} );

	test.afterEach( async ( {}, testInfo ) => {
		seed.ran( testInfo.title );
		expect( pageErrors.map( ( error ) => error.message ) ).toEqual( [] );
	} );

	for ( const kind of [ 'whole', 'tiled' ] as const ) {
		nearTest(
			`${ kind } feed: a town within 25 lists exactly the places within it, nearest first; the address restores it and back takes it away`,
			async ( { page } ) => {
				const map = seedData![ kind ];
				const requests: string[] = [];
				page.on( 'request', ( request ) => {
					const url = decodeURIComponent( request.url() );
					if (
						/\/cairn\/v1\/(places|tiles|geocode|markers)/.test(
							url
						)
					) {
						requests.push( url );
					}
				} );
				await openMap( page, map.url );
				const km = await searchNear( page );
				const expected = within( map.places, km );
				expect( expected.length ).toBeGreaterThan( 2 );
				expect( expected.length ).toBeLessThan( map.places.length / 2 );
				await expectListed( page, expected );
				await expect(
					host( page ).locator( '.wp-block-cairn-map__status' )
				).toHaveText(
					new RegExp(
						`^${ expected.length } places within 25 (km|mi) of “Edinburgh”\\.$`
					),
					{ timeout: SLOW }
				);
				await expect(
					host( page ).locator( '.wp-block-cairn-map__list-title' )
				).toContainText( 'nearest first' );
				// Each entry tells its distance, in the site's unit.
				await expect(
					host( page )
						.locator(
							'.wp-block-cairn-map__list > li .wp-block-cairn-map__distance'
						)
						.first()
				).toHaveText( /\d (km|mi|m|ft)$/ );
				// The place was looked up through the site, never from the browser.
				expect(
					requests.filter( ( url ) =>
						url.includes( '/cairn/v1/geocode/visitor?q=Edinburgh' )
					)
				).toHaveLength( 1 );
				if ( kind === 'tiled' ) {
					const metres = String( Math.round( km * 1000 ) );
					expect(
						requests.some(
							( url ) =>
								url.includes( '/cairn/v1/places?' ) &&
								url.includes( `radius=${ metres }` ) &&
								url.includes( 'near=-3.1875,55.95' )
						)
					).toBe( true );
					expect(
						requests.some(
							( url ) =>
								url.includes( '/cairn/v1/tiles/' ) &&
								url.includes( `near_radius=${ metres }` )
						)
					).toBe( true );
				} else {
					expect(
						requests.some( ( url ) =>
							url.includes( '/cairn/v1/places' )
						)
					).toBe( false );
				}
				const address = new URL( page.url() );
				expect( address.searchParams.get( 'cairn-near' ) ).toBe(
					'-3.1875,55.95|Edinburgh'
				);
				expect(
					Number( address.searchParams.get( 'cairn-radius' ) )
				).toBeCloseTo( km, 2 );

				// Back: every place again; forward: the search again.
				await page.goBack();
				await expect
					.poll( () =>
						new URL( page.url() ).searchParams.has( 'cairn-near' )
					)
					.toBe( false );
				await expect
					.poll( async () => ( await listedIds( page ) ).length, {
						timeout: SLOW,
					} )
					.not.toBe( expected.length );
				await page.goForward();
				await expectListed( page, expected );

				// A fresh page view of the address shows the same search, without asking the
				// geocoder again (the address carries the point).
				const lookups = requests.length;
				await page.goto( address.toString() );
				await waitForIdle( page );
				await expectListed( page, expected );
				await expect(
					host( page ).locator( '.wp-block-cairn-map__near input' )
				).toHaveValue( 'Edinburgh' );
				expect(
					requests
						.slice( lookups )
						.filter( ( url ) => url.includes( '/geocode/' ) )
				).toEqual( [] );
			}
		);
	}

	nearTest(
		'whole feed, Mapbox as the site’s geocoder: the town is looked up from the browser with the public token, temporarily, and the site is not asked',
		async ( { page, requestUtils, mapsService } ) => {
			await requestUtils.rest( {
				method: 'POST',
				path: '/wp/v2/settings',
				data: { cairn_maps_geocoder: 'mapbox-permanent' },
				timeout: 180_000,
			} );
			try {
				const map = seedData!.whole;
				const site: string[] = [];
				page.on( 'request', ( request ) => {
					if ( request.url().includes( '/cairn/v1/geocode' ) ) {
						site.push( request.url() );
					}
				} );
				await openMap( page, map.url );
				const km = await searchNear( page );
				const expected = within( map.places, km, MAPBOX_POINT );
				expect( expected.length ).toBeGreaterThan( 2 );
				await expectListed( page, expected );
				// One lookup, Mapbox's forward geocoding with the map's public token, without
				// `permanent` (temporary results, which may not be stored), and none through the site.
				const lookups = mapsService.requestsOf( 'geocoding' );
				expect( lookups ).toHaveLength( 1 );
				const asked = new URL( lookups[ 0 ]!.url );
				expect( asked.host ).toBe( 'api.mapbox.com' );
				expect( asked.pathname ).toBe( '/search/geocode/v6/forward' );
				expect( asked.searchParams.get( 'q' ) ).toBe( 'Edinburgh' );
				expect( asked.searchParams.has( 'permanent' ) ).toBe( false );
				expect( lookups[ 0 ]!.token ).toBe( FAKE_PUBLIC_TOKEN );
				expect( site ).toEqual( [] );
				// The address carries Mapbox's point.
				expect(
					new URL( page.url() ).searchParams.get( 'cairn-near' )
				).toBe( '-3.19,55.95|Edinburgh' );
			} finally {
				await requestUtils.rest( {
					method: 'POST',
					path: '/wp/v2/settings',
					data: { cairn_maps_geocoder: 'nominatim' },
					timeout: 180_000,
				} );
			}
		}
	);
} );
