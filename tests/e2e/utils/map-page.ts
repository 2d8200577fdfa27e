/**
 * Helpers for specs that look at a rendered map: publish a page with blocks, open it, wait for the
 * map's state, and read what the canvas shows.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import type {
	Editor,
	RequestUtils,
} from '@wordpress/e2e-test-utils-playwright';

import { FAKE_PUBLIC_TOKEN } from '../fixtures/maps-service';

export { FAKE_PUBLIC_TOKEN };

/**
 * Saves settings through the REST settings endpoint, as the settings screen does.
 * @param requestUtils
 * @param data         The settings, by option name.
 * @param timeout      How long the request may take (Playground's one PHP worker may be busy).
 */
export async function saveSettings(
	requestUtils: RequestUtils,
	data: Record< string, unknown >,
	timeout?: number
): Promise< void > {
	await requestUtils.rest( {
		method: 'POST',
		path: '/wp/v2/settings',
		data,
		...( timeout ? { timeout } : {} ),
	} );
}

/** Saves the access token through the REST settings endpoint, as the settings screen does. */
export async function setToken(
	requestUtils: RequestUtils,
	token: string
): Promise< void > {
	await saveSettings( requestUtils, { cairn_maps_access_token: token } );
}

/** Publishes a page with the given block markup; returns its id and URL. */
export async function createPublishedPage(
	requestUtils: RequestUtils,
	title: string,
	content: string
): Promise< { id: number; link: string } > {
	return ( await requestUtils.rest( {
		method: 'POST',
		path: '/wp/v2/pages',
		data: { title, content, status: 'publish' },
	} ) ) as { id: number; link: string };
}

/** Publishes a page with the given block markup and returns its URL. */
export async function publishPage(
	requestUtils: RequestUtils,
	title: string,
	content: string
): Promise< string > {
	return ( await createPublishedPage( requestUtils, title, content ) ).link;
}

/** Block markup for a map with the given attributes. */
export function mapBlock( attributes: Record< string, unknown > = {} ): string {
	return `<!-- wp:cairn/map ${ JSON.stringify( attributes ) } /-->`;
}

/** Waits until the map settles in `ready` or `error`, and returns which. */
export async function waitForMapState(
	map: Locator,
	timeout = 60_000
): Promise< string > {
	const handle = await map.elementHandle();
	await map
		.page()
		.waitForFunction(
			( element ) =>
				[ 'ready', 'error' ].includes(
					( element as HTMLElement ).dataset.cairnState ?? ''
				),
			handle,
			{ timeout }
		);
	return ( await map.getAttribute( 'data-cairn-state' ) ) ?? '';
}

/** Distinct colours (4 bits per channel) in a PNG, decoded by the page itself. */
export async function colourCounts(
	page: Page,
	png: Buffer
): Promise< Record< string, number > > {
	return page.evaluate( async ( base64 ) => {
		const image = new Image();
		image.src = `data:image/png;base64,${ base64 }`;
		await image.decode();
		const canvas = document.createElement( 'canvas' );
		canvas.width = image.width;
		canvas.height = image.height;
		const context = canvas.getContext( '2d' );
		if ( ! context ) {
			return {};
		}
		context.drawImage( image, 0, 0 );
		const { data } = context.getImageData(
			0,
			0,
			image.width,
			image.height
		);
		const counts: Record< string, number > = {};
		for ( let i = 0; i < data.length; i += 4 ) {
			const key = [
				Math.floor( ( data[ i ] ?? 0 ) / 16 ),
				Math.floor( ( data[ i + 1 ] ?? 0 ) / 16 ),
				Math.floor( ( data[ i + 2 ] ?? 0 ) / 16 ),
			].join( ',' );
			counts[ key ] = ( counts[ key ] ?? 0 ) + 1;
		}
		return counts;
	}, png.toString( 'base64' ) );
}

/** How many colours cover a real share of the canvas (a blank map has one or two). */
export async function visibleColours( page: Page, canvas: Locator ) {
	const counts = await colourCounts( page, await canvas.screenshot() );
	const total = Object.values( counts ).reduce( ( a, b ) => a + b, 0 );
	return Object.values( counts ).filter( ( n ) => n > total * 0.002 ).length;
}

/** Pages whose welcome guide is already looked after. */
const guarded = new WeakSet< Page >();

/**
 * Closes the block editor's welcome guide whenever it shows. The test utils turn it off through
 * the preferences, which the Playground site does not always keep, and it can open late, once the
 * editor has loaded them: rather than waiting a while for it (and giving up), Playwright closes it
 * each time it covers something a test is about to use (`addLocatorHandler`).
 */
export async function dismissWelcomeGuide( page: Page ): Promise< void > {
	const guide = page.getByRole( 'dialog', { name: /welcome/i } );
	if ( ! guarded.has( page ) ) {
		guarded.add( page );
		await page.addLocatorHandler( guide, async ( dialog ) => {
			await dialog.getByRole( 'button', { name: 'Close' } ).click();
		} );
	}
	// Not a click of our own: the handler runs before every action and auto-waiting assertion
	// while the guide shows, so a click here raced it (the handler closed the guide, then the
	// click waited for a button that was gone). This assertion lets the handler close it.
	await expect( guide ).toBeHidden();
}

/**
 * Publishes the post in the editor (`editor.publishPost()`), waiting for the "published" notice
 * as long as the site needs: Playground answers one request at a time, and with both shards
 * running the save can take longer than an action's 20 s (playwright.config.ts, actionTimeout).
 * @param editor The editor.
 * @param page   Its page.
 */
export async function publishPost(
	editor: Editor,
	page: Page
): Promise< void > {
	page.setDefaultTimeout( 120_000 );
	try {
		await editor.publishPost();
	} finally {
		page.setDefaultTimeout( 20_000 );
	}
}
