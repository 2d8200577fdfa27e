/**
 * The marker edit screen's "Location" panel: a marker placed by clicking the small map and moved
 * by dragging it, a position pasted as degrees, minutes and seconds, a latitude out of range
 * refused by the server with its message, and the panel without a token.
 */
import type { Locator, Page } from '@playwright/test';
import type {
	Editor,
	RequestUtils,
} from '@wordpress/e2e-test-utils-playwright';

import { expect, test } from './fixtures/maps-service';
import {
	pixelOf,
	publish,
	publishBeyondThePole,
	watchLocationPage,
} from './utils/location-panel';
import { FAKE_PUBLIC_TOKEN, setToken } from './utils/map-page';

/** How long publishing may take (Playground's single PHP worker). */
const PUBLISH_TIMEOUT = 90_000;

interface MarkerRecord {
	id: number;
	status: string;
	meta: { cairn_lat: number | null; cairn_lng: number | null };
}

async function storedMarker(
	requestUtils: RequestUtils,
	id: number
): Promise< MarkerRecord > {
	return ( await requestUtils.rest( {
		path: `/wp/v2/cairn-markers/${ id }`,
		params: { context: 'edit' },
	} ) ) as MarkerRecord;
}

/** Opens the post's settings sidebar on the "Location" panel. */
async function locationPanel( page: Page, editor: Editor ): Promise< Locator > {
	await editor.openDocumentSettingsSidebar();
	const settings = page.getByRole( 'region', { name: 'Editor settings' } );
	const toggle = settings.getByRole( 'button', {
		name: 'Location',
		exact: true,
	} );
	if ( ( await toggle.getAttribute( 'aria-expanded' ) ) === 'false' ) {
		await toggle.click();
	}
	return settings;
}

