/**
 * A German site: the owner picks "Deutsch" under Settings → General, and from then on core's
 * admin, the plugin's settings screen, the block inspector and the visitor's page speak German.
 *
 * The site is a site of its own (started for this file, see germanSite()): its wp-content/languages
 * holds Debian's core language files (wordpress-l10n) and everything in
 * tests/fixtures/languages/plugins/: the test translation cairn-maps-de_DE.po compiled by
 * `npm run i18n:fixtures` into the .mo (PHP) and one JSON file per built script, named as
 * WordPress names them (md5 of the script's path in the plugin), as a language pack would be.
 *
 * What each check proves:
 * - settings screen: build/settings/index.js got its JSON file (wp_set_script_translations);
 * - block inspector: build/blocks/map/index.js got its JSON, and block.json's title its
 *   "block title" context from the .mo;
 * - visitor, server: PHP strings (skip link, the list's plural heading) from the .mo;
 * - visitor, runtime: "Orte suchen" only exists in the places panel that the lazily loaded
 *   runtime chunk draws (build/cairn-map-runtime.js): its JSON file is never printed by WordPress
 *   for a script of its own, so plugin/I18n/Script_Translations.php merges it into the view
 *   script's;
 * - visitor, loader: the error the view script shows when the map library cannot be downloaded.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';

import {
	mapsServiceTest as test,
	expect,
	MapsService,
	FAKE_PUBLIC_TOKEN,
} from './fixtures/maps-service';
import { mapBlock, waitForMapState } from './utils/map-page';
import { germanSite, type GermanSite } from './utils/german-site';
import { logInThroughForm } from './utils/log-in';

const ROOT = path.resolve( __dirname, '..', '..' );
const SCREENSHOTS = path.join( ROOT, 'artifacts', 'german' );
/** Playground's installer's administrator (bin/release-site.mjs's ADMIN). */
const ADMIN = { username: 'admin', password: 'password' };

/** The fixture's translations (tests/fixtures/languages/plugins/cairn-maps-de_DE.po). */
const DE = {
	defaults: 'Vorgaben für neue Karten',
	privacy: 'Datenschutz der Karten',
	save: 'Karteneinstellungen sichern',
	blockTitle: 'Cairn-Karte',
	clustering: 'Bündelung',
	groupClose: 'Nahe Markierungen bündeln',
	behaviour: 'Verhalten',
	skip: 'Karte überspringen',
	twoPlaces: '2 Orte auf dieser Karte',
	search: 'Orte suchen',
	mapFailed:
		'Die Karte konnte nicht geladen werden. Bitte versuchen Sie es später erneut.',
};

let site: GermanSite;
let mapUrl = '';
/** Contexts the test opened, closed after it. */
const contexts: BrowserContext[] = [];

/**
 * A browser context of its own on the German site, with the offline maps service routed in, and
 * its page: the owner logged in through the log-in form, or an anonymous visitor.
 */
async function open(
	browser: Browser,
	as: 'owner' | 'visitor'
): Promise< { context: BrowserContext; page: Page } > {
	const context = await browser.newContext( {
		baseURL: site.url,
		storageState: { cookies: [], origins: [] },
	} );
	contexts.push( context );
	await new MapsService().install( context );
	const page = await context.newPage();
	if ( as === 'owner' ) {
		await logInThroughForm( page, ADMIN.username, ADMIN.password );
	}
	return { context, page };
}

/**
 * The REST API as the logged-in owner (the shared RequestUtils always talks to the main e2e site).
 */
async function restAsOwner(
	browser: Browser
): Promise<
	( method: string, route: string, data?: unknown ) => Promise< unknown >
> {
	const { context } = await open( browser, 'owner' );
	const nonce = await (
		await context.request.get(
			'/wp-admin/admin-ajax.php?action=rest-nonce'
		)
	).text();
	return async ( method, route, data ) => {
		const response = await context.request.fetch(
			`/index.php?rest_route=${ encodeURIComponent( route ) }`,
			{ method, data, headers: { 'X-WP-Nonce': nonce } }
		);
		expect( response.ok(), `${ method } ${ route }` ).toBe( true );
		return response.json();
	};
}

