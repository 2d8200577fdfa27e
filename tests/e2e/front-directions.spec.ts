/**
 * "Directions" and one set of units (issue 34). A visitor's popup and places list entry link to
 * the map app the owner chose (Settings → Cairn Maps, `cairn_maps_directions`; default
 * OpenStreetMap) with the place's coordinates (a route's start), and no request reaches any map
 * app's host before a link is followed; changing the setting changes the links, and a map's own
 * `directions` wins; without JavaScript the server's list carries the same links. The owner picks
 * the app on the settings screen. The block editor's preview
 * lists a route's length and ascent in the same words as the page (the site's units, which the
 * preview used to leave metric on an en_US site).
 *
 * Contract: DESIGN.md "Places" (`li[data-cairn-marker-id]`), the Directions setting and block
 * attribute (docs/developers.md "Directions").
 */
import type { Page } from '@playwright/test';

import { VISITOR_STATE } from './global-setup';
import { expect, test } from './fixtures/maps-service';
import {
	FAKE_PUBLIC_TOKEN,
	createPublishedPage,
	dismissWelcomeGuide,
	mapBlock,
	saveSettings,
	setToken,
} from './utils/map-page';
import {
	guardVisitorPages,
	publishFrontPage,
	recordMapEvents,
	seedMarkers,
	waitForIdle,
} from './utils/front-map';

const SETTINGS_URL = '/wp-admin/options-general.php?page=cairn-maps';

/** A hut below Ben Nevis, and a track from it up to the summit (elevations in metres). */
const HUT = { title: 'Directions spec Hut', lat: 56.8117, lng: -5.0409 };
const TRACK = [
	[ -5.0409, 56.8117, 70 ],
	[ -5.03, 56.805, 400 ],
	[ -5.02, 56.8, 800 ],
	[ -5.0036, 56.7969, 1345 ],
];
/** The track's start: where its directions lead. */
const TRAILHEAD = { lat: 56.8117, lng: -5.0409 };

type Point = { lat: number; lng: number };

/** Each app's address for a point, as the apps document them. */
const APP_URL = {
	osm: ( p: Point ) =>
		`https://www.openstreetmap.org/directions?route=;${ p.lat },${ p.lng }`,
	google: ( p: Point ) =>
		`https://www.google.com/maps/dir/?api=1&destination=${ p.lat },${ p.lng }`,
	apple: ( p: Point ) =>
		`https://maps.apple.com/?daddr=${ p.lat },${ p.lng }`,
};

/** The hosts of the map apps: nothing may be requested from them before a click. */
const APP_HOSTS =
	/^(?:[a-z0-9-]+\.)*(?:openstreetmap\.org|google\.com|apple\.com)$/;

const ids = { hut: 0, track: 0 };
const pages = { site: '', apple: '', siteId: 0 };

/** Every request of the page to a map app's host. */
function appRequests( page: Page ): string[] {
	const seen: string[] = [];
	page.on( 'request', ( request ) => {
		if ( APP_HOSTS.test( new URL( request.url() ).hostname ) ) {
			seen.push( request.url() );
		}
	} );
	return seen;
}

/** A place's list entry. */
function entry( page: Page, id: number ) {
	return page.locator(
		`.wp-block-cairn-map__places li[data-cairn-marker-id="${ id }"]`
	);
}

/** The href of a place's list entry link and of its popup's link (opened from the entry). */
async function linksOf( page: Page, id: number, title: string ) {
	const listed = entry( page, id ).getByRole( 'link', {
		name: `Directions to ${ title } (opens in a new tab)`,
	} );
	await expect( listed ).toBeVisible();
	await entry( page, id )
		.getByRole( 'button', { name: `Show ${ title } on the map` } )
		.click();
	const popup = page
		.locator( '.mapboxgl-popup' )
		.filter( { hasText: title } )
		.getByRole( 'link', {
			name: `Directions to ${ title } (opens in a new tab)`,
		} );
	await expect( popup ).toBeVisible();
	await expect( popup ).toHaveText( 'Directions' );
	await expect( popup ).toHaveAttribute( 'target', '_blank' );
	await expect( popup ).toHaveAttribute( 'rel', /\bnoopener\b/ );
	return {
		list: await listed.getAttribute( 'href' ),
		popup: await popup.getAttribute( 'href' ),
	};
}

