<?php
/**
 * The one rule for a marker's shape (a line or an area), wherever it comes from.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

use Cairn\Maps\Support\Limits;

defined( 'ABSPATH' ) || exit;

use WP_Error;

/**
 * What a shape must be: a GeoJSON geometry of type LineString, MultiLineString, Polygon or
 * MultiPolygon (RFC 7946), with positions of finite numbers `[longitude, latitude]` or
 * `[longitude, latitude, elevation]` within range, at most max_vertices() positions in max_parts()
 * parts; lines with at least two different positions; polygon rings closed, of at least four
 * positions, and areas valid as OGC Simple Features define it (Ring_Crossings::fault()): rings
 * that neither cross, run along nor touch themselves, may touch other rings at single points
 * without cutting the inside apart; holes inside their outer ring and not inside each other; the
 * polygons of a MultiPolygon not overlapping.
 *
 * The answer of check() is the normalised geometry (floats, longitudes and latitudes rounded to
 * 7 decimals, about 1 cm, elevations to 0.1 m, a fourth number such as a time dropped, repeated
 * consecutive positions of rings dropped) or a 400 whose message names the part, ring and
 * position at fault.
 * Vertices are counted before anything else, so a million-position geometry is refused at once.
 *
 * Not checked: the winding order (RFC 7946 asks readers not to refuse either winding).
 *
 * @since 0.5.0
 */
final class Geometry_Rule {

	public const ERROR_CODE = 'cairn_invalid_geometry';

	/**
	 * The most positions a shape may have, over all its parts (limits.json `shape.maxVertices`,
	 * which the editor's paste check reads too).
	 */
	public static function max_vertices(): int {
		static $max   = null; // Read once: the importers ask for every position.
		return $max ??= (int) Limits::get( 'shape.maxVertices' );
	}

	/**
	 * The most parts (lines, or rings over all polygons) a shape may have (limits.json
	 * `shape.maxParts`).
	 */
	public static function max_parts(): int {
		static $max   = null;
		return $max ??= (int) Limits::get( 'shape.maxParts' );
	}

