<?php
/**
 * Fewer vertices for the map, the same look.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

defined( 'ABSPATH' ) || exit;

/**
 * Visvalingam–Whyatt simplification of a checked geometry for drawing on the map (no PHP library
 * for it is kept up in Composer's registry, so it is written here). Positions go one by one, the
 * one whose triangle with its neighbours has the least area first, from a heap: O(n log n) for
 * any shape, without recursion (Douglas–Peucker, tried first, takes O(n²) on shapes such as a comb
 * of 25,000 long teeth: minutes).
 *
 * The threshold comes from the shape's own size: (its bounding box's diagonal / 20,000, at least
 * MIN_TOLERANCE metres)², in square metres on a local flat projection around the shape's middle
 * latitude. When that still leaves more than MAX_VERTICES positions in all, the threshold is raised
 * to the least that keeps at most MAX_VERTICES (each position's effective area is kept, and never
 * falls below that of a position removed before it, so a higher threshold only selects).
 *
 * The result is 2D, rounded to 6 decimals (about 10 cm), without repeated consecutive positions;
 * lines keep their ends, rings stay closed with at least 4 positions, wound as RFC 7946 asks.
 *
 * The copy keeps every rule of Geometry_Rule (valid()): where leaving out positions would make a
 * ring cross itself or another ring, push a hole out of its shell, or shrink a part to a point,
 * the threshold is divided by 4 (up to three times), then every position is kept (rounded), then
 * the positions as checked (2D, unrounded). Each try costs one more O(n log n) check; a copy kept
 * valid this way may hold more than MAX_VERTICES positions (at most the shape's own).
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
	 * The least tolerance in metres (its square is the least threshold of area). A consumer GPS
	 * position is good to a few metres: detail finer than 5 m is mostly noise, and keeping it made
	 * a 2,000-position hiking track keep 93 % of its positions (the feed of 500 such tracks was
	 * 6 MB gzip); at 5 m it keeps about half, and a shape drawn by hand loses nothing visible
	 * below zoom 16.
	 */
	public const MIN_TOLERANCE = 5.0;

	/**
	 * The shape's diagonal is divided by this for the tolerance.
	 */
	public const DIAGONAL_SHARE = 20000;

	/**
	 * Metres per degree of latitude.
	 */
	private const METRES_PER_DEGREE = M_PI * Geometry_Measures::EARTH_RADIUS / 180;

	/**
	 * Heap operations (inserts and extracts) of the last simplify(): its cost, which tests bound
	 * by the number of positions instead of timing it.
	 *
	 * @var int
	 */
	private static int $steps = 0;

	/**
	 * Heap operations of the last simplify(): at most 6 per position (each enters once, is renewed at
	 * most twice, and each entry leaves once), each O(log n).
	 *
	 * @since 0.7.0
	 */
	public static function steps(): int {
		return self::$steps;
	}

	/**
	 * The simplified geometry.
	 *
	 * @param array{type: string, coordinates: array<int, mixed>} $geometry A checked geometry.
	 * @return array{type: string, coordinates: array<int, mixed>}
	 */
	public static function simplify( array $geometry ): array {
		self::$steps           = 0;
		list( $w, $s, $e, $n ) = Geometry_Measures::bbox( $geometry );
		$scale_x               = self::METRES_PER_DEGREE * cos( deg2rad( ( $s + $n ) / 2 ) );
		$diagonal              = hypot( ( $e - $w ) * $scale_x, ( $n - $s ) * self::METRES_PER_DEGREE );
		$threshold             = max( self::MIN_TOLERANCE, $diagonal / self::DIAGONAL_SHARE ) ** 2;

		$area         = ! Geometry_Measures::is_line( $geometry );
		$parts        = Geometry_Measures::parts( $geometry );
		$significance = array();
		foreach ( $parts as $i => $positions ) {
			$significance[ $i ] = self::significance( $positions, $scale_x, $area );
		}
		$threshold = self::budget( $significance, $threshold );

		// A copy that breaks a rule of shapes (a ring crossing itself or another, a hole pushed out
		// of its shell, a line or ring shrunk to a point) is not drawn: a smaller tolerance, then
		// every position, then the positions as given.
		foreach ( array( $threshold, $threshold / 4, $threshold / 16, $threshold / 64, -1.0 ) as $tolerance ) {
			$simplified = array();
			foreach ( $parts as $i => $positions ) {
				$simplified[ $i ] = self::select( $positions, $significance[ $i ], $tolerance, $area );
			}
			$copy = array(
				'type'        => $geometry['type'],
				'coordinates' => self::nest( $geometry, $simplified ),
			);
			if ( self::valid( $copy ) ) {
				return $copy;
			}
		}
		$flat = array();
		foreach ( $parts as $i => $positions ) {
			$flat[ $i ] = array_map(
				static function ( array $p ): array {
					return array( (float) $p[0], (float) $p[1] );
				},
				$positions
			);
		}
		return array(
			'type'        => $geometry['type'],
			'coordinates' => self::nest( $geometry, $flat ),
		);
	}

	/**
	 * Whether a simplified copy keeps the rules of Geometry_Rule: lines of 2 different positions,
	 * rings of 3 different corners and closed, areas valid (Ring_Crossings::fault()).
	 *
	 * @param array{type: string, coordinates: array<int, mixed>} $copy A simplified geometry.
	 */
	public static function valid( array $copy ): bool {
		$area = ! Geometry_Measures::is_line( $copy );
		foreach ( Geometry_Measures::parts( $copy ) as $positions ) {
			$distinct = array();
			foreach ( $positions as $p ) {
				$distinct[ $p[0] . ' ' . $p[1] ] = true;
			}
			if ( count( $distinct ) < ( $area ? 3 : 2 ) ) {
				return false;
			}
			if ( $area && ( count( $positions ) < 4 || $positions[0] !== $positions[ count( $positions ) - 1 ] ) ) {
				return false;
			}
		}
		if ( ! $area ) {
			return true;
		}
		$polygons = 'Polygon' === $copy['type'] ? array( $copy['coordinates'] ) : $copy['coordinates'];
		return null === Ring_Crossings::fault( $polygons );
	}

	/**
	 * Each position's effective area (Visvalingam–Whyatt): the area of the triangle it makes with
	 * its neighbours when it is the next to go, never less than that of any position gone before,
	 * so that keeping the positions above a threshold is the simplification at that threshold.
	 * INF for the positions always kept (a line's ends, a ring's first and closing positions, and
	 * the last three corners of a ring). A heap keeps it O(n log n) whatever the shape.
	 *
	 * @param array<int, array<int, float>> $positions Positions.
	 * @param float                         $scale_x   Metres per degree of longitude.
	 * @param bool                          $ring      Whether the positions are a closed ring.
	 * @return array<int, float> Position index => effective area in square metres.
	 */
	private static function significance( array $positions, float $scale_x, bool $ring ): array {
		$xs = array();
		$ys = array();
		foreach ( $positions as $p ) {
			$xs[] = $p[0] * $scale_x;
			$ys[] = $p[1] * self::METRES_PER_DEGREE;
		}
		return self::effective_areas( $xs, $ys, $ring );
	}

	/**
	 * Each position's effective area (see significance()) for positions already projected on a
	 * plane, in the square of the plane's unit: the simplification of every scale at once (the
	 * shape tiles select from it per zoom, Zoom_Simplifier).
	 *
	 * @since 0.7.0
	 *
	 * @param array<int, float> $xs   Projected x of each position.
	 * @param array<int, float> $ys   Projected y of each position.
	 * @param bool              $ring Whether the positions are a closed ring.
	 * @return array<int, float> Position index => effective area (INF: always kept).
	 */
	public static function effective_areas( array $xs, array $ys, bool $ring ): array {
		$count = count( $xs );
		$sig   = array_fill( 0, $count, INF );
		// A ring goes round its distinct corners 0 … count - 2; its closing position stays.
		$last = $ring ? $count - 2 : $count - 1;
		$prev = array();
		$next = array();
		for ( $i = 0; $i <= $last; $i++ ) {
			$prev[ $i ] = $i - 1;
			$next[ $i ] = $i + 1;
		}
		if ( $ring ) {
			$prev[0]       = $last;
			$next[ $last ] = 0;
		}
		$area = static function ( int $i ) use ( &$prev, &$next, $xs, $ys ): float {
			$a = $prev[ $i ];
			$b = $next[ $i ];
			return abs( ( $xs[ $a ] - $xs[ $i ] ) * ( $ys[ $b ] - $ys[ $i ] ) - ( $xs[ $b ] - $xs[ $i ] ) * ( $ys[ $a ] - $ys[ $i ] ) ) / 2;
		};
		$heap = new \SplPriorityQueue();
		$heap->setExtractFlags( \SplPriorityQueue::EXTR_BOTH );
		$now = array();
		for ( $i = 1; $i < ( $ring ? $last + 1 : $last ); $i++ ) {
			$now[ $i ] = $area( $i );
			$heap->insert( $i, -$now[ $i ] );
			++self::$steps;
		}
		$left  = $last + 1;
		$floor = 0.0;
		while ( ! $heap->isEmpty() && ( ! $ring || $left > 3 ) ) {
			$top = $heap->extract();
			$i   = (int) $top['data'];
			++self::$steps;
			if ( ! isset( $now[ $i ] ) || -$top['priority'] !== $now[ $i ] ) {
				continue;
			}
			$floor     = max( $floor, $now[ $i ] );
			$sig[ $i ] = $floor;
			unset( $now[ $i ] );
			--$left;
			$a          = $prev[ $i ];
			$b          = $next[ $i ];
			$next[ $a ] = $b;
			$prev[ $b ] = $a;
			foreach ( array( $a, $b ) as $k ) {
				if ( isset( $now[ $k ] ) ) {
					$now[ $k ] = $area( $k );
					$heap->insert( $k, -$now[ $k ] );
					++self::$steps;
				}
			}
		}
		return $sig;
	}

	/**
	 * The least threshold (at least the given one) that keeps at most MAX_VERTICES positions.
	 *
	 * @param array<int, array<int, float>> $significance Per part, see significance().
	 * @param float                         $threshold    Threshold from the shape's size.
	 */
	private static function budget( array $significance, float $threshold ): float {
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
			return $threshold;
		}
		rsort( $values, SORT_NUMERIC );
		// Keeping only values above the threshold: the room-th largest is the first left out.
		return max( $threshold, $values[ max( 0, $room ) ] );
	}

	/**
	 * The positions kept at a threshold: 2D, 6 decimals, no repeats; a ring keeps 4 positions.
	 *
	 * @param array<int, array<int, float>> $positions    Positions.
	 * @param array<int, float>             $significance See significance().
	 * @param float                         $threshold    Threshold of area in square metres.
	 * @param bool                          $ring         Whether the positions are a closed ring.
	 * @return array<int, array{0: float, 1: float}>
	 */
	private static function select( array $positions, array $significance, float $threshold, bool $ring ): array {
		ksort( $significance );
		$keep = array();
		foreach ( $significance as $i => $value ) {
			if ( $value > $threshold ) {
				$keep[] = $i;
			}
		}
		if ( $ring && count( $keep ) < 4 ) {
			// Too small for the threshold: keep its corner farthest from the kept ones too.
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
	 * @since 0.7.0 Public (Zoom_Simplifier winds its copies so too).
	 *
	 * @param array<int, array{0: float, 1: float}> $ring  A closed ring.
	 * @param bool                                  $outer Whether it is an outer ring.
	 * @return array<int, array{0: float, 1: float}>
	 */
	public static function wind( array $ring, bool $outer ): array {
		$area = Geometry_Measures::ring_area( $ring );
		return 0.0 !== $area && ( $area > 0.0 ) !== $outer ? array_reverse( $ring ) : $ring;
	}
}
