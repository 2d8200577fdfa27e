/**
 * The basemap data the MapLibre engine is tested against, drawn by maplibre-gl itself (no plugin
 * runtime involved), so a failure here is the data's, not the runtime's:
 * - the OpenFreeMap stand-in (tests/e2e/fixtures/maps-service.ts): each style draws land, water,
 *   borders and country labels from its TileJSON, tiles and glyphs, with OpenFreeMap's attribution;
 * - the self-hosted world archive the set-up put in the site's media library
 *   (.cache/basemap/world.pmtiles, Protomaps schema) drawn with @protomaps/basemaps' style, its
 *   glyphs from the plugin's assets/basemap/glyphs, read in byte ranges from the site — and not
 *   one request leaves the site's origin.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';

import {
	mapsServiceTest as test,
	expect,
	OPENFREEMAP_STYLES,
	OPENFREEMAP_STYLE_URL,
} from './fixtures/maps-service';
import { BASEMAP_STATE } from './global-setup';

const ROOT = path.resolve( __dirname, '..', '..' );
const MODULES = path.join( ROOT, 'node_modules' );

/** The files a test page needs, by path under its prefix. */
function pageFile( rel: string ): { body: Buffer; contentType: string } | null {
	const files: Record< string, string > = {
		'pmtiles.js': path.join( MODULES, 'pmtiles', 'dist', 'pmtiles.js' ),
		'basemaps.js': path.join(
			MODULES,
			'@protomaps',
			'basemaps',
			'dist',
			'basemaps.js'
		),
	};
	const file = rel.startsWith( 'mgl/' )
		? path.join( MODULES, 'maplibre-gl', 'dist', rel.slice( 4 ) )
		: files[ rel ];
	if ( ! file || ! fs.existsSync( file ) ) {
		return null;
	}
	return {
		body: fs.readFileSync( file ),
		contentType: file.endsWith( '.css' )
			? 'text/css'
			: 'text/javascript; charset=utf-8',
	};
}

/**
 * Serves a test page (and maplibre-gl, pmtiles, @protomaps/basemaps) under `prefix`, for the page
 * and its workers (context level, registered after the maps service, so it answers first).
 *
 * @param context Browser context.
 * @param prefix  Absolute URL prefix ending in `/`.
 * @param script  The page's module script (maplibregl, pmtiles and basemaps are in scope).
 */
async function servePage(
	context: BrowserContext,
	prefix: string,
	script: string
): Promise< void > {
	await context.route( `${ prefix }**`, async ( route ) => {
		const rel = new URL( route.request().url() ).pathname.slice(
			new URL( prefix ).pathname.length
		);
		if ( rel === 'index.html' ) {
			return route.fulfill( {
				status: 200,
				contentType: 'text/html; charset=utf-8',
				body: `<!doctype html><meta charset="utf-8"><title>basemap</title>
<link rel="stylesheet" href="mgl/maplibre-gl.css">
<style>body{margin:0}#map{width:640px;height:400px}</style>
<div id="map"></div>
<script src="pmtiles.js"></script><script src="basemaps.js"></script>
<script type="module">
import * as maplibregl from './mgl/maplibre-gl.mjs';
window.mapErrors = [];
${ script }
map.on( 'error', ( e ) => window.mapErrors.push( String( e.error?.message ?? e.error ) ) );
map.once( 'idle', () => { window.mapIdle = true; } );
window.map = map;
</script>`,
			} );
		}
		const file = pageFile( rel );
		return file
			? route.fulfill( {
					status: 200,
					contentType: file.contentType,
					body: file.body,
				} )
			: route.fulfill( { status: 404, body: 'Not Found' } );
	} );
}

