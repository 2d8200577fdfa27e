/**
 * Proves the harness: the saved admin session works in the browser and over REST, and a
 * visitor context really is anonymous on the Playground site (its auto-login is switched off).
 */
import { test, expect } from '@wordpress/e2e-test-utils-playwright';

import { AUTO_LOGIN_COOKIE, VISITOR_STATE } from './global-setup';

test.describe( 'e2e harness', () => {
	test( 'an admin sees Cairn Maps active on the plugins screen', async ( {
		page,
	} ) => {
		await page.goto( '/wp-admin/plugins.php' );

		await expect( page ).toHaveURL( /\/wp-admin\/plugins\.php/ );
		const row = page.locator( 'tr[data-plugin]', {
			has: page.locator( '.plugin-title strong', {
				hasText: /^Cairn Maps$/,
			} ),
		} );
		await expect( row ).toHaveCount( 1 );
		await expect( row ).toHaveClass( /\bactive\b/ );
	} );

	test( 'the REST session sees Cairn Maps active', async ( {
		requestUtils,
	} ) => {
		const plugins = ( await requestUtils.rest( {
			path: '/wp/v2/plugins',
		} ) ) as Array< {
			name: string;
			status: string;
		} >;

		expect(
			plugins.find( ( plugin ) => plugin.name === 'Cairn Maps' )?.status
		).toBe( 'active' );
	} );

	test( 'a visitor context gets no logged-in cookie', async ( {
		playwright,
		baseURL,
	} ) => {
		const visitor = await playwright.request.newContext( {
			baseURL,
			storageState: VISITOR_STATE,
		} );

		const response = await visitor.get( '/', { maxRedirects: 0 } );
		const cookies = ( await visitor.storageState() ).cookies.map(
			( cookie ) => cookie.name
		);

		expect( response.status() ).toBe( 200 );
		expect( cookies ).toContain( AUTO_LOGIN_COOKIE );
		expect(
			cookies.filter( ( name ) =>
				name.startsWith( 'wordpress_logged_in_' )
			)
		).toEqual( [] );
		await visitor.dispose();
	} );
} );
