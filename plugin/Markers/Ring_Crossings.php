<?php
/**
 * Whether the rings of an area make a valid polygon (OGC Simple Features).
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

defined( 'ABSPATH' ) || exit;

/**
 * One sweep line over all the edges of an area's rings (Shamos and Hoey, 1976, with the touches
 * that OGC allows): edges enter an ordered list at their left end and leave it at their right end,
 * and each edge is tested only against its neighbours in the list.
 *
 * The rules (OGC Simple Features 1.2.1, § 6.1.11; what JTS's IsValidOp and PostGIS's ST_IsValid
 * call valid):
 * - no two edges cross or run along each other (a spike, a gore, a shared edge), and no two rings
 *   pass through each other where they meet at a vertex;
 * - a ring never touches itself (a figure of eight, a vertex on its own edge);
 * - rings may touch other rings at single points, but the inside of each polygon stays in one
 *   piece: the rings and their touching points form no loop (a hole touching its outer ring twice,
 *   a chain of holes across the area);
 * - each hole lies inside its own outer ring and outside its other holes;
 * - the polygons of a MultiPolygon do not overlap (one may lie in another's hole).
 *
 * Since no two edges cross before the first bad meeting, the list stays ordered and two edges that
 * cross or overlap become neighbours before the sweep passes their first meeting point. Every
 * touching point is a vertex: each vertex is looked up once in the list (binary search) for the
 * edges through it, and coinciding vertices are found by hashing. Each ring's place (inside which
 * ring it lies) is read at its leftmost vertex from the edge just below it in the list.
 *
 * O(n log n) comparisons for n edges (plus one per touch found); each insertion or removal moves at
 * most a block of Sweep_List. comparisons() counts them, for the budget.
 *
 * @since 0.5.0
 */
final class Ring_Crossings {

	/**
	 * Comparisons and segment tests of the last fault() or first() (see comparisons()).
	 *
	 * @var int
	 */
	private static int $comparisons = 0;

	/**
	 * Comparisons and segment tests (orientation tests of the list's order, edge against edge,
	 * vertex against edge, ring against ring at a touch) of the last fault() or first(): its cost,
	 * which tests bound by n log n instead of timing it (a pairwise check would make n² / 2).
	 *
	 * @since 0.7.0
	 */
	public static function comparisons(): int {
		return self::$comparisons;
	}

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
	 * Each edge's ring (a number over all polygons).
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
	 * Each ring's [polygon, ring in the polygon].
	 *
	 * @var array<int, array{0: int, 1: int}>
	 */
	private array $name = array();

	/**
	 * Each ring's positions.
	 *
	 * @var array<int, array<int, array<int, float>>>
	 */
	private array $positions = array();

	/**
	 * Whether each ring winds anticlockwise.
	 *
	 * @var bool[]
	 */
	private array $ccw = array();

	/**
	 * Whether only crossings are looked for (first()).
	 *
	 * @var bool
	 */
	private bool $crossings_only;

	/**
	 * The rings meeting at each touching point: point key => ring => its position index there, or
	 * -(e + 1) when the point lies inside its edge e.
	 *
	 * @var array<string, array<int, int>>
	 */
	private array $touches = array();

	/**
	 * Where each ring lies: ring => [true if inside the other ring, other ring], or null at the top.
	 *
	 * @var array<int, array{0: bool, 1: int}|null>
	 */
	private array $link = array();

