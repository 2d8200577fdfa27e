/**
 * The runtime on the real maplibre-gl in Chromium, outside WordPress: the package's `createMap()`
 * on a page of its own server (tests/e2e/fixtures/maplibre-runtime), which also serves the demo
 * world archive (.cache/basemap/world.pmtiles, `npm run basemap`) with byte ranges, the site's
 * DejaVu glyphs (assets/basemap/glyphs) and maplibre-gl's worker. Every other host is routed to
 * fail and recorded.
 * - A self-hosted map draws its basemap and its clusters (read through queryRenderedFeatures),
 *   its labels in the map's language, and makes zero requests off the page's origin; mapbox-gl is
 *   never loaded (`window.mapboxgl` stays undefined).
 * - A style whose sources point at a host the owner did not choose fails with `style`, and that
 *   host is never contacted.
 * - A truncated archive fails with `style`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { expect, test, type Page } from '@playwright/test';
import * as esbuild from 'esbuild';

const ROOT = path.resolve( __dirname, '../..' );
const ARCHIVE = path.join( ROOT, '.cache/basemap/world.pmtiles' );
const GLYPHS = path.join( ROOT, 'assets/basemap/glyphs' );
const MAPLIBRE = path.dirname( require.resolve( 'maplibre-gl/package.json' ) );
const OUT = path.join( ROOT, 'artifacts/maplibre-runtime' );

test.use( { storageState: { cookies: [], origins: [] } } );

const features = Array.from( { length: 200 }, ( _, i ) => ( {
	type: 'Feature',
	id: i + 1,
	geometry: {
		type: 'Point',
		coordinates: [ -10 + ( i % 20 ) * 2, 40 + Math.floor( i / 20 ) * 2 ],
	},
	properties: { title: `Place ${ i + 1 }`, groups: [] },
} ) );

let server: http.Server;
let origin = '';

/** The file for a path of the page's server, or null. */
function fileFor( pathname: string ): string | null {
	const fixed: Record< string, string > = {
		'/': path.join( __dirname, 'fixtures/maplibre-runtime/index.html' ),
		'/world.pmtiles': ARCHIVE,
		'/truncated.pmtiles': ARCHIVE,
		'/maplibre-gl-worker.js': path.join(
			MAPLIBRE,
			'dist/maplibre-gl-worker.mjs'
		),
		'/maplibre-gl.css': path.join( MAPLIBRE, 'dist/maplibre-gl.css' ),
	};
	if ( fixed[ pathname ] ) {
		return fixed[ pathname ] ?? null;
	}
	if ( pathname.startsWith( '/glyphs/' ) ) {
		return path.join( GLYPHS, decodeURIComponent( pathname.slice( 8 ) ) );
	}
	if ( pathname.startsWith( '/out/' ) ) {
		return path.join( OUT, path.basename( pathname ) );
	}
	return null;
}

function serve( request: http.IncomingMessage, response: http.ServerResponse ) {
	const url = new URL( request.url ?? '/', origin );
	if ( url.pathname === '/markers.json' ) {
		response.writeHead( 200, { 'content-type': 'application/geo+json' } );
		response.end(
			JSON.stringify( { type: 'FeatureCollection', features } )
		);
		return;
	}
	if ( url.pathname === '/foreign-style.json' ) {
		response.writeHead( 200, { 'content-type': 'application/json' } );
		response.end(
			JSON.stringify( {
				version: 8,
				sources: {
					elsewhere: {
						type: 'vector',
						tiles: [
							'https://tiles.not-chosen.example/{z}/{x}/{y}.pbf',
						],
					},
				},
				layers: [
					{ id: 'bg', type: 'background' },
					{
						id: 'land',
						type: 'fill',
						source: 'elsewhere',
						'source-layer': 'earth',
					},
				],
			} )
		);
		return;
	}
	const file = fileFor( url.pathname );
	if ( ! file || ! fs.existsSync( file ) ) {
		response.writeHead( 404 );
		response.end();
		return;
	}
	let body = fs.readFileSync( file );
	if ( url.pathname === '/truncated.pmtiles' ) {
		body = body.subarray( 0, Math.floor( body.length / 10 ) );
	}
	const types: Array< [ RegExp, string ] > = [
		[ /\.html$/, 'text/html' ],
		[ /\.css$/, 'text/css' ],
		[ /\.m?js$/, 'text/javascript' ],
	];
	const type =
		types.find( ( [ pattern ] ) => pattern.test( file ) )?.[ 1 ] ??
		'application/octet-stream';
	const range = /bytes=(\d+)-(\d+)/.exec( request.headers.range ?? '' );
	if ( ! range ) {
		response.writeHead( 200, {
			'content-type': type,
			'content-length': body.length,
		} );
		response.end( body );
		return;
	}
	const start = Number( range[ 1 ] );
	if ( start >= body.length ) {
		response.writeHead( 416, {
			'content-range': `bytes */${ body.length }`,
		} );
		response.end();
		return;
	}
	const end = Math.min( Number( range[ 2 ] ), body.length - 1 );
	response.writeHead( 206, {
		'content-type': type,
		'content-length': end - start + 1,
		'content-range': `bytes ${ start }-${ end }/${ body.length }`,
	} );
	response.end( body.subarray( start, end + 1 ) );
}

