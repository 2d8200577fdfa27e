/**
 * The engine interface on both adapters: what each refuses before a map exists, how each
 * classifies the map's `error` events, cluster expansion and leaves as promises, missing images,
 * the cooperative gestures' `locale` keys, the class prefix, and the one selection function that
 * tells the libraries apart. maplibre-gl's module cannot load in jsdom (ES module only, WebGL 2),
 * so the libraries here are stand-ins with each one's own API shape; the locale keys are checked
 * against the real maplibre-gl and mapbox-gl files.
 */
import fs from 'node:fs';
import { TextDecoder as NodeTextDecoder } from 'node:util';

import { mapboxEngine } from '../../../packages/map/src/engine/mapbox';
import {
	maplibreEngine,
	requestCheck,
} from '../../../packages/map/src/engine/maplibre';
import {
	libraryEngine,
	refuseBeforeLoad,
	selectEngine,
	unwrapLib,
} from '../../../packages/map/src/engine/select';
import { parseMapConfig } from '../../../packages/map/src/config';
import type { MapLib } from '../../../packages/map/src/types';
import type {
	EngineMap,
	MapEngine,
} from '../../../packages/map/src/engine/types';

if ( typeof globalThis.TextDecoder === 'undefined' ) {
	Object.assign( globalThis, { TextDecoder: NodeTextDecoder } );
}

const PUBLIC = `pk.${ Buffer.from(
	JSON.stringify( { u: 'cairn-test', a: 'x' } )
).toString( 'base64url' ) }.sig`;

/** mapbox-gl's shape: a default export with `supported()`. */
const mapboxLike = {
	supported: () => true,
	Map: class {},
	Popup: class {},
} as unknown as MapLib;
/** maplibre-gl's shape: a module with `addProtocol`, `setWorkerUrl` and no `supported()`. */
const maplibreLike = {
	addProtocol: () => undefined,
	setWorkerUrl: () => undefined,
	Map: class {},
	Popup: class {},
} as unknown as MapLib;

describe( 'choosing the adapter', () => {
	it( 'recognises which library a host passed, as an export or as a module', async () => {
		expect( libraryEngine( mapboxLike ) ).toBe( 'mapbox' );
		expect( libraryEngine( maplibreLike ) ).toBe( 'maplibre' );
		// maplibre-gl's adapter comes with its own chunk; mapbox-gl's is at hand.
		expect( ( await selectEngine( maplibreLike ) ).name ).toBe(
			'maplibre'
		);
		expect( ( selectEngine( mapboxLike ) as MapEngine ).name ).toBe(
			'mapbox'
		);
		expect( unwrapLib( { default: mapboxLike } ) ).toBe( mapboxLike );
		expect( unwrapLib( maplibreLike ) ).toBe( maplibreLike );
		// One adapter per library object.
		expect( selectEngine( maplibreLike ) ).toBe(
			selectEngine( maplibreLike )
		);
	} );

	it( 'names each engine’s class prefix', async () => {
		expect( ( await selectEngine( mapboxLike ) ).classPrefix ).toBe(
			'mapboxgl-'
		);
		expect( ( await selectEngine( maplibreLike ) ).classPrefix ).toBe(
			'maplibregl-'
		);
	} );
} );

describe( 'refusals before a map exists', () => {
	it( 'mapbox: the token rules', () => {
		expect( refuseBeforeLoad( parseMapConfig( {} ) ) ).toBe(
			'missing-token'
		);
		expect(
			refuseBeforeLoad(
				parseMapConfig( { accessToken: 'sk.eyJ1IjoiYSJ9.sig' } )
			)
		).toBe( 'secret-token' );
		expect(
			refuseBeforeLoad( parseMapConfig( { accessToken: PUBLIC } ) )
		).toBeNull();
		expect(
			mapboxEngine( mapboxLike ).refuse( parseMapConfig( {} ) )
		).toBe( 'missing-token' );
	} );

	it( 'maplibre: never a token code, with or without a token', () => {
		for ( const accessToken of [ '', 'sk.eyJ1IjoiYSJ9.sig', 'pk.bad' ] ) {
			const config = parseMapConfig( {
				engine: 'maplibre',
				style: 'https://tiles.openfreemap.org/styles/liberty',
				accessToken,
			} );
			expect( refuseBeforeLoad( config ) ).toBeNull();
			expect(
				maplibreEngine( maplibreLike ).refuse( config )
			).toBeNull();
		}
	} );
} );

