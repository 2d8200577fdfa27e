/**
 * The shape tiles a map holds (shapes/tile-store.ts): one copy per shape however many tiles hold
 * it, the copy of the view's zoom when there is one, else the most detailed held; a bounded
 * number of tiles, the least recently used going first; every shape seen stays known.
 */
import type { ShapeFeature } from '../../../packages/map/src/shapes/feed';
import {
	isBetter,
	ShapeTileStore,
} from '../../../packages/map/src/shapes/tile-store';

/**
 * A route whose copy at `zoom` has `zoom + 2` positions (more detail the higher the zoom).
 * @param id
 * @param zoom
 */
function copy( id: number, zoom: number ): ShapeFeature {
	return {
		id,
		title: `Route ${ id }`,
		groups: [],
		bbox: [ 7, 46, 7.2, 46.1 ],
		length: 12400,
		geometry: {
			type: 'LineString',
			coordinates: Array.from( { length: zoom + 2 }, ( _, i ) => [
				7 + ( 0.2 * i ) / ( zoom + 1 ),
				46,
			] ),
		},
	};
}

/** The zoom of each drawn copy (positions − 2), by id. */
function drawnZooms( store: ShapeTileStore, zoom: number ) {
	return Object.fromEntries(
		store
			.drawn( zoom )
			.map( ( shape ) => [
				shape.id,
				( shape.geometry.coordinates as number[][] ).length - 2,
			] )
	);
}

describe( 'ShapeTileStore', () => {
	it( 'draws one copy of a shape however many tiles of a zoom hold it', () => {
		const store = new ShapeTileStore();
		store.add( [ 5, 16, 11 ], [ copy( 1, 5 ), copy( 2, 5 ) ] );
		store.add( [ 5, 17, 11 ], [ copy( 2, 5 ), copy( 3, 5 ) ] );
		expect( store.drawn( 5 ).map( ( shape ) => shape.id ) ).toEqual( [
			1, 2, 3,
		] );
	} );

	it( 'draws the copy of the view’s zoom, else the most detailed held', () => {
		const store = new ShapeTileStore();
		store.add( [ 0, 0, 0 ], [ copy( 1, 0 ), copy( 2, 0 ), copy( 3, 0 ) ] );
		store.add( [ 5, 16, 11 ], [ copy( 1, 5 ), copy( 2, 5 ) ] );
		store.add( [ 9, 266, 180 ], [ copy( 1, 9 ) ] );
		expect( drawnZooms( store, 0 ) ).toEqual( { 1: 0, 2: 0, 3: 0 } );
		expect( drawnZooms( store, 5 ) ).toEqual( { 1: 5, 2: 5, 3: 0 } );
		// Zoomed in before zoom 7's tiles came: the finest held, never a coarser one.
		expect( drawnZooms( store, 7 ) ).toEqual( { 1: 9, 2: 5, 3: 0 } );
		expect( drawnZooms( store, 12 ) ).toEqual( { 1: 9, 2: 5, 3: 0 } );
		expect( drawnZooms( store, 9 ) ).toEqual( { 1: 9, 2: 5, 3: 0 } );
	} );

	it.each( [
		// candidate, held, wanted, better
		[ 5, 0, 5, true ],
		[ 0, 5, 5, false ],
		[ 9, 5, 7, true ],
		[ 5, 9, 7, false ],
		[ 3, 9, 3, true ],
		[ 12, 3, 3, false ],
	] )(
		'a copy of zoom %i beside one of %i at zoom %i: better %s',
		( candidate, held, wanted, better ) => {
			expect( isBetter( candidate, held, wanted ) ).toBe( better );
		}
	);

	it( 'holds a bounded number of tiles, the least recently used going first', () => {
		const store = new ShapeTileStore( 2 );
		store.add( [ 0, 0, 0 ], [ copy( 1, 0 ) ] );
		store.add( [ 5, 16, 11 ], [ copy( 2, 5 ) ] );
		store.touch( [ [ 0, 0, 0 ] ] );
		store.add( [ 5, 17, 11 ], [ copy( 3, 5 ) ] );
		expect( store.has( [ 0, 0, 0 ] ) ).toBe( true );
		expect( store.has( [ 5, 16, 11 ] ) ).toBe( false );
		expect( store.drawn( 5 ).map( ( shape ) => shape.id ) ).toEqual( [
			1, 3,
		] );
		// Its tile gone, the shape is still known for the list and the popup.
		expect( store.shape( 2 )?.length ).toBe( 12400 );
		expect( [ ...store.all().keys() ] ).toEqual( [ 1, 2, 3 ] );
	} );

	it( 'a tile asked again replaces its shapes', () => {
		const store = new ShapeTileStore();
		store.add( [ 5, 16, 11 ], [ copy( 1, 5 ), copy( 2, 5 ) ] );
		store.add( [ 5, 16, 11 ], [ copy( 2, 5 ) ] );
		expect( store.drawn( 5 ).map( ( shape ) => shape.id ) ).toEqual( [
			2,
		] );
	} );
} );
