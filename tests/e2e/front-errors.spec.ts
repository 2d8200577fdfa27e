/**
 * Never a broken page: each failure a visitor can meet ends in `data-cairn-state="error"`, one
 * `role="alert"` with its `data-cairn-error` code and its message word for word from
 * tests/fixtures/error-messages.json (no token, no address), the server-rendered list of places
 * still there, one `cairn:map-error` event and no uncaught error. That includes a map library that
 * never downloads (an ad blocker, a CDN outage) and a style that never arrives (the 30 s deadline).
 *
 * Covered elsewhere, and why:
 * - `webgl` needs its own browser (front-webgl.spec.ts);
 * - `image-type` needs group icons (front-markers.spec.ts);
 * - `bad-container` and a secret token *reaching the map* cannot happen through the block (the
 *   server always renders the container, and never renders an `sk.`/`tk.` token: the settings
 *   endpoint refuses one, and `Settings::map_token()` reports `secret-token` itself), so they are
 *   covered at the runtime level in tests/unit/create-map.test.ts and by PHPUnit; here only the
 *   refusal of a secret token by the settings endpoint is checked.
 */
import type { Route } from '@playwright/test';

import { VISITOR_STATE } from './global-setup';
import { expect, test } from './fixtures/maps-service';
import type { MapsService } from './fixtures/maps-service';
import { FAKE_PUBLIC_TOKEN, mapBlock, setToken } from './utils/map-page';
import { errorMessageFor } from './utils/error-messages';
import {
	expectMapError,
	seedMarkers,
	waitForIdle,
	publishFrontPage,
	guardVisitorPages,
} from './utils/front-map';

const SECRET_TOKEN = `sk.${ Buffer.from(
	JSON.stringify( { u: 'cairn-test', a: 'secret' } )
).toString( 'base64url' ) }.c2VjcmV0LXNpZ25hdHVyZQ`;

const PLACE = 'Errors spec: Old Town';

let okUrl = '';
let mapboxUrl = '';
let zoomRangeUrl = '';