	/**
	 * The first fault of an area, or null when it is valid.
	 *
	 * @param array<int, array<int, array<int, array<int, float>>>> $polygons Polygons, each a list of
	 *        closed rings (outer ring first) without repeated consecutive positions, at least 4
	 *        positions each.
	 * @return array{0: string, 1: array<int, mixed>}|null [kind, details]:
	 *         - ['cross', [polygon, ring, edge, polygon, ring, edge]]: two edges cross or overlap;
	 *         - ['self', [polygon, ring, position]]: a ring touches itself at one of its positions;
	 *         - ['cross_at', [polygon, ring, polygon, ring, x, y]]: two rings pass through each
	 *           other at a point where they meet;
	 *         - ['split', [polygon, ring, x, y]]: the rings touching at that point close a loop;
	 *         - ['outside', [polygon, ring]]: a hole not inside its outer ring;
	 *         - ['nested', [polygon, ring, ring]]: a hole inside another hole;
	 *         - ['overlap', [polygon, polygon]]: a polygon inside another polygon.
	 */
	public static function fault( array $polygons ): ?array {
		self::$comparisons = 0;
		$sweep             = new self( $polygons, false );
		return $sweep->sweep() ?? $sweep->topology();
	}

	/**
	 * The first two edges of one polygon's rings that cross or run along each other (touching is
	 * allowed).
	 *
	 * @param array<int, array<int, array<int, float>>> $rings Closed rings, see fault().
	 * @return array{0: int, 1: int, 2: int, 3: int}|null [ring, edge, other ring, other edge], or
	 *         null when no edges cross.
	 */
	public static function first( array $rings ): ?array {
		self::$comparisons = 0;
		$sweep             = new self( array( $rings ), true );
		$found             = $sweep->sweep();
		if ( null === $found ) {
			return null;
		}
		$at = $found[1];
		return array( (int) $at[1], (int) $at[2], (int) $at[4], (int) $at[5] );
	}

	/**
	 * Reads the edges.
	 *
	 * @param array<int, array<int, array<int, array<int, float>>>> $polygons See fault().
	 * @param bool                                                  $crossings_only Only crossings.
	 */
	private function __construct( array $polygons, bool $crossings_only ) {
		$this->crossings_only = $crossings_only;
		$n                    = 0;
		$r                    = 0;
		foreach ( $polygons as $p => $rings ) {
			foreach ( $rings as $k => $positions ) {
				$this->name[ $r ]      = array( (int) $p, (int) $k );
				$this->positions[ $r ] = $positions;
				$m                     = count( $positions ) - 1;
				$this->edges[ $r ]     = $m;
				$this->ccw[ $r ]       = Geometry_Measures::ring_area( $positions ) > 0.0;
				$this->start[ $r ]     = $n;
				for ( $i = 0; $i < $m; $i++ ) {
					list( $px, $py ) = $positions[ $i ];
					list( $qx, $qy ) = $positions[ $i + 1 ];
					$this->dx[ $n ]  = $qx - $px;
					$this->dy[ $n ]  = $qy - $py;
					if ( $px > $qx || ( $px === $qx && $py > $qy ) ) {
						list( $px, $py, $qx, $qy ) = array( $qx, $qy, $px, $py );
					}
					$this->ax[ $n ]   = (float) $px;
					$this->ay[ $n ]   = (float) $py;
					$this->bx[ $n ]   = (float) $qx;
					$this->by[ $n ]   = (float) $qy;
					$this->ring[ $n ] = $r;
					$this->edge[ $n ] = $i;
					++$n;
				}
				++$r;
			}
		}
	}

