<?php
/**
 * Batched marker reads.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Markers;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Marker_Repository;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Tests\Feed\Geojson_FeedTest;
use Cairn\Maps\Tests\TestCase;

/**
 * The reads behind the feed: batches by id range or id list, groups in name order, and the
 * prefetching read that overlaps the database with the caller's work.
 *
 * @since 0.1.0
 */
final class Marker_RepositoryTest extends TestCase {

	/**
	 * SQL run while $run runs.
	 *
	 * @param callable $run What to run.
	 * @return array{0: mixed, 1: string[]}
	 */
	private function capturing_sql( callable $run ): array {
		$queries = array();
		$capture = static function ( $sql ) use ( &$queries ) {
			$queries[] = (string) $sql;
			return $sql;
		};
		add_filter( 'query', $capture );
		try {
			$value = $run();
		} finally {
			remove_filter( 'query', $capture );
		}
		return array( $value, $queries );
	}

	/**
	 * Markers far apart in the table are read by their ids, not by sweeping the range between them.
	 */
	public function test_scattered_markers_are_read_by_id(): void {
		global $wpdb;
		$first = $this->create_marker(
			array(
				'post_title' => 'First',
				'groups'     => array( 'huts', 'alps' ),
			)
		);
		// Something else far up the id range (another plugin's posts, an import elsewhere).
		$wpdb->insert(
			$wpdb->posts,
			array(
				'ID'          => $first + 50000,
				'post_title'  => 'Far away',
				'post_type'   => 'post',
				'post_status' => 'publish',
			)
		);
		$second = $this->create_marker(
			array(
				'post_title' => 'Second',
				'groups'     => array( 'huts' ),
			)
		);
		$this->assertGreaterThan( $first + 50000, $second );

		list( $markers, $queries ) = $this->capturing_sql(
			static function () {
				return iterator_to_array( ( new Marker_Repository() )->each( array( 'groups' => array( 'huts' ) ) ), false );
			}
		);
		$this->assertSame( array( $first, $second ), array_column( $markers, 'id' ) );
		$this->assertSame( array( array( 'alps', 'huts' ), array( 'huts' ) ), array_column( $markers, 'groups' ), 'slugs in name order' );
		$reads = array_filter(
			$queries,
			static function ( $sql ) {
				return false !== strpos( $sql, Post_Type::META_LAT ) || false !== strpos( $sql, 'object_id' );
			}
		);
		$this->assertNotEmpty( $reads );
		foreach ( $reads as $sql ) {
			$this->assertStringNotContainsString( 'BETWEEN', $sql, 'no sweep over 50,000 ids' );
		}
	}

	/**
	 * Prefetching reads the same markers; a caller that stops early leaves the connection usable.
	 */
	public function test_prefetching_reads_the_same_and_can_stop_early(): void {
		global $wpdb;
		Geojson_FeedTest::bulk_markers( Marker_Repository::BATCH * 2 + 5 );
		$repository = new Marker_Repository();
		$plain      = iterator_to_array( $repository->each(), false );
		$prefetched = iterator_to_array( $repository->each( array(), true ), false );
		$this->assertCount( Marker_Repository::BATCH * 2 + 5, $plain );
		$this->assertSame( $plain, $prefetched );

		$read = 0;
		foreach ( $repository->each( array(), true ) as $marker ) {
			if ( ++$read > 10 ) {
				break; // The next batch's coordinates are being read meanwhile.
			}
		}
		unset( $marker );
		$this->assertSame( '1', $wpdb->get_var( 'SELECT 1' ), 'the connection is free again' );
		$this->assertSame( '', $wpdb->last_error );
	}

	/**
	 * Rows of the server list's cache in the options table.
	 */
	private static function list_cache_rows(): int {
		global $wpdb;
		return (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->options} WHERE option_name LIKE %s", $wpdb->esc_like( '_transient_cairn_maps_list_' ) . '%' ) );
	}

	/**
	 * A contributor previewing the block through core's block renderer with ever new marker
	 * selections fills at most LIST_SLOTS cache entries (issue 12, point 7); a selection asked
	 * for again is still served from the cache, whatever the order of its ids.
	 */
	public function test_the_list_cache_is_bounded_whatever_selections_are_asked_for(): void {
		$ids = array();
		for ( $i = 0; $i < 3; $i++ ) {
			$ids[] = $this->create_marker( array( 'post_title' => "Place {$i}" ) );
		}
		$this->act_as( 'contributor' );
		$requests = Marker_Repository::LIST_SLOTS * 3;
		for ( $i = 1; $i <= $requests; $i++ ) {
			$request = new \WP_REST_Request( 'GET', '/wp/v2/block-renderer/cairn/map' );
			$request->set_param( 'context', 'edit' );
			$request->set_param(
				'attributes',
				array(
					'markers' => array(
						'source' => 'ids',
						'groups' => array(),
						'ids'    => array( $ids[0], 1000000 + $i ),
					),
				)
			);
			$response = rest_do_request( $request );
			$this->assertSame( 200, $response->get_status() );
		}
		$this->assertStringContainsString( '1 place on this map', (string) $response->get_data()['rendered'] );
		$this->assertLessThanOrEqual( Marker_Repository::LIST_SLOTS, self::list_cache_rows(), "{$requests} selections, at most " . Marker_Repository::LIST_SLOTS . ' entries' );

		$repository = new Marker_Repository();
		$first      = $repository->first( array( 'ids' => array( $ids[2], $ids[0] ) ), 50 );
		$this->assertSame( 2, $first['total'] );
		list( $again, $queries ) = $this->capturing_sql(
			static function () use ( $repository, $ids ) {
				return $repository->first( array( 'ids' => array( $ids[0], $ids[2], $ids[0] ) ), 50 );
			}
		);
		$this->assertSame( $first, $again, 'the same selection in another order' );
		$this->assertSame( array(), preg_grep( '/COUNT\(\*\)/', $queries ), 'served from the cache: nothing counted' );
	}

	/**
	 * Pages of the server list: id order, no place twice, past the last page is the last.
	 */
	public function test_pages_cover_every_marker_once_in_id_order(): void {
		Geojson_FeedTest::bulk_markers( 23 );
		$repository = new Marker_Repository();
		$seen       = array();
		for ( $page = 1; $page <= 3; $page++ ) {
			$list = $repository->page( array(), $page, 10 );
			$this->assertSame( 23, $list['total'] );
			$this->assertSame( $page, $list['page'] );
			$seen = array_merge( $seen, array_column( $list['items'], 'id' ) );
		}
		$this->assertCount( 23, $seen );
		$sorted = $seen;
		sort( $sorted );
		$this->assertSame( $sorted, $seen );
		$this->assertSame( array_unique( $seen ), $seen );
		$last = $repository->page( array(), 99, 10 );
		$this->assertSame( 3, $last['page'] );
		$this->assertCount( 3, $last['items'] );
		$this->assertSame( 1, $repository->page( array(), -4, 10 )['page'] );
	}
}
