<?php
/**
 * Invented filters against the marker feed over real HTTP (issue 12, point 2).
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Http;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Feed\Feed_Cache;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Tests\TestCase;

/**
 * An anonymous visitor sending invented `group`, `include` and `bbox` values in a loop must neither
 * make the site rebuild the feed from the database nor store copy after copy of it in the options
 * table: filters are made canonical before they become a cache key, a box is cut from the cached
 * whole feed, and the stored filtered copies are bounded (Feed_Cache::limits()).
 *
 * @since 0.2.0
 */
final class Feed_Flood_HttpTest extends TestCase {
	use Web_Server;

	/**
	 * Markers to delete after the test.
	 *
	 * @var int[]
	 */
	private array $committed = array();

	/**
	 * Groups to delete after the test.
	 *
	 * @var int[]
	 */
	private array $groups = array();

	/**
	 * Starts from an empty feed cache.
	 */
	protected function set_up(): void {
		parent::set_up();
		$this->clear_feed_cache();
	}

	/**
	 * Deletes what the test committed, the feed cache included.
	 */
	protected function tear_down(): void {
		global $wpdb;
		foreach ( $this->committed as $id ) {
			wp_delete_post( $id, true );
		}
		foreach ( $this->groups as $id ) {
			wp_delete_term( $id, Post_Type::TAXONOMY );
		}
		$this->clear_feed_cache();
		$wpdb->query( 'COMMIT' );
		parent::tear_down();
	}

