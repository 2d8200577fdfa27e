<?php
/**
 * What a hiker wants to know about a shape: where it starts, how long it is, how much it climbs.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

defined( 'ABSPATH' ) || exit;

/**
 * Measures of a geometry checked by Geometry_Rule.
 *
 * - anchor(): the marker's point. A line's first position; an area's label point, inside it: the
 *   centroid of the largest polygon's outer ring when it lies inside the polygon (holes excluded),
 *   else the middle of the widest stretch of a horizontal line through that centroid that lies
 *   inside the polygon.
 * - length_m(): along the surface of a sphere of the Earth's mean radius (haversine), lines only;
 *   a MultiLineString adds its lines, not the gaps between them.
 * - climb(): ascent and descent in metres, only when every position has an elevation. A change
 *   counts once it reaches CLIMB_THRESHOLD metres from the last counted elevation, so GPS noise of
 *   a metre or two on a flat path adds nothing (the way GPS watches and route planners count).
 * - profile(): at most PROFILE_POINTS [distance, elevation] pairs in whole metres, taken at equal
 *   distances along the line (interpolated between positions), for the popup's chart.
 *
 * @since 0.5.0
 */
final class Geometry_Measures {

	/**
	 * The Earth's mean radius in metres (IUGG): 1° of a meridian is 111,195 m.
	 */
	public const EARTH_RADIUS = 6371008.8;

	/**
	 * The smallest change of elevation that counts as climbing or descending, in metres.
	 */
	public const CLIMB_THRESHOLD = 3.0;

	/**
	 * The most points of an elevation profile.
	 */
	public const PROFILE_POINTS = 100;

	/**
	 * The marker's point for a shape: a line's first position, an area's label point.
	 *
	 * @param array{type: string, coordinates: array<int, mixed>} $geometry A checked geometry.
	 * @return array{lat: float, lng: float}
	 */
	public static function anchor( array $geometry ): array {
		$coordinates = $geometry['coordinates'];
		switch ( $geometry['type'] ) {
			case 'LineString':
				$first = $coordinates[0];
				break;
			case 'MultiLineString':
				$first = $coordinates[0][0];
				break;
			default:
				$first = self::label_point( 'Polygon' === $geometry['type'] ? $coordinates : self::largest( $coordinates ) );
		}
		return array(
			'lat' => (float) $first[1],
			'lng' => (float) $first[0],
		);
	}

	/**
	 * The bounding box [west, south, east, north].
	 *
	 * @param array{type: string, coordinates: array<int, mixed>} $geometry A checked geometry.
	 * @return array{0: float, 1: float, 2: float, 3: float}
	 */
	public static function bbox( array $geometry ): array {
		$w = INF;
		$s = INF;
		$e = -INF;
		$n = -INF;
		foreach ( self::parts( $geometry ) as $positions ) {
			foreach ( $positions as $p ) {
				$w = min( $w, $p[0] );
				$e = max( $e, $p[0] );
				$s = min( $s, $p[1] );
				$n = max( $n, $p[1] );
			}
		}
		return array( (float) $w, (float) $s, (float) $e, (float) $n );
	}

	/**
	 * The length of a line in metres, or null for an area.
	 *
	 * @param array{type: string, coordinates: array<int, mixed>} $geometry A checked geometry.
	 */
	public static function length_m( array $geometry ): ?float {
		if ( ! self::is_line( $geometry ) ) {
			return null;
		}
		$total = 0.0;
		foreach ( self::parts( $geometry ) as $positions ) {
			$count = count( $positions );
			for ( $i = 1; $i < $count; $i++ ) {
				$total += self::distance( $positions[ $i - 1 ], $positions[ $i ] );
			}
		}
		return $total;
	}

	/**
	 * Ascent and descent of a line in metres, or null when it is an area or a position has no
	 * elevation.
	 *
	 * @param array{type: string, coordinates: array<int, mixed>} $geometry A checked geometry.
	 * @return array{ascent: float, descent: float}|null
	 */
	public static function climb( array $geometry ): ?array {
		if ( ! self::is_line( $geometry ) || ! self::has_elevation( $geometry ) ) {
			return null;
		}
		$ascent  = 0.0;
		$descent = 0.0;
		foreach ( self::parts( $geometry ) as $positions ) {
			$base = (float) $positions[0][2];
			foreach ( $positions as $p ) {
				$change = (float) $p[2] - $base;
				if ( $change >= self::CLIMB_THRESHOLD ) {
					$ascent += $change;
					$base    = (float) $p[2];
				} elseif ( -$change >= self::CLIMB_THRESHOLD ) {
					$descent -= $change;
					$base     = (float) $p[2];
				}
			}
		}
		return array(
			'ascent'  => $ascent,
			'descent' => $descent,
		);
	}

