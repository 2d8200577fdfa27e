/**
 * A map of 10,000 posts is drawn from tiles (issue 33): posts with a public place are in the same
 * place index as the markers, so a posts map past the tile threshold asks `/cairn/v1/tiles/…`
 * with its `post_type`, its category and `markers=none`, and never downloads the posts feed.
 *
 * - 10,000 posts with a public place are written in one request through the development site's
 *   bulk route (`POST /cairn-dev/v1/demo-places` with `type: 'post'`, in a category of their own),
 *   which also runs the index's rebuild in that request (`index: true`): Playground has no WP-Cron,
 *   and index-without-cron.spec.ts covers the admin-page path.
 * - The page's map shows that category's posts and no markers.
 * - A visitor's map asks tiles, never the posts feed, and the clusters it draws add up to the
 *   10,000 posts; a search lists posts from the server (`/cairn/v1/places` with the selection).
 */
import path from 'node:path';
import type { Locator, Page, Request } from '@playwright/test';

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
import {
	drawnMarkers,
	placesEventCount,
	recordPlacesEvents,
	waitForPlacesChange,
} from './utils/places';

const CATEGORY = 'posts-tiles-spec';
const COUNT = 10_000;
/** The box the posts are generated in (west,south,east,north), all inside the map's view. */
const BOX = '2,45.5,12,50.5';
const VIEW = { center: { lng: 7, lat: 48 }, zoom: 4 };
/** Playground answers one request at a time: writing and indexing 10,000 posts takes a while. */
const SLOW = 240_000;

/** Where the map's picture is kept for a person to look at (artifacts/shots). */
const SHOTS =
	process.env.CAIRN_SHOTS_DIR ??
	path.join( __dirname, '..', '..', 'artifacts', 'shots' );

const host = ( page: Page ): Locator =>
	page.locator( '.wp-block-cairn-map' ).first();

/** The requests a page makes to the index and to the feeds, decoded. */
function recordRequests( page: Page ) {
	const seen = {
		tiles: [] as string[],
		places: [] as string[],
		feeds: [] as string[],
	};
	page.on( 'request', ( request: Request ) => {
		const url = decodeURIComponent( request.url() );
		if ( url.includes( '/cairn/v1/tiles/' ) ) {
			seen.tiles.push( url );
		} else if ( /\/cairn\/v1\/places(\?|$)/.test( url ) ) {
			seen.places.push( url );
		} else if ( url.includes( '/cairn/v1/markers' ) ) {
			seen.feeds.push( url );
		}
	} );
	return seen;
}

