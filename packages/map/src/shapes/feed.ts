/**
 * The shapes feed (`GET /cairn/v1/shapes`) and the shape tiles (`/cairn/v1/shapes/tiles/…`, the
 * same format, no profile): routes and areas of a map's selection, read and checked once where
 * they enter. Code past `parseShapes` trusts its features.
 * @since 0.5.0
 */
import { isRecord } from '../map-schema';

export type ShapeGeometry =
	| { type: 'LineString'; coordinates: number[][] }
	| { type: 'MultiLineString'; coordinates: number[][][] }
	| { type: 'Polygon'; coordinates: number[][][] }
	| { type: 'MultiPolygon'; coordinates: number[][][][] };

export type BBox = [ number, number, number, number ];

/** One route or area of the feed. */
export interface ShapeFeature {
	/** The marker's post id (its anchor is the marker's point in the places list). */
	id: number;
	geometry: ShapeGeometry;
	title: string;
	groups: string[];
	/** `[west, south, east, north]`. */
	bbox: BBox;
	/** Lines only. */
	length?: number;
	/** Only when every vertex had an elevation. */
	ascent?: number;
	descent?: number;
	/** `[distance_m, elevation_m]` pairs, in order of distance. */
	profile?: Array< [ number, number ] >;
}

/** How long the shapes feed may take, in ms (the markers feed's popup waits 10 s; a feed more). */
const FEED_TIMEOUT = 30_000;
/** Points of a profile drawn at most (the server sends ≤ 100). */
const MAX_PROFILE = 1000;

const DEPTH: Record< ShapeGeometry[ 'type' ], number > = {
	LineString: 2,
	MultiLineString: 3,
	Polygon: 3,
	MultiPolygon: 4,
};

function isPosition( value: unknown ): value is number[] {
	return (
		Array.isArray( value ) &&
		value.length >= 2 &&
		value.every( ( n ) => typeof n === 'number' && Number.isFinite( n ) )
	);
}

/**
 * Whether `value` is a non-empty array nested `depth` deep down to positions.
 * @param value
 * @param depth 1: a position.
 */
function isNested( value: unknown, depth: number ): boolean {
	if ( depth === 1 ) {
		return isPosition( value );
	}
	return (
		Array.isArray( value ) &&
		value.length > 0 &&
		value.every( ( item ) => isNested( item, depth - 1 ) )
	);
}

function geometry( value: unknown ): ShapeGeometry | null {
	if ( ! isRecord( value ) || typeof value.type !== 'string' ) {
		return null;
	}
	const depth = DEPTH[ value.type as ShapeGeometry[ 'type' ] ];
	return depth && isNested( value.coordinates, depth )
		? ( value as unknown as ShapeGeometry )
		: null;
}

/**
 * Every position of a geometry's coordinates.
 * @param value Coordinates, checked by `geometry()`.
 */
function positions( value: unknown ): number[][] {
	return isPosition( value )
		? [ value ]
		: ( value as unknown[] ).flatMap( positions );
}

/**
 * Whether `value` is a box the map can fit: four finite numbers, longitudes within ±180 (west
 * east of east when it crosses the antimeridian), south ≤ north within ±90.
 * @param value
 */
function isBox( value: unknown ): value is BBox {
	if (
		! Array.isArray( value ) ||
		value.length !== 4 ||
		! value.every( ( n ) => typeof n === 'number' && Number.isFinite( n ) )
	) {
		return false;
	}
	const [ west, south, east, north ] = value as BBox;
	return (
		Math.abs( west ) <= 180 &&
		Math.abs( east ) <= 180 &&
		-90 <= south &&
		south <= north &&
		north <= 90
	);
}

/**
 * The feed's bbox when it is a box the map can fit (`isBox`); else the geometry's own.
 * @param value
 * @param shape
 */
function bbox( value: unknown, shape: ShapeGeometry ): BBox {
	if ( isBox( value ) ) {
		return value;
	}
	let [ west, south, east, north ] = [ 180, 90, -180, -90 ];
	for ( const [ lng, lat ] of positions( shape.coordinates ) ) {
		west = Math.min( west, lng! );
		east = Math.max( east, lng! );
		south = Math.min( south, lat! );
		north = Math.max( north, lat! );
	}
	return [ west, south, east, north ];
}

function measure( value: unknown ): number | undefined {
	return typeof value === 'number' && Number.isFinite( value ) && value >= 0
		? value
		: undefined;
}

/**
 * An elevation profile as the feed or the popup's answer gives it (`[[distance_m, elevation_m],
 * …]`), read where it enters; undefined when it is not one.
 * @param value Untrusted input.
 */
export function parseProfile(
	value: unknown
): Array< [ number, number ] > | undefined {
	if ( ! Array.isArray( value ) || value.length < 2 ) {
		return undefined;
	}
	const points = value
		.slice( 0, MAX_PROFILE )
		.filter(
			( point ): point is [ number, number ] =>
				Array.isArray( point ) &&
				point.length >= 2 &&
				typeof point[ 0 ] === 'number' &&
				typeof point[ 1 ] === 'number' &&
				Number.isFinite( point[ 0 ] ) &&
				Number.isFinite( point[ 1 ] )
		)
		.map( ( [ distance, elevation ] ): [ number, number ] => [
			distance,
			elevation,
		] );
	return points.length >= 2 ? points : undefined;
}

/**
 * The routes and areas of a feed's body; features that are not one (a point, a malformed
 * geometry, no post id) are left out.
 * @param body The parsed JSON.
 * @throws Error when the body is not a FeatureCollection.
 */
export function parseShapes( body: unknown ): ShapeFeature[] {
	if (
		! isRecord( body ) ||
		body.type !== 'FeatureCollection' ||
		! Array.isArray( body.features )
	) {
		throw new Error( 'Not a FeatureCollection.' );
	}
	return body.features.filter( isRecord ).flatMap( ( feature ) => {
		const shape = geometry( feature.geometry );
		const id = feature.id;
		if (
			! shape ||
			typeof id !== 'number' ||
			! Number.isInteger( id ) ||
			id <= 0
		) {
			return [];
		}
		const props = isRecord( feature.properties ) ? feature.properties : {};
		const groups = Array.isArray( props.groups )
			? props.groups.filter(
					( slug ): slug is string => typeof slug === 'string'
				)
			: [];
		const found: ShapeFeature = {
			id,
			geometry: shape,
			title: typeof props.title === 'string' ? props.title : '',
			groups,
			bbox: bbox( props.bbox, shape ),
		};
		const facts = {
			length: measure( props.length_m ),
			ascent: measure( props.ascent_m ),
			descent: measure( props.descent_m ),
			profile: parseProfile( props.profile ),
		};
		for ( const [ key, fact ] of Object.entries( facts ) ) {
			if ( fact !== undefined ) {
				Object.assign( found, { [ key ]: fact } );
			}
		}
		return [ found ];
	} );
}

/**
 * Fetches and reads the shapes feed, like the markers feed is fetched: same-origin credentials
 * (hosts that answer cookie-less requests with a log-in redirect), JSON, a deadline.
 * @param url The feed's address.
 * @throws Error when it cannot be fetched or read.
 */
export async function fetchShapes( url: string ): Promise< ShapeFeature[] > {
	const response = await window.fetch( url, {
		credentials: 'same-origin',
		headers: { Accept: 'application/geo+json, application/json' },
		signal: AbortSignal.timeout( FEED_TIMEOUT ),
	} );
	if ( ! response.ok ) {
		throw new Error( `The shapes feed answered ${ response.status }.` );
	}
	return parseShapes( await response.json() );
}
