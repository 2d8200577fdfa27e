/**
 * @jest-environment node
 */
/**
 * The PMTiles v3 writer behind the demo's world archive (bin/lib/pmtiles-writer.mjs): what it
 * writes is read back by the `pmtiles` package the map runtime uses — every tile, the header's
 * zooms, bounds and centre, and the JSON metadata — with and without leaf directories, and a big
 * archive still puts its root directory in the reader's first 16 KiB fetch.
 */
import zlib from 'node:zlib';

import { PMTiles, zxyToTileId as readerTileId, type Source } from 'pmtiles';

import {
	Compression,
	FIRST_FETCH_BYTES,
	TileType,
	writePmtiles,
	zxyToTileId,
	type WriterTile,
} from '../../../bin/lib/pmtiles-writer.mjs';

/** A reader source over the archive's bytes that records every range asked for. */
function memorySource( bytes: Buffer ): Source & { ranges: number[][] } {
	const ranges: number[][] = [];
	return {
		ranges,
		getKey: () => 'memory',
		getBytes: async ( offset: number, length: number ) => {
			ranges.push( [ offset, length ] );
			const slice = bytes.subarray( offset, offset + length );
			return {
				data: slice.buffer.slice(
					slice.byteOffset,
					slice.byteOffset + slice.byteLength
				) as ArrayBuffer,
			};
		},
	};
}

/**
 * Tiles z0–maxZoom. Land tiles hold their own address; "ocean" tiles (x even, y > half) share
 * one content, so runs of equal tiles occur; some tiles are absent (x = y at z ≥ 3).
 *
 * @param maxZoom Highest zoom.
 */
function sampleTiles( maxZoom: number ): {
	tiles: WriterTile[];
	plain: Map< string, string >;
} {
	const tiles: WriterTile[] = [];
	const plain = new Map< string, string >();
	for ( let z = 0; z <= maxZoom; z++ ) {
		const n = 2 ** z;
		for ( let x = 0; x < n; x++ ) {
			for ( let y = 0; y < n; y++ ) {
				if ( z >= 3 && x === y ) {
					continue;
				}
				const text =
					x % 2 === 0 && y >= n / 2
						? 'ocean'
						: `land ${ z }/${ x }/${ y }`;
				plain.set( `${ z }/${ x }/${ y }`, text );
				tiles.push( {
					z,
					x,
					y,
					data: zlib.gzipSync( Buffer.from( text ) ),
				} );
			}
		}
	}
	return { tiles, plain };
}

const metadata = {
	name: 'Test world',
	attribution: 'Natural Earth',
	vector_layers: [
		{ id: 'earth', fields: {}, minzoom: 0, maxzoom: 5 },
		{ id: 'places', fields: { name: 'String' }, minzoom: 0, maxzoom: 5 },
	],
};

async function readAll(
	archive: PMTiles,
	plain: Map< string, string >,
	maxZoom: number
): Promise< { found: number; missingRead: number } > {
	let found = 0;
	let missingRead = 0;
	for ( let z = 0; z <= maxZoom; z++ ) {
		const n = 2 ** z;
		for ( let x = 0; x < n; x++ ) {
			for ( let y = 0; y < n; y++ ) {
				const tile = await archive.getZxy( z, x, y );
				const expected = plain.get( `${ z }/${ x }/${ y }` );
				if ( expected === undefined ) {
					if ( tile ) {
						missingRead++;
					}
					continue;
				}
				expect( tile ).toBeDefined();
				expect( Buffer.from( tile!.data ).toString() ).toBe( expected );
				found++;
			}
		}
	}
	return { found, missingRead };
}

