/**
 * Helpers for the front-end specs (front-*.spec.ts): seed markers and groups over REST, reach the
 * mapbox-gl map of each block through `cairn:map-ready`, and record what a visitor's page reports.
 */
import zlib from 'node:zlib';
import type { Locator, Page } from '@playwright/test';
import type { RequestUtils } from '@wordpress/e2e-test-utils-playwright';
import type { Map as MapboxMap } from 'mapbox-gl';

import { expect, test } from '../fixtures/maps-service';
import { errorMessageFor } from './error-messages';
import { createPublishedPage } from './map-page';

export interface MapEvents {
	/** `cairn:map-error` details, in order, with the index of the block that sent them. */
	errors: Array< { code: string; message: string; block: number } >;
	/** Blocks (by index on the page) that sent `cairn:map-ready`. */
	ready: number[];
}

declare global {
	interface Window {
		/** The mapbox-gl map of the `index`-th map block on the page (from `cairn:map-ready`). */
		cairnMap: ( index?: number ) => MapboxMap;
		cairnEvents: MapEvents;
	}
}

/**
 * Before the page's own scripts run: listen for the map events on the document, so every block's
 * map is reachable as `window.cairnMap( index )` (index = order of the blocks on the page).
 *
 * @param page The page, before `goto`.
 */
export async function recordMapEvents( page: Page ): Promise< void > {
	await page.addInitScript( () => {
		const maps = new Map< Element, unknown >();
		const events: MapEvents = { errors: [], ready: [] };
		const indexOf = ( target: EventTarget | null ) =>
			Array.from(
				document.querySelectorAll( '.wp-block-cairn-map' )
			).indexOf( target as Element );
		window.cairnEvents = events;
		window.cairnMap = ( index = 0 ) => {
			const host = document.querySelectorAll( '.wp-block-cairn-map' )[
				index
			];
			const map = host ? maps.get( host ) : undefined;
			if ( ! map ) {
				throw new Error( `map block ${ index } is not ready` );
			}
			return map as MapboxMap;
		};
		document.addEventListener( 'cairn:map-ready', ( event ) => {
			maps.set(
				event.target as Element,
				( event as CustomEvent ).detail.map
			);
			events.ready.push( indexOf( event.target ) );
		} );
		document.addEventListener( 'cairn:map-error', ( event ) => {
			const { code, message } = ( event as CustomEvent ).detail;
			events.errors.push( {
				code,
				message,
				block: indexOf( event.target ),
			} );
		} );
	} );
}

/** Uncaught exceptions of the page (they must stay empty). */
export function watchPageErrors( page: Page ): Error[] {
	const errors: Error[] = [];
	page.on( 'pageerror', ( error ) => errors.push( error ) );
	return errors;
}

/** Waits until the `index`-th map is ready and has finished drawing (sources loaded, no motion). */
export async function waitForIdle( page: Page, index = 0 ): Promise< void > {
	// Maps start when they near the viewport (and a site's menus can push them down).
	await page
		.locator( '.wp-block-cairn-map' )
		.nth( index )
		.scrollIntoViewIfNeeded();
	await page.waitForFunction(
		( i ) => {
			try {
				return Boolean( window.cairnMap( i ) );
			} catch {
				return false;
			}
		},
		index,
		{ timeout: 60_000 }
	);
	await page.evaluate(
		( i ) =>
			new Promise< void >( ( resolve ) => {
				const map = window.cairnMap( i );
				const check = () => {
					if (
						map.loaded() &&
						! map.isMoving() &&
						( ! map.getSource( 'cairn-markers' ) ||
							map.isSourceLoaded( 'cairn-markers' ) )
					) {
						resolve();
					} else {
						map.once( 'idle', check );
						map.triggerRepaint();
					}
				};
				map.once( 'idle', check );
				map.triggerRepaint();
			} ),
		index
	);
}

/**
 * The positive event a negative check ("nothing was requested", "no popup opened") waits for:
 * the page has rendered two frames (so IntersectionObserver callbacks and the work they start
 * have run) and then a request the page made itself after them has been answered. Anything the
 * page's scripts meant to ask for before that moment has been asked for by then: requests leave
 * in order, so a check made after this one is not a guess about elapsed time.
 *
 * @param page The page.
 */
export async function pageCaughtUp( page: Page ): Promise< void > {
	// A small static file of the site, never cached: its answer is the moment.
	const probe = new URL( '/wp-includes/images/blank.gif', page.url() );
	probe.searchParams.set( 'cairn-e2e-anchor', String( Math.random() ) );
	const answered = page.waitForResponse(
		( response ) => response.url() === probe.href
	);
	await page.evaluate( async ( href ) => {
		await new Promise( ( resolve ) =>
			requestAnimationFrame( () => requestAnimationFrame( resolve ) )
		);
		await fetch( href, { cache: 'no-store' } );
	}, probe.href );
	await answered;
}

