/**
 * What the specs of the editor's "Location" panel share (markers and posts alike): the panel's
 * map caught from `cairn:map-ready`, the page's script errors, the welcome guide kept out of the
 * way, positions on the panel's map, and publishing.
 */
import type { Locator, Page } from '@playwright/test';

import { expect } from '../fixtures/maps-service';

export interface Point {
	lng: number;
	lat: number;
}

declare global {
	interface Window {
		/** The panel's mapbox-gl map, caught from `cairn:map-ready`. */
		cairnLocationMap?: {
			project: ( lngLat: [ number, number ] ) => { x: number; y: number };
			isMoving: () => boolean;
		};
	}
}

/**
 * Prepares an editor page for the panel: records its script errors (a crashed panel shows as
 * one) in the list returned, closes the editor's welcome guide whenever it gets in the way (it
 * can open late on a fresh site: its preference is not always kept), and keeps the panel's map
 * as `window.cairnLocationMap`.
 */
export async function watchLocationPage( page: Page ): Promise< string[] > {
	const pageErrors: string[] = [];
	page.on( 'pageerror', ( error ) => pageErrors.push( error.message ) );
	await page.addLocatorHandler(
		page.getByRole( 'dialog', { name: /welcome/i } ),
		async ( guide ) => {
			await guide.getByRole( 'button', { name: 'Close' } ).click();
		}
	);
	await page.addInitScript( () => {
		document.addEventListener( 'cairn:map-ready', ( event ) => {
			window.cairnLocationMap = ( event as CustomEvent ).detail.map;
		} );
	} );
	return pageErrors;
}

/** Waits until the panel's map is there and still (not panning or zooming). */
export async function mapSettled( page: Page ): Promise< void > {
	await page.waitForFunction(
		() =>
			window.cairnLocationMap !== undefined &&
			! window.cairnLocationMap.isMoving()
	);
}

/** Where a position is on the panel's map, in canvas pixels. */
export async function pixelOf( page: Page, position: Point ) {
	return page.evaluate( ( { lng, lat } ) => {
		const point = window.cairnLocationMap!.project( [ lng, lat ] );
		return { x: point.x, y: point.y };
	}, position );
}

/** Clicks Publish (opening the pre-publish panel when it is closed), then Publish in the panel. */
export async function clickPublish( page: Page ) {
	const panel = page.getByRole( 'region', { name: 'Editor publish' } );
	if ( ! ( await panel.isVisible() ) ) {
		await page
			.getByRole( 'region', { name: 'Editor top bar' } )
			.getByRole( 'button', { name: 'Publish', exact: true } )
			.click();
	}
	await panel.getByRole( 'button', { name: 'Publish', exact: true } ).click();
}

/**
 * Publishes the post and returns its id, allowing for a slow server (up to `timeout` ms for the
 * "published" notice).
 */
export async function publish(
	page: Page,
	timeout: number
): Promise< number > {
	await clickPublish( page );
	await expect(
		page
			.getByRole( 'button', { name: 'Dismiss this notice' } )
			.filter( { hasText: 'published' } )
	).toBeVisible( { timeout } );
	return Number( new URL( page.url() ).searchParams.get( 'post' ) );
}

/**
 * Types a latitude beyond the pole into a Location panel, checks the field says so, and publishes
 * anyway: the editor must show the server's 400 message. Returns the latitude field.
 *
 * @param page          The editor page.
 * @param settings      The Location panel.
 * @param serverMessage The server's message for the refused latitude.
 * @param timeout       How long the publish may take to be refused.
 */
export async function publishBeyondThePole(
	page: Page,
	settings: Locator,
	serverMessage: string,
	timeout: number
): Promise< Locator > {
	const latitude = settings.getByRole( 'textbox', { name: 'Latitude' } );
	await latitude.fill( '95' );
	await settings.getByRole( 'textbox', { name: 'Longitude' } ).fill( '10' );
	await expect(
		settings.getByText( 'Enter a number of degrees from -90 to 90.' )
	).toBeVisible();
	await expect( latitude ).toHaveAttribute( 'aria-invalid', 'true' );

	await clickPublish( page );
	// The editor shows the server's 400 message.
	await expect(
		page
			.locator( '.components-notice, .components-snackbar' )
			.filter( { hasText: serverMessage } )
			.first()
	).toBeVisible( { timeout } );
	return latitude;
}
