/**
 * The view in the page address (`hash: true`): a valid fragment restores the camera, a malformed
 * one is dropped without breaking the page, moving the map rewrites the address, and two hashed
 * maps on one page each keep their own part (`#z/lat/lng&map-2=…`).
 */
import type { Page } from '@playwright/test';

import { VISITOR_STATE } from './global-setup';
import { expect, test } from './fixtures/maps-service';
import { FAKE_PUBLIC_TOKEN, mapBlock, setToken } from './utils/map-page';
import {
	nextMoveEnd,
	waitForIdle,
	publishFrontPage,
	guardVisitorPages,
} from './utils/front-map';

const NO_MARKERS = { source: 'ids', groups: [], ids: [] };
const BLOCK_VIEW = { center: { lng: 10, lat: 20 }, zoom: 2 };

let singleUrl = '';
let pairUrl = '';

async function camera( page: Page, index = 0 ) {
	return page.evaluate( ( i ) => {
		const map = window.cairnMap( i );
		const { lng, lat } = map.getCenter();
		return {
			zoom: map.getZoom(),
			lat,
			lng,
			bearing: map.getBearing(),
			pitch: map.getPitch(),
		};
	}, index );
}

function fragment( page: Page ): Promise< string > {
	return page.evaluate( () => window.location.hash );
}

/**
 * Presses an arrow key on a map's canvas and waits for the move and the address update (written
 * a moment after the move ends): the fragment changes. Returns the new fragment.
 */
async function panWithKeyboard(
	page: Page,
	index: number,
	key: string
): Promise< string > {
	const before = await fragment( page );
	const moved = nextMoveEnd( page, index );
	await page
		.locator( '.wp-block-cairn-map' )
		.nth( index )
		.locator( 'canvas.mapboxgl-canvas' )
		.focus();
	await page.keyboard.press( key );
	await moved;
	await expect.poll( () => fragment( page ) ).not.toBe( before );
	return fragment( page );
}

