/**
 * @jest-environment node
 */
/**
 * The committed glyphs of self-hosted basemaps (assets/basemap/glyphs, bin/build-glyphs.mjs):
 * both fontstacks answer every one of the 256 ranges a map may ask for, each file is a glyph PBF
 * naming its fontstack and range, the scripts DejaVu Sans covers have drawn glyphs, the ones it
 * does not are empty, and the DejaVu licence travels with them.
 */
import fs from 'node:fs';
import path from 'node:path';

// eslint-disable-next-line import/no-extraneous-dependencies -- vt-pbf's own protobuf reader.
import Pbf from 'pbf';

const GLYPHS = path.join(
	__dirname,
	'..',
	'..',
	'..',
	'assets',
	'basemap',
	'glyphs'
);
const STACKS = [ 'DejaVuSans-Book', 'DejaVuSans-Bold' ];

interface Glyph {
	id: number;
	width: number;
	height: number;
	advance: number;
	bitmap: number;
}

/** glyphs.proto: glyphs { 1: fontstack { 1: name, 2: range, 3: glyph { 1: id, 2: bitmap, 3: width, 4: height, 7: advance } } }. */
function readGlyphPbf( file: string ) {
	const pbf = new Pbf( fs.readFileSync( file ) );
	const stacks: { name: string; range: string; glyphs: Glyph[] }[] = [];
	pbf.readFields( ( tag: number ) => {
		if ( tag !== 1 ) {
			return;
		}
		const stack = { name: '', range: '', glyphs: [] as Glyph[] };
		pbf.readMessage( ( field: number ) => {
			if ( field === 1 ) {
				stack.name = pbf.readString();
			} else if ( field === 2 ) {
				stack.range = pbf.readString();
			} else if ( field === 3 ) {
				const glyph: Glyph = {
					id: 0,
					width: 0,
					height: 0,
					advance: 0,
					bitmap: 0,
				};
				pbf.readMessage( ( g: number ) => {
					if ( g === 1 ) {
						glyph.id = pbf.readVarint();
					} else if ( g === 2 ) {
						glyph.bitmap = pbf.readBytes().length;
					} else if ( g === 3 ) {
						glyph.width = pbf.readVarint();
					} else if ( g === 4 ) {
						glyph.height = pbf.readVarint();
					} else if ( g === 7 ) {
						glyph.advance = pbf.readVarint();
					}
					// Fields not read (left, top) are skipped by readFields.
				}, glyph );
				stack.glyphs.push( glyph );
			}
		}, stack );
		stacks.push( stack );
	} );
	return stacks;
}

describe( 'self-hosted glyphs', () => {
	it.each( STACKS )(
		'%s answers all 256 ranges, each naming its fontstack and range',
		( stack ) => {
			for ( let start = 0; start < 65536; start += 256 ) {
				const range = `${ start }-${ start + 255 }`;
				const file = path.join( GLYPHS, stack, `${ range }.pbf` );
				expect( fs.existsSync( file ) ).toBe( true );
				const [ only, ...more ] = readGlyphPbf( file );
				expect( more ).toHaveLength( 0 );
				expect( only ).toMatchObject( { name: stack, range } );
				for ( const glyph of only!.glyphs ) {
					expect( glyph.id ).toBeGreaterThanOrEqual( start );
					expect( glyph.id ).toBeLessThanOrEqual( start + 255 );
				}
			}
		}
	);

	it.each( STACKS )(
		'%s draws Latin, Greek, Cyrillic and punctuation, and leaves CJK empty',
		( stack ) => {
			const ids = ( start: number ) =>
				new Map(
					readGlyphPbf(
						path.join(
							GLYPHS,
							stack,
							`${ start }-${ start + 255 }.pbf`
						)
					)[ 0 ]!.glyphs.map( ( g ) => [ g.id, g ] )
				);
			const text = 'ZürichSãoPauloŁódźΑθήναМоскваКиїв–“’”';
			for ( const char of text ) {
				const id = char.codePointAt( 0 )!;
				const glyph = ids( Math.floor( id / 256 ) * 256 ).get( id );
				expect( glyph ).toBeDefined();
				expect( glyph!.advance ).toBeGreaterThan( 0 );
				// A drawn SDF: (width + 2 × buffer) × (height + 2 × buffer) bytes.
				expect( glyph!.bitmap ).toBe(
					( glyph!.width + 6 ) * ( glyph!.height + 6 )
				);
			}
			// 東京: DejaVu Sans has no CJK.
			expect( ids( 0x6700 ).size ).toBe( 0 );
			expect( ids( 0x4e00 ).size ).toBe( 0 );
		}
	);

	it( 'carries the DejaVu licence and what was built', () => {
		expect(
			fs.readFileSync( path.join( GLYPHS, 'LICENSE-DejaVu.txt' ), 'utf8' )
		).toContain( 'Bitstream Vera' );
		const manifest = JSON.parse(
			fs.readFileSync( path.join( GLYPHS, 'glyphs.json' ), 'utf8' )
		);
		expect( manifest.fontstacks ).toEqual( STACKS );
		expect( manifest.files ).toBe( 512 );
	} );
} );
