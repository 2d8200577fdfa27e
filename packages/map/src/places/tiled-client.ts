/**
 * The places of a map too big to ship whole, asked of the server (a "tiled" map: `config.tilesUrl`):
 * the same `PlacesClient` the whole-feed worker is, so the controller, the layers, the popups, the
 * panel and the announcements are the same.
 *
 * - Clusters: the server's tiles (`/cairn/v1/tiles/z/x/y`), GeoJSON features shaped exactly as the
 *   engine's. A view takes the tiles of zoom ⌊zoom⌋ covering it, fetched in parallel, kept in a
 *   bounded cache (their URLs carry the data version: an answer never goes stale), merged. Each
 *   cluster or point belongs to one tile, so nothing is drawn twice.
 * - Counts, search matches and their bounds: `/places/summary`; the list: `/places` (1-based pages
 *   there, 0-based in the engine's protocol).
 * - Search matches word prefixes, as the whole-feed engine does (words.ts); a search's count
 *   stops at `search.maxCount` (`capped`: the panel says "more than").
 */
import type {
	Filter,
	FilterResult,
	ListedPlace,
	ListQuery,
	ListResult,
	LoadResult,
	MapFeature,
} from './engine';
import type { PlacesClient } from './client';
import { clipSearch } from './words';
import { LIMITS } from '../limits';
import {
	FEATURES_PAD,
	getJson,
	type PrefetchedTiles,
	type TiledView,
} from './prefetch-tiles';
import {
	clusterMaxZoomOf,
	coordinate,
	filterParams,
	tileUrl,
	tileZoom,
	tilesCovering,
	withQuery,
	type BBox,
	type TileAddress,
	type TileFilter,
} from './tile-urls';

export interface TiledUrls {
	/** `/cairn/v1/tiles/{z}/{x}/{y}?…`, the three coordinates left to fill. */
	tilesUrl: string;
	/** `/cairn/v1/places?…`. */
	placesUrl: string;
	/** `/cairn/v1/places/summary?…`. */
	summaryUrl: string;
}

export interface TiledClientOptions {
	/** The first view, asked for with the summary by the first `load()` (a failure fails it). */
	firstView?: TiledView | null;
	/** The first answers, already on their way (the front-end loader's). */
	prefetched?: PrefetchedTiles | null;
	/** Tiles kept in memory (least recently used go first). */
	cacheSize?: number;
}

/** Tiles kept by default: a few views' worth at each of a few zooms. */
export const TILE_CACHE_SIZE = 256;
/** A place is revealed at this zoom at least (the panel flies this close anyway). */
const REVEAL_FROM_ZOOM = 14;
/** `/places` answers at most this many a page (the list's page, as the server's cap). */
const MAX_PER_PAGE = LIMITS.markerList.maxItems;

interface Tile {
	features: MapFeature[];
}

function isRecord( value: unknown ): value is Record< string, unknown > {
	return typeof value === 'object' && value !== null;
}

function finite( value: unknown ): value is number {
	return typeof value === 'number' && Number.isFinite( value );
}

function slugs( value: unknown ): string[] {
	return Array.isArray( value )
		? value.filter( ( slug ): slug is string => typeof slug === 'string' )
		: [];
}

/**
 * One feature of a tile, as the map's source takes it; null for anything else.
 * @param value
 */
