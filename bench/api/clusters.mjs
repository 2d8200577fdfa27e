/**
 * Issue 33: the tiles' clusters against supercluster's on the bench's own places (100k, 1M), as
 * tests/php/Index/Cluster_VectorsTest does at 10,000 on vectors. Supercluster is given every
 * place of the index in post-id order (its positions as stored) with the tiles' radius, extent
 * and max zoom; per zoom both are read over the same ground: the whole world at z0–WORLD_MAX,
 * and a window of WINDOW × WINDOW tiles around the fullest cluster at the deeper zooms.
 *
 * Per zoom: marks (clusters and points) of each and their ratio (target within 20 %; null when
 * supercluster draws none there), the least
 * distance between two marks in pixels of that zoom (target ≥ radius / 2; a pair across a tile
 * edge counts), and `expansion_zoom`: each tile cluster matched to supercluster's cluster of the
 * same count nearest to it (within radius / 4 pixels); of the matched, how many give the same
 * expansion zoom. Where the tiles count grid cells instead of places (more than
 * Tile_Builder::EXACT_PLACES in a tile's zone), positions and splits are close, not equal: the
 * numbers say how close.
 *
 * Used by bench/api/tiles.mjs (out.clusters); pure apart from the `tile` reader it is given.
 */
import Supercluster from 'supercluster';

import { pixel, spacing } from '../../bin/cluster-vectors.mjs';

/** Zooms read over the whole world (1 + 4 + 16 + 64 + 256 tiles). */
export const WORLD_MAX = 4;

/** Tiles across the window of the deeper zooms. */
export const WINDOW = 4;

/** Deepest zoom compared. */
export const DEEPEST = 12;

/**
 * The tile x/y holding a position at a zoom.
 * @param {number} lng
 * @param {number} lat
 * @param {number} zoom
 * @return {number[]} [x, y].
 */
export function tileOf( lng, lat, zoom ) {
	const [ px, py ] = pixel( lng, lat, zoom );
	const last = 2 ** zoom - 1;
	return [
		Math.min( last, Math.max( 0, Math.floor( px / 512 ) ) ),
		Math.min( last, Math.max( 0, Math.floor( py / 512 ) ) ),
	];
}

/**
 * The west, south, east, north of a tile.
 * @param {number} z
 * @param {number} x
 * @param {number} y
 * @return {number[]} Degrees.
 */
export function tileBounds( z, x, y ) {
	const n = 2 ** z;
	const lat = ( row ) =>
		( Math.atan( Math.sinh( Math.PI * ( 1 - ( 2 * row ) / n ) ) ) * 180 ) /
		Math.PI;
	return [
		( x / n ) * 360 - 180,
		lat( y + 1 ),
		( ( x + 1 ) / n ) * 360 - 180,
		lat( y ),
	];
}

/**
 * The tiles to read at a zoom: all of them up to WORLD_MAX, else a window around a place.
 * @param {number}   zoom
 * @param {number[]} centre [lng, lat].
 * @return {number[][]} [x, y] pairs.
 */
export function tilesAt( zoom, centre ) {
	const n = 2 ** zoom;
	const out = [];
	if ( zoom <= WORLD_MAX ) {
		for ( let x = 0; x < n; x++ ) {
			for ( let y = 0; y < n; y++ ) {
				out.push( [ x, y ] );
			}
		}
		return out;
	}
	const [ cx, cy ] = tileOf( centre[ 0 ], centre[ 1 ], zoom );
	const first = ( c ) =>
		Math.max( 0, Math.min( n - WINDOW, c - WINDOW / 2 + 1 ) );
	for ( let x = first( cx ); x < first( cx ) + WINDOW; x++ ) {
		for ( let y = first( cy ); y < first( cy ) + WINDOW; y++ ) {
			out.push( [ x, y ] );
		}
	}
	return out;
}

/**
 * Supercluster over the places.
 * @param {Float64Array} places  [lng, lat, lng, lat, …] in post-id order.
 * @param {Object}       options radius, maxZoom.
 * @return {Supercluster} The index.
 */
export function superclusterOf( places, options ) {
	const features = new Array( places.length / 2 );
	for ( let i = 0; i < features.length; i++ ) {
		features[ i ] = {
			type: 'Feature',
			properties: {},
			geometry: {
				type: 'Point',
				coordinates: [ places[ 2 * i ], places[ 2 * i + 1 ] ],
			},
		};
	}
	return new Supercluster( {
		radius: options.radius,
		extent: 512,
		maxZoom: options.maxZoom,
	} ).load( features );
}

