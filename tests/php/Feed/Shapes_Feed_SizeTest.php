<?php
/**
 * The shapes feed at size: 500 routes of 2,000 vertices beside many points.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Feed;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Feed\Shape_Presence;
use Cairn\Maps\Feed\Shapes_Feed;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Plugin;
use Cairn\Maps\Rest\Shapes_Controller;
use Cairn\Maps\Tests\TestCase;

/**
 * Bulk markers (SQL in the test's transaction, as a site that grew to this size) and 500 routes of
 * 2,000 vertices each stored as `_cairn_shape` text: the whole shapes feed builds in bounded memory
 * and time (geometries spliced, never decoded), is served from the cache after, and a map's
 * "does this selection hold a shape?" costs one indexed read, then none.
 *
 * @since 0.5.0
 */
final class Shapes_Feed_SizeTest extends TestCase {

	use Plugin_Feed;

	/**
	 * The plugin's shapes feed.
	 */
	private function shapes_feed(): Shapes_Feed {
		$reflection = new \ReflectionProperty( Shapes_Controller::class, 'feed' );
		$reflection->setAccessible( true );
		return $reflection->getValue( Plugin::instance()->get( 'shapes' ) );
	}

	/**
	 * Inserts $count published markers; the first $shapes of them carry a route of $vertices
	 * vertices (with elevation measures), in group `trails`; the others are in `huts`.
	 *
	 * @param int $count    Markers.
	 * @param int $shapes   Of which routes.
	 * @param int $vertices Vertices a route.
	 */
	private function bulk( int $count, int $shapes, int $vertices ): void {
		global $wpdb;
		mt_srand( 21 ); // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_seeding_mt_srand -- the same data every run.
		$groups = array();
		foreach ( array( 'trails', 'huts' ) as $slug ) {
			$term            = wp_insert_term( ucfirst( $slug ), Post_Type::TAXONOMY, array( 'slug' => $slug ) );
			$groups[ $slug ] = (int) $term['term_taxonomy_id'];
		}
		$now = current_time( 'mysql', true );
		for ( $start = 1; $start <= $count; $start += 5000 ) {
			$end  = min( $count, $start + 4999 );
			$rows = array();
			for ( $i = $start; $i <= $end; $i++ ) {
				$rows[] = $wpdb->prepare( '(1, %s, %s, %s, %s, %s, %s)', $now, $now, "Place {$i}", "bulk-place-{$i}", Post_Type::POST_TYPE, 'publish' );
			}
			// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared -- each row was prepared above.
			$wpdb->query( "INSERT INTO {$wpdb->posts} (post_author, post_date_gmt, post_modified_gmt, post_title, post_name, post_type, post_status) VALUES " . implode( ',', $rows ) );
			$first = (int) $wpdb->get_var( 'SELECT LAST_INSERT_ID()' );
			$meta  = array();
			$rels  = array();
			for ( $id = $first; $id <= $first + $end - $start; $id++ ) {
				$meta[] = $wpdb->prepare( '(%d, %s, %s), (%d, %s, %s)', $id, Post_Type::META_LAT, (string) ( mt_rand( 43000000, 48000000 ) / 1e6 ), $id, Post_Type::META_LNG, (string) ( mt_rand( 5000000, 15000000 ) / 1e6 ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_mt_rand -- seeded test data.
				$rels[] = sprintf( '(%d, %d, 0)', $id, $groups['huts'] );
			}
			// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared -- each row was prepared above.
			$wpdb->query( "INSERT INTO {$wpdb->postmeta} (post_id, meta_key, meta_value) VALUES " . implode( ',', $meta ) );
			// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared -- integers only.
			$wpdb->query( "INSERT INTO {$wpdb->term_relationships} (object_id, term_taxonomy_id, term_order) VALUES " . implode( ',', $rels ) );
			if ( 1 === $start ) {
				$this->bulk_shapes( $first, $shapes, $vertices, $groups );
			}
		}
		do_action( 'cairn_maps_markers_changed' ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- the plugin's own hook.
	}

	/**
	 * Gives the markers from $first on a route each (and moves them from `huts` to `trails`).
	 *
	 * @param int                $first    First marker id.
	 * @param int                $shapes   Routes.
	 * @param int                $vertices Vertices a route.
	 * @param array<string, int> $groups   term_taxonomy_id by slug.
	 */
	private function bulk_shapes( int $first, int $shapes, int $vertices, array $groups ): void {
		global $wpdb;
		for ( $start = 0; $start < $shapes; $start += 20 ) {
			$meta = array();
			$last = $first + min( $shapes, $start + 20 );
			for ( $id = $first + $start; $id < $last; $id++ ) {
				$lng    = mt_rand( 5000000, 15000000 ) / 1e6; // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_mt_rand -- seeded test data.
				$lat    = mt_rand( 43000000, 48000000 ) / 1e6; // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_mt_rand -- seeded test data.
				$points = array();
				for ( $v = 0; $v < $vertices; $v++ ) {
					$lng     += mt_rand( -300, 500 ) / 1e6; // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_mt_rand -- seeded test data.
					$lat     += mt_rand( -300, 500 ) / 1e6; // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_mt_rand -- seeded test data.
					$points[] = '[' . round( $lng, 6 ) . ',' . round( $lat, 6 ) . ']';
				}
				$text   = '{"geometry":{"type":"LineString","coordinates":[' . implode( ',', $points ) . ']},"bbox":[5,43,16,49],"length_m":12345,"ascent_m":800,"descent_m":790,"profile":[[0,1200],[6000,1800],[12345,1210]]}';
				$meta[] = $wpdb->prepare( '(%d, %s, %s)', $id, Shapes_Feed::META, $text );
			}
			// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared -- each row was prepared above.
			$wpdb->query( "INSERT INTO {$wpdb->postmeta} (post_id, meta_key, meta_value) VALUES " . implode( ',', $meta ) );
		}
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- fixture data.
		$wpdb->query( $wpdb->prepare( "UPDATE {$wpdb->term_relationships} SET term_taxonomy_id = %d WHERE object_id BETWEEN %d AND %d", $groups['trails'], $first, $first + $shapes - 1 ) );
	}

	/**
	 * Builds the whole shapes feed; checks time, memory and chunks, that the cache serves it after,
	 * and what a map's shapesUrl check costs.
	 *
	 * @param int $count Markers.
	 */
	private function assert_bounded_build( int $count ): void {
		$this->bulk( $count, 500, 2000 );
		$feed = $this->shapes_feed();
		$feed->etag( array() ); // Autoloading outside the measurement.

		memory_reset_peak_usage();
		$baseline = memory_get_usage();
		$queries  = 0;
		$count_q  = static function ( $sql ) use ( &$queries ) {
			++$queries;
			return $sql;
		};
		add_filter( 'query', $count_q );
		$payload = $feed->payload( array() );
		remove_filter( 'query', $count_q );
		$peak = memory_get_peak_usage() - $baseline;

		$this->assertSame( 500, $payload->count() );
		$this->assertLessThan( 32 * 1024 * 1024, $peak, sprintf( 'peak %.1f MB above baseline', $peak / 1048576 ) );
		// Bounded work as a count, not a time: the routes are read in batches, not one query each.
		$this->assertLessThan( 100, $queries, 'built with a bounded number of queries' );
		$built = $queries;
		foreach ( $payload->gzip_chunks() as $chunk ) {
			$this->assertLessThan( 1024 * 1024, strlen( base64_encode( $chunk ) ), 'each stored chunk is under 1 MB' ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_encode -- the stored form.
		}

		$again = $feed->payload( array() );
		$this->assertSame( $payload->gzip_bytes(), $again->gzip_bytes() );
		$group = $feed->payload( array( 'groups' => array( 'trails' ) ) );
		$this->assertSame( 500, $group->count() );

		update_option( Shape_Presence::OPTION, array() ); // Forgotten: measure the read.
		$presence = new Shape_Presence();
		$this->assertTrue( $presence->has_shapes( array( 'groups' => array( 'trails' ) ) ) );
		$this->assertFalse( $presence->has_shapes( array( 'groups' => array( 'huts' ) ) ) );
		$queries = 0;
		add_filter( 'query', $count_q );
		$this->assertFalse( $presence->has_shapes( array( 'groups' => array( 'huts' ) ) ) );
		remove_filter( 'query', $count_q );
		$this->assertSame( 0, $queries, 'a known selection is answered without a query' );

		fwrite( // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fwrite
			STDERR,
			sprintf(
				"\n[shapes feed] %d markers, 500 routes × 2000 vertices: built with %d queries, peak +%.1f MB, %.1f MB JSON, %.2f MB gzip\n",
				$count,
				$built,
				$peak / 1048576,
				$payload->json_bytes() / 1e6,
				$payload->gzip_bytes() / 1e6
			)
		);
	}

	/**
	 * 20,000 markers, 500 of them routes.
	 */
	public function test_routes_beside_points(): void {
		$this->assert_bounded_build( 20000 );
	}

	/**
	 * The same beside 100,000 markers (slow: bash bin/test-php.sh --group slow).
	 *
	 * @group slow
	 */
	public function test_routes_beside_hundred_thousand_points(): void {
		$this->assert_bounded_build( 100000 );
	}
}
