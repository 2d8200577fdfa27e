<?php
/**
 * Stored feed payloads, the rebuild lock, and printing chunk by chunk.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Feed;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Feed\Feed_Cache;
use Cairn\Maps\Feed\Feed_Payload;
use Cairn\Maps\Feed\Geojson_Feed;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Rest\Markers_Controller;
use Cairn\Maps\Tests\TestCase;

/**
 * What real HTTP cannot show cheaply: the lock's rules, which builds the cache keeps, and that
 * printing in slices gives the same bytes. (Concurrent requests over real HTTP:
 * tests/php/Http/Markers_Feed_HttpTest.php.)
 *
 * @since 0.1.0
 */
final class Feed_CacheTest extends TestCase {

	use Plugin_Feed;

	/**
	 * The feed cache's key for a filter set (as Geojson_Feed computes it).
	 *
	 * @param array<string, mixed> $filters Filters.
	 */
	private function key( array $filters = array() ): string {
		$fingerprint = new \ReflectionMethod( Geojson_Feed::class, 'fingerprint' );
		$fingerprint->setAccessible( true );
		return substr( hash( 'sha256', $fingerprint->invoke( $this->feed(), $filters ) ), 0, 32 );
	}

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
	 * A gzip stream of $json cut into chunks of $size bytes.
	 *
	 * @param string $json Text.
	 * @param int    $size Chunk size.
	 * @return string[]
	 */
	private static function chunks( string $json, int $size ): array {
		return str_split( (string) gzencode( $json, 6 ), $size );
	}

	/**
	 * A feed-like JSON document of $count features.
	 *
	 * @param int $count Features.
	 */
	private static function document( int $count ): string {
		mt_srand( 7 ); // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_seeding_mt_srand -- the same text every run.
		$features = array();
		for ( $i = 1; $i <= $count; $i++ ) {
			$features[] = Geojson_Feed::feature_json(
				array(
					'id'     => $i,
					'title'  => "Place {$i} é",
					'lng'    => mt_rand( -18000000, 18000000 ) / 1e5, // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_mt_rand
					'lat'    => mt_rand( -8500000, 8500000 ) / 1e5, // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_mt_rand
					'groups' => 0 === $i % 3 ? array( 'huts' ) : array(),
				)
			);
		}
		return '{"type":"FeatureCollection","features":[' . implode( ',', $features ) . ']}';
	}

	/**
	 * The lock: one holder at a time, released only by its holder, taken over once expired.
	 */
	public function test_lock_is_exclusive_and_expires(): void {
		global $wpdb;
		$cache = new Feed_Cache();
		$first = $cache->lock( 'abc' );
		$this->assertIsString( $first );
		$this->assertTrue( $cache->is_locked( 'abc' ) );
		$this->assertNull( $cache->lock( 'abc' ), 'held' );
		$this->assertIsString( $cache->lock( 'other' ), 'locks are per filter set' );

		$cache->unlock( 'abc', 'not-the-holder' );
		$this->assertTrue( $cache->is_locked( 'abc' ), 'only the holder releases' );
		$cache->unlock( 'abc', $first );
		$this->assertFalse( $cache->is_locked( 'abc' ) );
		$second = $cache->lock( 'abc' );
		$this->assertIsString( $second );

		// Its holder died: past the expiry, the next request takes it over.
		$wpdb->update( $wpdb->options, array( 'option_value' => ( time() - 1 ) . ':dead' ), array( 'option_name' => Feed_Cache::LOCK_PREFIX . 'abc' ) );
		$this->assertFalse( $cache->is_locked( 'abc' ) );
		$this->assertIsString( $cache->lock( 'abc' ) );
		$this->assertSame( 'off', $wpdb->get_var( $wpdb->prepare( "SELECT autoload FROM {$wpdb->options} WHERE option_name = %s", Feed_Cache::LOCK_PREFIX . 'abc' ) ), 'never autoloaded' );
	}

