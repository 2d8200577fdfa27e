<?php
/**
 * The plugin behind a real caching reverse proxy: nginx proxy_cache with docs/cdn.md's settings.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Engines;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Tests\Http\Web_Server;
use Cairn\Maps\Tests\TestCase;
use WP_Session_Tokens;

/**
 * WordPress is served by PHP's built-in server (proxy-router.php: the feeds' max-age is
 * MAX_AGE seconds), and nginx runs tests/php/Engines/nginx-proxy.conf in front of it. Requests go
 * through nginx; its X-Cache-Status header says whether the answer came from its cache.
 *
 * Run with `bash bin/test-php.sh --redis` (group `proxy`; Debian: apt-get install nginx).
 *
 * @group proxy
 */
final class Proxy_HttpTest extends TestCase {
	use Nginx_Proxy;
	use Web_Server {
		set_up_before_class as web_server_set_up;
		tear_down_after_class as web_server_tear_down;
		web_server_environment as web_server_base_environment;
	}

	/**
	 * The feeds' max-age on this test site, in seconds.
	 */
	private const MAX_AGE = 3;

	/**
	 * Markers to delete after the test.
	 *
	 * @var int[]
	 */
	private array $committed = array();

	/**
	 * Users to delete after the test.
	 *
	 * @var int[]
	 */
	private array $committed_users = array();

	/**
	 * The site's router: the test site with a short max-age.
	 *
	 * @return string
	 */
	protected static function web_server_router(): string {
		return __DIR__ . '/proxy-router.php';
	}

	/**
	 * The test site's environment, plus the max-age.
	 *
	 * @return array<string, string>
	 */
	protected static function web_server_environment(): array {
		$environment                             = self::web_server_base_environment();
		$environment['CAIRN_TEST_PROXY_MAX_AGE'] = (string) self::MAX_AGE;
		return $environment;
	}

	/**
	 * Starts WordPress, then nginx in front of it.
	 */
	public static function set_up_before_class(): void {
		self::web_server_set_up();
		self::start_proxy( self::$port );
	}

	/**
	 * Stops nginx, then WordPress.
	 */
	public static function tear_down_after_class(): void {
		self::stop_proxy();
		self::web_server_tear_down();
	}

	/**
	 * Deletes what the test committed.
	 */
	protected function tear_down(): void {
		global $wpdb;
		foreach ( $this->committed as $id ) {
			wp_delete_post( $id, true );
		}
		require_once ABSPATH . 'wp-admin/includes/user.php';
		foreach ( $this->committed_users as $id ) {
			wp_delete_user( $id );
		}
		$wpdb->query( 'COMMIT' );
		parent::tear_down();
	}

	/**
	 * A second request is a proxy HIT; a place unpublished in WordPress is gone from what the proxy
	 * serves no later than the max-age WordPress sent (plus a second).
	 */
	public function test_unpublished_place_is_gone_from_the_proxy_within_max_age(): void {
		$ids = $this->commit_markers( array( 'Proxy Alder', 'Proxy Birch', 'Proxy Cedar' ) );
		$url = '/?rest_route=/cairn/v1/markers&proxy=' . wp_generate_password( 8, false );

		$first = $this->through_proxy( $url );
		$this->assertSame( 200, $first['status'], $first['body'] );
		$this->assertSame( 'MISS', $first['headers']['x-cache-status'] ?? null );
		$this->assertSame( 'public, max-age=' . self::MAX_AGE, $first['headers']['cache-control'] );
		$this->assertSame( array( 'Proxy Alder', 'Proxy Birch', 'Proxy Cedar' ), self::titles( $first ) );

		$second = $this->through_proxy( $url );
		$this->assertSame( 'HIT', $second['headers']['x-cache-status'] ?? null, 'the second request is served by the proxy' );
		$this->assertSame( $first['body'], $second['body'] );
		$this->assertSame( $first['headers']['etag'], $second['headers']['etag'] );

		wp_update_post(
			array(
				'ID'          => $ids[1],
				'post_status' => 'draft',
			)
		);
		$this->commit();
		$this->assertSame( array( 'Proxy Alder', 'Proxy Cedar' ), self::titles( $this->http( $url ) ), 'WordPress itself answers without it at once' );

		$statuses = array( $this->through_proxy( $url )['headers']['x-cache-status'] ?? '?' );
		// The cached copy lives max-age seconds (nginx counts whole ones: one more). After waiting
		// that long — a wait, not a measured time: a loaded machine only waits longer — one
		// request through the proxy must get the new answer.
		sleep( self::MAX_AGE + 1 );
		$answer     = $this->through_proxy( $url );
		$statuses[] = $answer['headers']['x-cache-status'] ?? '?';
		$this->assertSame( array( 'Proxy Alder', 'Proxy Cedar' ), self::titles( $answer ), 'the place is gone from the proxy within max-age + 1 s (' . implode( ' ', $statuses ) . ')' );
		$this->assertSame( 'HIT', $statuses[0], 'the stale answer was served from the cache until it expired' );
		$this->assertNotSame( $first['headers']['etag'], $answer['headers']['etag'] );
	}

