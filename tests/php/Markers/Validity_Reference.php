<?php
/**
 * A slow, separate reading of OGC polygon validity, to test Ring_Crossings against.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Markers;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Ring_Crossings;

/**
 * Every pair of edges, every pair of rings: O(n²), from other ideas than the sweep's. Where two
 * rings lie against each other is read from a point on each edge a little way along it (no edge
 * crosses another, so each edge lies wholly on one side of every other ring), by even-odd counts.
 *
 * @since 0.7.0
 */
final class Validity_Reference {

	/**
	 * Whether an area (closed rings without repeated consecutive positions) is valid.
	 *
	 * @param array<int, array<int, array<int, array<int, float>>>> $polygons Polygons of rings.
	 */
	public static function valid( array $polygons ): bool {
		$rings = array();
		foreach ( $polygons as $p => $polygon ) {
			foreach ( $polygon as $k => $ring ) {
				$rings[] = array( $p, $k, $ring );
			}
		}
		// Edges: no crossing, no overlap, no spike; a ring meets itself only between neighbours.
		$edges = array();
		foreach ( $rings as $r => list( , , $ring ) ) {
			$m = count( $ring ) - 1;
			for ( $i = 0; $i < $m; $i++ ) {
				$edges[] = array( $r, $i, $m, $ring[ $i ], $ring[ $i + 1 ] );
			}
		}
		$count = count( $edges );
		for ( $a = 0; $a < $count; $a++ ) {
			for ( $b = $a + 1; $b < $count; $b++ ) {
				list( $ra, $ia, $ma, $pa, $qa ) = $edges[ $a ];
				list( $rb, $ib, , $pb, $qb )    = $edges[ $b ];
				$seg_a                          = array( $pa[0], $pa[1], $qa[0], $qa[1] );
				$seg_b                          = array( $pb[0], $pb[1], $qb[0], $qb[1] );
				if ( $ra === $rb && ( $ib === $ia + 1 || ( 0 === $ia && $ib === $ma - 1 ) ) ) {
					list( $u, $v ) = $ib === $ia + 1 ? array( array( $pa, $qa ), array( $pb, $qb ) ) : array( array( $pb, $qb ), array( $pa, $qa ) );
					$ux            = $u[1][0] - $u[0][0];
					$uy            = $u[1][1] - $u[0][1];
					$vx            = $v[1][0] - $v[0][0];
					$vy            = $v[1][1] - $v[0][1];
					if ( 0.0 === $ux * $vy - $uy * $vx && $ux * $vx + $uy * $vy < 0 ) {
						return false;
					}
					continue;
				}
				if ( Ring_Crossings::segments_cross( $seg_a, $seg_b ) ) {
					return false;
				}
				if ( $ra === $rb && Ring_Crossings::segments_meet( $seg_a, $seg_b ) ) {
					return false; // A ring touching itself.
				}
			}
		}
		// Each ring against each other: wholly inside, wholly outside, or passing through it.
		$n      = count( $rings );
		$inside = array();
		for ( $a = 0; $a < $n; $a++ ) {
			for ( $b = 0; $b < $n; $b++ ) {
				if ( $a === $b ) {
					continue;
				}
				$in  = 0;
				$out = 0;
				$m   = count( $rings[ $a ][2] ) - 1;
				for ( $i = 0; $i < $m; $i++ ) {
					$p = $rings[ $a ][2][ $i ];
					$q = $rings[ $a ][2][ $i + 1 ];
					$x = $p[0] + ( $q[0] - $p[0] ) * 0.3183098861837907;
					$y = $p[1] + ( $q[1] - $p[1] ) * 0.3183098861837907;
					if ( self::in_ring( $rings[ $b ][2], $x, $y ) ) {
						++$in;
					} else {
						++$out;
					}
				}
				if ( $in > 0 && $out > 0 ) {
					return false;
				}
				$inside[ $a ][ $b ] = $in > 0;
			}
		}
		for ( $a = 0; $a < $n; $a++ ) {
			list( $pa, $ka ) = $rings[ $a ];
			for ( $b = 0; $b < $n; $b++ ) {
				if ( $a === $b ) {
					continue;
				}
				list( $pb, $kb ) = $rings[ $b ];
				if ( $pa === $pb && $ka > 0 && 0 === $kb && ! $inside[ $a ][ $b ] ) {
					return false; // A hole outside its shell.
				}
				if ( $pa === $pb && $ka > 0 && $kb > 0 && $inside[ $a ][ $b ] ) {
					return false; // Nested holes.
				}
				if ( $pa !== $pb && 0 === $ka && 0 === $kb && $inside[ $a ][ $b ] ) {
					// A shell inside another polygon's shell must lie in one of its holes.
					$in_hole = false;
					for ( $h = 0; $h < $n; $h++ ) {
						if ( $h !== $a && $rings[ $h ][0] === $pb && $rings[ $h ][1] > 0 && $inside[ $a ][ $h ] ) {
							$in_hole = true;
						}
					}
					if ( ! $in_hole ) {
						return false;
					}
				}
			}
		}
		// The inside in one piece: rings and the points where they meet, within a polygon, as a forest.
		$root = array();
		$find = static function ( string $x ) use ( &$root ): string {
			while ( isset( $root[ $x ] ) ) {
				$x = $root[ $x ];
			}
			return $x;
		};
		$meet = array();
		for ( $a = 0; $a < $n; $a++ ) {
			foreach ( $rings[ $a ][2] as $v ) {
				for ( $b = 0; $b < $n; $b++ ) {
					if ( $a !== $b && $rings[ $a ][0] === $rings[ $b ][0] && self::on_ring( $rings[ $b ][2], $v[0], $v[1] ) ) {
						$key                = $rings[ $a ][0] . ' ' . $v[0] . ' ' . $v[1];
						$meet[ $key ][ $a ] = true;
						$meet[ $key ][ $b ] = true;
					}
				}
			}
		}
		foreach ( $meet as $key => $here ) {
			foreach ( array_keys( $here ) as $r ) {
				$x = $find( "r$r" );
				$y = $find( "p$key" );
				if ( $x === $y ) {
					return false;
				}
				$root[ $x ] = $y;
			}
		}
		return true;
	}

	/**
	 * Whether a point lies inside a ring (even-odd; a point on it is not asked).
	 *
	 * @param array<int, array<int, float>> $ring A closed ring.
	 * @param float                         $x    X.
	 * @param float                         $y    Y.
	 */
	private static function in_ring( array $ring, float $x, float $y ): bool {
		$in    = false;
		$count = count( $ring );
		for ( $i = 1; $i < $count; $i++ ) {
			list( $ax, $ay ) = $ring[ $i - 1 ];
			list( $bx, $by ) = $ring[ $i ];
			if ( ( $ay > $y ) !== ( $by > $y ) && $x < $ax + ( $y - $ay ) * ( $bx - $ax ) / ( $by - $ay ) ) {
				$in = ! $in;
			}
		}
		return $in;
	}

	/**
	 * Whether a point lies on a ring.
	 *
	 * @param array<int, array<int, float>> $ring A closed ring.
	 * @param float                         $x    X.
	 * @param float                         $y    Y.
	 */
	private static function on_ring( array $ring, float $x, float $y ): bool {
		$count = count( $ring );
		for ( $i = 1; $i < $count; $i++ ) {
			if ( Ring_Crossings::segments_meet( array( $ring[ $i - 1 ][0], $ring[ $i - 1 ][1], $ring[ $i ][0], $ring[ $i ][1] ), array( $x, $y, $x, $y ) ) ) {
				return true;
			}
		}
		return false;
	}
}
