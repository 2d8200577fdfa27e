<?php
/**
 * Supercluster's hierarchical greedy clustering, in PHP.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

/**
 * The clustering of supercluster 9 (the runtime's engine), step for step, so a tile drawn by the
 * server shows what the browser would: positions on the Mercator square [0, 1]² kept as integers
 * ((c − 0.5) · 2³⁰, truncated, as supercluster's Int32 arrays keep them); from the places (the
 * level above the cluster max zoom) down, zoom by zoom, each node not yet taken, in order, takes
 * every node not yet taken within `radius / (extent · 2^zoom)` of it and becomes a cluster at the
 * weighted mean of their positions. A node nothing joins is carried down unchanged.
 *
 * A node is `[x, y, places, origin, made]`: `origin` names it (a post id, or a cell code when
 * the leaves are grid cells), `made` is the zoom it was formed at (-1 for a place). Its
 * expansion zoom is `made + 1`, as supercluster's getClusterExpansionZoom() gives it: the
 * first zoom at which it is split.
 *
 * @since 0.9.0
 */
final class Cluster_Tree {

	/**
	 * Units of the Mercator square's side (supercluster's SCALE).
	 */
	public const SCALE = 1073741824;

	/**
	 * A longitude in units (lngX(), encoded).
	 *
	 * @param float $lng Longitude.
	 */
	public static function x( float $lng ): int {
		return (int) ( ( $lng / 360 + 0.5 - 0.5 ) * self::SCALE );
	}

	/**
	 * A latitude in units (latY(), clamped to the square, encoded).
	 *
	 * @param float $lat Latitude.
	 */
	public static function y( float $lat ): int {
		$sin = sin( $lat * M_PI / 180 );
		$y   = ( 0.5 - 0.25 * log( ( 1 + $sin ) / ( 1 - $sin ) ) / M_PI );
		$y   = $y < 0 ? 0.0 : ( $y > 1 ? 1.0 : $y );
		return (int) ( ( $y - 0.5 ) * self::SCALE );
	}

	/**
	 * The longitude of units.
	 *
	 * @param int $x Units.
	 */
	public static function lng( int $x ): float {
		return ( $x * ( 1 / self::SCALE ) + 0.5 - 0.5 ) * 360;
	}

	/**
	 * The latitude of units.
	 *
	 * @param int $y Units.
	 */
	public static function lat( int $y ): float {
		$y2 = ( 180 - ( $y * ( 1 / self::SCALE ) + 0.5 ) * 360 ) * M_PI / 180;
		return 360 * atan( exp( $y2 ) ) / M_PI - 90;
	}

	/**
	 * Clusters nodes zoom by zoom, from $from down to $to.
	 *
	 * @param list<array{0: int, 1: int, 2: int, 3: int, 4: int}> $nodes  Nodes, in order.
	 * @param int                                                 $from   The first zoom clustered (the cluster max zoom, for places).
	 * @param int                                                 $to     The last zoom clustered.
	 * @param int                                                 $radius Radius in pixels.
	 * @param int                                                 $extent Pixels of a tile's side.
	 * @return list<array{0: int, 1: int, 2: int, 3: int, 4: int}> The nodes at zoom $to.
	 */
	public static function cluster( array $nodes, int $from, int $to, int $radius, int $extent ): array {
		for ( $zoom = $from; $zoom >= $to; $zoom-- ) {
			$nodes = self::step( $nodes, $zoom, $radius, $extent );
		}
		return $nodes;
	}

	/**
	 * One zoom of supercluster's _cluster().
	 *
	 * @param list<array{0: int, 1: int, 2: int, 3: int, 4: int}> $nodes  Nodes of the zoom above.
	 * @param int                                                 $zoom   Zoom.
	 * @param int                                                 $radius Radius in pixels.
	 * @param int                                                 $extent Tile side in pixels.
	 * @return list<array{0: int, 1: int, 2: int, 3: int, 4: int}>
	 */
	private static function step( array $nodes, int $zoom, int $radius, int $extent ): array {
		$r    = $radius / ( $extent * ( 1 << $zoom ) ) * self::SCALE;
		$r2   = $r * $r;
		$side = max( 2, (int) ceil( 2 * $r ) );
		$half = intdiv( self::SCALE, 2 );
		$grid = array();
		foreach ( $nodes as $i => $node ) {
			$grid[ intdiv( $node[0] + $half, $side ) * 67108864 + intdiv( $node[1] + $half, $side ) ][] = $i;
		}
		$taken = array();
		$out   = array();
		foreach ( $nodes as $i => $node ) {
			if ( isset( $taken[ $i ] ) ) {
				continue;
			}
			$taken[ $i ]   = true;
			list( $x, $y ) = $node;
			$gx            = intdiv( $x + $half, $side );
			$gy            = intdiv( $y + $half, $side );
			$nx            = ( $x + $half ) - $gx * $side < $side / 2 ? $gx - 1 : $gx + 1;
			$ny            = ( $y + $half ) - $gy * $side < $side / 2 ? $gy - 1 : $gy + 1;
			$joined        = array();
			foreach ( array( $gx, $nx ) as $cx ) {
				foreach ( array( $gy, $ny ) as $cy ) {
					foreach ( $grid[ $cx * 67108864 + $cy ] ?? array() as $j ) {
						if ( isset( $taken[ $j ] ) ) {
							continue;
						}
						$dx = $nodes[ $j ][0] - $x;
						$dy = $nodes[ $j ][1] - $y;
						if ( $dx * $dx + $dy * $dy <= $r2 ) {
							$joined[] = $j;
						}
					}
				}
			}
			if ( array() === $joined ) {
				$out[] = $node;
				continue;
			}
			$n  = $node[2];
			$wx = $x * $n;
			$wy = $y * $n;
			foreach ( $joined as $j ) {
				$taken[ $j ] = true;
				$n          += $nodes[ $j ][2];
				$wx         += $nodes[ $j ][0] * $nodes[ $j ][2];
				$wy         += $nodes[ $j ][1] * $nodes[ $j ][2];
			}
			$out[] = array( (int) ( $wx / $n ), (int) ( $wy / $n ), $n, $node[3], $zoom );
		}
		return $out;
	}
}
