/**
 * The parts of `pbf` and `@mapbox/vector-tile` (vt-pbf's readers, no types of their own) the
 * basemap tests read glyphs and tiles with.
 */
declare module 'pbf' {
	export default class Pbf {
		constructor( buffer: Uint8Array );
		readFields< T >(
			read: ( tag: number, result: T, pbf: Pbf ) => void,
			result?: T
		): T;
		readMessage< T >(
			read: ( tag: number, result: T, pbf: Pbf ) => void,
			result?: T
		): T;
		readString(): string;
		readVarint(): number;
		readBytes(): Uint8Array;
	}
}

declare module '@mapbox/vector-tile' {
	import type Pbf from 'pbf';

	export interface VectorTileFeature {
		/** 1 point, 2 line, 3 polygon. */
		type: number;
		properties: Record< string, string | number | boolean >;
	}
	export interface VectorTileLayer {
		length: number;
		feature: ( i: number ) => VectorTileFeature;
	}
	export class VectorTile {
		constructor( pbf: Pbf );
		layers: Record< string, VectorTileLayer >;
	}
}
