#!/usr/bin/env node
/**
 * Builds the binary half of the offline maps service used by the e2e tests
 * (tests/e2e/fixtures/maps-service.ts) into tests/fixtures/mapbox/generated/ (git-ignored):
 *
 *   tiles/{z}/{x}/{y}.pbf         Mapbox Vector Tiles, z0..TILE_MAX_ZOOM, cut from Natural Earth
 *                                 1:50m countries (world-atlas). Layers `country_boundaries`
 *                                 (polygons) and `place_label` (one point per country).
 *                                 Empty (all-ocean) tiles are not written: the service answers
 *                                 them with an empty tile.
 *   glyphs/{regular,bold}/{start}-{end}.pbf
 *                                 SDF glyph PBFs (glyphs.proto, 24 px, 3 px buffer, like Mapbox's
 *                                 font API) rasterised from the system's DejaVu Sans by
 *                                 the tiny-sdf package inside headless Chromium.
 *   sprite/sprite{,@2x}.{json,png} a two-icon sprite sheet (`dot`, `pin`).
 *   raster/tile.png, raster/dem.png
 *                                 a plain raster tile and a flat (0 m) terrain-RGB tile.
 *   openfreemap/tiles/{z}/{x}/{y}.pbf
 *                                 the OpenFreeMap stand-in's vector tiles (OpenMapTiles layers
 *                                 `water`, `boundary`, `place`, z0..TILE_MAX_ZOOM, from the same
 *                                 Natural Earth data; bin/lib/openfreemap-fixture.mjs). Its styles
 *                                 and TileJSON are committed in tests/fixtures/openfreemap/.
 *   manifest.json                 what was built; `hash` covers this script and its inputs.
 *
 * Idempotent: when manifest.json carries the current hash nothing is done (~50 ms).
 * Concurrent runs are safe: each builds into a temporary folder and renames it into place.
 *
 * Usage: node bin/build-fixtures.mjs [--force] [--quiet]
 * Environment: CHROMIUM_PATH (default /usr/bin/chromium when present, else Playwright's own).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
	NATURAL_EARTH_FILE,
	labelPoint,
	ringArea,
	unwrapGeometry,
} from './lib/natural-earth.mjs';
import {
	OPENFREEMAP_FIXTURE_FILE,
	buildOpenFreeMapTiles,
} from './lib/openfreemap-fixture.mjs';

const require = createRequire( import.meta.url );
const SELF = fileURLToPath( import.meta.url );
export const ROOT = path.resolve( path.dirname( SELF ), '..' );
export const OUT_DIR = path.join( ROOT, 'tests/fixtures/mapbox/generated' );

export const TILE_MAX_ZOOM = 5;
const TILE_EXTENT = 4096;
export const TILE_LAYERS = {
	polygons: 'country_boundaries',
	labels: 'place_label',
};
/**
 * First code point of each 256-glyph range that gets real glyphs (Latin-1, Latin Extended,
 * IPA/Greek, Greek/Cyrillic, Cyrillic, General Punctuation). Other ranges are answered empty.
 */
export const GLYPH_RANGE_STARTS = [ 0, 256, 512, 768, 1024, 8192 ];
export const GLYPH_FONTS = { regular: '400', bold: '700' };
const FONT_FAMILY = '"DejaVu Sans", "Liberation Sans", sans-serif';
const INPUT_PACKAGES = [
	'world-atlas',
	'topojson-client',
	'geojson-vt',
	'vt-pbf',
	'@mapbox/tiny-sdf',
];

function packageVersion( name ) {
	return JSON.parse(
		fs.readFileSync(
			path.join( ROOT, 'node_modules', name, 'package.json' ),
			'utf8'
		)
	).version;
}

/** The hash stored in manifest.json: changes when this script or an input package changes. */
export function currentHash() {
	const h = createHash( 'sha256' );
	h.update( fs.readFileSync( SELF ) );
	h.update( fs.readFileSync( NATURAL_EARTH_FILE ) );
	h.update( fs.readFileSync( OPENFREEMAP_FIXTURE_FILE ) );
	for ( const name of INPUT_PACKAGES ) {
		h.update( `${ name }@${ packageVersion( name ) }` );
	}
	return h.digest( 'hex' ).slice( 0, 16 );
}

export function readManifest( dir = OUT_DIR ) {
	try {
		return JSON.parse(
			fs.readFileSync( path.join( dir, 'manifest.json' ), 'utf8' )
		);
	} catch {
		return null;
	}
}

export function isUpToDate() {
	const manifest = readManifest();
	return !! manifest && manifest.hash === currentHash();
}