	/**
	 * While another request rebuilds, an anonymous request gets the previous build (its version,
	 * no marker read); a logged-in one waits for the lock to go, then builds the current version.
	 */
	public function test_previous_build_is_served_during_a_rebuild(): void {
		$this->create_marker( array( 'post_title' => 'First' ) );
		$previous = $this->feed()->payload( array() );
		$this->create_marker( array( 'post_title' => 'Second' ) );
		$version = ( new Markers_Version() )->get();
		$this->assertNotSame( $version, $previous->version() );

		$cache = new Feed_Cache();
		$this->assertIsString( $cache->lock( $this->key() ), 'another request rebuilds' );
		list( $stale, $reads ) = $this->counting_marker_reads(
			function () {
				return $this->feed()->payload( array(), true );
			}
		);
		$this->assertSame( 0, $reads, 'no marker read' );
		$this->assertSame( $previous->version(), $stale->version() );
		$this->assertSame( $previous->json(), $stale->json() );

		// Over the REST route: the previous build's ETag, to be revalidated before reuse.
		$served = $this->serve( '/cairn/v1/markers' );
		$this->assertSame( 200, $served['status'] );
		$this->assertSame( $this->feed()->etag( array(), $previous->version() ), $served['headers']['ETag'] );
		$this->assertSame( Markers_Controller::STALE_CACHE_CONTROL, $served['headers']['Cache-Control'] );
		$this->assertSame( 304, $this->serve( '/cairn/v1/markers', array(), array( 'If-None-Match' => $served['headers']['ETag'] ) )['status'] );

		// Without the previous build allowed: waits while the lock holds (here: expires in a second).
		global $wpdb;
		$wpdb->update( $wpdb->options, array( 'option_value' => ( time() + 1 ) . ':other' ), array( 'option_name' => Feed_Cache::LOCK_PREFIX . $this->key() ) );
		$lock_reads = self::count_queries_naming( Feed_Cache::LOCK_PREFIX . $this->key() );
		$fresh      = $this->feed()->payload( array() );
		$this->assertGreaterThanOrEqual( 3, $lock_reads(), 'waited for the other request: its lock was looked at again and again' );
		$this->assertSame( $version, $fresh->version() );
		$this->assertCount( 2, json_decode( $fresh->json(), true )['features'] );
		$this->assertFalse( $cache->is_locked( $this->key() ), 'released after building' );
	}

	/**
	 * A new build keeps the one it replaces (readers may still be printing it) and deletes older ones.
	 */
	public function test_previous_build_is_kept_older_ones_deleted(): void {
		$cache = new Feed_Cache();
		$json  = self::document( 50 );
		foreach ( array( 'v1', 'v2', 'v3' ) as $version ) {
			$cache->set( 'key', $version, new Feed_Payload( self::chunks( $json, 1000 ), strlen( $json ), 50 ) );
		}
		$this->assertSame( 'v3', $cache->get( 'key' )->version() );
		$this->assertNull( $cache->get( 'key', 'v2' ), 'the manifest names the newest build' );
		$this->assertNotFalse( get_transient( Feed_Cache::PREFIX . 'key_v2_0' ), 'the replaced build is kept' );
		$this->assertFalse( get_transient( Feed_Cache::PREFIX . 'key_v1_0' ), 'the one before is deleted' );
		$this->assertSame( $json, $cache->get( 'key', 'v3' )->json() );
	}

	/**
	 * A chunk that vanished (evicted) fails loudly, and the build is forgotten so the next request
	 * rebuilds it.
	 */
	public function test_missing_chunk_forgets_the_build(): void {
		$cache = new Feed_Cache();
		$json  = self::document( 50 );
		$cache->set( 'key', 'v1', new Feed_Payload( self::chunks( $json, 500 ), strlen( $json ), 50 ) );
		delete_transient( Feed_Cache::PREFIX . 'key_v1_1' );
		$payload = $cache->get( 'key', 'v1' );
		$this->assertNotNull( $payload );
		try {
			$payload->json();
			$this->fail( 'a missing chunk throws' );
		} catch ( \RuntimeException $error ) {
			$this->assertStringContainsString( 'missing', $error->getMessage() );
		}
		$this->assertNull( $cache->get( 'key' ), 'the build is forgotten' );
	}