test.beforeAll( async ( { requestUtils } ) => {
	test.setTimeout( 240_000 );
	await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
	await saveSettings( requestUtils, { cairn_maps_directions: 'osm' } );
	[ ids.hut, ids.track ] = ( await seedMarkers( requestUtils, [
		{ ...HUT },
		{
			title: 'Directions spec Track',
			lng: TRACK[ 0 ]![ 0 ]!,
			lat: TRACK[ 0 ]![ 1 ]!,
			geometry: { type: 'LineString', coordinates: TRACK },
		},
	] ) ) as [ number, number ];
	const map = {
		center: { lng: -5.02, lat: 56.804 },
		zoom: 11,
		height: '420px',
		markers: { source: 'ids', groups: [], ids: [ ids.hut, ids.track ] },
		cluster: { enabled: false, radius: 80 },
		places: { search: true, groupFilter: true, followMap: false },
	};
	// Created here, not through publishFrontPage: the editor test opens it by id.
	const site = await createPublishedPage(
		requestUtils,
		'Directions spec: the site’s app',
		mapBlock( map )
	);
	pages.site = site.link;
	pages.siteId = site.id;
	pages.apple = await publishFrontPage(
		requestUtils,
		'Directions spec: Apple Maps',
		mapBlock( { ...map, directions: 'apple' } )
	);
} );

test.afterAll( async ( { requestUtils } ) => {
	await saveSettings( requestUtils, { cairn_maps_directions: 'osm' } );
	if ( pages.siteId ) {
		await requestUtils.rest( {
			method: 'DELETE',
			path: `/wp/v2/pages/${ pages.siteId }`,
			params: { force: true },
		} );
	}
} );

test.describe( 'the owner', () => {
	test( 'picks the app on the settings screen', async ( {
		page,
		requestUtils,
	} ) => {
		await page.goto( SETTINGS_URL );
		const group = page.getByRole( 'group', {
			name: 'Directions open in',
		} );
		// OpenStreetMap until the owner chooses.
		await expect(
			group.getByRole( 'radio', { name: 'OpenStreetMap' } )
		).toBeChecked();
		await group.getByRole( 'radio', { name: 'Apple Maps' } ).check();
		await expect(
			page.getByText( 'Saved. Directions links now open Apple Maps.' )
		).toBeVisible();
		const settings = ( await requestUtils.rest( {
			path: '/wp/v2/settings',
		} ) ) as Record< string, unknown >;
		expect( settings.cairn_maps_directions ).toBe( 'apple' );
	} );

	test( 'the editor’s preview lists the route in the page’s units', async ( {
		admin,
		editor,
		page,
	} ) => {
		await recordMapEvents( page );
		await page.goto( pages.site );
		await waitForIdle( page );
		const config = JSON.parse(
			( await page
				.locator( '.wp-block-cairn-map' )
				.first()
				.getAttribute( 'data-cairn-config' ) ) ?? '{}'
		) as { units?: string };
		const onPage = entry( page, ids.track ).locator(
			'.wp-block-cairn-map__card-route'
		);
		// "1.8 mi, 4,183 ft ascent" on an en_US site, "2.9 km, 1,275 m ascent" elsewhere.
		await expect( onPage ).toHaveText(
			config.units === 'imperial'
				? /^\d+(\.\d)? mi, 4,183 ft ascent/
				: /^\d+(\.\d)? km, 1,275 m ascent/
		);
		const text = ( await onPage.textContent() ) ?? '';

		await admin.editPost( pages.siteId );
		await dismissWelcomeGuide( page );
		const preview = editor.canvas.locator( '.wp-block-cairn-map__preview' );
		await expect( preview ).toHaveAttribute( 'data-cairn-state', 'ready', {
			timeout: 60_000,
		} );
		await expect(
			preview.locator(
				`li[data-cairn-marker-id="${ ids.track }"] .wp-block-cairn-map__card-route`
			)
		).toHaveText( text );
	} );
} );

