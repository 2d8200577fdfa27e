#!/usr/bin/env node
/**
 * `npm run bench:draw` (issue 31): the drawing library, measured on both engines in one run, on
 * one page and one basemap. Candidates:
 *   a  @mapbox/mapbox-gl-draw on maplibre-gl (today's: set up as draw-session.ts does)
 *   b  terra-draw + terra-draw-maplibre-gl-adapter on maplibre-gl
 *   c  terra-draw + terra-draw-mapbox-gl-adapter on mapbox-gl (node_modules, a fake `pk.` token)
 *   d  @mapbox/mapbox-gl-draw on mapbox-gl (reference)
 *
 * - bytes: each candidate's session module (bench/front/draw/) bundled by esbuild, minified, ESM,
 *   the map library external, gzip -9; and the library alone (its imports re-exported);
 * - ready: a fresh context per run (cold cache); on the loaded, idle map, `import()` of that bundle
 *   → the tool reports it is ready (gl-draw: its sources on the map; terra-draw: `ready`);
 * - drawing: a 20-vertex area and a 100-vertex line clicked with `page.mouse`, each click once
 *   the previous vertex is in; per vertex, from the click's pointerup to the moment the library
 *   reports the vertex among the placed ones (checked at the input events and in a message loop
 *   from pointerdown on); total from the first pointerdown to the last vertex; then finished by
 *   clicking the last vertex again, and the area's 6th vertex dragged 30 × 25 px in edit mode;
 * - what works: point, Enter finishes, Escape cancels, a selected shape deleted with Delete, a
 *   selected vertex deleted with Delete or a right-click, the library's own buttons (names, Tab,
 *   Enter, Space), taps and a touch drag — each tried once per candidate, after the timed runs;
 * - licences: of each package in each bundle, from its package.json.
 *
 * The basemap is the demo world archive (.cache/basemap/world.pmtiles, built when missing by
 * bin/build-basemap.mjs), its tiles served at /tiles/{z}/{x}/{y}.mvt by this script with one
 * style of plain fill and line layers that both engines draw (no labels: no glyphs needed).
 * mapbox-gl is loaded from its Mapbox address, answered from node_modules/mapbox-gl/dist;
 * Mapbox's events and sessions are answered locally; any other request off 127.0.0.1 is aborted
 * and listed under `blocked`.
 *
 * Environment: CAIRN_BENCH_DRAW_RUNS (5), CAIRN_BENCH_DRAW_ONLY (e.g. `a,b`),
 * CAIRN_BENCH_NO_RESULTS=1 (print only), CHROMIUM_PATH. Writes bench/results/draw-latest.json.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

import * as esbuild from 'esbuild';
import { chromium } from '@playwright/test';
import { PMTiles } from 'pmtiles';

const HERE = path.dirname( fileURLToPath( import.meta.url ) );
const ROOT = path.resolve( HERE, '..', '..' );
const MODULES = path.join( ROOT, 'node_modules' );
const ARCHIVE = path.join( ROOT, '.cache', 'basemap', 'world.pmtiles' );
const OUT = path.join( ROOT, 'bench', 'results', 'draw-latest.json' );
const RUNS = Math.max( 1, Number( process.env.CAIRN_BENCH_DRAW_RUNS ?? 5 ) );
const MAPBOX_VERSION = JSON.parse(
	fs.readFileSync( path.join( MODULES, 'mapbox-gl', 'package.json' ), 'utf8' )
).version;
/** The e2e suite's fake public token: `pk.` + base64url JSON + a signature. */
const TOKEN = `pk.${ Buffer.from(
	JSON.stringify( { u: 'cairn-test', a: 'x' } )
).toString( 'base64url' ) }.c2lnbmF0dXJlLWNhaXJuLXRlc3Q`;

export const CANDIDATES = [
	{
		id: 'a',
		label: 'mapbox-gl-draw on maplibre-gl (today)',
		engine: 'maplibre',
		module: 'gl-draw',
		library: "export { default } from '@mapbox/mapbox-gl-draw';",
	},
	{
		id: 'b',
		label: 'terra-draw + maplibre adapter on maplibre-gl',
		engine: 'maplibre',
		module: 'terra-maplibre',
		library:
			"export { TerraDraw, TerraDrawPointMode, TerraDrawLineStringMode, TerraDrawPolygonMode, TerraDrawSelectMode } from 'terra-draw'; export { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';",
	},
	{
		id: 'c',
		label: 'terra-draw + mapbox adapter on mapbox-gl',
		engine: 'mapbox',
		module: 'terra-mapbox',
		library:
			"export { TerraDraw, TerraDrawPointMode, TerraDrawLineStringMode, TerraDrawPolygonMode, TerraDrawSelectMode } from 'terra-draw'; export { TerraDrawMapboxGLAdapter } from 'terra-draw-mapbox-gl-adapter';",
	},
	{
		id: 'd',
		label: 'mapbox-gl-draw on mapbox-gl (reference)',
		engine: 'mapbox',
		module: 'gl-draw',
		library: "export { default } from '@mapbox/mapbox-gl-draw';",
	},
];
const PREFIX = { maplibre: 'maplibregl-', mapbox: 'mapboxgl-' };
const VIEWPORT = { width: 1280, height: 800 };

function log( message ) {
	process.stderr.write( `[bench:draw] ${ message }\n` );
}

function loadAverage() {
	return fs.readFileSync( '/proc/loadavg', 'utf8' ).trim();
}

export function median( values ) {
	const list = values.filter( Number.isFinite ).sort( ( x, y ) => x - y );
	return list.length ? list[ Math.floor( ( list.length - 1 ) / 2 ) ] : null;
}

