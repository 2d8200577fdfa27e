/**
 * Issue 34, where people already are: the `[cairn_map]` shortcode in posts written without the
 * block editor (content with no blocks, as the classic editor saves it), on the self-hosted world
 * basemap (no token, nothing off the site's origin).
 * - `[cairn_map center=… zoom=… ids=…]`: the map starts for a visitor like the block's (ready, its
 *   places drawn and listed), outside the post's paragraphs.
 * - `[cairn_map pattern="<id>"]`: a synced pattern's heading and map, the map started.
 * - A hostile attribute: the alert alone (`shortcode-attribute`, announced as `cairn:map-error`),
 *   no map, the markup never run.
 * - The classic editor (tests/fixtures/plugins/cairn-classic-editor-fixture): "Add map" opens the
 *   dialog of patterns with a map, and "Insert map" puts `[cairn_map pattern="<id>"]` in the post.
 */
import fs from 'node:fs';
import type { RequestUtils } from '@wordpress/e2e-test-utils-playwright';

import { BASEMAP_STATE, VISITOR_STATE } from './global-setup';
import { expect, test } from './fixtures/maps-service';
import { mapBlock, visibleColours } from './utils/map-page';
import {
	recordMapEvents,
	removeCreated,
	seedMarkers,
	waitForIdle,
	watchPageErrors,
} from './utils/front-map';
import { drawnMarkers } from './utils/places';

const FIXTURE = 'cairn-classic-editor-fixture/cairn-classic-editor-fixture';
/** Playground answers one request at a time: generous waits for a busy machine. */
const SLOW = 120_000;
const PLACES = [
	{ title: 'Shortcode spec: Dam', lng: 4.8936, lat: 52.3731 },
	{ title: 'Shortcode spec: Utrecht Dom', lng: 5.1214, lat: 52.0907 },
	{ title: 'Shortcode spec: Rotterdam Erasmus', lng: 4.4821, lat: 51.9094 },
];

interface Seed {
	ids: number[];
	style: string;
	pattern: { id: number; title: string };
	posts: { plain: string; pattern: string; hostile: string };
}
let seed: Seed | null = null;
/** Posts and patterns this spec made, deleted after it. */
const made: Array< { path: string; id: number } > = [];

async function create(
	requestUtils: RequestUtils,
	path: string,
	data: Record< string, unknown >
): Promise< { id: number; link: string } > {
	const item = ( await requestUtils.rest( {
		method: 'POST',
		path,
		data: { status: 'publish', ...data },
		timeout: SLOW,
	} ) ) as { id: number; link: string };
	made.push( { path, id: item.id } );
	return item;
}