test.describe( 'directions for visitors', () => {
	test.use( { storageState: VISITOR_STATE } );
	guardVisitorPages();

	test( 'the popup and the list entry link to OpenStreetMap at the place, and nothing is asked of it', async ( {
		page,
		requestUtils,
	} ) => {
		const requests = appRequests( page );
		// The default (the owner's test before chose another).
		await saveSettings( requestUtils, { cairn_maps_directions: 'osm' } );
		await page.goto( pages.site );
		await waitForIdle( page );
		expect( await linksOf( page, ids.hut, HUT.title ) ).toEqual( {
			list: APP_URL.osm( HUT ),
			popup: APP_URL.osm( HUT ),
		} );
		// A route's directions lead to its start.
		expect(
			await entry( page, ids.track )
				.getByRole( 'link', { name: /^Directions to / } )
				.getAttribute( 'href' )
		).toBe( APP_URL.osm( TRAILHEAD ) );
		expect( requests ).toEqual( [] );
	} );

	test( 'another app in the settings changes the links; a map’s own app wins', async ( {
		page,
		requestUtils,
	} ) => {
		const requests = appRequests( page );
		await saveSettings( requestUtils, { cairn_maps_directions: 'google' } );
		await page.goto( pages.site );
		await waitForIdle( page );
		expect( await linksOf( page, ids.hut, HUT.title ) ).toEqual( {
			list: APP_URL.google( HUT ),
			popup: APP_URL.google( HUT ),
		} );

		await page.goto( pages.apple );
		await waitForIdle( page );
		expect( await linksOf( page, ids.hut, HUT.title ) ).toEqual( {
			list: APP_URL.apple( HUT ),
			popup: APP_URL.apple( HUT ),
		} );

		await saveSettings( requestUtils, { cairn_maps_directions: 'none' } );
		await page.goto( pages.site );
		await waitForIdle( page );
		await expect(
			entry( page, ids.hut ).getByRole( 'button', {
				name: `Show ${ HUT.title } on the map`,
			} )
		).toBeVisible();
		await expect(
			page.locator( '.wp-block-cairn-map__places a.cairn-map-directions' )
		).toHaveCount( 0 );
		expect( requests ).toEqual( [] );
	} );

	test( 'without JavaScript, each entry of the server’s list links to the app too', async ( {
		browser,
		requestUtils,
	} ) => {
		await saveSettings( requestUtils, { cairn_maps_directions: 'osm' } );
		const context = await browser.newContext( {
			javaScriptEnabled: false,
			storageState: VISITOR_STATE,
		} );
		try {
			const page = await context.newPage();
			const requests = appRequests( page );
			const link = ( id: number, name: string | RegExp ) =>
				entry( page, id ).getByRole( 'link', { name } );
			await page.goto( pages.site );
			// The server's list: the entry is the place's name, then its way there.
			await expect( entry( page, ids.hut ) ).toHaveText(
				`${ HUT.title } Directions`
			);
			const hut = link(
				ids.hut,
				`Directions to ${ HUT.title } (opens in a new tab)`
			);
			await expect( hut ).toHaveAttribute( 'href', APP_URL.osm( HUT ) );
			await expect( hut ).toHaveAttribute( 'target', '_blank' );
			await expect( hut ).toHaveAttribute( 'rel', /\bnoopener\b/ );
			await expect(
				link( ids.track, /^Directions to Directions spec Track/ )
			).toHaveAttribute( 'href', APP_URL.osm( TRAILHEAD ) );

			// A map's own app wins here as well.
			await page.goto( pages.apple );
			await expect(
				link(
					ids.hut,
					`Directions to ${ HUT.title } (opens in a new tab)`
				)
			).toHaveAttribute( 'href', APP_URL.apple( HUT ) );

			await saveSettings( requestUtils, {
				cairn_maps_directions: 'none',
			} );
			await page.goto( pages.site );
			await expect( entry( page, ids.hut ) ).toHaveText( HUT.title );
			await expect(
				page.locator( '.wp-block-cairn-map__places a' )
			).toHaveCount( 0 );
			expect( requests ).toEqual( [] );
		} finally {
			await context.close();
			await saveSettings( requestUtils, {
				cairn_maps_directions: 'osm',
			} );
		}
	} );
} );
