/**
 * A map's shapes from the shape tiles (shapes/tiled-shapes.ts, and load-shapes.ts with
 * `shapeTilesUrl`) on a stand-in map: the world's tile and those of the view at its zoom, never
 * the whole feed; on a move only the tiles still missing; the drawn copy of a route follows the
 * zoom; the list, the box, the popup and the filters know every shape of the world's tile; a
 * tile that fails is asked again, a world's tile that fails is the polite notice.
 */
import type { Map as MapboxMap } from 'mapbox-gl';

import { tilesCovering } from '../../../packages/map/src/places/tile-urls';
import {
	startShapes,
	type ShapesOptions,
} from '../../../packages/map/src/shapes/load-shapes';
import {
	shapeTileZoom,
	startTiledShapes,
	viewBox,
} from '../../../packages/map/src/shapes/tiled-shapes';
import { StandInMap } from './stand-in-map';

const FEED = 'https://example.test/wp-json/cairn/v1/shapes?group=trails';
const TILES =
	'https://example.test/wp-json/cairn/v1/shapes/tiles/{z}/{x}/{y}?group=trails&v=abc';
const TILE = /\/shapes\/tiles\/(\d+)\/(\d+)\/(\d+)\?group=trails&v=abc$/;

/**
 * A route's feature whose copy at zoom z has z + 2 positions; the whole route's facts in each.
 * @param id
 * @param z
 * @param title
 */
function route( id: number, z: number, title = `Route ${ id }` ) {
	return {
		type: 'Feature',
		id,
		geometry: {
			type: 'LineString',
			coordinates: Array.from( { length: z + 2 }, ( _, i ) => [
				7 + ( 0.2 * i ) / ( z + 1 ),
				46 + 0.01 * ( i % 2 ),
			] ),
		},
		properties: {
			title,
			groups: [ 'trails' ],
			bbox: [ 7, 46, 7.2, 46.01 ],
			length_m: 12400,
			ascent_m: 650,
			descent_m: 600,
		},
	};
}

let asked: string[] = [];
let failing: RegExp | null = null;

beforeEach( () => {
	asked = [];
	failing = null;
	Object.assign( window, {
		fetch: jest.fn( async ( url: string ) => {
			asked.push( url );
			const tile = TILE.exec( url );
			if ( ! tile || failing?.test( url ) ) {
				return { ok: false, status: 500, json: async () => ( {} ) };
			}
			const z = Number( tile[ 1 ] );
			// Route 1 is everywhere; route 2, "Lake loop", only in the world's tile here.
			const features = [ route( 1, z ) ];
			if ( z === 0 ) {
				features.push( route( 2, 0, 'Lake loop' ) );
			}
			return {
				ok: true,
				status: 200,
				json: async () => ( { type: 'FeatureCollection', features } ),
			};
		} ),
	} );
} );

afterEach( () => {
	delete ( window as { fetch?: unknown } ).fetch;
} );

/** The tiles asked for, as `z/x/y`, in order. */
function askedTiles(): string[] {
	return asked.map( ( url ) => {
		const tile = TILE.exec( url );
		return tile ? tile.slice( 1 ).join( '/' ) : url;
	} );
}

/** The tiles covering the stand-in's view at its zoom, as `z/x/y`. */
function viewTiles( map: StandInMap ): string[] {
	return tilesCovering( map.view, shapeTileZoom( map.zoom ) ).map( ( tile ) =>
		tile.join( '/' )
	);
}

/** Settles pending fetches and their handlers. */
async function settle(): Promise< void > {
	for ( let i = 0; i < 10; i++ ) {
		await Promise.resolve();
	}
}

function start( map: StandInMap, overrides: Partial< ShapesOptions > = {} ) {
	return startShapes( map as unknown as MapboxMap, {
		config: {
			shapesUrl: FEED,
			shapeTilesUrl: TILES,
			groupStyles: [],
			units: 'metric',
		},
		lang: 'en',
		styled: Promise.resolve(),
		removed: () => false,
		onClick: jest.fn(),
		...overrides,
	} );
}

/** The positions of route 1 as the map's source draws it now. */
function drawnPositions( map: StandInMap ): number {
	const source = map.sources[ 'cairn-shapes' ] as {
		data: GeoJSON.FeatureCollection;
	};
	const feature = source.data.features.find( ( f ) => f.id === 1 );
	return ( feature?.geometry as GeoJSON.LineString ).coordinates.length;
}

