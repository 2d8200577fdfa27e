/**
 * A map's shapes from the shape tiles (`config.shapeTilesUrl`), for selections too heavy for the
 * whole shapes feed: the tiles covering the view at the view's zoom (at most the full zoom, from
 * which tiles hold the feed's own copies), fetched in parallel, and on every move the ones still
 * missing; the world's tile (0/0/0) with them, so every shape's facts are known from the start
 * (the list's route lines, a route's box for "fit the route", the filters) at the cost of its
 * coarsest copy. Held in a bounded store (tile-store.ts) that picks each shape's copy to draw.
 * @since 0.7.0
 */
import type { Map as MapboxMap } from 'mapbox-gl';

import { LIMITS } from '../limits';
import {
	tilesCovering,
	tileUrl,
	tileZoom,
	type BBox,
} from '../places/tile-urls';
import { fetchShapes, type ShapeFeature } from './feed';
import { ShapeTileStore, type ShapeTile } from './tile-store';

/** The world's tile: every shape, with its facts. */
const WORLD: ShapeTile = [ 0, 0, 0 ];

export interface TiledShapes {
	/** Every shape seen (facts of the whole shape) and the copies held. */
	store: ShapeTileStore;
	/** The copies to draw at the view's zoom. */
	drawn: () => ShapeFeature[];
	/** Calls `listener` whenever what is drawn may have changed (tiles came in, the zoom changed). */
	onChange: ( listener: () => void ) => void;
	/** Stops following the map. */
	stop: () => void;
}

/**
 * The tile zoom for a map zoom: the map's whole zoom, at most the full zoom (its tiles, and those
 * of every zoom above, hold the same copies).
 * @param zoom The map's zoom.
 */
export function shapeTileZoom( zoom: number ): number {
	return tileZoom( zoom, LIMITS.shapeTiles.fullZoom - 1 );
}

function wrapLng( lng: number ): number {
	return ( ( ( ( lng + 180 ) % 360 ) + 360 ) % 360 ) - 180;
}

/**
 * The view as `[west, south, east, north]` within ±180 (west east of east across the
 * antimeridian), the whole width when the map shows the world more than once.
 * @param map
 */
export function viewBox( map: MapboxMap ): BBox {
	const bounds = map.getBounds();
	if ( ! bounds ) {
		return [ -180, -90, 180, 90 ];
	}
	const [ west, east ] = [ bounds.getWest(), bounds.getEast() ];
	const [ south, north ] = [ bounds.getSouth(), bounds.getNorth() ];
	if ( east - west >= 360 ) {
		return [ -180, south, 180, north ];
	}
	const wrappedEast = wrapLng( east );
	return [
		wrapLng( west ),
		south,
		wrappedEast === -180 ? 180 : wrappedEast,
		north,
	];
}

/**
 * Starts following a map's view with the shape tiles. Resolves once the first view's tiles are in
 * (or failed: those are asked again on the next move); rejects when the world's tile cannot be
 * read (the shapes then cannot be shown at all).
 * @param map
 * @param template `config.shapeTilesUrl`.
 */
export async function startTiledShapes(
	map: MapboxMap,
	template: string
): Promise< TiledShapes > {
	const store = new ShapeTileStore();
	const asking = new Set< string >();
	const listeners: Array< () => void > = [];
	let stopped = false;
	let zoom = shapeTileZoom( map.getZoom() );

	const fetchTile = async ( tile: ShapeTile ): Promise< boolean > => {
		const key = ShapeTileStore.key( tile );
		asking.add( key );
		try {
			const shapes = await fetchShapes(
				tileUrl( template, [ ...tile ] )
			);
			if ( ! stopped ) {
				store.add( tile, shapes );
			}
			return true;
		} catch {
			return false; // Asked again on the next move.
		} finally {
			asking.delete( key );
		}
	};

	const follow = async (): Promise< void > => {
		const now = shapeTileZoom( map.getZoom() );
		const view = tilesCovering( viewBox( map ), now );
		const wanted = now === 0 ? view : [ WORLD, ...view ];
		store.touch( wanted );
		const missing = wanted.filter(
			( tile ) =>
				! store.has( tile ) &&
				! asking.has( ShapeTileStore.key( tile ) )
		);
		const fetched = await Promise.all( missing.map( fetchTile ) );
		const changed = fetched.some( Boolean ) || now !== zoom;
		zoom = now;
		if ( changed && ! stopped ) {
			listeners.forEach( ( listener ) => listener() );
		}
	};

	await follow();
	if ( ! store.has( WORLD ) ) {
		throw new Error( 'The shape tiles could not be read.' );
	}
	const onMove = () => void follow();
	map.on( 'moveend', onMove );
	return {
		store,
		drawn: () => store.drawn( zoom ),
		onChange: ( listener ) => listeners.push( listener ),
		stop: () => {
			stopped = true;
			map.off( 'moveend', onMove );
		},
	};
}