/* ------------------------------------------------------------------ tiles -- */

async function buildTiles( outDir ) {
	const topojson = require( 'topojson-client' );
	const vtpbf = require( 'vt-pbf' );
	const { default: GeoJSONVT } = await import( 'geojson-vt' );
	const topo = JSON.parse(
		fs.readFileSync(
			require.resolve( 'world-atlas/countries-50m.json' ),
			'utf8'
		)
	);
	const geometries = topo.objects.countries.geometries;
	const countries = topojson
		.feature( topo, topo.objects.countries )
		.features.map( ( f ) => ( {
			...f,
			geometry: unwrapGeometry( f.geometry ),
		} ) );

	// Five map colours so that neighbours differ (greedy colouring, biggest countries first).
	const neighbours = topojson.neighbors( geometries );
	const area = countries.map( ( f ) =>
		( f.geometry.type === 'Polygon'
			? [ f.geometry.coordinates ]
			: f.geometry.coordinates
		).reduce( ( sum, p ) => sum + ringArea( p[ 0 ] ), 0 )
	);
	const order = countries
		.map( ( _, i ) => i )
		.sort( ( a, b ) => area[ b ] - area[ a ] || a - b );
	const colour = new Array( countries.length ).fill( -1 );
	for ( const i of order ) {
		const used = new Set( neighbours[ i ].map( ( n ) => colour[ n ] ) );
		let c = 0;
		while ( used.has( c ) && c < 4 ) {
			c++;
		}
		colour[ i ] = c;
	}
	const rank = new Array( countries.length );
	order.forEach( ( i, r ) => ( rank[ i ] = r + 1 ) );

	const polygons = { type: 'FeatureCollection', features: [] };
	const labels = { type: 'FeatureCollection', features: [] };
	countries.forEach( ( f, i ) => {
		const name = f.properties.name;
		const iso = f.id === undefined ? '' : String( f.id );
		const props = {
			name,
			name_en: name,
			iso_3166_1_numeric: iso,
			color_group: colour[ i ],
		};
		const id = i + 1;
		polygons.features.push( {
			type: 'Feature',
			id,
			properties: props,
			geometry: f.geometry,
		} );
		labels.features.push( {
			type: 'Feature',
			id,
			properties: {
				name,
				name_en: name,
				class: 'country',
				iso_3166_1_numeric: iso,
				symbolrank: rank[ i ],
			},
			geometry: { type: 'Point', coordinates: labelPoint( f.geometry ) },
		} );
	} );

	const options = {
		maxZoom: TILE_MAX_ZOOM,
		indexMaxZoom: TILE_MAX_ZOOM,
		indexMaxPoints: 0,
		extent: TILE_EXTENT,
	};
	const polygonIndex = new GeoJSONVT( polygons, {
		...options,
		tolerance: 3,
		buffer: 64,
	} );
	const labelIndex = new GeoJSONVT( labels, { ...options, buffer: 256 } );

	let count = 0;
	let bytes = 0;
	for ( let z = 0; z <= TILE_MAX_ZOOM; z++ ) {
		const n = 2 ** z;
		for ( let x = 0; x < n; x++ ) {
			for ( let y = 0; y < n; y++ ) {
				const layers = {};
				const p = polygonIndex.getTile( z, x, y );
				const l = labelIndex.getTile( z, x, y );
				if ( p && p.features.length ) {
					layers[ TILE_LAYERS.polygons ] = p;
				}
				if ( l && l.features.length ) {
					layers[ TILE_LAYERS.labels ] = l;
				}
				if ( ! Object.keys( layers ).length ) {
					continue;
				}
				const buf = vtpbf.fromGeojsonVt( layers, {
					version: 2,
					extent: TILE_EXTENT,
				} );
				const dir = path.join(
					outDir,
					'tiles',
					String( z ),
					String( x )
				);
				fs.mkdirSync( dir, { recursive: true } );
				fs.writeFileSync( path.join( dir, `${ y }.pbf` ), buf );
				count++;
				bytes += buf.length;
			}
		}
	}
	return {
		minzoom: 0,
		maxzoom: TILE_MAX_ZOOM,
		extent: TILE_EXTENT,
		layers: TILE_LAYERS,
		countries: countries.length,
		count,
		bytes,
		source:
			'Natural Earth 1:50m countries via world-atlas@' +
			packageVersion( 'world-atlas' ),
	};
}

/* -------------------------------------------------------- protobuf writer -- */
/* eslint-disable no-bitwise -- varint and zigzag encoding */

