/**
 * What a page pays for the block: nothing without it; with it, a small loader until the map nears
 * the viewport, and only then mapbox-gl and the runtime. Several maps on one page start, fail and
 * move independently. With the consent gate on, no map of the page contacts Mapbox (or loads
 * mapbox-gl) before the visitor selects "Load map"; one click is consent for the page (see
 * packages/map/src/watch-maps.ts), so every map then starts.
 */
import type { Page, Request } from '@playwright/test';

import { VISITOR_STATE } from './global-setup';
import { expect, test } from './fixtures/maps-service';
import { errorMessageFor } from './utils/error-messages';
import { FAKE_PUBLIC_TOKEN, mapBlock, setToken } from './utils/map-page';
import {
	pageCaughtUp,
	publishFrontPage,
	waitForIdle,
	guardVisitorPages,
} from './utils/front-map';

const PLUGIN_PATH = '/wp-content/plugins/cairn-maps/';
// The runtime chunk and mapbox-gl (from Mapbox's distribution, see load-mapbox-gl.ts).
const LAZY_CHUNK =
	/\/build\/cairn-map-runtime\.js|\/mapbox-gl-js\/v[^/]+\/mapbox-gl\.(js|css)/;
const NO_MARKERS = { source: 'ids', groups: [], ids: [] };

const urls = { plain: '', belowFold: '', several: '', twoMaps: '' };

function recordRequests( page: Page ): Array< { url: string; at: number } > {
	const seen: Array< { url: string; at: number } > = [];
	page.on( 'request', ( request: Request ) =>
		seen.push( { url: request.url(), at: Date.now() } )
	);
	return seen;
}