function tileFeature( value: unknown ): MapFeature | null {
	if ( ! isRecord( value ) || ! isRecord( value.geometry ) ) {
		return null;
	}
	const coordinates = value.geometry.coordinates;
	const properties = isRecord( value.properties ) ? value.properties : {};
	if (
		value.geometry.type !== 'Point' ||
		! Array.isArray( coordinates ) ||
		! finite( coordinates[ 0 ] ) ||
		! finite( coordinates[ 1 ] ) ||
		! Number.isSafeInteger( value.id )
	) {
		return null;
	}
	const geometry = {
		type: 'Point' as const,
		coordinates: [ coordinates[ 0 ], coordinates[ 1 ] ] as [
			number,
			number,
		],
	};
	const id = value.id as number;
	if ( properties.cluster === true ) {
		if ( ! finite( properties.point_count ) ) {
			return null;
		}
		return {
			type: 'Feature',
			id,
			geometry,
			properties: {
				...properties,
				cluster: true,
				cluster_id: id,
				point_count: properties.point_count,
				point_count_abbreviated:
					typeof properties.point_count_abbreviated === 'string' ||
					finite( properties.point_count_abbreviated )
						? properties.point_count_abbreviated
						: properties.point_count,
			},
		};
	}
	return {
		type: 'Feature',
		id,
		geometry,
		properties: {
			groups: slugs( properties.groups ),
			title: typeof properties.title === 'string' ? properties.title : '',
		},
	};
}

function readTile( body: unknown ): Tile {
	if ( ! isRecord( body ) || ! Array.isArray( body.features ) ) {
		throw new Error( 'A tile is not a FeatureCollection.' );
	}
	const features: MapFeature[] = [];
	for ( const item of body.features ) {
		const feature = tileFeature( item );
		if ( feature ) {
			features.push( feature );
		}
	}
	return { features };
}

function counts( value: unknown ): Record< string, number > {
	const out: Record< string, number > = {};
	if ( isRecord( value ) ) {
		for ( const [ slug, count ] of Object.entries( value ) ) {
			if ( finite( count ) && count > 0 ) {
				out[ slug ] = count;
			}
		}
	}
	return out;
}

function bounds( value: unknown ): BBox | null {
	return Array.isArray( value ) && value.length === 4 && value.every( finite )
		? ( value as BBox )
		: null;
}

interface Summary {
	total: number;
	groups: Record< string, number >;
	matches: number;
	bounds: BBox | null;
}

function readSummary( body: unknown ): Summary {
	if ( ! isRecord( body ) || ! finite( body.total ) ) {
		throw new Error( 'The places summary is not readable.' );
	}
	return {
		total: body.total,
		groups: counts( body.groups ),
		matches: finite( body.matches ) ? body.matches : body.total,
		bounds: bounds( body.bounds ),
	};
}

function listedPlace( value: unknown ): ListedPlace | null {
	if (
		! isRecord( value ) ||
		! Number.isSafeInteger( value.id ) ||
		! finite( value.lng ) ||
		! finite( value.lat )
	) {
		return null;
	}
	return {
		id: value.id as number,
		title: typeof value.title === 'string' ? value.title : '',
		lng: value.lng,
		lat: value.lat,
		groups: slugs( value.groups ),
		...( finite( value.distance ) ? { distance: value.distance } : {} ),
	};
}

function readList( body: unknown ): ListResult {
	if (
		! isRecord( body ) ||
		! finite( body.total ) ||
		! Array.isArray( body.items )
	) {
		throw new Error( 'The places list is not readable.' );
	}
	const items = body.items
		.map( listedPlace )
		.filter( ( item ): item is ListedPlace => item !== null );
	const pages = finite( body.pages ) ? Math.max( 1, body.pages ) : 1;
	const page = finite( body.page ) ? Math.max( 1, body.page ) : 1;
	return {
		total: body.total,
		...( body.capped === true ? { capped: true } : {} ),
		page: page - 1,
		pages,
		items,
	};
}

/**
 * The list's address: the filter, the view, the origin, and the page (1-based on the server).
 * @param placesUrl
 * @param filter
 * @param query
 */
function listUrl(
	placesUrl: string,
	filter: TileFilter,
	query: ListQuery
): string {
	const params: Array< [ string, string ] > = [
		...filterParams( filter, 'places' ),
	];
	if ( query.bbox ) {
		params.push( [ 'bbox', query.bbox.map( coordinate ).join( ',' ) ] );
	}
	// Within a circle the list is nearest first from its centre already.
	if ( query.origin && ! filter.near ) {
		params.push( [
			'near',
			`${ coordinate( query.origin.lng ) },${ coordinate(
				query.origin.lat
			) }`,
		] );
	}
	const page = Math.max( 0, Math.floor( query.page ) || 0 ) + 1;
	const perPage = Math.min(
		MAX_PER_PAGE,
		Math.max( 1, Math.floor( query.pageSize ) || 1 )
	);
	params.push(
		[ 'page', String( page ) ],
		[ 'per_page', String( perPage ) ]
	);
	return withQuery( placesUrl, params );
}

