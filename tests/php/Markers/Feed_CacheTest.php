<?php
/**
 * Stored feed payloads, the rebuild lock, and printing chunk by chunk.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Markers;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Feed_Cache;
use Cairn\Maps\Markers\Feed_Payload;
use Cairn\Maps\Markers\Geojson_Feed;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Plugin;
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

	/**
	 * The plugin's feed.
	 */
	private function feed(): Geojson_Feed {
		$reflection = new \ReflectionProperty( Markers_Controller::class, 'feed' );
		$reflection->setAccessible( true );
		return $reflection->getValue( Plugin::instance()->get( 'markers' ) );
	}

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
		$started = microtime( true );
		$fresh   = $this->feed()->payload( array() );
		$this->assertGreaterThan( 0.5, microtime( true ) - $started, 'waited for the other request' );
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
}
