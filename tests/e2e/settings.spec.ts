/**
 * Site-owner set-up: Settings → Cairn Maps, the token placeholder in the editor, defaults for new
 * blocks, and click-to-load consent on the front end. Mapbox is the offline maps service.
 */
import type { RequestUtils } from '@wordpress/e2e-test-utils-playwright';

import { VISITOR_STATE } from './global-setup';
import { test, expect, FAKE_PUBLIC_TOKEN } from './fixtures/maps-service';

const SETTINGS_URL = '/wp-admin/options-general.php?page=cairn-maps';
const SECRET_TOKEN = `sk.${ Buffer.from( '{"u":"cairn-test"}' ).toString(
	'base64url'
) }.c2VjcmV0LXNpZ25hdHVyZQ`;
const TEMPORARY_TOKEN = `tk.${ Buffer.from(
	'{"u":"cairn-test","exp":1}'
).toString( 'base64url' ) }.dGVtcG9yYXJ5`;
const MALFORMED_TOKEN = 'pk.this-is-not-a-token';

const BUILTIN_DEFAULTS = {
	mapStyle: 'mapbox://styles/mapbox/standard',
	language: 'auto',
	controls: {
		zoom: true,
		compass: true,
		scale: false,
		fullscreen: true,
		geolocate: false,
	},
};

interface PluginSettings {
	cairn_maps_access_token: string;
	cairn_maps_basemap: string;
	cairn_maps_defaults: typeof BUILTIN_DEFAULTS;
	cairn_maps_require_consent: boolean;
	cairn_maps_delete_data_on_uninstall: boolean;
	cairn_maps_allowed_origins: string[];
}

async function readSettings(
	requestUtils: RequestUtils
): Promise< PluginSettings > {
	return ( await requestUtils.rest( {
		path: '/wp/v2/settings',
	} ) ) as PluginSettings;
}

async function writeSettings(
	requestUtils: RequestUtils,
	data: Partial< PluginSettings >
): Promise< void > {
	await requestUtils.rest( {
		method: 'POST',
		path: '/wp/v2/settings',
		data,
	} );
}

let original: PluginSettings;

test.beforeAll( async ( { requestUtils } ) => {
	original = await readSettings( requestUtils );
} );

test.afterAll( async ( { requestUtils } ) => {
	await writeSettings( requestUtils, {
		cairn_maps_access_token: original.cairn_maps_access_token,
		cairn_maps_basemap: original.cairn_maps_basemap,
		cairn_maps_defaults: original.cairn_maps_defaults,
		cairn_maps_require_consent: original.cairn_maps_require_consent,
		cairn_maps_delete_data_on_uninstall:
			original.cairn_maps_delete_data_on_uninstall,
		cairn_maps_allowed_origins: original.cairn_maps_allowed_origins,
	} );
	await requestUtils.deleteAllPosts();
} );

