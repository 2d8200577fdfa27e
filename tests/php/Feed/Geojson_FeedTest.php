<?php
/**
 * The GeoJSON feed builder.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Feed;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Feed\Geojson_Feed;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Tests\TestCase;

/**
 * Format, precision, chunking, and bounded memory and size at 100,000 markers.
 *
 * @since 0.1.0
 */
final class Geojson_FeedTest extends TestCase {

	/**
	 * The plugin's feed, through the controller's route (the object the site uses).
	 */
	private function feed(): Geojson_Feed {
		$reflection = new \ReflectionProperty( \Cairn\Maps\Rest\Markers_Controller::class, 'feed' );
		$reflection->setAccessible( true );
		return $reflection->getValue( \Cairn\Maps\Plugin::instance()->get( 'markers' ) );
	}

	/**
	 * Inserts published markers straight into the tables (fast enough for 100,000 in a test),
	 * spread over the whole world, deterministic.
	 *
	 * @param int $count How many.
	 */
	public static function bulk_markers( int $count ): void {
		global $wpdb;
		mt_srand( 42 ); // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_seeding_mt_srand -- the same data every run.
		$now = current_time( 'mysql', true );
		for ( $start = 1; $start <= $count; $start += 5000 ) {
			$end  = min( $count, $start + 4999 );
			$rows = array();
			for ( $i = $start; $i <= $end; $i++ ) {
				$rows[] = $wpdb->prepare( '(1, %s, %s, %s, %s, %s, %s)', $now, $now, "Marker {$i}", "bulk-marker-{$i}", Post_Type::POST_TYPE, 'publish' );
			}
			// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared -- each row was prepared above.
			$wpdb->query( "INSERT INTO {$wpdb->posts} (post_author, post_date_gmt, post_modified_gmt, post_title, post_name, post_type, post_status) VALUES " . implode( ',', $rows ) );
			$first = (int) $wpdb->get_var( 'SELECT LAST_INSERT_ID()' ); // The first id of this multi-row insert; the rest follow.
			$meta  = array();
			for ( $id = $first; $id <= $first + $end - $start; $id++ ) {
				$meta[] = $wpdb->prepare( '(%d, %s, %s), (%d, %s, %s)', $id, Post_Type::META_LAT, Post_Type::format_coordinate( mt_rand( -850000000, 850000000 ) / 1e7 ), $id, Post_Type::META_LNG, Post_Type::format_coordinate( mt_rand( -1800000000, 1800000000 ) / 1e7 ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_mt_rand -- seeded test data.
			}
			// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared -- each row was prepared above.
			$wpdb->query( "INSERT INTO {$wpdb->postmeta} (post_id, meta_key, meta_value) VALUES " . implode( ',', $meta ) );
		}
		do_action( 'cairn_maps_markers_changed' );
	}

	/**
	 * Coordinates: 5 decimals, shortest form, no negative zero.
	 */
	public function test_feature_json_numbers(): void {
		$json = Geojson_Feed::feature_json(
			array(
				'id'     => 7,
				'title'  => 'A "quoted" <b>title</b> &amp; more',
				'lng'    => -0.0000001,
				'lat'    => 12.3456789,
				'groups' => array( 'a', 'b' ),
			)
		);
		$this->assertSame( '{"type":"Feature","properties":{"groups":["a","b"],"title":"A \"quoted\" title & more"},"id":7,"geometry":{"type":"Point","coordinates":[0,12.34568]}}', $json );
		$this->assertStringContainsString(
			'[180,-90]',
			Geojson_Feed::feature_json(
				array(
					'id'    => 1,
					'title' => '',
					'lng'   => 180.0,
					'lat'   => -90.0,
				)
			)
		);
	}

	/**
	 * The precision filter is honoured within 4…7 decimals.
	 */
	public function test_precision_filter(): void {
		$this->create_marker(
			array(
				'lat' => 1.23456789,
				'lng' => 2.5,
			)
		);
		add_filter(
			'cairn_maps_feed_precision',
			static function () {
				return 7;
			}
		);
		$features = $this->rest( 'GET', '/cairn/v1/markers' )->get_data()['features'];
		$this->assertSame( array( 2.5, 1.2345679 ), $features[0]['geometry']['coordinates'] );
	}

	/**
	 * Invalid UTF-8 that reached the database by other means still gives valid JSON.
	 */
	public function test_stored_invalid_utf8_still_gives_valid_json(): void {
		global $wpdb;
		$id = $this->create_marker();
		$wpdb->query( $wpdb->prepare( "UPDATE {$wpdb->posts} SET post_title = CONCAT('Bad ', UNHEX('FF')) WHERE ID = %d", $id ) );
		$wpdb->suppress_errors( true );
		do_action( 'cairn_maps_markers_changed' );
		$data = $this->rest( 'GET', '/cairn/v1/markers' )->get_data();
		$this->assertIsArray( $data );
		$this->assertCount( 1, $data['features'] );
	}

	/**
	 * Builds the unfiltered feed for $count bulk markers and checks memory, size and chunks.
	 *
	 * @param int $count Markers.
	 */
	private function assert_bounded_build( int $count ): void {
		self::bulk_markers( $count );
		$this->feed(); // Autoloading outside the measurement.

		memory_reset_peak_usage();
		$baseline = memory_get_usage();
		$queries  = 0;
		$count_q  = static function ( $sql ) use ( &$queries ) {
			++$queries;
			return $sql;
		};
		add_filter( 'query', $count_q );
		$payload = $this->feed()->payload( array() );
		remove_filter( 'query', $count_q );
		$peak = memory_get_peak_usage() - $baseline;

		$this->assertSame( $count, $payload->count() );
		$per_marker = $payload->gzip_bytes() / $count;
		$this->assertLessThanOrEqual( 16.0, $per_marker, sprintf( '%.2f bytes per marker gzipped', $per_marker ) );
		// PHP arrays of the same features would take ~1.5 kB each: 60 MB at 40k, 150 MB at 100k.
		$this->assertLessThan( 16 * 1024 * 1024, $peak, sprintf( 'peak %.1f MB above baseline', $peak / 1048576 ) );

		$this->assertGreaterThan( 1, count( $payload->gzip_chunks() ) );
		foreach ( $payload->gzip_chunks() as $chunk ) {
			$this->assertLessThan( 1024 * 1024, strlen( base64_encode( $chunk ) ), 'each stored chunk is under 1 MB' ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_encode -- the stored form.
		}
		$json = (string) gzdecode( implode( '', $payload->gzip_chunks() ) );
		$this->assertSame( $payload->json_bytes(), strlen( $json ) );
		$this->assertSame( $json, $payload->json() );

		memory_reset_peak_usage();
		$baseline = memory_get_usage();
		$again    = $this->feed()->payload( array() );
		$this->assertSame( $payload->gzip_chunks(), $again->gzip_chunks(), 'served from the cache' );
		$printed = 0;
		// Count and drop the output as it comes, like a web server sending it on.
		ob_start(
			static function ( $buffer ) use ( &$printed ) {
				$printed += strlen( $buffer );
				return '';
			},
			65536
		);
		$again->print_json();
		ob_end_clean();
		$this->assertSame( $payload->json_bytes(), $printed );
		$this->assertLessThan( 16 * 1024 * 1024, memory_get_peak_usage() - $baseline, 'serving from the cache is bounded too' );

		fwrite( // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fwrite
			STDERR,
			sprintf(
				"\n[feed] %d markers: built with %d queries, peak +%.1f MB, %.1f MB JSON, %.2f MB gzip (%.2f B/marker)\n",
				$count,
				$queries,
				$peak / 1048576,
				$payload->json_bytes() / 1e6,
				$payload->gzip_bytes() / 1e6,
				$per_marker
			)
		);
	}

	/**
	 * 40,000 markers: bounded memory, about 16 bytes per marker gzipped, chunks under 1 MB.
	 */
	public function test_large_feed_is_bounded(): void {
		$this->assert_bounded_build( 40000 );
	}

	/**
	 * The same at 100,000 markers (slow: bash bin/test-php.sh --group slow).
	 *
	 * @group slow
	 */
	public function test_hundred_thousand_markers(): void {
		$this->assert_bounded_build( 100000 );
	}
}