export function percentile( values, p ) {
	const list = values.filter( Number.isFinite ).sort( ( x, y ) => x - y );
	return list.length
		? list[ Math.min( list.length - 1, Math.ceil( p * list.length ) - 1 ) ]
		: null;
}

const round = ( v, digits = 1 ) =>
	v === null || v === undefined ? null : Number( v.toFixed( digits ) );

/**
 * The packages a bundle holds (from esbuild's metafile), with their versions and licences.
 * @param {*} metafile
 */
function packagesOf( metafile ) {
	const names = new Set();
	for ( const input of Object.keys( metafile.inputs ) ) {
		const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec( input );
		if ( match ) {
			names.add( match[ 1 ] );
		}
	}
	return [ ...names ].sort().map( ( name ) => {
		const pkg = JSON.parse(
			fs.readFileSync(
				path.join( MODULES, name, 'package.json' ),
				'utf8'
			)
		);
		return { name, version: pkg.version, license: pkg.license ?? null };
	} );
}

async function bundle( options ) {
	const result = await esbuild.build( {
		bundle: true,
		minify: true,
		format: 'esm',
		platform: 'browser',
		target: 'es2020',
		legalComments: 'none',
		external: [ 'maplibre-gl', 'mapbox-gl' ],
		write: false,
		metafile: true,
		logLevel: 'silent',
		...options,
	} );
	const code = result.outputFiles[ 0 ].contents;
	return {
		code: Buffer.from( code ),
		bytes: code.length,
		gzip: zlib.gzipSync( code, { level: 9 } ).length,
		packages: packagesOf( result.metafile ),
	};
}

/** Every candidate's session bundle (what the page loads) and its library alone. */
export async function bundles() {
	const out = {};
	for ( const candidate of CANDIDATES ) {
		out[ candidate.module ] ??= await bundle( {
			entryPoints: [
				path.join( HERE, 'draw', `${ candidate.module }.js` ),
			],
		} );
		out[ `${ candidate.id }-library` ] = await bundle( {
			stdin: {
				contents: candidate.library,
				resolveDir: ROOT,
				sourcefile: `${ candidate.id }-library.js`,
			},
		} );
	}
	return out;
}

/** The basemap's tiles, read from the archive on disk. */
export function archive() {
	if ( ! fs.existsSync( ARCHIVE ) ) {
		log( 'building the demo world archive (bin/build-basemap.mjs)' );
		execFileSync(
			process.execPath,
			[ path.join( ROOT, 'bin', 'build-basemap.mjs' ), '--quiet' ],
			{ cwd: ROOT, stdio: 'inherit' }
		);
	}
	const bytes = fs.readFileSync( ARCHIVE );
	return new PMTiles( {
		getKey: () => ARCHIVE,
		getBytes: async ( offset, length ) => {
			const slice = bytes.subarray( offset, offset + length );
			return {
				data: slice.buffer.slice(
					slice.byteOffset,
					slice.byteOffset + slice.byteLength
				),
			};
		},
	} );
}

/**
 * One style both engines draw: land, water and borders of the archive, no labels.
 * @param {*} origin
 */
function style( origin ) {
	return {
		version: 8,
		name: 'bench:draw',
		sources: {
			world: {
				type: 'vector',
				tiles: [ `${ origin }/tiles/{z}/{x}/{y}.mvt` ],
				minzoom: 0,
				maxzoom: 6,
				attribution: 'Natural Earth',
			},
		},
		layers: [
			{
				id: 'background',
				type: 'background',
				paint: { 'background-color': '#cfe3ef' },
			},
			{
				id: 'earth',
				type: 'fill',
				source: 'world',
				'source-layer': 'earth',
				paint: { 'fill-color': '#eeeae2' },
			},
			{
				id: 'water',
				type: 'fill',
				source: 'world',
				'source-layer': 'water',
				paint: { 'fill-color': '#cfe3ef' },
			},
			{
				id: 'boundaries',
				type: 'line',
				source: 'world',
				'source-layer': 'boundaries',
				paint: { 'line-color': '#9e9cab', 'line-width': 1 },
			},
		],
	};
}

/**
 * The page: the engine, the map over the whole viewport, then window.bench (draw-page.js).
 * @param {*} engine
 */
