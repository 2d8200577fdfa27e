<?php
/**
 * Fewer vertices for the map, the same look.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

defined( 'ABSPATH' ) || exit;

/**
 * Douglas–Peucker simplification of a checked geometry for drawing on the map (no PHP library for
 * it is kept up in Composer's registry, so it is written here; iterative, with a stack of its own,
 * so 100,000 vertices need no deep recursion).
 *
 * The tolerance comes from the shape's own size: its bounding box's diagonal / 20,000, at least
 * MIN_TOLERANCE metres, measured on a local flat projection around the shape's middle latitude.
 * When that still leaves more than MAX_VERTICES positions in all, the tolerance is raised to the
 * least that keeps at most MAX_VERTICES: each kept vertex remembers the distance at which
 * Douglas–Peucker kept it (never more than its parent's), so a higher tolerance only selects.
 *
 * The result is 2D, rounded to 6 decimals (about 10 cm), without repeated consecutive positions;
 * lines keep their ends, rings stay closed with at least 4 positions, wound as RFC 7946 asks.
 *
 * @since 0.5.0
 */
final class Line_Simplifier {

	/**
	 * The most positions of a simplified shape (before the minimum each part keeps: its ends, or
	 * 4 positions of a ring).
	 */
	public const MAX_VERTICES = 5000;

	/**
	 * The least tolerance in metres.
	 */
	public const MIN_TOLERANCE = 1.0;

	/**
	 * The shape's diagonal is divided by this for the tolerance.
	 */
	public const DIAGONAL_SHARE = 20000;

	/**
	 * Metres per degree of latitude.
	 */
	private const METRES_PER_DEGREE = M_PI * Geometry_Measures::EARTH_RADIUS / 180;

	/**
	 * The simplified geometry.
	 *
	 * @param array{type: string, coordinates: array<int, mixed>} $geometry A checked geometry.
	 * @return array{type: string, coordinates: array<int, mixed>}
	 */
	public static function simplify( array $geometry ): array {
		list( $w, $s, $e, $n ) = Geometry_Measures::bbox( $geometry );
		$scale_x               = self::METRES_PER_DEGREE * cos( deg2rad( ( $s + $n ) / 2 ) );
		$diagonal              = hypot( ( $e - $w ) * $scale_x, ( $n - $s ) * self::METRES_PER_DEGREE );
		$tolerance             = max( self::MIN_TOLERANCE, $diagonal / self::DIAGONAL_SHARE );

		$area         = ! Geometry_Measures::is_line( $geometry );
		$parts        = Geometry_Measures::parts( $geometry );
		$significance = array();
		foreach ( $parts as $i => $positions ) {
			$significance[ $i ] = self::significance( $positions, $scale_x, $tolerance, $area );
		}
		$tolerance = self::budget( $significance, $tolerance );

		$simplified = array();
		foreach ( $parts as $i => $positions ) {
			$simplified[ $i ] = self::select( $positions, $significance[ $i ], $tolerance, $area );
		}
		return array(
			'type'        => $geometry['type'],
			'coordinates' => self::nest( $geometry, $simplified ),
		);
	}

	/**
	 * How far each position is from the simplified line at which Douglas–Peucker keeps it (INF for
	 * the ends); positions within the tolerance are left out.
	 *
	 * @param array<int, array<int, float>> $positions Positions.
	 * @param float                         $scale_x   Metres per degree of longitude.
	 * @param float                         $tolerance Tolerance in metres.
	 * @param bool                          $ring      Whether the positions are a closed ring.
	 * @return array<int, float> Position index => significance.
	 */
	private static function significance( array $positions, float $scale_x, float $tolerance, bool $ring ): array {
		$count = count( $positions );
		$xs    = array();
		$ys    = array();
		foreach ( $positions as $p ) {
			$xs[] = $p[0] * $scale_x;
			$ys[] = $p[1] * self::METRES_PER_DEGREE;
		}
		$kept  = array(
			0          => INF,
			$count - 1 => INF,
		);
		$stack = array();
		if ( $ring ) {
			// A ring's first and last positions are one: split it at the corner farthest from it.
			$far  = 1;
			$most = -1.0;
			for ( $i = 1; $i < $count - 1; $i++ ) {
				$d = hypot( $xs[ $i ] - $xs[0], $ys[ $i ] - $ys[0] );
				if ( $d > $most ) {
					$most = $d;
					$far  = $i;
				}
			}
			$kept[ $far ] = INF;
			$stack[]      = array( 0, $far, INF );
			$stack[]      = array( $far, $count - 1, INF );
		} else {
			$stack[] = array( 0, $count - 1, INF );
		}
		while ( array() !== $stack ) {
			list( $first, $last, $parent ) = array_pop( $stack );
			if ( $last - $first < 2 ) {
				continue;
			}
			$ax    = $xs[ $first ];
			$ay    = $ys[ $first ];
			$dx    = $xs[ $last ] - $ax;
			$dy    = $ys[ $last ] - $ay;
			$len2  = $dx * $dx + $dy * $dy;
			$most  = -1.0;
			$index = $first;
			for ( $i = $first + 1; $i < $last; $i++ ) {
				$px = $xs[ $i ] - $ax;
				$py = $ys[ $i ] - $ay;
				$t  = $len2 > 0.0 ? max( 0.0, min( 1.0, ( $px * $dx + $py * $dy ) / $len2 ) ) : 0.0;
				$ex = $px - $t * $dx;
				$ey = $py - $t * $dy;
				$d2 = $ex * $ex + $ey * $ey;
				if ( $d2 > $most ) {
					$most  = $d2;
					$index = $i;
				}
			}
			$distance = sqrt( $most );
			if ( $distance <= $tolerance ) {
				continue;
			}
			$value          = min( $distance, $parent );
			$kept[ $index ] = $value;
			$stack[]        = array( $first, $index, $value );
			$stack[]        = array( $index, $last, $value );
		}
		return $kept;
	}

