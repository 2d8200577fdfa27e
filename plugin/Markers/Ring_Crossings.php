<?php
/**
 * Finds where the rings of a polygon cross or touch.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

defined( 'ABSPATH' ) || exit;

/**
 * A sweep line over the edges of a polygon's rings (Shamos and Hoey, 1976): edges enter an
 * ordered list at their left end and leave it at their right end, and each edge is tested only
 * against its neighbours in the list. If any two edges meet, two that meet become neighbours
 * before the sweep passes their first meeting point, so the first found is enough.
 *
 * O(n log n) comparisons for n edges, and each insertion or removal moves at most a block of
 * Sweep_List: a ring of 100,000 vertices takes about a second even when tens of thousands of its
 * edges are open at once.
 *
 * What counts as meeting: any shared point between two edges, except the vertex two consecutive
 * edges of a ring share (unless they run back over each other, a spike). So a ring touching
 * itself at a vertex (a figure of eight) is refused, and so is a hole touching its outer ring.
 *
 * @since 0.5.0
 */
final class Ring_Crossings {

	/**
	 * Left ends (the smaller by x, then y) and right ends of the edges.
	 *
	 * @var float[]
	 */
	private array $ax = array();

	/**
	 * Left ends' y.
	 *
	 * @var float[]
	 */
	private array $ay = array();

	/**
	 * Right ends' x.
	 *
	 * @var float[]
	 */
	private array $bx = array();

	/**
	 * Right ends' y.
	 *
	 * @var float[]
	 */
	private array $by = array();

	/**
	 * Each edge's direction along its ring (x).
	 *
	 * @var float[]
	 */
	private array $dx = array();

	/**
	 * Each edge's direction along its ring (y).
	 *
	 * @var float[]
	 */
	private array $dy = array();

	/**
	 * Each edge's ring.
	 *
	 * @var int[]
	 */
	private array $ring = array();

	/**
	 * Each edge's index in its ring (edge i runs from position i to position i + 1).
	 *
	 * @var int[]
	 */
	private array $edge = array();

	/**
	 * Edges per ring.
	 *
	 * @var int[]
	 */
	private array $edges = array();

	/**
	 * The first two edges that meet.
	 *
	 * @param array<int, array<int, array<int, float>>> $rings Closed rings of one polygon, without
	 *                                                         repeated consecutive positions.
	 * @return array{0: int, 1: int, 2: int, 3: int}|null [ring, edge, other ring, other edge], or
	 *         null when no edges meet.
	 */
	public static function first( array $rings ): ?array {
		self::$comparisons = 0;
		$sweep             = new self( $rings );
		return $sweep->sweep();
	}

	/**
	 * Edge comparisons (above() and meet()) of the last first(): its cost, which tests bound by
	 * n log n instead of timing it (a pairwise check would make n² / 2).
	 *
	 * @since 0.7.0
	 */
	public static function comparisons(): int {
		return self::$comparisons;
	}

	/**
	 * Comparisons of the last first() (see comparisons()).
	 *
	 * @var int
	 */
	private static int $comparisons = 0;

	/**
	 * Reads the edges.
	 *
	 * @param array<int, array<int, array<int, float>>> $rings See first().
	 */
	private function __construct( array $rings ) {
		$n = 0;
		foreach ( $rings as $r => $positions ) {
			$m                 = count( $positions ) - 1;
			$this->edges[ $r ] = $m;
			for ( $i = 0; $i < $m; $i++ ) {
				list( $px, $py ) = $positions[ $i ];
				list( $qx, $qy ) = $positions[ $i + 1 ];
				$this->dx[ $n ]  = $qx - $px;
				$this->dy[ $n ]  = $qy - $py;
				if ( $px > $qx || ( $px === $qx && $py > $qy ) ) {
					list( $px, $py, $qx, $qy ) = array( $qx, $qy, $px, $py );
				}
				$this->ax[ $n ]   = $px;
				$this->ay[ $n ]   = $py;
				$this->bx[ $n ]   = $qx;
				$this->by[ $n ]   = $qy;
				$this->ring[ $n ] = (int) $r;
				$this->edge[ $n ] = $i;
				++$n;
			}
		}
	}