	/**
	 * Runs the sweep: the first crossing or self-touch, with the touches and places of rings noted.
	 *
	 * Events at one x, in this order: edges ending there leave; vertical edges there are tested;
	 * vertices there are looked up; edges starting there enter; rings whose leftmost vertex is
	 * there are placed.
	 *
	 * @return array{0: string, 1: array<int, mixed>}|null
	 */
	private function sweep(): ?array {
		$xs    = array();
		$phase = array();
		$ys    = array();
		$ids   = array();
		foreach ( $this->ax as $s => $x ) {
			if ( $x === $this->bx[ $s ] ) {
				array_push( $xs, $x );
				array_push( $phase, 1 );
				array_push( $ys, $this->ay[ $s ] );
				array_push( $ids, $s );
				continue;
			}
			array_push( $xs, $this->bx[ $s ], $x );
			array_push( $phase, 0, 3 );
			array_push( $ys, $this->by[ $s ], $this->ay[ $s ] );
			array_push( $ids, $s, $s );
		}
		if ( ! $this->crossings_only ) {
			$seen     = array();
			$coincide = array();
			foreach ( $this->positions as $r => $positions ) {
				$m    = $this->edges[ $r ];
				$left = 0;
				for ( $i = 0; $i < $m; $i++ ) {
					$x              = (float) $positions[ $i ][0];
					$y              = (float) $positions[ $i ][1];
					$id             = count( $this->vring );
					$this->vring[]  = $r;
					$this->vindex[] = $i;
					$key            = $x . ' ' . $y;
					if ( isset( $seen[ $key ] ) ) {
						$coincide[ $key ][] = $id;
					} else {
						$seen[ $key ] = $id;
					}
					$xs[]    = $x;
					$phase[] = 2;
					$ys[]    = $y;
					$ids[]   = $id;
					if ( $x < $positions[ $left ][0] || ( $x === (float) $positions[ $left ][0] && $y < $positions[ $left ][1] ) ) {
						$left = $i;
					}
				}
				array_push( $xs, (float) $positions[ $left ][0] );
				array_push( $phase, 4 );
				array_push( $ys, (float) $positions[ $left ][1] );
				array_push( $ids, $r );
				$this->leftmost[ $r ] = $left;
			}
			foreach ( $coincide as $key => $more ) {
				array_unshift( $more, $seen[ $key ] );
				$first                = $more[0];
				$this->points[ $key ] = array( (float) $this->positions[ $this->vring[ $first ] ][ $this->vindex[ $first ] ][0], (float) $this->positions[ $this->vring[ $first ] ][ $this->vindex[ $first ] ][1] );
				foreach ( $more as $id ) {
					$r = $this->vring[ $id ];
					$i = $this->vindex[ $id ];
					if ( isset( $this->touches[ $key ][ $r ] ) ) {
						return array( 'self', array( $this->name[ $r ][0], $this->name[ $r ][1], max( $i, $this->touches[ $key ][ $r ] ) ) );
					}
					$this->touches[ $key ][ $r ] = $i;
				}
			}
		}
		array_multisort( $xs, SORT_ASC, SORT_NUMERIC, $phase, SORT_ASC, SORT_NUMERIC, $ys, SORT_ASC, SORT_NUMERIC, $ids );

		$open      = new Sweep_List();
		$above     = function ( int $s, int $t ): bool {
			return $this->above( $s, $t );
		};
		$verticals = array();
		$events    = count( $xs );
		for ( $e = 0; $e < $events; $e++ ) {
			$id = $ids[ $e ];
			switch ( $phase[ $e ] ) {
				case 0:
					list( $below, $over ) = $open->remove( $id );
					if ( null !== $below && null !== $over && $this->bad( $below, $over ) ) {
						return $this->found( $below, $over );
					}
					break;
				case 1:
					$found = $this->vertical( $open, $verticals, $id );
					if ( null !== $found ) {
						return $found;
					}
					break;
				case 2:
					$found = $this->vertex_on_edges( $open, $verticals, $id );
					if ( null !== $found ) {
						return $found;
					}
					break;
				case 3:
					$open->insert( $id, $above );
					foreach ( $open->neighbours( $id ) as $t ) {
						if ( null !== $t && $this->bad( $id, $t ) ) {
							return $this->found( $id, $t );
						}
					}
					break;
				default:
					$this->place( $open, $id );
			}
			if ( $e + 1 < $events && $xs[ $e + 1 ] !== $xs[ $e ] ) {
				$verticals = array();
			}
		}
		return null;
	}

	/**
	 * Each vertex's ring.
	 *
	 * @var int[]
	 */
	private array $vring = array();

	/**
	 * Each vertex's position index in its ring.
	 *
	 * @var int[]
	 */
	private array $vindex = array();

	/**
	 * The vertical edge reaching highest at the current x.
	 *
	 * @var int|null
	 */
	private ?int $reach = null;

	/**
	 * Each ring's first edge.
	 *
	 * @var int[]
	 */
	private array $start = array();

