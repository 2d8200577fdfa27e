<?php
/**
 * The plugin on a persistent object cache: a real Redis behind the test drop-in.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Engines;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Feed\Feed_Cache;
use Cairn\Maps\Feed\Feed_Payload;
use Cairn\Maps\Import_Export\Geocode_Queue;
use Cairn\Maps\Index\Place_Index;
use Cairn\Maps\Index\Tile_Cache;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Plugin;
use Cairn\Maps\Rest\Answer_Slots;
use Cairn\Maps\Tests\TestCase;

/**
 * Run with `bash bin/test-php.sh --redis` (group `redis`): WordPress keeps its object cache, and so
 * the plugin's transients and options, in a private redis-server shared by every PHP process.
 * Each "request" here starts with an empty local cache (wp_cache_flush_runtime()), as a new PHP
 * process would, so what is read comes from Redis.
 *
 * @group redis
 */
final class Redis_Object_CacheTest extends TestCase {
	use Redis_Keys;

	/**
	 * The run uses the drop-in and reaches Redis; without them every other test here means nothing.
	 */
	public function test_the_site_runs_on_the_redis_object_cache(): void {
		$this->assertTrue( wp_using_ext_object_cache(), 'bin/test-php.sh --redis installs the drop-in' );
		$this->assertTrue( wp_cache_set( 'probe', array( 'a' => 1 ), 'cairn-engines' ) );
		$this->assertSame( array( 'a' => 1 ), unserialize( (string) self::redis()->get( self::redis_prefix() . '1:cairn-engines:probe' ) ), 'the value is in Redis' ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.serialize_unserialize
		wp_cache_flush_runtime();
		$this->assertSame( array( 'a' => 1 ), wp_cache_get( 'probe', 'cairn-engines' ), 'read back from Redis' );
	}

	/**
	 * The test drop-in keeps core's object-cache semantics (what the plugin relies on).
	 */
	public function test_the_drop_in_follows_core_semantics(): void {
		$group = 'cairn-engines';
		$this->assertFalse( wp_cache_incr( 'counter', 1, $group ), 'incr of a missing key' );
		$this->assertTrue( wp_cache_set( 'counter', 5, $group, 60 ) );
		$this->assertSame( 7, wp_cache_incr( 'counter', 2, $group ) );
		$this->assertSame( 0, wp_cache_decr( 'counter', 10, $group ), 'never below 0' );
		$ttl = self::redis()->ttl( self::redis_prefix() . '1:' . $group . ':counter' );
		$this->assertGreaterThan( 0, $ttl, 'the expiry is kept through incr/decr' );
		$this->assertLessThanOrEqual( 60, $ttl );
		wp_cache_set( 'word', 'abc', $group );
		$this->assertSame( 1, wp_cache_incr( 'word', 1, $group ), 'a non-number counts from 0' );

		$this->assertFalse( wp_cache_add( 'counter', 1, $group ), 'add does not overwrite' );
		$this->assertFalse( wp_cache_replace( 'missing', 1, $group ), 'replace needs the key' );
		$this->assertTrue( wp_cache_add( 'fresh', array( 'x' => false ), $group ) );
		wp_cache_set( 'false', false, $group );
		wp_cache_flush_runtime();
		$found = null;
		$this->assertFalse( wp_cache_get( 'false', $group, false, $found ) );
		$this->assertTrue( $found, 'a stored false is found' );
		$this->assertSame(
			array(
				'fresh'   => array( 'x' => false ),
				'counter' => 0,
				'none'    => false,
				'1'       => false,
			),
			wp_cache_get_multiple( array( 'fresh', 'counter', 'none', 1 ), $group )
		);
		$this->assertSame(
			array(
				'fresh' => true,
				'none'  => false,
			),
			wp_cache_delete_multiple( array( 'fresh', 'none' ), $group )
		);

		wp_cache_add_non_persistent_groups( array( 'cairn-local' ) );
		wp_cache_set( 'here', 1, 'cairn-local' );
		$this->assertSame( array(), self::redis_keys( ':cairn-local:' ), 'a non-persistent group stays in the process' );
		$this->assertSame( 1, wp_cache_get( 'here', 'cairn-local' ) );

		$this->assertTrue( wp_cache_supports( 'flush_group' ) );
		wp_cache_flush_group( $group );
		$this->assertSame( array(), self::redis_keys( ':' . $group . ':' ) );
	}

	/**
	 * The feed answers right from what Redis keeps, request after request; a place unpublished is
	 * gone from the next answer, and the ETag changes with it.
	 */
	public function test_feed_is_right_across_requests_and_forgets_an_unpublished_place(): void {
		$ids = array();
		foreach ( array( 'Alder', 'Birch', 'Cedar' ) as $i => $title ) {
			$ids[] = $this->create_marker(
				array(
					'post_title' => $title,
					'lat'        => 10 + $i,
					'lng'        => 20 + $i,
				)
			);
		}
		$first = $this->next_request_feed();
		$this->assertSame( array( 'Alder', 'Birch', 'Cedar' ), $first['titles'] );
		$this->assertNotEmpty( self::redis_keys( 'cairn_maps_feed_' ), 'the built feed is kept in Redis' );

		$reads  = $this->count_marker_reads();
		$second = $this->next_request_feed();
		$this->assertSame( $first['etag'], $second['etag'] );
		$this->assertSame( $first['body'], $second['body'] );
		$this->assertSame( 0, $reads(), 'the second request is answered from Redis, no marker read' );

		wp_update_post(
			array(
				'ID'          => $ids[1],
				'post_status' => 'draft',
			)
		);
		$third = $this->next_request_feed();
		$this->assertSame( array( 'Alder', 'Cedar' ), $third['titles'], 'the unpublished place is gone' );
		$this->assertNotSame( $first['etag'], $third['etag'] );
		wp_cache_flush_runtime();
		$this->assertSame( 304, $this->serve( '/cairn/v1/markers', array(), array( 'If-None-Match' => $third['etag'] ) )['status'], 'the new ETag revalidates' );
		wp_cache_flush_runtime();
		$this->assertSame( 200, $this->serve( '/cairn/v1/markers', array(), array( 'If-None-Match' => $first['etag'] ) )['status'], 'the old one does not' );
	}

	/**
	 * The markers version token lives in Redis: a new process reads the same one, and a change made
	 * by "another process" (written straight into Redis and the database) is seen at once.
	 */
	public function test_version_token_survives_in_redis(): void {
		$version = ( new Markers_Version() )->get();
		wp_cache_flush_runtime();
		$this->assertSame( $version, get_option( Markers_Version::OPTION ), 'the next request reads the same token' );
		$this->assertSame( serialize( $version ), self::redis()->get( self::redis_prefix() . '1:options:' . Markers_Version::OPTION ), 'the token has a key of its own in Redis' ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.serialize_serialize
		$this->assertArrayNotHasKey( Markers_Version::OPTION, wp_load_alloptions( true ), 'not in alloptions (see the next test)' );

		$this->create_marker( array( 'post_title' => 'Changes the version' ) );
		wp_cache_flush_runtime();
		$this->assertNotSame( $version, get_option( Markers_Version::OPTION ), 'a change renews it for every process' );
	}

	/**
	 * Another process saving any autoloaded option (WP-Cron saves `cron` on every run) writes back
	 * the whole `alloptions` it read a moment before. A new markers version saved in between must
	 * not be lost with it: every later request would otherwise read the old version from Redis
	 * (while the database has the new one), and caches keyed by it would serve the old places.
	 */
	public function test_version_token_is_not_lost_to_a_concurrent_options_write(): void {
		$markers = new Markers_Version();
		$markers->bump(); // As on a site running for a while: the token was saved by bump().
		$old = $markers->get();

		// Process B starts saving an autoloaded option: core reads alloptions from the cache.
		wp_cache_flush_runtime();
		$read_by_b = wp_load_alloptions( true );
		// Process A renews the markers version meanwhile.
		wp_cache_flush_runtime();
		$new = $markers->bump();
		$this->assertNotSame( $old, $new );
		// B writes back what it read, with its own option changed (core's update_option()).
		$read_by_b['blogdescription'] = 'Saved by another process';
		wp_cache_set( 'alloptions', $read_by_b, 'options' );

		wp_cache_flush_runtime();
		$this->assertSame( $new, get_option( Markers_Version::OPTION ), 'the next request reads the new version' );
		$this->assertSame( $new, $markers->get() );
	}

	/**
	 * The same race on the address-search job: a cancelled job must stay cancelled, not come
	 * back running for every later request from another process' copy of alloptions.
	 */
	public function test_cancelled_geocode_job_is_not_resurrected_by_a_concurrent_options_write(): void {
		$queue = new Geocode_Queue();
		$queue->add( 3 );
		$this->assertTrue( $queue->is_running() );

		wp_cache_flush_runtime();
		$read_by_b = wp_load_alloptions( true );
		wp_cache_flush_runtime();
		$queue->cancel();
		$this->assertFalse( $queue->is_running() );
		$read_by_b['blogdescription'] = 'Saved by another process';
		wp_cache_set( 'alloptions', $read_by_b, 'options' );

		wp_cache_flush_runtime();
		$this->assertFalse( ( new Geocode_Queue() )->is_running(), 'the next request sees the job cancelled' );
	}

	/**
	 * A rebuild of the places index started while another request ran: that request, when it
	 * next looks for any missing option, writes back its list of missing options (core's
	 * `notoptions`), which still names the rebuild. Every later request must still see the
	 * rebuild pending — maps must not switch to tiles from a half-built index.
	 */
	public function test_pending_index_rebuild_is_not_hidden_by_a_concurrent_missing_option(): void {
		$index = Plugin::instance()->get( 'place_index' );
		$this->assertInstanceOf( Place_Index::class, $index );
		$index->rebuild_now();
		wp_cache_flush_runtime();
		$this->assertTrue( $index->is_ready(), 'built' );
		$request_b = clone $GLOBALS['wp_object_cache']; // Request B saw no rebuild option.

		wp_cache_flush_runtime();
		$index->start_rebuild();
		$this->assertFalse( $index->is_ready(), 'a rebuild is pending' );

		$GLOBALS['wp_object_cache'] = $request_b; // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- switching between two requests' caches.
		$this->assertFalse( get_option( 'cairn_engines_no_such_option' ), 'request B looks for a missing option' );

		wp_cache_flush_runtime();
		$this->assertFalse( $index->is_ready(), 'the next request still sees the rebuild pending' );
	}

	/**
	 * A flood of distinct filter URLs keeps the plugin's keys in Redis under the feed cache's bound.
	 */
	public function test_flood_of_filters_is_bounded_in_redis(): void {
		$limits = Feed_Cache::limits();
		$ids    = array();
		for ( $i = 0; $i < $limits['entries'] + 6; $i++ ) {
			$ids[] = $this->create_marker(
				array(
					'post_title' => "Flood {$i}",
					'lat'        => $i % 80,
					'lng'        => $i,
				)
			);
		}
		$this->next_request_feed();
		$base = count( self::redis_keys( 'cairn_maps_feed_' ) );
		foreach ( $ids as $i => $id ) {
			foreach ( array( 'a', 'b' ) as $again ) { // Twice each: the second one is stored.
				wp_cache_flush_runtime();
				$answer = $this->serve( '/cairn/v1/markers', array( 'include' => (string) $id ) );
				$this->assertSame( 200, $answer['status'], "include={$id} ({$again})" );
				wp_cache_flush_runtime();
				$box = $this->serve( '/cairn/v1/markers', array( 'bbox' => ( $i - 0.5 ) . ',-90,' . ( $i + 0.5 ) . ',90' ) );
				$this->assertSame( array( $id ), array_column( json_decode( $box['body'], true )['features'], 'id' ), "bbox around {$i}" );
			}
			$this->assertLessThanOrEqual( $base + Feed_Cache::max_rows(), count( self::redis_keys( 'cairn_maps_feed_' ) ), "after {$i}: keys in Redis stay bounded" );
		}
	}

	/**
	 * Two requests storing filtered copies: the first looked for the copies' index before it
	 * existed (so its local cache remembers "no such option"), the second then created it. When
	 * the first stores its copy, under the lock, it must read the index the second wrote, or it
	 * writes an index without the second's copy: a copy no index knows is never evicted, and the
	 * bound on stored copies no longer holds.
	 */
	public function test_filtered_copies_index_is_read_fresh_under_the_lock(): void {
		$cache   = new Feed_Cache();
		$payload = new Feed_Payload( str_split( (string) gzencode( '{"type":"FeatureCollection","features":[]}' ), 1000 ), 43, 0, 'v1' );
		$first   = str_repeat( 'a', 32 );
		$second  = str_repeat( 'b', 32 );

		// Request 1 starts: it asks whether its selection was seen; neither option exists yet.
		wp_cache_flush_runtime();
		$this->assertFalse( $cache->admits( $first ) );
		$request_one = clone $GLOBALS['wp_object_cache']; // Its local cache, kept aside.

		// Request 2, meanwhile, stores a copy of its own selection (asked for twice).
		wp_cache_flush_runtime();
		$this->assertFalse( $cache->set_filtered( $second, 'v1', $payload ) );
		wp_cache_flush_runtime();
		$this->assertTrue( $cache->set_filtered( $second, 'v1', $payload ) );

		// Request 1 goes on, with what its cache held: remembered, then (asked again) stored.
		$GLOBALS['wp_object_cache'] = $request_one; // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- switching between two requests' caches.
		$cache->set_filtered( $first, 'v1', $payload );
		wp_cache_flush_runtime();
		$this->assertTrue( $cache->set_filtered( $first, 'v1', $payload ) );

		wp_cache_flush_runtime();
		$index = get_option( Feed_Cache::INDEX_OPTION );
		$this->assertSame( array( $first, $second ), array_values( array_intersect( array( $first, $second ), array_keys( is_array( $index ) ? $index : array() ) ) ), 'the index knows both copies' );
	}

	/**
	 * Many visitors asking for the same map (feed, a tile, the places list and summary) store
	 * nothing per visitor.
	 */
	public function test_no_entry_per_visitor(): void {
		$this->create_marker( array( 'post_title' => 'Visited' ) );
		Plugin::instance()->get( 'place_index' )->rebuild_now();
		$routes = array( '/cairn/v1/markers', '/cairn/v1/tiles/2/1/1', '/cairn/v1/places', '/cairn/v1/places/summary' );
		foreach ( array( 1, 2 ) as $warm ) {
			foreach ( $routes as $route ) {
				wp_cache_flush_runtime();
				$this->assertSame( 200, $this->serve( $route )['status'], "{$route} ({$warm})" );
			}
		}
		$before = self::redis_keys( '' );
		for ( $visitor = 1; $visitor <= 25; $visitor++ ) {
			foreach ( $routes as $route ) {
				wp_cache_flush_runtime();
				$_SERVER['REMOTE_ADDR'] = "198.51.100.{$visitor}";
				$answer                 = $this->serve(
					$route,
					array(),
					array(
						'User-Agent'      => "Visitor {$visitor}",
						'Accept-Encoding' => 0 === $visitor % 2 ? 'gzip' : '',
						'Cookie'          => "visitor={$visitor}",
					)
				);
				$this->assertSame( 200, $answer['status'], $route );
			}
		}
		$_SERVER['REMOTE_ADDR'] = '127.0.0.1';
		$this->assertSame( array(), array_values( array_diff( self::redis_keys( '' ), $before ) ), 'no key was added by visitors' );
	}

	/**
	 * The places list and summary of a tiled map: right across requests from what Redis keeps
	 * (no index query the second time), and an unpublished place gone from the next answers.
	 */
	public function test_places_are_right_across_requests_and_forget_an_unpublished_place(): void {
		$ids = array();
		foreach ( array( 'Alder hut', 'Birch hut', 'Cedar lodge' ) as $i => $title ) {
			$ids[] = $this->create_marker(
				array(
					'post_title' => $title,
					'lat'        => 45 + $i,
					'lng'        => 6 + $i,
				)
			);
		}
		$first = $this->next_request_places( array( 'q' => 'hut' ) );
		$this->assertSame( array( 'Alder hut', 'Birch hut' ), $first['titles'] );
		$this->assertSame( 3, $this->next_request_summary()['total'] );
		$this->assertNotEmpty( self::redis_keys( ':' . Answer_Slots::GROUP . ':' ), 'answers are kept in Redis' );

		$reads  = $this->count_queries( 'cairn_place' );
		$second = $this->next_request_places( array( 'q' => 'hut' ) );
		$this->assertSame( $first, $second );
		$this->assertSame( 0, $reads(), 'the second request is answered from Redis, no index query' );

		wp_trash_post( $ids[0] );
		$this->assertSame( array( 'Birch hut' ), $this->next_request_places( array( 'q' => 'hut' ) )['titles'], 'the trashed place is gone' );
		$this->assertSame( 2, $this->next_request_summary()['total'] );
	}

	/**
	 * A flood of distinct searches keeps the places answers in Redis within their slots.
	 */
	public function test_flood_of_searches_is_bounded_in_redis(): void {
		$this->create_marker( array( 'post_title' => 'Lone hut' ) );
		$requests = Answer_Slots::SLOTS + 200;
		for ( $i = 0; $i < $requests; $i++ ) {
			wp_cache_flush_runtime();
			$answer = $this->serve( '/cairn/v1/places', array( 'q' => "flood {$i}" ) );
			$this->assertSame( 200, $answer['status'], $answer['body'] );
		}
		$keys = count( self::redis_keys( ':' . Answer_Slots::GROUP . ':' ) );
		$this->assertGreaterThan( 100, $keys, 'answers were kept' );
		$this->assertLessThanOrEqual( Answer_Slots::SLOTS, $keys, "{$requests} distinct searches" );
	}

	/**
	 * Tiles of a tiled map: right across requests from what Redis keeps (no index read the
	 * second time), and an unpublished place gone from the next answer of its tile.
	 */
	public function test_tiles_are_right_across_requests_and_forget_an_unpublished_place(): void {
		$ids = array();
		foreach ( array( 'Tile one', 'Tile two', 'Tile three' ) as $i => $title ) {
			$ids[] = $this->create_marker(
				array(
					'post_title' => $title,
					'lat'        => -30 + 25 * $i,
					'lng'        => -100 + 80 * $i,
				)
			);
		}
		$index = Plugin::instance()->get( 'place_index' );
		$this->assertInstanceOf( Place_Index::class, $index );
		$index->rebuild_now();

		$first = $this->next_request_tile( '0/0/0' );
		$this->assertSame( 3, $first['places'] );
		$this->assertNotEmpty( self::redis_keys( ':' . Tile_Cache::GROUP . ':' ), 'the tile is kept in Redis' );

		$reads  = $this->count_queries( 'cairn_place' );
		$second = $this->next_request_tile( '0/0/0' );
		$this->assertSame( $first['body'], $second['body'] );
		$this->assertSame( $first['etag'], $second['etag'] );
		$this->assertSame( 0, $reads(), 'the second request is answered from Redis, no place read' );

		wp_update_post(
			array(
				'ID'          => $ids[2],
				'post_status' => 'draft',
			)
		);
		$third = $this->next_request_tile( '0/0/0' );
		$this->assertSame( 2, $third['places'], 'the unpublished place is gone' );
		$this->assertNotSame( $first['etag'], $third['etag'] );
	}

	/**
	 * A flood of distinct tile URLs keeps the tiles in Redis within their slots.
	 */
	public function test_flood_of_tiles_is_bounded_in_redis(): void {
		add_filter( 'cairn_maps_tile_cache_slots', static fn() => 32 );
		$this->create_marker( array( 'post_title' => 'Lone place' ) );
		Plugin::instance()->get( 'place_index' )->rebuild_now();
		for ( $i = 0; $i < 120; $i++ ) {
			wp_cache_flush_runtime();
			// With the current `v`, as the runtime asks: only such tiles are stored.
			$answer = $this->serve( '/cairn/v1/tiles/10/' . ( 100 + $i ) . '/' . ( 300 + $i % 7 ), array( 'v' => ( new Markers_Version() )->get() ) );
			$this->assertSame( 200, $answer['status'], $answer['body'] );
		}
		$keys = count( self::redis_keys( ':' . Tile_Cache::GROUP . ':' ) );
		$this->assertGreaterThan( 10, $keys, 'tiles were kept' );
		$this->assertLessThanOrEqual( 32, $keys, '120 distinct tiles' );
	}

	/**
	 * A tile after a fresh request: its body, ETag and how many places its features hold.
	 *
	 * @param string $zxy The tile.
	 * @return array{body: string, etag: string, places: int}
	 */
	private function next_request_tile( string $zxy ): array {
		wp_cache_flush_runtime();
		// With the current `v`, as the runtime asks: only such tiles are stored.
		$answer = $this->serve( '/cairn/v1/tiles/' . $zxy, array( 'v' => ( new Markers_Version() )->get() ) );
		$this->assertSame( 200, $answer['status'], $answer['body'] );
		$places = 0;
		foreach ( json_decode( $answer['body'], true )['features'] as $feature ) {
			$places += ! empty( $feature['properties']['cluster'] ) ? (int) $feature['properties']['point_count'] : 1;
		}
		return array(
			'body'   => $answer['body'],
			'etag'   => (string) ( $answer['headers']['ETag'] ?? '' ),
			'places' => $places,
		);
	}

	/**
	 * The places list after a fresh request.
	 *
	 * @param array<string, string> $query Query.
	 * @return array{titles: string[], etag: string, total: int}
	 */
	private function next_request_places( array $query ): array {
		wp_cache_flush_runtime();
		$answer = $this->serve( '/cairn/v1/places', $query );
		$this->assertSame( 200, $answer['status'], $answer['body'] );
		$data = json_decode( $answer['body'], true );
		return array(
			'titles' => array_column( $data['items'], 'title' ),
			'etag'   => (string) ( $answer['headers']['ETag'] ?? '' ),
			'total'  => (int) $data['total'],
		);
	}

	/**
	 * The places summary after a fresh request.
	 *
	 * @return array<string, mixed>
	 */
	private function next_request_summary(): array {
		wp_cache_flush_runtime();
		$answer = $this->serve( '/cairn/v1/places/summary' );
		$this->assertSame( 200, $answer['status'], $answer['body'] );
		return json_decode( $answer['body'], true );
	}

	/**
	 * The feed after a fresh request, as a new PHP process would see it.
	 *
	 * @return array{titles: string[], etag: string, body: string}
	 */
	private function next_request_feed(): array {
		wp_cache_flush_runtime();
		$answer = $this->serve( '/cairn/v1/markers' );
		$this->assertSame( 200, $answer['status'], $answer['body'] );
		$data = json_decode( $answer['body'], true );
		return array(
			'titles' => array_column( array_column( $data['features'], 'properties' ), 'title' ),
			'etag'   => (string) ( $answer['headers']['ETag'] ?? '' ),
			'body'   => $answer['body'],
		);
	}

	/**
	 * Counts, from now on, the queries that read marker coordinates.
	 *
	 * @return callable(): int
	 */
	private function count_marker_reads(): callable {
		return $this->count_queries( 'cairn_lat' );
	}

	/**
	 * Counts, from now on, the queries that contain $part.
	 *
	 * @param string $part A piece of SQL.
	 * @return callable(): int
	 */
	private function count_queries( string $part ): callable {
		$count = 0;
		add_filter(
			'query',
			static function ( $query ) use ( &$count, $part ) {
				if ( is_string( $query ) && false !== strpos( $query, $part ) ) {
					++$count;
				}
				return $query;
			}
		);
		return static function () use ( &$count ): int {
			return $count;
		};
	}
}