function pageHtml( engine ) {
	const head =
		engine === 'mapbox'
			? `<link rel="stylesheet" href="https://api.mapbox.com/mapbox-gl-js/v${ MAPBOX_VERSION }/mapbox-gl.css">
<script src="https://api.mapbox.com/mapbox-gl-js/v${ MAPBOX_VERSION }/mapbox-gl.js"></script>`
			: '<link rel="stylesheet" href="/mgl/maplibre-gl.css">';
	const lib =
		engine === 'mapbox'
			? `const lib = window.mapboxgl; lib.accessToken = ${ JSON.stringify(
					TOKEN
				) };`
			: "const lib = await import( '/mgl/maplibre-gl.mjs' ); lib.setWorkerUrl( new URL( '/mgl/maplibre-gl-worker.mjs', location.href ).href );";
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bench:draw ${ engine }</title>
${ head }
<style>html,body{margin:0;height:100%}#map{position:absolute;inset:0}</style>
</head><body><div id="map"></div>
<script type="module">
${ lib }
const { boot } = await import( '/draw-page.js' );
boot( lib, ${ JSON.stringify( engine ) }, ${ JSON.stringify( PREFIX[ engine ] ) } );
</script></body></html>`;
}

export function startServer( built, tiles ) {
	const types = {
		'.js': 'text/javascript; charset=utf-8',
		'.mjs': 'text/javascript; charset=utf-8',
		'.css': 'text/css',
		'.json': 'application/json',
	};
	const send = ( req, res, status, type, body ) => {
		const gzip = /\bgzip\b/.test( req.headers[ 'accept-encoding' ] ?? '' );
		res.writeHead( status, {
			'content-type': type,
			'cache-control': 'no-store',
			...( gzip ? { 'content-encoding': 'gzip' } : {} ),
		} );
		res.end( gzip ? zlib.gzipSync( body, { level: 6 } ) : body );
	};
	const server = http.createServer( async ( req, res ) => {
		const url = new URL( req.url, 'http://127.0.0.1' );
		const p = url.pathname;
		try {
			if ( p === '/draw.html' ) {
				return send(
					req,
					res,
					200,
					'text/html; charset=utf-8',
					pageHtml( url.searchParams.get( 'engine' ) )
				);
			}
			if ( p === '/draw-page.js' ) {
				return send(
					req,
					res,
					200,
					types[ '.js' ],
					fs.readFileSync( path.join( HERE, 'draw', 'draw-page.js' ) )
				);
			}
			if ( p === '/style.json' ) {
				return send(
					req,
					res,
					200,
					types[ '.json' ],
					JSON.stringify( style( `http://${ req.headers.host }` ) )
				);
			}
			const module = /^\/bundle\/([\w-]+)\.js$/.exec( p );
			if ( module && built[ module[ 1 ] ] ) {
				return send(
					req,
					res,
					200,
					types[ '.js' ],
					built[ module[ 1 ] ].code
				);
			}
			const mgl = /^\/mgl\/([\w.-]+)$/.exec( p );
			if ( mgl ) {
				const file = path.join(
					MODULES,
					'maplibre-gl',
					'dist',
					mgl[ 1 ]
				);
				if ( fs.existsSync( file ) ) {
					return send(
						req,
						res,
						200,
						types[ path.extname( file ) ] ?? 'text/plain',
						fs.readFileSync( file )
					);
				}
			}
			const zxy = /^\/tiles\/(\d+)\/(\d+)\/(\d+)\.mvt$/.exec( p );
			if ( zxy ) {
				const tile = await tiles.getZxy(
					Number( zxy[ 1 ] ),
					Number( zxy[ 2 ] ),
					Number( zxy[ 3 ] )
				);
				if ( ! tile ) {
					res.writeHead( 204 );
					return res.end();
				}
				let data = Buffer.from( tile.data );
				if ( data[ 0 ] === 0x1f && data[ 1 ] === 0x8b ) {
					data = zlib.gunzipSync( data );
				}
				return send(
					req,
					res,
					200,
					'application/vnd.mapbox-vector-tile',
					data
				);
			}
			res.writeHead( 404 );
			res.end();
		} catch ( error ) {
			res.writeHead( 500 );
			res.end( String( error ) );
		}
	} );
	return new Promise( ( resolve ) =>
		server.listen( 0, '127.0.0.1', () =>
			resolve( {
				server,
				origin: `http://127.0.0.1:${ server.address().port }`,
			} )
		)
	);
}

/**
 * Nothing leaves the machine: mapbox-gl's own files from node_modules, Mapbox's events and
 * sessions answered here, anything else off 127.0.0.1 aborted and listed.
 * @param {*}        context Playwright browser context.
 * @param {string[]} blocked Where aborted addresses go.
 */
async function offline( context, blocked ) {
	await context.route(
		( url ) => url.hostname !== '127.0.0.1',
		async ( route ) => {
			const url = new URL( route.request().url() );
			const file =
				/^\/mapbox-gl-js\/v[^/]+\/(mapbox-gl\.(?:js|css))$/.exec(
					url.pathname
				);
			if ( url.hostname === 'api.mapbox.com' && file ) {
				return route.fulfill( {
					status: 200,
					contentType: file[ 1 ].endsWith( '.css' )
						? 'text/css'
						: 'text/javascript',
					body: fs.readFileSync(
						path.join( MODULES, 'mapbox-gl', 'dist', file[ 1 ] )
					),
				} );
			}
			if ( /(^|\.)mapbox\.com$/.test( url.hostname ) ) {
				if ( url.hostname.startsWith( 'events.' ) ) {
					return route.fulfill( { status: 204, body: '' } );
				}
				if ( url.pathname.startsWith( '/map-sessions/' ) ) {
					return route.fulfill( {
						status: 200,
						contentType: 'application/json',
						body: '{}',
					} );
				}
			}
			blocked.push( url.href );
			return route.abort();
		}
	);
}

/**
 * A fresh context and the candidate's page with its map loaded and idle.
 * @param {*} browser
 * @param {*} origin
 * @param {*} candidate
 * @param {*} blocked
 * @param {*} withTouch
 */
export async function openPage(
	browser,
	origin,
	candidate,
	blocked,
	withTouch = false
) {
	const context = await browser.newContext( {
		viewport: VIEWPORT,
		hasTouch: withTouch,
	} );
	await offline( context, blocked );
	const page = await context.newPage();
	const errors = [];
	page.on( 'pageerror', ( error ) => errors.push( String( error ) ) );
	await page.goto( `${ origin }/draw.html?engine=${ candidate.engine }` );
	await page.waitForFunction( () => window.bench?.ready === true, null, {
		timeout: 60_000,
	} );
	return { context, page, errors };
}

export const startTool = ( page, candidate, options = {} ) =>
	page.evaluate(
		( [ module, opts ] ) => window.bench.start( module, opts ),
		[ candidate.module, options ]
	);
