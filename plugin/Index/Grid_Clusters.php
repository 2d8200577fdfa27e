<?php
/**
 * Clusters of one tile from per-cell counts.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

/**
 * The server's clustering: a global grid, then a deterministic merge inside fixed blocks.
 *
 * At zoom z a tile is 512 pixels wide. Places are counted per grid cell of level `cell_level()`
 * (cells at most radius/2 pixels wide at that zoom); cells are merged greedily, the fullest first
 * (ties by cell code), each absorbing the cells whose centroid lies within `radius` pixels of its
 * own, but only inside one block of level `block_level()` (blocks at least `radius` wide, less
 * than twice). A block lies inside one tile, so a tile's clusters depend on its own places only:
 * every tile is built alone, no cluster is in two tiles, none is lost between them, and a
 * changed place changes one tile per zoom. The price: two clusters either side of a block's edge
 * may sit closer than `radius` (Supercluster, which merges across the whole map, cannot be
 * updated one place at a time at a million places).
 *
 * A cluster's position is the mean of its places' coordinates, inside its block, hence inside
 * its tile. Its id comes from its first cell and that cell's level: the same cluster keeps its id
 * from one request to the next, and ids never collide across zooms nor with post ids (ID_BASE).
 *
 * @since 0.6.0
 */
final class Grid_Clusters {

	/**
	 * Pixels of a tile's side (the map's 512-pixel tiles).
	 */
	public const TILE_SIZE = 512;

	/**
	 * Every cluster id is at least this (2^51): above any post id a site has, below 2^53 (exact in
	 * JavaScript).
	 */
	public const ID_BASE = 2251799813685248;

	/**
	 * Levels below a tile's level where the cells are at most radius/2 pixels wide.
	 *
	 * @param int $radius Cluster radius in pixels (10–200).
	 */
	public static function cell_depth( int $radius ): int {
		return (int) ceil( log( 2 * self::TILE_SIZE / max( 1, $radius ), 2 ) - 1e-9 );
	}

	/**
	 * Levels below a tile's level where the blocks are at least `radius` pixels wide, less than
	 * twice that.
	 *
	 * @param int $radius Cluster radius in pixels (10–200).
	 */
	public static function block_depth( int $radius ): int {
		return (int) floor( log( self::TILE_SIZE / max( 1, $radius ), 2 ) + 1e-9 );
	}

	/**
	 * The clusters of one tile.
	 *
	 * @param array<int, array{0: int, 1: float, 2: float}> $cells  Cell code at level $level => [places, sum of latitudes, sum of longitudes]; places > 0.
	 * @param int                                           $zoom   The tile's zoom.
	 * @param int                                           $level  The cells' level (zoom + cell_depth()).
	 * @param int                                           $radius Cluster radius in pixels.
	 * @return list<array{id: int, n: int, lat: float, lng: float, cells: int[]}> Clusters, the fullest first.
	 */
	public static function merge( array $cells, int $zoom, int $level, int $radius ): array {
		$shift  = 2 * ( $level - ( $zoom + self::block_depth( $radius ) ) );
		$blocks = array();
		foreach ( $cells as $cell => $sums ) {
			$blocks[ $cell >> $shift ][ $cell ] = $sums;
		}
		ksort( $blocks );
		$out = array();
		foreach ( $blocks as $block ) {
			foreach ( self::merge_block( $block, $zoom, $level, $radius ) as $cluster ) {
				$out[] = $cluster;
			}
		}
		usort(
			$out,
			static function ( array $a, array $b ): int {
				$by_size = $b['n'] <=> $a['n'];
				return 0 !== $by_size ? $by_size : $a['id'] <=> $b['id'];
			}
		);
		return $out;
	}

	/**
	 * The greedy merge of one block's cells.
	 *
	 * @param array<int, array{0: int, 1: float, 2: float}> $cells  The block's cells.
	 * @param int                                           $zoom   Zoom.
	 * @param int                                           $level  The cells' level.
	 * @param int                                           $radius Radius in pixels.
	 * @return list<array{id: int, n: int, lat: float, lng: float, cells: int[]}>
	 */
	private static function merge_block( array $cells, int $zoom, int $level, int $radius ): array {
		$order = array_keys( $cells );
		usort(
			$order,
			static function ( int $a, int $b ) use ( $cells ): int {
				$by_size = $cells[ $b ][0] <=> $cells[ $a ][0];
				return 0 !== $by_size ? $by_size : $a <=> $b;
			}
		);
		$points = array();
		foreach ( $order as $cell ) {
			list( $n, $lat, $lng ) = $cells[ $cell ];
			$points[ $cell ]       = self::pixel( $lat / $n, $lng / $n, $zoom );
		}
		$taken   = array();
		$reach   = $radius * $radius;
		$results = array();
		foreach ( $order as $seed ) {
			if ( isset( $taken[ $seed ] ) ) {
				continue;
			}
			$taken[ $seed ]        = true;
			$members               = array( $seed );
			list( $n, $lat, $lng ) = $cells[ $seed ];
			foreach ( $order as $other ) {
				if ( isset( $taken[ $other ] ) ) {
					continue;
				}
				$dx = $points[ $other ][0] - $points[ $seed ][0];
				$dy = $points[ $other ][1] - $points[ $seed ][1];
				if ( $dx * $dx + $dy * $dy <= $reach ) {
					$taken[ $other ] = true;
					$members[]       = $other;
					$n              += $cells[ $other ][0];
					$lat            += $cells[ $other ][1];
					$lng            += $cells[ $other ][2];
				}
			}
			$results[] = array(
				'id'    => self::ID_BASE + $seed * 32 + $level,
				'n'     => $n,
				'lat'   => $lat / $n,
				'lng'   => $lng / $n,
				'cells' => $members,
			);
		}
		return $results;
	}

	/**
	 * A position in pixels of the world at a zoom (Web Mercator, 512-pixel tiles).
	 *
	 * @param float $lat  Latitude.
	 * @param float $lng  Longitude.
	 * @param int   $zoom Zoom.
	 * @return array{0: float, 1: float}
	 */
	public static function pixel( float $lat, float $lng, int $zoom ): array {
		$size = self::TILE_SIZE * ( 2 ** $zoom );
		$lat  = max( -85.05112878, min( 85.05112878, $lat ) );
		$sin  = sin( deg2rad( $lat ) );
		return array(
			( $lng + 180 ) / 360 * $size,
			( 0.5 - log( ( 1 + $sin ) / ( 1 - $sin ) ) / ( 4 * M_PI ) ) * $size,
		);
	}
}
