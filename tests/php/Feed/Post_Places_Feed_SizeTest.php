<?php
/**
 * The posts feed at size: bounded memory, compact, chunked.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Feed;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Location_Types;
use Cairn\Maps\Feed\Post_Places_Feed;
use Cairn\Maps\Plugin;
use Cairn\Maps\Rest\Markers_Controller;
use Cairn\Maps\Tests\TestCase;

/**
 * Tens of thousands of posts with places (bulk SQL in the test's transaction, as a site that grew
 * to this size), each with a category and half with a featured image: the whole posts feed builds
 * in bounded memory (never a WP_Post per post) and is served from the cache after.
 *
 * @since 0.3.0
 */
final class Post_Places_Feed_SizeTest extends TestCase {

	use Plugin_Feed;
	use Post_Places_Fixtures;

	/**
	 * The plugin's posts feed.
	 */
	private function posts_feed(): Post_Places_Feed {
		$reflection = new \ReflectionProperty( Markers_Controller::class, 'posts_feed' );
		$reflection->setAccessible( true );
		return $reflection->getValue( Plugin::instance()->get( 'markers' ) );
	}

	/**
	 * Inserts $count published posts with public places, a category each and, for every second
	 * one, one featured image.
	 *
	 * @param int $count Posts.
	 */
	private function bulk_posts( int $count ): void {
		global $wpdb;
		mt_srand( 24 ); // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_seeding_mt_srand -- the same data every run.
		$image      = $this->create_attachment();
		$categories = array();
		foreach ( array( 'travel', 'food', 'walks' ) as $slug ) {
			$term         = wp_insert_term( ucfirst( $slug ), 'category', array( 'slug' => $slug ) );
			$categories[] = (int) $term['term_taxonomy_id'];
		}
		$now = current_time( 'mysql', true );
		for ( $start = 1; $start <= $count; $start += 5000 ) {
			$end  = min( $count, $start + 4999 );
			$rows = array();
			for ( $i = $start; $i <= $end; $i++ ) {
				$rows[] = $wpdb->prepare( '(1, %s, %s, %s, %s, %s, %s)', $now, $now, "Story {$i}", "bulk-story-{$i}", 'post', 'publish' );
			}
			// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared -- each row was prepared above.
			$wpdb->query( "INSERT INTO {$wpdb->posts} (post_author, post_date_gmt, post_modified_gmt, post_title, post_name, post_type, post_status) VALUES " . implode( ',', $rows ) );
			$first = (int) $wpdb->get_var( 'SELECT LAST_INSERT_ID()' );
			$meta  = array();
			$rels  = array();
			for ( $id = $first; $id <= $first + $end - $start; $id++ ) {
				$meta[] = $wpdb->prepare( '(%d, %s, %s), (%d, %s, %s), (%d, %s, %s)', $id, Location_Types::META_LAT, (string) ( mt_rand( -850000000, 850000000 ) / 1e7 ), $id, Location_Types::META_LNG, (string) ( mt_rand( -1800000000, 1800000000 ) / 1e7 ), $id, Location_Types::META_PUBLIC, '1' ); // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_mt_rand -- seeded test data.
				if ( 0 === $id % 2 ) {
					$meta[] = $wpdb->prepare( '(%d, %s, %s)', $id, '_thumbnail_id', (string) $image );
				}
				$rels[] = sprintf( '(%d, %d, 0)', $id, $categories[ $id % 3 ] );
			}
			// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared -- each row was prepared above.
			$wpdb->query( "INSERT INTO {$wpdb->postmeta} (post_id, meta_key, meta_value) VALUES " . implode( ',', $meta ) );
			// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared -- integers only.
			$wpdb->query( "INSERT INTO {$wpdb->term_relationships} (object_id, term_taxonomy_id, term_order) VALUES " . implode( ',', $rels ) );
		}
		do_action( 'cairn_maps_places_changed' );
	}

	/**
	 * Builds the whole posts feed of $count bulk posts; checks memory, size, chunks, and that it
	 * is served from the cache after.
	 *
	 * @param int $count Posts.
	 */
	private function assert_bounded_build( int $count ): void {
		$this->bulk_posts( $count );
		$feed = $this->posts_feed();
		$feed->etag( array( 'types' => array( 'post' ) ) ); // Autoloading outside the measurement.

		memory_reset_peak_usage();
		$baseline = memory_get_usage();
		$queries  = 0;
		$count_q  = static function ( $sql ) use ( &$queries ) {
			++$queries;
			return $sql;
		};
		add_filter( 'query', $count_q );
		$payload = $feed->payload( array( 'types' => array( 'post' ) ) );
		remove_filter( 'query', $count_q );
		$peak = memory_get_peak_usage() - $baseline;

		$this->assertSame( $count, $payload->count() );
		$this->assertLessThan( 16 * 1024 * 1024, $peak, sprintf( 'peak %.1f MB above baseline', $peak / 1048576 ) );
		foreach ( $payload->gzip_chunks() as $chunk ) {
			$this->assertLessThan( 1024 * 1024, strlen( base64_encode( $chunk ) ), 'each stored chunk is under 1 MB' ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_encode -- the stored form.
		}
		$data = json_decode( $payload->json(), true );
		$this->assertSame( 'post', $data['features'][0]['properties']['type'] );
		$this->assertCount( intdiv( $count, 2 ), array_filter( array_column( array_column( $data['features'], 'properties' ), 'thumb' ) ) );
		unset( $data );

		$reads       = 0;
		$count_reads = static function ( $sql ) use ( &$reads ) {
			if ( false !== strpos( (string) $sql, Location_Types::META_PUBLIC ) ) {
				++$reads;
			}
			return $sql;
		};
		add_filter( 'query', $count_reads );
		$again = $feed->payload( array( 'types' => array( 'post' ) ) );
		$cut   = $feed->payload(
			array(
				'types' => array( 'post' ),
				'terms' => array( 'category:food' ),
			)
		);
		remove_filter( 'query', $count_reads );
		$this->assertSame( $payload->gzip_bytes(), $again->gzip_bytes() );
		$this->assertSame( 0, $reads, 'served from the cache; categories cut from it' );
		$this->assertEqualsWithDelta( $count / 3, $cut->count(), 1 );

		fwrite( // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fwrite
			STDERR,
			sprintf(
				"\n[posts feed] %d posts: built with %d queries, peak +%.1f MB, %.1f MB JSON, %.2f MB gzip (%.2f B/post)\n",
				$count,
				$queries,
				$peak / 1048576,
				$payload->json_bytes() / 1e6,
				$payload->gzip_bytes() / 1e6,
				$payload->gzip_bytes() / $count
			)
		);
	}

	/**
	 * 30,000 posts.
	 */
	public function test_large_posts_feed_is_bounded(): void {
		$this->assert_bounded_build( 30000 );
	}

	/**
	 * The same at 100,000 posts (slow: bash bin/test-php.sh --group slow).
	 *
	 * @group slow
	 */
	public function test_hundred_thousand_posts(): void {
		$this->assert_bounded_build( 100000 );
	}
}