export const call = ( page, name, ...args ) =>
	page.evaluate(
		( [ n, a ] ) => window.bench.call( n, ...a ),
		[ name, args ]
	);
const arm = ( page, kind, arg ) =>
	page.evaluate( ( [ k, a ] ) => window.bench.arm( k, a ), [ kind, arg ] );
const waited = ( page ) => page.evaluate( () => window.bench.waited() );
const idle = ( page ) => page.evaluate( () => window.bench.idle() );

/**
 * The area: 20 vertices on a circle of 250 px around the middle of the map.
 * @param {*} n
 */
export function polygonPoints( n = 20 ) {
	return Array.from( { length: n }, ( _, i ) => [
		Math.round( 640 + 250 * Math.cos( ( 2 * Math.PI * i ) / n ) ),
		Math.round( 400 + 250 * Math.sin( ( 2 * Math.PI * i ) / n ) ),
	] );
}

/**
 * The line: 100 vertices, a serpentine of 10 rows of 10, 100 px × 60 px apart.
 * @param {*} rows
 * @param {*} columns
 */
export function linePoints( rows = 10, columns = 10 ) {
	const out = [];
	for ( let r = 0; r < rows; r++ ) {
		for ( let c = 0; c < columns; c++ ) {
			const column = r % 2 === 0 ? c : columns - 1 - c;
			out.push( [ 190 + column * 100, 130 + r * 60 ] );
		}
	}
	return out;
}

/**
 * Clicks `points` in `kind`'s drawing mode, each once the one before is in, then the last again
 * to finish. Returns the per-vertex times, the total, the finish and what the library reported.
 * @param {*}          page
 * @param {string}     kind
 * @param {number[][]} points
 */
async function drawShape( page, kind, points ) {
	await call( page, 'clear' );
	await call( page, 'draw', kind );
	const vertices = [];
	const wall = Date.now();
	for ( let i = 0; i < points.length; i++ ) {
		await arm( page, 'placed', i + 1 );
		await page.mouse.click( points[ i ][ 0 ], points[ i ][ 1 ] );
		vertices.push( await waited( page ) );
		// A library that takes no vertex: stop after three in a row.
		if ( vertices.slice( -3 ).filter( ( v ) => v.timeout ).length === 3 ) {
			break;
		}
	}
	const wallMs = Date.now() - wall;
	const missed = vertices.filter( ( v ) => v.timeout ).length;
	// gl-draw finishes an area on a click on a vertex it has drawn (rendered features).
	await idle( page );
	const finishedBefore = await call( page, 'finishedCount' );
	await arm( page, 'finished', finishedBefore + 1 );
	const last = points.at( -1 );
	await page.mouse.click( last[ 0 ], last[ 1 ] );
	const finish = await waited( page );
	const report = await page.evaluate(
		( pts ) => window.bench.report( pts ),
		points
	);
	const first = vertices.find( ( v ) => ! v.timeout );
	const lastIn = vertices.findLast( ( v ) => ! v.timeout );
	return {
		vertices: points.length,
		missed,
		perVertexFromUp: vertices.map( ( v ) => round( v.fromUp, 2 ) ),
		perVertexFromDown: vertices.map( ( v ) => round( v.fromDown, 2 ) ),
		totalMs: first && lastIn ? round( lastIn.at - first.downAt, 1 ) : null,
		wallMs,
		finishMs: finish.timeout ? null : round( finish.fromUp, 2 ),
		finished: ! finish.timeout,
		report,
	};
}

/**
 * In edit mode, drags the area's 6th vertex 30 px right and 25 px down; checks the geometry.
 * @param {*} page
 */
async function dragVertex( page ) {
	await call( page, 'edit' );
	await idle( page );
	const before = await call( page, 'placed' );
	const at = await page.evaluate(
		( i ) => window.bench.pixelOfPlaced( i ),
		5
	);
	const to = [ at.x + 30, at.y + 25 ];
	await page.mouse.move( at.x, at.y );
	await page.mouse.down();
	await page.mouse.move( at.x + 10, at.y + 8, { steps: 3 } );
	await page.mouse.move( to[ 0 ], to[ 1 ], { steps: 6 } );
	const changes = await call( page, 'changeCount' );
	await arm( page, 'changed', changes + 1 );
	await page.mouse.up();
	const reported = await waited( page );
	const after = await call( page, 'placed' );
	const moved = await page.evaluate(
		( [ b, a, target ] ) => window.bench.moved( b, a, target ),
		[ before, after, to ]
	);
	return {
		...moved,
		updateReported: ! reported.timeout,
		updateMs: reported.timeout ? null : round( reported.fromUp, 2 ),
	};
}

/**
 * One timed run of a candidate: ready, the area, the drag, the line.
 * @param {*} browser
 * @param {*} origin
 * @param {*} candidate
 * @param {*} blocked
 */
async function timedRun( browser, origin, candidate, blocked ) {
	const { context, page, errors } = await openPage(
		browser,
		origin,
		candidate,
		blocked
	);
	try {
		const ready = await startTool( page, candidate );
		const polygon = await drawShape( page, 'polygon', polygonPoints() );
		const drag = polygon.finished ? await dragVertex( page ) : null;
		const line = await drawShape( page, 'line', linePoints() );
		return { ready, polygon, drag, line, errors };
	} catch ( error ) {
		return { error: String( error ), errors };
	} finally {
		await context.close();
	}
}

/**
 * Runs `check`, and records a thrown error as a failed check.
 * @param {*} check
 */
async function attempt( check ) {
	try {
		return await check();
	} catch ( error ) {
		return { ok: false, error: String( error ).split( '\n' )[ 0 ] };
	}
}

