/**
 * mapbox-gl comes from Mapbox's own distribution, never from the plugin (its licence forbids
 * shipping it in the zip): `api.mapbox.com/mapbox-gl-js/v<pinned>/mapbox-gl.{js,css}`, with
 * Subresource Integrity, requested once per page and only when a map starts (after the visitor's
 * consent where the site asks for it). A file that is blocked or altered leaves the visitor the
 * usual alert, never an exception, and altered code never runs. The offline maps service serves
 * the files from node_modules/mapbox-gl/dist (tests/fixtures/mapbox/README.md).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Page, Route } from '@playwright/test';

import { VISITOR_STATE } from './global-setup';
import {
	MAPBOX_GL_URLS,
	MAPBOX_GL_VERSION,
	expect,
	test,
} from './fixtures/maps-service';
import { errorMessageFor } from './utils/error-messages';
import {
	guardVisitorPages,
	publishFrontPage,
	waitForIdle,
} from './utils/front-map';
import {
	FAKE_PUBLIC_TOKEN,
	dismissWelcomeGuide,
	mapBlock,
	setToken,
} from './utils/map-page';

const DIST = path.resolve(
	__dirname,
	'..',
	'..',
	'node_modules',
	'mapbox-gl',
	'dist'
);
const NO_MARKERS = { source: 'ids', groups: [], ids: [] };

/** The integrity a file must have, computed here from the release file itself. */
function integrityOf( file: string ): string {
	return `sha384-${ crypto
		.createHash( 'sha384' )
		.update( fs.readFileSync( path.join( DIST, file ) ) )
		.digest( 'base64' ) }`;
}

/** Every address the page asked for (scripts, styles, fetches), in order, with when. */
function recordRequests( page: Page ): Array< { url: string; at: number } > {
	const requests: Array< { url: string; at: number } > = [];
	page.on( 'request', ( request ) =>
		requests.push( { url: request.url(), at: Date.now() } )
	);
	return requests;
}

const isLibrary = ( url: string ) => /\/mapbox-gl\.(js|css)(\?|$)/.test( url );

/** The `<script>` and `<link>` elements of the library in a document. */
function libraryElements( page: Page ) {
	return page.evaluate( () =>
		Array.from(
			document.querySelectorAll< HTMLScriptElement | HTMLLinkElement >(
				'script[src*="mapbox-gl"], link[href*="mapbox-gl"]'
			)
		).map( ( element ) => ( {
			tag: element.tagName.toLowerCase(),
			url:
				element instanceof HTMLScriptElement
					? element.src
					: element.href,
			integrity: element.getAttribute( 'integrity' ),
			crossorigin: element.getAttribute( 'crossorigin' ),
		} ) )
	);
}

