/**
 * The vertical slice: a public token saved through the REST settings, a published page with the
 * block, and a visitor who gets a real, non-blank mapbox-gl map drawn from the offline service.
 */
import { VISITOR_STATE } from './global-setup';
import { expect, test } from './fixtures/maps-service';
import {
	FAKE_PUBLIC_TOKEN,
	mapBlock,
	publishPage,
	setToken,
	visibleColours,
	waitForMapState,
} from './utils/map-page';

test.describe( 'front-end map', () => {
	test.use( { storageState: VISITOR_STATE } );

	test.beforeAll( async ( { requestUtils } ) => {
		await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
	} );

	test( 'renders a map with the saved token for a visitor', async ( {
		page,
		requestUtils,
		mapsService,
	} ) => {
		const url = await publishPage(
			requestUtils,
			'Slice map',
			mapBlock( { center: { lng: 10, lat: 50 }, zoom: 3 } )
		);

		await page.goto( url );
		const map = page.locator( '.wp-block-cairn-map' );
		await expect( map ).toHaveAttribute(
			'data-cairn-state',
			/loading|ready/
		);
		expect( await waitForMapState( map ) ).toBe( 'ready' );
		await expect( map.getByRole( 'alert' ) ).toHaveCount( 0 );

		// A real picture: water, land and borders, not an empty box.
		await page.waitForFunction( () =>
			document.querySelector( '.wp-block-cairn-map canvas' )
		);
		const canvas = map.locator( 'canvas.mapboxgl-canvas' );
		await expect( canvas ).toBeVisible();
		expect( await visibleColours( page, canvas ) ).toBeGreaterThanOrEqual(
			3
		);

		// Tiles came from the (offline) maps service, each carrying the public token.
		const tiles = mapsService.tileRequests();
		expect( tiles.length ).toBeGreaterThan( 0 );
		for ( const tile of tiles ) {
			expect( tile.token ).toBe( FAKE_PUBLIC_TOKEN );
		}
		expect( mapsService.styleRequests()[ 0 ]?.token ).toBe(
			FAKE_PUBLIC_TOKEN
		);
		// Nothing else left the machine.
		expect( mapsService.unexpected ).toEqual( [] );
	} );

	test( 'dispatches cairn:map-ready with the mapbox-gl map', async ( {
		page,
		requestUtils,
	} ) => {
		const url = await publishPage(
			requestUtils,
			'Ready event',
			mapBlock( { zoom: 4, bearing: 30, pitch: 45 } )
		);
		await page.addInitScript( () => {
			document.addEventListener( 'cairn:map-ready', ( event ) => {
				const { map } = ( event as CustomEvent ).detail;
				( window as unknown as { cairnCamera: unknown } ).cairnCamera =
					{
						zoom: map.getZoom(),
						bearing: map.getBearing(),
						pitch: map.getPitch(),
						maxPitch: map.getMaxPitch(),
						minZoom: map.getMinZoom(),
					};
			} );
		} );
		await page.goto( url );
		const camera = await page.waitForFunction(
			() => ( window as unknown as { cairnCamera?: unknown } ).cairnCamera
		);
		expect( await camera.jsonValue() ).toEqual( {
			zoom: 4,
			bearing: 30,
			pitch: 45,
			maxPitch: 60,
			minZoom: 0,
		} );
	} );
} );
