<?php
/**
 * Morton codes of positions and tiles.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Index\Morton;
use Cairn\Maps\Tests\TestCase;

// phpcs:disable WordPress.WP.AlternativeFunctions.rand_mt_rand, WordPress.WP.AlternativeFunctions.rand_seeding_mt_srand -- seeded: the same positions every run.

/**
 * A position's code falls in its tile's range at every zoom, ranges nest, and the edges of the map
 * (latitudes past Web-Mercator's, longitude ±180) stay on it.
 *
 * @since 0.5.0
 */
final class MortonTest extends TestCase {

	/**
	 * The slippy-map tile of a position at a zoom, as tile servers compute it.
	 *
	 * @param float $lat Latitude.
	 * @param float $lng Longitude.
	 * @param int   $z   Zoom.
	 * @return array{0: int, 1: int}
	 */
	private static function tile( float $lat, float $lng, int $z ): array {
		$n   = 2 ** $z;
		$lat = max( -Morton::MAX_LAT, min( Morton::MAX_LAT, $lat ) );
		$x   = (int) floor( ( $lng + 180 ) / 360 * $n );
		$y   = (int) floor( ( 1 - asinh( tan( deg2rad( $lat ) ) ) / M_PI ) / 2 * $n );
		return array( min( $n - 1, max( 0, $x ) ), min( $n - 1, max( 0, $y ) ) );
	}

	/**
	 * Known tiles: Paris at zoom 10 is 518/352 (as on openstreetmap.org), the whole world at 0.
	 */
	public function test_known_tiles(): void {
		$code = Morton::code( 48.8566, 2.3522 );
		$this->assertSame( array( 518, 352 ), Morton::tile_of( Morton::cell( $code, 10 ) ) );
		$this->assertSame( 0, Morton::cell( $code, 0 ) );
		$this->assertSame( array( 0, ( 1 << 48 ) - 1 ), Morton::tile_range( 0, 0, 0 ) );
		// Bit 2i is x's bit i, bit 2i+1 is y's.
		$this->assertSame( 0b01, Morton::interleave( 1, 0 ) );
		$this->assertSame( 0b10, Morton::interleave( 0, 1 ) );
		$this->assertSame( 0b0110, Morton::interleave( 0b10, 0b01 ) );
	}

	/**
	 * For random positions, at every zoom 0..24, the code lies in the range of the position's tile
	 * and its cell is that tile.
	 */
	public function test_a_code_falls_in_its_tile_at_every_zoom(): void {
		mt_srand( 22 );
		for ( $i = 0; $i < 300; $i++ ) {
			$lat  = mt_rand( -90000000, 90000000 ) / 1e6;
			$lng  = mt_rand( -180000000, 180000000 ) / 1e6;
			$code = Morton::code( $lat, $lng );
			for ( $z = 0; $z <= 24; $z++ ) {
				list( $x, $y )        = self::tile( $lat, $lng, $z );
				list( $first, $last ) = Morton::tile_range( $z, $x, $y );
				$this->assertGreaterThanOrEqual( $first, $code, "$lat,$lng at zoom $z" );
				$this->assertLessThanOrEqual( $last, $code, "$lat,$lng at zoom $z" );
				$this->assertSame( array( $x, $y ), Morton::tile_of( Morton::cell( $code, $z ) ), "$lat,$lng at zoom $z" );
			}
		}
	}

	/**
	 * A tile's range is the union of its four children's, in order, without gaps.
	 */
	public function test_tile_ranges_nest(): void {
		mt_srand( 7 );
		for ( $i = 0; $i < 200; $i++ ) {
			$z      = mt_rand( 0, 23 );
			$x      = mt_rand( 0, 2 ** $z - 1 );
			$y      = mt_rand( 0, 2 ** $z - 1 );
			$parent = Morton::tile_range( $z, $x, $y );
			$ranges = array(
				Morton::tile_range( $z + 1, 2 * $x, 2 * $y ),
				Morton::tile_range( $z + 1, 2 * $x + 1, 2 * $y ),
				Morton::tile_range( $z + 1, 2 * $x, 2 * $y + 1 ),
				Morton::tile_range( $z + 1, 2 * $x + 1, 2 * $y + 1 ),
			);
			$this->assertSame( $parent[0], $ranges[0][0] );
			for ( $c = 1; $c < 4; $c++ ) {
				$this->assertSame( $ranges[ $c - 1 ][1] + 1, $ranges[ $c ][0] );
			}
			$this->assertSame( $parent[1], $ranges[3][1] );
			$this->assertSame( Morton::cell( $parent[0], $z ), Morton::cell( $parent[1], $z ) );
		}
	}

	/**
	 * Latitudes past ±85.05112878 are clamped to the map's edge rows; longitudes ±180 are its edge
	 * columns; nothing falls outside 48 bits.
	 */
	public function test_edges_of_the_map(): void {
		$top    = Morton::code( 89.9, 10 );
		$bottom = Morton::code( -90, 10 );
		$this->assertSame( Morton::code( Morton::MAX_LAT, 10 ), $top );
		$this->assertSame( 0, Morton::tile_of( Morton::cell( $top, 24 ) )[1] );
		$this->assertSame( ( 1 << 24 ) - 1, Morton::tile_of( Morton::cell( $bottom, 24 ) )[1] );
		$this->assertSame( 0, Morton::tile_of( Morton::cell( Morton::code( 0, -180 ), 24 ) )[0] );
		$this->assertSame( ( 1 << 24 ) - 1, Morton::tile_of( Morton::cell( Morton::code( 0, 180 ), 24 ) )[0] );
		$this->assertSame( ( 1 << 48 ) - 1, Morton::code( -90, 180 ) );
		$this->assertSame( 0, Morton::code( 90, -180 ) );
	}
}