	/**
	 * The least tolerance (at least the given one) that keeps at most MAX_VERTICES positions.
	 *
	 * @param array<int, array<int, float>> $significance Per part, see significance().
	 * @param float                         $tolerance    Tolerance from the shape's size.
	 */
	private static function budget( array $significance, float $tolerance ): float {
		$values = array();
		foreach ( $significance as $part ) {
			foreach ( $part as $value ) {
				if ( INF !== $value ) {
					$values[] = $value;
				}
			}
		}
		$fixed = 0;
		foreach ( $significance as $part ) {
			$fixed += count( $part ) - count( array_filter( $part, 'is_finite' ) );
		}
		$room = self::MAX_VERTICES - $fixed;
		if ( count( $values ) <= $room ) {
			return $tolerance;
		}
		rsort( $values, SORT_NUMERIC );
		// Keeping only values above the threshold: the room-th largest is the first left out.
		return max( $tolerance, $values[ max( 0, $room ) ] );
	}

	/**
	 * The positions kept at a tolerance: 2D, 6 decimals, no repeats; a ring keeps 4 positions.
	 *
	 * @param array<int, array<int, float>> $positions    Positions.
	 * @param array<int, float>             $significance See significance().
	 * @param float                         $tolerance    Tolerance in metres.
	 * @param bool                          $ring         Whether the positions are a closed ring.
	 * @return array<int, array{0: float, 1: float}>
	 */
	private static function select( array $positions, array $significance, float $tolerance, bool $ring ): array {
		ksort( $significance );
		$keep = array();
		foreach ( $significance as $i => $value ) {
			if ( $value > $tolerance ) {
				$keep[] = $i;
			}
		}
		if ( $ring && count( $keep ) < 4 ) {
			// Too small for the tolerance: keep its corner farthest from the kept ones too.
			$spare = null;
			$most  = -1.0;
			foreach ( $positions as $i => $p ) {
				if ( in_array( $i, $keep, true ) ) {
					continue;
				}
				$far = 0.0;
				foreach ( $keep as $k ) {
					$far += hypot( $p[0] - $positions[ $k ][0], $p[1] - $positions[ $k ][1] );
				}
				if ( $far > $most ) {
					$most  = $far;
					$spare = $i;
				}
			}
			if ( null !== $spare ) {
				$keep[] = $spare;
				sort( $keep );
			}
		}
		$out = array();
		foreach ( $keep as $i ) {
			self::push( $out, $positions[ $i ] );
		}
		if ( ! $ring && count( $out ) < 2 ) {
			// Both ends round to one point: still a line of two positions.
			$out[] = $out[0];
		}
		// A ring smaller than the rounding (10 cm) is one point, still given 4 positions.
		if ( $ring ) {
			$out = array_pad( $out, 4, $out[0] );
		}
		return $out;
	}

	/**
	 * Adds a position, rounded and 2D, unless it repeats the last one.
	 *
	 * @param array<int, array{0: float, 1: float}> $out      Positions so far.
	 * @param array<int, float>                     $position Position.
	 */
	private static function push( array &$out, array $position ): void {
		$p    = array( round( $position[0], 6 ), round( $position[1], 6 ) );
		$last = end( $out );
		if ( false === $last || $last !== $p ) {
			$out[] = $p;
		}
	}

	/**
	 * Puts simplified parts back into the geometry's nesting.
	 *
	 * @param array{type: string, coordinates: array<int, mixed>} $geometry The geometry.
	 * @param array<int, array<int, array{0: float, 1: float}>>   $parts    Simplified parts.
	 * @return array<int, mixed>
	 */
	private static function nest( array $geometry, array $parts ): array {
		if ( 'LineString' === $geometry['type'] ) {
			return $parts[0];
		}
		if ( 'MultiLineString' === $geometry['type'] ) {
			return $parts;
		}
		$polygons = 'Polygon' === $geometry['type'] ? array( $geometry['coordinates'] ) : $geometry['coordinates'];
		$out      = array();
		$next     = 0;
		foreach ( $polygons as $rings ) {
			$polygon = array();
			foreach ( $rings as $r => $unused ) {
				$polygon[] = self::wind( $parts[ $next++ ], 0 === $r );
			}
			$out[] = $polygon;
		}
		return 'Polygon' === $geometry['type'] ? $out[0] : $out;
	}

	/**
	 * A ring wound as RFC 7946 asks: an outer ring anticlockwise, a hole clockwise (maps tell
	 * holes from polygons by their winding).
	 *
	 * @param array<int, array{0: float, 1: float}> $ring  A closed ring.
	 * @param bool                                  $outer Whether it is an outer ring.
	 * @return array<int, array{0: float, 1: float}>
	 */
	private static function wind( array $ring, bool $outer ): array {
		$area = Geometry_Measures::ring_area( $ring );
		return 0.0 !== $area && ( $area > 0.0 ) !== $outer ? array_reverse( $ring ) : $ring;
	}
}