describe( 'error events', () => {
	const error = ( status: number, extra: Record< string, unknown > = {} ) =>
		( { error: { status }, ...extra } ) as never;

	it( 'mapbox: 401 and 403 are the token’s, before and after load', () => {
		const engine = mapboxEngine( mapboxLike );
		expect( engine.classify( error( 401 ), false, 'cairn-markers' ) ).toBe(
			'invalid-token'
		);
		expect( engine.classify( error( 403 ), true, 'cairn-markers' ) ).toBe(
			'invalid-token'
		);
		expect( engine.classify( error( 404 ), false, 'cairn-markers' ) ).toBe(
			'style'
		);
	} );

	it( 'maplibre: a style or archive that cannot be read is `style`, never a token code', () => {
		const engine = maplibreEngine( maplibreLike );
		for ( const status of [ 401, 403, 404, 416, 500 ] ) {
			expect(
				engine.classify( error( status ), false, 'cairn-markers' )
			).toBe( 'style' );
			expect(
				engine.classify( error( status ), true, 'cairn-markers' )
			).toBeNull();
		}
		expect(
			engine.classify(
				error( 500, { sourceId: 'cairn-markers' } ),
				true,
				'cairn-markers'
			)
		).toBe( 'markers' );
		expect(
			engine.classify(
				error( 500, { sourceId: 'protomaps', tile: {} } ),
				false,
				'cairn-markers'
			)
		).toBeNull();
	} );
} );

describe( 'clusters as promises on both engines', () => {
	it( 'mapbox: its callbacks become promises, errors rejections', async () => {
		const engine = mapboxEngine( mapboxLike );
		const source = {
			getClusterExpansionZoom: (
				id: number,
				done: ( e: Error | null, zoom?: number ) => void
			) =>
				id === 1 ? done( null, 7 ) : done( new Error( 'no cluster' ) ),
			getClusterLeaves: (
				_id: number,
				limit: number,
				offset: number,
				done: ( e: Error | null, f?: unknown[] ) => void
			) => done( null, [ { limit, offset } ] ),
		} as never;
		await expect( engine.clusterExpansionZoom( source, 1 ) ).resolves.toBe(
			7
		);
		await expect(
			engine.clusterExpansionZoom( source, 2 )
		).rejects.toThrow( 'no cluster' );
		await expect(
			engine.clusterLeaves( source, 1, 10, 5 )
		).resolves.toEqual( [ { limit: 10, offset: 5 } ] );
	} );

	it( 'maplibre: its promises as they are', async () => {
		const engine = maplibreEngine( maplibreLike );
		const source = {
			getClusterExpansionZoom: async () => 9,
			getClusterLeaves: async ( id: number, limit: number ) => [
				{ id, limit },
			],
		} as never;
		await expect( engine.clusterExpansionZoom( source, 3 ) ).resolves.toBe(
			9
		);
		await expect(
			engine.clusterLeaves( source, 3, 2, 0 )
		).resolves.toEqual( [ { id: 3, limit: 2 } ] );
	} );
} );

describe( 'images', () => {
	it( 'mapbox: loadImage’s callback, styleimagemissing events', async () => {
		const engine = mapboxEngine( mapboxLike );
		const listeners: Record< string, ( e: { id: string } ) => void > = {};
		const map = {
			loadImage: (
				url: string,
				done: ( e: Error | null, i?: unknown ) => void
			) =>
				url.endsWith( '.png' )
					? done( null, { width: 1 } )
					: done( new Error( 'not an image' ) ),
			on: ( type: string, listener: ( e: { id: string } ) => void ) => {
				listeners[ type ] = listener;
			},
			off: ( type: string ) => delete listeners[ type ],
		} as unknown as EngineMap;
		await expect( engine.loadImage( map, 'a.png' ) ).resolves.toEqual( {
			width: 1,
		} );
		await expect( engine.loadImage( map, 'a.svg' ) ).rejects.toThrow();
		const missing: string[] = [];
		const stop = engine.onMissingImage( map, ( id ) => missing.push( id ) );
		listeners.styleimagemissing?.( { id: 'townspot' } );
		stop();
		expect( missing ).toEqual( [ 'townspot' ] );
		expect( listeners.styleimagemissing ).toBeUndefined();
	} );

	it( 'maplibre: loadImage’s promise, the missing-image resolver', async () => {
		const engine = maplibreEngine( maplibreLike );
		let resolver: ( ( id: string ) => void ) | null = null;
		const map = {
			loadImage: async ( url: string ) => {
				if ( ! url.endsWith( '.png' ) ) {
					throw new Error( 'not an image' );
				}
				return { data: { width: 2 } };
			},
			setMissingStyleImageResolver: ( next: typeof resolver ) => {
				resolver = next;
			},
		} as unknown as EngineMap;
		await expect( engine.loadImage( map, 'b.png' ) ).resolves.toEqual( {
			width: 2,
		} );
		await expect( engine.loadImage( map, 'b.svg' ) ).rejects.toThrow();
		const missing: string[] = [];
		const stop = engine.onMissingImage( map, ( id ) => missing.push( id ) );
		( resolver as unknown as ( id: string ) => void )( 'capital' );
		stop();
		expect( missing ).toEqual( [ 'capital' ] );
		expect( resolver ).toBeNull();
	} );
} );

