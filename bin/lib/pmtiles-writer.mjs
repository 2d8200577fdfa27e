/**
 * A PMTiles v3 writer (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md), in Node
 * only, so that `npm start` can build the demo's world archive without Python (PyPI's `pmtiles`
 * package is the reference writer, but it would add a Python toolchain to a Node project and
 * PyPI is unreachable on the build machines).
 *
 * Layout written: header (127 bytes) | root directory | JSON metadata | leaf directories | tile data.
 * - Tiles are sorted by tile id (Hilbert order), so the archive is `clustered`.
 * - Identical tile contents are stored once (SHA-1 of the bytes); a run of consecutive tile ids
 *   with the same content is one directory entry with a run length.
 * - Directories use the spec's columnar varint encoding (ids as deltas, offsets 0 when contiguous),
 *   gzip-compressed (internal compression 2). The root directory, with the header, fits in the
 *   first 16,384 bytes, which a reader fetches first; when it would not, entries go to leaf
 *   directories and the root points at those.
 *
 * Usage:
 *   import { writePmtiles } from './lib/pmtiles-writer.mjs';
 *   const bytes = writePmtiles( {
 *     tiles: [ { z, x, y, data } ],          // data: Uint8Array, already compressed as tileCompression says
 *     tileType: TileType.Mvt, tileCompression: Compression.Gzip,
 *     bounds: [ minLon, minLat, maxLon, maxLat ], center: [ lon, lat, zoom ],
 *     metadata: { attribution, vector_layers, … },
 *   } );
 */
import { createHash } from 'node:crypto';
import zlib from 'node:zlib';

/** Header length in bytes. */
export const HEADER_BYTES = 127;

/** What a reader fetches first: the header and the root directory must fit in it. */
export const FIRST_FETCH_BYTES = 16384;

/** Compression codes (spec v3). */
export const Compression = { Unknown: 0, None: 1, Gzip: 2, Brotli: 3, Zstd: 4 };

/** Tile type codes (spec v3). */
export const TileType = {
	Unknown: 0,
	Mvt: 1,
	Png: 2,
	Jpeg: 3,
	Webp: 4,
	Avif: 5,
};

/* eslint-disable no-bitwise -- Hilbert curve and varints */

/**
 * The tile id of z/x/y: tiles of lower zooms first, then the position on zoom z's Hilbert curve.
 *
 * @param {number} z Zoom (0–26).
 * @param {number} x Column.
 * @param {number} y Row.
 * @return {number} The tile id.
 */
export function zxyToTileId( z, x, y ) {
	if ( z > 26 ) {
		throw new Error( `zoom ${ z } is beyond 26` );
	}
	const n = 2 ** z;
	if ( x < 0 || y < 0 || x >= n || y >= n ) {
		throw new Error( `tile ${ z }/${ x }/${ y } is outside its zoom` );
	}
	// Tiles of all lower zooms: (4^z - 1) / 3.
	const base = ( 4 ** z - 1 ) / 3;
	let rx;
	let ry;
	let d = 0;
	let tx = x;
	let ty = y;
	for ( let s = n / 2; s >= 1; s /= 2 ) {
		rx = ( tx & s ) > 0 ? 1 : 0;
		ry = ( ty & s ) > 0 ? 1 : 0;
		d += s * s * ( ( 3 * rx ) ^ ry );
		// Rotate the quadrant.
		if ( ry === 0 ) {
			if ( rx === 1 ) {
				tx = s - 1 - tx;
				ty = s - 1 - ty;
			}
			[ tx, ty ] = [ ty, tx ];
		}
	}
	return base + d;
}

/**
 * Appends n as an unsigned LEB128 varint (n up to 2^53).
 *
 * @param {number[]} out Bytes.
 * @param {number}   n   Non-negative integer.
 */
function pushVarint( out, n ) {
	if ( ! Number.isSafeInteger( n ) || n < 0 ) {
		throw new Error( `cannot encode ${ n } as a varint` );
	}
	let v = n;
	while ( v >= 0x80 ) {
		out.push( ( v % 0x80 ) | 0x80 );
		v = Math.floor( v / 0x80 );
	}
	out.push( v );
}

/* eslint-enable no-bitwise */

/**
 * A directory in the spec's encoding: count, id deltas, run lengths, lengths, offsets
 * (offset + 1, or 0 when the entry starts where the previous one ended).
 *
 * @param {{tileId: number, offset: number, length: number, runLength: number}[]} entries Sorted by id.
 * @return {Buffer} The uncompressed directory.
 */
