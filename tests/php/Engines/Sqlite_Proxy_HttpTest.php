<?php
/**
 * The same proxy in front of WordPress on SQLite, the database Playground runs.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Engines;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Tests\Http\Web_Server;
use Cairn\Maps\Tests\TestCase;

/**
 * A second site (tests/php/Engines/sqlite-site.php: the SQLite Database Integration plugin that
 *
 * @wp-playground/cli bundles, on the Redis object cache too when the run has one) served by PHP's
 * built-in server with a short max-age, nginx in front. Its places are written through WordPress
 * in a separate PHP process (the script), as an editor's request would.
 *
 * @group proxy
 */
final class Sqlite_Proxy_HttpTest extends TestCase {
	use Nginx_Proxy;
	use Web_Server {
		set_up_before_class as web_server_set_up;
		tear_down_after_class as web_server_tear_down;
		web_server_environment as web_server_base_environment;
	}

	/**
	 * The feeds' max-age on this site, in seconds.
	 */
	private const MAX_AGE = 3;

	/**
	 * The SQLite site's configuration file.
	 *
	 * @var string
	 */
	private static string $config = '';

	/**
	 * The site's router: the test site with a short max-age.
	 *
	 * @return string
	 */
	protected static function web_server_router(): string {
		return __DIR__ . '/proxy-router.php';
	}

	/**
	 * The SQLite site's configuration and the max-age.
	 *
	 * @return array<string, string>
	 */
	protected static function web_server_environment(): array {
		$environment                             = self::web_server_base_environment();
		$environment['CAIRN_TESTS_CONFIG']       = self::$config;
		$environment['CAIRN_TEST_PROXY_MAX_AGE'] = (string) self::MAX_AGE;
		return $environment;
	}

	/**
	 * A fresh SQLite site, its web server, nginx in front.
	 */
	public static function set_up_before_class(): void {
		self::$config = trim( self::site( 'setup' ) );
		self::web_server_set_up();
		self::start_proxy( self::$port );
	}

	/**
	 * Stops nginx, then the web server.
	 */
	public static function tear_down_after_class(): void {
		self::stop_proxy();
		self::web_server_tear_down();
	}

	/**
	 * Feed and tiles of the SQLite site through nginx: MISS then HIT; an unpublished place gone
	 * from the feed the proxy serves within the max-age (plus a second), and from the next
	 * version's tile at once.
	 */
	public function test_unpublished_place_is_gone_through_the_proxy_on_sqlite(): void {
		$ids = array();
		foreach ( array( 'Lite one', 'Lite two', 'Lite three' ) as $i => $title ) {
			$ids[] = (int) self::site( 'marker', $title, (string) ( 20 * $i - 20 ), (string) ( 50 * $i - 50 ) );
		}
		self::site( 'rebuild' );
		$version = trim( self::site( 'version' ) );
		$feed    = '/?rest_route=/cairn/v1/markers';
		$tile    = '/?rest_route=/cairn/v1/tiles/0/0/0&v=' . $version;

		$first = $this->through_proxy( $feed );
		$this->assertSame( 200, $first['status'], $first['body'] );
		$this->assertSame( 'MISS', $first['headers']['x-cache-status'] ?? null );
		$this->assertSame( array( 'Lite one', 'Lite three', 'Lite two' ), self::titles( $first ) );
		$this->assertSame( 'HIT', $this->through_proxy( $feed )['headers']['x-cache-status'] ?? null );
		$tile_first = $this->through_proxy( $tile );
		$this->assertSame( 'public, max-age=31536000, immutable', $tile_first['headers']['cache-control'] ?? null, $tile_first['body'] );
		$this->assertSame( 3, self::places_in_tile( $tile_first ) );
		$this->assertSame( 'HIT', $this->through_proxy( $tile )['headers']['x-cache-status'] ?? null );

		self::site( 'unpublish', (string) $ids[1] );
		$next = trim( self::site( 'version' ) );
		$this->assertNotSame( $version, $next );
		$this->assertSame( 2, self::places_in_tile( $this->through_proxy( '/?rest_route=/cairn/v1/tiles/0/0/0&v=' . $next ) ), 'the next version\'s tile at once' );
		// The cached copy lives max-age seconds (nginx counts whole ones: one more); after waiting
		// that long (a wait, not a measured time) one request must get the new answer.
		sleep( self::MAX_AGE + 1 );
		$this->assertSame( array( 'Lite one', 'Lite three' ), self::titles( $this->through_proxy( $feed ) ), 'the place is gone from the proxy within max-age + 1 s' );
	}

	/**
	 * Runs tests/php/Engines/sqlite-site.php; its output.
	 *
	 * @param string ...$args Command and arguments.
	 * @return string
	 */
	private static function site( string ...$args ): string {
		$command = escapeshellarg( PHP_BINARY ) . ' ' . escapeshellarg( __DIR__ . '/sqlite-site.php' ) . ' ' . implode( ' ', array_map( 'escapeshellarg', $args ) ) . ' 2>&1';
		exec( $command, $output, $status ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.system_calls_exec -- the SQLite site's own process.
		if ( 0 !== $status ) {
			self::fail( 'sqlite-site.php ' . implode( ' ', $args ) . ': ' . implode( "\n", $output ) );
		}
		return (string) end( $output );
	}

	/**
	 * The titles of a feed answer.
	 *
	 * @param array{body: string} $answer An answer.
	 * @return string[]
	 */
	private static function titles( array $answer ): array {
		$data   = json_decode( $answer['body'], true );
		$titles = is_array( $data ) ? array_column( array_column( $data['features'] ?? array(), 'properties' ), 'title' ) : array();
		sort( $titles );
		return $titles;
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
}