/**
 * The first zoom from REVEAL_FROM_ZOOM (or `fromZoom`, when closer) at which the place's tile
 * draws it as a point; `fromZoom` for a place the filter hides (no tile draws it).
 * @param place
 * @param fromZoom
 * @param maxZoom  The server's cluster max zoom.
 * @param tile     Reads one tile (through the client's cache).
 */
async function revealZoom(
	place: ListedPlace,
	fromZoom: number,
	maxZoom: number,
	tile: ( address: TileAddress ) => Promise< Tile >
): Promise< number > {
	const top = tileZoom( Infinity, maxZoom );
	const near = 1e-7;
	const box: BBox = [
		place.lng - near,
		place.lat - near,
		place.lng + near,
		place.lat + near,
	];
	for (
		let z = Math.max( REVEAL_FROM_ZOOM, Math.floor( fromZoom ) );
		z <= top;
		z++
	) {
		const [ address ] = tilesCovering( box, z );
		const drawn = address ? ( await tile( address ) ).features : [];
		if (
			drawn.some(
				( feature ) =>
					! ( 'cluster' in feature.properties ) &&
					feature.id === place.id
			)
		) {
			return Math.max( z, fromZoom );
		}
	}
	return fromZoom;
}

/**
 * A least-recently-used map of bounded size.
 * @param limit
 */
function boundedCache< T >( limit: number ) {
	const entries = new Map< string, T >();
	return {
		get( key: string ): T | undefined {
			const value = entries.get( key );
			if ( value !== undefined ) {
				entries.delete( key );
				entries.set( key, value );
			}
			return value;
		},
		set( key: string, value: T ) {
			entries.delete( key );
			entries.set( key, value );
			while ( entries.size > limit ) {
				const oldest = entries.keys().next().value as string;
				entries.delete( oldest );
			}
		},
		delete: ( key: string ) => entries.delete( key ),
		clear: () => entries.clear(),
		get size() {
			return entries.size;
		},
	};
}

/**
 * The first place by title a search finds, whatever the filter (PlacesClient.find()).
 * @param ask       Reads an address's JSON.
 * @param placesUrl `/cairn/v1/places?…`.
 * @param search    The text.
 */
async function findPlace(
	ask: ( url: string ) => Promise< unknown >,
	placesUrl: string,
	search: string
): Promise< ListedPlace | null > {
	const text = clipSearch( search.trim() );
	if ( text === '' ) {
		return null;
	}
	const read = readList(
		await ask(
			withQuery( placesUrl, [
				[ 'q', text ],
				[ 'per_page', '1' ],
			] )
		)
	);
	return read.items[ 0 ] ?? null;
}

export interface TiledPlacesClient extends PlacesClient {
	/** Tiles in memory now (answered or on their way). */
	readonly cachedTiles: number;
}

/**
 * A places client over the map's server routes.
 * @param urls
 * @param options
 */
