/**
 * Tools → Import/export markers with addresses: a CSV whose rows have an address and no
 * coordinates is imported as drafts, geocoded in the background by WP-Cron against the geocoder
 * fixture (tests/fixtures/plugins/cairn-geocoder-fixture), with progress on the page and a row
 * report of the address not found. The found markers are published at the fixture's
 * coordinates; the other stays a draft, out of the feed.
 *
 * Playground cannot rely on WP-Cron's loopback spawn, so the test requests /wp-cron.php itself,
 * as a real server's system cron does.
 */
import type { RequestUtils } from '@wordpress/e2e-test-utils-playwright';

import { expect, test } from './fixtures/maps-service';

const FIXTURE = 'cairn-geocoder-fixture/cairn-geocoder-fixture';
const PROGRESS = '/cairn/v1/markers/import/geocoding';

interface MarkerRecord {
	id: number;
	status: string;
	title: { raw: string };
	meta: { cairn_lat: number | null; cairn_lng: number | null };
}

async function markers(
	requestUtils: RequestUtils,
	search: string
): Promise< MarkerRecord[] > {
	return ( await requestUtils.rest( {
		path: '/wp/v2/cairn-markers',
		params: {
			search,
			status: 'publish,draft',
			context: 'edit',
			per_page: 20,
		},
	} ) ) as MarkerRecord[];
}

/** Switches the geocoder fixture plugin on or off. */
async function fixturePlugin(
	requestUtils: RequestUtils,
	status: 'active' | 'inactive'
): Promise< void > {
	await requestUtils.rest( {
		path: `/wp/v2/plugins/${ FIXTURE }`,
		method: 'PUT',
		data: { status },
	} );
}

/** Cancels a job left by an earlier run on a reused site, then forgets it. */
async function noJob( requestUtils: RequestUtils ): Promise< void > {
	for ( let i = 0; i < 2; i++ ) {
		await requestUtils.rest( { path: PROGRESS, method: 'DELETE' } );
	}
}

