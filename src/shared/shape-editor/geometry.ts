/**
 * Shapes as the editor handles them: the four GeoJSON geometry types a marker may carry
 * (`meta.cairn_geometry`), read from what an editor pasted, with a message a person understands
 * when it is not one. The server (Markers\Geometry_Rule) has the final word on save; this check
 * answers at once and catches the usual mistakes (a Point, a whole collection, an open ring).
 */
import type {
	LineString,
	MultiLineString,
	MultiPolygon,
	Polygon,
	Position,
} from 'geojson';
import { __, _n, sprintf } from '@wordpress/i18n';
import { LIMITS, isRecord } from '@cairn-maps/map/plugin';

export type ShapeGeometry =
	LineString | MultiLineString | Polygon | MultiPolygon;

export type ShapeKind = 'line' | 'area';

/** The most vertices a shape may have (limits.json, which the server's Geometry_Rule reads too). */
export const MAX_VERTICES = LIMITS.shape.maxVertices;

const TYPES = [ 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon' ];

/** What reading a text gave: the geometry, or why there is none. */
export type PasteResult =
	| { geometry: ShapeGeometry; error?: undefined }
	| { geometry?: undefined; error: string };

/** Whether a shape is a route (a line) or an area. */
export function shapeKind( geometry: ShapeGeometry ): ShapeKind {
	return geometry.type === 'LineString' || geometry.type === 'MultiLineString'
		? 'line'
		: 'area';
}

/**
 * The stored meta value as a shape, or null (no shape, or a value this editor cannot show).
 * @param value `meta.cairn_geometry` as the REST API gives it.
 */
export function readShape( value: unknown ): ShapeGeometry | null {
	if ( ! isRecord( value ) || ! TYPES.includes( String( value.type ) ) ) {
		return null;
	}
	return Array.isArray( value.coordinates )
		? ( value as unknown as ShapeGeometry )
		: null;
}

/** Every position of a shape, ring by ring. */
export function positionsOf( geometry: ShapeGeometry ): Position[][] {
	switch ( geometry.type ) {
		case 'LineString':
			return [ geometry.coordinates ];
		case 'MultiLineString':
		case 'Polygon':
			return geometry.coordinates;
		case 'MultiPolygon':
			return geometry.coordinates.flat();
	}
}

/** A copy with positions rounded to 6 decimals (about 10 cm), as drawn shapes are stored. */
export function roundShape( geometry: ShapeGeometry ): ShapeGeometry {
	const round = ( position: Position ): Position =>
		position.map( ( value ) => Math.round( value * 1e6 ) / 1e6 );
	switch ( geometry.type ) {
		case 'LineString':
			return {
				type: geometry.type,
				coordinates: geometry.coordinates.map( round ),
			};
		case 'MultiLineString':
		case 'Polygon':
			return {
				type: geometry.type,
				coordinates: geometry.coordinates.map( ( part ) =>
					part.map( round )
				),
			} as ShapeGeometry;
		case 'MultiPolygon':
			return {
				type: geometry.type,
				coordinates: geometry.coordinates.map( ( polygon ) =>
					polygon.map( ( ring ) => ring.map( round ) )
				),
			};
	}
}

/** Why a position is not one, or ''. */
function positionError( value: unknown ): string {
	if (
		! Array.isArray( value ) ||
		value.length < 2 ||
		value.length > 3 ||
		! value.every(
			( part ) => typeof part === 'number' && Number.isFinite( part )
		)
	) {
		return __(
			'Each position must be [longitude, latitude] or [longitude, latitude, elevation], in numbers.',
			'cairn-maps'
		);
	}
	const [ lng, lat ] = value as [ number, number ];
	if ( lng < -180 || lng > 180 || lat < -90 || lat > 90 ) {
		return sprintf(
			/* translators: 1: longitude, 2: latitude. */
			__(
				'The position %1$s, %2$s is out of range: longitudes go from -180 to 180, latitudes from -90 to 90.',
				'cairn-maps'
			),
			String( lng ),
			String( lat )
		);
	}
	return '';
}

/** Why a list of positions is not a line (or a ring, when `ring` is its 1-based number), or ''. */
function partError( value: unknown, ring: number ): string {
	if ( ! Array.isArray( value ) ) {
		return __(
			'The coordinates are not nested as the type needs.',
			'cairn-maps'
		);
	}
	for ( const position of value ) {
		const error = positionError( position );
		if ( error ) {
			return error;
		}
	}
	const positions = value as Array< [ number, number ] >;
	if ( ring === 0 ) {
		return positions.length < 2
			? __( 'A line needs at least 2 positions.', 'cairn-maps' )
			: '';
	}
	if ( positions.length < 4 ) {
		return sprintf(
			/* translators: %d: the ring's number (1 is the outer ring). */
			__(
				'Polygon ring %d needs at least 4 positions (3 corners and the first again).',
				'cairn-maps'
			),
			ring
		);
	}
	const first = positions[ 0 ] as [ number, number ];
	const last = positions[ positions.length - 1 ] as [ number, number ];
	return first[ 0 ] === last[ 0 ] && first[ 1 ] === last[ 1 ]
		? ''
		: sprintf(
				/* translators: %d: the ring's number (1 is the outer ring). */
				__(
					'Polygon ring %d is not closed: its last position must repeat its first.',
					'cairn-maps'
				),
				ring
			);
}

/** The lines or rings to check, each with its ring number (0 for a line's parts). */
function partsOf(
	type: string,
	coordinates: unknown
): Array< [ unknown, number ] > | null {
	if ( ! Array.isArray( coordinates ) ) {
		return null;
	}
	switch ( type ) {
		case 'LineString':
			return [ [ coordinates, 0 ] ];
		case 'MultiLineString':
			return coordinates.map( ( line ) => [ line, 0 ] );
		case 'Polygon':
			return coordinates.map( ( ring, index ) => [ ring, index + 1 ] );
	}
	// MultiPolygon: each polygon's rings, numbered within their polygon.
	if ( ! coordinates.every( Array.isArray ) ) {
		return null;
	}
	return ( coordinates as unknown[][] ).flatMap( ( polygon ) =>
		polygon.map( ( ring, index ): [ unknown, number ] => [
			ring,
			index + 1,
		] )
	);
}

/** The geometry an object holds (itself, a Feature's, a one-feature collection's), or why not. */
function geometryOf(
	value: Record< string, unknown >
): PasteResult | Record< string, unknown > {
	if ( value.type === 'FeatureCollection' ) {
		const features = Array.isArray( value.features ) ? value.features : [];
		if ( features.length !== 1 ) {
			return {
				error: sprintf(
					/* translators: %d: how many features the pasted collection holds. */
					_n(
						'The collection holds %d feature; paste a collection with exactly one shape.',
						'The collection holds %d features; paste a collection with exactly one shape.',
						features.length,
						'cairn-maps'
					),
					features.length
				),
			};
		}
		return isRecord( features[ 0 ] )
			? geometryOf( features[ 0 ] )
			: {
					error: __(
						'The collection’s feature is not an object.',
						'cairn-maps'
					),
				};
	}
	if ( value.type === 'Feature' ) {
		return isRecord( value.geometry )
			? value.geometry
			: { error: __( 'The feature has no geometry.', 'cairn-maps' ) };
	}
	return value;
}

/**
 * Reads pasted GeoJSON: a LineString, MultiLineString, Polygon or MultiPolygon, or a Feature or a
 * FeatureCollection holding exactly one of them.
 * @param text What the editor pasted.
 */
export function parseShapeText( text: string ): PasteResult {
	let parsed: unknown;
	try {
		parsed = JSON.parse( text );
	} catch {
		return {
			error: __(
				'This is not GeoJSON: the text could not be read as JSON.',
				'cairn-maps'
			),
		};
	}
	if ( ! isRecord( parsed ) ) {
		return {
			error: __(
				'This is not GeoJSON: expected an object with a "type".',
				'cairn-maps'
			),
		};
	}
	const found = geometryOf( parsed );
	if ( 'error' in found && typeof found.error === 'string' ) {
		return { error: found.error };
	}
	const geometry = found as Record< string, unknown >;
	const type = String( geometry.type ?? '' );
	if ( ! TYPES.includes( type ) ) {
		return {
			error: sprintf(
				/* translators: %s: a GeoJSON type, such as Point. */
				__(
					'A %s is not a route or an area: paste a LineString, MultiLineString, Polygon or MultiPolygon.',
					'cairn-maps'
				),
				type || __( 'value without a type', 'cairn-maps' )
			),
		};
	}
	const parts = partsOf( type, geometry.coordinates );
	if ( ! parts || parts.length === 0 ) {
		return {
			error: __(
				'The coordinates are not nested as the type needs.',
				'cairn-maps'
			),
		};
	}
	let vertices = 0;
	for ( const [ part, ring ] of parts ) {
		const error = partError( part, ring );
		if ( error ) {
			return { error };
		}
		vertices += ( part as unknown[] ).length;
	}
	if ( vertices > MAX_VERTICES ) {
		return {
			error: sprintf(
				/* translators: 1: the shape's vertex count, 2: the most a shape may have. */
				__(
					'This shape has %1$s vertices; the most a shape may have is %2$s.',
					'cairn-maps'
				),
				vertices.toLocaleString(),
				MAX_VERTICES.toLocaleString()
			),
		};
	}
	return {
		geometry: { type, coordinates: geometry.coordinates } as ShapeGeometry,
	};
}