	/**
	 * The geometry types a shape may have.
	 */
	public const TYPES = array( 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon' );

	/**
	 * Elevations beyond this many metres (above or below sea level) are refused as nonsense.
	 */
	private const MAX_ELEVATION = 100000;

	/**
	 * Checks and normalises a geometry.
	 *
	 * @param mixed $value A GeoJSON geometry as json_decode( …, true ) gives it.
	 * @return array{type: string, coordinates: array<int, mixed>}|WP_Error The normalised geometry,
	 *         or the reason it is refused (code cairn_invalid_geometry, status 400).
	 */
	public static function check( mixed $value ): array|WP_Error {
		if ( ! is_array( $value ) || ! isset( $value['type'] ) || ! is_string( $value['type'] ) ) {
			return self::error( __( 'A shape must be a GeoJSON geometry: an object with a "type" and "coordinates".', 'cairn-maps' ) );
		}
		$type = $value['type'];
		if ( 'Point' === $type || 'MultiPoint' === $type ) {
			return self::error(
				/* translators: %s: the GeoJSON type, Point or MultiPoint. */
				sprintf( __( 'A %s is not a shape: a marker\'s point is its latitude and longitude. A shape is a LineString, MultiLineString, Polygon or MultiPolygon.', 'cairn-maps' ), $type )
			);
		}
		if ( 'GeometryCollection' === $type ) {
			return self::error( __( 'A GeometryCollection is not accepted: give each line or area a marker of its own. A shape is a LineString, MultiLineString, Polygon or MultiPolygon.', 'cairn-maps' ) );
		}
		if ( ! in_array( $type, self::TYPES, true ) ) {
			return self::error(
				/* translators: %s: the type given. */
				sprintf( __( '"%s" is not a geometry type a shape may have: use LineString, MultiLineString, Polygon or MultiPolygon.', 'cairn-maps' ), self::excerpt( $type ) )
			);
		}
		$coordinates = $value['coordinates'] ?? null;
		$parts       = self::parts( $type, $coordinates );
		if ( $parts instanceof WP_Error ) {
			return $parts;
		}
		$counted = self::count( $parts );
		if ( $counted instanceof WP_Error ) {
			return $counted;
		}

		$area = 'Polygon' === $type || 'MultiPolygon' === $type;
		$out  = array();
		$kept = array();
		foreach ( $parts as $index => list( $where, $positions ) ) {
			$normal = self::positions( $positions, $where );
			if ( $normal instanceof WP_Error ) {
				return $normal;
			}
			$kept[ $index ] = array();
			$checked        = $area ? self::ring( $normal, $where, $kept[ $index ] ) : self::line( $normal, $where );
			if ( $checked instanceof WP_Error ) {
				return $checked;
			}
			$out[ $index ] = $checked;
		}
		$coordinates = self::assemble( $type, $coordinates, $out );
		if ( $area ) {
			$crossing = self::crossing( $type, $coordinates, $kept );
			if ( $crossing instanceof WP_Error ) {
				return $crossing;
			}
		}
		return array(
			'type'        => $type,
			'coordinates' => $coordinates,
		);
	}

	/**
	 * The lists of positions of a geometry, each with the words that name it for a user.
	 *
	 * @param string $type        One of TYPES.
	 * @param mixed  $coordinates The geometry's coordinates.
	 * @return array<int, array{0: string, 1: mixed}>|WP_Error
	 */
	private static function parts( string $type, mixed $coordinates ): array|WP_Error {
		if ( ! is_array( $coordinates ) || ! array_is_list( $coordinates ) || array() === $coordinates ) {
			return self::error(
				/* translators: %s: the geometry type. */
				sprintf( __( 'The %s has no coordinates: "coordinates" must be a non-empty list.', 'cairn-maps' ), $type )
			);
		}
		if ( 'LineString' === $type ) {
			return array( array( __( 'the line', 'cairn-maps' ), $coordinates ) );
		}
		$parts = array();
		if ( 'MultiLineString' === $type || 'Polygon' === $type ) {
			if ( count( $coordinates ) > self::max_parts() ) {
				return self::too_many_parts( count( $coordinates ) );
			}
			foreach ( $coordinates as $i => $positions ) {
				$parts[] = array(
					'MultiLineString' === $type
						/* translators: %s: the line's number (1 is the first). */
						? sprintf( __( 'line %s', 'cairn-maps' ), number_format_i18n( $i + 1 ) )
						/* translators: %s: the ring's number (1 is the outer ring, 2 and after are holes). */
						: sprintf( __( 'ring %s', 'cairn-maps' ), number_format_i18n( $i + 1 ) ),
					$positions,
				);
			}
			return $parts;
		}
		foreach ( $coordinates as $p => $rings ) {
			if ( ! is_array( $rings ) || ! array_is_list( $rings ) || array() === $rings ) {
				return self::error(
					/* translators: %s: the polygon's number (1 is the first). */
					sprintf( __( 'Polygon %s has no rings: it must be a non-empty list of rings.', 'cairn-maps' ), number_format_i18n( $p + 1 ) )
				);
			}
			if ( count( $parts ) + count( $rings ) > self::max_parts() ) {
				return self::too_many_parts( count( $parts ) + count( $rings ) );
			}
			foreach ( $rings as $r => $positions ) {
				$parts[] = array(
					/* translators: 1: the ring's number (1 is the outer ring), 2: the polygon's number. */
					sprintf( __( 'ring %1$s of polygon %2$s', 'cairn-maps' ), number_format_i18n( $r + 1 ), number_format_i18n( $p + 1 ) ),
					$positions,
				);
			}
		}
		return $parts;
	}

	/**
	 * Counts positions before any deep work, and refuses too many.
	 *
	 * @param array<int, array{0: string, 1: mixed}> $parts See parts().
	 * @return int|WP_Error The number of positions.
	 */
	private static function count( array $parts ): int|WP_Error {
		$total = 0;
		foreach ( $parts as list( $where, $positions ) ) {
			if ( ! is_array( $positions ) || ! array_is_list( $positions ) ) {
				return self::error(
					/* translators: %s: the part, e.g. "line 2" or "ring 1 of polygon 3". */
					ucfirst( sprintf( __( '%s must be a list of positions.', 'cairn-maps' ), $where ) )
				);
			}
			$total += count( $positions );
		}
		if ( $total > self::max_vertices() ) {
			return self::too_many_vertices( $total );
		}
		return $total;
	}

	/**
	 * The refusal of too many vertices.
	 *
	 * @param int $count Vertices given.
	 */
	public static function too_many_vertices( int $count ): WP_Error {
		return self::error(
			sprintf(
				/* translators: 1: the number of positions given, 2: the most allowed. */
				__( 'This shape has %1$s vertices; the most a shape may have is %2$s. Simplify it first (most GPS and GIS tools can).', 'cairn-maps' ),
				number_format_i18n( $count ),
				number_format_i18n( self::max_vertices() )
			)
		);
	}

	/**
	 * The refusal of too many parts.
	 *
	 * @param int $count Parts given (at least).
	 */
	private static function too_many_parts( int $count ): WP_Error {
		return self::error(
			sprintf(
				/* translators: 1: the number of parts given, 2: the most allowed. */
				__( 'This shape has %1$s parts (lines or rings); the most a shape may have is %2$s.', 'cairn-maps' ),
				number_format_i18n( $count ),
				number_format_i18n( self::max_parts() )
			)
		);
	}

	/**
	 * Checks and normalises the positions of one part.
	 *
	 * @param array<int, mixed> $positions Positions as given.
	 * @param string            $where     The part's name for messages.
	 * @return array<int, array<int, float>>|WP_Error
	 */
	private static function positions( array $positions, string $where ): array|WP_Error {
		$out = array();
		foreach ( $positions as $i => $position ) {
			if ( ! is_array( $position ) || ! array_is_list( $position ) || count( $position ) < 2 ) {
				return self::position_error( $i, $where, __( 'it must be a list of numbers: [longitude, latitude] or [longitude, latitude, elevation].', 'cairn-maps' ) );
			}
			$numbers = array();
			foreach ( array_slice( $position, 0, 3 ) as $number ) {
				if ( ! ( is_int( $number ) || is_float( $number ) ) || ! is_finite( (float) $number ) ) {
					return self::position_error( $i, $where, __( 'its longitude, latitude and elevation must be numbers.', 'cairn-maps' ) );
				}
				$numbers[] = (float) $number;
			}
			if ( $numbers[0] < -180.0 || $numbers[0] > 180.0 ) {
				/* translators: %s: the longitude given. */
				return self::position_error( $i, $where, sprintf( __( 'its longitude %s is not between -180 and 180 (positions are [longitude, latitude]).', 'cairn-maps' ), (string) $numbers[0] ) );
			}
			if ( $numbers[1] < -90.0 || $numbers[1] > 90.0 ) {
				/* translators: %s: the latitude given. */
				return self::position_error( $i, $where, sprintf( __( 'its latitude %s is not between -90 and 90 (positions are [longitude, latitude]).', 'cairn-maps' ), (string) $numbers[1] ) );
			}
			$normal = array( round( $numbers[0], 7 ), round( $numbers[1], 7 ) );
			if ( isset( $numbers[2] ) ) {
				if ( abs( $numbers[2] ) > self::MAX_ELEVATION ) {
					/* translators: %s: the elevation given. */
					return self::position_error( $i, $where, sprintf( __( 'its elevation %s m is not a real elevation.', 'cairn-maps' ), (string) $numbers[2] ) );
				}
				$normal[] = round( $numbers[2], 1 );
			}
			$out[] = $normal;
		}
		return $out;
	}

	/**
	 * A line needs two different positions.
	 *
	 * @param array<int, array<int, float>> $positions Normalised positions.
	 * @param string                        $where     The part's name for messages.
	 * @return array<int, array<int, float>>|WP_Error
	 */
	private static function line( array $positions, string $where ): array|WP_Error {
		foreach ( $positions as $position ) {
			if ( $position[0] !== $positions[0][0] || $position[1] !== $positions[0][1] ) {
				return $positions;
			}
		}
		return self::error(
			/* translators: %s: the part, e.g. "the line" or "line 2". */
			ucfirst( sprintf( __( '%s needs at least 2 different positions.', 'cairn-maps' ), $where ) )
		);
	}

	/**
	 * A ring must be closed and have at least 4 positions (3 corners and the first again), once
	 * repeated consecutive positions are dropped.
	 *
	 * @param array<int, array<int, float>>     $positions Normalised positions.
	 * @param string                            $where     The part's name for messages.
	 * @param array<int, array{0: int, 1: int}> $kept   Set to the indexes given of each position
	 *                                                 kept: its first and last repeat.
	 * @return array<int, array<int, float>>|WP_Error
	 */
	private static function ring( array $positions, string $where, array &$kept ): array|WP_Error {
		$first = $positions[0];
		$last  = $positions[ count( $positions ) - 1 ];
		if ( $first[0] !== $last[0] || $first[1] !== $last[1] ) {
			return self::error(
				/* translators: %s: the ring, e.g. "ring 1" or "ring 2 of polygon 3". */
				ucfirst( sprintf( __( '%s is not closed: its last position must repeat its first.', 'cairn-maps' ), $where ) )
			);
		}
		$out  = array( $first );
		$kept = array( array( 0, 0 ) );
		$top  = 0;
		$n    = count( $positions );
		for ( $i = 1; $i < $n; $i++ ) {
			if ( $positions[ $i ][0] !== $out[ $top ][0] || $positions[ $i ][1] !== $out[ $top ][1] ) {
				$out[]  = $positions[ $i ];
				$kept[] = array( $i, $i );
				++$top;
			} else {
				$kept[ $top ] = array( $kept[ $top ][0], $i );
			}
		}
		if ( 0 === $top ) {
			$out[] = $first;
			++$top;
		}
		$out[ $top ] = $first;
		if ( count( $out ) < 4 ) {
			return self::error(
				/* translators: %s: the ring, e.g. "ring 1" or "ring 2 of polygon 3". */
				ucfirst( sprintf( __( '%s needs at least 4 positions: 3 different corners, and the first again to close it.', 'cairn-maps' ), $where ) )
			);
		}
		return $out;
	}

	/**
	 * Puts normalised parts back into the geometry's nesting.
	 *
	 * @param string                                    $type        One of TYPES.
	 * @param array<int, mixed>                         $coordinates Coordinates as given.
	 * @param array<int, array<int, array<int, float>>> $parts       Normalised parts, in order.
	 * @return array<int, mixed>
	 */
	private static function assemble( string $type, array $coordinates, array $parts ): array {
		if ( 'LineString' === $type ) {
			return $parts[0];
		}
		if ( 'MultiPolygon' !== $type ) {
			return array_values( $parts );
		}
		$out  = array();
		$next = 0;
		foreach ( $coordinates as $rings ) {
			$polygon = array();
			foreach ( (array) $rings as $unused ) {
				$polygon[] = $parts[ $next++ ];
			}
			$out[] = $polygon;
		}
		return $out;
	}

	/**
	 * The first fault of the rings as a polygon or a MultiPolygon (Ring_Crossings::fault()), named.
	 *
	 * @param string                                        $type        Polygon or MultiPolygon.
	 * @param array<int, mixed>                             $coordinates Normalised coordinates.
	 * @param array<int, array<int, array{0: int, 1: int}>> $kept Per ring (in order over all
	 *        polygons), the indexes given of each position kept (first and last repeat).
	 */
	private static function crossing( string $type, array $coordinates, array $kept ): ?WP_Error {
		$polygons = 'Polygon' === $type ? array( $coordinates ) : $coordinates;
		$fault    = Ring_Crossings::fault( $polygons );
		if ( null === $fault ) {
			return null;
		}
		$offsets = array();
		$first   = 0;
		foreach ( $polygons as $p => $rings ) {
			$offsets[ $p ] = $first;
			$first        += count( $rings );
		}
		$name              = static function ( int $p, int $ring ) use ( $type ): string {
			return 'Polygon' === $type
				/* translators: %s: the ring's number (1 is the outer ring). */
				? sprintf( __( 'ring %s', 'cairn-maps' ), number_format_i18n( $ring + 1 ) )
				/* translators: 1: the ring's number (1 is the outer ring), 2: the polygon's number. */
				: sprintf( __( 'ring %1$s of polygon %2$s', 'cairn-maps' ), number_format_i18n( $ring + 1 ), number_format_i18n( $p + 1 ) );
		};
		$position          = static function ( int $p, int $ring, int $index ) use ( $kept, $offsets ): string {
			return number_format_i18n( $kept[ $offsets[ $p ] + $ring ][ $index ][0] + 1 );
		};
		list( $kind, $at ) = $fault;
		switch ( $kind ) {
			case 'cross':
				list( $pa, $ra, $ea, $pb, $rb, $eb ) = $at;
				$edge                                = static function ( int $p, int $ring, int $edge ) use ( $name, $kept, $offsets ): string {
					return sprintf(
						/* translators: 1: the first position's number, 2: the next position's number, 3: the ring, e.g. "ring 1 of polygon 2". */
						__( 'the edge from position %1$s to position %2$s of %3$s', 'cairn-maps' ),
						number_format_i18n( $kept[ $offsets[ $p ] + $ring ][ $edge ][1] + 1 ),
						number_format_i18n( $kept[ $offsets[ $p ] + $ring ][ $edge + 1 ][0] + 1 ),
						$name( $p, $ring )
					);
				};
				return self::error(
					sprintf(
						/* translators: 1: the ring that crosses, 2: an edge of it, 3: the edge it meets (crossing it, or running along it). */
						__( 'The area is not simple: %1$s crosses or touches itself or another ring (%2$s meets %3$s).', 'cairn-maps' ),
						ucfirst( $name( $pa, $ra ) ),
						$edge( $pa, $ra, $ea ),
						$edge( $pb, $rb, $eb )
					)
				);
			case 'cross_at':
				list( $pa, $ra, $pb, $rb, $x, $y ) = $at;
				return self::error(
					sprintf(
						/* translators: 1: a ring, e.g. "ring 1 of polygon 2", 2: another ring, 3: longitude, 4: latitude. */
						__( 'The area is not simple: %1$s crosses %2$s at [%3$s, %4$s], where they meet.', 'cairn-maps' ),
						ucfirst( $name( $pa, $ra ) ),
						$name( $pb, $rb ),
						(string) $x,
						(string) $y
					)
				);
			case 'self':
				list( $p, $ring, $index ) = $at;
				return self::error(
					sprintf(
						/* translators: 1: the ring, e.g. "ring 1 of polygon 2", 2: the position's number. */
						__( 'The area is not simple: %1$s touches itself at position %2$s. A ring may touch another ring at one point, never itself: draw the loop as a ring of its own.', 'cairn-maps' ),
						ucfirst( $name( $p, $ring ) ),
						$position( $p, $ring, $index )
					)
				);
			case 'split':
				list( $p, $ring, $x, $y ) = $at;
				return self::error(
					sprintf(
						/* translators: 1: the ring, e.g. "ring 2 of polygon 1", 2: longitude, 3: latitude. */
						__( 'The area is cut in pieces: %1$s touches the other rings at [%2$s, %3$s] and at another point, so together they close off part of the inside. Rings may touch at single points, but not so that they enclose part of the area.', 'cairn-maps' ),
						ucfirst( $name( $p, $ring ) ),
						(string) $x,
						(string) $y
					)
				);
			case 'outside':
				list( $p, $ring ) = $at;
				return self::error(
					sprintf(
						/* translators: 1: the hole, e.g. "ring 2 of polygon 1", 2: the outer ring, e.g. "ring 1 of polygon 1". */
						__( '%1$s is a hole outside its outer ring, %2$s: a hole must lie inside the outer ring (it may touch it at one point).', 'cairn-maps' ),
						ucfirst( $name( $p, $ring ) ),
						$name( $p, 0 )
					)
				);
			case 'nested':
				list( $p, $ring, $outer ) = $at;
				return self::error(
					sprintf(
						/* translators: 1: the inner hole, e.g. "ring 3 of polygon 1", 2: the hole around it. */
						__( '%1$s is a hole inside another hole, %2$s: holes may touch each other at one point, never lie inside each other. To draw an island in a hole, make it a polygon of its own.', 'cairn-maps' ),
						ucfirst( $name( $p, $ring ) ),
						$name( $p, $outer )
					)
				);
			default:
				list( $p, $q ) = $at;
				return self::error(
					sprintf(
						/* translators: 1: the polygon's number, 2: the other polygon's number. */
						__( 'Polygon %1$s lies inside polygon %2$s: the polygons of a MultiPolygon may touch at points, never overlap. Make the inner one a hole of the other, or join them.', 'cairn-maps' ),
						number_format_i18n( $p + 1 ),
						number_format_i18n( $q + 1 )
					)
				);
		}
	}

	/**
	 * The refusal of one position.
	 *
	 * @param int    $index   Position index (0-based).
	 * @param string $where   The part's name.
	 * @param string $problem What is wrong with it.
	 */
	private static function position_error( int $index, string $where, string $problem ): WP_Error {
		return self::error(
			/* translators: 1: the position's number (1 is the first), 2: the part, e.g. "line 2", 3: what is wrong. */
			sprintf( __( 'Position %1$s of %2$s is not valid: %3$s', 'cairn-maps' ), number_format_i18n( $index + 1 ), $where, $problem )
		);
	}

	/**
	 * A short, safe excerpt of a user's text for a message.
	 *
	 * @param string $text Text.
	 */
	private static function excerpt( string $text ): string {
		$text = wp_check_invalid_utf8( $text );
		return mb_strlen( $text ) > 40 ? mb_substr( $text, 0, 40 ) . '…' : $text;
	}

	/**
	 * A refusal.
	 *
	 * @param string $message What is wrong, for a user.
	 */
	private static function error( string $message ): WP_Error {
		return new WP_Error( self::ERROR_CODE, $message, array( 'status' => 400 ) );
	}
}