/**
 * Clicks `points` in drawing mode `kind`, returns once each is in (or missed).
 * @param {*} page
 * @param {*} kind
 * @param {*} points
 */
async function clickVertices( page, kind, points ) {
	await call( page, 'clear' );
	await call( page, 'draw', kind );
	for ( let i = 0; i < points.length; i++ ) {
		await arm( page, 'placed', i + 1 );
		await page.mouse.click( points[ i ][ 0 ], points[ i ][ 1 ] );
		await waited( page );
	}
}

async function finishByClick( page, points ) {
	await idle( page );
	const before = await call( page, 'finishedCount' );
	await arm( page, 'finished', before + 1 );
	await page.mouse.click( points.at( -1 )[ 0 ], points.at( -1 )[ 1 ] );
	return ! ( await waited( page ) ).timeout;
}

const SHORT_LINE = [
	[ 400, 300 ],
	[ 640, 420 ],
	[ 880, 300 ],
];
const SQUARE = [
	[ 500, 260 ],
	[ 780, 260 ],
	[ 780, 540 ],
	[ 500, 540 ],
];

/**
 * Draws a square, selects its second vertex in edit mode with a click and presses Delete.
 * @param {*} page
 */
async function deleteVertexByKey( page ) {
	await clickVertices( page, 'polygon', SQUARE );
	const finished = await finishByClick( page, SQUARE );
	await call( page, 'edit' );
	await idle( page );
	const at = await page.evaluate(
		( i ) => window.bench.pixelOfPlaced( i ),
		1
	);
	// gl-draw finds the vertex under the pointer among its rendered features: wait for them.
	const drawn = await page
		.waitForFunction(
			( [ x, y ] ) =>
				window.bench
					.drawnAt( x, y )
					.some( ( id ) => /vertex|point/i.test( id ) ),
			[ at.x, at.y ],
			{ timeout: 5_000 }
		)
		.then(
			() => true,
			() => false
		);
	await page.mouse.click( at.x, at.y );
	await idle( page );
	const selected = await call( page, 'selectedVertices' );
	await page.locator( 'canvas' ).first().focus();
	await page.keyboard.press( 'Delete' );
	await idle( page );
	const left = ( await call( page, 'placed' ) ).length;
	return {
		ok: finished && left === 3,
		finished,
		vertexDrawn: drawn,
		selected,
		vertices: left,
	};
}

/**
 * What works, tried once on a fresh page of the candidate.
 * @param {*} browser
 * @param {*} origin
 * @param {*} candidate
 * @param {*} blocked
 */
async function checks( browser, origin, candidate, blocked ) {
	const out = {};
	const { context, page, errors } = await openPage(
		browser,
		origin,
		candidate,
		blocked
	);
	const focusCanvas = () => page.locator( 'canvas' ).first().focus();
	try {
		await startTool( page, candidate );
		out.point = await attempt( async () => {
			await call( page, 'clear' );
			await call( page, 'draw', 'point' );
			await arm(
				page,
				'finished',
				( await call( page, 'finishedCount' ) ) + 1
			);
			await page.mouse.click( 300, 200 );
			const done = await waited( page );
			const report = await page.evaluate(
				( pts ) => window.bench.report( pts ),
				[ [ 300, 200 ] ]
			);
			return {
				ok:
					! done.timeout &&
					report.type === 'Point' &&
					report.matched === 1,
				report,
			};
		} );
		out.enterFinishes = await attempt( async () => {
			await clickVertices( page, 'line', SHORT_LINE );
			await focusCanvas();
			await arm(
				page,
				'finished',
				( await call( page, 'finishedCount' ) ) + 1
			);
			await page.keyboard.press( 'Enter' );
			const done = await waited( page );
			const report = await page.evaluate(
				( pts ) => window.bench.report( pts ),
				SHORT_LINE
			);
			return {
				ok:
					! done.timeout &&
					report.type === 'LineString' &&
					report.matched === 3,
				mode: await call( page, 'mode' ),
			};
		} );
		out.escapeCancels = await attempt( async () => {
			await clickVertices( page, 'line', SHORT_LINE.slice( 0, 2 ) );
			await focusCanvas();
			await page.keyboard.press( 'Escape' );
			await idle( page );
			const mode = await call( page, 'mode' );
			const count = await call( page, 'featureCount' );
			return {
				ok: mode !== 'drawing' && count === 0,
				mode,
				features: count,
			};
		} );
		out.deleteShapeKey = await attempt( async () => {
			await clickVertices( page, 'line', SHORT_LINE );
			const finished = await finishByClick( page, SHORT_LINE );
			await call( page, 'select' );
			await idle( page );
			// A click on the first segment's middle selects the line.
			await page.mouse.click( 520, 360 );
			await idle( page );
			await focusCanvas();
			await page.keyboard.press( 'Delete' );
			await idle( page );
			const count = await call( page, 'featureCount' );
			return { ok: finished && count === 0, finished, features: count };
		} );
		out.deleteShapeApi = await attempt( async () => {
			await clickVertices( page, 'line', SHORT_LINE );
			await finishByClick( page, SHORT_LINE );
			await call( page, 'trash' );
			await idle( page );
			const count = await call( page, 'featureCount' );
			return { ok: count === 0, features: count };
		} );
		out.deleteVertexKey = await attempt( () => deleteVertexByKey( page ) );
		out.deleteVertexRightClick = await attempt( async () => {
			await clickVertices( page, 'polygon', SQUARE );
			const finished = await finishByClick( page, SQUARE );
			await call( page, 'edit' );
			await idle( page );
			const at = await page.evaluate(
				( i ) => window.bench.pixelOfPlaced( i ),
				1
			);
			await page.mouse.click( at.x, at.y, { button: 'right' } );
			await idle( page );
			const left = ( await call( page, 'placed' ) ).length;
			return { ok: finished && left === 3, finished, vertices: left };
		} );
	} finally {
		await context.close();
	}
	out.controls = await attempt( () =>
		controls( browser, origin, candidate, blocked )
	);
	out.touch = await attempt( () =>
		touch( browser, origin, candidate, blocked )
	);
	if ( candidate.module === 'gl-draw' && candidate.engine === 'maplibre' ) {
		// draw-session.ts renames the control classes only; the library's keydown handler
		// (Delete, Backspace) answers only events whose target has its class CANVAS.
		out.deleteVertexKeyWithCanvasRenamed = await attempt( async () => {
			const opened = await openPage(
				browser,
				origin,
				candidate,
				blocked
			);
			try {
				await startTool( opened.page, candidate, {
					renameCanvas: true,
				} );
				return await deleteVertexByKey( opened.page );
			} finally {
				await opened.context.close();
			}
		} );
	}
	out.pageErrors = errors;
	return out;
}