	/**
	 * Each touching point's coordinates, by point key.
	 *
	 * @var array<string, array{0: float, 1: float}>
	 */
	private array $points = array();

	/**
	 * Each ring's leftmost position index.
	 *
	 * @var int[]
	 */
	private array $leftmost = array();

	/**
	 * Tests a vertical edge against the other vertical edges at its x (they come by lower end) and
	 * against the open edges passing strictly through it; notes it for the vertices at that x.
	 *
	 * @param Sweep_List $open      Open edges, bottom to top.
	 * @param int[]      $verticals Vertical edges at this x so far, by lower end.
	 * @param int        $v         The vertical edge.
	 * @return array{0: string, 1: array<int, mixed>}|null
	 */
	private function vertical( Sweep_List $open, array &$verticals, int $v ): ?array {
		// They come by lower end: one that overlaps any earlier overlaps the one reaching highest.
		$u = $this->reach;
		++self::$comparisons;
		if ( array() !== $verticals && null !== $u && $this->by[ $u ] > $this->ay[ $v ] && $this->bad( $u, $v ) ) {
			return $this->found( $u, $v );
		}
		if ( array() === $verticals || null === $u || $this->by[ $v ] > $this->by[ $u ] ) {
			$this->reach = $v;
		}
		$verticals[] = $v;
		$x           = $this->ax[ $v ];
		$bottom      = $this->ay[ $v ];
		$top         = $this->by[ $v ];
		// The lowest open edge strictly above the lower end: if it passes below the upper end, it
		// crosses (edges through either end only touch, and the vertices find them).
		$t = $open->first_where(
			function ( int $t ) use ( $x, $bottom ): bool {
				++self::$comparisons;
				return $this->orient_at( $t, $x, $bottom ) < 0.0;
			}
		);
		++self::$comparisons;
		if ( null !== $t && $this->orient_at( $t, $x, $top ) > 0.0 ) {
			return $this->found( $v, $t );
		}
		return null;
	}

	/**
	 * Looks a vertex up among the open edges and the vertical edges at its x: an edge through it is
	 * a touch (of another ring) or a fault (of its own ring).
	 *
	 * @param Sweep_List $open      Open edges, bottom to top.
	 * @param int[]      $verticals Vertical edges at this x.
	 * @param int        $id        The vertex.
	 * @return array{0: string, 1: array<int, mixed>}|null
	 */
	private function vertex_on_edges( Sweep_List $open, array $verticals, int $id ): ?array {
		$r       = $this->vring[ $id ];
		$i       = $this->vindex[ $id ];
		$x       = (float) $this->positions[ $r ][ $i ][0];
		$y       = (float) $this->positions[ $r ][ $i ][1];
		$through = array();
		$t       = $open->first_where(
			function ( int $t ) use ( $x, $y ): bool {
				++self::$comparisons;
				return $this->orient_at( $t, $x, $y ) <= 0.0;
			}
		);
		while ( null !== $t ) {
			++self::$comparisons;
			if ( 0.0 !== $this->orient_at( $t, $x, $y ) ) {
				break;
			}
			$through[] = $t;
			$t         = $open->above( $t );
		}
		// The vertical edges at this x do not overlap (else refused), by lower end: the last one
		// starting below the vertex is the only one that may pass through it.
		$lo = 0;
		$hi = count( $verticals );
		while ( $lo < $hi ) {
			++self::$comparisons;
			$mid = ( $lo + $hi ) >> 1;
			if ( $this->ay[ $verticals[ $mid ] ] < $y ) {
				$lo = $mid + 1;
			} else {
				$hi = $mid;
			}
		}
		if ( $lo > 0 && $y < $this->by[ $verticals[ $lo - 1 ] ] ) {
			$through[] = $verticals[ $lo - 1 ];
		}
		if ( array() === $through ) {
			return null;
		}
		$key = $x . ' ' . $y;
		foreach ( $through as $t ) {
			$other = $this->ring[ $t ];
			if ( $other === $r ) {
				return array( 'self', array( $this->name[ $r ][0], $this->name[ $r ][1], $i ) );
			}
			$this->touches[ $key ][ $r ]     = $i;
			$this->touches[ $key ][ $other ] = $this->touches[ $key ][ $other ] ?? -( $t + 1 );
			$this->points[ $key ]            = array( $x, $y );
		}
		return null;
	}