test.describe( 'Settings → Cairn Maps', () => {
	test.beforeEach( async ( { requestUtils } ) => {
		await writeSettings( requestUtils, {
			cairn_maps_access_token: '',
			cairn_maps_basemap: '',
			cairn_maps_defaults: BUILTIN_DEFAULTS,
			cairn_maps_require_consent: false,
			cairn_maps_allowed_origins: [],
		} );
	} );

	test( 'checks the token as it is typed and saves a public one', async ( {
		page,
		requestUtils,
	} ) => {
		await page.goto( SETTINGS_URL );
		const field = page.getByLabel( 'Mapbox access token' );
		const verdict = page.locator( '[data-token-verdict]' );
		const save = page.getByRole( 'button', { name: 'Save changes' } );
		await expect( field ).toHaveValue( '' );

		await field.fill( SECRET_TOKEN );
		await expect( verdict ).toHaveAttribute(
			'data-token-verdict',
			'secret'
		);
		await expect( verdict ).toContainText( 'Only a public token' );
		await expect( verdict ).toContainText( 'copy it from your pages' );
		await expect( save ).toBeDisabled();

		await field.fill( TEMPORARY_TOKEN );
		await expect( verdict ).toHaveAttribute(
			'data-token-verdict',
			'temporary'
		);
		await expect( verdict ).toContainText( 'temporary token' );
		await expect( save ).toBeDisabled();

		await field.fill( MALFORMED_TOKEN );
		await expect( verdict ).toHaveAttribute(
			'data-token-verdict',
			'malformed'
		);
		await expect( verdict ).toContainText(
			'does not look like a Mapbox access token'
		);
		await expect( save ).toBeDisabled();

		await field.fill( `  ${ FAKE_PUBLIC_TOKEN } ` );
		await expect( verdict ).toHaveAttribute(
			'data-token-verdict',
			'public'
		);
		await expect( verdict ).toHaveText(
			'Token of Mapbox account “cairn-test”.'
		);
		await expect( save ).toBeEnabled();

		await save.click();
		await expect(
			page.locator( '.cairn-maps-settings__notice' )
		).toContainText(
			'Settings saved. Maps use the token of Mapbox account “cairn-test”.'
		);
		expect(
			( await readSettings( requestUtils ) ).cairn_maps_access_token
		).toBe( FAKE_PUBLIC_TOKEN );

		await page.reload();
		await expect( page.getByLabel( 'Mapbox access token' ) ).toHaveValue(
			FAKE_PUBLIC_TOKEN
		);
		await expect( page.locator( '[data-token-verdict]' ) ).toHaveText(
			'Token of Mapbox account “cairn-test”.'
		);
	} );

	test( 'the server refuses a secret token again and keeps the stored one', async ( {
		requestUtils,
	} ) => {
		await writeSettings( requestUtils, {
			cairn_maps_access_token: FAKE_PUBLIC_TOKEN,
		} );
		for ( const token of [
			SECRET_TOKEN,
			TEMPORARY_TOKEN,
			MALFORMED_TOKEN,
		] ) {
			const error = await writeSettings( requestUtils, {
				cairn_maps_access_token: token,
			} ).then(
				() => null,
				( caught: unknown ) =>
					caught as {
						code?: string;
						message?: string;
						data?: { status?: number };
					}
			);
			expect( error, token ).not.toBeNull();
			expect( error?.code ).toMatch( /^cairn_maps_token_/ );
			expect( error?.data?.status ).toBe( 400 );
			expect( JSON.stringify( error ) ).not.toContain( token );
		}
		expect(
			( await readSettings( requestUtils ) ).cairn_maps_access_token
		).toBe( FAKE_PUBLIC_TOKEN );
	} );

	test( 'saves the basemap, the defaults for new maps and the privacy choices', async ( {
		page,
		requestUtils,
	} ) => {
		await page.goto( SETTINGS_URL );
		await expect(
			page.getByText( /Automatic: OpenFreeMap Liberty/ )
		).toBeVisible();
		await page.getByLabel( 'OpenFreeMap (no key)' ).check();
		await page
			.getByLabel( 'OpenFreeMap style' )
			.selectOption( { label: 'Positron' } );
		await page
			.getByLabel( 'Label language' )
			.selectOption( { label: 'French' } );
		await page.getByLabel( 'Scale bar' ).check();
		await page.getByLabel( 'Compass' ).uncheck();
		await page
			.getByLabel( 'Load maps only after the visitor agrees' )
			.check();
		await page.getByRole( 'button', { name: 'Save changes' } ).click();
		await expect(
			page.locator( '.cairn-maps-settings__notice' )
		).toContainText( 'Settings saved.' );

		const saved = await readSettings( requestUtils );
		expect( saved.cairn_maps_basemap ).toBe(
			'https://tiles.openfreemap.org/styles/positron'
		);
		// The style of new maps is the basemap: the defaults keep block.json's.
		expect( saved.cairn_maps_defaults ).toEqual( {
			mapStyle: BUILTIN_DEFAULTS.mapStyle,
			language: 'fr',
			controls: {
				...BUILTIN_DEFAULTS.controls,
				scale: true,
				compass: false,
			},
		} );
		expect( saved.cairn_maps_require_consent ).toBe( true );
		expect( saved.cairn_maps_delete_data_on_uninstall ).toBe( false );

		await page.reload();
		await expect( page.getByLabel( 'OpenFreeMap style' ) ).toHaveValue(
			'https://tiles.openfreemap.org/styles/positron'
		);
		await expect( page.getByLabel( 'Label language' ) ).toHaveValue( 'fr' );
		await expect( page.getByLabel( 'Scale bar' ) ).toBeChecked();
		await expect(
			page.getByLabel( 'Load maps only after the visitor agrees' )
		).toBeChecked();
	} );

	test( 'checks the allowed origins as they are typed and saves them normalised', async ( {
		page,
		requestUtils,
	} ) => {
		await page.goto( SETTINGS_URL );
		const field = page.getByLabel( 'Allowed origins' );
		const save = page.getByRole( 'button', { name: 'Save changes' } );
		await expect( field ).toHaveValue( '' );
		await expect( field ).toHaveAccessibleDescription(
			/any site may read the map data/
		);

		await field.fill(
			'https://App.Example.com/\nhttps://*.example.com\n\nhttps://a.example/maps'
		);
		await expect( field ).toHaveAttribute( 'aria-invalid', 'true' );
		await expect( page.locator( '[data-origin-line="2"]' ) ).toContainText(
			'Line 2: Wildcards are not accepted'
		);
		await expect( page.locator( '[data-origin-line="4"]' ) ).toContainText(
			'https://a.example'
		);
		await expect( page.locator( '[data-origin-line]' ) ).toHaveCount( 2 );
		await expect( save ).toBeDisabled();
		await expect(
			page.locator( '.cairn-maps-settings__blocked' )
		).toHaveText( 'Fix the allowed origins before saving.' );

		await field.fill( 'https://App.Example.com/\nhttp://localhost:5173' );
		await expect( field ).toHaveAttribute( 'aria-invalid', 'false' );
		await expect( save ).toBeEnabled();
		await save.click();
		await expect(
			page.locator( '.cairn-maps-settings__notice' )
		).toContainText( 'Settings saved.' );
		await expect( field ).toHaveValue(
			'https://app.example.com\nhttp://localhost:5173'
		);
		expect(
			( await readSettings( requestUtils ) ).cairn_maps_allowed_origins
		).toEqual( [ 'https://app.example.com', 'http://localhost:5173' ] );
	} );

	test( 'the server refuses a bad origin again and keeps the stored list', async ( {
		requestUtils,
	} ) => {
		await writeSettings( requestUtils, {
			cairn_maps_allowed_origins: [ 'https://app.example.com' ],
		} );
		const error = await writeSettings( requestUtils, {
			cairn_maps_allowed_origins: [ 'null' ],
		} ).then(
			() => null,
			( caught: unknown ) =>
				caught as { code?: string; data?: { status?: number } }
		);
		expect( error?.code ).toBe( 'cairn_maps_origin_null' );
		expect( error?.data?.status ).toBe( 400 );
		expect(
			( await readSettings( requestUtils ) ).cairn_maps_allowed_origins
		).toEqual( [ 'https://app.example.com' ] );
	} );

	test( 'a basemap style URL must be https, and the server says so too', async ( {
		page,
		requestUtils,
	} ) => {
		await page.goto( SETTINGS_URL );
		await page.getByLabel( 'A MapLibre style URL' ).check();
		const url = page.getByLabel( 'Style URL (https)' );
		const save = page.getByRole( 'button', { name: 'Save changes' } );
		await url.fill( 'http://tiles.example.org/style.json' );
		await expect( save ).toBeDisabled();
		await expect(
			page.locator( '.cairn-maps-settings__field-error' )
		).toContainText( 'must start with https://' );
		await url.fill( 'https://tiles.example.org/style.json' );
		await expect( save ).toBeEnabled();

		const error = await writeSettings( requestUtils, {
			cairn_maps_basemap: 'http://tiles.example.org/style.json',
		} ).then(
			() => null,
			( caught: unknown ) =>
				caught as { code?: string; data?: { status?: number } }
		);
		expect( error?.code ).toBe( 'cairn_maps_invalid_basemap' );
		expect( error?.data?.status ).toBe( 400 );
		expect(
			( await readSettings( requestUtils ) ).cairn_maps_basemap
		).toBe( '' );
	} );
} );

