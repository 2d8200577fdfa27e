<?php
/**
 * Z-order (Morton) codes of positions on the Web-Mercator tile grid.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

/**
 * A position's code interleaves the bits of its slippy-map tile coordinates at zoom LEVEL (x from
 * the longitude, y from the latitude, as tile servers count them): bit 2i is bit i of x, bit 2i+1
 * bit i of y. The places of one tile z/x/y are then exactly the codes of one range (tile_range()),
 * and the cell of a code at a coarser level is the code shifted right (cell()): a tile or a box is
 * an index range scan on a plain B-tree, in MariaDB and in SQLite alike.
 *
 * @since 0.5.0
 */
final class Morton {

	/**
	 * The zoom of the codes: 24 bits of x and 24 of y, 48 bits in all.
	 */
	public const LEVEL = 24;

	/**
	 * Latitudes beyond this are drawn at the edge of a Web-Mercator map.
	 */
	public const MAX_LAT = 85.05112878;

	/**
	 * The code of a position (latitude clamped to ±MAX_LAT, longitude ±180 kept on the map).
	 *
	 * @param float $lat Latitude in degrees.
	 * @param float $lng Longitude in degrees.
	 */
	public static function code( float $lat, float $lng ): int {
		$size = 1 << self::LEVEL;
		$lat  = max( -self::MAX_LAT, min( self::MAX_LAT, $lat ) );
		$lng  = max( -180.0, min( 180.0, $lng ) );
		$rad  = deg2rad( $lat );
		$x    = (int) floor( ( $lng + 180.0 ) / 360.0 * $size );
		$y    = (int) floor( ( 1.0 - log( tan( $rad ) + 1.0 / cos( $rad ) ) / M_PI ) / 2.0 * $size );
		$x    = max( 0, min( $size - 1, $x ) );
		$y    = max( 0, min( $size - 1, $y ) );
		return self::interleave( $x, $y );
	}

	/**
	 * The inclusive range of codes of tile z/x/y (0 ≤ z ≤ LEVEL, 0 ≤ x, y < 2^z).
	 *
	 * @param int $z Zoom.
	 * @param int $x Column.
	 * @param int $y Row.
	 * @return array{0: int, 1: int}
	 */
	public static function tile_range( int $z, int $x, int $y ): array {
		$shift = 2 * ( self::LEVEL - $z );
		$first = self::interleave( $x, $y ) << $shift;
		return array( $first, $first + ( 1 << $shift ) - 1 );
	}

	/**
	 * The cell of a code at a level (0..LEVEL): the code of its tile at that zoom.
	 *
	 * @param int $code  Code.
	 * @param int $level Level.
	 */
	public static function cell( int $code, int $level ): int {
		return $code >> ( 2 * ( self::LEVEL - $level ) );
	}

	/**
	 * The tile z/x/y of a cell at level z.
	 *
	 * @param int $cell Cell.
	 * @return array{0: int, 1: int} x and y.
	 */
	public static function tile_of( int $cell ): array {
		return array( self::compact( $cell ), self::compact( $cell >> 1 ) );
	}

	/**
	 * The code of x and y, interleaved (each below 2^24).
	 *
	 * @param int $x Column.
	 * @param int $y Row.
	 */
	public static function interleave( int $x, int $y ): int {
		return self::spread( $x ) | ( self::spread( $y ) << 1 );
	}

	/**
	 * The bits of a 24-bit number moved to the even positions (a byte at a time, from a table).
	 *
	 * @param int $v Number.
	 */
	private static function spread( int $v ): int {
		static $bytes = null;
		if ( null === $bytes ) {
			$bytes = array();
			for ( $b = 0; $b < 256; $b++ ) {
				$spread = 0;
				for ( $i = 0; $i < 8; $i++ ) {
					$spread |= ( ( $b >> $i ) & 1 ) << ( 2 * $i );
				}
				$bytes[ $b ] = $spread;
			}
		}
		return $bytes[ $v & 0xFF ] | ( $bytes[ ( $v >> 8 ) & 0xFF ] << 16 ) | ( $bytes[ ( $v >> 16 ) & 0xFF ] << 32 );
	}

	/**
	 * The even bits of a number, gathered (the inverse of spread()).
	 *
	 * @param int $v Number.
	 */
	private static function compact( int $v ): int {
		$result = 0;
		for ( $i = 0; $i < self::LEVEL; $i++ ) {
			$result |= ( ( $v >> ( 2 * $i ) ) & 1 ) << $i;
		}
		return $result;
	}
}