class ProtoWriter {
	constructor() {
		this.parts = [];
	}
	varint( n ) {
		const out = [];
		let v = n >>> 0;
		while ( v > 0x7f ) {
			out.push( ( v & 0x7f ) | 0x80 );
			v >>>= 7;
		}
		out.push( v );
		this.parts.push( Buffer.from( out ) );
		return this;
	}
	key( field, wireType ) {
		return this.varint( ( field << 3 ) | wireType );
	}
	uint( field, n ) {
		return this.key( field, 0 ).varint( n );
	}
	sint( field, n ) {
		return this.key( field, 0 ).varint( ( n << 1 ) ^ ( n >> 31 ) );
	}
	bytes( field, buf ) {
		this.key( field, 2 ).varint( buf.length );
		this.parts.push( Buffer.from( buf ) );
		return this;
	}
	string( field, s ) {
		return this.bytes( field, Buffer.from( s, 'utf8' ) );
	}
	message( field, writer ) {
		return this.bytes( field, writer.finish() );
	}
	finish() {
		return Buffer.concat( this.parts );
	}
}

/**
 * glyphs.proto: glyphs { 1: fontstack { 1: name, 2: range, 3: glyph { 1 id, 2 bitmap, 3 width,
 * 4 height, 5 left (sint), 6 top (sint), 7 advance } } }
 * @param {string}   name   Font stack name.
 * @param {string}   range  Like `0-255`.
 * @param {Object[]} glyphs {id, bitmap, width, height, left, top, advance}
 * @return {Buffer} The PBF.
 */
export function encodeGlyphPbf( name, range, glyphs ) {
	const stack = new ProtoWriter().string( 1, name ).string( 2, range );
	for ( const g of glyphs ) {
		const w = new ProtoWriter().uint( 1, g.id );
		if ( g.bitmap && g.bitmap.length ) {
			w.bytes( 2, g.bitmap );
		}
		w.uint( 3, g.width )
			.uint( 4, g.height )
			.sint( 5, g.left )
			.sint( 6, g.top )
			.uint( 7, g.advance );
		stack.message( 3, w );
	}
	return new ProtoWriter().message( 1, stack ).finish();
}

/* eslint-enable no-bitwise */

/* ------------------------------------------------------- browser-made art -- */

export function chromiumPath() {
	if ( process.env.CHROMIUM_PATH ) {
		return process.env.CHROMIUM_PATH;
	}
	return fs.existsSync( '/usr/bin/chromium' )
		? '/usr/bin/chromium'
		: undefined;
}

/**
 * Runs in the page: returns the glyphs of the given ranges as base64 SDF bitmaps + metrics.
 * @param {Object}   root0        Options.
 * @param {number[]} root0.starts First code point of each range.
 * @param {string}   root0.weight CSS font weight.
 * @param {string}   root0.family CSS font family.
 * @return {Object} Glyphs by range start.
 */
function drawGlyphsInPage( { starts, weight, family } ) {
	/* global TinySDF */
	const sdf = new TinySDF( {
		fontSize: 24,
		buffer: 3,
		radius: 8,
		cutoff: 0.25,
		fontFamily: family,
		fontWeight: weight,
	} );
	const ranges = {};
	for ( const start of starts ) {
		const glyphs = [];
		for ( let id = start; id < start + 256; id++ ) {
			if ( id < 32 || ( id >= 127 && id < 160 ) || id === 173 ) {
				continue;
			}
			const g = sdf.draw( String.fromCodePoint( id ) );
			if ( id !== 32 && g.glyphWidth === 0 && g.glyphAdvance === 0 ) {
				continue;
			}
			let bin = '';
			if ( g.glyphWidth > 0 && g.glyphHeight > 0 ) {
				for ( let i = 0; i < g.data.length; i++ ) {
					bin += String.fromCharCode( g.data[ i ] );
				}
			}
			glyphs.push( {
				id,
				bitmap: btoa( bin ),
				width: g.glyphWidth,
				height: g.glyphHeight,
				left: g.glyphLeft,
				// Same baseline convention as mapbox-gl's own local TinySDF glyphs (24 px, -27).
				top: g.glyphTop - 27,
				advance: Math.round( g.glyphAdvance ),
			} );
		}
		ranges[ start ] = glyphs;
	}
	return ranges;
}

