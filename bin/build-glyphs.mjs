#!/usr/bin/env node
/**
 * Builds the glyphs self-hosted basemaps draw their labels with, committed under
 * assets/basemap/glyphs/:
 *
 *   DejaVuSans-Book/{start}-{end}.pbf    from DejaVuSans.ttf
 *   DejaVuSans-Bold/{start}-{end}.pbf    from DejaVuSans-Bold.ttf
 *   glyphs.json                          what was built; `hash` covers this script and the fonts
 *   LICENSE-DejaVu.txt                   the fonts' licence (Bitstream Vera / Arev, public domain changes)
 *
 * All 256 ranges of the Basic Multilingual Plane (0-255 … 65280-65535) are written, as glyph
 * servers answer them: a range where the font has no glyph (or only glyphs left out, below) is
 * an empty fontstack. Every code point the font has is drawn (the font's charset as fontconfig
 * reports it: `fc-query`), except symbol blocks no map label needs — arrows, mathematical
 * operators, technical symbols, box drawing, geometric shapes, dingbats, Braille (U+2190–U+2BFF),
 * Yijing hexagrams (U+4DC0–U+4DFF), the private use area and variation selectors — which
 * would double the size.
 *
 * SDF glyph PBFs as Mapbox's and MapLibre's font servers make them (glyphs.proto, 24 px,
 * 3 px buffer, radius 8), rasterised by the tiny-sdf package in headless Chromium with the font
 * file itself loaded as a web font (no fallback font can slip in), the same code as the maps
 * stand-in's glyphs (bin/build-fixtures.mjs).
 *
 * Usage: node bin/build-glyphs.mjs [--force] [--check]
 *   --check  exit 1 when the committed glyphs are not what this script builds (hash differs).
 * Needs: fontconfig's fc-query and Debian's fonts-dejavu-core (DEJAVU_DIR to point elsewhere),
 * Chromium (CHROMIUM_PATH, default /usr/bin/chromium).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromiumPath, encodeGlyphPbf } from './build-fixtures.mjs';

const require = createRequire( import.meta.url );
const SELF = fileURLToPath( import.meta.url );
const ROOT = path.resolve( path.dirname( SELF ), '..' );
export const GLYPHS_DIR = path.join( ROOT, 'assets', 'basemap', 'glyphs' );
const DEJAVU_DIR = process.env.DEJAVU_DIR || '/usr/share/fonts/truetype/dejavu';
const LICENSE_SOURCE = '/usr/share/doc/fonts-dejavu-core/copyright';

/**
 * The fontstacks, as the Protomaps style builder names them (docs/architecture.md). No spaces:
 * each is a folder of the release zip, and WordPress.org's Plugin Check refuses paths with white
 * space (its file_type check, "badly named files").
 */
export const FONTS = {
	'DejaVuSans-Book': 'DejaVuSans.ttf',
	'DejaVuSans-Bold': 'DejaVuSans-Bold.ttf',
};

/** Code point blocks left out (inclusive). */
export const LEFT_OUT = [
	[ 0x2190, 0x2bff ],
	[ 0x4dc0, 0x4dff ],
	[ 0xe000, 0xf8ff ],
	[ 0xfe00, 0xfe0f ],
	[ 0xfff0, 0xffff ],
];

/**
 * The code points (≤ U+FFFF) a font file has, from fontconfig, less the blocks left out and
 * control characters.
 *
 * @param {string} file Font file.
 * @return {number[]} Sorted code points.
 */
export function fontCodePoints( file ) {
	const charset = execFileSync(
		'fc-query',
		[ '--format', '%{charset}', file ],
		{ encoding: 'utf8' }
	);
	const ids = [];
	for ( const token of charset.trim().split( /\s+/ ) ) {
		const [ a, b ] = token.split( '-' ).map( ( h ) => parseInt( h, 16 ) );
		for ( let id = a; id <= ( b ?? a ); id++ ) {
			if (
				id > 0xffff ||
				id < 32 ||
				( id >= 127 && id < 160 ) ||
				LEFT_OUT.some( ( [ lo, hi ] ) => id >= lo && id <= hi )
			) {
				continue;
			}
			ids.push( id );
		}
	}
	return ids;
}

