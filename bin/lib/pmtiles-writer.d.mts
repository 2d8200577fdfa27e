/**
 * Types of bin/lib/pmtiles-writer.mjs for the unit tests that read its archives back.
 */

export const HEADER_BYTES: number;
export const FIRST_FETCH_BYTES: number;
export const Compression: {
	Unknown: 0;
	None: 1;
	Gzip: 2;
	Brotli: 3;
	Zstd: 4;
};
export const TileType: {
	Unknown: 0;
	Mvt: 1;
	Png: 2;
	Jpeg: 3;
	Webp: 4;
	Avif: 5;
};

export interface WriterTile {
	z: number;
	x: number;
	y: number;
	data: Uint8Array;
}

export interface WriterStats {
	addressedTiles: number;
	tileEntries: number;
	tileContents: number;
	leafDirectories: number;
	rootBytes: number;
	tileBytes: number;
	totalBytes: number;
}

export function zxyToTileId( z: number, x: number, y: number ): number;

export function serializeDirectory(
	entries: {
		tileId: number;
		offset: number;
		length: number;
		runLength: number;
	}[]
): Buffer;

export function writePmtiles( options: {
	tiles: WriterTile[];
	tileType?: number;
	tileCompression?: number;
	internalCompression?: number;
	bounds?: [ number, number, number, number ];
	center?: [ number, number, number ];
	minZoom?: number;
	maxZoom?: number;
	metadata?: Record< string, unknown >;
	leafSize?: number;
} ): { bytes: Buffer; stats: WriterStats };