	/**
	 * Deletes every stored feed and the cache's bookkeeping.
	 */
	private function clear_feed_cache(): void {
		global $wpdb;
		$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->options} WHERE option_name LIKE %s OR option_name LIKE %s OR option_name LIKE %s", $wpdb->esc_like( '_transient_' . Feed_Cache::PREFIX ) . '%', $wpdb->esc_like( '_transient_timeout_' . Feed_Cache::PREFIX ) . '%', $wpdb->esc_like( Feed_Cache::PREFIX ) . '%' ) );
		$wpdb->query( 'COMMIT' );
		wp_cache_flush();
	}

	/**
	 * Option rows of the feed cache (stored feeds with their timeouts, bookkeeping; not the short
	 * rebuild locks) and their bytes, as the web server left them.
	 *
	 * @return array{rows: int, bytes: int, manifests: string[]}
	 */
	private function feed_rows(): array {
		global $wpdb;
		$wpdb->query( 'COMMIT' ); // A fresh snapshot: the test's connection runs without autocommit.
		$rows      = $wpdb->get_results( $wpdb->prepare( "SELECT option_name, LENGTH(option_value) AS bytes FROM {$wpdb->options} WHERE (option_name LIKE %s OR option_name LIKE %s OR option_name LIKE %s) AND option_name NOT LIKE %s", $wpdb->esc_like( '_transient_' . Feed_Cache::PREFIX ) . '%', $wpdb->esc_like( '_transient_timeout_' . Feed_Cache::PREFIX ) . '%', $wpdb->esc_like( Feed_Cache::PREFIX ) . '%', $wpdb->esc_like( Feed_Cache::LOCK_PREFIX ) . '%' ), ARRAY_A );
		$manifests = array();
		foreach ( $rows as $row ) {
			if ( 1 === preg_match( '/^_transient_' . preg_quote( Feed_Cache::PREFIX, '/' ) . '([0-9a-f]{32})$/', $row['option_name'], $match ) ) {
				$manifests[] = $match[1];
			}
		}
		return array(
			'rows'      => count( $rows ),
			'bytes'     => (int) array_sum( array_column( $rows, 'bytes' ) ),
			'manifests' => $manifests,
		);
	}

	/**
	 * Creates published markers (in the groups given, cycling) and commits them.
	 *
	 * @param int                $count  How many.
	 * @param array<int, string> $groups Group slug of each marker, cycling ('' for none).
	 * @return int[] Their ids.
	 */
	private function commit_markers( int $count, array $groups = array( '' ) ): array {
		global $wpdb;
		foreach ( array_filter( array_unique( $groups ) ) as $slug ) {
			if ( ! term_exists( $slug, Post_Type::TAXONOMY ) ) {
				$this->groups[] = $this->create_group( $slug );
			}
		}
		$ids = array();
		for ( $i = 0; $i < $count; $i++ ) {
			$slug  = $groups[ $i % count( $groups ) ];
			$ids[] = $this->create_marker(
				array(
					'post_title' => "Flood {$i}",
					'lat'        => -60 + ( $i * 7 ) % 120,
					'lng'        => -170 + ( $i * 13 ) % 340,
					'groups'     => '' === $slug ? array() : array( $slug ),
				)
			);
		}
		$this->committed = array_merge( $this->committed, $ids );
		$wpdb->query( 'COMMIT' );
		return $ids;
	}

	/**
	 * GET the feed with a query string; asserts 200 and returns the features' ids and the probe.
	 *
	 * @param string $query Query string after the route.
	 * @param string $probe Probe id.
	 * @return array{ids: int[], reads: int, body: string}
	 */
	private function feed( string $query, string $probe ): array {
		$answer = $this->http( '/?rest_route=/cairn/v1/markers' . ( '' !== $query ? '&' . $query : '' ), array( 'X-Cairn-Probe' => $probe ) );
		$this->assertSame( 200, $answer['status'], "{$query}: {$answer['body']}" );
		$data = json_decode( $answer['body'], true );
		$this->assertSame( 'FeatureCollection', $data['type'] ?? null, $query );
		return array(
			'ids'   => array_column( $data['features'], 'id' ),
			'reads' => (int) $this->probe( $probe )['reads'],
			'body'  => $answer['body'],
		);
	}

	/**
	 * Invented group slugs and ids, alone or beside real ones, and any bbox: the answers are right,
	 * no marker is read from the database once the whole feed is cached, and nothing beyond the
	 * copies of the real selections is stored, however often they are sent.
	 */
	public function test_invented_filters_store_nothing_and_read_no_marker(): void {
		$ids  = $this->commit_markers( 9, array( 'huts', 'peaks', '' ) );
		$huts = array( $ids[0], $ids[3], $ids[6] );

		$whole = $this->feed( '', 'whole' );
		$this->assertCount( 9, $whole['ids'] );
		$this->assertGreaterThan( 0, $whole['reads'], 'the whole feed is built once' );
		// The real selections, each asked for a few times: stored.
		for ( $i = 0; $i < 3; $i++ ) {
			$this->assertSame( $huts, $this->feed( 'group=huts', "huts-{$i}" )['ids'] );
			$this->assertSame( array( $ids[1] ), $this->feed( 'include=' . $ids[1], "one-{$i}" )['ids'] );
		}
		$before = $this->feed_rows();
		$this->assertCount( 3, $before['manifests'], 'the whole feed and the two real selections' );

		for ( $round = 0; $round < 2; $round++ ) { // Each value twice: a second request stores nothing either.
			for ( $i = 0; $i < 8; $i++ ) {
				$invented = "invented-{$i}-" . substr( md5( (string) $i ), 0, 6 );
				$probe    = "flood-{$round}-{$i}";
				$this->assertSame( $huts, $this->feed( "group=huts,{$invented}", "{$probe}-a" )['ids'], 'a real group beside an invented one' );
				$this->assertSame( $huts, $this->feed( "group={$invented},huts,huts", "{$probe}-b" )['ids'], 'in any order, repeated' );
				$this->assertSame( array(), $this->feed( "group={$invented}", "{$probe}-c" )['ids'], 'no such group: nothing' );
				$this->assertSame( array( $ids[1] ), $this->feed( 'include=' . ( 900000 + $i ) . ",{$ids[1]}," . ( 800000 + $i ), "{$probe}-d" )['ids'], 'ids that are no marker are dropped' );
				$this->assertSame( array(), $this->feed( 'include=' . ( 700000 + $i ) . ',' . ( 710000 + $i ), "{$probe}-e" )['ids'] );
				$box = ( -170 + 20 * $i ) . ',-60,' . ( -120 + 20 * $i ) . ',60';
				$cut = $this->feed( "bbox={$box}", "{$probe}-f" );
				$this->assertSame( $this->in_box( $whole['body'], array( -170 + 20 * $i, -60, -120 + 20 * $i, 60 ) ), $cut['ids'], "bbox={$box}" );
				foreach ( array( 'a', 'b', 'c', 'd', 'e', 'f' ) as $kind ) {
					$this->assertSame( 0, $this->probe( "{$probe}-{$kind}" )['reads'], "{$probe}-{$kind}: no marker read from the database" );
				}
			}
		}

		$after = $this->feed_rows();
		$this->assertEqualsCanonicalizing( $before['manifests'], $after['manifests'], 'no new stored copy' );
		// Bookkeeping may grow a little (the keys asked for once), the feeds not at all.
		$this->assertLessThanOrEqual( $before['rows'] + 1, $after['rows'], 'option rows' );
		$this->assertLessThan( $before['bytes'] + 8 * 1024, $after['bytes'], 'bytes in the options table' );
	}

	/**
	 * The ids of the features of a feed inside a box (west <= east here).
	 *
	 * @param string  $json The whole feed.
	 * @param float[] $box  [west, south, east, north].
	 * @return int[]
	 */
	private function in_box( string $json, array $box ): array {
		$ids = array();
		foreach ( json_decode( $json, true )['features'] as $feature ) {
			list( $lng, $lat ) = $feature['geometry']['coordinates'];
			if ( $lng >= $box[0] && $lng <= $box[2] && $lat >= $box[1] && $lat <= $box[3] ) {
				$ids[] = $feature['id'];
			}
		}
		return $ids;
	}

	/**
	 * More real selections than the bound, each asked for twice (enough to be stored): the number of
	 * stored copies never exceeds the bound, the least recently used go first, a selection in
	 * steady use stays, and the whole feed is always kept.
	 */
	public function test_stored_copies_are_bounded(): void {
		$limits = Feed_Cache::limits();
		$count  = $limits['entries'] + 8;
		$ids    = $this->commit_markers( $count, array( 'huts', '' ) );
		$this->feed( '', 'bound-whole' );
		for ( $i = 0; $i < 3; $i++ ) {
			$this->feed( 'group=huts', "bound-huts-{$i}" ); // In steady use before the flood.
		}
		$whole_rows = $this->feed_rows();

		foreach ( $ids as $i => $id ) {
			$this->feed( "include={$id}", "bound-{$i}-a" );
			$this->feed( "include={$id}", "bound-{$i}-b" );
			$rows = $this->feed_rows();
			$this->assertLessThanOrEqual( $limits['entries'] + 1, count( $rows['manifests'] ), "after {$i}: at most the bound and the whole feed" );
			$this->assertLessThanOrEqual( $whole_rows['rows'] + Feed_Cache::max_rows(), $rows['rows'], "after {$i}: option rows" );
		}
		$rows = $this->feed_rows();
		$this->assertCount( $limits['entries'] + 1, $rows['manifests'], 'the bound was reached' );

		$this->assertSame( $whole_rows['manifests'], array_values( array_intersect( $whole_rows['manifests'], $rows['manifests'] ) ), 'the whole feed and the selection in steady use are kept' );

		$reads = array();
		foreach ( array( 0, 1, $count - 1, $count - 2 ) as $i ) {
			$reads[ $i ] = $this->feed( "include={$ids[ $i ]}", "bound-again-{$i}" )['reads'];
		}
		$this->assertGreaterThan( 0, $reads[0], 'the least recently used were dropped' );
		$this->assertGreaterThan( 0, $reads[1] );
		$this->assertSame( 0, $reads[ $count - 1 ], 'the most recent are kept' );
		$this->assertSame( 0, $reads[ $count - 2 ] );
		$this->assertSame( 0, $this->feed( '', 'bound-whole-again' )['reads'], 'the whole feed is kept' );
	}
}