test.describe( 'front-end map view in the address', () => {
	test.use( { storageState: VISITOR_STATE } );

	test.beforeAll( async ( { requestUtils } ) => {
		await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
		singleUrl = await publishFrontPage(
			requestUtils,
			'Hash spec: one map',
			mapBlock( { ...BLOCK_VIEW, hash: true, markers: NO_MARKERS } )
		);
		const small = { hash: true, height: '260px', markers: NO_MARKERS };
		pairUrl = await publishFrontPage(
			requestUtils,
			'Hash spec: two maps',
			mapBlock( { ...small, ...BLOCK_VIEW } ) +
				mapBlock( {
					...small,
					center: { lng: -70, lat: -20 },
					zoom: 3,
				} )
		);
	} );
	guardVisitorPages();

	test( 'a valid fragment restores zoom, centre, bearing and pitch', async ( {
		page,
	} ) => {
		await page.goto( `${ singleUrl }#5.5/48.85/2.35/30/40` );
		await waitForIdle( page );
		const view = await camera( page );
		expect( view.zoom ).toBeCloseTo( 5.5, 5 );
		expect( view.lat ).toBeCloseTo( 48.85, 5 );
		expect( view.lng ).toBeCloseTo( 2.35, 5 );
		expect( view.bearing ).toBeCloseTo( 30, 5 );
		expect( view.pitch ).toBeCloseTo( 40, 5 );
	} );

	test( 'a malformed fragment is ignored and cleaned from the address', async ( {
		page,
	} ) => {
		for ( const bad of [ '#3/95/10', '#1e2/0/0', '#4/10/20/9000' ] ) {
			await page.goto( `${ singleUrl }${ bad }` );
			await waitForIdle( page );
			await expect(
				page.locator( '.wp-block-cairn-map' )
			).toHaveAttribute( 'data-cairn-state', 'ready' );
			expect( await fragment( page ), bad ).toBe( '' );
			const view = await camera( page );
			expect( view.zoom ).toBe( BLOCK_VIEW.zoom );
			expect( view.lat ).toBeCloseTo( BLOCK_VIEW.center.lat, 5 );
			expect( view.lng ).toBeCloseTo( BLOCK_VIEW.center.lng, 5 );
		}

		// Typed into the address bar later: no crash, the map stays where it was.
		await page.evaluate( () => {
			window.location.hash = '#3/95/10';
		} );
		await expect.poll( () => fragment( page ) ).toBe( '' );
		expect( ( await camera( page ) ).zoom ).toBe( BLOCK_VIEW.zoom );

		// And a valid one typed later moves the map.
		await page.evaluate( () => {
			window.location.hash = '#6/51.5/-0.12';
		} );
		await expect
			.poll( async () => ( await camera( page ) ).zoom )
			.toBe( 6 );
		expect( ( await camera( page ) ).lat ).toBeCloseTo( 51.5, 5 );
	} );

	test( 'moving the map updates the address', async ( { page } ) => {
		await page.goto( singleUrl );
		await waitForIdle( page );
		expect( await fragment( page ) ).toBe( '' );

		await panWithKeyboard( page, 0, 'ArrowRight' );
		const view = await camera( page );
		const [ zoom, lat, lng ] = ( await fragment( page ) )
			.slice( 1 )
			.split( '/' )
			.map( Number );
		expect( zoom ).toBeCloseTo( view.zoom, 2 );
		expect( lat ).toBeCloseTo( view.lat, 1 );
		expect( lng ).toBeCloseTo( view.lng, 1 );
		expect( lng ).toBeGreaterThan( BLOCK_VIEW.center.lng );

		// A reload comes back to the same view.
		await page.reload();
		await waitForIdle( page );
		const restored = await camera( page );
		expect( restored.lng ).toBeCloseTo( lng!, 3 );
		expect( restored.zoom ).toBeCloseTo( zoom!, 2 );
	} );

	test( 'two hashed maps keep separate parts of the address and do not fight', async ( {
		page,
	} ) => {
		await page.goto( `${ pairUrl }#4/10/20&map-2=6/30/40` );
		await waitForIdle( page, 0 );
		await waitForIdle( page, 1 );
		const [ first, second ] = [
			await camera( page, 0 ),
			await camera( page, 1 ),
		];
		expect( [ first.zoom, first.lat, first.lng ] ).toEqual( [ 4, 10, 20 ] );
		expect( second.zoom ).toBe( 6 );
		expect( second.lat ).toBeCloseTo( 30, 5 );
		expect( second.lng ).toBeCloseTo( 40, 5 );

		// Moving the second map rewrites only its part.
		await panWithKeyboard( page, 1, 'ArrowDown' );
		let hash = await fragment( page );
		expect( hash ).toMatch( /^#4\/10\/20&map-2=6\/[-\d.]+\/40$/ );
		const secondPart = hash.split( '&' )[ 1 ];
		expect( secondPart ).not.toBe( 'map-2=6/30/40' );

		// Moving the first map rewrites only the first part.
		await panWithKeyboard( page, 0, 'ArrowLeft' );
		hash = await fragment( page );
		expect( hash.split( '&' )[ 1 ] ).toBe( secondPart );
		expect( hash.split( '&' )[ 0 ] ).toMatch( /^#4\/10\/[-\d.]+$/ );
		expect( hash.split( '&' )[ 0 ] ).not.toBe( '#4/10/20' );

		// Nobody moves them back: once the address is written and both maps have drawn a frame
		// with nothing moving (their `idle` after it), both still show their own view.
		const settled = [ await camera( page, 0 ), await camera( page, 1 ) ];
		await waitForIdle( page, 0 );
		await waitForIdle( page, 1 );
		expect( await camera( page, 0 ) ).toEqual( settled[ 0 ] );
		expect( await camera( page, 1 ) ).toEqual( settled[ 1 ] );
		expect( await fragment( page ) ).toBe( hash );
	} );
} );