async function screenshot( page: Page, name: string ): Promise< void > {
	fs.mkdirSync( SCREENSHOTS, { recursive: true } );
	await page.screenshot( {
		path: path.join( SCREENSHOTS, `${ name }.png` ),
		fullPage: true,
	} );
}

test.describe( 'a German site', () => {
	// The first step builds the zip when build/ is stale and starts a site (≈ 2 min).
	test.describe.configure( { mode: 'serial', timeout: 600_000 } );

	test.beforeAll( async ( { browser } ) => {
		// describe.configure's timeout is the tests'; the hook keeps the default unless told.
		test.setTimeout( 600_000 );
		site = await germanSite();
		const rest = await restAsOwner( browser );
		await rest( 'POST', '/wp/v2/plugins/cairn-maps/cairn-maps', {
			status: 'active',
		} );
		await rest( 'POST', '/wp/v2/settings', {
			cairn_maps_access_token: FAKE_PUBLIC_TOKEN,
		} );
		const ids: number[] = [];
		for ( const [ title, lng, lat ] of [
			[ 'Altstadt', 13.4, 52.52 ],
			[ 'Hafen', 13.45, 52.5 ],
		] as const ) {
			const marker = ( await rest( 'POST', '/wp/v2/cairn-markers', {
				title,
				status: 'publish',
				meta: { cairn_lng: lng, cairn_lat: lat },
			} ) ) as { id: number };
			ids.push( marker.id );
		}
		const page = ( await rest( 'POST', '/wp/v2/pages', {
			title: 'Karte',
			status: 'publish',
			content: mapBlock( {
				center: { lng: 13.42, lat: 52.51 },
				zoom: 10,
				markers: { source: 'ids', groups: [], ids },
			} ),
		} ) ) as { link: string };
		mapUrl = page.link;
		for ( const context of contexts.splice( 0 ) ) {
			await context.close();
		}
	} );

	test.afterEach( async () => {
		for ( const context of contexts.splice( 0 ) ) {
			await context.close();
		}
	} );

	test.afterAll( async () => {
		await site?.stop();
	} );

	test( 'the owner switches the site to German under Settings → General', async ( {
		browser,
	} ) => {
		const { page } = await open( browser, 'owner' );
		await page.goto( '/wp-admin/options-general.php' );
		// Core's language files are installed, so German is offered without a download.
		await page
			.getByRole( 'combobox', { name: 'Site Language' } )
			.selectOption( 'de_DE' );
		await page.getByRole( 'button', { name: 'Save Changes' } ).click();

		// Core's admin answers in German from the next page on.
		await expect( page.getByRole( 'heading', { level: 1 } ) ).toContainText(
			'Allgemein'
		);
		await expect(
			page.locator( '#adminmenu' ).getByText( 'Einstellungen' ).first()
		).toBeVisible();
		await expect(
			page.getByText( 'Einstellungen gespeichert.' )
		).toBeVisible();
		await expect( page.locator( 'html' ) ).toHaveAttribute(
			'lang',
			'de-DE'
		);
	} );

	test( 'the settings screen is German', async ( { browser } ) => {
		const { page } = await open( browser, 'owner' );
		await page.goto( '/wp-admin/options-general.php?page=cairn-maps' );
		// Core's admin menu and our React screen, side by side.
		await expect(
			page.locator( '#adminmenu' ).getByText( 'Einstellungen' ).first()
		).toBeVisible();
		await expect( page.getByText( DE.defaults ) ).toBeVisible();
		await expect( page.getByText( DE.privacy ) ).toBeVisible();
		await expect(
			page.getByRole( 'button', { name: DE.save } )
		).toBeVisible();
		await screenshot( page, 'settings' );
	} );

	test( 'the block inspector is German', async ( { browser } ) => {
		const { page } = await open( browser, 'owner' );
		await page.goto( '/wp-admin/post-new.php?post_type=page' );
		await page.waitForFunction(
			() =>
				( window as unknown as { wp?: { blocks?: unknown } } ).wp
					?.blocks !== undefined
		);
		await page.evaluate( () => {
			const { wp } = window as unknown as {
				wp: {
					blocks: {
						createBlock: ( name: string ) => { clientId: string };
					};
					data: {
						dispatch: ( store: string ) => {
							insertBlocks?: ( blocks: unknown[] ) => void;
							selectBlock?: ( clientId: string ) => void;
							set?: (
								scope: string,
								key: string,
								value: boolean
							) => void;
						};
					};
				};
			};
			wp.data
				.dispatch( 'core/preferences' )
				.set?.( 'core/edit-post', 'welcomeGuide', false );
			// The theme's page patterns ("Choose a pattern") would cover the inspector.
			wp.data
				.dispatch( 'core/preferences' )
				.set?.( 'core', 'enableChoosePatternModal', false );
			const block = wp.blocks.createBlock( 'cairn/map' );
			wp.data.dispatch( 'core/block-editor' ).insertBlocks?.( [ block ] );
			wp.data
				.dispatch( 'core/block-editor' )
				.selectBlock?.( block.clientId );
		} );
		const inspector = page.locator( '.block-editor-block-inspector' );
		await expect(
			inspector.locator( '.block-editor-block-card' )
		).toContainText( DE.blockTitle );
		// The modal of the theme's page patterns opens as the editor mounts when the page was
		// still empty then; the preference above keeps it shut on later loads.
		const patterns = page.locator( '.editor-start-page-options__modal' );
		if ( await patterns.isVisible() ) {
			await page.keyboard.press( 'Escape' );
			await expect( patterns ).toBeHidden();
		}
		await inspector.getByRole( 'button', { name: DE.clustering } ).click();
		await expect(
			inspector.getByRole( 'checkbox', { name: DE.groupClose } )
		).toBeVisible();
		await expect(
			inspector.getByRole( 'button', { name: DE.behaviour } )
		).toBeVisible();
		await screenshot( page, 'inspector' );
	} );

	test( 'the visitor’s page is German, from the server and from the runtime', async ( {
		browser,
	} ) => {
		const { page } = await open( browser, 'visitor' );
		await page.goto( mapUrl );
		const map = page.locator( '.wp-block-cairn-map' ).first();
		// Rendered by PHP, before any script runs.
		await expect(
			map.getByRole( 'link', { name: DE.skip } )
		).toBeAttached();
		await expect( map.getByText( DE.twoPlaces ) ).toBeVisible();

		await map.scrollIntoViewIfNeeded();
		expect( await waitForMapState( map ) ).toBe( 'ready' );
		// Drawn by the places panel of the lazily loaded runtime chunk.
		await expect(
			map.getByRole( 'searchbox', { name: DE.search } )
		).toBeVisible();
		await expect(
			map.getByRole( 'heading', { name: DE.twoPlaces } )
		).toBeVisible();
		await screenshot( page, 'visitor' );
	} );

	test( 'a map whose library cannot be downloaded says so in German', async ( {
		browser,
	} ) => {
		const { page } = await open( browser, 'visitor' );
		await page.route( /\/mapbox-gl-js\/v[^/]+\/mapbox-gl\.js$/, ( route ) =>
			route.abort( 'blockedbyclient' )
		);
		await page.goto( mapUrl );
		const map = page.locator( '.wp-block-cairn-map' ).first();
		await map.scrollIntoViewIfNeeded();
		expect( await waitForMapState( map ) ).toBe( 'error' );
		await expect( map.getByRole( 'alert' ) ).toHaveText( DE.mapFailed );
	} );
} );