	/**
	 * With a persistent object cache (which evicts keys on its own), a build missing a chunk is not
	 * served at all: the caller rebuilds before answering.
	 */
	public function test_persistent_cache_checks_every_chunk_first(): void {
		$json     = self::document( 50 );
		$previous = wp_using_ext_object_cache( true );
		try {
			$cache = new Feed_Cache();
			$cache->set( 'key', 'v1', new Feed_Payload( self::chunks( $json, 500 ), strlen( $json ), 50 ) );
			$this->assertSame( $json, $cache->get( 'key', 'v1' )->json() );
			wp_cache_delete( Feed_Cache::PREFIX . 'key_v1_2', 'transient' );
			$this->assertNull( $cache->get( 'key', 'v1' ), 'evicted chunk: rebuild' );
		} finally {
			wp_using_ext_object_cache( (bool) $previous );
		}
	}

	/**
	 * Printing inflates in small slices: the same bytes as inflating all at once, whatever the
	 * chunk boundaries, and no printed piece much larger than a slice inflates to.
	 */
	public function test_slice_inflation_prints_identical_json(): void {
		$json = self::document( 3000 );
		foreach ( array( 7, 4096, 100000, 1 << 20 ) as $size ) {
			$payload = new Feed_Payload( self::chunks( $json, $size ), strlen( $json ), 3000 );
			$pieces  = array();
			ob_start(
				static function ( $buffer ) use ( &$pieces ) {
					if ( '' !== $buffer ) {
						$pieces[] = $buffer;
					}
					return '';
				},
				1 // Each echo separately.
			);
			$payload->print_json();
			ob_end_clean();
			$this->assertSame( $json, implode( '', $pieces ), "chunks of {$size} bytes" );
			$this->assertSame( $json, $payload->json() );
			$this->assertLessThan( 32 * Feed_Payload::INFLATE_SLICE, max( array_map( 'strlen', $pieces ) ), 'printed in slices' );
			$this->assertSame( (string) gzencode( $json, 6 ), implode( '', $payload->gzip_chunks() ) );
		}
	}

	/**
	 * A stored payload is read chunk by chunk as it is printed and not kept in the request's cache,
	 * and prints the very bytes that were stored.
	 */
	public function test_stored_payload_prints_chunk_by_chunk(): void {
		$cache = new Feed_Cache();
		$json  = self::document( 3000 );
		$built = new Feed_Payload( self::chunks( $json, 20000 ), strlen( $json ), 3000, 'v1' );
		$cache->set( 'key', 'v1', $built );
		wp_cache_flush();

		$stored = $cache->get( 'key', 'v1' );
		$this->assertSame( $built->gzip_bytes(), $stored->gzip_bytes(), 'sizes come from the manifest' );
		$this->assertSame( $built->chunk_count(), $stored->chunk_count() );
		ob_start();
		$stored->print_gzip();
		$gzip = (string) ob_get_clean();
		$this->assertSame( implode( '', $built->gzip_chunks() ), $gzip );
		$chunks = $stored->chunk_count();
		for ( $i = 0; $i < $chunks; $i++ ) {
			$this->assertFalse( wp_cache_get( '_transient_' . Feed_Cache::PREFIX . 'key_v1_' . $i, 'options' ), 'a printed chunk is not kept' );
		}
		ob_start();
		$stored->print_json();
		$this->assertSame( $json, ob_get_clean() );
	}

	/**
	 * A payload of $count features for the bounded cache, cut into chunks as the feed cuts them.
	 *
	 * @param int    $count   Features.
	 * @param string $version Version.
	 */
	private static function payload( int $count, string $version = 'v1' ): Feed_Payload {
		$json = self::document( $count );
		return new Feed_Payload( self::chunks( $json, Geojson_Feed::CHUNK_BYTES ), strlen( $json ), $count, $version );
	}

	/**
	 * A filter-set key.
	 *
	 * @param int $n Number.
	 */
	private static function hex( int $n ): string {
		return substr( hash( 'sha256', "key {$n}" ), 0, 32 );
	}

	/**
	 * Stores a filtered copy the way the feed does for a selection asked for twice.
	 *
	 * @param Feed_Cache   $cache   Cache.
	 * @param string       $key     Key.
	 * @param Feed_Payload $payload Payload.
	 */
	private static function store_twice( Feed_Cache $cache, string $key, Feed_Payload $payload ): bool {
		$cache->set_filtered( $key, $payload->version(), $payload );
		return $cache->set_filtered( $key, $payload->version(), $payload );
	}