	/**
	 * Runs the sweep.
	 *
	 * @return array{0: int, 1: int, 2: int, 3: int}|null
	 */
	private function sweep(): ?array {
		$n    = count( $this->ax );
		$xs   = array_merge( $this->ax, $this->bx );
		$kind = array_merge( array_fill( 0, $n, 0 ), array_fill( 0, $n, 1 ) );
		$ys   = array_merge( $this->ay, $this->by );
		$ids  = array_merge( range( 0, $n - 1 ), range( 0, $n - 1 ) );
		// At one x, every edge that starts there enters before any that ends there leaves, so
		// edges meeting at that x are open together.
		array_multisort( $xs, SORT_ASC, SORT_NUMERIC, $kind, SORT_ASC, SORT_NUMERIC, $ys, SORT_ASC, SORT_NUMERIC, $ids );

		$open      = new Sweep_List();
		$above     = function ( int $s, int $t ): bool {
			return $this->above( $s, $t );
		};
		$verticals = array();
		$events    = 2 * $n;
		for ( $e = 0; $e < $events; $e++ ) {
			$s = $ids[ $e ];
			if ( 0 === $kind[ $e ] ) {
				if ( $this->ax[ $s ] === $this->bx[ $s ] ) {
					// A vertical edge exists at one x only: tested against the edges open there
					// once all have entered, and never put in the list.
					$verticals[] = $s;
				} else {
					$open->insert( $s, $above );
					foreach ( $open->neighbours( $s ) as $t ) {
						if ( null !== $t && $this->meet( $s, $t ) ) {
							return $this->found( $s, $t );
						}
					}
				}
			}
			$last_at_x = $e + 1 === $events || 1 === $kind[ $e ] || 1 === $kind[ $e + 1 ] || $xs[ $e + 1 ] !== $xs[ $e ];
			if ( array() !== $verticals && $last_at_x ) {
				$found = $this->verticals( $open, $verticals );
				if ( null !== $found ) {
					return $found;
				}
				$verticals = array();
			}
			if ( 1 === $kind[ $e ] && $open->has( $s ) ) {
				list( $below, $over ) = $open->remove( $s );
				if ( null !== $below && null !== $over && $this->meet( $below, $over ) ) {
					return $this->found( $below, $over );
				}
			}
		}
		return null;
	}

	/**
	 * Tests the vertical edges at one x against each other and against the open edges that pass
	 * through their span (a contiguous run of the open list, found by binary search).
	 *
	 * @param Sweep_List $open      Open edges, bottom to top.
	 * @param int[]      $verticals Vertical edges at this x, by lower end.
	 * @return array{0: int, 1: int, 2: int, 3: int}|null
	 */
	private function verticals( Sweep_List $open, array $verticals ): ?array {
		$spanning = array();
		foreach ( $verticals as $v ) {
			$spanning = array_filter(
				$spanning,
				function ( int $u ) use ( $v ): bool {
					return $this->by[ $u ] >= $this->ay[ $v ];
				}
			);
			foreach ( $spanning as $u ) {
				if ( $this->meet( $u, $v ) ) {
					return $this->found( $u, $v );
				}
			}
			$spanning[] = $v;

			$x      = $this->ax[ $v ];
			$bottom = $this->ay[ $v ];
			$top    = $this->by[ $v ];
			// The lowest open edge at or above the vertical edge's lower end, then up to its upper end.
			$t = $open->first_where(
				function ( int $t ) use ( $x, $bottom ): bool {
					return self::orient( $this->ax[ $t ], $this->ay[ $t ], $this->bx[ $t ], $this->by[ $t ], $x, $bottom ) <= 0.0;
				}
			);
			while ( null !== $t && self::orient( $this->ax[ $t ], $this->ay[ $t ], $this->bx[ $t ], $this->by[ $t ], $x, $top ) >= 0.0 ) {
				if ( $this->meet( $v, $t ) ) {
					return $this->found( $v, $t );
				}
				$t = $open->above( $t );
			}
		}
		return null;
	}

	/**
	 * Whether edge s, entering at its left end, lies above open edge t.
	 *
	 * @param int $s Entering edge.
	 * @param int $t Open edge.
	 */
	private function above( int $s, int $t ): bool {
		++self::$comparisons;
		$px = $this->ax[ $s ];
		$py = $this->ay[ $s ];
		$o  = self::orient( $this->ax[ $t ], $this->ay[ $t ], $this->bx[ $t ], $this->by[ $t ], $px, $py );
		if ( 0.0 === $o ) {
			$o = self::orient( $this->ax[ $t ], $this->ay[ $t ], $this->bx[ $t ], $this->by[ $t ], $this->bx[ $s ], $this->by[ $s ] );
		}
		return $o >= 0.0;
	}