/** Waits for the map's first idle and answers what it drew. */
async function drawn( page: Page, source: string, layer: string ) {
	await page.waitForFunction(
		() => ( window as unknown as { mapIdle?: boolean } ).mapIdle === true,
		null,
		{ timeout: 60_000 }
	);
	return page.evaluate(
		( [ sourceId, sourceLayer ] ) => {
			const w = window as unknown as {
				map: {
					querySourceFeatures: (
						s: string,
						o: { sourceLayer: string }
					) => { properties: Record< string, unknown > }[];
					getCanvas: () => HTMLCanvasElement;
				};
				mapErrors: string[];
			};
			const names = w.map
				.querySourceFeatures( sourceId!, { sourceLayer: sourceLayer! } )
				.map( ( f ) => String( f.properties.name ) );
			const canvas = w.map.getCanvas();
			// Distinct colours in a 16×10 sample of the canvas: one means a blank map.
			const copy = document.createElement( 'canvas' );
			copy.width = 16;
			copy.height = 10;
			const ctx = copy.getContext( '2d' )!;
			ctx.drawImage( canvas, 0, 0, 16, 10 );
			const data = ctx.getImageData( 0, 0, 16, 10 ).data;
			const colours = new Set< string >();
			for ( let i = 0; i < data.length; i += 4 ) {
				colours.add(
					`${ data[ i ] },${ data[ i + 1 ] },${ data[ i + 2 ] }`
				);
			}
			return {
				names: [ ...new Set( names ) ],
				colours: colours.size,
				errors: w.mapErrors,
				attribution:
					document.querySelector( '.maplibregl-ctrl-attrib' )
						?.textContent ?? '',
			};
		},
		[ source, layer ]
	);
}

for ( const name of OPENFREEMAP_STYLES ) {
	test( `the OpenFreeMap stand-in draws ${ name } with its attribution`, async ( {
		page,
		context,
		mapsService,
	} ) => {
		await servePage(
			context,
			'http://basemap-test.localhost/',
			`const map = new maplibregl.Map( { container: 'map', style: ${ JSON.stringify(
				OPENFREEMAP_STYLE_URL( name )
			) }, center: [ 10, 50 ], zoom: 3, attributionControl: { compact: false }, canvasContextAttributes: { preserveDrawingBuffer: true } } );`
		);
		await page.goto( 'http://basemap-test.localhost/index.html' );
		const result = await drawn( page, 'openmaptiles', 'place' );

		expect( result.errors ).toEqual( [] );
		expect( result.names ).toEqual(
			expect.arrayContaining( [ 'Germany', 'France', 'Poland' ] )
		);
		expect( result.colours ).toBeGreaterThan( 2 );
		expect( result.attribution ).toContain( 'OpenFreeMap' );
		expect( result.attribution ).toContain( 'OpenMapTiles' );
		expect( result.attribution ).toContain( 'OpenStreetMap' );
		const kinds = new Set(
			mapsService.openFreeMapRequests
				.filter( ( r ) => r.status === 200 )
				.map( ( r ) => r.kind )
		);
		expect( [ ...kinds ].sort() ).toEqual(
			[ 'glyphs', 'sprite', 'style', 'tile', 'tilejson' ].sort()
		);
		expect( mapsService.requests ).toEqual( [] );
		expect( mapsService.unexpected ).toEqual( [] );
	} );
}

test( 'an unknown OpenFreeMap style answers 404, a failure switch fails its tiles', async ( {
	page,
	context,
	mapsService,
} ) => {
	await servePage(
		context,
		'http://basemap-test.localhost/',
		'const map = { on() {}, once() {} };'
	);
	await page.goto( 'http://basemap-test.localhost/index.html' );
	const status = ( url: string ) =>
		page.evaluate( async ( u ) => ( await fetch( u ) ).status, url );
	expect( await status( OPENFREEMAP_STYLE_URL( 'nope' ) ) ).toBe( 404 );
	expect( await status( OPENFREEMAP_STYLE_URL( 'positron' ) ) ).toBe( 200 );
	mapsService.respondWithStatus( 503, {
		service: 'openfreemap',
		kinds: [ 'tile' ],
	} );
	expect(
		await status(
			'https://tiles.openfreemap.org/planet/20261202_000000_pt/3/4/2.pbf'
		)
	).toBe( 503 );
	expect( await status( OPENFREEMAP_STYLE_URL( 'liberty' ) ) ).toBe( 200 );
	expect(
		mapsService.openFreeMapRequests.map( ( r ) => [ r.kind, r.status ] )
	).toEqual( [
		[ 'style', 404 ],
		[ 'style', 200 ],
		[ 'tile', 503 ],
		[ 'style', 200 ],
	] );
	expect( mapsService.requests ).toEqual( [] );
} );