	/**
	 * The elevation profile of a line: [distance_m, elevation_m] pairs in whole metres, at most
	 * PROFILE_POINTS, or null when it is an area or a position has no elevation.
	 *
	 * @param array{type: string, coordinates: array<int, mixed>} $geometry A checked geometry.
	 * @return array<int, array{0: int, 1: int}>|null
	 */
	public static function profile( array $geometry ): ?array {
		if ( ! self::is_line( $geometry ) || ! self::has_elevation( $geometry ) ) {
			return null;
		}
		$distances  = array();
		$elevations = array();
		$along      = 0.0;
		foreach ( self::parts( $geometry ) as $positions ) {
			$previous = null;
			foreach ( $positions as $p ) {
				if ( null !== $previous ) {
					$along += self::distance( $previous, $p );
				}
				$distances[]  = $along;
				$elevations[] = (float) $p[2];
				$previous     = $p;
			}
		}
		$count = count( $distances );
		if ( $count <= self::PROFILE_POINTS ) {
			$profile = array();
			foreach ( $distances as $i => $d ) {
				$profile[] = array( (int) round( $d ), (int) round( $elevations[ $i ] ) );
			}
			return $profile;
		}
		$profile = array();
		$at      = 0;
		$steps   = self::PROFILE_POINTS - 1;
		for ( $k = 0; $k <= $steps; $k++ ) {
			$target = $along * $k / $steps;
			while ( $at < $count - 2 && $distances[ $at + 1 ] < $target ) {
				++$at;
			}
			$span      = $distances[ $at + 1 ] - $distances[ $at ];
			$share     = $span > 0.0 ? min( 1.0, max( 0.0, ( $target - $distances[ $at ] ) / $span ) ) : 1.0;
			$elevation = $elevations[ $at ] + ( $elevations[ $at + 1 ] - $elevations[ $at ] ) * $share;
			$profile[] = array( (int) round( $target ), (int) round( $elevation ) );
		}
		return $profile;
	}

	/**
	 * The great-circle distance between two positions, in metres (haversine).
	 *
	 * @param array<int, float> $a [lng, lat, …].
	 * @param array<int, float> $b [lng, lat, …].
	 */
	public static function distance( array $a, array $b ): float {
		$lat1 = deg2rad( $a[1] );
		$lat2 = deg2rad( $b[1] );
		$h    = sin( ( $lat2 - $lat1 ) / 2 ) ** 2 + cos( $lat1 ) * cos( $lat2 ) * sin( deg2rad( $b[0] - $a[0] ) / 2 ) ** 2;
		return 2 * self::EARTH_RADIUS * asin( min( 1.0, sqrt( $h ) ) );
	}

	/**
	 * The lists of positions of a geometry: its lines, or all rings of its polygons.
	 *
	 * @param array{type: string, coordinates: array<int, mixed>} $geometry A checked geometry.
	 * @return array<int, array<int, array<int, float>>>
	 */
	public static function parts( array $geometry ): array {
		switch ( $geometry['type'] ) {
			case 'LineString':
				return array( $geometry['coordinates'] );
			case 'MultiPolygon':
				return array_merge( ...array_values( $geometry['coordinates'] ) );
			default:
				return $geometry['coordinates'];
		}
	}

	/**
	 * Whether a geometry is a line.
	 *
	 * @param array{type: string, coordinates: array<int, mixed>} $geometry A checked geometry.
	 */
	public static function is_line( array $geometry ): bool {
		return 'LineString' === $geometry['type'] || 'MultiLineString' === $geometry['type'];
	}

	/**
	 * Whether every position has an elevation.
	 *
	 * @param array{type: string, coordinates: array<int, mixed>} $geometry A checked geometry.
	 */
	public static function has_elevation( array $geometry ): bool {
		foreach ( self::parts( $geometry ) as $positions ) {
			foreach ( $positions as $p ) {
				if ( ! isset( $p[2] ) ) {
					return false;
				}
			}
		}
		return true;
	}

	/**
	 * The polygon of a MultiPolygon whose outer ring encloses the most area.
	 *
	 * @param array<int, array<int, array<int, array<int, float>>>> $polygons Polygons.
	 * @return array<int, array<int, array<int, float>>>
	 */
	private static function largest( array $polygons ): array {
		$best = $polygons[0];
		$most = -1.0;
		foreach ( $polygons as $polygon ) {
			$area = abs( self::ring_area( $polygon[0] ) );
			if ( $area > $most ) {
				$most = $area;
				$best = $polygon;
			}
		}
		return $best;
	}

