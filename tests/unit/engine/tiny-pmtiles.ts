/**
 * A tiny PMTiles v3 archive made in memory (no compression, one root directory), and a `fetch`
 * that serves bytes the way a web server does: `206` for a range, `416` past the end. Enough for
 * the style builder's checks; real archives come from bin/lib/pmtiles-writer.mjs.
 */

import {
	TextDecoder as NodeTextDecoder,
	TextEncoder as NodeTextEncoder,
} from 'node:util';

function varint( value: number, out: number[] ) {
	let v = value;
	while ( v >= 0x80 ) {
		out.push( ( v % 128 ) + 128 );
		v = Math.floor( v / 128 );
	}
	out.push( v );
}

/**
 * @param options
 * @param options.tileType  1: vector tiles (MVT), 2: PNG.
 * @param options.metadata  The archive's JSON metadata.
 * @param options.tileCount How many tiles (each 16 bytes, ids 0…n-1).
 */
export function tinyArchive( {
	tileType = 1,
	metadata = {},
	tileCount = 3,
}: {
	tileType?: number;
	metadata?: Record< string, unknown >;
	tileCount?: number;
} = {} ): Uint8Array {
	const tileSize = 16;
	const dir: number[] = [];
	varint( tileCount, dir );
	for ( let i = 0; i < tileCount; i++ ) {
		varint( i === 0 ? 0 : 1, dir ); // id deltas
	}
	for ( let i = 0; i < tileCount; i++ ) {
		varint( 1, dir ); // run lengths
	}
	for ( let i = 0; i < tileCount; i++ ) {
		varint( tileSize, dir ); // lengths
	}
	for ( let i = 0; i < tileCount; i++ ) {
		varint( i === 0 ? 1 : 0, dir ); // offsets: 0 + 1, then consecutive
	}
	const meta = new TextEncoder().encode( JSON.stringify( metadata ) );
	const tiles = new Uint8Array( tileCount * tileSize ).fill( 7 );
	const rootOffset = 127;
	const metaOffset = rootOffset + dir.length;
	const tileOffset = metaOffset + meta.length;
	const bytes = new Uint8Array( tileOffset + tiles.length );
	const view = new DataView( bytes.buffer );
	bytes.set( new TextEncoder().encode( 'PMTiles' ), 0 );
	view.setUint8( 7, 3 );
	const u64 = ( at: number, value: number ) =>
		view.setBigUint64( at, BigInt( value ), true );
	u64( 8, rootOffset );
	u64( 16, dir.length );
	u64( 24, metaOffset );
	u64( 32, meta.length );
	u64( 40, 0 );
	u64( 48, 0 );
	u64( 56, tileOffset );
	u64( 64, tiles.length );
	u64( 72, tileCount );
	u64( 80, tileCount );
	u64( 88, tileCount );
	view.setUint8( 96, 1 ); // clustered
	view.setUint8( 97, 1 ); // internal compression: none
	view.setUint8( 98, 1 ); // tile compression: none
	view.setUint8( 99, tileType );
	view.setUint8( 100, 0 );
	view.setUint8( 101, 1 );
	bytes.set( dir, rootOffset );
	bytes.set( meta, metaOffset );
	bytes.set( tiles, tileOffset );
	return bytes;
}

class SimpleHeaders {
	private readonly values = new Map< string, string >();
	constructor( init?: Record< string, string > | SimpleHeaders ) {
		const entries =
			init instanceof SimpleHeaders
				? [ ...init.values ]
				: Object.entries( init ?? {} );
		for ( const [ key, value ] of entries ) {
			this.set( key, value );
		}
	}
	set( key: string, value: string ) {
		this.values.set( key.toLowerCase(), value );
	}
	get( key: string ) {
		return this.values.get( key.toLowerCase() ) ?? null;
	}
}

/**
 * jsdom has no `TextEncoder` or `TextDecoder` (every supported browser has them), and the
 * environment's `Headers` stand-in keeps no values: the small one above replaces it.
 */
export function ensureWebApis() {
	Object.assign( globalThis, { Headers: SimpleHeaders } );
	if ( typeof globalThis.TextEncoder === 'undefined' ) {
		Object.assign( globalThis, { TextEncoder: NodeTextEncoder } );
	}
	if ( typeof globalThis.TextDecoder === 'undefined' ) {
		Object.assign( globalThis, { TextDecoder: NodeTextDecoder } );
	}
}

/**
 * A fetch that serves `files` by URL with byte ranges; records each request.
 * @param files
 * @param requests
 */
export function rangeFetch(
	files: Record< string, Uint8Array >,
	requests: string[] = []
) {
	return async (
		url: string,
		init?: { headers?: { get: ( key: string ) => string | null } }
	) => {
		requests.push( url );
		const file = files[ url ];
		if ( ! file ) {
			return {
				status: 404,
				headers: new SimpleHeaders(),
				arrayBuffer: async () => new ArrayBuffer( 0 ),
			};
		}
		const range = /bytes=(\d+)-(\d+)/.exec(
			init?.headers?.get( 'range' ) ?? ''
		);
		const start = range ? Number( range[ 1 ] ) : 0;
		const end = range ? Number( range[ 2 ] ) : file.length - 1;
		if ( start >= file.length ) {
			return {
				status: 416,
				headers: new SimpleHeaders( {
					'Content-Range': `bytes */${ file.length }`,
				} ),
				arrayBuffer: async () => new ArrayBuffer( 0 ),
			};
		}
		const body = file.slice( start, Math.min( end + 1, file.length ) );
		return {
			status: 206,
			headers: new SimpleHeaders( {
				'Content-Length': String( body.length ),
			} ),
			arrayBuffer: async () => body.buffer,
		};
	};
}