	/**
	 * Whether two edges meet in a way a simple polygon does not allow.
	 *
	 * @param int $s An edge.
	 * @param int $t Another edge.
	 */
	public function meet( int $s, int $t ): bool {
		++self::$comparisons;
		if ( $this->ring[ $s ] === $this->ring[ $t ] ) {
			$last = $this->edges[ $this->ring[ $s ] ] - 1;
			$i    = $this->edge[ $s ];
			$j    = $this->edge[ $t ];
			$next = null;
			if ( $j === $i + 1 || ( 0 === $j && $i === $last ) ) {
				$next = array( $s, $t );
			} elseif ( $i === $j + 1 || ( 0 === $i && $j === $last ) ) {
				$next = array( $t, $s );
			}
			if ( null !== $next ) {
				// Consecutive edges share a vertex; they may not run back over each other.
				list( $u, $v ) = $next;
				$cross         = $this->dx[ $u ] * $this->dy[ $v ] - $this->dy[ $u ] * $this->dx[ $v ];
				$dot           = $this->dx[ $u ] * $this->dx[ $v ] + $this->dy[ $u ] * $this->dy[ $v ];
				return 0.0 === $cross && $dot < 0.0;
			}
		}
		return self::segments_meet(
			array( $this->ax[ $s ], $this->ay[ $s ], $this->bx[ $s ], $this->by[ $s ] ),
			array( $this->ax[ $t ], $this->ay[ $t ], $this->bx[ $t ], $this->by[ $t ] )
		);
	}

	/**
	 * Whether two closed segments share a point.
	 *
	 * @param array{0: float, 1: float, 2: float, 3: float} $a [x1, y1, x2, y2].
	 * @param array{0: float, 1: float, 2: float, 3: float} $b [x1, y1, x2, y2].
	 */
	public static function segments_meet( array $a, array $b ): bool {
		list( $ax, $ay, $bx, $by ) = $a;
		list( $cx, $cy, $dx, $dy ) = $b;
		$o1                        = self::sign( self::orient( $ax, $ay, $bx, $by, $cx, $cy ) );
		$o2                        = self::sign( self::orient( $ax, $ay, $bx, $by, $dx, $dy ) );
		$o3                        = self::sign( self::orient( $cx, $cy, $dx, $dy, $ax, $ay ) );
		$o4                        = self::sign( self::orient( $cx, $cy, $dx, $dy, $bx, $by ) );
		if ( $o1 * $o2 < 0 && $o3 * $o4 < 0 ) {
			return true;
		}
		return ( 0 === $o1 && self::within( $ax, $ay, $bx, $by, $cx, $cy ) )
			|| ( 0 === $o2 && self::within( $ax, $ay, $bx, $by, $dx, $dy ) )
			|| ( 0 === $o3 && self::within( $cx, $cy, $dx, $dy, $ax, $ay ) )
			|| ( 0 === $o4 && self::within( $cx, $cy, $dx, $dy, $bx, $by ) );
	}

	/**
	 * The answer for two edges, ring order first.
	 *
	 * @param int $s An edge.
	 * @param int $t Another edge.
	 * @return array{0: int, 1: int, 2: int, 3: int}
	 */
	private function found( int $s, int $t ): array {
		if ( array( $this->ring[ $t ], $this->edge[ $t ] ) < array( $this->ring[ $s ], $this->edge[ $s ] ) ) {
			list( $s, $t ) = array( $t, $s );
		}
		return array( $this->ring[ $s ], $this->edge[ $s ], $this->ring[ $t ], $this->edge[ $t ] );
	}

	/**
	 * Twice the signed area of the triangle a, b, c: positive when c is left of a→b.
	 *
	 * @param float $ax A x.
	 * @param float $ay A y.
	 * @param float $bx B x.
	 * @param float $by B y.
	 * @param float $cx C x.
	 * @param float $cy C y.
	 */
	private static function orient( float $ax, float $ay, float $bx, float $by, float $cx, float $cy ): float {
		return ( $bx - $ax ) * ( $cy - $ay ) - ( $by - $ay ) * ( $cx - $ax );
	}

	/**
	 * The sign of a number: -1, 0 or 1.
	 *
	 * @param float $value Number.
	 */
	private static function sign( float $value ): int {
		return $value > 0.0 ? 1 : ( $value < 0.0 ? -1 : 0 );
	}

	/**
	 * Whether c, on the line through a and b, lies within the segment a–b.
	 *
	 * @param float $ax A x.
	 * @param float $ay A y.
	 * @param float $bx B x.
	 * @param float $by B y.
	 * @param float $cx C x.
	 * @param float $cy C y.
	 */
	private static function within( float $ax, float $ay, float $bx, float $by, float $cx, float $cy ): bool {
		return min( $ax, $bx ) <= $cx && $cx <= max( $ax, $bx ) && min( $ay, $by ) <= $cy && $cy <= max( $ay, $by );
	}
}