test.describe( 'the map block without a token', () => {
	test.beforeEach( async ( { page, requestUtils } ) => {
		// The editor's welcome guide can open late, over the canvas: close it whenever it does.
		await page.addLocatorHandler(
			page.getByRole( 'dialog', { name: /welcome/i } ),
			async ( dialog ) => {
				await dialog.getByRole( 'button', { name: 'Close' } ).click();
			}
		);
		// An owner who chose Mapbox as the basemap and has no token yet (with the automatic
		// basemap, a site without a token draws OpenFreeMap on MapLibre: engines.spec.ts).
		await writeSettings( requestUtils, {
			cairn_maps_access_token: '',
			cairn_maps_basemap: 'mapbox://styles/mapbox/standard',
			cairn_maps_defaults: BUILTIN_DEFAULTS,
		} );
	} );

	test( 'explains what is missing and takes the token right there', async ( {
		admin,
		editor,
		requestUtils,
		mapsService,
	} ) => {
		await admin.createNewPost();
		await editor.insertBlock( { name: 'cairn/map' } );

		const placeholder = editor.canvas.locator(
			'.wp-block-cairn-map__token-placeholder'
		);
		await expect( placeholder ).toContainText(
			'This map needs a public Mapbox access token'
		);
		await expect(
			placeholder.getByRole( 'link', {
				name: 'Open Settings → Cairn Maps',
			} )
		).toHaveAttribute( 'href', /options-general\.php\?page=cairn-maps/ );

		const field = placeholder.getByLabel( 'Public Mapbox access token' );
		const save = placeholder.getByRole( 'button', { name: 'Save token' } );
		await field.fill( SECRET_TOKEN );
		await expect( placeholder ).toContainText( 'Only a public token' );
		await expect( save ).toBeDisabled();
		expect( mapsService.requests ).toEqual( [] );

		await field.fill( FAKE_PUBLIC_TOKEN );
		await expect( placeholder ).toContainText( '“cairn-test”' );
		await save.click();

		// The editor queues many requests on the one PHP worker: the save may wait its turn.
		await expect( placeholder ).toHaveCount( 0, { timeout: 90_000 } );
		expect(
			( await readSettings( requestUtils ) ).cairn_maps_access_token
		).toBe( FAKE_PUBLIC_TOKEN );
		// The live preview starts with the token just saved.
		await expect
			.poll( () => mapsService.tokensSeen() )
			.toContain( FAKE_PUBLIC_TOKEN );
	} );

	test( 'new blocks from the inserter start with the site defaults', async ( {
		admin,
		editor,
		page,
		requestUtils,
	} ) => {
		// The style of new blocks is the site's basemap (block.json's style stands for it).
		const defaults = {
			mapStyle: BUILTIN_DEFAULTS.mapStyle,
			language: 'de',
			controls: { ...BUILTIN_DEFAULTS.controls, geolocate: true },
		};
		await writeSettings( requestUtils, {
			cairn_maps_access_token: FAKE_PUBLIC_TOKEN,
			cairn_maps_defaults: defaults,
		} );
		await admin.createNewPost();
		await editor.canvas
			.getByRole( 'button', { name: 'Add default block' } )
			.click();
		await page.keyboard.type( '/Cairn Map' );
		await expect(
			page.getByRole( 'option', { name: 'Cairn Map' } )
		).toBeVisible();
		await page.keyboard.press( 'Enter' );

		const [ block ] = await editor.getBlocks();
		expect( block?.name ).toBe( 'cairn/map' );
		expect( block?.attributes ).toMatchObject( defaults );
	} );
} );