/** Resolves after the next `moveend` of the `index`-th map, then its `idle`. */
export function nextMoveEnd( page: Page, index = 0 ): Promise< void > {
	return page.evaluate(
		( i ) =>
			new Promise< void >( ( resolve ) => {
				const map = window.cairnMap( i );
				map.once( 'moveend', () =>
					map.once( 'idle', () => resolve() )
				);
			} ),
		index
	);
}

/** What the front-end specs created, so that `removeCreated()` can delete it again. */
const created: Array< { path: string; id: number } > = [];

/** Publishes a page with the given block markup; returns its URL (deleted by `removeCreated`). */
export async function publishFrontPage(
	requestUtils: RequestUtils,
	title: string,
	content: string
): Promise< string > {
	const page = await createPublishedPage( requestUtils, title, content );
	created.push( { path: '/wp/v2/pages', id: page.id } );
	return page.link;
}

/**
 * The hooks every front-end spec shares, registered in the calling `describe`: each test's page
 * records the map events and must end without an uncaught error, and what the spec created over
 * REST is removed after it.
 */
export function guardVisitorPages(): void {
	let pageErrors: Error[] = [];
	test.afterAll( async ( { requestUtils } ) => {
		await removeCreated( requestUtils );
	} );
	test.beforeEach( async ( { page } ) => {
		pageErrors = watchPageErrors( page );
		await recordMapEvents( page );
	} );
	test.afterEach( () => {
		expect( pageErrors.map( ( error ) => error.message ) ).toEqual( [] );
	} );
}

/**
 * Deletes the pages, markers, groups and images this spec file created, so that the shared test
 * site does not fill up (other specs show "all markers", and the theme lists every page).
 */
export async function removeCreated(
	requestUtils: RequestUtils
): Promise< void > {
	const items = created.splice( 0 ).reverse();
	if ( items.length === 0 ) {
		return;
	}
	await requestUtils.batchRest(
		items
			.filter( ( item ) => item.path !== '/wp/v2/media' )
			.map( ( item ) => ( {
				method: 'DELETE',
				path: `${ item.path }/${ item.id }?force=true`,
			} ) )
	);
	// Attachments cannot be deleted in a batch.
	for ( const item of items.filter( ( i ) => i.path === '/wp/v2/media' ) ) {
		await requestUtils.rest( {
			method: 'DELETE',
			path: `/wp/v2/media/${ item.id }`,
			params: { force: true },
		} );
	}
}

/** Uploads an image to the media library (deleted by `removeCreated`); returns its id. */
export async function uploadImage(
	requestUtils: RequestUtils,
	file: string
): Promise< number > {
	const media = ( await requestUtils.uploadMedia( file ) ) as { id: number };
	created.push( { path: '/wp/v2/media', id: media.id } );
	return media.id;
}

export interface SeedMarker {
	title: string;
	lng: number;
	lat: number;
	content?: string;
	/** Term ids of `cairn_marker_group`. */
	groups?: number[];
	/** A route's or an area's GeoJSON geometry (`meta.cairn_geometry`). */
	geometry?: Record< string, unknown >;
}

/** Publishes markers through the core controller, 25 to a `/batch/v1` request; returns their ids. */
export async function seedMarkers(
	requestUtils: RequestUtils,
	markers: SeedMarker[]
): Promise< number[] > {
	const responses = ( await requestUtils.batchRest(
		markers.map( ( marker ) => ( {
			method: 'POST',
			path: '/wp/v2/cairn-markers',
			body: {
				title: marker.title,
				content: marker.content ?? '',
				status: 'publish',
				meta: {
					cairn_lng: marker.lng,
					cairn_lat: marker.lat,
					...( marker.geometry
						? { cairn_geometry: marker.geometry }
						: {} ),
				},
				...( marker.groups
					? { 'cairn-marker-groups': marker.groups }
					: {} ),
			},
		} ) )
	) ) as Array< { status: number; body: { id: number } } >;
	for ( const response of responses ) {
		expect( response.status ).toBe( 201 );
		created.push( {
			path: '/wp/v2/cairn-markers',
			id: response.body.id,
		} );
	}
	return responses.map( ( response ) => response.body.id );
}

/**
 * Creates a marker group (or takes over the one with that slug) with the given looks; returns
 * its term id (deleted by `removeCreated`).
 */
export async function ensureGroup(
	requestUtils: RequestUtils,
	group: { name: string; slug: string; color?: string; icon?: number }
): Promise< number > {
	const meta = {
		cairn_color: group.color ?? '',
		cairn_icon: group.icon ?? 0,
	};
	const found = ( await requestUtils.rest( {
		path: '/wp/v2/cairn-marker-groups',
		params: { slug: group.slug, context: 'edit' },
	} ) ) as Array< { id: number } >;
	const existing = found[ 0 ];
	const saved = ( await requestUtils.rest( {
		method: 'POST',
		path: existing
			? `/wp/v2/cairn-marker-groups/${ existing.id }`
			: '/wp/v2/cairn-marker-groups',
		data: { name: group.name, slug: group.slug, meta },
	} ) ) as { id: number };
	created.push( { path: '/wp/v2/cairn-marker-groups', id: saved.id } );
	return saved.id;
}