/**
 * The library's own controls: their buttons' names, whether Tab reaches them and Enter on the
 * line tool starts a line. terra-draw has none (an app draws its own buttons).
 * @param {*}        browser
 * @param {string}   origin
 * @param {*}        candidate
 * @param {string[]} blocked
 */
async function controls( browser, origin, candidate, blocked ) {
	const { context, page } = await openPage(
		browser,
		origin,
		candidate,
		blocked
	);
	try {
		await startTool( page, candidate, { controls: true } );
		const buttons = await page.evaluate( () =>
			[
				...document.querySelectorAll( '.mapbox-gl-draw_ctrl-draw-btn' ),
			].map( ( b ) => ( {
				tag: b.tagName.toLowerCase(),
				name:
					b.getAttribute( 'aria-label' ) ??
					b.getAttribute( 'title' ) ??
					b.textContent.trim(),
				ariaPressed: b.getAttribute( 'aria-pressed' ),
			} ) )
		);
		if ( buttons.length === 0 ) {
			return { ok: null, note: 'no controls of its own', buttons };
		}
		const reached = [];
		for ( let i = 0; i < 12; i++ ) {
			await page.keyboard.press( 'Tab' );
			reached.push(
				await page.evaluate( () => {
					const focused =
						window.document.body.ownerDocument.activeElement;
					return focused?.getAttribute( 'title' ) ?? focused?.tagName;
				} )
			);
		}
		// Enter on the line tool, then Space on the area tool (a button takes both).
		const press = async ( selector, key ) => {
			await call( page, 'select' );
			await page.locator( selector ).focus();
			await page.keyboard.press( key );
			return ( await call( page, 'mode' ) ) === 'drawing';
		};
		const enterStartsLine = await press( '.mapbox-gl-draw_line', 'Enter' );
		const spaceStartsArea = await press( '.mapbox-gl-draw_polygon', ' ' );
		const pressed = await page
			.locator( '.mapbox-gl-draw_polygon' )
			.getAttribute( 'aria-pressed' );
		const tabReachesAll = buttons.every( ( b ) =>
			reached.includes( b.name )
		);
		return {
			ok:
				tabReachesAll &&
				enterStartsLine &&
				spaceStartsArea &&
				buttons.every( ( b ) => b.name ),
			buttons,
			tabReachesAll,
			enterStartsLine,
			spaceStartsArea,
			stateExposed: pressed !== null,
		};
	} finally {
		await context.close();
	}
}

/**
 * Taps a line of 3 vertices (the last tapped again to finish), then drags a vertex by touch.
 * @param {*} browser
 * @param {*} origin
 * @param {*} candidate
 * @param {*} blocked
 */
async function touch( browser, origin, candidate, blocked ) {
	const { context, page } = await openPage(
		browser,
		origin,
		candidate,
		blocked,
		true
	);
	try {
		await startTool( page, candidate );
		await call( page, 'clear' );
		await call( page, 'draw', 'line' );
		let placed = 0;
		for ( let i = 0; i < SHORT_LINE.length; i++ ) {
			await arm( page, 'placed', i + 1 );
			await page.touchscreen.tap(
				SHORT_LINE[ i ][ 0 ],
				SHORT_LINE[ i ][ 1 ]
			);
			placed += ( await waited( page ) ).timeout ? 0 : 1;
		}
		await idle( page );
		const before = await call( page, 'finishedCount' );
		await arm( page, 'finished', before + 1 );
		await page.touchscreen.tap(
			SHORT_LINE[ 2 ][ 0 ],
			SHORT_LINE[ 2 ][ 1 ]
		);
		const finished = ! ( await waited( page ) ).timeout;
		const report = await page.evaluate(
			( pts ) => window.bench.report( pts ),
			SHORT_LINE
		);
		let drag = null;
		if ( finished ) {
			await call( page, 'edit' );
			await idle( page );
			const from = await call( page, 'placed' );
			const at = await page.evaluate(
				( i ) => window.bench.pixelOfPlaced( i ),
				1
			);
			const cdp = await context.newCDPSession( page );
			const touchAt = ( type, x, y ) =>
				cdp.send( 'Input.dispatchTouchEvent', {
					type,
					touchPoints: type === 'touchEnd' ? [] : [ { x, y } ],
				} );
			await touchAt( 'touchStart', at.x, at.y );
			for ( let s = 1; s <= 8; s++ ) {
				await touchAt( 'touchMove', at.x + s * 5, at.y + s * 4 );
			}
			await touchAt( 'touchEnd' );
			await idle( page );
			const to = await call( page, 'placed' );
			drag = await page.evaluate(
				( [ b, a, target ] ) => window.bench.moved( b, a, target ),
				[ from, to, [ at.x + 40, at.y + 32 ] ]
			);
		}
		return {
			ok:
				placed === 3 &&
				finished &&
				report.matched === 3 &&
				Boolean( drag?.atTarget ),
			tapsPlaced: placed,
			tapFinishes: finished,
			report,
			touchDrag: drag,
		};
	} finally {
		await context.close();
	}
}