test.describe( 'mapbox-gl from Mapbox’s distribution, for visitors', () => {
	test.use( { storageState: VISITOR_STATE } );

	let twoMaps = '';

	test.beforeAll( async ( { requestUtils } ) => {
		await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
		const small = { height: '240px', markers: NO_MARKERS };
		twoMaps = await publishFrontPage(
			requestUtils,
			'Library spec: two maps',
			mapBlock( { ...small, center: { lng: 10, lat: 50 }, zoom: 3 } ) +
				mapBlock( { ...small, center: { lng: -70, lat: -10 } } )
		);
	} );
	guardVisitorPages();

	test( 'with consent required: nothing before Load map, then the pinned files with integrity, once for two maps', async ( {
		page,
		requestUtils,
		mapsService,
	} ) => {
		const requests = recordRequests( page );
		await requestUtils.rest( {
			method: 'POST',
			path: '/wp/v2/settings',
			data: { cairn_maps_require_consent: true },
		} );
		try {
			await page.goto( twoMaps );
		} finally {
			await requestUtils.rest( {
				method: 'POST',
				path: '/wp/v2/settings',
				data: { cairn_maps_require_consent: false },
			} );
		}
		const maps = page.locator( '.wp-block-cairn-map' );
		await expect( maps.first() ).toHaveAttribute(
			'data-cairn-consent',
			'required'
		);
		await page.waitForLoadState( 'networkidle' );
		// Before the click: no request for the library, no element that would make one, and
		// nothing of mapbox-gl in the page's own scripts.
		expect( requests.filter( ( r ) => isLibrary( r.url ) ) ).toEqual( [] );
		expect( mapsService.requests ).toEqual( [] );
		expect( await libraryElements( page ) ).toEqual( [] );
		expect( await page.evaluate( () => 'mapboxgl' in window ) ).toBe(
			false
		);

		const clickedAt = Date.now();
		await maps.nth( 0 ).getByRole( 'button', { name: 'Load map' } ).click();
		await waitForIdle( page, 0 );
		await waitForIdle( page, 1 );
		for ( const index of [ 0, 1 ] ) {
			await expect( maps.nth( index ) ).toHaveAttribute(
				'data-cairn-state',
				'ready'
			);
		}

		// Exactly the pinned release's two files, once each for both maps, after the click.
		const library = requests.filter( ( r ) => isLibrary( r.url ) );
		expect( library.map( ( r ) => r.url ).sort() ).toEqual(
			[ MAPBOX_GL_URLS.css, MAPBOX_GL_URLS.js ].sort()
		);
		expect( MAPBOX_GL_URLS.js ).toBe(
			`https://api.mapbox.com/mapbox-gl-js/v${ MAPBOX_GL_VERSION }/mapbox-gl.js`
		);
		for ( const request of library ) {
			expect( request.at ).toBeGreaterThanOrEqual( clickedAt );
		}
		expect(
			mapsService.libraryRequests().map( ( r ) => r.status )
		).toEqual( [ 200, 200 ] );
		// With the integrity of the release files, as an anonymous CORS request.
		expect(
			( await libraryElements( page ) ).sort( ( a, b ) =>
				a.tag.localeCompare( b.tag )
			)
		).toEqual( [
			{
				tag: 'link',
				url: MAPBOX_GL_URLS.css,
				integrity: integrityOf( 'mapbox-gl.css' ),
				crossorigin: 'anonymous',
			},
			{
				tag: 'script',
				url: MAPBOX_GL_URLS.js,
				integrity: integrityOf( 'mapbox-gl.js' ),
				crossorigin: 'anonymous',
			},
		] );
		// No copy of mapbox-gl came from the site itself.
		expect(
			requests.filter(
				( r ) =>
					new URL( r.url ).host === new URL( page.url() ).host &&
					/mapbox/i.test( new URL( r.url ).pathname )
			)
		).toEqual( [] );
		await expect( page.locator( 'canvas.mapboxgl-canvas' ) ).toHaveCount(
			2
		);
	} );

	const failures: Array<
		[ string, RegExp, ( route: Route ) => Promise< void > ]
	> = [
		[
			'mapbox-gl.js is blocked',
			/\/mapbox-gl-js\/v[^/]+\/mapbox-gl\.js$/,
			( route ) => route.abort( 'blockedbyclient' ),
		],
		[
			'mapbox-gl.css is blocked',
			/\/mapbox-gl-js\/v[^/]+\/mapbox-gl\.css$/,
			( route ) => route.abort( 'failed' ),
		],
		[
			'mapbox-gl.js was altered on its way (integrity mismatch)',
			/\/mapbox-gl-js\/v[^/]+\/mapbox-gl\.js$/,
			( route ) =>
				route.fulfill( {
					status: 200,
					headers: { 'access-control-allow-origin': '*' },
					contentType: 'application/javascript',
					body:
						fs.readFileSync( path.join( DIST, 'mapbox-gl.js' ) ) +
						'\nwindow.cairnTampered = true;\n',
				} ),
		],
	];
	for ( const [ situation, file, answer ] of failures ) {
		test( `the style alert on both maps when ${ situation }`, async ( {
			page,
		} ) => {
			const requests = recordRequests( page );
			let answered = 0;
			await page.route( file, ( route ) => {
				answered++;
				return answer( route );
			} );
			await page.goto( twoMaps );
			const maps = page.locator( '.wp-block-cairn-map' );
			for ( const index of [ 0, 1 ] ) {
				await maps.nth( index ).scrollIntoViewIfNeeded();
				await expect( maps.nth( index ) ).toHaveAttribute(
					'data-cairn-state',
					'error'
				);
				const alert = maps.nth( index ).getByRole( 'alert' );
				await expect( alert ).toHaveText( errorMessageFor( 'style' ) );
				await expect( alert ).toHaveAttribute(
					'data-cairn-error',
					'style'
				);
			}
			await page.waitForLoadState( 'networkidle' );
			// One attempt per file for the whole page, and no map behind the alerts.
			expect( answered ).toBe( 1 );
			expect(
				requests.filter( ( r ) => isLibrary( r.url ) ).length
			).toBe( 2 );
			await expect( page.locator( '.mapboxgl-canvas' ) ).toHaveCount( 0 );
			expect(
				( await page.evaluate( () => window.cairnEvents.errors ) ).map(
					( e ) => e.code
				)
			).toEqual( [ 'style', 'style' ] );
			// Altered code never ran: the browser refused it before executing anything.
			expect(
				await page.evaluate( () => ( {
					tampered: 'cairnTampered' in window,
				} ) )
			).toEqual( { tampered: false } );
			// (guardVisitorPages: no uncaught exception on the page.)
		} );
	}
} );