	/**
	 * A point inside a polygon, for its label and marker.
	 *
	 * @param array<int, array<int, array<int, float>>> $rings Outer ring, then holes.
	 * @return array{0: float, 1: float} [lng, lat].
	 */
	private static function label_point( array $rings ): array {
		$centroid = self::centroid( $rings[0] );
		if ( self::inside( $centroid, $rings ) ) {
			return $centroid;
		}
		// The widest stretch inside the polygon of the horizontal line through the centroid. The
		// line is nudged off any vertex so that each edge it meets, it crosses.
		$y = $centroid[1];
		foreach ( $rings as $ring ) {
			foreach ( $ring as $p ) {
				if ( $p[1] === $y ) {
					$y += 1e-9;
				}
			}
		}
		$xs = array();
		foreach ( $rings as $ring ) {
			$count = count( $ring );
			for ( $i = 1; $i < $count; $i++ ) {
				list( $x1, $y1 ) = $ring[ $i - 1 ];
				list( $x2, $y2 ) = $ring[ $i ];
				if ( ( $y1 < $y ) !== ( $y2 < $y ) ) {
					$xs[] = $x1 + ( $y - $y1 ) * ( $x2 - $x1 ) / ( $y2 - $y1 );
				}
			}
		}
		sort( $xs );
		$best  = $rings[0][0];
		$width = -1.0;
		$pairs = count( $xs ) - 1;
		for ( $i = 0; $i < $pairs; $i += 2 ) {
			if ( $xs[ $i + 1 ] - $xs[ $i ] > $width ) {
				$width = $xs[ $i + 1 ] - $xs[ $i ];
				$best  = array( ( $xs[ $i ] + $xs[ $i + 1 ] ) / 2, $y );
			}
		}
		return array( (float) $best[0], (float) $best[1] );
	}

	/**
	 * The centroid of a ring's area (planar, in degrees: areas are small enough), or the mean of
	 * its corners when the area is nil.
	 *
	 * @param array<int, array<int, float>> $ring A closed ring.
	 * @return array{0: float, 1: float}
	 */
	private static function centroid( array $ring ): array {
		$count = count( $ring );
		$ox    = $ring[0][0];
		$oy    = $ring[0][1];
		$area  = 0.0;
		$cx    = 0.0;
		$cy    = 0.0;
		for ( $i = 1; $i < $count; $i++ ) {
			// Relative to the first corner, for precision.
			$x1    = $ring[ $i - 1 ][0] - $ox;
			$y1    = $ring[ $i - 1 ][1] - $oy;
			$x2    = $ring[ $i ][0] - $ox;
			$y2    = $ring[ $i ][1] - $oy;
			$cross = $x1 * $y2 - $x2 * $y1;
			$area += $cross;
			$cx   += ( $x1 + $x2 ) * $cross;
			$cy   += ( $y1 + $y2 ) * $cross;
		}
		if ( 0.0 === $area ) {
			$sx = 0.0;
			$sy = 0.0;
			for ( $i = 1; $i < $count; $i++ ) {
				$sx += $ring[ $i ][0];
				$sy += $ring[ $i ][1];
			}
			return array( $sx / ( $count - 1 ), $sy / ( $count - 1 ) );
		}
		return array( $ox + $cx / ( 3 * $area ), $oy + $cy / ( 3 * $area ) );
	}

	/**
	 * Twice the signed area of a ring (planar, in square degrees): positive when anticlockwise.
	 *
	 * @param array<int, array<int, float>> $ring A closed ring.
	 */
	public static function ring_area( array $ring ): float {
		$area  = 0.0;
		$count = count( $ring );
		for ( $i = 1; $i < $count; $i++ ) {
			$area += ( $ring[ $i - 1 ][0] - $ring[0][0] ) * ( $ring[ $i ][1] - $ring[0][1] ) - ( $ring[ $i ][0] - $ring[0][0] ) * ( $ring[ $i - 1 ][1] - $ring[0][1] );
		}
		return $area;
	}

	/**
	 * Whether a point lies inside a polygon (inside its outer ring, outside its holes): even-odd
	 * crossings over all rings.
	 *
	 * @param array{0: float, 1: float}                 $point [lng, lat].
	 * @param array<int, array<int, array<int, float>>> $rings Outer ring, then holes.
	 */
	private static function inside( array $point, array $rings ): bool {
		list( $x, $y ) = $point;
		$in            = false;
		foreach ( $rings as $ring ) {
			$count = count( $ring );
			for ( $i = 1; $i < $count; $i++ ) {
				list( $x1, $y1 ) = $ring[ $i - 1 ];
				list( $x2, $y2 ) = $ring[ $i ];
				if ( ( $y1 > $y ) !== ( $y2 > $y ) && $x < $x1 + ( $y - $y1 ) * ( $x2 - $x1 ) / ( $y2 - $y1 ) ) {
					$in = ! $in;
				}
			}
		}
		return $in;
	}
}