async function seeded( requestUtils: RequestUtils ): Promise< Seed > {
	if ( seed ) {
		return seed;
	}
	const archive = JSON.parse( fs.readFileSync( BASEMAP_STATE, 'utf8' ) ) as {
		style?: string;
		error?: string;
	};
	expect( archive.error, 'the site took the world archive' ).toBeUndefined();
	expect( archive.style ).toMatch( /^pmtiles:\/\// );
	const style = archive.style!;
	const ids = await seedMarkers( requestUtils, PLACES );
	const title = `Shortcode spec: Dutch cities ${ Date.now() }`;
	const pattern = await create( requestUtils, '/wp/v2/blocks', {
		title,
		content:
			'<!-- wp:heading --><h2 class="wp-block-heading">Three Dutch cities</h2><!-- /wp:heading -->' +
			mapBlock( {
				mapStyle: style,
				center: { lng: 4.8, lat: 52.1 },
				zoom: 7,
				height: '420px',
				markers: { source: 'ids', groups: [], ids },
				cluster: { enabled: false, radius: 80 },
			} ),
	} );
	const plain = await create( requestUtils, '/wp/v2/posts', {
		title: 'Shortcode spec: a classic post',
		content: `Our walks start in Amsterdam.\n\n[cairn_map style="${ style }" center="52.1,4.8" zoom="7" height="420px" ids="${ ids.join(
			','
		) }" cluster="false"]\n\nSee you there.`,
	} );
	const withPattern = await create( requestUtils, '/wp/v2/posts', {
		title: 'Shortcode spec: a pattern',
		content: `The pattern follows.\n\n[cairn_map pattern="${ pattern.id }"]`,
	} );
	const hostile = await create( requestUtils, '/wp/v2/posts', {
		title: 'Shortcode spec: hostile',
		content:
			'Before.\n\n[cairn_map zoom="1e308" height="<img src=x onerror=window.cairnPwned=1>" onload="window.cairnPwned=2"]\n\nAfter.',
	} );
	seed = {
		ids,
		style,
		pattern: { id: pattern.id, title },
		posts: {
			plain: plain.link,
			pattern: withPattern.link,
			hostile: hostile.link,
		},
	};
	return seed;
}

test.afterAll( async ( { requestUtils } ) => {
	await removeCreated( requestUtils );
	const items = made.splice( 0 ).reverse();
	if ( items.length ) {
		await requestUtils.batchRest(
			items.map( ( item ) => ( {
				method: 'DELETE',
				path: `${ item.path }/${ item.id }?force=true`,
			} ) )
		);
	}
} );

test.describe( 'the [cairn_map] shortcode for a visitor', () => {
	test.use( { storageState: VISITOR_STATE } );
	let pageErrors: Error[] = [];

	test.beforeEach( async ( { page } ) => {
		pageErrors = watchPageErrors( page );
		await recordMapEvents( page );
	} );
	test.afterEach( () => {
		expect( pageErrors.map( ( error ) => error.message ) ).toEqual( [] );
	} );

	test( 'a classic post with [cairn_map …] starts the map like the block, outside its paragraphs', async ( {
		page,
		requestUtils,
		mapsService,
	} ) => {
		const { posts, ids } = await seeded( requestUtils );
		await page.goto( posts.plain );

		const map = page.locator( '.wp-block-cairn-map' );
		await expect( map ).toHaveCount( 1 );
		await waitForIdle( page );
		await expect( map ).toHaveAttribute( 'data-cairn-state', 'ready' );
		await expect( map.getByRole( 'alert' ) ).toHaveCount( 0 );
		// The text around it stays in its own paragraphs; the map is no paragraph's child.
		await expect(
			page.locator( 'p', { hasText: 'Our walks start in Amsterdam.' } )
		).toHaveCount( 1 );
		await expect( page.locator( 'p .wp-block-cairn-map' ) ).toHaveCount(
			0
		);
		await expect( page.getByText( '[cairn_map' ) ).toHaveCount( 0 );

		// The shortcode's view: centre and zoom as written, on the self-hosted basemap.
		const view = await page.evaluate( () => {
			const live = window.cairnMap( 0 );
			return {
				zoom: live.getZoom(),
				lat: live.getCenter().lat,
				lng: live.getCenter().lng,
			};
		} );
		expect( view.zoom ).toBeCloseTo( 7, 5 );
		expect( view.lat ).toBeCloseTo( 52.1, 4 );
		expect( view.lng ).toBeCloseTo( 4.8, 4 );
		const canvas = map.locator( 'canvas.maplibregl-canvas' );
		expect( await visibleColours( page, canvas ) ).toBeGreaterThanOrEqual(
			3
		);
		// Its three places, drawn unclustered (cluster="false") and listed.
		await expect
			.poll( async () => ( await drawnMarkers( page ) ).points.sort() )
			.toEqual( [ ...ids ].sort() );
		for ( const place of PLACES ) {
			await expect(
				map.locator( '.wp-block-cairn-map__places' )
			).toContainText( place.title );
		}
		expect( mapsService.unexpected ).toEqual( [] );
	} );

	test( '[cairn_map pattern="…"] shows the pattern: its heading and its map, started', async ( {
		page,
		requestUtils,
	} ) => {
		const { posts, ids } = await seeded( requestUtils );
		await page.goto( posts.pattern );

		await expect(
			page.getByRole( 'heading', { name: 'Three Dutch cities' } )
		).toBeVisible();
		const map = page.locator( '.wp-block-cairn-map' );
		await expect( map ).toHaveCount( 1 );
		await waitForIdle( page );
		await expect( map ).toHaveAttribute( 'data-cairn-state', 'ready' );
		await expect
			.poll( async () => ( await drawnMarkers( page ) ).points.sort() )
			.toEqual( [ ...ids ].sort() );
		expect(
			await page.evaluate( () => window.cairnMap( 0 ).getZoom() )
		).toBeCloseTo( 7, 5 );
	} );

	test( 'a hostile attribute gets the alert alone, and its markup never runs', async ( {
		page,
		requestUtils,
	} ) => {
		const { posts } = await seeded( requestUtils );
		await page.goto( posts.hostile );

		const map = page.locator( '.wp-block-cairn-map' );
		await expect( map ).toHaveAttribute( 'data-cairn-state', 'error' );
		const alert = map.getByRole( 'alert' );
		await expect( alert ).toHaveAttribute(
			'data-cairn-error',
			'shortcode-attribute'
		);
		await expect( alert ).toHaveText(
			'This map cannot be shown because of a configuration error: the shortcode’s “zoom” attribute must be a number from 0 to 22.'
		);
		await expect
			.poll( () => page.evaluate( () => window.cairnEvents.errors ) )
			.toEqual( [
				expect.objectContaining( {
					code: 'shortcode-attribute',
					block: 0,
				} ),
			] );
		await expect( map.locator( 'canvas' ) ).toHaveCount( 0 );
		await expect( page.locator( 'img[src="x"]' ) ).toHaveCount( 0 );
		expect(
			await page.evaluate(
				() => ( window as { cairnPwned?: unknown } ).cairnPwned
			)
		).toBeUndefined();
		await expect( page.getByText( 'After.' ) ).toBeVisible();
	} );
} );

test.describe( 'the classic editor', () => {
	test.beforeAll( async ( { requestUtils } ) => {
		await requestUtils.rest( {
			method: 'PUT',
			path: `/wp/v2/plugins/${ FIXTURE }`,
			data: { status: 'active' },
			timeout: SLOW,
		} );
	} );
	test.afterAll( async ( { requestUtils } ) => {
		await requestUtils.rest( {
			method: 'PUT',
			path: `/wp/v2/plugins/${ FIXTURE }`,
			data: { status: 'inactive' },
			timeout: SLOW,
		} );
	} );

	test( '"Add map" inserts [cairn_map pattern="…"] for the chosen pattern', async ( {
		page,
		requestUtils,
	} ) => {
		const { pattern } = await seeded( requestUtils );
		await page.goto( '/wp-admin/post-new.php' );
		// The classic screen: TinyMCE and its media buttons, not the block editor.
		await expect(
			page.locator( '#wp-content-editor-container' )
		).toBeVisible();
		await expect( page.locator( '.block-editor' ) ).toHaveCount( 0 );

		const button = page.getByRole( 'button', { name: 'Add map' } );
		await expect( button ).toBeVisible();
		await button.click();
		const dialog = page.getByRole( 'dialog', { name: 'Add a map' } );
		await expect( dialog ).toBeVisible();
		await dialog
			.getByRole( 'radio', { name: new RegExp( `^${ pattern.title }` ) } )
			.check();
		await dialog.getByRole( 'button', { name: 'Insert map' } ).click();
		await expect( dialog ).toBeHidden();

		// What the post holds, as the Text tab shows it.
		await page.locator( '#content-html' ).click();
		await expect( page.locator( 'textarea#content' ) ).toHaveValue(
			new RegExp( `\\[cairn_map pattern="${ pattern.id }"\\]` )
		);

		// Cancel inserts nothing more.
		await button.click();
		await expect( dialog ).toBeVisible();
		await dialog.getByRole( 'button', { name: 'Cancel' } ).click();
		await expect( dialog ).toBeHidden();
		const text = await page.locator( 'textarea#content' ).inputValue();
		expect( text.match( /\[cairn_map /g ) ).toHaveLength( 1 );
	} );
} );