	/**
	 * Notes where a ring lies, from the open edge just below its lower edge at its leftmost vertex.
	 *
	 * @param Sweep_List $open Open edges, bottom to top.
	 * @param int        $r    The ring.
	 */
	private function place( Sweep_List $open, int $r ): void {
		$m    = $this->edges[ $r ];
		$i    = $this->leftmost[ $r ];
		$pair = array( $this->start[ $r ] + $i, $this->start[ $r ] + ( $i + $m - 1 ) % $m );
		$pair = array_values(
			array_filter(
				$pair,
				function ( int $s ): bool {
					return $this->ax[ $s ] !== $this->bx[ $s ];
				}
			)
		);
		if ( 2 === count( $pair ) && $this->above( $pair[0], $pair[1] ) ) {
			$pair = array( $pair[1] );
		}
		$below = array() === $pair ? null : $open->neighbours( $pair[0] )[0];
		if ( null === $below ) {
			$this->link[ $r ] = null;
			return;
		}
		// The ring below: this ring is inside it when its inside lies above that edge.
		$other            = $this->ring[ $below ];
		$this->link[ $r ] = array( ( $this->dx[ $below ] > 0.0 ) === $this->ccw[ $other ], $other );
	}

	/**
	 * The faults found once the sweep has passed: a loop of touching rings, a hole out of place, a
	 * polygon inside another.
	 *
	 * @return array{0: string, 1: array<int, mixed>}|null
	 */
	private function topology(): ?array {
		// At a touching point, two rings may not pass through each other.
		foreach ( $this->touches as $key => $rings ) {
			$arms = array();
			foreach ( $rings as $r => $at ) {
				$arms[ $r ] = $this->arms( $r, $at, $this->points[ $key ] );
			}
			$ids   = array_keys( $arms );
			$count = count( $ids );
			for ( $a = 0; $a < $count; $a++ ) {
				for ( $b = $a + 1; $b < $count; $b++ ) {
					++self::$comparisons;
					list( $u1, $u2 ) = $arms[ $ids[ $a ] ];
					list( $v1, $v2 ) = $arms[ $ids[ $b ] ];
					if ( self::between( $u1, $u2, $v1 ) !== self::between( $u1, $u2, $v2 ) ) {
						$first         = $this->name[ $ids[ $a ] ];
						$other         = $this->name[ $ids[ $b ] ];
						list( $x, $y ) = $this->points[ $key ];
						return array( 'cross_at', array( $first[0], $first[1], $other[0], $other[1], $x, $y ) );
					}
				}
			}
		}

		// Rings and touching points, as a forest: a loop cuts a polygon's inside apart.
		foreach ( $this->touches as $key => $rings ) {
			$by_polygon = array();
			foreach ( array_keys( $rings ) as $r ) {
				$by_polygon[ $this->name[ $r ][0] ][] = $r;
			}
			foreach ( $by_polygon as $p => $here ) {
				if ( count( $here ) < 2 ) {
					continue;
				}
				$point = 'p' . $p . ' ' . $key;
				foreach ( $here as $r ) {
					++self::$comparisons;
					$a = $this->root_of( 'r' . $r );
					$b = $this->root_of( $point );
					if ( $a === $b ) {
						list( $x, $y ) = $this->points[ $key ];
						return array( 'split', array( $p, $this->name[ $r ][1], $x, $y ) );
					}
					$this->root[ $a ] = $b;
				}
			}
		}

		// Each ring's innermost enclosing ring.
		$parent = array();
		foreach ( array_keys( $this->name ) as $r ) {
			$chain = array();
			$at    = $r;
			while ( ! array_key_exists( $at, $parent ) ) {
				$link = $this->link[ $at ] ?? null;
				if ( null === $link || $link[0] ) {
					$parent[ $at ] = null === $link ? null : $link[1];
					break;
				}
				$chain[] = $at;
				$at      = $link[1];
				if ( count( $chain ) > count( $this->name ) ) {
					$parent[ $at ] = null; // Cannot happen: beside-links go to rings placed earlier.
					break;
				}
			}
			foreach ( $chain as $c ) {
				$parent[ $c ] = $parent[ $at ];
			}
		}
		// Outer rings first: a polygon inside another says more than the holes it puts out of place.
		$order = array_keys( $this->name );
		usort(
			$order,
			function ( int $a, int $b ): int {
				return array( min( 1, $this->name[ $a ][1] ), $a ) <=> array( min( 1, $this->name[ $b ][1] ), $b );
			}
		);
		foreach ( $order as $r ) {
			list( $p, $k ) = $this->name[ $r ];
			$up            = $parent[ $r ] ?? null;
			if ( 0 === $k ) {
				if ( null === $up ) {
					continue;
				}
				list( $q, $j ) = $this->name[ $up ];
				if ( $q === $p ) {
					return array( 'outside', array( $p, $j ) );
				}
				if ( 0 === $j ) {
					return array( 'overlap', array( $p, $q ) );
				}
				continue;
			}
			if ( null !== $up && $this->name[ $up ][0] === $p && 0 === $this->name[ $up ][1] ) {
				continue;
			}
			if ( null !== $up && $this->name[ $up ][0] === $p ) {
				return array( 'nested', array( $p, $k, $this->name[ $up ][1] ) );
			}
			return array( 'outside', array( $p, $k ) );
		}
		return null;
	}