	/**
	 * The filtered copies stored (manifests in the options table), and the option rows and bytes of
	 * the feed cache (without locks).
	 *
	 * @return array{keys: string[], rows: int, bytes: int}
	 */
	private static function stored(): array {
		global $wpdb;
		$rows = $wpdb->get_results( $wpdb->prepare( "SELECT option_name, LENGTH(option_value) AS bytes FROM {$wpdb->options} WHERE (option_name LIKE %s OR option_name LIKE %s OR option_name LIKE %s) AND option_name NOT LIKE %s", $wpdb->esc_like( '_transient_' . Feed_Cache::PREFIX ) . '%', $wpdb->esc_like( '_transient_timeout_' . Feed_Cache::PREFIX ) . '%', $wpdb->esc_like( Feed_Cache::PREFIX ) . '%', $wpdb->esc_like( Feed_Cache::LOCK_PREFIX ) . '%' ), ARRAY_A );
		$keys = array();
		foreach ( $rows as $row ) {
			if ( 1 === preg_match( '/^_transient_' . preg_quote( Feed_Cache::PREFIX, '/' ) . '([0-9a-f]{32})$/', $row['option_name'], $match ) ) {
				$keys[] = $match[1];
			}
		}
		sort( $keys );
		return array(
			'keys'  => $keys,
			'rows'  => count( $rows ),
			'bytes' => (int) array_sum( array_column( $rows, 'bytes' ) ),
		);
	}

	/**
	 * A filtered selection asked for once is remembered, not stored; the second time it is stored
	 * and read back whole.
	 */
	public function test_a_filtered_copy_is_stored_the_second_time(): void {
		$cache   = new Feed_Cache();
		$payload = self::payload( 300 );
		$key     = self::hex( 1 );
		$this->assertFalse( $cache->admits( $key ) );
		$this->assertFalse( $cache->set_filtered( $key, 'v1', $payload ), 'asked for once' );
		$this->assertSame( array(), self::stored()['keys'], 'nothing stored' );
		$this->assertNull( $cache->get_filtered( $key ) );
		$this->assertTrue( $cache->admits( $key ), 'remembered' );

		$this->assertTrue( $cache->set_filtered( $key, 'v1', $payload ), 'asked for again' );
		$this->assertSame( array( $key ), self::stored()['keys'] );
		$stored = $cache->get_filtered( $key );
		$this->assertSame( $payload->json(), $stored->json() );
		$this->assertSame( 'v1', $stored->version() );
		$this->assertSame( 300, $stored->count() );

		// A new version replaces the build at once: a filtered copy keeps no previous build.
		$this->assertTrue( $cache->set_filtered( $key, 'v2', self::payload( 300, 'v2' ) ) );
		$this->assertSame( 'v2', $cache->get_filtered( $key )->version() );
		$this->assertFalse( get_transient( Feed_Cache::PREFIX . $key . '_v1_0' ), 'the previous build is deleted' );

		// Read whole: evicting it after the read does not cut the answer short.
		$read = $cache->get_filtered( $key );
		$this->assertTrue( $this->store_past( $cache, 40 ) );
		$this->assertNull( $cache->get_filtered( $key ), 'evicted' );
		$this->assertSame( 300, count( json_decode( $read->json(), true )['features'] ) );
	}

	/**
	 * Stores $count other selections (twice each), past any bound.
	 *
	 * @param Feed_Cache $cache Cache.
	 * @param int        $count How many.
	 */
	private function store_past( Feed_Cache $cache, int $count ): bool {
		$all = true;
		for ( $i = 100; $i < 100 + $count; $i++ ) {
			$all = self::store_twice( $cache, self::hex( $i ), self::payload( 10 ) ) && $all;
		}
		return $all;
	}