/**
 * One zoom compared.
 * @param {Supercluster} index   Supercluster over the places.
 * @param {number}       zoom
 * @param {number[][]}   tiles   [x, y] of the tiles read.
 * @param {Object[][]}   answers Each tile's features (GeoJSON), in the order of `tiles`.
 * @param {number}       radius
 * @return {Object} The numbers of this zoom.
 */
export function compareZoom( index, zoom, tiles, answers, radius ) {
	const ours = answers.flat();
	const theirs = [];
	for ( const [ x, y ] of tiles ) {
		for ( const mark of index.getClusters(
			tileBounds( zoom, x, y ),
			zoom
		) ) {
			const [ lng, lat ] = mark.geometry.coordinates;
			if ( tileOf( lng, lat, zoom ).join( '/' ) === `${ x }/${ y }` ) {
				theirs.push( mark );
			}
		}
	}
	const px = ( mark ) => pixel( ...mark.geometry.coordinates, zoom );
	const cap = 4 * radius;
	// Supercluster's clusters of each count, for matching.
	const byCount = new Map();
	for ( const mark of theirs ) {
		if ( mark.properties.cluster ) {
			const count = mark.properties.point_count;
			byCount.set( count, [ ...( byCount.get( count ) ?? [] ), mark ] );
		}
	}
	let clusters = 0;
	let matched = 0;
	let sameExpansion = 0;
	for ( const mark of ours ) {
		if ( ! mark.properties?.cluster ) {
			continue;
		}
		++clusters;
		const [ x, y ] = px( mark );
		let best = null;
		let bestDistance = radius / 4;
		for ( const other of byCount.get( mark.properties.point_count ) ??
			[] ) {
			const [ ox, oy ] = px( other );
			const distance = Math.hypot( ox - x, oy - y );
			if ( distance <= bestDistance ) {
				best = other;
				bestDistance = distance;
			}
		}
		if ( best ) {
			++matched;
			if (
				index.getClusterExpansionZoom( best.properties.cluster_id ) ===
				mark.properties.expansion_zoom
			) {
				++sameExpansion;
			}
		}
	}
	const placesOf = ( list ) =>
		list.reduce(
			( sum, mark ) => sum + ( mark.properties?.point_count ?? 1 ),
			0
		);
	return {
		zoom,
		tiles: tiles.length,
		marks: ours.length,
		supercluster_marks: theirs.length,
		ratio: theirs.length
			? Math.round( ( ours.length / theirs.length ) * 1000 ) / 1000
			: null,
		places: placesOf( ours ),
		supercluster_places: placesOf( theirs ),
		spacing_px: Math.round( spacing( ours.map( px ), cap ) * 10 ) / 10,
		supercluster_spacing_px:
			Math.round( spacing( theirs.map( px ), cap ) * 10 ) / 10,
		clusters,
		matched,
		same_expansion: sameExpansion,
	};
}

/**
 * Every zoom compared.
 * @param {Float64Array}                                           places  [lng, lat, …] in post-id order.
 * @param {{radius: number, maxZoom: number}}                      options The tiles' radius and max zoom.
 * @param {(z: number, x: number, y: number) => Promise<Object[]>} tile    A tile's features.
 * @return {Promise<Object>} Supercluster's load time and the zooms.
 */
export async function compareClusters( places, options, tile ) {
	const started = performance.now();
	const index = superclusterOf( places, options );
	const loadMs = Math.round( performance.now() - started );
	// The window of the deeper zooms: around the fullest cluster of the last world zoom.
	const fullest = index
		.getClusters( [ -180, -90, 180, 90 ], WORLD_MAX )
		.reduce( ( best, mark ) =>
			( mark.properties.point_count ?? 1 ) >
			( best.properties.point_count ?? 1 )
				? mark
				: best
		);
	// One of its places (a cluster's centroid may lie between towns, where deeper zooms are empty).
	const centre = index.getLeaves( fullest.properties.cluster_id, 1 )[ 0 ]
		.geometry.coordinates;
	const zooms = [];
	for ( let zoom = 0; zoom <= Math.min( DEEPEST, options.maxZoom ); zoom++ ) {
		const tiles = tilesAt( zoom, centre );
		const answers = [];
		for ( let i = 0; i < tiles.length; i += 4 ) {
			answers.push(
				...( await Promise.all(
					tiles
						.slice( i, i + 4 )
						.map( ( [ x, y ] ) => tile( zoom, x, y ) )
				) )
			);
		}
		zooms.push(
			compareZoom( index, zoom, tiles, answers, options.radius )
		);
	}
	return {
		places: places.length / 2,
		radius: options.radius,
		max_zoom: options.maxZoom,
		supercluster_load_ms: loadMs,
		window: { centre, tiles: WINDOW, from_zoom: WORLD_MAX + 1 },
		zooms,
	};
}