function currentHash() {
	const h = createHash( 'sha256' );
	h.update( fs.readFileSync( SELF ) );
	h.update(
		fs.readFileSync( path.join( ROOT, 'bin', 'build-fixtures.mjs' ) )
	);
	h.update(
		JSON.parse(
			fs.readFileSync(
				path.join( ROOT, 'node_modules/@mapbox/tiny-sdf/package.json' ),
				'utf8'
			)
		).version
	);
	for ( const file of Object.values( FONTS ) ) {
		h.update( fs.readFileSync( path.join( DEJAVU_DIR, file ) ) );
	}
	return h.digest( 'hex' ).slice( 0, 16 );
}

/**
 * Runs in the page: SDF glyphs of the given code points, drawn with the page's web font.
 *
 * @param {Object}   root0        Options.
 * @param {number[]} root0.ids    Code points.
 * @param {string}   root0.family CSS font family (loaded).
 * @return {Object[]} Glyphs: id, base64 bitmap and metrics.
 */
function drawInPage( { ids, family } ) {
	/* global TinySDF */
	const sdf = new TinySDF( {
		fontSize: 24,
		buffer: 3,
		radius: 8,
		cutoff: 0.25,
		fontFamily: family,
		fontWeight: 'normal',
	} );
	const glyphs = [];
	for ( const id of ids ) {
		const g = sdf.draw( String.fromCodePoint( id ) );
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
			// The baseline convention of Mapbox's and MapLibre's font servers (24 px, -27).
			top: g.glyphTop - 27,
			advance: Math.round( g.glyphAdvance ),
		} );
	}
	return glyphs;
}

async function build() {
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
	const stats = { fonts: {}, glyphs: 0, bytes: 0, files: 0 };
	const tmp = `${ GLYPHS_DIR }.tmp-${ process.pid }`;
	fs.rmSync( tmp, { recursive: true, force: true } );
	try {
		const page = await browser.newPage();
		await page.route( '**/*', ( route ) => route.abort() );
		await page.setContent(
			'<!doctype html><meta charset="utf-8"><title>glyphs</title>'
		);
		const tinySdf = fs
			.readFileSync( require.resolve( '@mapbox/tiny-sdf' ), 'utf8' )
			.replace( 'export default class TinySDF', 'class TinySDF' );
		await page.addScriptTag( {
			content: `${ tinySdf }\nwindow.TinySDF = TinySDF;`,
		} );
		for ( const [ stack, file ] of Object.entries( FONTS ) ) {
			const fontFile = path.join( DEJAVU_DIR, file );
			const family = `Cairn ${ stack }`;
			await page.evaluate(
				async ( { name, data } ) => {
					/* global FontFace */
					const bytes = Uint8Array.from( atob( data ), ( c ) =>
						c.charCodeAt( 0 )
					);
					const face = new FontFace( name, bytes );
					await face.load();
					document.fonts.add( face );
				},
				{
					name: family,
					data: fs.readFileSync( fontFile ).toString( 'base64' ),
				}
			);
			const ids = fontCodePoints( fontFile );
			const glyphs = await page.evaluate( drawInPage, {
				ids,
				family: `"${ family }"`,
			} );
			const byRange = new Map();
			for ( const g of glyphs ) {
				const start = Math.floor( g.id / 256 ) * 256;
				if ( ! byRange.has( start ) ) {
					byRange.set( start, [] );
				}
				byRange.get( start ).push( {
					...g,
					bitmap: Buffer.from( g.bitmap, 'base64' ),
				} );
			}
			const dir = path.join( tmp, stack );
			fs.mkdirSync( dir, { recursive: true } );
			let bytes = 0;
			for ( let start = 0; start < 65536; start += 256 ) {
				const range = `${ start }-${ start + 255 }`;
				const buf = encodeGlyphPbf(
					stack,
					range,
					byRange.get( start ) ?? []
				);
				fs.writeFileSync( path.join( dir, `${ range }.pbf` ), buf );
				bytes += buf.length;
				stats.files++;
			}
			stats.fonts[ stack ] = {
				file,
				glyphs: glyphs.length,
				ranges: byRange.size,
				bytes,
			};
			stats.glyphs += glyphs.length;
			stats.bytes += bytes;
		}
	} catch ( e ) {
		fs.rmSync( tmp, { recursive: true, force: true } );
		throw e;
	} finally {
		await browser.close();
	}
	return { tmp, stats };
}