	/**
	 * Driven past both bounds, the cache keeps at most the number of copies and the gzip bytes of
	 * limits(), and never more option rows than max_rows(); a copy larger than the whole byte
	 * bound is not stored; the whole feed is never evicted.
	 */
	public function test_filtered_copies_stay_within_the_bound(): void {
		$cache = new Feed_Cache();
		$this->assertSame( Feed_Cache::MAX_ENTRIES, Feed_Cache::limits()['entries'] );
		$this->assertSame( 8 * 1024 * 1024, Feed_Cache::limits()['bytes'] );
		$this->assertSame( 162, Feed_Cache::max_rows(), '2 x 32 manifests, 2 x (32 + 16) chunks, 2 options' );

		$whole = self::payload( 2000 );
		$cache->set( 'whole', 'v1', $whole );
		$base = self::stored();

		// By count: the default bound, driven past.
		$this->store_past( $cache, Feed_Cache::MAX_ENTRIES + 10 );
		$stored = self::stored();
		$this->assertCount( Feed_Cache::MAX_ENTRIES, array_diff( $stored['keys'], $base['keys'] ) );
		$this->assertLessThanOrEqual( $base['rows'] + Feed_Cache::max_rows(), $stored['rows'] );
		$this->assertNotNull( $cache->get( 'whole', 'v1' ), 'the whole feed is kept' );
		$this->assertCount( Feed_Cache::MAX_ENTRIES, get_option( Feed_Cache::INDEX_OPTION ) );

		// By bytes: a bound of two and a half copies of this size.
		$big   = self::payload( 1500 );
		$limit = (int) ( 2.5 * $big->gzip_bytes() );
		add_filter(
			'cairn_maps_feed_cache_limits',
			static function () use ( $limit ) {
				return array(
					'entries' => 10,
					'bytes'   => $limit,
				);
			}
		);
		for ( $i = 0; $i < 6; $i++ ) {
			$this->assertTrue( self::store_twice( $cache, self::hex( 200 + $i ), self::payload( 1500 ) ), "big {$i}" );
			$index = get_option( Feed_Cache::INDEX_OPTION );
			$this->assertLessThanOrEqual( 10, count( $index ) );
			$this->assertLessThanOrEqual( $limit, array_sum( array_column( $index, 'bytes' ) ), "after big {$i}: gzip bytes" );
			$this->assertLessThanOrEqual( $base['rows'] + Feed_Cache::max_rows(), self::stored()['rows'] );
		}
		$this->assertSame( array( self::hex( 204 ), self::hex( 205 ) ), array_values( array_intersect( array( self::hex( 200 ), self::hex( 201 ), self::hex( 202 ), self::hex( 203 ), self::hex( 204 ), self::hex( 205 ) ), self::stored()['keys'] ) ), 'the two newest fit' );
		$this->assertEqualsCanonicalizing( array_merge( $base['keys'], array_keys( get_option( Feed_Cache::INDEX_OPTION ) ) ), self::stored()['keys'], 'the index lists exactly what is stored' );

		$huge = self::payload( 6000 );
		$this->assertGreaterThan( $limit, $huge->gzip_bytes() );
		$this->assertFalse( self::store_twice( $cache, self::hex( 300 ), $huge ), 'larger than the whole bound: not stored' );
		$this->assertNull( $cache->get_filtered( self::hex( 300 ) ) );
		$this->assertNotNull( $cache->get( 'whole', 'v1' ), 'the whole feed is still kept' );
	}

	/**
	 * Eviction takes the copies not asked for again since they were stored before those in use,
	 * then the least recently used; a use is written at most once a TOUCH_INTERVAL.
	 */
	public function test_eviction_keeps_copies_in_use(): void {
		global $wpdb;
		add_filter(
			'cairn_maps_feed_cache_limits',
			static function () {
				return array(
					'entries' => 3,
					'bytes'   => 1 << 30,
				);
			}
		);
		$cache = new Feed_Cache();
		foreach ( array( 1, 2, 3 ) as $n ) {
			self::store_twice( $cache, self::hex( $n ), self::payload( 10 ) );
		}
		$cache->touch( self::hex( 1 ) ); // Asked for again: in use, though the oldest.
		$this->assertSame( 2, get_option( Feed_Cache::INDEX_OPTION )[ self::hex( 1 ) ]['hits'] );

		self::store_twice( $cache, self::hex( 4 ), self::payload( 10 ) );
		$this->assertSame( array( self::hex( 1 ), self::hex( 3 ), self::hex( 4 ) ), array_values( array_intersect( array( self::hex( 1 ), self::hex( 2 ), self::hex( 3 ), self::hex( 4 ) ), self::stored()['keys'] ) ), 'the oldest copy not in use went first' );

		// Throttled: a second use within TOUCH_INTERVAL writes nothing.
		$queries = $wpdb->num_queries;
		$cache->touch( self::hex( 1 ) );
		$this->assertLessThanOrEqual( $queries + 1, $wpdb->num_queries, 'at most the index read' );

		// In use too, but longer ago than the other: the least recently used in-use copy goes, once
		// no copy is left that was not asked for again.
		$cache->touch( self::hex( 3 ) );
		$cache->touch( self::hex( 4 ) );
		$index                           = get_option( Feed_Cache::INDEX_OPTION );
		$index[ self::hex( 1 ) ]['used'] = time() - 10 * Feed_Cache::TOUCH_INTERVAL;
		update_option( Feed_Cache::INDEX_OPTION, $index, false );
		self::store_twice( $cache, self::hex( 5 ), self::payload( 10 ) );
		$this->assertSame( array( self::hex( 3 ), self::hex( 4 ), self::hex( 5 ) ), array_values( array_intersect( array( self::hex( 1 ), self::hex( 3 ), self::hex( 4 ), self::hex( 5 ) ), self::stored()['keys'] ) ) );
		$cache->touch( self::hex( 3 ) );
		$this->assertSame( $index[ self::hex( 3 ) ]['used'], get_option( Feed_Cache::INDEX_OPTION )[ self::hex( 3 ) ]['used'], 'used a moment ago: not written again' );
	}

