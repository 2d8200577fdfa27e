/**
 * Issue 31 "Done when": on a site seeded like `npm start` with no token (bin/seed.mjs's own
 * `seed()` against the test site, MAPBOX_ACCESS_TOKEN unset: the demo's groups, ~200 markers, the
 * trails, the stories and the self-hosted world archive as the site's basemap), every demo page's
 * map draws — a canvas with a basemap (pixels read) and its places read through the map
 * (`queryRenderedFeatures` on the clusters and points, or the shapes) — and no request reaches a
 * Mapbox host (every request of the context recorded, its workers' included).
 *
 * Its own file: seeding the whole demo costs about a minute on Playground; the other specs seed
 * only what they need. It leaves the demo on the site (the seed is idempotent; a second run
 * only reads it) and puts the site's basemap and token back as they were.
 */
import type { Page } from '@playwright/test';

import { VISITOR_STATE } from './global-setup';
import { expect, test } from './fixtures/maps-service';
import { visibleColours } from './utils/map-page';
import {
	recordMapEvents,
	waitForIdle,
	watchPageErrors,
} from './utils/front-map';

const seedModule = () => import( '../../bin/seed.mjs' );
const SLOW = 180_000;
const MAPBOX_HOST = /(^|\.)mapbox\.(com|cn)$/;
const PAGES = [ 'cairn-maps-demo', 'trails-and-parks', 'stories-on-the-map' ];

let before: Record< string, unknown > = {};
const links: Record< string, string > = {};

/** What the map draws: clusters' counts, single places and shapes (ids), read through the map. */
function drawn( page: Page ) {
	return page.evaluate( () => {
		const map = window.cairnMap( 0 );
		const layers = [
			'cairn-clusters',
			'cairn-points',
			'cairn-point-icons',
			'cairn-shapes-line',
			'cairn-shapes-fill',
		].filter( ( id ) => map.getLayer( id ) );
		return map.queryRenderedFeatures( { layers } ).length;
	} );
}

test.describe( 'the demo without a token', () => {
	test.use( { storageState: VISITOR_STATE } );
	test.describe.configure( { timeout: 3 * SLOW } );

	test.beforeAll( async ( { requestUtils, baseURL } ) => {
		test.setTimeout( 4 * SLOW );
		before = ( await requestUtils.rest( {
			path: '/wp/v2/settings',
			timeout: SLOW,
		} ) ) as Record< string, unknown >;
		await requestUtils.rest( {
			method: 'POST',
			path: '/wp/v2/settings',
			data: { cairn_maps_access_token: '', cairn_maps_basemap: '' },
			timeout: SLOW,
		} );
		const saved = process.env.MAPBOX_ACCESS_TOKEN;
		delete process.env.MAPBOX_ACCESS_TOKEN;
		try {
			const { seed } = ( await seedModule() ) as unknown as {
				seed: ( options: {
					siteUrl: string;
					log?: ( message: string ) => void;
				} ) => Promise< { pageUrl: string } >;
			};
			await seed( {
				siteUrl: baseURL!.replace( /\/$/, '' ),
				log: () => undefined,
			} );
		} finally {
			if ( saved !== undefined ) {
				process.env.MAPBOX_ACCESS_TOKEN = saved;
			}
		}
		const settings = ( await requestUtils.rest( {
			path: '/wp/v2/settings',
			timeout: SLOW,
		} ) ) as { cairn_maps_basemap: string };
		// The seed made the world archive the site's basemap.
		expect( settings.cairn_maps_basemap ).toMatch( /^pmtiles:\/\// );
		for ( const slug of PAGES ) {
			const found = ( await requestUtils.rest( {
				path: '/wp/v2/pages',
				params: { slug, _fields: 'link' },
				timeout: SLOW,
			} ) ) as Array< { link: string } >;
			expect( found, slug ).toHaveLength( 1 );
			links[ slug ] = found[ 0 ]!.link;
		}
	} );

	test.afterAll( async ( { requestUtils } ) => {
		await requestUtils.rest( {
			method: 'POST',
			path: '/wp/v2/settings',
			data: {
				cairn_maps_access_token: before.cairn_maps_access_token ?? '',
				cairn_maps_basemap: before.cairn_maps_basemap ?? '',
			},
			timeout: SLOW,
		} );
	} );

	for ( const slug of PAGES ) {
		test( `${ slug }: the map draws its basemap and its places, and nothing reaches Mapbox`, async ( {
			page,
			context,
			mapsService,
		} ) => {
			const errors = watchPageErrors( page );
			const hosts: string[] = [];
			context.on( 'request', ( request ) => {
				hosts.push( new URL( request.url() ).hostname );
			} );
			await recordMapEvents( page );
			await page.goto( links[ slug ]! );
			await waitForIdle( page );
			const host = page.locator( '.wp-block-cairn-map' ).first();
			await expect( host ).toHaveAttribute( 'data-cairn-state', 'ready' );
			await expect
				.poll( () => drawn( page ), { timeout: SLOW } )
				.toBeGreaterThan( 0 );
			const canvas = host.locator( 'canvas.maplibregl-canvas' );
			await expect( canvas ).toHaveCount( 1 );
			expect(
				await visibleColours( page, canvas )
			).toBeGreaterThanOrEqual( 4 );
			expect( hosts.filter( ( h ) => MAPBOX_HOST.test( h ) ) ).toEqual(
				[]
			);
			expect( mapsService.requests ).toEqual( [] );
			expect(
				await page.evaluate(
					() => typeof ( window as { mapboxgl?: unknown } ).mapboxgl
				)
			).toBe( 'undefined' );
			expect( errors.map( ( e ) => e.message ) ).toEqual( [] );
		} );
	}
} );
