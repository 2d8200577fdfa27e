/**
 * Screenshots of the editor and the front end, for the README. Each is also a check: the map is
 * ready (not blank) before the picture is taken. With CAIRN_SCREENSHOTS=1 (`npm run screenshots`)
 * they are written to docs/screenshots/; otherwise to the test output folder.
 */

import { VISITOR_STATE } from './global-setup';
import { expect, test } from './fixtures/maps-service';
import { screenshotPath } from './utils/screenshots';
import {
	FAKE_PUBLIC_TOKEN,
	dismissWelcomeGuide,
	mapBlock,
	publishPage,
	setToken,
	visibleColours,
	waitForMapState,
} from './utils/map-page';

const MARKERS = [
	[ 'Edinburgh Castle', 55.9486, -3.1999 ],
	[ 'Arthur’s Seat', 55.9441, -3.1618 ],
	[ 'Calton Hill', 55.9553, -3.1827 ],
	[ 'Royal Botanic Garden', 55.9652, -3.2091 ],
	[ 'Forth Bridge', 56.0006, -3.3884 ],
	[ 'Glasgow Cathedral', 55.8629, -4.2345 ],
	[ 'Stirling Castle', 56.1238, -3.9481 ],
] as const;

test.describe( 'screenshots', () => {
	let url = '';

	test.beforeAll( async ( { requestUtils } ) => {
		await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
		// Its own group, so the picture shows these places whatever else the site holds.
		const slug = `scotland-${ Date.now() }`;
		const group = ( await requestUtils.rest( {
			method: 'POST',
			path: '/wp/v2/cairn-marker-groups',
			data: { name: 'Scotland', slug },
		} ) ) as { id: number };
		for ( const [ title, lat, lng ] of MARKERS ) {
			await requestUtils.rest( {
				method: 'POST',
				path: '/wp/v2/cairn-markers',
				data: {
					title,
					status: 'publish',
					meta: { cairn_lat: lat, cairn_lng: lng },
					'cairn-marker-groups': [ group.id ],
				},
			} );
		}
		url = await publishPage(
			requestUtils,
			'Places in Scotland',
			`<!-- wp:paragraph --><p>Our favourite places, clustered when they are close.</p><!-- /wp:paragraph -->${ mapBlock(
				{
					center: { lng: -3.6, lat: 55.98 },
					zoom: 7,
					markers: { source: 'groups', groups: [ slug ], ids: [] },
					controls: {
						zoom: true,
						compass: true,
						scale: true,
						fullscreen: true,
						geolocate: false,
					},
				}
			) }`
		);
	} );

	test.describe( 'as a visitor', () => {
		test.use( { storageState: VISITOR_STATE } );

		test( 'front end', async ( { page }, testInfo ) => {
			await page.setViewportSize( { width: 1200, height: 900 } );
			await page.addInitScript( () => {
				document.addEventListener( 'cairn:map-ready', ( event ) => {
					( window as unknown as { cairnMap: unknown } ).cairnMap = (
						event as CustomEvent
					 ).detail.map;
				} );
			} );
			await page.goto( url );
			const map = page.locator( '.wp-block-cairn-map' );
			expect( await waitForMapState( map ) ).toBe( 'ready' );
			await expect(
				map.getByRole( 'heading', { name: /places on this map/ } )
			).toHaveText( `${ MARKERS.length } places on this map` );
			// The markers are drawn: clusters and single places on the canvas.
			await page.waitForFunction( () => {
				const live = (
					window as unknown as {
						cairnMap?: {
							queryRenderedFeatures: ( o: object ) => unknown[];
						};
					}
				 ).cairnMap;
				return (
					( live?.queryRenderedFeatures( {
						layers: [ 'cairn-clusters', 'cairn-points' ],
					} ).length ?? 0 ) > 0
				);
			} );
			// Labels faded in: mapbox-gl sends `idle` only once no fade or transition is running.
			await page.evaluate(
				() =>
					new Promise< void >( ( resolve ) => {
						const live = (
							window as unknown as {
								cairnMap: import( 'mapbox-gl' ).Map;
							}
						 ).cairnMap;
						live.once( 'idle', () => resolve() );
						live.triggerRepaint();
					} )
			);
			const canvas = map.locator( 'canvas.mapboxgl-canvas' );
			expect(
				await visibleColours( page, canvas )
			).toBeGreaterThanOrEqual( 3 );
			await map.screenshot( {
				path: screenshotPath( 'front-end.png', testInfo ),
			} );
		} );
	} );

	test( 'editor', async ( { admin, editor, page }, testInfo ) => {
		await page.setViewportSize( { width: 1400, height: 900 } );
		await admin.createNewPost( { postType: 'page', title: 'A map' } );
		await editor.insertBlock( {
			name: 'cairn/map',
			attributes: { center: { lng: -3.6, lat: 55.98 }, zoom: 7 },
		} );
		const host = editor.canvas.locator(
			'.wp-block-cairn-map [data-cairn-state]'
		);
		await expect( host ).toHaveAttribute( 'data-cairn-state', 'ready', {
			timeout: 60_000,
		} );
		await dismissWelcomeGuide( page );
		// The guide is gone and the preview has drawn everything (tiles loaded, labels faded in):
		// two pictures of its canvas in a row are the same.
		await expect(
			page.getByRole( 'dialog', { name: /welcome/i } )
		).toHaveCount( 0 );
		const canvas = editor.canvas.locator( 'canvas.mapboxgl-canvas' );
		let previous: Buffer | null = null;
		await expect
			.poll( async () => {
				const shot = await canvas.screenshot();
				const same = previous?.equals( shot ) ?? false;
				previous = shot;
				return same;
			} )
			.toBe( true );
		await page.screenshot( {
			path: screenshotPath( 'editor.png', testInfo ),
		} );
	} );
} );