function summarise( candidate, runs, built ) {
	const ok = runs.filter( ( r ) => ! r.error );
	const shape = ( key ) => {
		const list = ok.map( ( r ) => r[ key ] ).filter( Boolean );
		const fromUp = list.flatMap( ( s ) => s.perVertexFromUp );
		return {
			totalMs: median( list.map( ( s ) => s.totalMs ) ),
			wallMs: median( list.map( ( s ) => s.wallMs ) ),
			perVertexP50: round( median( fromUp ), 2 ),
			perVertexP95: round( percentile( fromUp, 0.95 ), 2 ),
			perVertexMax: round(
				Math.max( ...fromUp.filter( Number.isFinite ) ),
				2
			),
			finishMs: median( list.map( ( s ) => s.finishMs ) ),
			allPlaced: list.every( ( s ) => s.missed === 0 ),
			allFinished: list.every( ( s ) => s.finished ),
			vertexCounts: [
				...new Set( list.map( ( s ) => s.report.vertices ) ),
			],
			allMatched: list.every( ( s ) => s.report.matched === s.vertices ),
			types: [ ...new Set( list.map( ( s ) => s.report.type ) ) ],
		};
	};
	const drags = ok.map( ( r ) => r.drag ).filter( Boolean );
	const lib = built[ `${ candidate.id }-library` ];
	const session = built[ candidate.module ];
	return {
		id: candidate.id,
		label: candidate.label,
		engine: candidate.engine,
		runs: runs.length,
		failedRuns: runs.length - ok.length,
		sessionGzip: session.gzip,
		libraryGzip: lib.gzip,
		libraryBytes: lib.bytes,
		packages: session.packages,
		readyMs: median( ok.map( ( r ) => r.ready.readyMs ) ),
		loadMs: median( ok.map( ( r ) => r.ready.loadMs ) ),
		initMs: median( ok.map( ( r ) => r.ready.initMs ) ),
		polygon: shape( 'polygon' ),
		line: shape( 'line' ),
		drag: {
			runs: ok.length,
			moved: drags.filter(
				( d ) => d.atTarget && d.othersKept && d.countKept
			).length,
			updateMs: median( drags.map( ( d ) => d.updateMs ) ),
			updateReported: drags.every( ( d ) => d.updateReported ),
		},
	};
}

const yesNo = ( check ) => {
	if ( ! check ) {
		return '–';
	}
	if ( check.ok === null ) {
		return 'n/a';
	}
	return check.ok ? 'yes' : 'NO';
};

export function tables( summaries, checked ) {
	const cell = ( v ) => ( v === null || v === undefined ? '–' : String( v ) );
	const kb = ( v ) => `${ ( v / 1000 ).toFixed( 1 ) } kB`;
	const lines = [
		'cand | engine   | JS gzip session (lib) | ready ms (load+init) | area 20: total ms, vertex p50/p95/max ms | line 100: total ms, vertex p50/p95/max ms | finish ms (area/line) | drag moved (update ms)',
		'-----|----------|-----------------------|----------------------|------------------------------------------|------------------------------------------|-----------------------|-----------------------',
	];
	for ( const s of summaries ) {
		const shape = ( x ) =>
			`${ cell( x.totalMs ) }, ${ cell( x.perVertexP50 ) }/${ cell(
				x.perVertexP95
			) }/${ cell( x.perVertexMax ) }${
				x.allPlaced && x.allFinished && x.allMatched ? '' : ' (!)'
			}`;
		lines.push(
			[
				` ${ s.id }  `,
				s.engine.padEnd( 8 ),
				`${ kb( s.sessionGzip ) } (${ kb( s.libraryGzip ) })`.padEnd(
					21
				),
				`${ cell( round( s.readyMs ) ) } (${ cell( round( s.loadMs ) ) }+${ cell( round( s.initMs ) ) })`.padEnd(
					20
				),
				shape( s.polygon ).padEnd( 40 ),
				shape( s.line ).padEnd( 40 ),
				`${ cell( s.polygon.finishMs ) }/${ cell( s.line.finishMs ) }`.padEnd(
					21
				),
				`${ s.drag.moved }/${ s.drag.runs } (${ cell( s.drag.updateMs ) })`,
			].join( ' | ' )
		);
	}
	const rows = [
		[ 'point', 'point' ],
		[ 'line (100, finished by a click)', null, 'line' ],
		[ 'area (20, finished by a click)', null, 'polygon' ],
		[ 'vertex drag in edit mode', null, 'drag' ],
		[ 'Enter finishes (canvas focused)', 'enterFinishes' ],
		[ 'Escape cancels', 'escapeCancels' ],
		[ 'Delete key removes a selected shape', 'deleteShapeKey' ],
		[ 'delete through the API', 'deleteShapeApi' ],
		[ 'Delete key removes a selected vertex', 'deleteVertexKey' ],
		[
			'  … with the canvas class renamed',
			'deleteVertexKeyWithCanvasRenamed',
		],
		[ 'right-click removes a vertex', 'deleteVertexRightClick' ],
		[ 'own buttons: named, reached by Tab', 'controls.tabReachesAll' ],
		[ '  Enter on a tool button starts it', 'controls.enterStartsLine' ],
		[ '  Space on a tool button starts it', 'controls.spaceStartsArea' ],
		[ 'touch: taps draw, touch drags a vertex', 'touch' ],
	];
	const ids = summaries.map( ( s ) => s.id );
	const works = [
		'',
		`what works                             | ${ ids.map( ( id ) => ` ${ id } ` ).join( ' | ' ) }`,
		`---------------------------------------|${ ids.map( () => '-----' ).join( '|' ) }`,
	];
	for ( const [ label, key, timed ] of rows ) {
		works.push(
			`${ label.padEnd( 39 ) }| ${ summaries
				.map( ( s ) => {
					if ( timed === 'drag' ) {
						return s.drag.moved === s.drag.runs
							? 'yes'
							: `${ s.drag.moved }/${ s.drag.runs }`;
					}
					if ( timed ) {
						const x = s[ timed ];
						return x.allPlaced && x.allFinished && x.allMatched
							? 'yes'
							: 'NO';
					}
					const [ name, part ] = key.split( '.' );
					const check = checked[ s.id ]?.[ name ];
					return yesNo(
						part && check && check.ok !== null
							? { ok: check[ part ] }
							: check
					);
				} )
				.map( ( v ) => v.padEnd( 3 ) )
				.join( ' | ' ) }`
		);
	}
	const licences = [ '', 'licences (packages in each session bundle)' ];
	for ( const s of summaries ) {
		licences.push(
			`  ${ s.id }: ${ s.packages
				.map( ( p ) => `${ p.name } ${ p.version } (${ p.license })` )
				.join( ', ' ) }`
		);
	}
	return [ ...lines, ...works, ...licences ].join( '\n' );
}

