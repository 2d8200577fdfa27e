/**
 * The addresses and the tile arithmetic of a tiled map (a map whose server clusters its places:
 * `config.tilesUrl`): which tiles cover a view, and the URL of each tile, summary and list page.
 *
 * Small and free of mapbox-gl on purpose: the front-end loader (prefetch-tiles.ts) uses it to start
 * the first view's tiles together with mapbox-gl, the tiled client (tiled-client.ts) for every
 * later view; both build the same URL for the same tile, so the prefetched answers are found.
 */
import { LIMITS } from '../limits';
import { clipSearch } from './words';

// Apart: the configuration's parser (in the runtime's first chunk) needs only this.
export { isTileTemplate } from './tile-template';

export type BBox = [ number, number, number, number ];
export type TileAddress = [ number, number, number ];

/** The highest tile zoom the server answers. */
export const MAX_TILE_ZOOM = 17;
/**
 * At most this many tiles for one view (the nearest to its centre): a very large screen at an
 * unlucky zoom would otherwise ask for a hundred.
 */
export const MAX_VIEW_TILES = 64;
/** Web Mercator's latitude limit (tiles are square). */
const MAX_LAT = 85.05112878;

/** What the visitor filters by: the groups switched off, the search text, a circle. */
export interface TileFilter {
	hidden: readonly string[];
	search: string;
	/** Only the places within `radius` metres of a position. @since 0.8.0 */
	near?: { lng: number; lat: number; radius: number } | null;
}

/** Degrees with a fixed precision (≈ 1 cm): the same position is the same URL. */
export function coordinate( value: number ): string {
	return String( Math.round( value * 1e7 ) / 1e7 );
}

/**
 * `url` with `params` appended as query arguments (empty values left out), keeping the order.
 * @param url
 * @param params
 */
export function withQuery(
	url: string,
	params: Array< [ string, string ] >
): string {
	const query = params
		.filter( ( [ , value ] ) => value !== '' )
		.map(
			( [ name, value ] ) =>
				`${ encodeURIComponent( name ) }=${ encodeURIComponent( value ) }`
		)
		.join( '&' );
	if ( query === '' ) {
		return url;
	}
	const [ base = '', fragment ] = url.split( '#', 2 );
	const joined = base + ( base.includes( '?' ) ? '&' : '?' ) + query;
	return fragment === undefined ? joined : `${ joined }#${ fragment }`;
}

/**
 * The filter's query arguments, in a fixed form (hidden groups sorted), so one filter is one URL.
 * A circle is `near` with `radius` (metres) on the places routes, `near` with `near_radius` on
 * the tiles (whose `radius` is the cluster radius).
 * @param filter
 * @param route  Which route the arguments are for.
 */
export function filterParams(
	filter: TileFilter | null | undefined,
	route: 'tiles' | 'places' = 'tiles'
): Array< [ string, string ] > {
	if ( ! filter ) {
		return [];
	}
	const params: Array< [ string, string ] > = [
		[ 'hidden', [ ...new Set( filter.hidden ) ].sort().join( ',' ) ],
		[ 'q', clipSearch( filter.search.trim() ) ],
	];
	if ( filter.near ) {
		params.push(
			[
				'near',
				`${ coordinate( filter.near.lng ) },${ coordinate(
					filter.near.lat
				) }`,
			],
			[
				route === 'tiles' ? 'near_radius' : 'radius',
				String( Math.round( filter.near.radius ) ),
			]
		);
	}
	return params;
}

/**
 * One tile's address: the template's `{z}`, `{x}`, `{y}` (literal or percent-encoded) filled in,
 * and the filter appended.
 * @param template `config.tilesUrl`.
 * @param tile     `[z, x, y]`.
 * @param filter
 */
export function tileUrl(
	template: string,
	tile: TileAddress,
	filter?: TileFilter | null
): string {
	const [ z, x, y ] = tile;
	const values: Record< string, number > = { z, x, y };
	const url = template.replace(
		/\{([zxy])\}|%7B([zxy])%7D/gi,
		( _match, plain?: string, encoded?: string ) =>
			String( values[ ( plain ?? encoded ?? '' ).toLowerCase() ] )
	);
	return withQuery( url, filterParams( filter ) );
}

/**
 * The server's cluster max zoom, as the template's `maxzoom` says (else the default).
 * @param template
 */