describe( 'cooperative gestures', () => {
	const messages = { ctrl: 'C', cmd: 'M', touch: 'T' };

	it.each( [
		[ 'mapbox', mapboxEngine( mapboxLike ), 'mapbox-gl/dist/mapbox-gl.js' ],
		[
			'maplibre',
			maplibreEngine( maplibreLike ),
			'maplibre-gl/dist/maplibre-gl.mjs',
		],
	] )( '%s: the keys its library reads', ( _name, engine, file ) => {
		const locale = engine.gestureLocale( messages );
		expect( Object.values( locale ).sort() ).toEqual( [ 'C', 'M', 'T' ] );
		const source = fs.readFileSync( require.resolve( file ), 'utf8' );
		for ( const key of Object.keys( locale ) ) {
			expect( source ).toContain( key );
		}
	} );
} );

describe( 'maplibre: requests only to the chosen hosts', () => {
	const page = 'https://site.example/a-page/';
	const base = {
		engine: 'maplibre',
		markersUrl: 'https://site.example/wp-json/cairn/v1/markers',
		tilesUrl: '',
	};

	it( 'allows the page’s origin, the config’s URLs’ origins and the basemap’s hosts', () => {
		const allowed = requestCheck(
			parseMapConfig( {
				...base,
				style: 'https://tiles.openfreemap.org/styles/liberty',
				markersUrl: 'https://api.example.net/wp-json/cairn/v1/markers',
			} ),
			page
		);
		expect( allowed( 'https://site.example/wp-content/x.png' ) ).toBe(
			true
		);
		expect( allowed( '/relative/on/the/page.json' ) ).toBe( true );
		expect( allowed( 'https://api.example.net/wp-json/x' ) ).toBe( true );
		expect(
			allowed( 'https://tiles.openfreemap.org/planet/1/2/3.pbf' )
		).toBe( true );
		expect( allowed( 'data:image/png;base64,AAAA' ) ).toBe( true );
		expect( allowed( 'blob:https://site.example/1234' ) ).toBe( true );
	} );

	it( 'refuses any other host, another port or scheme of a chosen host', () => {
		const allowed = requestCheck(
			parseMapConfig( {
				...base,
				style: 'https://tiles.openfreemap.org/styles/liberty',
			} ),
			page
		);
		expect( allowed( 'https://tiles.example.com/1/2/3.pbf' ) ).toBe(
			false
		);
		expect( allowed( 'https://api.mapbox.com/v4/x.json' ) ).toBe( false );
		expect( allowed( 'http://tiles.openfreemap.org/x' ) ).toBe( false );
		expect( allowed( 'https://tiles.openfreemap.org:8443/x' ) ).toBe(
			false
		);
		expect( allowed( 'ftp://site.example/x' ) ).toBe( false );
	} );

	it( 'refuses a style URL’s own host unless the basemap names it', () => {
		const style = 'https://styles.example.org/style.json';
		const unnamed = requestCheck(
			parseMapConfig( {
				...base,
				style,
				basemap: { provider: 'style-url', hosts: [] },
			} ),
			page
		);
		expect( unnamed( style ) ).toBe( false );
		const named = requestCheck(
			parseMapConfig( { ...base, style } ),
			page
		);
		expect( named( style ) ).toBe( true );
	} );

	it( 'self-hosted: the archive on the site, nothing else', () => {
		const allowed = requestCheck(
			parseMapConfig( {
				...base,
				style: 'pmtiles://https://site.example/wp-content/uploads/world.pmtiles',
				basemap: {
					provider: 'self-hosted',
					glyphs: 'https://site.example/glyphs/{fontstack}/{range}.pbf',
					hosts: [],
				},
			} ),
			page
		);
		expect(
			allowed(
				'pmtiles://https://site.example/wp-content/uploads/world.pmtiles/{z}/{x}/{y}'
			)
		).toBe( true );
		expect(
			allowed( 'pmtiles://https://elsewhere.example/world.pmtiles' )
		).toBe( false );
		expect( allowed( 'https://tiles.openfreemap.org/x' ) ).toBe( false );
	} );
} );
