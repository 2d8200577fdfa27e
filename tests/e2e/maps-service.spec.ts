/**
 * Proof that the offline maps service (fixtures/maps-service.ts) is enough for mapbox-gl 3 to
 * render a real map, labels and clusters included, with nothing leaving the machine.
 * Needs no WordPress: a tiny page served by `page.route` loads mapbox-gl from node_modules.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import {
	mapsServiceTest as test,
	expect,
	FAKE_PUBLIC_TOKEN,
} from './fixtures/maps-service';
import { colourCounts } from './utils/map-page';

const ORIGIN = 'http://cairn.localhost';
const MAPBOX_DIST = path.resolve(
	__dirname,
	'..',
	'..',
	'node_modules',
	'mapbox-gl',
	'dist'
);
const SCREENSHOT =
	process.env.CAIRN_FIXTURE_SCREENSHOT ?? '/tmp/fixture-map.png';

// Independent of the WordPress log-in state the main config sets up.
test.use( {
	storageState: { cookies: [], origins: [] },
	viewport: { width: 1024, height: 640 },
} );

const HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>maps fixture</title>
<link rel="stylesheet" href="/mapbox-gl.css">
<style>html,body{margin:0}#map{width:900px;height:560px}</style>
<script src="/mapbox-gl.js"></script></head>
<body><div id="map"></div>
<script>
window.__errors = [];
window.__ready = false;
function points() {
	const seeds = [ [ -3.19, 55.95 ], [ 2.35, 48.86 ], [ 13.4, 52.52 ], [ -74.0, 40.71 ], [ 139.7, 35.69 ], [ 151.2, -33.87 ] ];
	const features = [];
	let n = 0;
	seeds.forEach( ( [ lng, lat ], s ) => {
		for ( let i = 0; i < 6 + s * 5; i++, n++ ) {
			features.push( { type: 'Feature', id: n, properties: { title: 'Marker ' + n },
				geometry: { type: 'Point', coordinates: [ lng + Math.sin( n ) * 1.5, lat + Math.cos( n * 1.7 ) ] } } );
		}
	} );
	features.push( { type: 'Feature', id: 999, properties: { title: 'Lonely' }, geometry: { type: 'Point', coordinates: [ -60, -15 ] } } );
	return { type: 'FeatureCollection', features };
}
try {
	mapboxgl.accessToken = ${ JSON.stringify( FAKE_PUBLIC_TOKEN ) };
	const map = window.map = new mapboxgl.Map( {
		container: 'map',
		style: 'mapbox://styles/mapbox/standard',
		center: [ 20, 30 ],
		zoom: 1.2,
		minZoom: 0,
		maxPitch: 60,
		performanceMetricsCollection: false,
		fadeDuration: 0,
	} );
	map.on( 'error', ( e ) => window.__errors.push( {
		status: e.error && e.error.status, message: String( e.error && e.error.message ), sourceId: e.sourceId || null,
	} ) );
	map.on( 'load', () => {
		map.addSource( 'markers', { type: 'geojson', data: points(), cluster: true, clusterRadius: 80, clusterMaxZoom: 14 } );
		map.addLayer( { id: 'clusters', type: 'circle', source: 'markers', filter: [ 'has', 'point_count' ],
			paint: { 'circle-color': '#d9480f', 'circle-radius': 18, 'circle-stroke-width': 2, 'circle-stroke-color': '#ffffff' } } );
		map.addLayer( { id: 'cluster-count', type: 'symbol', source: 'markers', filter: [ 'has', 'point_count' ],
			layout: { 'text-field': [ 'get', 'point_count_abbreviated' ], 'text-font': [ 'DIN Pro Bold', 'Arial Unicode MS Bold' ],
				'text-size': 14, 'text-allow-overlap': true },
			paint: { 'text-color': '#ffffff' } } );
		map.addLayer( { id: 'marker', type: 'circle', source: 'markers', filter: [ '!', [ 'has', 'point_count' ] ],
			paint: { 'circle-color': '#1864ab', 'circle-radius': 7, 'circle-stroke-width': 2, 'circle-stroke-color': '#ffffff' } } );
		map.once( 'idle', () => { window.__ready = true; } );
	} );
} catch ( e ) {
	window.__errors.push( { status: null, message: 'constructor: ' + e.message, sourceId: null } );
}
</script></body></html>`;

async function openMapPage( page: Page ) {
	await page.route( `${ ORIGIN }/**`, ( route ) => {
		const { pathname } = new URL( route.request().url() );
		if ( pathname === '/mapbox-gl.js' || pathname === '/mapbox-gl.css' ) {
			return route.fulfill( {
				path: path.join( MAPBOX_DIST, pathname.slice( 1 ) ),
			} );
		}
		if ( pathname === '/' ) {
			return route.fulfill( {
				contentType: 'text/html; charset=utf-8',
				body: HTML,
			} );
		}
		return route.fulfill( { status: 404, body: '' } );
	} );
	await page.goto( `${ ORIGIN }/` );
}

const quantise = ( hex: string ) =>
	[ 1, 3, 5 ]
		.map( ( i ) =>
			Math.floor( parseInt( hex.slice( i, i + 2 ), 16 ) / 16 )
		)
		.join( ',' );

test( 'mapbox-gl renders countries, labels and clusters from the offline service', async ( {
	page,
	mapsService,
} ) => {
	await openMapPage( page );
	await page.waitForFunction(
		() => ( window as any ).__ready || ( window as any ).__errors.length,
		null,
		{ timeout: 60_000 }
	);
	expect( await page.evaluate( () => ( window as any ).__errors ) ).toEqual(
		[]
	);

	// Clusters were placed with their count labels, so the glyphs worked.
	const labels = await page.evaluate( () =>
		( window as any ).map
			.queryRenderedFeatures( { layers: [ 'cluster-count' ] } )
			.map( ( f: any ) => f.properties.point_count )
	);
	expect( labels.length ).toBeGreaterThanOrEqual( 3 );

	// The canvas really shows water, several land colours and the cluster circles.
	const png = await page.locator( '#map' ).screenshot( { path: SCREENSHOT } );
	const colours = await colourCounts( page, png );
	const present = ( hex: string ) =>
		( colours[ quantise( hex ) ] ?? 0 ) > 200;
	expect( present( '#a8cfe0' ), 'water' ).toBe( true );
	expect(
		[ '#efe9d8', '#e3ecd0', '#f3dfd0', '#dcdcec', '#f6f0c4' ].filter(
			present
		).length,
		'land colours'
	).toBeGreaterThanOrEqual( 3 );
	expect( present( '#d9480f' ), 'cluster circles' ).toBe( true );
	expect(
		Object.values( colours ).filter( ( n ) => n > 50 ).length
	).toBeGreaterThanOrEqual( 8 );

	// Tiles went to Mapbox's hosts and carried the token. mapbox-gl fetches the first screen's
	// tiles on the main thread while its workers start, later ones from a worker: move the map
	// to prove that worker requests are intercepted too.
	await page.evaluate( () => {
		const map = ( window as any ).map;
		( window as any ).__ready = false;
		map.jumpTo( { center: [ -3.19, 55.95 ], zoom: 4.5 } );
		map.once( 'idle', () => ( ( window as any ).__ready = true ) );
	} );
	await page.waitForFunction( () => ( window as any ).__ready, null, {
		timeout: 60_000,
	} );
	const tiles = mapsService.tileRequests();
	expect( tiles.length ).toBeGreaterThan( 4 );
	for ( const tile of tiles ) {
		expect( tile.host ).toMatch( /(^|\.)mapbox\.com$/ );
		expect( tile.token ).toBe( FAKE_PUBLIC_TOKEN );
		expect( tile.status ).toBe( 200 );
	}
	expect(
		tiles.filter(
			( t ) =>
				t.path.startsWith( '/v4/mapbox.mapbox-streets-v8/4/' ) &&
				t.fromWorker
		).length
	).toBeGreaterThan( 0 );
	expect( mapsService.styleRequests()[ 0 ] ).toMatchObject( {
		path: '/styles/v1/mapbox/standard',
		token: FAKE_PUBLIC_TOKEN,
		status: 200,
		fromWorker: false,
	} );
	expect( mapsService.tileJsonRequests().length ).toBeGreaterThan( 0 );

	const glyphs = mapsService.glyphRequests();
	expect( glyphs.length ).toBeGreaterThan( 0 );
	expect(
		glyphs.every(
			( g ) => g.status === 200 && g.token === FAKE_PUBLIC_TOKEN
		)
	).toBe( true );
	expect(
		glyphs.some(
			( g ) =>
				/DIN%20Pro%20Bold/.test( g.path ) ||
				/DIN Pro Bold/.test( decodeURIComponent( g.path ) )
		)
	).toBe( true );

	expect( mapsService.tokensSeen() ).toEqual( [ FAKE_PUBLIC_TOKEN ] );
	expect(
		mapsService.requests.filter( ( r ) => r.kind === 'unknown' )
	).toEqual( [] );
	expect( mapsService.unexpected ).toEqual( [] );
} );

test( 'a 401 from the maps service reaches mapbox-gl as an error with status 401', async ( {
	page,
	mapsService,
} ) => {
	mapsService.respondWith401();
	await openMapPage( page );
	await page.waitForFunction(
		() => ( window as any ).__errors.length > 0,
		null,
		{ timeout: 30_000 }
	);
	const errors = await page.evaluate( () => ( window as any ).__errors );
	expect( errors.some( ( e: { status: number } ) => e.status === 401 ) ).toBe(
		true
	);
	expect( mapsService.styleRequests()[ 0 ]?.status ).toBe( 401 );
	expect( mapsService.unexpected ).toEqual( [] );
} );

test( 'geocoding answers, other hosts are blocked and recorded', async ( {
	page,
	mapsService,
} ) => {
	await openMapPage( page );
	const result = await page.evaluate( async ( token ) => {
		const v6 = await (
			await fetch(
				`https://api.mapbox.com/search/geocode/v6/forward?q=Edinburgh&access_token=${ token }`
			)
		).json();
		const v5 = await (
			await fetch(
				`https://api.mapbox.com/geocoding/v5/mapbox.places/Edinburgh.json?access_token=${ token }`
			)
		).json();
		let outside = 'answered';
		try {
			await fetch( 'https://example.org/beacon' );
		} catch {
			outside = 'failed';
		}
		return { v6: v6.features[ 0 ], v5: v5.features[ 0 ], outside };
	}, FAKE_PUBLIC_TOKEN );
	expect( result.v6.geometry.coordinates ).toEqual( [ -3.19, 55.95 ] );
	expect( result.v6.properties.name ).toBe( 'Edinburgh' );
	expect( result.v5.center ).toEqual( [ -3.19, 55.95 ] );
	expect( result.outside ).toBe( 'failed' );
	expect( mapsService.geocodingRequests() ).toHaveLength( 2 );
	expect( mapsService.unexpected.map( ( r ) => r.url ) ).toEqual( [
		'https://example.org/beacon',
	] );
} );
