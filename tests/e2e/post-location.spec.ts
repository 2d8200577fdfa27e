/**
 * A post's "Location" panel (issue 24): an editor finds an address with the search (the
 * geocoder fixture), moves the point by dragging it on the small map, and publishes; the stored
 * meta is read back over REST. A latitude out of range is refused by the server with its message
 * and nothing is published. Pages (not enabled by default) get no panel until the owner enables
 * them in Settings → Cairn Maps.
 */
import type { Locator, Page } from '@playwright/test';
import type {
	Editor,
	RequestUtils,
} from '@wordpress/e2e-test-utils-playwright';

import { VISITOR_STATE } from './global-setup';
import { expect, test } from './fixtures/maps-service';
import {
	mapSettled,
	pixelOf,
	publish,
	publishBeyondThePole,
	watchLocationPage,
} from './utils/location-panel';
import { FAKE_PUBLIC_TOKEN, setToken } from './utils/map-page';
import { screenshotPath } from './utils/screenshots';

/** How long publishing may take (Playground's single PHP worker). */
const PUBLISH_TIMEOUT = 180_000;

const GEOCODER_FIXTURE = 'cairn-geocoder-fixture/cairn-geocoder-fixture';
const SETTINGS_URL = '/wp-admin/options-general.php?page=cairn-maps';
const CALTON_HILL =
	'Calton Hill, New Town, Edinburgh, City of Edinburgh, Scotland, EH7 5AA, United Kingdom';

interface PostRecord {
	id: number;
	status: string;
	meta: Record< string, unknown >;
}

async function setPlugin(
	requestUtils: RequestUtils,
	plugin: string,
	status: 'active' | 'inactive'
): Promise< void > {
	await requestUtils.rest( {
		method: 'POST',
		path: `/wp/v2/plugins/${ plugin }`,
		data: { status },
	} );
}

async function setPostTypes(
	requestUtils: RequestUtils,
	types: string[]
): Promise< void > {
	await requestUtils.rest( {
		method: 'POST',
		path: '/wp/v2/settings',
		data: { cairn_maps_post_types: types },
	} );
}

async function storedPost(
	requestUtils: RequestUtils,
	type: 'posts' | 'pages',
	id: number
): Promise< PostRecord > {
	return ( await requestUtils.rest( {
		path: `/wp/v2/${ type }/${ id }`,
		params: { context: 'edit' },
	} ) ) as PostRecord;
}

/** Opens the document sidebar and, when the panel is there, expands "Location". */
async function documentSidebar(
	page: Page,
	editor: Editor
): Promise< Locator > {
	await editor.openDocumentSettingsSidebar();
	return page.getByRole( 'region', { name: 'Editor settings' } );
}

async function locationPanel( page: Page, editor: Editor ): Promise< Locator > {
	const settings = await documentSidebar( page, editor );
	await expandLocation( settings );
	return settings;
}

/**
 * Expands "Location" until it stays open: the editor's preferences can load late on the
 * Playground site (with the welcome guide), and loading them closes panels opened before.
 */
async function expandLocation( settings: Locator, ready?: Locator ) {
	const toggle = settings.getByRole( 'button', {
		name: 'Location',
		exact: true,
	} );
	await expect( async () => {
		if ( ( await toggle.getAttribute( 'aria-expanded' ) ) === 'false' ) {
			await toggle.click();
		}
		await expect( toggle ).toHaveAttribute( 'aria-expanded', 'true' );
		if ( ready ) {
			await expect( ready ).toBeVisible( { timeout: 20_000 } );
		}
	} ).toPass( { timeout: 180_000 } );
}