	/**
	 * The union-find forest of rings and touching points: node => a node nearer its root.
	 *
	 * @var array<string, string>
	 */
	private array $root = array();

	/**
	 * A node's root in the forest (path halving).
	 *
	 * @param string $node A ring ('r' and its number) or a touching point ('p', polygon, key).
	 */
	private function root_of( string $node ): string {
		while ( isset( $this->root[ $node ] ) ) {
			$up = $this->root[ $node ];
			if ( isset( $this->root[ $up ] ) ) {
				$this->root[ $node ] = $this->root[ $up ];
			}
			$node = $up;
		}
		return $node;
	}

	/**
	 * The directions in which a ring leaves a point it passes through: towards its positions before
	 * and after it, or towards both ends of the edge the point lies inside.
	 *
	 * @param int                       $r     The ring.
	 * @param int                       $at    Its position index at the point, or -(edge + 1).
	 * @param array{0: float, 1: float} $point The point.
	 * @return array{0: array{0: float, 1: float}, 1: array{0: float, 1: float}}
	 */
	private function arms( int $r, int $at, array $point ): array {
		if ( $at < 0 ) {
			$t    = -$at - 1;
			$from = array( $this->ax[ $t ], $this->ay[ $t ] );
			$to   = array( $this->bx[ $t ], $this->by[ $t ] );
		} else {
			$m    = $this->edges[ $r ];
			$from = $this->positions[ $r ][ ( $at + $m - 1 ) % $m ];
			$to   = $this->positions[ $r ][ $at + 1 ];
		}
		return array(
			array( $from[0] - $point[0], $from[1] - $point[1] ),
			array( $to[0] - $point[0], $to[1] - $point[1] ),
		);
	}

	/**
	 * Whether direction d lies strictly inside the anticlockwise turn from direction a to direction
	 * b (no two of them the same direction).
	 *
	 * @param array{0: float, 1: float} $a From.
	 * @param array{0: float, 1: float} $b To.
	 * @param array{0: float, 1: float} $d The direction.
	 */
	private static function between( array $a, array $b, array $d ): bool {
		$ab = $a[0] * $b[1] - $a[1] * $b[0];
		$ad = $a[0] * $d[1] - $a[1] * $d[0];
		$db = $d[0] * $b[1] - $d[1] * $b[0];
		if ( $ab > 0.0 ) {
			return $ad > 0.0 && $db > 0.0;
		}
		if ( $ab < 0.0 ) {
			return $ad > 0.0 || $db > 0.0;
		}
		return $ad > 0.0;
	}

