/**
 * A map of 12,000 places becomes tiled on a site where WP-Cron never runs (issue 33): the test
 * site is WordPress Playground, whose loopback requests to wp-cron.php never arrive, so the place
 * index's rebuild (started when the places were written) is carried on by admin page loads.
 *
 * - 12,000 places are written in one request through the development site's bulk route
 *   (`POST /cairn-dev/v1/demo-places`, bin/site-mu-plugins/cairn-dev-demo-places.php), the same
 *   one `npm start -- --demo-size=12000` uses; the time it took is noted on the test.
 * - Until the index is complete, the map ships its whole feed (no `tilesUrl`).
 * - An administrator loads Tools → Site Health → Info again and again: each load runs rebuild
 *   steps at its end; the "Place index" field shows the progress growing, "built by" names the
 *   admin page loads and why WP-Cron does not run, until it says "Complete: N places" (the
 *   12,000, and whatever places other specs left on the shared site); the
 *   Status tab says the index is complete.
 * - Then a visitor's map of those places asks `/cairn/v1/tiles/…` and never the markers feed, and
 *   the clusters it draws (queryRenderedFeatures) add up to the 12,000 places.
 */
import type { Page, Request } from '@playwright/test';

import { VISITOR_STATE } from './global-setup';
import { expect, test } from './fixtures/maps-service';
import {
	recordMapEvents,
	waitForIdle,
	watchPageErrors,
} from './utils/front-map';
import {
	addDemoPlaces,
	demoPlacesState,
	removeDemoPlaces,
	useFakeToken,
} from './utils/demo-places';
import { createPublishedPage, mapBlock } from './utils/map-page';
import { drawnMarkers } from './utils/places';

const GROUP = 'index-without-cron-spec';
const COUNT = 12_000;
/** The box the places are generated in (west,south,east,north), all inside the map's view. */
const BOX = '2,45.5,12,50.5';
const VIEW = { center: { lng: 7, lat: 48 }, zoom: 4 };
/** Playground answers one request at a time: a rebuild step or a view's tiles take a while. */
const SLOW = 120_000;
/** Admin page loads the rebuild may take at most (12,000 places: about twenty on a busy machine). */
const MAX_LOADS = 80;

interface IndexFields {
	state: string;
	builder: string;
}

/** The place index's Site Health → Info fields, from a fresh load of that admin page. */
async function siteHealthInfo( page: Page ): Promise< IndexFields > {
	await page.goto( '/wp-admin/site-health.php?tab=debug', {
		timeout: SLOW,
	} );
	const field = ( label: RegExp ) =>
		page
			.locator( '#health-check-accordion-block-cairn-maps tr' )
			.filter( { has: page.locator( 'th', { hasText: label } ) } )
			.locator( 'td' )
			.textContent();
	return {
		state: ( ( await field( /^Place index$/ ) ) ?? '' ).trim(),
		builder: (
			( await field( /^Place index (last )?built by$/ ) ) ?? ''
		).trim(),
	};
}

/**
 * Loads admin pages until Site Health says the index is complete; returns every reading. A plain
 * admin page load (the profile screen, asked without its assets) between two readings of Site
 * Health → Info, whose page costs Playground a few seconds more.
 */
async function buildByAdminPages( page: Page ): Promise< IndexFields[] > {
	const seen: IndexFields[] = [];
	for ( let load = 0; load < MAX_LOADS; load++ ) {
		if ( load % 2 !== 0 ) {
			const answer = await page.request.get( '/wp-admin/profile.php', {
				timeout: SLOW,
			} );
			expect( answer.status() ).toBe( 200 );
			continue;
		}
		const fields = await siteHealthInfo( page );
		seen.push( fields );
		if ( fields.state.startsWith( 'Complete' ) ) {
			return seen;
		}
	}
	throw new Error(
		`the index was not complete after ${ MAX_LOADS } admin page loads: ${ JSON.stringify(
			seen.slice( -3 )
		) }`
	);
}

/** Places written so far, from a "Being built (reading markers, 4,000 of 12,000 …)" reading. */
function written( state: string ): number | null {
	const match = state.match( /reading markers, ([\d,]+) of ([\d,]+)/ );
	return match ? Number( match[ 1 ]!.replace( /,/g, '' ) ) : null;
}

