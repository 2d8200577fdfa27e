/**
 * @jest-environment node
 */
/**
 * The demo world archive (bin/build-basemap.mjs) is what @protomaps/basemaps' style reads: every
 * source layer the style names is declared (MapLibre reports an undeclared one as an error), and
 * a tile over Europe holds land, sea, borders and country labels with the property names and
 * values the style's filters and expressions use.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

import { layers, namedFlavor } from '@protomaps/basemaps';
// eslint-disable-next-line import/no-extraneous-dependencies -- vt-pbf's own vector tile reader.
import { VectorTile } from '@mapbox/vector-tile';
// eslint-disable-next-line import/no-extraneous-dependencies -- vt-pbf's own protobuf reader.
import Pbf from 'pbf';
import { PMTiles, type Source } from 'pmtiles';

const ROOT = path.join( __dirname, '..', '..', '..' );
// bin/build-basemap.mjs's output (it uses import.meta, which this CommonJS test cannot load).
const ARCHIVE = path.join( ROOT, '.cache', 'basemap', 'world.pmtiles' );

jest.setTimeout( 60_000 );

let archive: PMTiles;

beforeAll( async () => {
	// Builds it unless it is up to date (~0.1 s then).
	execFileSync(
		process.execPath,
		[ path.join( ROOT, 'bin', 'build-basemap.mjs' ), '--quiet' ],
		{ cwd: ROOT, stdio: 'inherit' }
	);
	const bytes = fs.readFileSync( ARCHIVE );
	const source: Source = {
		getKey: () => ARCHIVE,
		getBytes: async ( offset: number, length: number ) => {
			const slice = bytes.subarray( offset, offset + length );
			return {
				data: slice.buffer.slice(
					slice.byteOffset,
					slice.byteOffset + slice.byteLength
				) as ArrayBuffer,
			};
		},
	};
	archive = new PMTiles( source );
} );

/** The features of one layer of tile z/x/y, as plain property objects. */
async function features( z: number, x: number, y: number, layer: string ) {
	const tile = await archive.getZxy( z, x, y );
	expect( tile ).toBeDefined();
	// The reader gunzips what the header says is gzipped; accept either.
	let data = Buffer.from( tile!.data );
	if ( data[ 0 ] === 0x1f && data[ 1 ] === 0x8b ) {
		data = zlib.gunzipSync( data );
	}
	const vt = new VectorTile( new Pbf( data ) );
	const found = vt.layers[ layer ];
	return Array.from( { length: found?.length ?? 0 }, ( _, i ) => {
		const f = found!.feature( i );
		return { type: f.type, properties: f.properties };
	} );
}

describe( 'the demo world archive', () => {
	it( 'declares every source layer of the Protomaps style, and its attribution', async () => {
		const metadata = ( await archive.getMetadata() ) as {
			attribution: string;
			vector_layers: { id: string }[];
		};
		const declared = new Set( metadata.vector_layers.map( ( l ) => l.id ) );
		const used = new Set(
			layers( 'protomaps', namedFlavor( 'light' ), { lang: 'en' } )
				.map(
					( l ) =>
						( l as { 'source-layer'?: string } )[ 'source-layer' ]
				)
				.filter( ( id ): id is string => !! id )
		);
		expect( [ ...used ].filter( ( id ) => ! declared.has( id ) ) ).toEqual(
			[]
		);
		expect( metadata.attribution ).toBe( 'Natural Earth' );
		const header = await archive.getHeader();
		expect( header ).toMatchObject( {
			minZoom: 0,
			maxZoom: 6,
			tileType: 1,
		} );
	} );

	it( 'holds land, sea, country borders and country labels in the schema the style reads', async () => {
		// z4 tile 8/5: central Europe.
		const earth = await features( 4, 8, 5, 'earth' );
		const water = await features( 4, 8, 5, 'water' );
		const borders = await features( 4, 8, 5, 'boundaries' );
		const places = await features( 4, 8, 5, 'places' );

		expect( earth.length ).toBeGreaterThan( 0 );
		// Polygons (type 3), as the style's `["==", "$type", "Polygon"]` filters want.
		expect(
			earth.every(
				( f ) => f.type === 3 && f.properties.kind === 'earth'
			)
		).toBe( true );
		expect(
			water.some( ( f ) => f.type === 3 && f.properties.kind === 'ocean' )
		).toBe( true );
		// boundaries_country: kind_detail <= 2.
		expect( borders.length ).toBeGreaterThan( 0 );
		expect(
			borders.every(
				( f ) =>
					f.type === 2 &&
					f.properties.kind === 'country' &&
					Number( f.properties.kind_detail ) <= 2
			)
		).toBe( true );
		// places_country: kind country, name:en (text-field), population_rank (text-size), min_zoom (sort key).
		const germany = places.find( ( f ) => f.properties.name === 'Germany' );
		expect( germany?.properties ).toMatchObject( {
			kind: 'country',
			'name:en': 'Germany',
		} );
		expect( Number( germany!.properties.population_rank ) ).toBeGreaterThan(
			0
		);
		expect( Number( germany!.properties.min_zoom ) ).toBeLessThanOrEqual(
			4
		);
	} );

	it( 'shows only the largest countries at zoom 0, and more as it zooms in', async () => {
		const z0 = ( await features( 0, 0, 0, 'places' ) ).map(
			( f ) => f.properties.name
		);
		const z4 = ( await features( 4, 8, 5, 'places' ) ).map(
			( f ) => f.properties.name
		);
		expect( z0 ).toEqual(
			expect.arrayContaining( [ 'Russia', 'Canada', 'Brazil' ] )
		);
		expect( z0 ).not.toContain( 'Luxembourg' );
		expect( z4 ).toEqual(
			expect.arrayContaining( [ 'Luxembourg', 'Switzerland' ] )
		);
	} );
} );