	/**
	 * Whether edge s, entering at its left end, lies above open edge t.
	 *
	 * @param int $s Entering edge.
	 * @param int $t Open edge.
	 */
	private function above( int $s, int $t ): bool {
		++self::$comparisons;
		$o = $this->orient_at( $t, $this->ax[ $s ], $this->ay[ $s ] );
		if ( 0.0 === $o ) {
			$o = $this->orient_at( $t, $this->bx[ $s ], $this->by[ $s ] );
		}
		return $o >= 0.0;
	}

	/**
	 * Twice the signed area of edge t's left end, right end and a point: positive above the edge.
	 *
	 * @param int   $t An edge.
	 * @param float $x The point's x.
	 * @param float $y The point's y.
	 */
	private function orient_at( int $t, float $x, float $y ): float {
		return self::orient( $this->ax[ $t ], $this->ay[ $t ], $this->bx[ $t ], $this->by[ $t ], $x, $y );
	}

	/**
	 * Whether two edges cross or run along each other (touching at a point is not bad).
	 *
	 * @param int $s An edge.
	 * @param int $t Another edge.
	 */
	private function bad( int $s, int $t ): bool {
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
		return self::segments_cross(
			array( $this->ax[ $s ], $this->ay[ $s ], $this->bx[ $s ], $this->by[ $s ] ),
			array( $this->ax[ $t ], $this->ay[ $t ], $this->bx[ $t ], $this->by[ $t ] )
		);
	}

	/**
	 * Whether two closed segments cross (at a point inside both) or overlap along a piece of line.
	 *
	 * @param array{0: float, 1: float, 2: float, 3: float} $a [x1, y1, x2, y2].
	 * @param array{0: float, 1: float, 2: float, 3: float} $b [x1, y1, x2, y2].
	 */
	public static function segments_cross( array $a, array $b ): bool {
		list( $ax, $ay, $bx, $by ) = $a;
		list( $cx, $cy, $dx, $dy ) = $b;
		$o1                        = self::sign( self::orient( $ax, $ay, $bx, $by, $cx, $cy ) );
		$o2                        = self::sign( self::orient( $ax, $ay, $bx, $by, $dx, $dy ) );
		$o3                        = self::sign( self::orient( $cx, $cy, $dx, $dy, $ax, $ay ) );
		$o4                        = self::sign( self::orient( $cx, $cy, $dx, $dy, $bx, $by ) );
		if ( $o1 * $o2 < 0 && $o3 * $o4 < 0 ) {
			return true;
		}
		if ( 0 !== $o1 || 0 !== $o2 ) {
			return false;
		}
		// Collinear: ordered along the line (by x, then y), the pieces overlap in more than a point.
		$ab = array( array( $ax, $ay ), array( $bx, $by ) );
		$cd = array( array( $cx, $cy ), array( $dx, $dy ) );
		sort( $ab );
		sort( $cd );
		$from = max( $ab[0], $cd[0] );
		$to   = min( $ab[1], $cd[1] );
		return $from < $to;
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
	 * The answer for two edges that cross, ring order first.
	 *
	 * @param int $s An edge.
	 * @param int $t Another edge.
	 * @return array{0: string, 1: array<int, int>}
	 */
	private function found( int $s, int $t ): array {
		if ( array( $this->ring[ $t ], $this->edge[ $t ] ) < array( $this->ring[ $s ], $this->edge[ $s ] ) ) {
			list( $s, $t ) = array( $t, $s );
		}
		$a = $this->name[ $this->ring[ $s ] ];
		$b = $this->name[ $this->ring[ $t ] ];
		return array( 'cross', array( $a[0], $a[1], $this->edge[ $s ], $b[0], $b[1], $this->edge[ $t ] ) );
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
