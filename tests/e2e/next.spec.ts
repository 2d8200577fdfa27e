/**
 * The Next.js example (examples/next) on another origin, beside the Vite example of
 * headless.spec.ts: built from the packed package as a user installs it (examples/next/build.mjs:
 * `npm pack`, `npm ci` of the example's own lock from the npm registry, `next build` under
 * `moduleResolution: "node"`, tsc under `"bundler"`), then `next start` on a free port of
 * 127.0.0.1, reading the site under test (WP_BASE_URL) on the server with `fetchPostMaps()`.
 *
 * A post with two maps: with JavaScript, both maps draw every one of their markers (the maps
 * service routed to the offline fixtures), on mapbox-gl with a token and on MapLibre with none
 * (the keyless basemap, no Mapbox host asked); without it, the page still lists each map's places.
 *
 * The build runs once per run, and only when its inputs changed since the last one (--if-stale):
 * about 1.5–3 min on this 2-core machine from nothing (npm ci ≈ 20 s, next build ≈ 1 min), a
 * second or so when nothing changed. CAIRN_NEXT_EXAMPLE_URL runs the spec against a server
 * already started instead (it must read the site under test).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './utils/free-port';
import path from 'node:path';
import type { Page } from '@playwright/test';

import { expect, test } from './fixtures/maps-service';
import { FAKE_PUBLIC_TOKEN, mapBlock, setToken } from './utils/map-page';
import { guardVisitorPages, seedMarkers, waitForIdle } from './utils/front-map';
import { drawnMarkers } from './utils/places';

const ROOT = path.resolve( __dirname, '..', '..' );
const EXAMPLE = path.join( ROOT, 'examples', 'next' );
const SITE = new URL( process.env.WP_BASE_URL ?? 'http://localhost:8889' );

const POST_TITLE = 'Next spec: two maps';

/** Two maps far apart, each with places of its own: 5 around Edinburgh, 3 around Inverness. */
const MAPS = [
	{
		center: { lng: -3.2, lat: 55.95 },
		places: Array.from( { length: 5 }, ( _, i ) => ( {
			title: `Next spec: Edinburgh place ${ i + 1 }`,
			lng: -3.2 + 0.04 * Math.cos( ( i * 2 * Math.PI ) / 5 ),
			lat: 55.95 + 0.025 * Math.sin( ( i * 2 * Math.PI ) / 5 ),
		} ) ),
	},
	{
		center: { lng: -4.22, lat: 57.48 },
		places: Array.from( { length: 3 }, ( _, i ) => ( {
			title: `Next spec: Inverness place ${ i + 1 }`,
			lng: -4.22 + 0.05 * ( i - 1 ),
			lat: 57.48,
		} ) ),
	},
];

let postId = 0;
let app = '';
let server: ChildProcess | undefined;

/** Builds the example when stale, starts `next start`; resolves with its address once it answers. */
async function startExample(): Promise< string > {
	if ( process.env.CAIRN_NEXT_EXAMPLE_URL ) {
		return process.env.CAIRN_NEXT_EXAMPLE_URL;
	}
	execFileSync(
		process.execPath,
		[ path.join( EXAMPLE, 'build.mjs' ), '--if-stale' ],
		{ cwd: ROOT, stdio: 'inherit', timeout: 900_000 }
	);
	const port = await freePort();
	const child = spawn(
		process.execPath,
		[
			path.join( EXAMPLE, 'node_modules', 'next', 'dist', 'bin', 'next' ),
			'start',
			'--port',
			String( port ),
			'--hostname',
			'127.0.0.1',
		],
		{
			cwd: EXAMPLE,
			env: {
				...process.env,
				CAIRN_SITE: SITE.href,
				NEXT_TELEMETRY_DISABLED: '1',
			},
			stdio: [ 'ignore', 'pipe', 'inherit' ],
		}
	);
	server = child;
	return new Promise( ( resolve, reject ) => {
		let output = '';
		const timer = setTimeout(
			() =>
				reject( new Error( `next start is not ready:\n${ output }` ) ),
			60_000
		);
		child.stdout?.on( 'data', ( chunk: Buffer ) => {
			output += chunk.toString();
			if ( /Ready in/.test( output ) ) {
				clearTimeout( timer );
				resolve( `http://127.0.0.1:${ port }/` );
			}
		} );
		child.once( 'exit', ( code ) => {
			clearTimeout( timer );
			reject(
				new Error( `next start exited with ${ code }:\n${ output }` )
			);
		} );
	} );
}

/** The `index`-th map is ready and draws all its places (clusters counted by what they hold). */
async function expectAllDrawn( page: Page, index: number ) {
	await expect(
		page.locator( '.wp-block-cairn-map' ).nth( index )
	).toHaveAttribute( 'data-cairn-state', 'ready', { timeout: 60_000 } );
	await waitForIdle( page, index );
	const drawn = await drawnMarkers( page, index );
	expect( drawn.total, `markers drawn on map ${ index + 1 }` ).toBe(
		MAPS[ index ]!.places.length
	);
}