test.describe.serial( 'a tiled map with no WP-Cron', () => {
	test.describe.configure( { timeout: 6 * SLOW } );

	let pageUrl = '';
	let pageId = 0;
	let restoreToken: () => Promise< void > = async () => undefined;

	test.beforeAll( async ( { requestUtils } ) => {
		test.setTimeout( 4 * SLOW );
		restoreToken = await useFakeToken( requestUtils, SLOW );
		const added = await addDemoPlaces(
			requestUtils,
			{
				count: COUNT,
				group: GROUP,
				name: 'Index without cron spec',
				box: BOX,
			},
			SLOW
		);
		test.info().annotations.push( {
			type: 'seed',
			description: `${ added.added } places written in ${ added.seconds } s (PHP)`,
		} );
		process.stderr.write(
			`[index-without-cron] ${ added.added } places written in ${ added.seconds } s (PHP)\n`
		);
		expect( added.total ).toBe( COUNT );
		const page = await createPublishedPage(
			requestUtils,
			'Index without cron: 12,000 places',
			mapBlock( {
				...VIEW,
				height: '480px',
				markers: { source: 'groups', groups: [ GROUP ], ids: [] },
				cluster: { enabled: true, radius: 80 },
			} )
		);
		pageUrl = page.link;
		pageId = page.id;
	} );

	test.afterAll( async ( { requestUtils } ) => {
		test.setTimeout( 4 * SLOW );
		await removeDemoPlaces( requestUtils, { group: GROUP }, SLOW );
		if ( pageId ) {
			await requestUtils.rest( {
				method: 'DELETE',
				path: `/wp/v2/pages/${ pageId }`,
				params: { force: true },
				timeout: SLOW,
			} );
		}
		await restoreToken();
		// The removal started a rebuild: admin page loads finish it (a few hundred places left),
		// so the shared site keeps a complete index.
		for ( let load = 0; load < MAX_LOADS; load++ ) {
			const state = await demoPlacesState(
				requestUtils,
				{ group: GROUP },
				SLOW
			);
			if ( ! state.index.pending ) {
				return;
			}
			await requestUtils.request.get( '/wp-admin/index.php', {
				timeout: SLOW,
			} );
		}
	} );

	test( 'admin page loads build the index, and Site Health follows them', async ( {
		page,
		request,
		requestUtils,
	} ) => {
		const before = await (
			await request.get( pageUrl, { timeout: SLOW } )
		).text();
		expect( before, 'not tiled while the index is being built' ).toMatch(
			/tilesUrl&quot;:&quot;&quot;|"tilesUrl":""/
		);

		const started = Date.now();
		const seen = await buildByAdminPages( page );
		process.stderr.write(
			`[index-without-cron] the index was complete after ${
				seen.length
			} readings of Site Health (and an admin page load between two), ${ (
				( Date.now() - started ) /
				1000
			).toFixed( 1 ) } s\n`
		);
		// The shared site may hold other specs' places too: Site Health names every place the index
		// holds, and the index holds each of the group's 12,000.
		const held = await demoPlacesState(
			requestUtils,
			{ group: GROUP },
			SLOW
		);
		expect( held.index.indexed ).toBe( COUNT );
		expect( held.index.places ).toBeGreaterThanOrEqual( COUNT );
		expect( seen.at( -1 )!.state ).toBe(
			`Complete: ${ held.index.places.toLocaleString( 'en-US' ) } places`
		);
		expect( seen.at( -1 )!.builder ).toBe(
			'admin page loads (WP-Cron did not run it)'
		);
		// Until the plugin has seen WP-Cron fail (its spawn never reached wp-cron.php), Site Health
		// names WP-Cron and no step runs; from then on, admin page loads.
		const building = seen.slice( 0, -1 );
		const first = building.findIndex( ( fields ) =>
			fields.builder.startsWith( 'admin page loads' )
		);
		expect(
			first,
			'seen: ' + JSON.stringify( seen )
		).toBeGreaterThanOrEqual( 0 );
		for ( const fields of building.slice( 0, first ) ) {
			expect( fields.builder ).toMatch( /^WP-Cron/ );
		}
		for ( const fields of building.slice( first ) ) {
			expect( fields.state ).toMatch( /^Being built/ );
			expect( fields.builder ).toMatch(
				/^admin page loads — up to 2 seconds of steps of 1,000 markers .* because (WordPress could not reach its own wp-cron\.php|its scheduled event is more than five minutes late)/
			);
		}
		const counts = building
			.slice( first )
			.map( ( fields ) => written( fields.state ) )
			.filter( ( count ): count is number => count !== null );
		// Bounded steps: Site Health saw the places half written at least once.
		expect(
			counts.filter( ( count ) => count > 0 && count < COUNT ).length,
			'read while the places were written: ' + JSON.stringify( seen )
		).toBeGreaterThan( 0 );
		expect( counts ).toEqual( [ ...counts ].sort( ( a, b ) => a - b ) );
		expect( new Set( counts ).size, 'each reading found more' ).toBe(
			counts.length
		);

		await page.goto( '/wp-admin/site-health.php', { timeout: SLOW } );
		await page.getByRole( 'button', { name: 'Passed tests' } ).click();
		await expect(
			page.getByRole( 'button', {
				name: /Cairn Maps’ place index is complete/,
			} )
		).toBeVisible( { timeout: SLOW } );

		const after = await (
			await request.get( pageUrl, { timeout: SLOW } )
		).text();
		expect( after ).toMatch( /tilesUrl&quot;:&quot;http|"tilesUrl":"http/ );
	} );

	test.describe( 'a visitor', () => {
		test.use( { storageState: VISITOR_STATE } );

		test( 'sees the map drawn from tiles, never from the whole feed', async ( {
			page,
		} ) => {
			const errors = watchPageErrors( page );
			await recordMapEvents( page );
			const tiles: string[] = [];
			const feeds: string[] = [];
			page.on( 'request', ( request: Request ) => {
				const url = decodeURIComponent( request.url() );
				if ( url.includes( '/cairn/v1/tiles/' ) ) {
					tiles.push( url );
				} else if ( url.includes( '/cairn/v1/markers' ) ) {
					feeds.push( url );
				}
			} );
			await page.goto( pageUrl, { timeout: SLOW } );
			await waitForIdle( page );
			await expect
				.poll( async () => ( await drawnMarkers( page ) ).total, {
					timeout: SLOW,
				} )
				.toBe( COUNT );
			const drawn = await drawnMarkers( page );
			expect( drawn.clusterCounts.length ).toBeGreaterThan( 1 );
			expect( tiles.length ).toBeGreaterThan( 0 );
			expect(
				tiles.every( ( url ) => /\/tiles\/4\/\d+\/\d+/.test( url ) )
			).toBe( true );
			expect( feeds, 'the whole feed was never asked for' ).toEqual( [] );
			expect( errors.map( ( error ) => error.message ) ).toEqual( [] );
		} );
	} );
} );