test.describe.serial( 'a map of 10,000 posts', () => {
	test.describe.configure( { timeout: 2 * SLOW } );

	let pageUrl = '';
	let pageId = 0;
	let restoreToken: () => Promise< void > = async () => undefined;

	test.beforeAll( async ( { requestUtils } ) => {
		test.setTimeout( 3 * SLOW );
		restoreToken = await useFakeToken( requestUtils, SLOW );
		const places = { group: CATEGORY, type: 'post' as const };
		const added = await addDemoPlaces(
			requestUtils,
			{
				...places,
				count: COUNT,
				name: 'Posts tiles spec',
				box: BOX,
				index: true,
			},
			SLOW
		);
		process.stderr.write(
			`[posts-tiles] ${ added.added } posts written and indexed in ${ added.seconds } s (PHP)\n`
		);
		expect( added.total ).toBe( COUNT );
		const held = await demoPlacesState( requestUtils, places, SLOW );
		expect( held.index.pending ).toBe( false );
		expect( held.index.indexed ).toBe( COUNT );
		const page = await createPublishedPage(
			requestUtils,
			'Posts tiles: 10,000 posts',
			mapBlock( {
				...VIEW,
				height: '480px',
				markers: { source: 'none', groups: [], ids: [] },
				content: {
					postTypes: [ 'post' ],
					terms: { category: [ CATEGORY ] },
					current: false,
				},
				cluster: { enabled: true, radius: 80 },
				places: { search: true, groupFilter: true, followMap: true },
			} )
		);
		pageUrl = page.link;
		pageId = page.id;
	} );

	test.afterAll( async ( { requestUtils } ) => {
		test.setTimeout( 3 * SLOW );
		await removeDemoPlaces(
			requestUtils,
			{ group: CATEGORY, type: 'post', index: true },
			SLOW
		);
		if ( pageId ) {
			await requestUtils.rest( {
				method: 'DELETE',
				path: `/wp/v2/pages/${ pageId }`,
				params: { force: true },
				timeout: SLOW,
			} );
		}
		await restoreToken();
	} );

	test( 'its page names the tiles of the posts, not the posts feed', async ( {
		request,
	} ) => {
		const html = await (
			await request.get( pageUrl, { timeout: SLOW } )
		).text();
		const config = html.replace( /&quot;/g, '"' ).replace( /\\\//g, '/' );
		const tiles = config.match( /"tilesUrl":"([^"]+)"/ )?.[ 1 ] ?? '';
		expect( tiles ).toContain( '/cairn/v1/tiles/{z}/{x}/{y}' );
		const query = new URL(
			tiles.replace( /\\u0026|&amp;|&#038;/g, '&' ).replace( /[{}]/g, '' )
		).searchParams;
		expect( query.get( 'post_type' ) ).toBe( 'post' );
		expect( query.get( 'terms' ) ).toBe( `category:${ CATEGORY }` );
		expect( query.get( 'markers' ) ).toBe( 'none' );
		// The address's version joins the markers' and the posts' (Index_Version).
		expect( query.get( 'v' ) ).toMatch( /^[0-9a-f]+\.[0-9a-f]+$/ );
	} );

	test.describe( 'a visitor', () => {
		test.use( { storageState: VISITOR_STATE } );

		test( 'sees the 10,000 posts clustered from tiles, and a search lists posts from the server', async ( {
			page,
		} ) => {
			const errors = watchPageErrors( page );
			await recordMapEvents( page );
			await recordPlacesEvents( page );
			const seen = recordRequests( page );
			await page.goto( pageUrl, { timeout: SLOW } );
			await waitForIdle( page );
			await expect
				.poll( async () => ( await drawnMarkers( page ) ).total, {
					timeout: SLOW,
				} )
				.toBe( COUNT );
			const drawn = await drawnMarkers( page );
			expect( drawn.clusterCounts.length ).toBeGreaterThan( 1 );
			// The count as the page's language (en-US) writes it.
			await expect(
				host( page ).locator( '.wp-block-cairn-map__markers-title' )
			).toHaveText( '10,000 places on this map', { timeout: SLOW } );
			await expect(
				host( page ).locator( '.wp-block-cairn-map__page-info' )
			).toHaveText( 'Places 1–50 of 10,000' );
			await host( page ).screenshot( {
				path: path.join( SHOTS, 'posts-tiles.png' ),
			} );
			expect( seen.tiles.length ).toBeGreaterThan( 0 );
			for ( const url of seen.tiles ) {
				expect( url ).toMatch( /\/tiles\/4\/\d+\/\d+/ );
				expect( url ).toContain( 'post_type=post' );
				expect( url ).toContain( 'markers=none' );
			}
			expect( seen.feeds, 'the posts feed was never asked for' ).toEqual(
				[]
			);

			const since = await placesEventCount( page );
			await host( page ).locator( 'input[type="search"]' ).fill( 'tarn' );
			const change = await waitForPlacesChange(
				page,
				since,
				{ search: 'tarn' },
				SLOW
			);
			expect( change.total ).toBeGreaterThan( 0 );
			expect( change.total ).toBeLessThan( COUNT );
			const entries = host( page ).locator(
				'.wp-block-cairn-map__list > li[data-cairn-marker-id]'
			);
			await expect( entries.first() ).toBeVisible( { timeout: SLOW } );
			for ( const title of await entries.allTextContents() ) {
				expect( title ).toMatch( /Tarn \d+/ );
			}
			expect(
				seen.places.some(
					( url ) =>
						url.includes( 'post_type=post' ) &&
						url.includes( 'q=tarn' )
				)
			).toBe( true );
			await expect
				.poll( async () => ( await drawnMarkers( page ) ).total, {
					timeout: SLOW,
				} )
				.toBe( change.total );
			expect( seen.feeds ).toEqual( [] );
			expect( errors.map( ( error ) => error.message ) ).toEqual( [] );
		} );
	} );
} );