export function createTiledClient(
	urls: TiledUrls,
	options: TiledClientOptions = {}
): TiledPlacesClient {
	const maxZoom = clusterMaxZoomOf( urls.tilesUrl );
	const tiles = boundedCache< Promise< Tile > >(
		Math.max( 1, options.cacheSize ?? TILE_CACHE_SIZE )
	);
	let prefetched = options.prefetched ?? null;
	let firstView = options.firstView ?? prefetched?.view ?? null;
	let aborter = new AbortController();
	let filter: TileFilter = { hidden: [], search: '' };
	let unfiltered: Summary | null = null;
	/** The expansion zoom of each cluster last given to the map. */
	let expansions = new Map< number, number >();
	let terminated = false;

	const ask = ( url: string ): Promise< unknown > => {
		if ( terminated ) {
			return Promise.reject( new Error( 'The places client stopped.' ) );
		}
		return prefetched?.take( url ) ?? getJson( url, aborter.signal );
	};

	const tile = ( address: TileAddress ): Promise< Tile > => {
		const url = tileUrl( urls.tilesUrl, address, filter );
		const cached = tiles.get( url );
		if ( cached ) {
			return cached;
		}
		const answer = ask( url ).then( readTile );
		tiles.set( url, answer );
		// A failed tile is asked again on the next move.
		answer.catch( () => tiles.delete( url ) );
		return answer;
	};

	const features = async (
		bbox: BBox,
		zoom: number
	): Promise< MapFeature[] > => {
		const covering = tilesCovering( bbox, tileZoom( zoom, maxZoom ) );
		const answers = await Promise.allSettled( covering.map( tile ) );
		const merged = new Map< string, MapFeature >();
		let failed = 0;
		for ( const answer of answers ) {
			if ( answer.status === 'rejected' ) {
				failed++;
				continue;
			}
			for ( const feature of answer.value.features ) {
				const kind = 'cluster' in feature.properties ? 'c' : 'p';
				merged.set( `${ kind }${ feature.id }`, feature );
			}
		}
		if ( failed > 0 && failed === answers.length ) {
			throw new Error( 'The tiles of this view could not be loaded.' );
		}
		const drawn = [ ...merged.values() ];
		expansions = new Map();
		for ( const feature of drawn ) {
			const expansion = (
				feature.properties as { expansion_zoom?: unknown }
			 ).expansion_zoom;
			if ( 'cluster' in feature.properties && finite( expansion ) ) {
				expansions.set( feature.id, expansion );
			}
		}
		return drawn;
	};

	const summary = async ( withFilter: TileFilter | null ) =>
		readSummary(
			await ask(
				withQuery(
					urls.summaryUrl,
					filterParams( withFilter, 'places' )
				)
			)
		);

	const load = async (): Promise< LoadResult > => {
		tiles.clear();
		filter = { hidden: [], search: '' };
		const view = firstView;
		firstView = null;
		const [ read ] = await Promise.all( [
			summary( null ),
			view ? features( view.bbox, view.zoom ) : null,
		] );
		// Only the first load's answers were prefetched.
		prefetched = null;
		unfiltered = read;
		return { total: read.total, groups: read.groups };
	};

	return {
		load,
		filter: async ( next: Filter ): Promise< FilterResult > => {
			filter = {
				hidden: [ ...next.hidden ],
				search: next.search,
				near: next.near ?? null,
			};
			const params = filterParams( filter );
			if (
				unfiltered &&
				params.every( ( [ , value ] ) => value === '' )
			) {
				return { count: unfiltered.matches, bounds: unfiltered.bounds };
			}
			const read = await summary( filter );
			return { count: read.matches, bounds: read.bounds };
		},
		features,
		list: async ( query: ListQuery ): Promise< ListResult > =>
			readList( await ask( listUrl( urls.placesUrl, filter, query ) ) ),
		expansion: async ( clusterId ) => expansions.get( clusterId ) ?? null,
		reveal: async ( placeId, zoom ) => {
			const read = readList(
				await ask(
					withQuery( urls.placesUrl, [
						[ 'include', String( Math.floor( placeId ) ) ],
					] )
				)
			);
			const place = read.items.find( ( item ) => item.id === placeId );
			if ( ! place ) {
				return null;
			}
			return {
				...place,
				zoom: await revealZoom( place, zoom, maxZoom, tile ),
			};
		},
		find: ( search ) => findPlace( ask, urls.placesUrl, search ),
		terminate: () => {
			terminated = true;
			aborter.abort();
			aborter = new AbortController();
			tiles.clear();
			prefetched = null;
		},
		viewPad: FEATURES_PAD,
		get cachedTiles() {
			return tiles.size;
		},
	};
}