	/**
	 * A client's If-None-Match is answered 304 by the proxy from its cache, and by WordPress once
	 * the cached answer expired (the proxy revalidates with the ETag).
	 */
	public function test_not_modified_through_the_proxy(): void {
		$this->commit_markers( array( 'Proxy Revalidated' ) );
		$url   = '/?rest_route=/cairn/v1/markers&proxy=' . wp_generate_password( 8, false );
		$first = $this->through_proxy( $url );
		$this->assertSame( 200, $first['status'] );

		$cached = $this->through_proxy( $url, array( 'If-None-Match' => $first['headers']['etag'] ) );
		$this->assertSame( 304, $cached['status'] );
		$this->assertSame( 'HIT', $cached['headers']['x-cache-status'] ?? null );
		$this->assertSame( '', $cached['body'] );
		$this->assertSame( $first['headers']['etag'], $cached['headers']['etag'] );

		$stale = $this->through_proxy( $url, array( 'If-None-Match' => '"0123456789abcdef0123456789abcdef"' ) );
		$this->assertSame( 200, $stale['status'], 'an ETag the proxy does not hold gets the body' );
		$this->assertSame( $first['body'], $stale['body'] );
	}

	/**
	 * Signed-in requests (log-in cookie and REST nonce) pass the proxy: not answered from its cache
	 * (not even with the anonymous answer it holds), and their private answers are never stored.
	 */
	public function test_signed_in_requests_are_never_cached(): void {
		$this->commit_markers( array( 'Proxy Private' ) );
		$auth = $this->signed_in_headers();
		$url  = '/?rest_route=/cairn/v1/markers&proxy=' . wp_generate_password( 8, false );

		$private = $this->through_proxy( $url, $auth );
		$this->assertSame( 200, $private['status'], $private['body'] );
		$this->assertSame( 'BYPASS', $private['headers']['x-cache-status'] ?? null );
		$this->assertSame( array( 'no-store', 'private' ), array_values( array_intersect( array( 'no-store', 'private' ), self::header_items( $private, 'cache-control' ) ) ), 'WordPress saw the signed-in user' );

		$anonymous = $this->through_proxy( $url );
		$this->assertSame( 'MISS', $anonymous['headers']['x-cache-status'] ?? null, 'the private answer was not stored' );
		$this->assertStringStartsWith( 'public', $anonymous['headers']['cache-control'] );
		$this->assertSame( 'HIT', $this->through_proxy( $url )['headers']['x-cache-status'] ?? null );

		$again = $this->through_proxy( $url, $auth );
		$this->assertSame( 'BYPASS', $again['headers']['x-cache-status'] ?? null, 'the cached anonymous answer is not given to a signed-in user' );
		$this->assertContains( 'no-store', self::header_items( $again, 'cache-control' ) );
		$nonce_only = $this->through_proxy( $url, array( 'X-WP-Nonce' => $auth['X-WP-Nonce'] ) );
		$this->assertSame( 'BYPASS', $nonce_only['headers']['x-cache-status'] ?? null, 'a nonce alone passes too' );
		$admin = $this->through_proxy( '/wp-admin/', array( 'Cookie' => $auth['Cookie'] ) );
		$this->assertSame( 'BYPASS', $admin['headers']['x-cache-status'] ?? null, '/wp-admin is never cached' );
	}