export async function buildGlyphs( { force = false, log = () => {} } = {} ) {
	const hash = currentHash();
	const manifestFile = path.join( GLYPHS_DIR, 'glyphs.json' );
	let existing = null;
	try {
		existing = JSON.parse( fs.readFileSync( manifestFile, 'utf8' ) );
	} catch {
		// None yet.
	}
	if ( ! force && existing?.hash === hash ) {
		log(
			`glyphs up to date (${ hash }) in ${ path.relative( ROOT, GLYPHS_DIR ) }`
		);
		return existing;
	}
	const started = Date.now();
	const { tmp, stats } = await build();
	const manifest = {
		hash,
		fontstacks: Object.keys( FONTS ),
		source: 'Debian fonts-dejavu-core (DejaVu Sans 2.37), tiny-sdf 24 px, buffer 3, radius 8',
		leftOut: LEFT_OUT.map( ( [ a, b ] ) =>
			[ a, b ]
				.map(
					( n ) =>
						'U+' + n.toString( 16 ).toUpperCase().padStart( 4, '0' )
				)
				.join( '–' )
		),
		...stats,
	};
	fs.writeFileSync(
		path.join( tmp, 'glyphs.json' ),
		JSON.stringify( manifest, null, '\t' ) + '\n'
	);
	const license = fs.existsSync( LICENSE_SOURCE )
		? fs.readFileSync( LICENSE_SOURCE, 'utf8' )
		: null;
	const keptLicense = path.join( GLYPHS_DIR, 'LICENSE-DejaVu.txt' );
	fs.writeFileSync(
		path.join( tmp, 'LICENSE-DejaVu.txt' ),
		license ?? fs.readFileSync( keptLicense, 'utf8' )
	);
	fs.rmSync( GLYPHS_DIR, { recursive: true, force: true } );
	fs.mkdirSync( path.dirname( GLYPHS_DIR ), { recursive: true } );
	fs.renameSync( tmp, GLYPHS_DIR );
	log(
		`glyphs built in ${ Date.now() - started } ms: ${ stats.glyphs } glyphs in ${ stats.files } files, ` +
			`${ ( stats.bytes / 1024 / 1024 ).toFixed( 2 ) } MiB -> ${ path.relative( ROOT, GLYPHS_DIR ) }`
	);
	return manifest;
}

if ( process.argv[ 1 ] && path.resolve( process.argv[ 1 ] ) === SELF ) {
	const args = new Set( process.argv.slice( 2 ) );
	if ( args.has( '--check' ) ) {
		let manifest = null;
		try {
			manifest = JSON.parse(
				fs.readFileSync(
					path.join( GLYPHS_DIR, 'glyphs.json' ),
					'utf8'
				)
			);
		} catch {
			// Reported below.
		}
		const ok = manifest?.hash === currentHash();
		console.log(
			ok
				? 'glyphs are up to date'
				: 'glyphs are stale: run node bin/build-glyphs.mjs'
		);
		process.exit( ok ? 0 : 1 );
	}
	buildGlyphs( {
		force: args.has( '--force' ),
		log: ( msg ) => console.log( msg ),
	} ).catch( ( e ) => {
		console.error( `build-glyphs failed: ${ e && e.stack ? e.stack : e }` );
		process.exit( 1 );
	} );
}
