/**
 * The places engine: every place of a map, filtered, clustered and listed. It runs in a worker
 * (places/worker.ts), so parsing the feed, clustering 100,000 points and searching their titles
 * never block the page; it has no DOM and no mapbox-gl, and is tested directly.
 *
 * - Clusters: Supercluster (the library mapbox-gl itself clusters with). A layer filter cannot
 *   change which points a cluster holds, so a filter builds an index of the matching points;
 *   the last few indexes are kept, so switching back costs nothing.
 * - The list in view: a KDBush index (Supercluster's own spatial index) of the matching points,
 *   range-queried after each move and ordered by title (a rank computed once) or by distance.
 * - Search: every query word must start a word of the place's title or group names, accents and
 *   case folded (words.ts, the rule the place index keeps too). A scan of pre-folded strings:
 *   ≈ 10 ms for 100,000 titles on this project's reference machine, so it needs no index to
 *   build or keep (see README, "Places").
 */
import KDBush from 'kdbush';
import Supercluster, { type Options as ClusterOptions } from 'supercluster';

import { fold, matches, queryWords, searchText } from './words';

// The search's words, which the shapes on the map (shapes/) match alike.
export { fold, queryWords };

export interface PlaceGroup {
	slug: string;
	name: string;
}

export interface EngineOptions {
	/** Cluster radius in pixels (512-pixel tiles); 0 or clustering off: no clusters. */
	clusterRadius: number;
	clusterEnabled: boolean;
	/** The last zoom with clusters. */
	clusterMaxZoom: number;
	/** Names of the groups, for search ("cafés" finds the places of the group "Cafés"). */
	groups: PlaceGroup[];
}

/**
 * A circle: the places within `radius` metres (great-circle) of a position.
 * @since 0.8.0
 */
export interface NearFilter {
	lng: number;
	lat: number;
	radius: number;
}

export interface Filter {
	search: string;
	/** Slugs of the groups switched off. */
	hidden: string[];
	/** Only the places within this circle (a visitor's "near a place"); absent or null: all. @since 0.8.0 */
	near?: NearFilter | null;
}

export interface LoadResult {
	total: number;
	/** Places per group slug (a place counts in each of its groups). */
	groups: Record< string, number >;
}

export interface FilterResult {
	/** Places that pass the filter. */
	count: number;
	/** Their bounding box `[west, south, east, north]`, or null for none. */
	bounds: [ number, number, number, number ] | null;
}

export interface ListedPlace {
	id: number;
	title: string;
	lng: number;
	lat: number;
	groups: string[];
	/**
	 * A post's thumbnail (`properties.thumb`: its featured image at thumbnail size), an http(s)
	 * URL; absent for markers and for posts without one.
	 * @since 0.3.0
	 */
	thumb?: string;
	/** Metres from the origin, when the list is sorted by distance. */
	distance?: number;
}

export interface ListQuery {
	/** `[west, south, east, north]` of the view; null: every place that passes the filter. */
	bbox: [ number, number, number, number ] | null;
	/** 0-based page. */
	page: number;
	pageSize: number;
	/** Sort by distance from here (the visitor's position) instead of by title. */
	origin?: { lng: number; lat: number } | null;
}

export interface ListResult {
	total: number;
	/**
	 * A tiled map's search whose count stopped at `search.maxCount`: more than `total` match.
	 * @since 0.7.0
	 */
	capped?: boolean;
	page: number;
	pages: number;
	items: ListedPlace[];
}

export interface PointFeature {
	type: 'Feature';
	id: number;
	geometry: { type: 'Point'; coordinates: [ number, number ] };
	/** `combo`: the place's group combination (the engine's own, for counting). */
	properties: { groups: string[]; title: string; combo?: number };
}

/** A cluster or a point, as mapbox-gl's own clustered source would give it to the layers. */
export type MapFeature =
	| PointFeature
	| {
			type: 'Feature';
			id: number;
			geometry: { type: 'Point'; coordinates: [ number, number ] };
			properties: {
				cluster: true;
				cluster_id: number;
				point_count: number;
				point_count_abbreviated: string | number;
			};
	  };

/** How many filtered indexes are kept (the unfiltered one always is). */
const KEPT_INDEXES = 4;

/**
 * A thumbnail address the list may show: an absolute http(s) URL of sensible length, else null.
 * @param value `properties.thumb` of a feature.
 */