async function main() {
	const only = ( process.env.CAIRN_BENCH_DRAW_ONLY ?? '' )
		.split( ',' )
		.filter( Boolean );
	const candidates = CANDIDATES.filter(
		( c ) => only.length === 0 || only.includes( c.id )
	);
	const loadBefore = loadAverage();
	log( `load average at the start: ${ loadBefore }` );
	const built = await bundles();
	const tiles = archive();
	const { server, origin } = await startServer( built, tiles );
	const browser = await chromium.launch( {
		executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
		args: [
			'--no-sandbox',
			'--use-angle=swiftshader',
			'--enable-unsafe-swiftshader',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--no-first-run',
			'--ignore-gpu-blocklist',
		],
	} );
	const blocked = [];
	const runs = Object.fromEntries( candidates.map( ( c ) => [ c.id, [] ] ) );
	const checked = {};
	const started = Date.now();
	try {
		// Warm-up: the first context pays for SwiftShader and the disk cache, on each engine.
		for ( const engine of new Set( candidates.map( ( c ) => c.engine ) ) ) {
			const warm = await openPage(
				browser,
				origin,
				candidates.find( ( c ) => c.engine === engine ),
				blocked
			);
			await warm.context.close();
		}
		for ( let i = 0; i < RUNS; i++ ) {
			for ( let k = 0; k < candidates.length; k++ ) {
				const candidate = candidates[ ( i + k ) % candidates.length ];
				const run = await timedRun(
					browser,
					origin,
					candidate,
					blocked
				);
				runs[ candidate.id ].push( run );
				log(
					`run ${ i + 1 }/${ RUNS } ${ candidate.id }: ${
						run.error ??
						`ready ${ round( run.ready.readyMs ) } ms, area ${ run.polygon.totalMs } ms, line ${ run.line.totalMs } ms`
					}`
				);
			}
		}
		for ( const candidate of candidates ) {
			checked[ candidate.id ] = await checks(
				browser,
				origin,
				candidate,
				blocked
			);
			log( `checks ${ candidate.id } done` );
		}
	} finally {
		await browser.close();
		server.close();
	}
	const loadAfter = loadAverage();
	const summaries = candidates.map( ( c ) =>
		summarise( c, runs[ c.id ], built )
	);
	const text = [
		`bench:draw — ${ new Date().toISOString() } — load average ${ loadBefore } at the start, ${ loadAfter } at the end — medians of ${ RUNS } runs, ${ Math.round(
			( Date.now() - started ) / 1000
		) } s`,
		tables( summaries, checked ),
		`requests blocked (off the machine): ${ blocked.length ? [ ...new Set( blocked ) ].join( ', ' ) : 'none' }`,
	].join( '\n' );
	// eslint-disable-next-line no-console
	console.log( text );
	if ( process.env.CAIRN_BENCH_NO_RESULTS !== '1' ) {
		fs.mkdirSync( path.dirname( OUT ), { recursive: true } );
		fs.writeFileSync(
			OUT,
			JSON.stringify(
				{
					benchmark: 'draw',
					date: new Date().toISOString(),
					loadAverageStart: loadBefore,
					loadAverageEnd: loadAfter,
					cpus: ( await import( 'node:os' ) ).cpus().length,
					runs: RUNS,
					mapboxGl: MAPBOX_VERSION,
					summaries,
					checks: checked,
					blocked: [ ...new Set( blocked ) ],
					raw: runs,
					table: text,
				},
				null,
				'\t'
			) + '\n'
		);
		log( `wrote ${ path.relative( ROOT, OUT ) }` );
	}
}

if ( process.argv[ 1 ] === fileURLToPath( import.meta.url ) ) {
	main().catch( ( error ) => {
		log( `ERROR: ${ error.stack ?? error }` );
		process.exitCode = 1;
	} );
}