test.describe( 'import with addresses', () => {
	test.describe.configure( { timeout: 300_000 } );

	test.beforeAll( async ( { requestUtils } ) => {
		await fixturePlugin( requestUtils, 'active' );
		await noJob( requestUtils );
	} );

	test.afterAll( async ( { requestUtils } ) => {
		await noJob( requestUtils );
		await fixturePlugin( requestUtils, 'inactive' );
	} );

	test( 'geocodes address rows in the background, with progress and a row report', async ( {
		admin,
		page,
		requestUtils,
	} ) => {
		const run = `G${ Date.now() }`;
		const csv = [
			'title,lat,lng,address',
			`Castle ${ run },55.9486,-3.1999,`,
			`Mile ${ run },,,"Royal Mile, Edinburgh"`,
			`Hill ${ run },,,Calton Hill`,
			`Nowhere ${ run },,,Nowhere at all ${ run }`,
		].join( '\n' );

		await admin.visitAdminPage(
			'tools.php',
			'page=cairn-maps-import-export'
		);
		await page
			.getByLabel( 'File (CSV, GeoJSON, GPX, KML or KMZ)' )
			.setInputFiles( {
				name: 'addresses.csv',
				mimeType: 'text/csv',
				buffer: Buffer.from( csv ),
			} );
		// The upload, the import and the redirect: slow on a loaded Playground.
		await page
			.getByRole( 'button', { name: 'Import markers' } )
			.click( { timeout: 120_000 } );
		// Previewed first (a dry run); Import sends the page's form.
		await page
			.locator( '.cairn-maps-import-preview' )
			.getByRole( 'button', { name: 'Import', exact: true } )
			.click( { timeout: 120_000 } );
		await expect(
			page.locator( '.cairn-maps-import-report' )
		).toContainText(
			'4 markers were imported. 3 of them have an address and no coordinates',
			{ timeout: 60_000 }
		);

		// Nothing is published before its address is found.
		const before = await markers( requestUtils, run );
		expect(
			before
				.map( ( marker ) => [ marker.title.raw, marker.status ] )
				.sort()
		).toEqual( [
			[ `Castle ${ run }`, 'publish' ],
			[ `Hill ${ run }`, 'draft' ],
			[ `Mile ${ run }`, 'draft' ],
			[ `Nowhere ${ run }`, 'draft' ],
		] );

		const summary = page.locator( '.cairn-maps-geocoding-summary' );
		await expect( summary ).toHaveText(
			/^Geocoding (addresses|finished): \d of 3 done, \d not found\.$/
		);

		// The test plays a server's system cron (Playground cannot spawn WP-Cron over loopback). It
		// leaves the page first: every request while the event is due makes WordPress try to spawn
		// WP-Cron, which holds WP-Cron's lock for 60 s and refuses an outside /wp-cron.php meanwhile.
		// The progress is read with `doing_wp_cron` in the query, which never spawns.
		await page.goto( 'about:blank' );
		await expect
			.poll(
				async () => {
					await page.request.get( '/wp-cron.php', {
						timeout: 60_000,
					} );
					const state = ( await requestUtils.rest( {
						path: PROGRESS,
						params: { doing_wp_cron: '' },
					} ) ) as { summary: string };
					return state.summary;
				},
				{ timeout: 180_000 }
			)
			.toBe( 'Geocoding finished: 3 of 3 done, 1 not found.' );

		await admin.visitAdminPage(
			'tools.php',
			'page=cairn-maps-import-export'
		);
		await expect( summary ).toHaveText(
			'Geocoding finished: 3 of 3 done, 1 not found.'
		);

		// The row report names the line and the address not found.
		await expect(
			page.locator( '.cairn-maps-geocoding-report li' )
		).toHaveCount( 1 );
		await expect(
			page.locator( '.cairn-maps-geocoding-report li' )
		).toContainText(
			`Line 5: "Nowhere at all ${ run }": The address was not found.`
		);
		await expect(
			page.locator( '.cairn-maps-geocoding-report li a' )
		).toHaveText( 'Edit the marker' );

		// Found: published at the fixture's coordinates. Not found: a draft.
		const after = Object.fromEntries(
			( await markers( requestUtils, run ) ).map( ( marker ) => [
				marker.title.raw,
				marker,
			] )
		);
		expect( after[ `Mile ${ run }` ] ).toMatchObject( {
			status: 'publish',
			meta: { cairn_lat: 55.95, cairn_lng: -3.1875 },
		} );
		expect( after[ `Hill ${ run }` ] ).toMatchObject( {
			status: 'publish',
			meta: { cairn_lat: 55.9553, cairn_lng: -3.1826 },
		} );
		expect( after[ `Nowhere ${ run }` ] ).toMatchObject( {
			status: 'draft',
			meta: { cairn_lat: null, cairn_lng: null },
		} );

		// The feed: the found ones at their places, never the draft.
		const feed = ( await requestUtils.rest( {
			path: '/cairn/v1/markers',
		} ) ) as {
			features: Array< {
				geometry: { coordinates: number[] };
				properties: { title: string };
			} >;
		};
		const places = Object.fromEntries(
			feed.features
				.filter( ( feature ) =>
					feature.properties.title.endsWith( run )
				)
				.map( ( feature ) => [
					feature.properties.title,
					feature.geometry.coordinates,
				] )
		);
		expect( places ).toEqual( {
			[ `Castle ${ run }` ]: [ -3.1999, 55.9486 ],
			[ `Mile ${ run }` ]: [ -3.1875, 55.95 ],
			[ `Hill ${ run }` ]: [ -3.1826, 55.9553 ],
		} );

		// Dismissing the report hides it; the draft stays.
		await page
			.getByRole( 'button', { name: 'Dismiss this report' } )
			.click();
		await expect( page.locator( '.cairn-maps-geocoding' ) ).toBeHidden();
		expect(
			( await markers( requestUtils, `Nowhere ${ run }` ) )[ 0 ]?.status
		).toBe( 'draft' );
	} );

	test( 'cancelling leaves the queued rows as drafts, reported as not tried', async ( {
		admin,
		page,
		requestUtils,
	} ) => {
		const run = `C${ Date.now() }`;
		await admin.visitAdminPage(
			'tools.php',
			'page=cairn-maps-import-export'
		);
		await page
			.getByLabel( 'File (CSV, GeoJSON, GPX, KML or KMZ)' )
			.setInputFiles( {
				name: 'addresses.csv',
				mimeType: 'text/csv',
				buffer: Buffer.from(
					`title,address\nLater ${ run },Brandenburger Tor\n`
				),
			} );
		// The upload, the import and the redirect: slow on a loaded Playground.
		await page
			.getByRole( 'button', { name: 'Import markers' } )
			.click( { timeout: 120_000 } );
		// Previewed first (a dry run); Import sends the page's form.
		await page
			.locator( '.cairn-maps-import-preview' )
			.getByRole( 'button', { name: 'Import', exact: true } )
			.click( { timeout: 120_000 } );
		await expect(
			page.locator( '.cairn-maps-geocoding-summary' )
		).toHaveText( 'Geocoding addresses: 0 of 1 done, 0 not found.', {
			timeout: 60_000,
		} );

		await page.getByRole( 'button', { name: 'Cancel geocoding' } ).click();
		await expect(
			page.locator( '.cairn-maps-geocoding-summary' )
		).toHaveText(
			'Geocoding cancelled: 0 of 1 done, 0 not found, 1 not tried.',
			{ timeout: 30_000 }
		);
		await expect(
			page.locator( '.cairn-maps-geocoding-report li' )
		).toContainText(
			`Line 2: "Brandenburger Tor": Geocoding was cancelled`
		);

		// A cron run after cancelling geocodes nothing.
		await page.request.get( '/wp-cron.php?doing_wp_cron' );
		const [ later ] = await markers( requestUtils, run );
		expect( later ).toMatchObject( {
			status: 'draft',
			meta: { cairn_lat: null },
		} );
	} );
} );