	/**
	 * Places answers whose address carries the current version are immutable: the proxy keeps
	 * them (HIT), and a change is seen under the next version's address at once. Without a
	 * version they follow the feed's max-age.
	 */
	public function test_versioned_places_are_kept_and_a_change_has_a_new_address(): void {
		$ids   = $this->commit_markers( array( 'Proxy hut one', 'Proxy hut two' ) );
		$index = \Cairn\Maps\Plugin::instance()->get( 'place_index' );
		$this->assertInstanceOf( \Cairn\Maps\Index\Place_Index::class, $index );
		// Immutable only once the index is complete (Cache_Headers::versioned()).
		$index->rebuild_now();
		$this->commit();
		$version = self::current_version();
		$search  = '/?rest_route=/cairn/v1/places&q=' . rawurlencode( 'proxy hut' ) . '&probe=' . wp_generate_password( 8, false );

		$first = $this->through_proxy( $search . '&v=' . $version );
		$this->assertSame( 200, $first['status'], $first['body'] );
		$this->assertSame( 'public, max-age=31536000, immutable', $first['headers']['cache-control'] );
		$this->assertSame( 'MISS', $first['headers']['x-cache-status'] ?? null );
		$this->assertSame( array( 'Proxy hut one', 'Proxy hut two' ), array_column( json_decode( $first['body'], true )['items'], 'title' ) );
		$this->assertSame( 'HIT', $this->through_proxy( $search . '&v=' . $version )['headers']['x-cache-status'] ?? null );

		wp_trash_post( $ids[0] );
		$this->commit();
		$next = self::current_version();
		$this->assertNotSame( $version, $next, 'the change renewed the version' );
		$kept = $this->through_proxy( $search . '&v=' . $version );
		$this->assertSame( 'HIT', $kept['headers']['x-cache-status'] ?? null, 'the old address stays as it was (immutable)' );
		$this->assertSame( $first['body'], $kept['body'] );
		$changed = $this->through_proxy( $search . '&v=' . $next );
		$this->assertSame( 'MISS', $changed['headers']['x-cache-status'] ?? null );
		$this->assertSame( array( 'Proxy hut two' ), array_column( json_decode( $changed['body'], true )['items'], 'title' ), 'the new address has the change at once' );

		$unversioned = $this->through_proxy( $search );
		$this->assertSame( 'public, max-age=' . self::MAX_AGE, $unversioned['headers']['cache-control'], 'no v: the feed\'s max-age' );
	}