test.describe( 'click-to-load consent on the front end', () => {
	test.use( { storageState: VISITOR_STATE } );

	test( 'nothing reaches Mapbox before the click; the map loads after it', async ( {
		page,
		requestUtils,
		mapsService,
	} ) => {
		await writeSettings( requestUtils, {
			cairn_maps_access_token: FAKE_PUBLIC_TOKEN,
			cairn_maps_require_consent: true,
		} );
		const post = await requestUtils.createPost( {
			title: 'Consent map',
			content: '<!-- wp:cairn/map /-->',
			status: 'publish',
			date_gmt: new Date().toISOString(),
		} );
		const scripts: string[] = [];
		page.on( 'request', ( request ) => {
			if ( request.resourceType() === 'script' ) {
				scripts.push( request.url() );
			}
		} );

		await page.goto( post.link );
		const map = page.locator( '.wp-block-cairn-map' );
		await expect( map ).toHaveAttribute( 'data-cairn-consent', 'required' );
		const button = map.getByRole( 'button', { name: 'Load map' } );
		await expect( button ).toBeVisible();
		await expect( map ).toContainText( 'IP address' );
		// Time enough for a lazy loader that ignored consent to have started.
		await map.scrollIntoViewIfNeeded();
		await page.waitForLoadState( 'networkidle' );
		expect( mapsService.requests ).toEqual( [] );
		expect(
			scripts.filter( ( url ) => /cairn-map(box|-runtime)/.test( url ) )
		).toEqual( [] );
		await expect( map ).toHaveAttribute( 'data-cairn-state', 'loading' );

		await button.click();
		await expect( map ).toHaveAttribute( 'data-cairn-consent', 'given' );
		await expect(
			map.locator( '.wp-block-cairn-map__consent' )
		).toHaveCount( 0 );
		await expect( map ).toHaveAttribute( 'data-cairn-state', 'ready' );
		expect( mapsService.styleRequests().length ).toBeGreaterThan( 0 );
		expect( mapsService.tokensSeen().filter( Boolean ) ).toEqual( [
			FAKE_PUBLIC_TOKEN,
		] );
	} );
} );
