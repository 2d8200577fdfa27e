/**
 * Issue 31, `webgl` on both engines: a browser that cannot start a graphics context (its own file,
 * because it needs its own browser: Chromium with WebGL switched off, see front-webgl.spec.ts).
 * The same map of two places on a Mapbox style (mapbox-gl) and on OpenFreeMap Liberty
 * (maplibre-gl): the plain message and the list of places, no canvas, and for MapLibre nothing
 * asked of Mapbox.
 */
import config from '../../playwright.config';
import { VISITOR_STATE } from './global-setup';
import { expect, test } from './fixtures/maps-service';
import { FAKE_PUBLIC_TOKEN, mapBlock, setToken } from './utils/map-page';
import {
	expectMapError,
	publishFrontPage,
	recordMapEvents,
	removeCreated,
	seedMarkers,
	watchPageErrors,
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

const ENGINES = [
	{
		engine: 'mapbox',
		style: 'mapbox://styles/mapbox/streets-v12',
		prefix: 'mapboxgl',
	},
	{
		engine: 'maplibre',
		style: 'https://tiles.openfreemap.org/styles/liberty',
		prefix: 'maplibregl',
	},
];
const urls: Record< string, string > = {};

test.beforeAll( async ( { requestUtils } ) => {
	await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
	const ids = await seedMarkers( requestUtils, [
		{ title: 'Engines WebGL spec: Harbour', lng: 4.9, lat: 52.37 },
		{ title: 'Engines WebGL spec: Museum', lng: 4.88, lat: 52.36 },
	] );
	for ( const { engine, style } of ENGINES ) {
		urls[ engine ] = await publishFrontPage(
			requestUtils,
			`Engines WebGL spec: ${ engine }`,
			mapBlock( {
				mapStyle: style,
				markers: { source: 'ids', groups: [], ids },
			} )
		);
	}
} );

test.afterAll( async ( { requestUtils } ) => {
	await removeCreated( requestUtils );
} );

for ( const { engine, prefix } of ENGINES ) {
	test( `${ engine }: no graphics context is the webgl alert and a plain list`, async ( {
		page,
		mapsService,
	} ) => {
		const pageErrors = watchPageErrors( page );
		await recordMapEvents( page );
		await page.goto( urls[ engine ]! );
		await expectMapError(
			page,
			'webgl',
			[ FAKE_PUBLIC_TOKEN ],
			'Engines WebGL spec: Harbour'
		);
		const list = page.locator( '.wp-block-cairn-map__markers li' );
		await expect( list ).toHaveCount( 2 );
		await expect( list.locator( 'button' ) ).toHaveCount( 0 );
		await expect( page.locator( `canvas.${ prefix }-canvas` ) ).toHaveCount(
			0
		);
		if ( engine === 'maplibre' ) {
			expect( mapsService.requests ).toEqual( [] );
		}
		expect( pageErrors.map( ( error ) => error.message ) ).toEqual( [] );
	} );
}
