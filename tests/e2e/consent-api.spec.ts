/**
 * The consent gate with the WP Consent API: the map follows the visitor's choice, recorded by a
 * consent banner, for the category the site owner chose (see packages/map/src/watch-maps.ts).
 *
 * The WP Consent API plugin cannot be downloaded here: the site has a STAND-IN of its documented
 * surface instead (tests/fixtures/plugins/wp-consent-api-standin, copied there inactive by
 * bin/start.mjs), which also plays the consent management plugin (consent type opt-in). This spec
 * switches it on over REST for its own tests and off again after them, and puts back the settings
 * it changes, so the other specs' consent tests see today's gate.
 */
import type { Page } from '@playwright/test';
import type { RequestUtils } from '@wordpress/e2e-test-utils-playwright';

import { VISITOR_STATE } from './global-setup';
import { expect, test } from './fixtures/maps-service';
import { FAKE_PUBLIC_TOKEN, mapBlock } from './utils/map-page';
import {
	guardVisitorPages,
	pageCaughtUp,
	publishFrontPage,
} from './utils/front-map';

const STANDIN = 'wp-consent-api-standin/wp-consent-api-standin';
// The runtime chunk and mapbox-gl (from Mapbox's distribution, see load-mapbox-gl.ts).
const LAZY_CHUNK =
	/\/build\/cairn-map-runtime\.js|\/mapbox-gl-js\/v[^/]+\/mapbox-gl\.(js|css)/;
const NO_MARKERS = { source: 'ids', groups: [], ids: [] };

interface ConsentSettings {
	cairn_maps_access_token: string;
	cairn_maps_require_consent: boolean;
	cairn_maps_consent_category: string;
}

declare global {
	interface Window {
		wp_set_consent?: ( category: string, value: 'allow' | 'deny' ) => void;
	}
}

let original: ConsentSettings | null = null;
let url = '';

async function writeSettings(
	requestUtils: RequestUtils,
	data: Partial< ConsentSettings >
): Promise< void > {
	await requestUtils.rest( {
		method: 'POST',
		path: '/wp/v2/settings',
		data,
	} );
}

async function setStandin(
	requestUtils: RequestUtils,
	status: 'active' | 'inactive'
): Promise< void > {
	await requestUtils.rest( {
		method: 'POST',
		path: `/wp/v2/plugins/${ STANDIN }`,
		data: { status },
	} );
}

/** Scripts the page asked for, to see that mapbox-gl and the runtime stayed away. */
function recordScripts( page: Page ): string[] {
	const urls: string[] = [];
	page.on( 'request', ( request ) => urls.push( request.url() ) );
	return urls;
}

/**
 * The moment a loader that ignored the gate would have reached Mapbox: the page has loaded, drawn
 * two frames (the loader's IntersectionObserver has seen the map in view) and a request it made
 * after them has been answered.
 */
async function settle( page: Page ): Promise< void > {
	await page.waitForLoadState( 'load' );
	await pageCaughtUp( page );
}

