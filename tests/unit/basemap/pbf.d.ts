/**
 * The part of `pbf` (vt-pbf's protobuf reader, no types of its own) the glyph test reads with.
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