test.describe( 'marker location panel', () => {
	// Saving goes through Playground's single PHP worker: allow for slow answers.
	test.describe.configure( { timeout: 240_000 } );

	test.beforeAll( async ( { requestUtils } ) => {
		await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
	} );

	// Script errors on the page (a crashed panel shows as one).
	let pageErrors: string[] = [];

	test.beforeEach( async ( { page } ) => {
		pageErrors = await watchLocationPage( page );
	} );

	test.afterEach( () => {
		expect( pageErrors ).toEqual( [] );
	} );

	test( 'places a new marker by clicking the map, moves it by dragging, and publishes it', async ( {
		admin,
		editor,
		page,
		requestUtils,
		mapsService,
	} ) => {
		await admin.createNewPost( {
			postType: 'cairn_marker',
			title: 'Harbour light',
		} );
		const settings = await locationPanel( page, editor );
		const host = settings.locator( '.cairn-maps-location-map' );
		// On a fresh site the editor's welcome guide can open late, and closing it can fold the
		// panel again: open it again until its map is ready.
		await expect( async () => {
			await locationPanel( page, editor );
			await expect( host ).toHaveAttribute( 'data-cairn-state', 'ready', {
				timeout: 15_000,
			} );
		} ).toPass( { timeout: 60_000 } );
		// The panel's map is the runtime's, drawn from the (offline) service with the site's token.
		expect( mapsService.tokensSeen() ).toContain( FAKE_PUBLIC_TOKEN );
		await expect(
			settings.getByText( 'Maps show the marker once it has' )
		).toBeVisible();

		const canvas = host.locator( 'canvas.mapboxgl-canvas' );
		const box = ( await canvas.boundingBox() )!;
		const click = {
			x: Math.round( box.width * 0.35 ),
			y: Math.round( box.height * 0.6 ),
		};
		await canvas.click( { position: click } );

		const latitude = settings.getByRole( 'textbox', { name: 'Latitude' } );
		const longitude = settings.getByRole( 'textbox', {
			name: 'Longitude',
		} );
		await expect( latitude ).not.toHaveValue( '' );
		const clicked = {
			lat: Number( await latitude.inputValue() ),
			lng: Number( await longitude.inputValue() ),
		};
		// The fields hold the place under the click (to a pixel).
		const at = await pixelOf( page, clicked );
		expect( Math.abs( at.x - click.x ) ).toBeLessThanOrEqual( 1.5 );
		expect( Math.abs( at.y - click.y ) ).toBeLessThanOrEqual( 1.5 );
		const pin = host.locator( '.mapboxgl-marker' );
		await expect( pin ).toBeVisible();

		// Drag the marker 40 px right and 25 px down.
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
		// The marker's new position is where it was dropped (to a pixel or two).
		await expect( latitude ).not.toHaveValue( String( clicked.lat ) );
		const moved = {
			lat: Number( await latitude.inputValue() ),
			lng: Number( await longitude.inputValue() ),
		};
		const to = await pixelOf( page, moved );
		expect( Math.abs( to.x - at.x - 40 ) ).toBeLessThanOrEqual( 3 );
		expect( Math.abs( to.y - at.y - 25 ) ).toBeLessThanOrEqual( 3 );

		const stored = await storedMarker(
			requestUtils,
			await publish( page, PUBLISH_TIMEOUT )
		);
		expect( stored.status ).toBe( 'publish' );
		expect( stored.meta.cairn_lat ).toBeCloseTo( moved.lat, 6 );
		expect( stored.meta.cairn_lng ).toBeCloseTo( moved.lng, 6 );
		expect( mapsService.unexpected ).toEqual( [] );
	} );

	test( 'reads pasted coordinates and links', async ( {
		admin,
		editor,
		page,
		requestUtils,
	} ) => {
		await admin.createNewPost( {
			postType: 'cairn_marker',
			title: 'Castle rock',
		} );
		const settings = await locationPanel( page, editor );
		const paste = settings.getByRole( 'textbox', {
			name: 'Paste coordinates',
		} );
		const setPosition = settings.getByRole( 'button', {
			name: 'Set position',
		} );
		const latitude = settings.getByRole( 'textbox', { name: 'Latitude' } );
		const longitude = settings.getByRole( 'textbox', {
			name: 'Longitude',
		} );

		// Something that is not a position is explained, and changes nothing.
		await paste.fill( 'Edinburgh' );
		await setPosition.click();
		await expect(
			settings.getByText(
				'These are not coordinates this field can read'
			)
		).toBeVisible();
		await expect( latitude ).toHaveValue( '' );

		await paste.fill( 'https://www.openstreetmap.org/#map=15/51.5/-0.12' );
		await paste.press( 'Enter' );
		await expect( latitude ).toHaveValue( '51.5' );
		await expect( longitude ).toHaveValue( '-0.12' );

		await paste.fill( `55°57'00"N 3°11'24"W` );
		await setPosition.click();
		await expect( latitude ).toHaveValue( '55.95' );
		await expect( longitude ).toHaveValue( '-3.19' );
		await expect( paste ).toHaveValue( '' );
		await expect(
			settings.getByText( 'Position set: 55.95, -3.19' )
		).toBeVisible();
		// The map follows: its marker is placed.
		await expect(
			settings.locator( '.cairn-maps-location-map .mapboxgl-marker' )
		).toBeVisible( { timeout: 60_000 } );

		const stored = await storedMarker(
			requestUtils,
			await publish( page, PUBLISH_TIMEOUT )
		);
		expect( stored.meta ).toMatchObject( {
			cairn_lat: 55.95,
			cairn_lng: -3.19,
		} );
	} );

	test( 'a latitude out of range is flagged and the server refuses to publish', async ( {
		admin,
		editor,
		page,
		requestUtils,
	} ) => {
		// Unique, so a marker left by an earlier run on a reused site does not count.
		const title = `Beyond the pole ${ Date.now() }`;
		await admin.createNewPost( { postType: 'cairn_marker', title } );
		const settings = await locationPanel( page, editor );
		const latitude = await publishBeyondThePole(
			page,
			settings,
			'Latitude (cairn_lat) must be a number between -90 and 90.',
			90_000
		);
		const published = ( await requestUtils.rest( {
			path: '/wp/v2/cairn-markers',
			params: { search: title, status: 'publish' },
		} ) ) as MarkerRecord[];
		expect( published ).toEqual( [] );

		// Corrected, it publishes.
		await latitude.fill( '89.5' );
		await expect(
			settings.getByText( 'Enter a number of degrees' )
		).toHaveCount( 0 );
		const id = await publish( page, PUBLISH_TIMEOUT );
		expect( ( await storedMarker( requestUtils, id ) ).meta ).toMatchObject(
			{ cairn_lat: 89.5, cairn_lng: 10 }
		);
	} );

	test( 'without a token the panel keeps its fields and says why there is no map', async ( {
		admin,
		editor,
		page,
		requestUtils,
	} ) => {
		await setToken( requestUtils, '' );
		try {
			await admin.createNewPost( {
				postType: 'cairn_marker',
				title: 'No map',
			} );
			const settings = await locationPanel( page, editor );
			await expect(
				settings.getByText(
					'The map needs a public Mapbox access token'
				)
			).toBeVisible();
			await expect(
				settings.locator( '.cairn-maps-location-map' )
			).toHaveCount( 0 );
			await settings
				.getByRole( 'textbox', { name: 'Paste coordinates' } )
				.fill( '-33.87, 151.21' );
			await settings
				.getByRole( 'button', { name: 'Set position' } )
				.click();
			await expect(
				settings.getByRole( 'textbox', { name: 'Latitude' } )
			).toHaveValue( '-33.87' );
		} finally {
			await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
		}
	} );
} );