describe( 'PMTiles writer', () => {
	it( 'numbers tiles on the Hilbert curve exactly as the reader does', () => {
		for ( let z = 0; z <= 7; z++ ) {
			for ( let x = 0; x < 2 ** z; x++ ) {
				for ( let y = 0; y < 2 ** z; y++ ) {
					expect( zxyToTileId( z, x, y ) ).toBe(
						readerTileId( z, x, y )
					);
				}
			}
		}
		expect( zxyToTileId( 20, 12345, 54321 ) ).toBe(
			readerTileId( 20, 12345, 54321 )
		);
	} );

	it( 'writes an archive the pmtiles reader reads back: every tile, header and metadata', async () => {
		const { tiles, plain } = sampleTiles( 5 );
		const { bytes, stats } = writePmtiles( {
			tiles,
			bounds: [ -170, -60, 175.5, 80 ],
			center: [ 8, 47, 2 ],
			metadata,
		} );
		const archive = new PMTiles( memorySource( bytes ) );
		const header = await archive.getHeader();
		expect( header ).toMatchObject( {
			specVersion: 3,
			minZoom: 0,
			maxZoom: 5,
			minLon: -170,
			minLat: -60,
			maxLon: 175.5,
			maxLat: 80,
			centerLon: 8,
			centerLat: 47,
			centerZoom: 2,
			clustered: true,
			tileType: TileType.Mvt,
			tileCompression: Compression.Gzip,
			internalCompression: Compression.Gzip,
			numAddressedTiles: tiles.length,
		} );
		expect( header.numTileContents ).toBeLessThan( tiles.length );
		expect( header.numTileEntries ).toBeLessThan( tiles.length );
		expect( await archive.getMetadata() ).toEqual( metadata );

		const { found, missingRead } = await readAll( archive, plain, 5 );
		expect( found ).toBe( tiles.length );
		expect( missingRead ).toBe( 0 );
		// Outside the archive's zooms.
		expect( await archive.getZxy( 6, 0, 0 ) ).toBeUndefined();
		expect( stats.leafDirectories ).toBe( 0 );
		expect( stats.totalBytes ).toBe( bytes.length );
	} );

	it( 'stores a repeated tile once and a run of equal tiles as one entry', () => {
		const ocean = zlib.gzipSync( Buffer.from( 'ocean' ) );
		// Tile ids 1..4 are z1's four tiles, consecutive on the curve.
		const { stats } = writePmtiles( {
			tiles: [
				{
					z: 0,
					x: 0,
					y: 0,
					data: zlib.gzipSync( Buffer.from( 'world' ) ),
				},
				{ z: 1, x: 0, y: 0, data: ocean },
				{ z: 1, x: 0, y: 1, data: ocean },
				{ z: 1, x: 1, y: 1, data: ocean },
				{ z: 1, x: 1, y: 0, data: ocean },
			],
		} );
		expect( stats ).toMatchObject( {
			addressedTiles: 5,
			tileContents: 2,
			tileEntries: 2,
		} );
	} );

	it( 'reads back through leaf directories', async () => {
		const { tiles, plain } = sampleTiles( 4 );
		const { bytes, stats } = writePmtiles( {
			tiles,
			metadata,
			leafSize: 16,
		} );
		expect( stats.leafDirectories ).toBeGreaterThan( 5 );
		const archive = new PMTiles( memorySource( bytes ) );
		const { found, missingRead } = await readAll( archive, plain, 4 );
		expect( found ).toBe( tiles.length );
		expect( missingRead ).toBe( 0 );
		expect( await archive.getMetadata() ).toEqual( metadata );
	} );

	it( 'keeps the root directory inside the first 16 KiB of a big archive', async () => {
		// 87,381 distinct tiles (z0–8) of scattered lengths: too many entries for one root
		// directory, even gzipped.
		const tiles: WriterTile[] = [];
		// A fixed pseudo-random length per tile (mulberry32).
		let seed = 31;
		const random = () => {
			/* eslint-disable no-bitwise -- mulberry32 */
			seed = ( seed + 0x6d2b79f5 ) | 0;
			let t = Math.imul( seed ^ ( seed >>> 15 ), 1 | seed );
			t = ( t + Math.imul( t ^ ( t >>> 7 ), 61 | t ) ) ^ t;
			return ( ( t ^ ( t >>> 14 ) ) >>> 0 ) / 4294967296;
			/* eslint-enable no-bitwise */
		};
		const lengths = new Map< string, number >();
		const text = ( z: number, x: number, y: number ) =>
			`${ z }/${ x }/${ y }`.padEnd(
				lengths.get( `${ z }/${ x }/${ y }` ) ?? 0,
				'.'
			);
		for ( let z = 0; z <= 8; z++ ) {
			for ( let x = 0; x < 2 ** z; x++ ) {
				for ( let y = 0; y < 2 ** z; y++ ) {
					lengths.set(
						`${ z }/${ x }/${ y }`,
						8 + Math.floor( random() * 250 )
					);
					tiles.push( {
						z,
						x,
						y,
						data: Buffer.from( text( z, x, y ) ),
					} );
				}
			}
		}
		const { bytes, stats } = writePmtiles( {
			tiles,
			tileCompression: Compression.None,
		} );
		expect( stats.leafDirectories ).toBeGreaterThan( 0 );
		const source = memorySource( bytes );
		const archive = new PMTiles( source );
		const header = await archive.getHeader();
		expect(
			header.rootDirectoryOffset + header.rootDirectoryLength
		).toBeLessThanOrEqual( FIRST_FETCH_BYTES );
		for ( const [ z, x, y ] of [
			[ 0, 0, 0 ],
			[ 8, 0, 0 ],
			[ 8, 255, 255 ],
			[ 8, 17, 200 ],
			[ 7, 100, 3 ],
		] as const ) {
			const tile = await archive.getZxy( z, x, y );
			expect( Buffer.from( tile!.data ).toString() ).toBe(
				text( z, x, y )
			);
		}
		// One first fetch of 16 KiB, then only leaves and tiles.
		expect( source.ranges[ 0 ] ).toEqual( [ 0, FIRST_FETCH_BYTES ] );
	}, 60_000 );

	it( 'refuses a tile given twice', () => {
		const data = Buffer.from( 'x' );
		expect( () =>
			writePmtiles( {
				tiles: [
					{ z: 1, x: 1, y: 1, data },
					{ z: 1, x: 1, y: 1, data },
				],
			} )
		).toThrow( 'tile 1/1/1 is given twice' );
	} );
} );