test.describe( 'Next.js example on another origin', () => {
	// A visitor of the front end: nothing stored, no WordPress cookie.
	test.use( { storageState: { cookies: [], origins: [] } } );

	test.beforeAll( async ( { requestUtils } ) => {
		// The first install and build of the example take minutes on a loaded machine.
		test.setTimeout( 900_000 );
		await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
		const blocks: string[] = [];
		for ( const map of MAPS ) {
			const ids = await seedMarkers( requestUtils, map.places );
			blocks.push(
				mapBlock( {
					center: map.center,
					zoom: 9,
					markers: { source: 'ids', groups: [], ids },
				} )
			);
		}
		postId = (
			( await requestUtils.rest( {
				method: 'POST',
				path: '/wp/v2/posts',
				data: {
					title: POST_TITLE,
					status: 'publish',
					content: `<!-- wp:paragraph --><p>Two maps.</p><!-- /wp:paragraph -->${ blocks.join(
						''
					) }`,
				},
			} ) ) as { id: number }
		 ).id;
		app = await startExample();
	} );

	test.afterAll( async ( { requestUtils } ) => {
		server?.kill();
		if ( postId ) {
			await requestUtils.rest( {
				method: 'DELETE',
				path: `/wp/v2/posts/${ postId }`,
				params: { force: true },
			} );
		}
	} );

	// Map events recorded (window.cairnMap), no uncaught error, seeded markers removed.
	guardVisitorPages();

	test( 'with JavaScript, both maps of the post draw all their markers', async ( {
		page,
		mapsService,
	} ) => {
		const consoleErrors: string[] = [];
		page.on( 'console', ( message ) => {
			if ( message.type() === 'error' ) {
				consoleErrors.push( message.text() );
			}
		} );
		await page.goto( new URL( `posts/${ postId }`, app ).href );
		await expect(
			page.getByRole( 'heading', {
				level: 1,
				name: `Maps of post ${ postId }`,
			} )
		).toBeVisible();
		const hosts = page.locator( '.wp-block-cairn-map' );
		await expect( hosts ).toHaveCount( 2 );
		for ( const index of [ 0, 1 ] ) {
			await expectAllDrawn( page, index );
		}
		// The maps service was the offline fixture, with the site's token; nothing else left.
		expect( mapsService.styleRequests().length ).toBeGreaterThan( 0 );
		expect( mapsService.tileRequests().length ).toBeGreaterThan( 0 );
		expect( mapsService.tokensSeen() ).toContain( FAKE_PUBLIC_TOKEN );
		expect( mapsService.unexpected ).toEqual( [] );
		// No hydration mismatch or failed request reported by React or the browser.
		expect( consoleErrors ).toEqual( [] );
	} );

	test( 'with no token, both maps draw on MapLibre from the keyless basemap and nothing asks Mapbox', async ( {
		page,
		mapsService,
		requestUtils,
	} ) => {
		// A new site: no token, the automatic basemap (OpenFreeMap on MapLibre).
		await requestUtils.rest( {
			method: 'POST',
			path: '/wp/v2/settings',
			data: { cairn_maps_access_token: '', cairn_maps_basemap: '' },
		} );
		try {
			const hosts = new Set< string >();
			page.on( 'request', ( request ) =>
				hosts.add( new URL( request.url() ).hostname )
			);
			await page.goto( new URL( `posts/${ postId }`, app ).href );
			const maps = page.locator( '.wp-block-cairn-map' );
			await expect( maps ).toHaveCount( 2 );
			for ( const index of [ 0, 1 ] ) {
				await expectAllDrawn( page, index );
				// MapLibre's own canvas, not mapbox-gl's.
				await expect(
					maps.nth( index ).locator( 'canvas.maplibregl-canvas' )
				).toHaveCount( 1 );
			}
			expect( mapsService.openFreeMapRequests.length ).toBeGreaterThan(
				0
			);
			expect( mapsService.requests ).toEqual( [] );
			expect(
				[ ...hosts ].filter( ( h ) =>
					/(^|\.)mapbox\.(com|cn)$/.test( h )
				)
			).toEqual( [] );
			expect(
				await page.evaluate(
					() => typeof ( window as { mapboxgl?: unknown } ).mapboxgl
				)
			).toBe( 'undefined' );
			expect( mapsService.unexpected ).toEqual( [] );
		} finally {
			await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
		}
	} );

	test( 'without JavaScript, the page lists each map’s places', async ( {
		browser,
	} ) => {
		const context = await browser.newContext( {
			javaScriptEnabled: false,
			storageState: { cookies: [], origins: [] },
		} );
		const requested: string[] = [];
		context.on( 'request', ( request ) => requested.push( request.url() ) );
		const page = await context.newPage();
		const response = await page.goto(
			new URL( `posts/${ postId }`, app ).href
		);
		expect( response?.status() ).toBe( 200 );
		const hosts = page.locator( '.wp-block-cairn-map' );
		await expect( hosts ).toHaveCount( 2 );
		for ( const [ index, map ] of MAPS.entries() ) {
			const entries = hosts
				.nth( index )
				.locator( 'li[data-cairn-marker-id]' );
			// Each entry is the place's name and its way there (the site's app, OpenStreetMap).
			await expect( entries ).toHaveText(
				map.places.map( ( place ) => `${ place.title } Directions` ),
				{ useInnerText: true }
			);
		}
		await expect(
			hosts.first().getByRole( 'link', {
				name: `Directions to ${ MAPS[ 0 ]!.places[ 0 ]!.title } (opens in a new tab)`,
			} )
		).toHaveAttribute(
			'href',
			'https://www.openstreetmap.org/directions?route=;55.95,-3.16'
		);
		// Only the front end's own page and files: no map library, no maps service, no site.
		expect(
			requested.filter(
				( url ) => new URL( url ).origin !== new URL( app ).origin
			)
		).toEqual( [] );
		await context.close();
	} );
} );