/** The colour (r, g, b) at a CSS pixel of an element's screenshot. */
export async function pixelAt(
	page: Page,
	element: Locator,
	x: number,
	y: number
): Promise< [ number, number, number ] > {
	const png = await element.screenshot();
	const width = ( await element.boundingBox() )?.width ?? 1;
	return page.evaluate(
		async ( { base64, px, py, cssWidth } ) => {
			const image = new Image();
			image.src = `data:image/png;base64,${ base64 }`;
			await image.decode();
			const canvas = document.createElement( 'canvas' );
			canvas.width = image.width;
			canvas.height = image.height;
			const context = canvas.getContext( '2d' );
			if ( ! context ) {
				return [ 0, 0, 0 ] as [ number, number, number ];
			}
			context.drawImage( image, 0, 0 );
			const scale = image.width / cssWidth;
			const [ r = 0, g = 0, b = 0 ] = context.getImageData(
				Math.round( px * scale ),
				Math.round( py * scale ),
				1,
				1
			).data;
			return [ r, g, b ] as [ number, number, number ];
		},
		{ base64: png.toString( 'base64' ), px: x, py: y, cssWidth: width }
	);
}

/** A square PNG of one colour (for group icons). */
export function solidPng( size: number, hex: string ): Buffer {
	const [ r, g, b ] = [ 1, 3, 5 ].map( ( i ) =>
		parseInt( hex.slice( i, i + 2 ), 16 )
	);
	const row = Buffer.alloc( 1 + size * 4 );
	for ( let x = 0; x < size; x++ ) {
		row.set( [ r!, g!, b!, 255 ], 1 + x * 4 );
	}
	const chunk = ( type: string, data: Buffer ) => {
		const body = Buffer.concat( [ Buffer.from( type ), data ] );
		const length = Buffer.alloc( 4 );
		length.writeUInt32BE( data.length );
		const crc = Buffer.alloc( 4 );
		crc.writeUInt32BE( zlib.crc32( body ) );
		return Buffer.concat( [ length, body, crc ] );
	};
	const header = Buffer.alloc( 13 );
	header.writeUInt32BE( size, 0 );
	header.writeUInt32BE( size, 4 );
	header.set( [ 8, 6, 0, 0, 0 ], 8 ); // 8-bit RGBA, no interlace.
	return Buffer.concat( [
		Buffer.from( [ 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a ] ),
		chunk( 'IHDR', header ),
		chunk(
			'IDAT',
			zlib.deflateSync( Buffer.concat( Array( size ).fill( row ) ) )
		),
		chunk( 'IEND', Buffer.alloc( 0 ) ),
	] );
}

/** Distance between two colours, per channel at most. */
export function colourDistance(
	a: [ number, number, number ],
	hex: string
): number {
	const b = [ 1, 3, 5 ].map( ( i ) => parseInt( hex.slice( i, i + 2 ), 16 ) );
	return Math.max( ...a.map( ( value, i ) => Math.abs( value - b[ i ]! ) ) );
}

/**
 * What every failure must look like: state `error`, exactly one alert on the page with the code
 * and its message from tests/fixtures/error-messages.json (no token, no address), the marker list
 * still there, one `cairn:map-error` carrying the same code and words.
 *
 * @param page        The page.
 * @param code        Expected error code.
 * @param secrets     Strings that must not appear in the message (tokens).
 * @param listedTitle A marker title the server-rendered list must still show.
 */
export async function expectMapError(
	page: Page,
	code: string,
	secrets: string[],
	listedTitle: string
): Promise< void > {
	const host = page.locator( '.wp-block-cairn-map' ).first();
	await expect( host ).toHaveAttribute( 'data-cairn-state', 'error', {
		timeout: 45_000,
	} );
	const alerts = page.locator( '[role="alert"]' );
	await expect( alerts ).toHaveCount( 1 );
	const alert = host.locator( '[role="alert"][data-cairn-error]' );
	await expect( alert ).toHaveAttribute( 'data-cairn-error', code );
	const text = ( await alert.textContent() ) ?? '';
	expect( text.trim() ).toBe( errorMessageFor( code ) );
	for ( const secret of secrets ) {
		expect( text ).not.toContain( secret );
	}
	expect( text ).not.toMatch(
		/https?:|mapbox\.com|access_token|\bpk\.|\bsk\.|\/wp-json\//
	);
	await expect(
		host.locator( '.wp-block-cairn-map__markers' )
	).toContainText( listedTitle );
	await expect
		.poll( () => page.evaluate( () => window.cairnEvents.errors ) )
		.toEqual( [ expect.objectContaining( { code, block: 0 } ) ] );
	const event = (
		await page.evaluate( () => window.cairnEvents.errors )
	)[ 0 ];
	expect( event?.message ).toBe( text.trim() );
}