export function serializeDirectory( entries ) {
	const out = [];
	pushVarint( out, entries.length );
	let last = 0;
	for ( const e of entries ) {
		pushVarint( out, e.tileId - last );
		last = e.tileId;
	}
	for ( const e of entries ) {
		pushVarint( out, e.runLength );
	}
	for ( const e of entries ) {
		pushVarint( out, e.length );
	}
	entries.forEach( ( e, i ) => {
		const previous = entries[ i - 1 ];
		if ( i > 0 && e.offset === previous.offset + previous.length ) {
			pushVarint( out, 0 );
		} else {
			pushVarint( out, e.offset + 1 );
		}
	} );
	return Buffer.from( out );
}

function compress( bytes, compression ) {
	if ( compression === Compression.Gzip ) {
		// A fixed mtime (0) and level keep the output byte-identical between runs.
		return zlib.gzipSync( bytes, { level: 9 } );
	}
	if ( compression === Compression.None ) {
		return Buffer.from( bytes );
	}
	throw new Error( `internal compression ${ compression } is not supported` );
}

/**
 * Root and leaf directories for the entries. Leaves hold `leafSize` entries each; the leaf size
 * grows until the root fits in the first fetch (or is what the caller forced).
 *
 * @param {Object[]} entries          Tile entries, sorted.
 * @param {number}   internal         Internal compression.
 * @param {Object}   options          Options.
 * @param {number}   options.rootMax  Bytes the root may take.
 * @param {number}   options.leafSize Force leaves of this many entries (tests); 0 = only when needed.
 * @return {{root: Buffer, leaves: Buffer, leafCount: number}} The directories.
 */
function buildDirectories( entries, internal, { rootMax, leafSize } ) {
	if ( ! leafSize ) {
		const root = compress( serializeDirectory( entries ), internal );
		if ( root.length <= rootMax ) {
			return { root, leaves: Buffer.alloc( 0 ), leafCount: 0 };
		}
	}
	let size = leafSize || 4096;
	for (;;) {
		const rootEntries = [];
		const leafParts = [];
		let offset = 0;
		for ( let i = 0; i < entries.length; i += size ) {
			const chunk = entries.slice( i, i + size );
			const leaf = compress( serializeDirectory( chunk ), internal );
			rootEntries.push( {
				tileId: chunk[ 0 ].tileId,
				offset,
				length: leaf.length,
				runLength: 0,
			} );
			leafParts.push( leaf );
			offset += leaf.length;
		}
		const root = compress( serializeDirectory( rootEntries ), internal );
		if ( root.length <= rootMax || leafSize ) {
			return {
				root,
				leaves: Buffer.concat( leafParts ),
				leafCount: leafParts.length,
			};
		}
		size *= 2;
	}
}

function writeUint64( buf, offset, n ) {
	buf.writeBigUInt64LE( BigInt( n ), offset );
}

function e7( degrees ) {
	return Math.round( degrees * 1e7 );
}

/**
 * Writes a PMTiles v3 archive.
 *
 * @param {Object}                                                options                       Options.
 * @param {{z: number, x: number, y: number, data: Uint8Array}[]} options.tiles                 Tiles (any order; no duplicates).
 * @param {number}                                                [options.tileType]            TileType (default Mvt).
 * @param {number}                                                [options.tileCompression]     How the tiles' bytes are compressed (default Gzip).
 * @param {number}                                                [options.internalCompression] Directories and metadata (default Gzip).
 * @param {number[]}                                              [options.bounds]              [minLon, minLat, maxLon, maxLat] (default the world).
 * @param {number[]}                                              [options.center]              [lon, lat, zoom] (default the bounds' middle at the min zoom).
 * @param {number}                                                [options.minZoom]             Default: the tiles' lowest zoom.
 * @param {number}                                                [options.maxZoom]             Default: the tiles' highest zoom.
 * @param {Object}                                                [options.metadata]            JSON metadata.
 * @param {number}                                                [options.leafSize]            Force leaf directories of this many entries (tests).
 * @return {{bytes: Buffer, stats: Object}} The archive and what it holds.
 */