function thumbUrl( value: unknown ): string | null {
	return typeof value === 'string' &&
		value.length <= 2048 &&
		/^https?:\/\/[^\s"'<>\\]+$/i.test( value )
		? value
		: null;
}

function isRecord( value: unknown ): value is Record< string, unknown > {
	return typeof value === 'object' && value !== null;
}

const EARTH_RADIUS = 6_371_008.8;

/** Great-circle distance in metres. */
export function distance(
	a: { lng: number; lat: number },
	b: { lng: number; lat: number }
): number {
	const rad = Math.PI / 180;
	const dLat = ( b.lat - a.lat ) * rad;
	const dLng = ( b.lng - a.lng ) * rad;
	const h =
		Math.sin( dLat / 2 ) ** 2 +
		Math.cos( a.lat * rad ) *
			Math.cos( b.lat * rad ) *
			Math.sin( dLng / 2 ) ** 2;
	return 2 * EARTH_RADIUS * Math.asin( Math.min( 1, Math.sqrt( h ) ) );
}

/**
 * A circle with a finite position and a positive radius, else null.
 * @param near
 */
function validNear( near: NearFilter | null | undefined ): NearFilter | null {
	if (
		! near ||
		! Number.isFinite( near.lng ) ||
		! Number.isFinite( near.lat ) ||
		! Number.isFinite( near.radius ) ||
		near.radius <= 0
	) {
		return null;
	}
	return { lng: near.lng, lat: near.lat, radius: near.radius };
}

/** What a cluster of the counting index carries: its places per group combination. */
interface Counts {
	/** A cluster's places per combination. */
	counts?: number[];
	/** A single place's combination (no array per place: clusters get theirs when formed). */
	c?: number;
}

type Clusters = Supercluster< PointFeature[ 'properties' ], Counts >;

interface Indexed {
	key: string;
	/** Positions (into the engine's arrays) of the places that pass the filter. */
	members: Uint32Array;
	clusters: Clusters | null;
	spatial: KDBush | null;
	/** A filter by groups alone: the counting index can draw it (see countedFeatures). */
	groupsOnly: boolean;
	/** For each group combination: whether its places pass the filter. */
	shownCombos: Uint8Array;
}

/** Above this many group combinations, group filters rebuild their clusters instead. */
const MAX_COMBOS = 32;

function abbreviate( count: number ): string | number {
	if ( count >= 10_000 ) {
		return `${ Math.round( count / 1000 ) }k`;
	}
	return count >= 1000 ? `${ Math.round( count / 100 ) / 10 }k` : count;
}

export class PlacesEngine {
	private readonly options: EngineOptions;
	private features: PointFeature[] = [];
	private lng = new Float64Array( 0 );
	private lat = new Float64Array( 0 );
	/** Folded titles and group names, made on the first search or list (not before the first draw). */
	private searchText: string[] = [];
	private groupNames = new Map< string, string >();
	/**
	 * The title order of the loaded places, made when first listed: each place's rank, and the
	 * place at each rank. Dropped by every load (a feed of the same size has other titles).
	 */
	private titleOrder: { rank: Uint32Array; byRank: Uint32Array } | null =
		null;
	private byId = new Map< number, number >();
	/** Thumbnails by position, for the places that have one (posts with a featured image). */
	private thumbs = new Map< number, string >();
	private groupCounts: Record< string, number > = {};
	private indexes: Indexed[] = [];
	private current: Indexed | null = null;
	/** Each place's group combination (an index into `combos`). */
	private comboOf = new Uint16Array( 0 );
	/** The distinct group combinations of the places, as sorted slug lists. */
	private combos: string[][] = [];
	/** The unfiltered index, counting its places per combination; null with too many combinations. */
	private counting: Clusters | null = null;

	constructor( options: EngineOptions ) {
		this.options = options;
	}

	/**
	 * Reads a GeoJSON FeatureCollection (the marker feed). Features without a numeric id or a
	 * valid point are skipped; titles and groups that are not strings become ''.
	 * @param collection The parsed feed.
	 */
	load( collection: unknown ): LoadResult {
		const input =
			isRecord( collection ) && Array.isArray( collection.features )
				? ( collection.features as unknown[] )
				: [];
		const names = new Map(
			this.options.groups.map( ( group ) => [ group.slug, group.name ] )
		);
		const features: PointFeature[] = [];
		const counts: Record< string, number > = {};
		this.byId = new Map();
		this.thumbs = new Map();
		for ( const item of input ) {
			if ( ! isRecord( item ) || ! isRecord( item.geometry ) ) {
				continue;
			}
			const id = Number( item.id );
			const coordinates = item.geometry.coordinates;
			if (
				! Number.isInteger( id ) ||
				id <= 0 ||
				! Array.isArray( coordinates ) ||
				typeof coordinates[ 0 ] !== 'number' ||
				typeof coordinates[ 1 ] !== 'number' ||
				! Number.isFinite( coordinates[ 0 ] + coordinates[ 1 ] ) ||
				Math.abs( coordinates[ 0 ] ) > 180 ||
				Math.abs( coordinates[ 1 ] ) > 90 ||
				this.byId.has( id )
			) {
				continue;
			}
			const properties = isRecord( item.properties )
				? item.properties
				: {};
			const title =
				typeof properties.title === 'string' ? properties.title : '';
			const groups = Array.isArray( properties.groups )
				? properties.groups.filter(
						( slug ): slug is string => typeof slug === 'string'
					)
				: [];
			for ( const slug of groups ) {
				counts[ slug ] = ( counts[ slug ] ?? 0 ) + 1;
			}
			const thumb = thumbUrl( properties.thumb );
			if ( thumb ) {
				this.thumbs.set( features.length, thumb );
			}
			this.byId.set( id, features.length );
			features.push( {
				type: 'Feature',
				id,
				geometry: {
					type: 'Point',
					coordinates: [ coordinates[ 0 ], coordinates[ 1 ] ],
				},
				properties: { groups, title },
			} );
		}
		const count = features.length;
		this.features = features;
		this.lng = new Float64Array( count );
		this.lat = new Float64Array( count );
		this.searchText = [];
		this.groupNames = names;
		for ( let i = 0; i < count; i++ ) {
			const feature = features[ i ]!;
			this.lng[ i ] = feature.geometry.coordinates[ 0 ];
			this.lat[ i ] = feature.geometry.coordinates[ 1 ];
		}
		const comboIds = new Map< string, number >();
		this.combos = [];
		this.comboOf = new Uint16Array( count );
		for ( let i = 0; i < count; i++ ) {
			const groups = [
				...new Set( features[ i ]!.properties.groups ),
			].sort();
			const key = groups.join( ',' );
			let combo = comboIds.get( key );
			if ( combo === undefined ) {
				combo = this.combos.length;
				comboIds.set( key, combo );
				this.combos.push( groups );
			}
			this.comboOf[ i ] = Math.min( combo, 65535 );
			features[ i ]!.properties.combo = combo;
		}
		this.counting = null;
		this.groupCounts = counts;
		this.indexes = [];
		this.current = null;
		this.titleOrder = null;
		this.setFilter( { search: '', hidden: [] } );
		return { total: count, groups: counts };
	}

	/** The search text of every place (words.ts searchText()), made when first needed. */
	private texts(): string[] {
		if ( this.searchText.length !== this.features.length ) {
			this.searchText = this.features.map( ( feature ) =>
				searchText(
					feature.properties.title,
					feature.properties.groups.map(
						( slug ) => this.groupNames.get( slug ) ?? ''
					)
				)
			);
		}
		return this.searchText;
	}

	/** The places in title order (folded, then by id), computed when first needed. */
	private titles(): { rank: Uint32Array; byRank: Uint32Array } {
		if ( ! this.titleOrder ) {
			const order = Array.from( this.features.keys() );
			const keys = this.features.map( ( feature ) =>
				fold( feature.properties.title )
			);
			order.sort( ( a, b ) => {
				const ka = keys[ a ]!;
				const kb = keys[ b ]!;
				if ( ka !== kb ) {
					return ka < kb ? -1 : 1;
				}
				return this.features[ a ]!.id - this.features[ b ]!.id;
			} );
			const rank = new Uint32Array( order.length );
			order.forEach( ( position, index ) => {
				rank[ position ] = index;
			} );
			this.titleOrder = { rank, byRank: Uint32Array.from( order ) };
		}
		return this.titleOrder;
	}

	/** Applies a filter: the clusters, the list and the counts follow it from now on. */
	setFilter( filter: Filter ): FilterResult {
		const words = queryWords( filter.search );
		const known = Object.keys( this.groupCounts );
		const hidden = [ ...new Set( filter.hidden ) ]
			.filter( ( slug ) => known.includes( slug ) )
			.sort();
		const near = validNear( filter.near );
		const key = JSON.stringify( [ words, hidden, near ] );
		let indexed = this.indexes.find( ( entry ) => entry.key === key );
		if ( indexed ) {
			// Most recently used last.
			this.indexes = [
				...this.indexes.filter( ( entry ) => entry !== indexed ),
				indexed,
			];
		} else {
			indexed = this.build( key, words, new Set( hidden ), near );
			const kept = this.indexes.filter(
				( entry, position ) =>
					position === 0 ||
					position >= this.indexes.length - ( KEPT_INDEXES - 1 )
			);
			this.indexes = [ ...kept, indexed ];
		}
		this.current = indexed;
		return {
			count: indexed.members.length,
			bounds: this.bounds( indexed ),
		};
	}

	private build(
		key: string,
		words: string[],
		hidden: Set< string >,
		near: NearFilter | null = null
	): Indexed {
		const members: number[] = [];
		const count = this.features.length;
		const texts = words.length > 0 ? this.texts() : [];
		for ( let i = 0; i < count; i++ ) {
			if ( hidden.size > 0 ) {
				const groups = this.features[ i ]!.properties.groups;
				if (
					groups.length > 0 &&
					groups.every( ( slug ) => hidden.has( slug ) )
				) {
					continue;
				}
			}
			if ( words.length > 0 ) {
				if ( ! matches( texts[ i ]!, words ) ) {
					continue;
				}
			}
			if (
				near &&
				distance( near, { lng: this.lng[ i ]!, lat: this.lat[ i ]! } ) >
					near.radius
			) {
				continue;
			}
			members.push( i );
		}
		const positions = Uint32Array.from( members );
		let spatial: KDBush | null = null;
		if ( positions.length > 0 ) {
			spatial = new KDBush( positions.length );
			for ( const position of positions ) {
				spatial.add( this.lng[ position ]!, this.lat[ position ]! );
			}
			spatial.finish();
		}
		const shownCombos = Uint8Array.from( this.combos, ( groups ) =>
			groups.length === 0 ||
			groups.some( ( slug ) => ! hidden.has( slug ) )
				? 1
				: 0
		);
		return {
			key,
			members: positions,
			clusters: null,
			spatial,
			groupsOnly: words.length === 0 && ! near,
			shownCombos,
		};
	}

	/**
	 * A Supercluster index with the map's cluster settings (512-pixel tiles, as the map's).
	 * @param extra Map/reduce options.
	 */
	private newIndex(
		extra: Partial<
			Pick<
				ClusterOptions< PointFeature[ 'properties' ], Counts >,
				'map' | 'reduce'
			>
		> = {}
	): Clusters {
		return new Supercluster< PointFeature[ 'properties' ], Counts >( {
			radius: this.options.clusterRadius,
			maxZoom: this.options.clusterMaxZoom,
			extent: 512,
			...extra,
		} );
	}

	/**
	 * The unfiltered places' clusters, each counting its places per group combination (Supercluster's
	 * map/reduce), built with the first drawing. A filter by groups alone draws from it at once —
	 * the places of hidden groups taken out of each cluster's count, a cluster left with one place
	 * drawn as that place, an emptied one not at all — instead of clustering the rest anew (about a
	 * second at 100,000 places).
	 */
	private countingIndex(): Clusters | null {
		if (
			! this.counting &&
			this.options.clusterEnabled &&
			this.features.length > 0 &&
			this.combos.length <= MAX_COMBOS
		) {
			const combos = this.combos.length;
			const counting = this.newIndex( {
				map: ( properties ) => ( { c: properties.combo ?? 0 } ),
				reduce: ( total, properties ) => {
					// Always a new array: Supercluster copies a cluster's properties shallowly,
					// so the one it starts from may still belong to a cluster of the zoom below.
					const sum = total.counts
						? total.counts.slice()
						: new Array< number >( combos ).fill( 0 );
					if ( ! total.counts ) {
						sum[ total.c ?? 0 ]! += 1;
					}
					if ( properties.counts ) {
						for ( let k = 0; k < combos; k++ ) {
							sum[ k ]! += properties.counts[ k ] ?? 0;
						}
					} else {
						sum[ properties.c ?? 0 ]! += 1;
					}
					total.counts = sum;
				},
			} );
			counting.load( this.features );
			this.counting = counting;
		}
		return this.counting;
	}

	/**
	 * The cluster index of the current filter, built when the map first asks for it: the list of
	 * a new filter (a scan) is answered before its clusters (the long part) are built.
	 */
	private clustersOf( indexed: Indexed ): Clusters | null {
		if (
			! indexed.clusters &&
			indexed.groupsOnly &&
			indexed.members.length === this.features.length
		) {
			indexed.clusters = this.countingIndex();
		}
		if (
			! indexed.clusters &&
			this.options.clusterEnabled &&
			indexed.members.length > 0
		) {
			const clusters = this.newIndex();
			clusters.load(
				Array.from(
					indexed.members,
					( position ) => this.features[ position ]!
				)
			);
			indexed.clusters = clusters;
		}
		return indexed.clusters;
	}

	private bounds(
		indexed: Indexed
	): [ number, number, number, number ] | null {
		if ( indexed.members.length === 0 ) {
			return null;
		}
		let west = 180;
		let south = 90;
		let east = -180;
		let north = -90;
		for ( const position of indexed.members ) {
			const lng = this.lng[ position ]!;
			const lat = this.lat[ position ]!;
			west = Math.min( west, lng );
			east = Math.max( east, lng );
			south = Math.min( south, lat );
			north = Math.max( north, lat );
		}
		return [ west, south, east, north ];
	}

	/**
	 * What the map's source should hold for a view: clusters and points in `bbox` at `zoom`, or,
	 * without clustering, every place that passes the filter.
	 * @param bbox `[west, south, east, north]`; west > east crosses the antimeridian.
	 * @param zoom The map's zoom.
	 */
	mapFeatures(
		bbox: [ number, number, number, number ],
		zoom: number
	): MapFeature[] {
		const indexed = this.current;
		if ( ! indexed || indexed.members.length === 0 ) {
			return [];
		}
		const z = Math.max( 0, Math.floor( zoom ) );
		const counting =
			indexed.groupsOnly && ! indexed.clusters
				? this.countingIndex()
				: null;
		if ( counting ) {
			return this.countedFeatures(
				counting,
				indexed.shownCombos,
				bbox,
				z
			);
		}
		const clusters = this.clustersOf( indexed );
		if ( ! clusters ) {
			return Array.from(
				indexed.members,
				( position ) => this.features[ position ]!
			);
		}
		return clusters.getClusters( bbox, z ) as MapFeature[];
	}

	/**
	 * Builds the cluster index the first drawing reads, so that the map's first request for its
	 * clusters only reads it. The worker does this right after loading, while the map's style
	 * may still be loading.
	 */
	prepare(): void {
		this.drawing();
	}

	/**
	 * The counting index's clusters for a filter by groups: each cluster counts only its shown
	 * places; one left with a single place is that place; one left with none is not drawn.
	 * @param counting
	 * @param shown
	 * @param bbox
	 * @param zoom
	 */
	private countedFeatures(
		counting: Clusters,
		shown: Uint8Array,
		bbox: [ number, number, number, number ],
		zoom: number
	): MapFeature[] {
		const out: MapFeature[] = [];
		for ( const feature of counting.getClusters( bbox, zoom ) ) {
			const properties = feature.properties as Partial<
				MapFeature[ 'properties' ]
			> &
				Counts & { combo?: number };
			if ( ! ( 'cluster' in properties ) ) {
				if ( shown[ properties.combo ?? 0 ] ) {
					out.push( feature as MapFeature );
				}
				continue;
			}
			const counts = properties.counts ?? [];
			let count = 0;
			for ( let k = 0; k < counts.length; k++ ) {
				count += shown[ k ] ? counts[ k ]! : 0;
			}
			const id = Number( feature.id );
			if ( count === 0 ) {
				continue;
			}
			if ( count === 1 ) {
				const leaf = counting
					.getLeaves( id, Infinity )
					.find( ( place ) => shown[ place.properties.combo ?? 0 ] );
				if ( leaf ) {
					out.push( leaf as unknown as MapFeature );
				}
				continue;
			}
			out.push( {
				type: 'Feature',
				id,
				geometry: feature.geometry as MapFeature[ 'geometry' ],
				properties: {
					cluster: true,
					cluster_id: id,
					point_count: count,
					point_count_abbreviated: abbreviate( count ),
				},
			} );
		}
		return out;
	}

	/** The index the map's clusters come from for the current filter. */
	private drawing(): Clusters | null {
		const indexed = this.current;
		if ( ! indexed ) {
			return null;
		}
		return indexed.groupsOnly && ! indexed.clusters
			? ( this.countingIndex() ?? this.clustersOf( indexed ) )
			: this.clustersOf( indexed );
	}

	/** The zoom at which a cluster of the current view breaks apart, or null. */
	expansionZoom( clusterId: number ): number | null {
		try {
			return this.drawing()?.getClusterExpansionZoom( clusterId ) ?? null;
		} catch {
			return null; // A cluster of an earlier filter.
		}
	}

	/**
	 * Where a place is and the lowest zoom (from `fromZoom` on) at which it is drawn on its own,
	 * not inside a cluster. Null for an id the map does not have.
	 * @param id
	 * @param fromZoom
	 */
	reveal(
		id: number,
		fromZoom: number
	): ( ListedPlace & { zoom: number } ) | null {
		const position = this.byId.get( id );
		if ( position === undefined ) {
			return null;
		}
		const place = this.place( position );
		const clusters = this.drawing();
		let zoom = Math.max( 0, Math.floor( fromZoom ) );
		if ( clusters && this.current?.members.includes( position ) ) {
			const max = this.options.clusterMaxZoom + 1;
			const near = 1e-6;
			for ( ; zoom < max; zoom++ ) {
				const shown = clusters.getClusters(
					[
						place.lng - near,
						place.lat - near,
						place.lng + near,
						place.lat + near,
					],
					zoom
				);
				if (
					shown.some(
						( feature ) =>
							! ( feature.properties as { cluster?: boolean } )
								.cluster && feature.id === id
					)
				) {
					break;
				}
			}
		}
		return { ...place, zoom: Math.max( zoom, fromZoom ) };
	}

	/**
	 * The first place by title whose title or group names every word of the search starts,
	 * whatever the filter; null when none does (a visitor's "near" typed as a place name).
	 * @since 0.8.0
	 * @param search The text.
	 */
	find( search: string ): ListedPlace | null {
		const words = queryWords( search );
		if ( words.length === 0 ) {
			return null;
		}
		const texts = this.texts();
		const { byRank } = this.titles();
		for ( const position of byRank ) {
			if ( matches( texts[ position ]!, words ) ) {
				return this.place( position );
			}
		}
		return null;
	}

	private place( position: number ): ListedPlace {
		const feature = this.features[ position ]!;
		const thumb = this.thumbs.get( position );
		return {
			id: feature.id,
			title: feature.properties.title,
			lng: this.lng[ position ]!,
			lat: this.lat[ position ]!,
			groups: feature.properties.groups,
			...( thumb ? { thumb } : {} ),
		};
	}

	/** The places that pass the filter, in `bbox` when given, one page of them. */
	list( query: ListQuery ): ListResult {
		const indexed = this.current;
		const pageSize = Math.max( 1, Math.floor( query.pageSize ) );
		let positions: Uint32Array;
		if ( ! indexed || ! indexed.spatial ) {
			positions = new Uint32Array( 0 );
		} else if ( ! query.bbox ) {
			positions = indexed.members;
		} else {
			const [ west, south, east, north ] = query.bbox;
			const found =
				west <= east
					? indexed.spatial.range( west, south, east, north )
					: [
							...indexed.spatial.range( west, south, 180, north ),
							...indexed.spatial.range(
								-180,
								south,
								east,
								north
							),
						];
			positions = Uint32Array.from(
				found,
				( slot ) => indexed.members[ slot ]!
			);
		}
		const total = positions.length;
		const pages = Math.max( 1, Math.ceil( total / pageSize ) );
		const page = Math.min(
			Math.max( 0, Math.floor( query.page ) || 0 ),
			pages - 1
		);
		const origin = query.origin;
		let ordered: number[];
		if ( origin ) {
			const distances = new Float64Array( total );
			positions.forEach( ( position, slot ) => {
				distances[ slot ] = distance( origin, {
					lng: this.lng[ position ]!,
					lat: this.lat[ position ]!,
				} );
			} );
			const slots = Array.from( positions.keys() );
			slots.sort( ( a, b ) => distances[ a ]! - distances[ b ]! );
			ordered = slots
				.slice( page * pageSize, ( page + 1 ) * pageSize )
				.map( ( slot ) => positions[ slot ]! );
		} else {
			const { rank, byRank } = this.titles();
			// Ranks are unique: sort the ranks, then map them back.
			const ranks = Uint32Array.from(
				positions,
				( position ) => rank[ position ]!
			).sort();
			ordered = Array.from(
				ranks.subarray( page * pageSize, ( page + 1 ) * pageSize ),
				( value ) => byRank[ value ]!
			);
		}
		return {
			total,
			page,
			pages,
			items: ordered.map( ( position ) => {
				const place = this.place( position );
				return origin
					? { ...place, distance: distance( origin, place ) }
					: place;
			} ),
		};
	}
}
