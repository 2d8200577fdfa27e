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
}
