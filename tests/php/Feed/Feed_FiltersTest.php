<?php
/**
 * Filtered feeds: canonical filters, answers cut from the whole feed, what is stored.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Feed;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Feed\Feed_Cache;
use Cairn\Maps\Feed\Geojson_Feed;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Rest\Markers_Controller;
use Cairn\Maps\Tests\TestCase;

/**
 * A `group` selection and any `bbox` are cut from the cached whole feed instead of reading the
 * markers again: the answer must be the very document a read from the database gives, whatever the
 * titles hold. Invented group slugs and ids make no new cache entry. (Over real HTTP:
 * tests/php/Http/Feed_Flood_HttpTest.php.)
 *
 * @since 0.2.0
 */
final class Feed_FiltersTest extends TestCase {

	use Plugin_Feed;

	/**
	 * Counts SQL that reads marker coordinates while $run runs.
	 *
	 * @param callable $run What to run.
	 * @return array{0: mixed, 1: int} What $run returned, and the count.
	 */
	private function counting_marker_reads( callable $run ): array {
		$reads = 0;
		$count = static function ( $sql ) use ( &$reads ) {
			if ( false !== strpos( (string) $sql, 'cairn_lat' ) ) {
				++$reads;
			}
			return $sql;
		};
		add_filter( 'query', $count );
		try {
			$value = $run();
		} finally {
			remove_filter( 'query', $count );
		}
		return array( $value, $reads );
	}

	/**
	 * Markers whose titles hold what a naive splitter would trip on, spread over the world, the
	 * antimeridian and exact box edges, in zero, one or two groups.
	 *
	 * @return int[] Their ids.
	 */
	private function create_markers(): array {
		$titles = array(
			'Plain',
			'Quote " and backslash \\',
			'Fake split ,{"type":"Feature","properties":{"groups":["huts"]',
			'Fake end ]}} and "coordinates":[1,2]}}',
			'Fake id },"id":12345,"geometry":',
			'Fake groups ],"title":"x',
			'Ünïcödé ✓ <b>bold</b> &amp; entity',
			'Line' . "\n" . 'break',
		);
		$groups = array( array(), array( 'huts' ), array( 'peaks' ), array( 'huts', 'peaks' ), array( 'springs' ) );
		$points = array( array( -0.12, 51.5 ), array( 2.35, 48.85 ), array( 178.5, -17.7 ), array( -172.1, -13.8 ), array( 10, 10 ), array( -179.99999, 0 ), array( 179.5, 89.5 ), array( 0, -89.5 ) );
		$ids    = array();
		for ( $i = 0; $i < 40; $i++ ) {
			list( $lng, $lat ) = $points[ $i % count( $points ) ];
			$ids[]             = $this->create_marker(
				array(
					'post_title' => $titles[ $i % count( $titles ) ] . " {$i}",
					'lng'        => $lng + ( $i % 3 ) * 0.25,
					'lat'        => $lat,
					'groups'     => $groups[ $i % count( $groups ) ],
				)
			);
		}
		return $ids;
	}

	/**
	 * Cut from the whole feed or read from the database: the same document, for groups, boxes
	 * (across the antimeridian, degenerate, inclusive edges) and both together; no marker read
	 * once the whole feed is cached.
	 */
	public function test_filtered_answers_equal_a_database_read(): void {
		$ids  = $this->create_markers();
		$feed = $this->feed();
		$feed->payload( array() ); // The whole feed, cached.

		$cases = array(
			array( 'groups' => array( 'huts' ) ),
			array( 'groups' => array( 'peaks', 'huts' ) ),
			array( 'groups' => array( 'springs' ) ),
			array( 'bbox' => array( -5, 45, 5, 55 ) ),
			array( 'bbox' => array( 170, -20, -170, -10 ) ),
			array( 'bbox' => array( 10, 10, 10.25, 10 ) ),
			array( 'bbox' => array( -180, -90, 180, 90 ) ),
			array( 'bbox' => array( 179.9, -90, -179.9, 90 ) ),
			array(
				'groups' => array( 'huts' ),
				'bbox'   => array( -10, 0, 20, 60 ),
			),
			array(
				'groups' => array( 'peaks' ),
				'bbox'   => array( 170, -20, -170, 0 ),
			),
		);
		foreach ( $cases as $filters ) {
			$what                = (string) wp_json_encode( $filters );
			list( $cut, $reads ) = $this->counting_marker_reads(
				function () use ( $feed, $filters ) {
					return $feed->payload( $filters, true );
				}
			);
			$this->assertSame( 0, $reads, "{$what}: no marker read" );
			$read = $feed->build( Geojson_Feed::normalize( $filters ) );
			$this->assertSame( $read->json(), $cut->json(), $what );
			$this->assertSame( $read->count(), $cut->count(), $what );
			$this->assertSame( strlen( $read->json() ), $cut->json_bytes(), $what );
			$this->assertGreaterThan( 0, $cut->count(), "{$what}: a case that selects something" );
		}

		// Titles survive the round trip.
		$all = json_decode( $feed->payload( array( 'bbox' => array( -180, -90, 180, 90 ) ) )->json(), true );
		$this->assertCount( 40, $all['features'] );
		$this->assertSame( 'Fake split ,{"type":"Feature","properties":{"groups":["huts"] 2', $all['features'][2]['properties']['title'] );
		$this->assertSame( $ids, array_column( $all['features'], 'id' ) );
	}