describe( 'shape tiles', () => {
	it( 'the tile zoom is the map’s whole zoom, at most the full zoom', () => {
		expect(
			[ 0, 4.9, 5, 11.99, 12, 16.5, 22 ].map( shapeTileZoom )
		).toEqual( [ 0, 4, 5, 11, 12, 12, 12 ] );
	} );

	it.each( [
		[ 'a plain view', [ 5, 45, 9, 47 ], [ 5, 45, 9, 47 ] ],
		[
			'across the antimeridian',
			[ 170, -10, 190, 10 ],
			[ 170, -10, -170, 10 ],
		],
		[
			'the world more than once',
			[ -400, -80, 400, 80 ],
			[ -180, -80, 180, 80 ],
		],
	] )( 'the view’s box: %s', ( _name, view, box ) => {
		const map = new StandInMap();
		map.view = view as [ number, number, number, number ];
		expect( viewBox( map as unknown as MapboxMap ) ).toEqual( box );
	} );

	it( 'asks the world’s tile and the view’s at its zoom, never the whole feed', async () => {
		const map = new StandInMap( [ 'cairn-clusters' ] );
		const handle = await start( map );
		expect( handle ).not.toBeNull();
		expect( askedTiles() ).toEqual( [ '0/0/0', ...viewTiles( map ) ] );
		expect( asked ).not.toContain( FEED );
		expect( drawnPositions( map ) ).toBe( 5 + 2 );
	} );

	it( 'on a move asks only the tiles still missing, and draws the finer copy once in', async () => {
		const map = new StandInMap( [ 'cairn-clusters' ] );
		const changed = jest.fn();
		const handle = ( await start( map ) )!;
		handle.onChange?.( changed );
		const first = askedTiles().length;
		map.zoom = 9.4;
		map.view = [ 7, 46, 7.3, 46.2 ];
		map.fire( 'moveend' );
		await settle();
		expect( askedTiles().slice( first ) ).toEqual( viewTiles( map ) );
		expect(
			viewTiles( map ).every( ( tile ) => tile.startsWith( '9/' ) )
		).toBe( true );
		expect( drawnPositions( map ) ).toBe( 9 + 2 );
		expect( changed ).toHaveBeenCalledTimes( 1 );

		// Back out: the tiles of zoom 5 are held, nothing is asked, zoom 5's copy is drawn.
		const before = asked.length;
		map.zoom = 5;
		map.view = [ 5, 45, 9, 47 ];
		map.fire( 'moveend' );
		await settle();
		expect( asked.length ).toBe( before );
		expect( drawnPositions( map ) ).toBe( 5 + 2 );
	} );

	it( 'knows every shape of the world’s tile: list lines, boxes, filters, popups', async () => {
		const map = new StandInMap( [ 'cairn-clusters' ] );
		const handle = ( await start( map ) )!;
		expect( handle.summary( 2 ) ).toBe( '12.4 km, 650 m ascent' );
		expect( handle.bbox( 2 ) ).toEqual( [ 7, 46, 7.2, 46.01 ] );
		handle.filter( [], 'lake' );
		const filter = map.filters[ 'cairn-shapes-line' ] as [
			string,
			unknown,
			[ string, number[] ],
		];
		expect( filter[ 2 ][ 1 ] ).toEqual( [ 2 ] );
		// The tiles leave the profile out: the popup's answer brings it.
		const details = handle.details( document, 1, [
			[ 0, 1200 ],
			[ 12400, 1250 ],
		] );
		expect( details?.querySelector( 'figure' ) ).not.toBeNull();
		expect(
			handle
				.details( document, 1, 'not a profile' )
				?.querySelector( 'figure' )
		).toBeNull();
	} );

	it( 'asks a tile that failed again on the next move', async () => {
		failing = /\/tiles\/5\//;
		const map = new StandInMap( [ 'cairn-clusters' ] );
		await start( map );
		const once = askedTiles().filter( ( tile ) => tile.startsWith( '5/' ) );
		expect( once.length ).toBeGreaterThan( 0 );
		failing = null;
		map.fire( 'moveend' );
		await settle();
		expect(
			askedTiles().filter( ( tile ) => tile.startsWith( '5/' ) )
		).toEqual( [ ...once, ...once ] );
		expect( drawnPositions( map ) ).toBe( 5 + 2 );
	} );

	it( 'a world’s tile that cannot be read leaves the points and says so', async () => {
		failing = /\/tiles\/0\/0\/0/;
		const map = new StandInMap( [ 'cairn-clusters' ] );
		const handle = ( await start( map ) )!;
		expect(
			map.container.querySelector( '[role="status"]' )?.textContent
		).toBe(
			'The routes and areas of this map could not be loaded. Its places are shown.'
		);
		expect( map.sources ).toEqual( {} );
		expect( handle.summary( 1 ) ).toBeUndefined();
	} );

	it( 'stops following a map whose shapes are removed', async () => {
		const map = new StandInMap( [ 'cairn-clusters' ] );
		const handle = ( await start( map ) )!;
		handle.remove();
		const before = asked.length;
		map.zoom = 9;
		map.fire( 'moveend' );
		await settle();
		expect( asked.length ).toBe( before );
	} );

	it( 'a map removed while its first tiles came draws nothing and follows nothing', async () => {
		const map = new StandInMap( [ 'cairn-clusters' ] );
		await expect(
			start( map, { removed: () => true } )
		).resolves.toBeNull();
		expect( map.sources ).toEqual( {} );
		expect( map.handlers.moveend ?? [] ).toEqual( [] );
	} );

	it( 'startTiledShapes fills the template for each tile', async () => {
		const map = new StandInMap();
		map.zoom = 0;
		const tiled = await startTiledShapes(
			map as unknown as MapboxMap,
			TILES
		);
		expect( asked ).toEqual( [
			'https://example.test/wp-json/cairn/v1/shapes/tiles/0/0/0?group=trails&v=abc',
		] );
		expect( tiled.drawn().map( ( shape ) => shape.id ) ).toEqual( [
			1, 2,
		] );
		tiled.stop();
	} );
} );