test.beforeAll( async () => {
	if ( ! fs.existsSync( ARCHIVE ) ) {
		execFileSync(
			process.execPath,
			[ path.join( ROOT, 'bin/build-basemap.mjs' ) ],
			{
				cwd: ROOT,
				stdio: 'inherit',
			}
		);
	}
	await esbuild.build( {
		absWorkingDir: ROOT,
		entryPoints: [
			path.join( __dirname, 'fixtures/maplibre-runtime/entry.ts' ),
		],
		bundle: true,
		splitting: true,
		format: 'esm',
		platform: 'browser',
		outdir: OUT,
		logLevel: 'warning',
	} );
	server = http.createServer( serve );
	await new Promise< void >( ( resolve ) =>
		server.listen( 0, '127.0.0.1', () => resolve() )
	);
	origin = `http://127.0.0.1:${ ( server.address() as AddressInfo ).port }`;
} );

test.afterAll( () => {
	server?.close();
} );

/** Opens a case's page; every request off the page's origin fails and is recorded. */
async function open( page: Page, name: string ): Promise< string[] > {
	const off: string[] = [];
	await page.route( '**/*', ( route ) => {
		const url = route.request().url();
		if ( url.startsWith( `${ origin }/` ) ) {
			return route.continue();
		}
		off.push( url );
		return route.abort();
	} );
	await page.goto( `${ origin }/?case=${ name }` );
	await expect( page.locator( '#host' ) ).toHaveAttribute(
		'data-cairn-state',
		/ready|error/,
		{ timeout: 60_000 }
	);
	return off;
}

test( 'a self-hosted map draws its basemap and clusters with no request off the origin', async ( {
	page,
} ) => {
	const off = await open( page, 'self-hosted' );
	await expect( page.locator( '#host' ) ).toHaveAttribute(
		'data-cairn-state',
		'ready'
	);
	await expect
		.poll( () =>
			page.evaluate(
				() =>
					(
						window as unknown as {
							cairn: {
								map: {
									queryRenderedFeatures: (
										o?: unknown
									) => unknown[];
								};
							};
						}
					 ).cairn.map.queryRenderedFeatures( {
						layers: [ 'cairn-clusters' ],
					} ).length
			)
		)
		.toBeGreaterThan( 0 );
	const drawn = await page.evaluate( () => {
		const map = (
			window as unknown as {
				cairn: {
					map: {
						queryRenderedFeatures: () => Array< {
							layer: { id: string; type: string };
						} >;
						getLayoutProperty: (
							id: string,
							name: string
						) => unknown;
					};
				};
			}
		 ).cairn.map;
		const layers = new Set(
			map.queryRenderedFeatures().map( ( feature ) => feature.layer.id )
		);
		return {
			earth: layers.has( 'earth' ),
			labels: [ ...layers ].some( ( id ) => id.startsWith( 'places_' ) ),
			country: map.getLayoutProperty( 'places_country', 'text-field' ),
			mapboxgl: typeof ( window as unknown as { mapboxgl?: unknown } )
				.mapboxgl,
			attribution:
				document.querySelector( '.maplibregl-ctrl-attrib' )
					?.textContent ?? '',
		};
	} );
	expect( drawn.earth ).toBe( true );
	expect( drawn.labels ).toBe( true );
	expect( drawn.country ).toEqual( [
		'coalesce',
		[ 'get', 'name:de' ],
		[ 'get', 'name' ],
	] );
	expect( drawn.mapboxgl ).toBe( 'undefined' );
	expect( drawn.attribution ).not.toBe( '' );
	expect( off ).toEqual( [] );
} );

test( 'a style whose sources point at a host the owner did not choose fails with `style`', async ( {
	page,
} ) => {
	const off = await open( page, 'foreign-host' );
	await expect( page.locator( '#host' ) ).toHaveAttribute(
		'data-cairn-state',
		'error'
	);
	await expect( page.locator( '#host [role="alert"]' ) ).toHaveAttribute(
		'data-cairn-error',
		'style'
	);
	expect( off ).toEqual( [] );
} );

test( 'a truncated archive fails with `style`', async ( { page } ) => {
	const off = await open( page, 'truncated' );
	await expect( page.locator( '#host [role="alert"]' ) ).toHaveAttribute(
		'data-cairn-error',
		'style'
	);
	expect( off ).toEqual( [] );
} );