test.describe( 'front-end map failures', () => {
	test.use( { storageState: VISITOR_STATE } );

	test.beforeAll( async ( { requestUtils } ) => {
		await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
		const ids = await seedMarkers( requestUtils, [
			{ title: PLACE, lng: -3.19, lat: 55.95 },
			{ title: 'Errors spec: Leith', lng: -3.17, lat: 55.98 },
		] );
		const markers = { source: 'ids', groups: [], ids };
		okUrl = await publishFrontPage(
			requestUtils,
			'Errors spec: map',
			mapBlock( { center: { lng: -3.19, lat: 55.95 }, zoom: 9, markers } )
		);
		// Token codes occur on Mapbox maps only: without a token block.json's default style draws
		// OpenFreeMap (since 0.7.0); a block naming a Mapbox style still says why it cannot.
		mapboxUrl = await publishFrontPage(
			requestUtils,
			'Errors spec: Mapbox style',
			mapBlock( {
				center: { lng: -3.19, lat: 55.95 },
				zoom: 9,
				markers,
				mapStyle: 'mapbox://styles/mapbox/outdoors-v12',
			} )
		);
		zoomRangeUrl = await publishFrontPage(
			requestUtils,
			'Errors spec: zoom range',
			mapBlock( { minZoom: 10, maxZoom: 5, markers } )
		);
	} );

	guardVisitorPages();

	const serviceFailures: Array<
		[ string, string, ( service: MapsService ) => void ]
	> = [
		[ '401', 'invalid-token', ( s ) => s.respondWith401() ],
		[ '403', 'invalid-token', ( s ) => s.respondWithStatus( 403 ) ],
		[
			'429 for the style',
			'style',
			( s ) => s.respondWithStatus( 429, { kinds: [ 'style' ] } ),
		],
		[
			'500 for the style',
			'style',
			( s ) => s.respondWithStatus( 500, { kinds: [ 'style' ] } ),
		],
		[
			'a style request that fails on the network',
			'style',
			( s ) => s.abortAll( { kinds: [ 'style' ] } ),
		],
	];
	for ( const [ situation, code, arrange ] of serviceFailures ) {
		test( `${ code } when the maps service answers ${ situation }`, async ( {
			page,
			mapsService,
		} ) => {
			arrange( mapsService );
			await page.goto( okUrl );
			await expectMapError( page, code, [ FAKE_PUBLIC_TOKEN ], PLACE );
			// A fatal failure stops the map: no canvas is left behind the message.
			await expect( page.locator( '.mapboxgl-canvas' ) ).toHaveCount( 0 );
		} );
	}

	test( 'style when the style request is never answered: at the 30 s deadline, not before', async ( {
		page,
		context,
		mapsService,
	} ) => {
		// Held, not failed: the request stays open, so only the runtime's own deadline can end
		// the wait. The page runs on Playwright's clock, so 30 s pass without waiting for them:
		// production code's default deadline is what is exercised (no test-only setting).
		const held: Route[] = [];
		await context.route(
			( url ) =>
				/(^|\.)mapbox\.com$/.test( url.hostname ) &&
				url.pathname.startsWith( '/styles/v1/' ),
			( route ) => {
				held.push( route );
			}
		);
		await page.clock.install( { time: Date.now() } );
		// On the page's (fake) clock: when the runtime set its 30 s deadline. Installed after the
		// clock, so this wraps the clock's own setTimeout.
		await page.addInitScript( () => {
			const view = window as unknown as { cairnDeadlineAt?: number };
			const setTimer = window.setTimeout.bind( window );
			window.setTimeout = ( (
				...args: Parameters< typeof setTimer >
			) => {
				if (
					args[ 1 ] === 30_000 &&
					view.cairnDeadlineAt === undefined
				) {
					view.cairnDeadlineAt = Date.now();
				}
				return setTimer( ...args );
			} ) as typeof window.setTimeout;
		} );
		await page.goto( okUrl );
		const host = page.locator( '.wp-block-cairn-map' );
		await expect.poll( () => held.length, { timeout: 30_000 } ).toBe( 1 );
		const deadlineAt = await page.evaluate(
			() =>
				( window as unknown as { cairnDeadlineAt?: number } )
					.cairnDeadlineAt
		);
		expect( deadlineAt, 'the runtime set its 30 s deadline' ).toEqual(
			expect.any( Number )
		);

		// 29 s after the deadline began: the map still waits, no message yet. pauseAt has run
		// every timer due by then when it returns (and fails loudly if the page's clock is
		// already past that moment).
		await page.clock.pauseAt( deadlineAt! + 29_000 );
		expect(
			await page.evaluate( () => window.cairnEvents.errors )
		).toEqual( [] );
		await expect( host ).toHaveAttribute( 'data-cairn-state', 'loading' );
		await expect( page.locator( '[role="alert"]' ) ).toHaveCount( 0 );

		// 30 s after the map started: the style error, with the request still unanswered.
		await page.clock.pauseAt( deadlineAt! + 30_500 );
		await page.clock.resume();
		await expectMapError( page, 'style', [ FAKE_PUBLIC_TOKEN ], PLACE );
		await expect( page.locator( '.mapboxgl-canvas' ) ).toHaveCount( 0 );
		expect( held ).toHaveLength( 1 );
		expect( mapsService.styleRequests() ).toEqual( [] );
		await Promise.all(
			held.map( ( route ) => route.abort().catch( () => undefined ) )
		);
	} );

	// The loader (view.js) loads the runtime (a chunk in build/) and mapbox-gl (from Mapbox's
	// distribution) only when a map nears the viewport; either can be refused by an ad blocker or
	// lost to an outage.
	const chunkFailures: Array<
		[ string, RegExp, ( route: Route ) => Promise< void > ]
	> = [
		[
			'an ad blocker refuses mapbox-gl.js',
			/\/mapbox-gl-js\/v[^/]+\/mapbox-gl\.js$/,
			( route ) => route.abort( 'blockedbyclient' ),
		],
		[
			'an ad blocker refuses cairn-map-runtime.js',
			/\/build\/cairn-map-runtime\.js(\?|$)/,
			( route ) => route.abort( 'blockedbyclient' ),
		],
		[
			'Mapbox answers 503 for mapbox-gl.js',
			/\/mapbox-gl-js\/v[^/]+\/mapbox-gl\.js$/,
			( route ) =>
				route.fulfill( {
					status: 503,
					contentType: 'text/plain',
					body: 'Service Unavailable',
				} ),
		],
	];
	for ( const [ situation, chunk, refuse ] of chunkFailures ) {
		test( `style when ${ situation }`, async ( { page, mapsService } ) => {
			let refused = 0;
			await page.route( chunk, ( route ) => {
				refused++;
				return refuse( route );
			} );
			await page.goto( okUrl );
			await expectMapError( page, 'style', [ FAKE_PUBLIC_TOKEN ], PLACE );
			expect( refused ).toBe( 1 );
			await expect( page.getByRole( 'alert' ) ).toHaveText(
				errorMessageFor( 'style' )
			);
			expect(
				await page.evaluate( () => window.cairnEvents.errors )
			).toEqual( [
				{
					code: 'style',
					message: errorMessageFor( 'style' ),
					block: 0,
				},
			] );
			// Without the library no map exists, and no Mapbox host was contacted but for
			// mapbox-gl's own files.
			await expect( page.locator( '.mapboxgl-canvas' ) ).toHaveCount( 0 );
			await page.waitForLoadState( 'networkidle' );
			expect(
				mapsService.requests.filter( ( r ) => r.kind !== 'library' )
			).toEqual( [] );
		} );
	}

	test( 'markers when the marker feed fails, and the map stays usable', async ( {
		page,
		context,
	} ) => {
		let feedRequests = 0;
		// At context level: mapbox-gl fetches GeoJSON from its Web Worker.
		await context.route(
			( url ) =>
				/cairn(\/|%2F)v1(\/|%2F)markers(\?|$|&)/.test( url.href ),
			( route ) => {
				feedRequests++;
				return route.fulfill( {
					status: 500,
					contentType: 'application/json',
					body: '{"code":"internal_server_error"}',
				} );
			}
		);
		await page.goto( okUrl );
		await expectMapError( page, 'markers', [ FAKE_PUBLIC_TOKEN ], PLACE );
		expect( feedRequests ).toBeGreaterThan( 0 );
		// Not fatal: the map is still handed over (`cairn:map-ready`), drawn at its full height,
		// and still moves.
		await waitForIdle( page );
		await expect( page.locator( '.wp-block-cairn-map' ) ).toHaveAttribute(
			'data-cairn-state',
			'error'
		);
		const canvas = page.locator( '.mapboxgl-canvas' );
		await expect( canvas ).toBeVisible();
		expect( ( await canvas.boundingBox() )?.height ).toBeGreaterThan( 300 );
		const zoom = await page.evaluate( () => {
			const map = window.cairnMap( 0 );
			map.jumpTo( { zoom: 5 } );
			return map.getZoom();
		} );
		expect( zoom ).toBe( 5 );
	} );

	test( 'zoom-range for a block whose minimum zoom is above its maximum', async ( {
		page,
		mapsService,
	} ) => {
		await page.goto( zoomRangeUrl );
		await expectMapError(
			page,
			'zoom-range',
			[ FAKE_PUBLIC_TOKEN ],
			PLACE
		);
		// Found by the server: mapbox-gl is never even loaded.
		await page.waitForLoadState( 'networkidle' );
		expect( mapsService.requests ).toEqual( [] );
	} );

	test( 'missing-token when no access token is configured', async ( {
		page,
		requestUtils,
		mapsService,
	} ) => {
		await setToken( requestUtils, '' );
		try {
			await page.goto( mapboxUrl );
		} finally {
			await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
		}
		await expectMapError( page, 'missing-token', [], PLACE );
		await page.waitForLoadState( 'networkidle' );
		expect( mapsService.requests ).toEqual( [] );
	} );

	test( 'a secret token is refused by the settings and never reaches the map', async ( {
		page,
		requestUtils,
		mapsService,
	} ) => {
		const refusal = await setToken( requestUtils, SECRET_TOKEN ).then(
			() => null,
			( error: { code?: string; data?: { status?: number } } ) => error
		);
		expect( refusal?.data?.status ).toBe( 400 );
		const settings = ( await requestUtils.rest( {
			path: '/wp/v2/settings',
		} ) ) as { cairn_maps_access_token: string };
		expect( settings.cairn_maps_access_token ).toBe( FAKE_PUBLIC_TOKEN );

		await page.goto( okUrl );
		await expect( page.locator( '.wp-block-cairn-map' ) ).toHaveAttribute(
			'data-cairn-state',
			'ready',
			{ timeout: 45_000 }
		);
		expect( await page.content() ).not.toContain( SECRET_TOKEN );
		expect( mapsService.tokensSeen() ).toEqual( [ FAKE_PUBLIC_TOKEN ] );
	} );
} );