export function clusterMaxZoomOf( template: string ): number {
	const found = /[?&]maxzoom=(\d{1,2})(?:&|#|$)/.exec( template );
	const value = found ? Number( found[ 1 ] ) : NaN;
	return Number.isInteger( value ) && value >= 0 && value <= 16
		? value
		: LIMITS.cluster.maxZoom;
}

/**
 * The tile zoom for a map zoom: the clusters of zoom ⌊zoom⌋ (as the whole-feed engine draws them),
 * and above the cluster max zoom the tiles of one level past it, which hold every point.
 * @param zoom           The map's zoom.
 * @param clusterMaxZoom
 */
export function tileZoom( zoom: number, clusterMaxZoom: number ): number {
	const top = Math.min( clusterMaxZoom + 1, MAX_TILE_ZOOM );
	return Math.min( top, Math.max( 0, Math.floor( zoom ) ) );
}

function clampLat( lat: number ): number {
	return Math.max( -MAX_LAT, Math.min( MAX_LAT, lat ) );
}

/** The tile column of a longitude at zoom z (180 falls in the last column). */
function tileX( lng: number, z: number ): number {
	const n = 2 ** z;
	return Math.min(
		n - 1,
		Math.max( 0, Math.floor( ( ( lng + 180 ) / 360 ) * n ) )
	);
}

/** The tile row of a latitude at zoom z (north is row 0). */
function tileY( lat: number, z: number ): number {
	const n = 2 ** z;
	const rad = ( clampLat( lat ) * Math.PI ) / 180;
	const y =
		( ( 1 - Math.log( Math.tan( rad ) + 1 / Math.cos( rad ) ) / Math.PI ) /
			2 ) *
		n;
	return Math.min( n - 1, Math.max( 0, Math.floor( y ) ) );
}

/**
 * The tiles of zoom z covering `bbox`; a box whose west is east of its east crosses the
 * antimeridian and takes the tiles on both sides. The nearest `MAX_VIEW_TILES` to the box's
 * centre, nearest first.
 * @param bbox `[west, south, east, north]` in degrees.
 * @param z
 */
export function tilesCovering( bbox: BBox, z: number ): TileAddress[] {
	const [ west, south, east, north ] = bbox;
	if ( ! [ west, south, east, north ].every( Number.isFinite ) ) {
		return [];
	}
	const n = 2 ** z;
	const columns: number[] = [];
	const spans: Array< [ number, number ] > =
		west <= east
			? [ [ west, east ] ]
			: [
					[ west, 180 ],
					[ -180, east ],
				];
	for ( const [ from, to ] of spans ) {
		for ( let x = tileX( from, z ); x <= tileX( to, z ); x++ ) {
			if ( ! columns.includes( x ) ) {
				columns.push( x );
			}
		}
		if ( columns.length >= n ) {
			break;
		}
	}
	const top = tileY( Math.max( south, north ), z );
	const bottom = tileY( Math.min( south, north ), z );
	const tiles: TileAddress[] = [];
	for ( const x of columns ) {
		for ( let y = top; y <= bottom; y++ ) {
			tiles.push( [ z, x, y ] );
		}
	}
	if ( tiles.length <= MAX_VIEW_TILES ) {
		return tiles;
	}
	// The middle column in the list order (which runs west to east across the antimeridian).
	const middleX = columns[ Math.floor( columns.length / 2 ) ] ?? 0;
	const middleY = ( top + bottom ) / 2;
	const slot = ( x: number ) => columns.indexOf( x );
	return tiles
		.map( ( tile ) => ( {
			tile,
			d:
				( slot( tile[ 1 ] ) - slot( middleX ) ) ** 2 +
				( tile[ 2 ] - middleY ) ** 2,
		} ) )
		.sort( ( a, b ) => a.d - b.d )
		.slice( 0, MAX_VIEW_TILES )
		.map( ( { tile } ) => tile );
}

function wrapLng( lng: number ): number {
	return ( ( ( ( lng + 180 ) % 360 ) + 360 ) % 360 ) - 180;
}

/**
 * The view a map of `width`×`height` CSS pixels shows at `center`/`zoom` (512-pixel tiles, no
 * bearing or pitch), grown by `pad` of its size on each side as the places controller grows it:
 * the first view, known before mapbox-gl has loaded.
 * @param center
 * @param center.lng
 * @param center.lat
 * @param zoom
 * @param width
 * @param height
 * @param pad
 */
export function viewBounds(
	center: { lng: number; lat: number },
	zoom: number,
	width: number,
	height: number,
	pad = 0
): BBox {
	const world = LIMITS.tileSize * 2 ** zoom;
	const rad = ( clampLat( center.lat ) * Math.PI ) / 180;
	const cy =
		( ( 1 - Math.log( Math.tan( Math.PI / 4 + rad / 2 ) ) / Math.PI ) /
			2 ) *
		world;
	const latAt = ( y: number ) => {
		const clamped = Math.max( 0, Math.min( world, y ) );
		return (
			( Math.atan(
				Math.sinh( Math.PI * ( 1 - ( 2 * clamped ) / world ) )
			) *
				180 ) /
			Math.PI
		);
	};
	const halfLng = ( ( width / 2 ) * 360 ) / world;
	let west = center.lng - halfLng;
	let east = center.lng + halfLng;
	let north = latAt( cy - height / 2 );
	let south = latAt( cy + height / 2 );
	const spanLng = east - west;
	const spanLat = north - south;
	west -= spanLng * pad;
	east += spanLng * pad;
	south = Math.max( -90, south - spanLat * pad );
	north = Math.min( 90, north + spanLat * pad );
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