	/**
	 * Invented slugs and ids are dropped before the key is made: `group=huts,invented` is
	 * `group=huts`, `include=<id>,<not a marker>` is `include=<id>`; nothing left answers an empty
	 * collection without reading or storing anything.
	 */
	public function test_invented_values_make_no_new_entry(): void {
		$ids   = $this->create_markers();
		$draft = $this->create_marker( array( 'post_status' => 'draft' ) );
		$feed  = $this->feed();
		$feed->payload( array() );
		$same = array(
			array(
				array( 'groups' => array( 'huts' ) ),
				array( 'groups' => array( 'invented', 'huts', 'huts' ) ),
				array( 'groups' => array( 'huts', 'other-invented' ) ),
			),
			array(
				array( 'ids' => array( $ids[3], $ids[1] ) ),
				array( 'ids' => array( $ids[1], 999999, $ids[3], $draft, $ids[1] ) ),
			),
		);
		foreach ( $same as $variants ) {
			$json = null;
			foreach ( $variants as $filters ) {
				$feed->payload( $filters );
				$feed->payload( $filters ); // Twice: stored.
				$payload = $feed->payload( $filters );
				$json    = $json ?? $payload->json();
				$this->assertSame( $json, $payload->json(), (string) wp_json_encode( $filters ) );
			}
		}
		$this->assertCount( 2, get_option( Feed_Cache::INDEX_OPTION ), 'one stored copy per real selection' );

		foreach ( array(
			array( 'groups' => array( 'invented' ) ),
			array( 'ids' => array( 999998, $draft ) ),
			array(
				'groups' => array( 'invented' ),
				'bbox'   => array( -180, -90, 180, 90 ),
			),
		) as $filters ) {
			list( $payload, $reads ) = $this->counting_marker_reads(
				function () use ( $feed, $filters ) {
					$feed->payload( $filters );
					return $feed->payload( $filters );
				}
			);
			$this->assertSame( '{"type":"FeatureCollection","features":[]}', $payload->json() );
			$this->assertSame( 0, $reads );
		}
		$this->assertCount( 2, get_option( Feed_Cache::INDEX_OPTION ), 'nothing stored for them' );

		// The ETag stays that of the request's own filters (the early 304 reads no group or id).
		$this->assertNotSame( $feed->etag( array( 'groups' => array( 'huts' ) ) ), $feed->etag( array( 'groups' => array( 'huts', 'invented' ) ) ) );
	}

	/**
	 * While another request rebuilds the whole feed, a filtered answer for an anonymous visitor is
	 * cut from the previous whole build, labelled with its version (then sent with its ETag).
	 */
	public function test_filtered_answer_during_a_rebuild_follows_the_whole_feed(): void {
		$this->create_marker( array( 'groups' => array( 'huts' ) ) );
		$feed     = $this->feed();
		$previous = $feed->payload( array() );
		$this->create_marker( array( 'groups' => array( 'huts' ) ) );
		$this->assertNotSame( ( new Markers_Version() )->get(), $previous->version() );

		$cache = new Feed_Cache();
		$key   = substr( hash( 'sha256', ( new \ReflectionMethod( Geojson_Feed::class, 'fingerprint' ) )->invoke( $feed, array() ) ), 0, 32 );
		$this->assertIsString( $cache->lock( $key ), 'another request rebuilds the whole feed' );
		list( $stale, $reads ) = $this->counting_marker_reads(
			function () use ( $feed ) {
				return $feed->payload( array( 'groups' => array( 'huts' ) ), true );
			}
		);
		$this->assertSame( 0, $reads );
		$this->assertSame( $previous->version(), $stale->version() );
		$this->assertCount( 1, json_decode( $stale->json(), true )['features'] );

		$served = $this->serve( '/cairn/v1/markers', array( 'group' => 'huts' ) );
		$this->assertSame( $feed->etag( array( 'groups' => array( 'huts' ) ), $previous->version() ), $served['headers']['ETag'] );
		$this->assertSame( Markers_Controller::STALE_CACHE_CONTROL, $served['headers']['Cache-Control'] );
	}

	/**
	 * Should a chunk of the cached whole feed vanish while a filtered answer is cut from it, the
	 * answer is read from the database instead: still right.
	 */
	public function test_a_vanished_chunk_falls_back_to_a_database_read(): void {
		$this->create_markers();
		$feed  = $this->feed();
		$whole = $feed->payload( array() );
		global $wpdb;
		$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->options} WHERE option_name LIKE %s", $wpdb->esc_like( '_transient_' . Feed_Cache::PREFIX ) . '%\_' . substr( $whole->version(), 0, 16 ) . '\_0' ) );
		wp_cache_flush();
		list( $payload, $reads ) = $this->counting_marker_reads(
			function () use ( $feed ) {
				return $feed->payload( array( 'bbox' => array( -5, 45, 5, 55 ) ) );
			}
		);
		$this->assertGreaterThan( 0, $reads, 'read from the database' );
		$this->assertSame( $feed->build( Geojson_Feed::normalize( array( 'bbox' => array( -5, 45, 5, 55 ) ) ) )->json(), $payload->json() );
	}
}