test.describe( 'front-end loading', () => {
	test.use( { storageState: VISITOR_STATE } );

	test.beforeAll( async ( { requestUtils } ) => {
		await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
		urls.plain = await publishFrontPage(
			requestUtils,
			'Loading spec: no map',
			'<!-- wp:paragraph --><p>Just words, no map.</p><!-- /wp:paragraph -->'
		);
		urls.belowFold = await publishFrontPage(
			requestUtils,
			'Loading spec: map below the fold',
			'<!-- wp:spacer {"height":"2400px"} --><div style="height:2400px" aria-hidden="true" class="wp-block-spacer"></div><!-- /wp:spacer -->' +
				mapBlock( { markers: NO_MARKERS } )
		);
		const small = { height: '220px', markers: NO_MARKERS };
		urls.several = await publishFrontPage(
			requestUtils,
			'Loading spec: several maps',
			mapBlock( { ...small, center: { lng: 10, lat: 50 }, zoom: 3 } ) +
				mapBlock( { ...small, minZoom: 10, maxZoom: 5 } ) +
				mapBlock( {
					...small,
					center: { lng: -70, lat: -10 },
					zoom: 2,
					mapStyle: 'mapbox://styles/mapbox/streets-v12',
				} )
		);
		urls.twoMaps = await publishFrontPage(
			requestUtils,
			'Loading spec: two maps behind the consent gate',
			mapBlock( { ...small, center: { lng: 10, lat: 50 }, zoom: 3 } ) +
				mapBlock( {
					...small,
					center: { lng: -70, lat: -10 },
					zoom: 2,
				} )
		);
	} );
	guardVisitorPages();

	test( 'a page without the block loads nothing of the plugin', async ( {
		page,
		mapsService,
	} ) => {
		const requests = recordRequests( page );
		await page.goto( urls.plain );
		await page.waitForLoadState( 'load' );
		await pageCaughtUp( page );
		expect(
			requests.filter( ( request ) =>
				request.url.includes( PLUGIN_PATH )
			)
		).toEqual( [] );
		const html = await page.content();
		expect( html ).not.toContain( PLUGIN_PATH );
		expect( html ).not.toContain( 'wp-block-cairn-map' );
		expect( mapsService.requests ).toEqual( [] );
	} );

	test( 'below the fold, mapbox-gl loads only when the visitor scrolls near the map', async ( {
		page,
		mapsService,
	} ) => {
		const requests = recordRequests( page );
		await page.goto( urls.belowFold );
		await page.waitForLoadState( 'load' );
		// The loader has run and its IntersectionObserver has reported the map out of view.
		await pageCaughtUp( page );

		const plugin = requests.filter( ( r ) =>
			r.url.includes( PLUGIN_PATH )
		);
		const scripts = plugin.filter( ( r ) => /\.js(\?|$)/.test( r.url ) );
		expect( scripts.map( ( r ) => new URL( r.url ).pathname ) ).toEqual( [
			`${ PLUGIN_PATH }build/blocks/map/view.js`,
		] );
		expect( requests.some( ( r ) => LAZY_CHUNK.test( r.url ) ) ).toBe(
			false
		);
		expect( mapsService.requests ).toEqual( [] );
		const map = page.locator( '.wp-block-cairn-map' );
		await expect( map ).toHaveAttribute( 'data-cairn-state', 'loading' );
		// The loader itself is small (what crosses the wire is measured by `npm run bench:front`).
		const loaderBytes = await page.evaluate(
			() =>
				(
					performance.getEntriesByType(
						'resource'
					) as PerformanceResourceTiming[]
				 ).find( ( entry ) => entry.name.includes( '/view.js' ) )
					?.decodedBodySize ?? 0
		);
		expect( loaderBytes ).toBeGreaterThan( 0 );
		// 17 KiB: the loader starts mapbox-gl's download from Mapbox's distribution (with
		// integrity) and checks each map's server key (10,754 B until 0.5.0); since 0.6.0 it also
		// starts a tiled map's first view (the tile arithmetic and addresses: its tiles and
		// summary download while mapbox-gl does) and the places chunk, and preloads React for the
		// panel: 16,401 B in 0.6.0. Since MapLibre came beside mapbox-gl it picks the map's engine
		// and starts that engine's download (maplibre-gl from the site, mapbox-gl from Mapbox's
		// distribution): 18,199 B at this writing.
		expect( loaderBytes ).toBeLessThan( 18_944 );

		const scrolledAt = Date.now();
		await map.scrollIntoViewIfNeeded();
		await waitForIdle( page );
		await expect( map ).toHaveAttribute( 'data-cairn-state', 'ready' );
		const chunks = requests.filter( ( r ) => LAZY_CHUNK.test( r.url ) );
		expect( chunks.length ).toBeGreaterThan( 0 );
		for ( const chunk of chunks ) {
			expect( chunk.at ).toBeGreaterThanOrEqual( scrolledAt );
		}
		expect( mapsService.styleRequests().length ).toBeGreaterThan( 0 );
	} );

	test( 'several maps on a page start, fail and move independently', async ( {
		page,
	} ) => {
		const requests = recordRequests( page );
		await page.goto( urls.several );
		await waitForIdle( page, 0 );
		await waitForIdle( page, 2 );
		const maps = page.locator( '.wp-block-cairn-map' );
		await expect( maps.nth( 0 ) ).toHaveAttribute(
			'data-cairn-state',
			'ready'
		);
		await expect( maps.nth( 1 ) ).toHaveAttribute(
			'data-cairn-state',
			'error'
		);
		await expect( maps.nth( 2 ) ).toHaveAttribute(
			'data-cairn-state',
			'ready'
		);

		// The broken one says so inside its own block; the others show no alert.
		await expect( page.locator( '[role="alert"]' ) ).toHaveCount( 1 );
		await expect(
			maps
				.nth( 1 )
				.locator( '[role="alert"][data-cairn-error="zoom-range"]' )
		).toHaveText( errorMessageFor( 'zoom-range' ) );
		const events = await page.evaluate( () => window.cairnEvents );
		expect( events.errors.map( ( e ) => [ e.code, e.block ] ) ).toEqual( [
			[ 'zoom-range', 1 ],
		] );
		expect( [ ...events.ready ].sort() ).toEqual( [ 0, 2 ] );
		for ( const index of [ 0, 2 ] ) {
			await expect(
				maps.nth( index ).locator( 'canvas.mapboxgl-canvas' )
			).toHaveCount( 1 );
		}

		// Two maps, two mapbox-gl instances, one download of the library.
		expect(
			requests.filter( ( r ) => /\/mapbox-gl\.js$/.test( r.url ) )
		).toHaveLength( 1 );
		const moved = await page.evaluate( () => {
			const [ first, third ] = [
				window.cairnMap( 0 ),
				window.cairnMap( 2 ),
			];
			const before = third.getCenter().toArray();
			first.jumpTo( { center: [ 100, 30 ], zoom: 5 } );
			return {
				same: first === third,
				first: first.getCenter().toArray(),
				third: third.getCenter().toArray(),
				before,
				thirdStyle: third.getStyle()?.name ?? '',
				firstStyle: first.getStyle()?.name ?? '',
			};
		} );
		expect( moved.same ).toBe( false );
		expect( moved.first ).toEqual( [ 100, 30 ] );
		expect( moved.third ).toEqual( moved.before );
		expect( moved.third[ 0 ] ).toBeCloseTo( -70, 5 );
		expect( moved.thirdStyle ).toContain( 'streets-v12' );
		expect( moved.firstStyle ).not.toContain( 'streets-v12' );
	} );

	test( 'with the consent gate, two maps both wait; one click on either starts both', async ( {
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
			await page.goto( urls.twoMaps );
		} finally {
			await requestUtils.rest( {
				method: 'POST',
				path: '/wp/v2/settings',
				data: { cairn_maps_require_consent: false },
			} );
		}
		const maps = page.locator( '.wp-block-cairn-map' );
		await expect( maps ).toHaveCount( 2 );
		// Each map has its own button and waits, although both are in view.
		for ( const index of [ 0, 1 ] ) {
			const map = maps.nth( index );
			await expect( map ).toBeInViewport();
			await expect( map ).toHaveAttribute(
				'data-cairn-consent',
				'required'
			);
			await expect( map ).toHaveAttribute(
				'data-cairn-state',
				'loading'
			);
			await expect(
				map.getByRole( 'button', { name: 'Load map' } )
			).toHaveCount( 1 );
		}
		// Both maps in view and the loader's observer past them: a map that ignored the gate
		// would have asked for its chunks by now.
		await page.waitForLoadState( 'load' );
		await pageCaughtUp( page );
		expect( requests.filter( ( r ) => LAZY_CHUNK.test( r.url ) ) ).toEqual(
			[]
		);
		expect( mapsService.requests ).toEqual( [] );
		await expect( page.locator( '.mapboxgl-canvas' ) ).toHaveCount( 0 );

		// The second map's button: consent for the page, so the first map starts too.
		const clickedAt = Date.now();
		await maps.nth( 1 ).getByRole( 'button', { name: 'Load map' } ).click();
		await waitForIdle( page, 1 );
		await waitForIdle( page, 0 );
		for ( const index of [ 0, 1 ] ) {
			await expect( maps.nth( index ) ).toHaveAttribute(
				'data-cairn-consent',
				'given'
			);
			await expect( maps.nth( index ) ).toHaveAttribute(
				'data-cairn-state',
				'ready'
			);
			await expect(
				maps.nth( index ).locator( 'canvas.mapboxgl-canvas' )
			).toHaveCount( 1 );
		}
		await expect(
			page.getByRole( 'button', { name: 'Load map' } )
		).toHaveCount( 0 );
		// Keyboard users stay on the map they chose.
		await expect(
			maps.nth( 1 ).locator( '.wp-block-cairn-map__map' )
		).toBeFocused();
		expect(
			[
				...( await page.evaluate( () => window.cairnEvents.ready ) ),
			].sort()
		).toEqual( [ 0, 1 ] );
		const chunks = requests.filter( ( r ) => LAZY_CHUNK.test( r.url ) );
		expect( chunks.length ).toBeGreaterThan( 0 );
		for ( const chunk of chunks ) {
			expect( chunk.at ).toBeGreaterThanOrEqual( clickedAt );
		}
		expect( mapsService.requests.length ).toBeGreaterThan( 0 );
		for ( const request of mapsService.requests ) {
			expect( request.time ).toBeGreaterThanOrEqual( clickedAt );
		}
		expect( mapsService.styleRequests().length ).toBeGreaterThanOrEqual(
			2
		);
	} );
} );
