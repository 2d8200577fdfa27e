/**
 * `webgl`: a browser that cannot start a graphics context. Its own file, because it needs its own
 * browser: Chromium launched with WebGL switched off (the other launch options, Debian's Chromium
 * included, are the suite's).
 */
import config from '../../playwright.config';
import { VISITOR_STATE } from './global-setup';
import { expect, test } from './fixtures/maps-service';
import { FAKE_PUBLIC_TOKEN, mapBlock, setToken } from './utils/map-page';
import {
	expectMapError,
	recordMapEvents,
	seedMarkers,
	watchPageErrors,
	publishFrontPage,
	removeCreated,
} from './utils/front-map';

const suiteLaunch = config.use?.launchOptions ?? {};

test.use( {
	storageState: VISITOR_STATE,
	launchOptions: {
		...suiteLaunch,
		args: [
			...( suiteLaunch.args ?? [] ),
			'--disable-webgl',
			'--disable-3d-apis',
		],
	},
} );

test.afterAll( async ( { requestUtils } ) => {
	await removeCreated( requestUtils );
} );

test( 'webgl: no graphics context, a plain message and the list of places', async ( {
	page,
	requestUtils,
} ) => {
	await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
	const ids = await seedMarkers( requestUtils, [
		{ title: 'WebGL spec: Harbour', lng: 4.9, lat: 52.37 },
		{ title: 'WebGL spec: Museum', lng: 4.88, lat: 52.36 },
	] );
	const url = await publishFrontPage(
		requestUtils,
		'WebGL spec',
		mapBlock( { markers: { source: 'ids', groups: [], ids } } )
	);
	const pageErrors = watchPageErrors( page );
	await recordMapEvents( page );

	// The browser really has no WebGL.
	await page.goto( url );
	expect(
		await page.evaluate(
			() =>
				document.createElement( 'canvas' ).getContext( 'webgl2' ) ===
					null &&
				document.createElement( 'canvas' ).getContext( 'webgl' ) ===
					null
		)
	).toBe( true );

	await expectMapError(
		page,
		'webgl',
		[ FAKE_PUBLIC_TOKEN ],
		'WebGL spec: Harbour'
	);
	// The places stay a plain, readable list (the runtime never upgraded it to map buttons).
	const list = page.locator( '.wp-block-cairn-map__markers li' );
	await expect( list ).toHaveCount( 2 );
	await expect( list.locator( 'button' ) ).toHaveCount( 0 );
	await expect( page.locator( '.mapboxgl-canvas' ) ).toHaveCount( 0 );
	expect( pageErrors.map( ( error ) => error.message ) ).toEqual( [] );
} );