	/**
	 * Tiles with the current version are immutable and kept by the proxy; a client's
	 * If-None-Match is answered 304 from the proxy's copy; a change is in the next version's tile
	 * at once; an unversioned tile follows the feed's max-age.
	 */
	public function test_versioned_tiles_are_kept_and_revalidated_through_the_proxy(): void {
		$ids   = $this->commit_markers( array( 'Tile proxy one', 'Tile proxy two' ) );
		$index = \Cairn\Maps\Plugin::instance()->get( 'place_index' );
		$this->assertInstanceOf( \Cairn\Maps\Index\Place_Index::class, $index );
		$index->rebuild_now();
		$this->commit();
		$version = self::current_version();
		$tile    = '/?rest_route=/cairn/v1/tiles/0/0/0&probe=' . wp_generate_password( 8, false );

		$first = $this->through_proxy( $tile . '&v=' . $version );
		$this->assertSame( 200, $first['status'], $first['body'] );
		$this->assertStringStartsWith( 'application/geo+json', $first['headers']['content-type'] );
		$this->assertSame( 'public, max-age=31536000, immutable', $first['headers']['cache-control'] );
		$this->assertSame( 'MISS', $first['headers']['x-cache-status'] ?? null );
		$this->assertSame( 2, self::places_in_tile( $first ) );
		$hit = $this->through_proxy( $tile . '&v=' . $version );
		$this->assertSame( 'HIT', $hit['headers']['x-cache-status'] ?? null );
		$this->assertSame( $first['body'], $hit['body'] );
		$not_modified = $this->through_proxy( $tile . '&v=' . $version, array( 'If-None-Match' => $first['headers']['etag'] ) );
		$this->assertSame( 304, $not_modified['status'] );
		$this->assertSame( 'HIT', $not_modified['headers']['x-cache-status'] ?? null );

		wp_update_post(
			array(
				'ID'          => $ids[0],
				'post_status' => 'draft',
			)
		);
		$this->commit();
		$next    = self::current_version();
		$changed = $this->through_proxy( $tile . '&v=' . $next );
		$this->assertSame( 'MISS', $changed['headers']['x-cache-status'] ?? null );
		$this->assertSame( 1, self::places_in_tile( $changed ), 'the next version\'s tile has the change at once' );
		$this->assertSame( 'public, max-age=' . self::MAX_AGE, $this->through_proxy( $tile )['headers']['cache-control'], 'no v: the feed\'s max-age' );
	}

	/**
	 * How many places a tile answer's features hold.
	 *
	 * @param array{body: string} $answer A tile answer.
	 * @return int
	 */
	private static function places_in_tile( array $answer ): int {
		$places = 0;
		foreach ( json_decode( $answer['body'], true )['features'] ?? array() as $feature ) {
			$places += ! empty( $feature['properties']['cluster'] ) ? (int) $feature['properties']['point_count'] : 1;
		}
		return $places;
	}

	/**
	 * The markers version as WordPress has it now.
	 *
	 * @return string
	 */
	private static function current_version(): string {
		wp_cache_flush_runtime();
		return ( new \Cairn\Maps\Markers\Markers_Version() )->get();
	}

	/**
	 * Published markers, committed so that the web server sees them.
	 *
	 * @param string[] $titles Titles.
	 * @return int[]
	 */
	private function commit_markers( array $titles ): array {
		$ids = array();
		foreach ( $titles as $i => $title ) {
			$ids[] = $this->create_marker(
				array(
					'post_title' => $title,
					'lat'        => 40 + $i,
					'lng'        => 5 + $i,
				)
			);
		}
		$this->committed = array_merge( $this->committed, $ids );
		$this->commit();
		return $ids;
	}

	/**
	 * Commits the test's writes (the web server is another process).
	 */
	private function commit(): void {
		global $wpdb;
		$wpdb->query( 'COMMIT' );
	}

	/**
	 * A log-in cookie and a REST nonce of a committed editor.
	 *
	 * @return array{Cookie: string, X-WP-Nonce: string}
	 */
	private function signed_in_headers(): array {
		$user                    = $this->create_user( 'editor' );
		$this->committed_users[] = $user;
		$expiration              = time() + HOUR_IN_SECONDS;
		$token                   = WP_Session_Tokens::get_instance( $user )->create( $expiration );
		$cookie                  = wp_generate_auth_cookie( $user, $expiration, 'logged_in', $token );
		$this->commit();
		$_COOKIE[ LOGGED_IN_COOKIE ] = $cookie;
		wp_set_current_user( $user );
		$nonce = wp_create_nonce( 'wp_rest' );
		unset( $_COOKIE[ LOGGED_IN_COOKIE ] );
		wp_set_current_user( 0 );
		return array(
			'Cookie'     => LOGGED_IN_COOKIE . '=' . rawurlencode( $cookie ),
			'X-WP-Nonce' => $nonce,
		);
	}

	/**
	 * The titles of a feed answer.
	 *
	 * @param array{body: string} $answer An answer.
	 * @return string[]
	 */
	private static function titles( array $answer ): array {
		$data = json_decode( $answer['body'], true );
		return is_array( $data ) ? array_column( array_column( $data['features'] ?? array(), 'properties' ), 'title' ) : array();
	}
}
