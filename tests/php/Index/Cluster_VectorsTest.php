<?php
/**
 * Tiles against supercluster's vectors (tests/fixtures/cluster-vectors.json).
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Index\Grid_Clusters;
use Cairn\Maps\Index\Index_Schema;
use Cairn\Maps\Index\Morton;
use Cairn\Maps\Index\Place_Index;
use Cairn\Maps\Index\Place_Store;
use Cairn\Maps\Tests\TestCase;

/**
 * Seeds the vectors' 10,000 places into the index, asks the tiles route for every tile that can
 * hold a mark at zooms 0..8 (0..16 with CAIRN_CLUSTER_VECTORS_ALL=1), and compares with what supercluster drew on
 * the same places (bin/cluster-vectors.mjs): the number of marks, the least distance between
 * two marks (across tiles), and the expansion zoom of supercluster's sampled clusters.
 *
 * @since 0.9.0
 */
final class Cluster_VectorsTest extends TestCase {

	/**
	 * Bulk-inserts the places and their cells (the index's own rows, without posts).
	 *
	 * @param array<int, array{0: float, 1: float}> $places [lng, lat] in post-id order.
	 */
	private function seed( array $places ): void {
		global $wpdb;
		$table = Index_Schema::table( 'cairn_places' );
		foreach ( array_chunk( $places, 2000, true ) as $chunk ) {
			$rows = array();
			foreach ( $chunk as $i => $place ) {
				$rows[] = $wpdb->prepare( '(%d,%d,%s,%s,0,%s,%s)', $i + 1, Morton::code( $place[1], $place[0] ), (string) $place[1], (string) $place[0], 'Place ' . ( $i + 1 ), Place_Store::sort_key( 'Place ' . ( $i + 1 ) ) );
			}
			$wpdb->query( "INSERT INTO $table (post_id, code, lat, lng, combo, title, sort_key) VALUES " . implode( ',', $rows ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.PreparedSQL.NotPrepared -- a test's prepared rows.
		}
		$cells = Index_Schema::table( 'cairn_place_cells' );
		foreach ( Place_Index::CELL_LEVELS as $level ) {
			$shift = 2 * ( Morton::LEVEL - $level );
			$wpdb->query( "INSERT INTO $cells (level, cell, combo, n, sum_lat, sum_lng) SELECT $level, code >> $shift, combo, COUNT(*), SUM(lat), SUM(lng) FROM $table GROUP BY code >> $shift, combo" ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- a test's seed.
		}
	}

	/**
	 * The vectors file.
	 *
	 * @return array<string, mixed>
	 */
	private function vectors(): array {
		$vectors = wp_json_file_decode( dirname( __DIR__, 2 ) . '/fixtures/cluster-vectors.json', array( 'associative' => true ) );
		$this->assertIsArray( $vectors );
		return $vectors;
	}

	/**
	 * Per zoom: marks within 20 % of supercluster's, no two closer than half the radius (or than
	 * supercluster's own closest pair, where it has one closer), every place counted once, and
	 * supercluster's expansion zoom for each sampled cluster: on 10,000 seeded places.
	 */
	public function test_tiles_draw_what_supercluster_draws(): void {
		$vectors = $this->vectors();
		$this->compare( $vectors['options'], $vectors['places'], $vectors['zooms'], getenv( 'CAIRN_CLUSTER_VECTORS_ALL' ) ? (int) $vectors['options']['maxZoom'] : 8, 'seeded' );
	}

	/**
	 * The same on real, clustered data: the demo's places (what `npm start` and the Live Preview
	 * show), at every zoom.
	 */
	public function test_tiles_draw_what_supercluster_draws_on_the_demo_places(): void {
		$vectors = $this->vectors();
		$this->compare( $vectors['options'], $vectors['demo']['places'], $vectors['demo']['zooms'], (int) $vectors['options']['maxZoom'], 'demo' );
	}

	/**
	 * Seeds places, asks the tiles of every zoom up to $last and compares with supercluster's.
	 *
	 * @param array<string, int>                    $options  Supercluster's options (radius, maxZoom).
	 * @param array<int, array{0: float, 1: float}> $places   [lng, lat] in post-id order.
	 * @param array<int, array<string, mixed>>      $zooms    What supercluster drew, per zoom.
	 * @param int                                   $last     The last zoom compared.
	 * @param string                                $label    The set's name, for the report.
	 */
	private function compare( array $options, array $places, array $zooms, int $last, string $label ): void {
		$radius  = (int) $options['radius'];
		$maxzoom = (int) $options['maxZoom'];
		$this->seed( $places );
		$query  = array(
			'radius'  => (string) $radius,
			'maxzoom' => (string) $maxzoom,
		);
		$report = array();
		// Seeded zooms 9..16 ask ~150,000 tiles (about ten minutes): with CAIRN_CLUSTER_VECTORS_ALL=1 only.
		foreach ( array_slice( $zooms, 0, $last + 1 ) as $expected ) {
			$z     = (int) $expected['zoom'];
			$tiles = array();
			$reach = 2 * $radius / ( Grid_Clusters::TILE_SIZE * 2 ** $z ); // A cluster lies within 2 × radius of a place of it.
			foreach ( $places as $place ) {
				list( $px, $py ) = Grid_Clusters::pixel( $place[1], $place[0], 0 );
				foreach ( array( -1, 1 ) as $sx ) {
					foreach ( array( -1, 1 ) as $sy ) {
						$x                = (int) max( 0, min( 2 ** $z - 1, floor( ( $px / Grid_Clusters::TILE_SIZE + $sx * $reach ) * 2 ** $z ) ) );
						$y                = (int) max( 0, min( 2 ** $z - 1, floor( ( $py / Grid_Clusters::TILE_SIZE + $sy * $reach ) * 2 ** $z ) ) );
						$tiles[ "$x/$y" ] = array( $x, $y );
					}
				}
			}
			$marks    = array();
			$clusters = array();
			$counted  = 0;
			foreach ( $tiles as list( $x, $y ) ) {
				$response = $this->rest( 'GET', "/cairn/v1/tiles/$z/$x/$y", $query );
				$this->assertSame( 200, $response->get_status() );
				foreach ( $response->get_data()['features'] as $feature ) {
					list( $lng, $lat ) = $feature['geometry']['coordinates'];
					$marks[]           = Grid_Clusters::pixel( $lat, $lng, $z );
					$count             = $feature['properties']['point_count'] ?? 1;
					$counted          += $count;
					if ( ! empty( $feature['properties']['cluster'] ) ) {
						$clusters[ sprintf( '%.5f,%.5f,%d', $lng, $lat, $count ) ] = $feature['properties']['expansion_zoom'];
					}
				}
			}
			$spacing  = self::spacing( $marks, 4 * $radius );
			$report[] = sprintf( 'z%d: %d marks (supercluster %d), spacing %.1f px (%.1f), %d tiles', $z, count( $marks ), $expected['marks'], $spacing, $expected['spacing'], count( $tiles ) );
			$this->assertSame( count( $places ), $counted, "zoom $z counts every place once" );
			$this->assertEqualsWithDelta( $expected['marks'], count( $marks ), 0.2 * $expected['marks'], "zoom $z: marks within 20 % of supercluster's" );
			$this->assertGreaterThanOrEqual( min( $radius / 2, $expected['spacing'] ) - 0.5, $spacing, "zoom $z: no two marks closer than half the radius" );
			foreach ( $expected['sample'] as list( $lng, $lat, $count, $expansion ) ) {
				$key = sprintf( '%.5f,%.5f,%d', $lng, $lat, $count );
				$this->assertArrayHasKey( $key, $clusters, "zoom $z: supercluster's cluster of $count at $lng, $lat" );
				$this->assertSame( $expansion, $clusters[ $key ], "zoom $z: the expansion zoom of the cluster of $count at $lng, $lat" );
			}
		}
		fwrite( STDERR, "\n[{$label}]\n" . implode( "\n", $report ) . "\n" ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fwrite -- the measured numbers, for the record.
	}

	/**
	 * The least distance between two points, or $cap when no two are closer.
	 *
	 * @param array<int, array{0: float, 1: float}> $points Pixels.
	 * @param float                                 $cap    Largest distance looked for.
	 */
	private static function spacing( array $points, float $cap ): float {
		$grid = array();
		$best = $cap;
		foreach ( $points as list( $x, $y ) ) {
			$gx = (int) floor( $x / $cap );
			$gy = (int) floor( $y / $cap );
			for ( $dx = -1; $dx <= 1; $dx++ ) {
				for ( $dy = -1; $dy <= 1; $dy++ ) {
					foreach ( $grid[ ( $gx + $dx ) . '/' . ( $gy + $dy ) ] ?? array() as list( $ox, $oy ) ) {
						$best = min( $best, hypot( $ox - $x, $oy - $y ) );
					}
				}
			}
			$grid[ "$gx/$gy" ][] = array( $x, $y );
		}
		return $best;
	}
}