export function writePmtiles( {
	tiles,
	tileType = TileType.Mvt,
	tileCompression = Compression.Gzip,
	internalCompression = Compression.Gzip,
	bounds = [ -180, -85.0511287, 180, 85.0511287 ],
	center,
	minZoom,
	maxZoom,
	metadata = {},
	leafSize = 0,
} ) {
	if ( ! tiles.length ) {
		throw new Error( 'an archive needs at least one tile' );
	}
	const sorted = tiles
		.map( ( t ) => ( { ...t, tileId: zxyToTileId( t.z, t.x, t.y ) } ) )
		.sort( ( a, b ) => a.tileId - b.tileId );
	for ( let i = 1; i < sorted.length; i++ ) {
		if ( sorted[ i ].tileId === sorted[ i - 1 ].tileId ) {
			const { z, x, y } = sorted[ i ];
			throw new Error( `tile ${ z }/${ x }/${ y } is given twice` );
		}
	}

	const entries = [];
	const parts = [];
	const offsets = new Map(); // content hash → { offset, length }
	let dataLength = 0;
	for ( const tile of sorted ) {
		const data = Buffer.from( tile.data );
		const hash = createHash( 'sha1' ).update( data ).digest( 'hex' );
		let stored = offsets.get( hash );
		if ( ! stored ) {
			stored = { offset: dataLength, length: data.length };
			offsets.set( hash, stored );
			parts.push( data );
			dataLength += data.length;
		}
		const last = entries[ entries.length - 1 ];
		if (
			last &&
			last.offset === stored.offset &&
			last.tileId + last.runLength === tile.tileId
		) {
			last.runLength++;
		} else {
			entries.push( {
				tileId: tile.tileId,
				offset: stored.offset,
				length: stored.length,
				runLength: 1,
			} );
		}
	}

	const metadataBytes = compress(
		Buffer.from( JSON.stringify( metadata ), 'utf8' ),
		internalCompression
	);
	const { root, leaves, leafCount } = buildDirectories(
		entries,
		internalCompression,
		{ rootMax: FIRST_FETCH_BYTES - HEADER_BYTES, leafSize }
	);

	const zooms = sorted.map( ( t ) => t.z );
	const lowest = minZoom ?? Math.min( ...zooms );
	const highest = maxZoom ?? Math.max( ...zooms );
	const [ centerLon, centerLat, centerZoom ] = center ?? [
		( bounds[ 0 ] + bounds[ 2 ] ) / 2,
		( bounds[ 1 ] + bounds[ 3 ] ) / 2,
		lowest,
	];

	const rootOffset = HEADER_BYTES;
	const metadataOffset = rootOffset + root.length;
	const leavesOffset = metadataOffset + metadataBytes.length;
	const dataOffset = leavesOffset + leaves.length;

	const header = Buffer.alloc( HEADER_BYTES );
	header.write( 'PMTiles', 0, 'ascii' );
	header.writeUInt8( 3, 7 );
	writeUint64( header, 8, rootOffset );
	writeUint64( header, 16, root.length );
	writeUint64( header, 24, metadataOffset );
	writeUint64( header, 32, metadataBytes.length );
	writeUint64( header, 40, leavesOffset );
	writeUint64( header, 48, leaves.length );
	writeUint64( header, 56, dataOffset );
	writeUint64( header, 64, dataLength );
	writeUint64( header, 72, sorted.length ); // addressed tiles
	writeUint64( header, 80, entries.length ); // tile entries
	writeUint64( header, 88, parts.length ); // tile contents
	header.writeUInt8( 1, 96 ); // clustered
	header.writeUInt8( internalCompression, 97 );
	header.writeUInt8( tileCompression, 98 );
	header.writeUInt8( tileType, 99 );
	header.writeUInt8( lowest, 100 );
	header.writeUInt8( highest, 101 );
	header.writeInt32LE( e7( bounds[ 0 ] ), 102 );
	header.writeInt32LE( e7( bounds[ 1 ] ), 106 );
	header.writeInt32LE( e7( bounds[ 2 ] ), 110 );
	header.writeInt32LE( e7( bounds[ 3 ] ), 114 );
	header.writeUInt8( Math.round( centerZoom ), 118 );
	header.writeInt32LE( e7( centerLon ), 119 );
	header.writeInt32LE( e7( centerLat ), 123 );

	const bytes = Buffer.concat( [
		header,
		root,
		metadataBytes,
		leaves,
		...parts,
	] );
	return {
		bytes,
		stats: {
			addressedTiles: sorted.length,
			tileEntries: entries.length,
			tileContents: parts.length,
			leafDirectories: leafCount,
			rootBytes: root.length,
			tileBytes: dataLength,
			totalBytes: bytes.length,
		},
	};
}