/** Runs in the page: draws the sprite sheets and the raster tiles as PNG data URLs. */
function drawImagesInPage() {
	const png = ( w, h, draw ) => {
		const c = document.createElement( 'canvas' );
		c.width = w;
		c.height = h;
		draw( c.getContext( '2d' ) );
		return c.toDataURL( 'image/png' ).split( ',' )[ 1 ];
	};
	const sprite = ( r ) => {
		const icons = {
			dot: { x: 0, y: 0, width: 16 * r, height: 16 * r },
			pin: { x: 16 * r, y: 0, width: 20 * r, height: 28 * r },
		};
		const image = png( 36 * r, 28 * r, ( ctx ) => {
			ctx.scale( r, r );
			ctx.fillStyle = '#c0392b';
			ctx.strokeStyle = '#ffffff';
			ctx.lineWidth = 2;
			ctx.beginPath();
			ctx.arc( 8, 8, 6, 0, Math.PI * 2 );
			ctx.fill();
			ctx.stroke();
			ctx.beginPath();
			ctx.moveTo( 26, 27 );
			ctx.bezierCurveTo( 22, 20, 17, 15, 17, 10 );
			ctx.arc( 26, 10, 9, Math.PI, 0 );
			ctx.bezierCurveTo( 35, 15, 30, 20, 26, 27 );
			ctx.fill();
			ctx.stroke();
			ctx.fillStyle = '#ffffff';
			ctx.beginPath();
			ctx.arc( 26, 10, 3.5, 0, Math.PI * 2 );
			ctx.fill();
		} );
		const json = {};
		for ( const [ name, box ] of Object.entries( icons ) ) {
			json[ name ] = { ...box, pixelRatio: r };
		}
		return { image, json };
	};
	return {
		sprite1: sprite( 1 ),
		sprite2: sprite( 2 ),
		tile: png( 256, 256, ( ctx ) => {
			ctx.fillStyle = '#dfe8d3';
			ctx.fillRect( 0, 0, 256, 256 );
			ctx.strokeStyle = '#c4d1b5';
			ctx.strokeRect( 0.5, 0.5, 255, 255 );
		} ),
		// terrain-RGB: height = -10000 + (R * 65536 + G * 256 + B) * 0.1 = 0 m.
		dem: png( 256, 256, ( ctx ) => {
			ctx.fillStyle = 'rgb(1,134,160)';
			ctx.fillRect( 0, 0, 256, 256 );
		} ),
	};
}

async function buildBrowserAssets( outDir ) {
	const { chromium } = await import( '@playwright/test' );
	const browser = await chromium.launch( {
		executablePath: chromiumPath(),
		args: [
			'--no-sandbox',
			'--disable-background-networking',
			'--disable-component-update',
			'--no-first-run',
		],
	} );
	try {
		const page = await browser.newPage();
		// Nothing may leave the machine, not even from this throwaway page.
		await page.route( '**/*', ( route ) => route.abort() );
		await page.setContent(
			'<!doctype html><meta charset="utf-8"><title>fixtures</title>'
		);
		const tinySdf = fs
			.readFileSync( require.resolve( '@mapbox/tiny-sdf' ), 'utf8' )
			.replace( 'export default class TinySDF', 'class TinySDF' );
		await page.addScriptTag( {
			content: `${ tinySdf }\nwindow.TinySDF = TinySDF;`,
		} );

		const glyphStats = {
			fontFamily: FONT_FAMILY,
			fonts: {},
			rangeStarts: GLYPH_RANGE_STARTS,
			count: 0,
			bytes: 0,
		};
		for ( const [ font, weight ] of Object.entries( GLYPH_FONTS ) ) {
			const ranges = await page.evaluate( drawGlyphsInPage, {
				starts: GLYPH_RANGE_STARTS,
				weight,
				family: FONT_FAMILY,
			} );
			const dir = path.join( outDir, 'glyphs', font );
			fs.mkdirSync( dir, { recursive: true } );
			glyphStats.fonts[ font ] = { weight };
			for ( const start of GLYPH_RANGE_STARTS ) {
				const range = `${ start }-${ start + 255 }`;
				const glyphs = ranges[ start ].map( ( g ) => ( {
					...g,
					bitmap: Buffer.from( g.bitmap, 'base64' ),
				} ) );
				const buf = encodeGlyphPbf(
					`Cairn Fixture ${ font }`,
					range,
					glyphs
				);
				fs.writeFileSync( path.join( dir, `${ range }.pbf` ), buf );
				glyphStats.count += glyphs.length;
				glyphStats.bytes += buf.length;
			}
		}

		const images = await page.evaluate( drawImagesInPage );
		fs.mkdirSync( path.join( outDir, 'sprite' ), { recursive: true } );
		fs.mkdirSync( path.join( outDir, 'raster' ), { recursive: true } );
		const write = ( rel, data ) =>
			fs.writeFileSync( path.join( outDir, rel ), data );
		write(
			'sprite/sprite.png',
			Buffer.from( images.sprite1.image, 'base64' )
		);
		write(
			'sprite/sprite.json',
			JSON.stringify( images.sprite1.json, null, 1 )
		);
		write(
			'sprite/sprite@2x.png',
			Buffer.from( images.sprite2.image, 'base64' )
		);
		write(
			'sprite/sprite@2x.json',
			JSON.stringify( images.sprite2.json, null, 1 )
		);
		write( 'raster/tile.png', Buffer.from( images.tile, 'base64' ) );
		write( 'raster/dem.png', Buffer.from( images.dem, 'base64' ) );
		return {
			glyphs: glyphStats,
			sprite: { icons: Object.keys( images.sprite1.json ) },
		};
	} finally {
		await browser.close();
	}
}