test.describe( 'post location panel', () => {
	// Saving goes through Playground's single PHP worker: allow for slow answers.
	test.describe.configure( { timeout: 420_000 } );

	test.beforeAll( async ( { requestUtils } ) => {
		await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
		await setPostTypes( requestUtils, [ 'post' ] );
		await setPlugin( requestUtils, GEOCODER_FIXTURE, 'active' );
	} );

	test.afterAll( async ( { requestUtils } ) => {
		// The posts published here have public places: they would join other specs' maps of posts.
		await requestUtils.deleteAllPosts();
		await setPlugin( requestUtils, GEOCODER_FIXTURE, 'inactive' );
		await setPostTypes( requestUtils, [ 'post' ] );
	} );

	// Script errors on the page (a crashed panel shows as one).
	let pageErrors: string[] = [];

	test.beforeEach( async ( { page } ) => {
		pageErrors = await watchLocationPage( page );
	} );

	test.afterEach( () => {
		expect( pageErrors ).toEqual( [] );
	} );

	test( 'finds an address, moves the point by dragging, and publishes the location', async ( {
		admin,
		browser,
		editor,
		page,
		requestUtils,
		mapsService,
	}, testInfo ) => {
		const searches: string[] = [];
		page.on( 'request', ( request ) => {
			const url = decodeURIComponent( request.url() );
			if ( url.includes( 'cairn/v1/geocode' ) ) {
				searches.push( url );
			}
		} );
		await admin.createNewPost( { title: 'A walk up Calton Hill' } );
		const settings = await documentSidebar( page, editor );
		const host = settings.locator( '.cairn-maps-location-map' );
		await expandLocation(
			settings,
			settings.locator(
				'.cairn-maps-location-map[data-cairn-state="ready"]'
			)
		);

		// Typing asks nothing of the geocoder (its policy forbids autocomplete); Enter searches.
		const search = settings.getByRole( 'combobox', {
			name: 'Find an address',
		} );
		await search.fill( 'Edinburgh' );
		await expect( settings.getByRole( 'listbox' ) ).toBeHidden();
		expect( searches ).toEqual( [] );
		await search.press( 'Enter' );
		const results = settings.getByRole( 'listbox', {
			name: 'Addresses found',
		} );
		await expect( results.getByRole( 'option' ) ).toHaveCount( 5, {
			timeout: 120_000,
		} );
		expect( searches ).toHaveLength( 1 );
		// The provider's attribution is shown with its results.
		await expect(
			settings.getByText( '© OpenStreetMap contributors' )
		).toBeVisible();
		// The count is announced.
		await expect( page.locator( '#a11y-speak-polite' ) ).toContainText(
			'5 addresses found.'
		);

		// Keyboard: the first result is active; ↓ moves to the second, Enter chooses it.
		await expect( search ).toHaveAttribute( 'aria-activedescendant', /.+/ );
		await search.press( 'ArrowDown' );
		await expect(
			results.getByRole( 'option', { selected: true } )
		).toHaveText( CALTON_HILL );
		await search.press( 'Enter' );
		await expect( results ).toBeHidden();

		const latitude = settings.getByRole( 'textbox', { name: 'Latitude' } );
		const longitude = settings.getByRole( 'textbox', {
			name: 'Longitude',
		} );
		await expect( latitude ).toHaveValue( '55.9553' );
		await expect( longitude ).toHaveValue( '-3.1826' );
		await expect(
			settings.getByRole( 'textbox', { name: 'Address' } )
		).toHaveValue( CALTON_HILL );
		await expect(
			settings.getByRole( 'checkbox', { name: 'Show on maps' } )
		).toBeChecked();

		// The map brings the place into view with its pin; drag the pin 40 px right, 25 px down.
		const pin = host.locator( '.mapboxgl-marker' );
		await expect( pin ).toBeVisible();
		await mapSettled( page );
		// The panel as editors see it (docs/screenshots/ with CAIRN_SCREENSHOTS=1), in a window
		// tall enough to show all of it.
		const viewport = page.viewportSize();
		await page.setViewportSize( { width: 1280, height: 1400 } );
		const panel = page.locator( '.cairn-maps-location-panel' );
		await panel.scrollIntoViewIfNeeded();
		await mapSettled( page );
		await panel.screenshot( {
			path: screenshotPath( 'location-panel.png', testInfo ),
			animations: 'disabled',
		} );
		if ( viewport ) {
			await page.setViewportSize( viewport );
		}
		await pin.scrollIntoViewIfNeeded();
		await mapSettled( page );
		const at = await pixelOf( page, { lat: 55.9553, lng: -3.1826 } );
		const pinBox = ( await pin.boundingBox() )!;
		const from = {
			x: pinBox.x + pinBox.width / 2,
			y: pinBox.y + pinBox.height / 2,
		};
		await page.mouse.move( from.x, from.y );
		await page.mouse.down();
		await page.mouse.move( from.x + 20, from.y + 12, { steps: 5 } );
		await page.mouse.move( from.x + 40, from.y + 25, { steps: 5 } );
		await page.mouse.up();
		await expect( latitude ).not.toHaveValue( '55.9553' );
		const moved = {
			lat: Number( await latitude.inputValue() ),
			lng: Number( await longitude.inputValue() ),
		};
		const to = await pixelOf( page, moved );
		expect( Math.abs( to.x - at.x - 40 ) ).toBeLessThanOrEqual( 3 );
		expect( Math.abs( to.y - at.y - 25 ) ).toBeLessThanOrEqual( 3 );
		// Dragged south-east of the hill.
		expect( moved.lat ).toBeLessThan( 55.9553 );
		expect( moved.lng ).toBeGreaterThan( -3.1826 );

		// The address of the moved point, looked up on request (reverse geocoding).
		const address = settings.getByRole( 'textbox', { name: 'Address' } );
		await address.fill( '' );
		await settings
			.getByRole( 'button', { name: 'Find the address of this point' } )
			.click();
		await expect( address ).toHaveValue( CALTON_HILL, {
			timeout: 120_000,
		} );
		await expect(
			settings.getByText( `Address found: ${ CALTON_HILL }` )
		).toBeVisible();
		const reverse = searches.filter( ( url ) => url.includes( 'lat=' ) );
		expect( reverse ).toHaveLength( 1 );
		expect( reverse[ 0 ] ).toContain( `lat=${ moved.lat }` );

		const id = await publish( page, PUBLISH_TIMEOUT );
		const stored = await storedPost( requestUtils, 'posts', id );
		expect( stored.status ).toBe( 'publish' );
		expect( stored.meta.geo_latitude as number ).toBeCloseTo(
			moved.lat,
			6
		);
		expect( stored.meta.geo_longitude as number ).toBeCloseTo(
			moved.lng,
			6
		);
		expect( stored.meta.geo_address ).toBe( CALTON_HILL );
		expect( stored.meta.geo_public ).toBe( true );
		expect( searches ).toHaveLength( 2 );
		expect( mapsService.unexpected ).toEqual( [] );

		// A visitor reads the public location from core's REST answer.
		const visitor = await browser.newContext( {
			storageState: VISITOR_STATE,
		} );
		try {
			const anonymous = await visitor.request.get(
				`${ new URL( page.url() ).origin }/wp-json/wp/v2/posts/${ id }`
			);
			expect( anonymous.status() ).toBe( 200 );
			expect(
				( ( await anonymous.json() ) as PostRecord ).meta.geo_address
			).toBe( CALTON_HILL );
		} finally {
			await visitor.close();
		}
	} );

	test( 'says when nothing is found and when the search service fails', async ( {
		admin,
		editor,
		page,
	} ) => {
		await admin.createNewPost( { title: 'Nowhere yet' } );
		const settings = await locationPanel( page, editor );
		const search = settings.getByRole( 'combobox', {
			name: 'Find an address',
		} );
		await search.fill( 'a place nobody has heard of' );
		await settings.getByRole( 'button', { name: 'Search' } ).click();
		await expect(
			settings.getByText( 'No address found. Try fewer words' )
		).toBeVisible( { timeout: 120_000 } );

		await search.fill( 'fixture 500' );
		await search.press( 'Enter' );
		await expect(
			settings.locator( '.components-notice' ).filter( {
				hasText: 'The address search service could not answer.',
			} )
		).toBeVisible( { timeout: 30_000 } );
		await expect(
			settings.getByRole( 'textbox', { name: 'Latitude' } )
		).toHaveValue( '' );
	} );

	test( 'a latitude out of range is flagged, refused by the server, and nothing is published', async ( {
		admin,
		editor,
		page,
		requestUtils,
	} ) => {
		const title = `Beyond the pole ${ Date.now() }`;
		await admin.createNewPost( { title } );
		const settings = await locationPanel( page, editor );
		await publishBeyondThePole(
			page,
			settings,
			'Latitude (geo_latitude) must be a number between -90 and 90.',
			180_000
		);
		const published = ( await requestUtils.rest( {
			path: '/wp/v2/posts',
			params: { search: title, status: 'publish' },
		} ) ) as PostRecord[];
		expect( published ).toEqual( [] );
		const id = await page.evaluate( () =>
			(
				window as unknown as {
					wp: {
						data: {
							select: ( store: string ) => {
								getCurrentPostId: () => number;
							};
						};
					};
				}
			 ).wp.data
				.select( 'core/editor' )
				.getCurrentPostId()
		);
		const stored = await storedPost( requestUtils, 'posts', id );
		expect( stored.status ).not.toBe( 'publish' );
		expect( stored.meta.geo_latitude ?? null ).toBeNull();
		expect( stored.meta.geo_longitude ?? null ).toBeNull();
	} );

	test( 'the marker sidebar finds an address too, and keeps it', async ( {
		admin,
		editor,
		page,
		requestUtils,
	} ) => {
		await admin.createNewPost( {
			postType: 'cairn_marker',
			title: 'Viewpoint',
		} );
		const settings = await locationPanel( page, editor );
		const search = settings.getByRole( 'combobox', {
			name: 'Find an address',
		} );
		await search.fill( 'Calton Hill' );
		await search.press( 'Enter' );
		await expect(
			settings.getByRole( 'option', { name: CALTON_HILL } )
		).toBeVisible( { timeout: 120_000 } );
		await search.press( 'Enter' );
		await expect(
			settings.getByRole( 'textbox', { name: 'Latitude' } )
		).toHaveValue( '55.9553' );
		await expect(
			settings.getByRole( 'textbox', { name: 'Address' } )
		).toHaveValue( CALTON_HILL );
		const id = await publish( page, PUBLISH_TIMEOUT );
		const stored = ( await requestUtils.rest( {
			path: `/wp/v2/cairn-markers/${ id }`,
			params: { context: 'edit' },
		} ) ) as PostRecord;
		expect( stored.meta ).toMatchObject( {
			cairn_lat: 55.9553,
			cairn_lng: -3.1826,
			geo_address: CALTON_HILL,
		} );
	} );

	test( 'pages get the panel only once the owner enables them', async ( {
		admin,
		editor,
		page,
		requestUtils,
	} ) => {
		const scripts: string[] = [];
		page.on( 'request', ( request ) => scripts.push( request.url() ) );
		await admin.createNewPost( { postType: 'page', title: 'About us' } );
		const settings = await documentSidebar( page, editor );
		await expect(
			settings
				.getByRole( 'button', { name: 'Summary' } )
				.or( settings.getByRole( 'button', { name: 'Discussion' } ) )
				.first()
		).toBeVisible();
		await expect(
			settings.getByRole( 'button', { name: 'Location', exact: true } )
		).toHaveCount( 0 );
		expect(
			scripts.filter( ( url ) => url.includes( 'build/locations/' ) )
		).toEqual( [] );

		// The owner enables pages on the settings screen.
		await page.goto( SETTINGS_URL );
		const pages = page.getByRole( 'checkbox', { name: 'Pages' } );
		await expect(
			page.getByRole( 'checkbox', { name: 'Posts' } )
		).toBeChecked();
		await expect( pages ).not.toBeChecked();
		await pages.check();
		await page.getByRole( 'button', { name: 'Save changes' } ).click();
		await expect(
			page
				.locator( '.components-notice' )
				.filter( { hasText: 'Settings saved.' } )
		).toBeVisible( { timeout: 60_000 } );
		const saved = ( await requestUtils.rest( {
			path: '/wp/v2/settings',
		} ) ) as { cairn_maps_post_types: string[] };
		expect( saved.cairn_maps_post_types.sort() ).toEqual( [
			'page',
			'post',
		] );

		await admin.createNewPost( { postType: 'page', title: 'Contact' } );
		const panel = await locationPanel( page, editor );
		await panel
			.getByRole( 'textbox', { name: 'Latitude' } )
			.fill( '48.8566' );
		await panel
			.getByRole( 'textbox', { name: 'Longitude' } )
			.fill( '2.3522' );
		const id = await publish( page, PUBLISH_TIMEOUT );
		const stored = await storedPost( requestUtils, 'pages', id );
		expect( stored.meta ).toMatchObject( {
			geo_latitude: 48.8566,
			geo_longitude: 2.3522,
			geo_public: true,
		} );
	} );
} );