test.describe( 'mapbox-gl from Mapbox’s distribution, in the editor', () => {
	test.beforeAll( async ( { requestUtils } ) => {
		await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
	} );

	test( 'the block’s preview draws, with the stylesheet inside the editor canvas', async ( {
		admin,
		editor,
		page,
		mapsService,
	} ) => {
		const errors: string[] = [];
		page.on( 'pageerror', ( error ) => errors.push( error.message ) );
		const requests = recordRequests( page );
		await admin.createNewPost( { title: 'Library spec: preview' } );
		await dismissWelcomeGuide( page );
		// Opening the editor asks for nothing of mapbox-gl: only a map does.
		expect( requests.filter( ( r ) => isLibrary( r.url ) ) ).toEqual( [] );

		await editor.insertBlock( { name: 'cairn/map' } );
		const preview = editor.canvas.locator( '.wp-block-cairn-map__preview' );
		await expect( preview ).toHaveAttribute( 'data-cairn-state', 'ready', {
			timeout: 60_000,
		} );
		await expect( preview.locator( 'canvas.mapboxgl-canvas' ) ).toHaveCount(
			1
		);
		expect( mapsService.tileRequests().length ).toBeGreaterThan( 0 );
		expect(
			requests
				.filter( ( r ) => isLibrary( r.url ) )
				.map( ( r ) => r.url )
				.sort()
		).toEqual( [ MAPBOX_GL_URLS.css, MAPBOX_GL_URLS.js ].sort() );
		// The script runs in the editor's window; the stylesheet is in the canvas's document,
		// where the map is drawn (mapbox-gl's own probe for its stylesheet finds it there).
		expect(
			await page
				.locator(
					`script[src="${ MAPBOX_GL_URLS.js }"][integrity="${ integrityOf(
						'mapbox-gl.js'
					) }"][crossorigin="anonymous"]`
				)
				.count()
		).toBe( 1 );
		await expect(
			editor.canvas.locator(
				`link[href="${ MAPBOX_GL_URLS.css }"][integrity="${ integrityOf(
					'mapbox-gl.css'
				) }"][crossorigin="anonymous"]`
			)
		).toHaveCount( 1 );
		expect(
			await preview
				.locator( '.mapboxgl-canary' )
				.evaluate(
					( canary ) =>
						canary.ownerDocument.defaultView?.getComputedStyle(
							canary
						).backgroundColor
				)
		).toBe( 'rgb(250, 128, 114)' ); // salmon: mapbox-gl.css applies in the canvas.
		expect( errors ).toEqual( [] );
	} );
} );