	/**
	 * While another request holds the index, a copy is served but not stored (never waited for).
	 */
	public function test_busy_index_stores_nothing(): void {
		$cache = new Feed_Cache();
		$key   = self::hex( 7 );
		$cache->set_filtered( $key, 'v1', self::payload( 10 ) );
		$lock        = $cache->lock( 'index' );
		$index_locks = self::count_queries_naming( Feed_Cache::LOCK_PREFIX . 'index' );
		$this->assertFalse( $cache->set_filtered( $key, 'v1', self::payload( 10 ) ) );
		$this->assertLessThanOrEqual( 2, $index_locks(), 'not waited for: one try at the lock and one look at who holds it' );
		$this->assertSame( array(), self::stored()['keys'] );
		$cache->unlock( 'index', $lock );
		$this->assertTrue( $cache->set_filtered( $key, 'v1', self::payload( 10 ) ) );
	}

	/**
	 * With a persistent object cache (Redis, Memcached), where the copies live instead of the
	 * options table, the bound holds the same way: the evicted copies are gone from it.
	 */
	public function test_bound_with_a_persistent_object_cache(): void {
		add_filter(
			'cairn_maps_feed_cache_limits',
			static function () {
				return array(
					'entries' => 2,
					'bytes'   => 1 << 30,
				);
			}
		);
		$previous = wp_using_ext_object_cache( true );
		try {
			$cache = new Feed_Cache();
			foreach ( array( 1, 2, 3, 4 ) as $n ) {
				$this->assertTrue( self::store_twice( $cache, self::hex( $n ), self::payload( 20 ) ), "copy {$n}" );
			}
			$this->assertNull( $cache->get_filtered( self::hex( 1 ) ) );
			$this->assertNull( $cache->get_filtered( self::hex( 2 ) ) );
			$this->assertFalse( wp_cache_get( Feed_Cache::PREFIX . self::hex( 1 ) . '_v1_0', 'transient' ), 'its chunk is deleted too' );
			$this->assertSame( 20, $cache->get_filtered( self::hex( 3 ) )->count() );
			$this->assertSame( 20, $cache->get_filtered( self::hex( 4 ) )->count() );
			$this->assertSame( array( self::hex( 3 ), self::hex( 4 ) ), array_keys( get_option( Feed_Cache::INDEX_OPTION ) ) );
			$this->assertSame( array(), self::stored()['keys'], 'nothing in the options table' );
		} finally {
			wp_using_ext_object_cache( (bool) $previous );
		}
	}

	/**
	 * Counts the queries naming a text from now on (until the returned counter is called).
	 *
	 * @param string $text E.g. a lock's option name.
	 * @return \Closure(): int The count so far (the counting stops when it is read).
	 */
	private static function count_queries_naming( string $text ): \Closure {
		$count  = 0;
		$filter = static function ( $sql ) use ( &$count, $text ) {
			$count += is_string( $sql ) && false !== strpos( $sql, $text ) ? 1 : 0;
			return $sql;
		};
		add_filter( 'query', $filter );
		return static function () use ( &$count, $filter ): int {
			remove_filter( 'query', $filter );
			return $count;
		};
	}
}
