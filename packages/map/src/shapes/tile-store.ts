/**
 * The shape tiles a map has loaded, and which copy of each shape it draws.
 *
 * A shape tile holds whole shapes (never cut at its edge), each simplified for the tile's zoom,
 * with the whole shape's facts (title, groups, bbox, length…): a shape comes in every tile it
 * meets, the same copy in each tile of one zoom. So the map keeps one copy per shape: the one of
 * the view's zoom when a tile of that zoom holds it, else the most detailed one loaded (more
 * detail than needed is only more positions; less would look coarse until the view's tiles come).
 *
 * At most `maxTiles` tiles are held, the least recently used going first (touch() marks those of
 * the view). Every shape ever seen stays known (its facts, for the list and the popup) after its
 * tiles go.
 * @since 0.7.0
 */
import type { ShapeFeature } from './feed';

/** `[z, x, y]`. */
export type ShapeTile = readonly [ number, number, number ];

/** Tiles held by default: a few views' worth at any zoom. */
export const MAX_TILES = 128;

interface HeldTile {
	zoom: number;
	shapes: readonly ShapeFeature[];
}

export class ShapeTileStore {
	/** By key, least recently used first (a Map keeps insertion order). */
	private readonly tiles = new Map< string, HeldTile >();
	private readonly known = new Map< number, ShapeFeature >();

	constructor( private readonly maxTiles = MAX_TILES ) {}

	/**
	 * A tile's key.
	 * @param tile
	 */
	static key( tile: ShapeTile ): string {
		return tile.join( '/' );
	}

	/**
	 * Whether a tile is held.
	 * @param tile
	 */
	has( tile: ShapeTile ): boolean {
		return this.tiles.has( ShapeTileStore.key( tile ) );
	}

	/**
	 * Holds a tile's shapes (the least recently used tiles go beyond `maxTiles`).
	 * @param tile
	 * @param shapes
	 */
	add( tile: ShapeTile, shapes: readonly ShapeFeature[] ): void {
		const key = ShapeTileStore.key( tile );
		this.tiles.delete( key );
		this.tiles.set( key, { zoom: tile[ 0 ], shapes } );
		for ( const shape of shapes ) {
			this.known.set( shape.id, shape );
		}
		for ( const old of this.tiles.keys() ) {
			if ( this.tiles.size <= this.maxTiles ) {
				break;
			}
			this.tiles.delete( old );
		}
	}

	/**
	 * Marks tiles as just used (those of the view), so they go last.
	 * @param tiles
	 */
	touch( tiles: readonly ShapeTile[] ): void {
		for ( const tile of tiles ) {
			const key = ShapeTileStore.key( tile );
			const held = this.tiles.get( key );
			if ( held ) {
				this.tiles.delete( key );
				this.tiles.set( key, held );
			}
		}
	}

	/**
	 * A shape seen in any tile so far (its facts are the whole shape's), or undefined.
	 * @param id
	 */
	shape( id: number ): ShapeFeature | undefined {
		return this.known.get( id );
	}

	/** Every shape seen so far, by id. */
	all(): ReadonlyMap< number, ShapeFeature > {
		return this.known;
	}

	/**
	 * The copy of each held shape to draw at a zoom, in id order: one from a tile of that zoom
	 * when there is one, else the most detailed held.
	 * @param zoom The view's tile zoom.
	 */
	drawn( zoom: number ): ShapeFeature[] {
		const best = new Map< number, { zoom: number; shape: ShapeFeature } >();
		for ( const tile of this.tiles.values() ) {
			for ( const shape of tile.shapes ) {
				const held = best.get( shape.id );
				if ( ! held || isBetter( tile.zoom, held.zoom, zoom ) ) {
					best.set( shape.id, { zoom: tile.zoom, shape } );
				}
			}
		}
		return [ ...best.keys() ]
			.sort( ( a, b ) => a - b )
			.map( ( id ) => best.get( id )!.shape );
	}
}

/**
 * Whether a copy of zoom `candidate` should be drawn at `wanted` rather than one of `held`.
 * @param candidate
 * @param held
 * @param wanted
 */
export function isBetter(
	candidate: number,
	held: number,
	wanted: number
): boolean {
	if ( held === wanted ) {
		return false;
	}
	return candidate === wanted || candidate > held;
}