test( 'the self-hosted world archive draws from the site alone', async ( {
	page,
	context,
	baseURL,
	mapsService,
} ) => {
	const state = JSON.parse( fs.readFileSync( BASEMAP_STATE, 'utf8' ) ) as {
		url?: string;
		ranges?: boolean;
		error?: string;
	};
	test.skip(
		! state.url,
		`the set-up could not put the archive in the media library: ${ state.error }`
	);
	expect( state.ranges ).toBe( true );
	const origin = new URL( baseURL! ).origin;
	const glyphs = `${ origin }/wp-content/plugins/cairn-maps/assets/basemap/glyphs/{fontstack}/{range}.pbf`;
	const offOrigin: string[] = [];
	const archive: number[] = [];
	page.on( 'request', ( request ) => {
		if ( new URL( request.url() ).origin !== origin ) {
			offOrigin.push( request.url() );
		}
	} );
	page.on( 'response', ( response ) => {
		if ( response.url() === state.url ) {
			archive.push( response.status() );
		}
	} );
	await servePage(
		context,
		`${ origin }/__cairn-basemap-test/`,
		`// metadata: true puts the archive's own attribution (and vector_layers) in the TileJSON.
const protocol = new pmtiles.Protocol( { metadata: true } );
maplibregl.addProtocol( 'pmtiles', protocol.tile );
const fonts = ( f ) => ( /Medium|Bold/.test( f ) ? 'DejaVuSans-Bold' : 'DejaVuSans-Book' );
const layers = basemaps
	.layers( 'protomaps', basemaps.namedFlavor( 'light' ), { lang: 'en' } )
	.filter( ( l ) => ! l.layout?.[ 'icon-image' ] )
	.map( ( l ) => l.layout?.[ 'text-font' ] ? { ...l, layout: { ...l.layout, 'text-font': l.layout[ 'text-font' ].map( fonts ) } } : l );
const map = new maplibregl.Map( {
	container: 'map', center: [ 10, 50 ], zoom: 3, attributionControl: { compact: false },
	canvasContextAttributes: { preserveDrawingBuffer: true },
	style: { version: 8, glyphs: ${ JSON.stringify( glyphs ) },
		sources: { protomaps: { type: 'vector', url: ${ JSON.stringify(
			`pmtiles://${ state.url }`
		) } } }, layers },
} );`
	);
	await page.goto( `${ origin }/__cairn-basemap-test/index.html` );
	const result = await drawn( page, 'protomaps', 'places' );

	expect( result.errors ).toEqual( [] );
	expect( result.names ).toEqual(
		expect.arrayContaining( [ 'Germany', 'France', 'Poland' ] )
	);
	expect( result.colours ).toBeGreaterThan( 2 );
	expect( result.attribution ).toContain( 'Natural Earth' );
	// Read in ranges: every answer was a 206, never the whole file.
	expect( archive.length ).toBeGreaterThan( 2 );
	expect( new Set( archive ) ).toEqual( new Set( [ 206 ] ) );
	expect( offOrigin ).toEqual( [] );
	expect( mapsService.requests ).toEqual( [] );
	expect( mapsService.openFreeMapRequests ).toEqual( [] );
	expect( mapsService.unexpected ).toEqual( [] );
} );