test.describe( 'consent gate with the WP Consent API (stand-in plugin)', () => {
	test.use( { storageState: VISITOR_STATE } );

	test.beforeAll( async ( { requestUtils } ) => {
		const stored = ( await requestUtils.rest( {
			path: '/wp/v2/settings',
		} ) ) as ConsentSettings;
		original = {
			cairn_maps_access_token: stored.cairn_maps_access_token,
			cairn_maps_require_consent: stored.cairn_maps_require_consent,
			cairn_maps_consent_category: stored.cairn_maps_consent_category,
		};
		await writeSettings( requestUtils, {
			cairn_maps_access_token: FAKE_PUBLIC_TOKEN,
			cairn_maps_require_consent: true,
			cairn_maps_consent_category: 'marketing',
		} );
		await setStandin( requestUtils, 'active' );
		url = await publishFrontPage(
			requestUtils,
			'Consent API spec: a map',
			mapBlock( { height: '300px', markers: NO_MARKERS } )
		);
	} );

	test.afterAll( async ( { requestUtils } ) => {
		await setStandin( requestUtils, 'inactive' );
		if ( original ) {
			await writeSettings( requestUtils, original );
		}
	} );
	guardVisitorPages();

	test( 'the settings screen shows the API and saves the category', async ( {
		browser,
		requestUtils,
	} ) => {
		// The owner's screen: the admin's session, not the visitor's.
		const admin = await browser.newPage( {
			storageState: process.env.STORAGE_STATE_PATH,
		} );
		try {
			await admin.goto( '/wp-admin/options-general.php?page=cairn-maps' );
			await expect(
				admin.getByText( 'WP Consent API: active', { exact: false } )
			).toBeVisible();
			const category = admin.getByLabel( 'Consent category' );
			await expect( category ).toHaveValue( 'marketing' );
			await category.selectOption( 'statistics' );
			await admin.getByRole( 'button', { name: 'Save changes' } ).click();
			await expect(
				admin.locator( '.cairn-maps-settings__notice' )
			).toContainText( 'Settings saved' );
			const saved = ( await requestUtils.rest( {
				path: '/wp/v2/settings',
			} ) ) as ConsentSettings;
			expect( saved.cairn_maps_consent_category ).toBe( 'statistics' );
		} finally {
			await writeSettings( requestUtils, {
				cairn_maps_consent_category: 'marketing',
			} );
			await admin.close();
		}
	} );

	test( 'Cairn Maps declares itself to the API', async ( {
		requestUtils,
	} ) => {
		const answer = ( await requestUtils.rest( {
			path: '/consent-standin/v1/registered',
			params: { plugin: 'cairn-maps/cairn-maps.php' },
		} ) ) as { registered: boolean };
		expect( answer.registered ).toBe( true );
	} );

	test( 'nothing reaches Mapbox before consent; a banner’s wp_set_consent( marketing, allow ) starts the map', async ( {
		page,
		mapsService,
	} ) => {
		const requests = recordScripts( page );
		await page.goto( url );
		const map = page.locator( '.wp-block-cairn-map' );
		await expect( map ).toHaveAttribute( 'data-cairn-consent', 'required' );
		await expect( map ).toHaveAttribute(
			'data-cairn-consent-category',
			'marketing'
		);
		await expect( map ).toContainText( '“Marketing” cookies' );
		await expect(
			map.getByRole( 'button', { name: 'Load map' } )
		).toBeVisible();
		await settle( page );
		expect( mapsService.requests ).toEqual( [] );
		expect( requests.filter( ( r ) => LAZY_CHUNK.test( r ) ) ).toEqual(
			[]
		);
		await expect( map ).toHaveAttribute( 'data-cairn-state', 'loading' );

		// What a consent banner does when the visitor accepts marketing.
		await page.evaluate( () =>
			window.wp_set_consent?.( 'marketing', 'allow' )
		);
		await expect( map ).toHaveAttribute( 'data-cairn-consent', 'given' );
		await expect(
			map.locator( '.wp-block-cairn-map__consent' )
		).toHaveCount( 0 );
		await expect( map ).toHaveAttribute( 'data-cairn-state', 'ready' );
		expect( mapsService.styleRequests().length ).toBeGreaterThan( 0 );
	} );

	test( 'with the owner’s category set to statistics, marketing consent does not start the map', async ( {
		page,
		requestUtils,
		mapsService,
	} ) => {
		await writeSettings( requestUtils, {
			cairn_maps_consent_category: 'statistics',
		} );
		try {
			await page.goto( url );
		} finally {
			await writeSettings( requestUtils, {
				cairn_maps_consent_category: 'marketing',
			} );
		}
		const map = page.locator( '.wp-block-cairn-map' );
		await expect( map ).toHaveAttribute(
			'data-cairn-consent-category',
			'statistics'
		);
		await page.evaluate( () =>
			window.wp_set_consent?.( 'marketing', 'allow' )
		);
		await settle( page );
		expect( mapsService.requests ).toEqual( [] );
		await expect( map ).toHaveAttribute( 'data-cairn-consent', 'required' );
		await expect( map ).toHaveAttribute( 'data-cairn-state', 'loading' );

		await page.evaluate( () =>
			window.wp_set_consent?.( 'statistics', 'allow' )
		);
		await expect( map ).toHaveAttribute( 'data-cairn-state', 'ready' );
	} );

	test( 'with consent already in the cookie the map starts without a click, from the server or a cached page', async ( {
		page,
		context,
		baseURL,
	} ) => {
		// The gated page as a page cache stored it for a visitor without consent.
		const cached = await ( await page.request.get( url ) ).text();
		expect( cached ).toContain( 'data-cairn-consent="required"' );

		await context.addCookies( [
			{
				name: 'wp_consent_marketing',
				value: 'allow',
				url: baseURL ?? url,
			},
		] );
		await page.goto( url );
		const map = page.locator( '.wp-block-cairn-map' );
		// Rendered without the gate: the server asked the API.
		await expect( map ).not.toHaveAttribute( 'data-cairn-consent', /.*/ );
		await expect(
			page.getByRole( 'button', { name: 'Load map' } )
		).toHaveCount( 0 );
		await expect( map ).toHaveAttribute( 'data-cairn-state', 'ready' );

		// The cached copy with the gate: the view script asks the API and starts at once.
		await page.route(
			( address ) => address.href === url,
			( route ) =>
				route.fulfill( {
					status: 200,
					contentType: 'text/html; charset=utf-8',
					body: cached,
				} )
		);
		await page.goto( url );
		await expect( map ).toHaveAttribute( 'data-cairn-consent', 'given' );
		await expect( map ).toHaveAttribute( 'data-cairn-state', 'ready' );
		await expect(
			page.getByRole( 'button', { name: 'Load map' } )
		).toHaveCount( 0 );
	} );

	test( 'the Load map button stays, starts the map and records the consent through the API', async ( {
		page,
		context,
	} ) => {
		await page.goto( url );
		const map = page.locator( '.wp-block-cairn-map' );
		await map.getByRole( 'button', { name: 'Load map' } ).click();
		await expect( map ).toHaveAttribute( 'data-cairn-state', 'ready' );
		const cookies = await context.cookies();
		expect(
			cookies.find( ( cookie ) => cookie.name === 'wp_consent_marketing' )
				?.value
		).toBe( 'allow' );
	} );

	test( 'with the stand-in deactivated the “Load map” button is back, whatever the cookie says', async ( {
		page,
		context,
		requestUtils,
		mapsService,
		baseURL,
	} ) => {
		await setStandin( requestUtils, 'inactive' );
		try {
			await context.addCookies( [
				{
					name: 'wp_consent_marketing',
					value: 'allow',
					url: baseURL ?? url,
				},
			] );
			await page.goto( url );
		} finally {
			await setStandin( requestUtils, 'active' );
		}
		const map = page.locator( '.wp-block-cairn-map' );
		await expect( map ).toHaveAttribute( 'data-cairn-consent', 'required' );
		await expect( map ).not.toHaveAttribute(
			'data-cairn-consent-category',
			/.*/
		);
		const button = map.getByRole( 'button', { name: 'Load map' } );
		await expect( button ).toBeVisible();
		expect(
			await page.evaluate( () => typeof window.wp_set_consent )
		).toBe( 'undefined' );
		await settle( page );
		expect( mapsService.requests ).toEqual( [] );

		await button.click();
		await expect( map ).toHaveAttribute( 'data-cairn-state', 'ready' );
	} );
} );