/* ------------------------------------------------------------------ main -- */

function dirBytes( dir ) {
	let total = 0;
	for ( const entry of fs.readdirSync( dir, { withFileTypes: true } ) ) {
		const p = path.join( dir, entry.name );
		total += entry.isDirectory() ? dirBytes( p ) : fs.statSync( p ).size;
	}
	return total;
}

/**
 * Builds the fixtures unless they are up to date. Returns the manifest.
 *
 * @param {{force?: boolean, log?: (msg: string) => void}} [options]
 */
export async function buildFixtures( { force = false, log = () => {} } = {} ) {
	const hash = currentHash();
	const existing = readManifest();
	if ( ! force && existing && existing.hash === hash ) {
		log(
			`maps fixtures up to date (${ hash }) in ${ path.relative( ROOT, OUT_DIR ) }`
		);
		return existing;
	}
	const started = Date.now();
	const tmp = `${ OUT_DIR }.tmp-${ process.pid }-${ Date.now() }`;
	fs.rmSync( tmp, { recursive: true, force: true } );
	fs.mkdirSync( tmp, { recursive: true } );
	try {
		const tiles = await buildTiles( tmp );
		const openfreemap = await buildOpenFreeMapTiles(
			path.join( tmp, 'openfreemap', 'tiles' ),
			TILE_MAX_ZOOM
		);
		const tilesMs = Date.now() - started;
		const assets = await buildBrowserAssets( tmp );
		const manifest = { hash, tiles, openfreemap, ...assets };
		fs.writeFileSync(
			path.join( tmp, 'manifest.json' ),
			JSON.stringify( manifest, null, '\t' ) + '\n'
		);
		manifest.totalBytes = dirBytes( tmp );

		// Swap into place. Another process may have finished first: keep whichever is current.
		const old = `${ OUT_DIR }.old-${ process.pid }-${ Date.now() }`;
		if ( fs.existsSync( OUT_DIR ) ) {
			const other = readManifest();
			if ( ! force && other && other.hash === hash ) {
				fs.rmSync( tmp, { recursive: true, force: true } );
				return other;
			}
			fs.renameSync( OUT_DIR, old );
		}
		try {
			fs.renameSync( tmp, OUT_DIR );
		} catch ( e ) {
			if ( ! readManifest() ) {
				throw e;
			}
		}
		fs.rmSync( old, { recursive: true, force: true } );
		fs.rmSync( tmp, { recursive: true, force: true } );
		log(
			`maps fixtures built in ${ Date.now() - started } ms (tiles ${ tilesMs } ms): ` +
				`${ tiles.count } tiles z0-${ tiles.maxzoom } (${ ( tiles.bytes / 1024 ).toFixed( 0 ) } KiB), ` +
				`${ assets.glyphs.count } glyphs (${ ( assets.glyphs.bytes / 1024 ).toFixed( 0 ) } KiB), ` +
				`total ${ ( manifest.totalBytes / 1024 / 1024 ).toFixed( 1 ) } MiB -> ${ path.relative( ROOT, OUT_DIR ) }`
		);
		return manifest;
	} catch ( e ) {
		fs.rmSync( tmp, { recursive: true, force: true } );
		throw e;
	}
}

if ( process.argv[ 1 ] && path.resolve( process.argv[ 1 ] ) === SELF ) {
	const args = new Set( process.argv.slice( 2 ) );
	buildFixtures( {
		force: args.has( '--force' ),
		log: args.has( '--quiet' ) ? () => {} : ( msg ) => console.log( msg ),
	} ).catch( ( e ) => {
		console.error(
			`build-fixtures failed: ${ e && e.stack ? e.stack : e }`
		);
		process.exit( 1 );
	} );
}
