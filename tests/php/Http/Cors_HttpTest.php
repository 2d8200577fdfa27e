<?php
/**
 * Cross-origin reads over real HTTP.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Http;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Rest\Cors;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Tests\TestCase;

/**
 * What a browser on another origin sees: the headers actually sent by the streamed feed, its
 * early 304, the routes the REST server answers, and preflights; in the default mode and with
 * `cairn_maps_allowed_origins` set; and that core's routes and writes keep core's headers.
 *
 * @since 0.2.0
 */
final class Cors_HttpTest extends TestCase {

	use Web_Server;

	/**
	 * The front end's origin in these tests (a Vite dev server).
	 */
	private const ORIGIN = 'http://localhost:5173';

	/**
	 * Posts (markers too) to delete after the test.
	 *
	 * @var int[]
	 */
	private array $committed = array();

	/**
	 * A published marker.
	 *
	 * @var int
	 */
	private int $marker = 0;

	/**
	 * A published post with a map.
	 *
	 * @var int
	 */
	private int $post = 0;

	/**
	 * Routes registered on the test site.
	 *
	 * @var string[]
	 */
	private array $routes = array();

	/**
	 * Commits a marker and a post with a map, so the web server sees them.
	 */
	protected function set_up(): void {
		global $wpdb;
		parent::set_up();
		// Before the commit: starting the REST server may write options the web server then waits for.
		$this->routes      = array_keys( rest_get_server()->get_routes() );
		$this->marker      = $this->create_marker( array( 'post_title' => 'Cross-origin hut' ) );
		$this->post        = (int) wp_insert_post(
			array(
				'post_title'   => 'A page with a map',
				'post_status'  => 'publish',
				'post_content' => '<!-- wp:cairn/map /-->',
			)
		);
		$this->committed[] = $this->marker;
		$this->committed[] = $this->post;
		$wpdb->query( 'COMMIT' );
	}

	/**
	 * Deletes what the test committed, the allowed origins included.
	 */
	protected function tear_down(): void {
		global $wpdb;
		foreach ( $this->committed as $id ) {
			wp_delete_post( $id, true );
		}
		delete_option( Settings::ORIGINS_OPTION );
		$wpdb->query( 'COMMIT' );
		parent::tear_down();
	}

	/**
	 * Stores the allowed origins where the web server reads them.
	 *
	 * @param string[] $origins Origins.
	 */
	private function allow_origins( array $origins ): void {
		global $wpdb;
		update_option( Settings::ORIGINS_OPTION, $origins );
		$wpdb->query( 'COMMIT' );
		$this->assertSame( $origins, get_option( Settings::ORIGINS_OPTION ) );
	}

	/**
	 * A path of the provider with its ids filled in; fails the test when the route is not there (a
	 * lost route is a failure, never a skip).
	 *
	 * @param string $path Path with `{marker}` or `{post}`.
	 */
	private function path( string $path ): string {
		$path  = strtr(
			$path,
			array(
				'{marker}' => (string) $this->marker,
				'{post}'   => (string) $this->post,
			)
		);
		$route = 0 === strpos( $path, '/?rest_route=' ) ? (string) strtok( substr( $path, 13 ), '&' ) : substr( (string) strtok( $path, '?' ), 8 );
		foreach ( $this->routes as $pattern ) {
			if ( 1 === preg_match( '@^' . $pattern . '$@i', $route ) ) {
				return $path;
			}
		}
		$this->fail( "{$route} is not registered." );
	}

	/**
	 * The public routes, each way they are served.
	 *
	 * @return array<string, array{0: string, 1: array<string, string>, 2: string}> Path, extra
	 *         request headers, and the field the answer varies on besides Origin ('' for none).
	 */
	public static function public_routes(): array {
		return array(
			'feed, streamed'              => array( '/wp-json/cairn/v1/markers', array(), 'accept-encoding' ),
			'feed, streamed gzip'         => array( '/?rest_route=/cairn/v1/markers', array( 'Accept-Encoding' => 'gzip' ), 'accept-encoding' ),
			'feed, HEAD'                  => array( '/wp-json/cairn/v1/markers', array( 'X-Cairn-Method' => 'HEAD' ), 'accept-encoding' ),
			'feed, error from the server' => array( '/wp-json/cairn/v1/markers?bbox=0,0,200,10', array(), '' ),
			'shapes feed, streamed'       => array( '/wp-json/cairn/v1/shapes', array(), 'accept-encoding' ),
			'shapes feed, streamed gzip'  => array( '/?rest_route=/cairn/v1/shapes', array( 'Accept-Encoding' => 'gzip' ), 'accept-encoding' ),
			'marker details'              => array( '/wp-json/cairn/v1/markers/{marker}', array(), '' ),
			'marker details, rest_route'  => array( '/?rest_route=/cairn/v1/markers/{marker}', array(), '' ),
			'maps of a post'              => array( '/wp-json/cairn/v1/posts/{post}/maps', array(), '' ),
			'tile'                        => array( '/wp-json/cairn/v1/tiles/1/0/1', array(), 'accept-encoding' ),
			'tile, gzip'                  => array( '/?rest_route=/cairn/v1/tiles/1/0/1&hidden=x', array( 'Accept-Encoding' => 'gzip' ), 'accept-encoding' ),
			'tile, error'                 => array( '/wp-json/cairn/v1/tiles/1/2/0', array(), '' ),
		);
	}

	/**
	 * Sends a request of the provider.
	 *
	 * @param string                $path    Path.
	 * @param array<string, string> $headers Request headers; X-Cairn-Method picks the method.
	 * @return array{status: int, headers: array<string, string>, cookies: int, body: string}
	 */
	private function request( string $path, array $headers ): array {
		$method = $headers['X-Cairn-Method'] ?? 'GET';
		unset( $headers['X-Cairn-Method'] );
		return $this->http( $this->path( $path ), $headers, $method );
	}

	/**
	 * Asserts the default mode's headers: any origin, ETag exposed, no credentials, no Vary: Origin.
	 *
	 * @param array{headers: array<string, string>} $answer An answer.
	 * @param string                                $vary   The field it varies on ('' for none).
	 */
	private function assert_readable_by_any_origin( array $answer, string $vary ): void {
		$this->assertSame( '*', $answer['headers']['access-control-allow-origin'] ?? null, 'Access-Control-Allow-Origin' );
		$this->assertContains( 'etag', self::header_items( $answer, 'access-control-expose-headers' ) );
		$this->assertArrayNotHasKey( 'access-control-allow-credentials', $answer['headers'] );
		$this->assertNotContains( 'origin', self::header_items( $answer, 'vary' ), 'cacheable once for every origin' );
		$this->assertSame( '' === $vary ? array() : array( $vary ), self::header_items( $answer, 'vary' ) );
		$this->assertSame( 0, $answer['cookies'] );
	}

	/**
	 * Default mode: every public route is readable from another origin, and its answer is the same
	 * with or without an Origin (a CDN keeps one copy).
	 *
	 * @dataProvider public_routes
	 *
	 * @param string                $path    Path.
	 * @param array<string, string> $headers Extra request headers.
	 * @param string                $vary    Field the answer varies on.
	 */
	public function test_default_mode_any_origin_may_read( string $path, array $headers, string $vary ): void {
		$cross = $this->request( $path, $headers + array( 'Origin' => self::ORIGIN ) );
		$this->assertContains( $cross['status'], array( 200, 400 ), $cross['body'] );
		$this->assert_readable_by_any_origin( $cross, $vary );

		$same = $this->request( $path, $headers );
		$this->assert_readable_by_any_origin( $same, $vary );
		if ( isset( $headers['Accept-Encoding'] ) ) {
			$this->assertSame( 'gzip', $cross['headers']['content-encoding'] ?? null, 'the streamed gzip answer' );
		}
	}

	/**
	 * The routes with an early 304.
	 *
	 * @return array<string, array{0: string, 1: string}> Path, and the field the answer varies on
	 *         besides Origin ('' for none).
	 */
	public static function early_routes(): array {
		return array(
			'feed'           => array( '/wp-json/cairn/v1/markers', 'accept-encoding' ),
			'shapes feed'    => array( '/wp-json/cairn/v1/shapes', 'accept-encoding' ),
			'maps of a post' => array( '/wp-json/cairn/v1/posts/{post}/maps', '' ),
			'tile'           => array( '/wp-json/cairn/v1/tiles/2/1/1', 'accept-encoding' ),
		);
	}

	/**
	 * A revalidation from another origin: answered before `init`, readable, and with the same
	 * headers as the REST server's own 304.
	 *
	 * @dataProvider early_routes
	 *
	 * @param string $path Path.
	 * @param string $vary Field the answer varies on.
	 */
	public function test_early_not_modified_from_another_origin( string $path, string $vary ): void {
		$path  = $this->path( $path );
		$etag  = $this->http( $path )['headers']['etag'];
		$early = $this->http(
			$path,
			array(
				'Origin'        => self::ORIGIN,
				'If-None-Match' => $etag,
				'X-Cairn-Probe' => 'cors-early-' . md5( $path ),
			)
		);
		$this->assertSame( 304, $early['status'] );
		$this->assertSame( 0, $this->probe( 'cors-early-' . md5( $path ) )['init'], 'answered before init' );
		$this->assert_readable_by_any_origin( $early, $vary );
		$this->assertSame( $etag, $early['headers']['etag'] );

		// The REST server's 304 (a parameter the early answer does not know).
		$late = $this->http(
			$path . '?cache_buster=1',
			array(
				'Origin'        => self::ORIGIN,
				'If-None-Match' => $etag,
				'X-Cairn-Probe' => 'cors-late-' . md5( $path ),
			)
		);
		$this->assertSame( 304, $late['status'] );
		$this->assertGreaterThan( 0, $this->probe( 'cors-late-' . md5( $path ) )['rest'], 'served by the REST server' );
		$this->assert_readable_by_any_origin( $late, $vary );
	}

	/**
	 * A preflight (a script sending If-None-Match) is answered for GET without credentials.
	 *
	 * @dataProvider public_routes
	 *
	 * @param string $path Path.
	 */
	public function test_preflight( string $path ): void {
		$answer = $this->http(
			$this->path( $path ),
			array(
				'Origin'                         => self::ORIGIN,
				'Access-Control-Request-Method'  => 'GET',
				'Access-Control-Request-Headers' => 'if-none-match',
			),
			'OPTIONS'
		);
		$this->assertSame( 200, $answer['status'] );
		$this->assertSame( '*', $answer['headers']['access-control-allow-origin'] ?? null );
		$this->assertSame( array( 'get', 'head', 'options' ), self::header_items( $answer, 'access-control-allow-methods' ) );
		$this->assertContains( 'if-none-match', self::header_items( $answer, 'access-control-allow-headers' ) );
		$this->assertNotContains( 'authorization', self::header_items( $answer, 'access-control-allow-headers' ) );
		$this->assertNotContains( 'x-wp-nonce', self::header_items( $answer, 'access-control-allow-headers' ) );
		$this->assertSame( (string) Cors::PREFLIGHT_MAX_AGE, $answer['headers']['access-control-max-age'] ?? null );
		$this->assertArrayNotHasKey( 'access-control-allow-credentials', $answer['headers'] );
		$this->assertNotContains( 'origin', self::header_items( $answer, 'vary' ) );
	}

	/**
	 * Restricted mode: a listed origin is echoed with Vary: Origin; an unlisted one, or none, gets
	 * no Access-Control-Allow-Origin; never credentials.
	 *
	 * @dataProvider public_routes
	 *
	 * @param string                $path    Path.
	 * @param array<string, string> $headers Extra request headers.
	 * @param string                $vary    Field the answer varies on besides Origin.
	 */
	public function test_restricted_mode( string $path, array $headers, string $vary ): void {
		$this->allow_origins( array( 'https://app.example.com', self::ORIGIN ) );
		$expected_vary = array_values( array_filter( array( $vary, 'origin' ) ) );

		$listed = $this->request( $path, $headers + array( 'Origin' => self::ORIGIN ) );
		$this->assertSame( self::ORIGIN, $listed['headers']['access-control-allow-origin'] ?? null );
		$this->assertContains( 'etag', self::header_items( $listed, 'access-control-expose-headers' ) );
		$this->assertArrayNotHasKey( 'access-control-allow-credentials', $listed['headers'] );
		$this->assertSame( $expected_vary, self::header_items( $listed, 'vary' ) );

		foreach ( array( 'https://evil.example', 'http://localhost:5174', 'null', '' ) as $origin ) {
			$other = $this->request( $path, $headers + ( '' === $origin ? array() : array( 'Origin' => $origin ) ) );
			$this->assertContains( $other['status'], array( 200, 400 ), "the answer itself is unchanged for '{$origin}'" );
			$this->assertArrayNotHasKey( 'access-control-allow-origin', $other['headers'], "no ACAO for '{$origin}'" );
			$this->assertArrayNotHasKey( 'access-control-allow-credentials', $other['headers'] );
			$this->assertSame( $expected_vary, self::header_items( $other, 'vary' ), "Vary for '{$origin}'" );
		}
	}

	/**
	 * Restricted mode, early 304: a listed origin is echoed; an unlisted origin and a client that
	 * sends none (same origin, a server) still get a correct 304, without the echo.
	 *
	 * @dataProvider early_routes
	 *
	 * @param string $path Path.
	 * @param string $vary Field the answer varies on besides Origin.
	 */
	public function test_restricted_mode_early_not_modified( string $path, string $vary ): void {
		$this->allow_origins( array( self::ORIGIN ) );
		$path = $this->path( $path );
		$etag = $this->http( $path )['headers']['etag'];

		foreach ( array( self::ORIGIN, 'https://evil.example', '' ) as $i => $origin ) {
			$answer = $this->http(
				$path,
				array(
					'If-None-Match' => $etag,
					'X-Cairn-Probe' => "cors-restricted-{$i}-" . md5( $path ),
				) + ( '' === $origin ? array() : array( 'Origin' => $origin ) )
			);
			$this->assertSame( 304, $answer['status'], "304 for '{$origin}'" );
			$this->assertSame( 0, $this->probe( "cors-restricted-{$i}-" . md5( $path ) )['init'], "answered before init for '{$origin}'" );
			$this->assertSame( $etag, $answer['headers']['etag'] );
			$this->assertSame( array_values( array_filter( array( $vary, 'origin' ) ) ), self::header_items( $answer, 'vary' ) );
			$this->assertArrayNotHasKey( 'access-control-allow-credentials', $answer['headers'] );
			if ( self::ORIGIN === $origin ) {
				$this->assertSame( self::ORIGIN, $answer['headers']['access-control-allow-origin'] ?? null );
				$this->assertContains( 'etag', self::header_items( $answer, 'access-control-expose-headers' ) );
			} else {
				$this->assertArrayNotHasKey( 'access-control-allow-origin', $answer['headers'], "no ACAO for '{$origin}'" );
			}
		}
	}

	/**
	 * Restricted mode, preflight: only a listed origin gets an answer it can use.
	 */
	public function test_restricted_mode_preflight(): void {
		$this->allow_origins( array( self::ORIGIN ) );
		$preflight = array(
			'Access-Control-Request-Method'  => 'GET',
			'Access-Control-Request-Headers' => 'if-none-match',
		);

		$listed = $this->http( '/wp-json/cairn/v1/markers', $preflight + array( 'Origin' => self::ORIGIN ), 'OPTIONS' );
		$this->assertSame( self::ORIGIN, $listed['headers']['access-control-allow-origin'] ?? null );
		$this->assertContains( 'if-none-match', self::header_items( $listed, 'access-control-allow-headers' ) );
		$this->assertContains( 'origin', self::header_items( $listed, 'vary' ) );
		$this->assertArrayNotHasKey( 'access-control-allow-credentials', $listed['headers'] );

		$unlisted = $this->http( '/wp-json/cairn/v1/markers', $preflight + array( 'Origin' => 'https://evil.example' ), 'OPTIONS' );
		$this->assertArrayNotHasKey( 'access-control-allow-origin', $unlisted['headers'] );
		$this->assertArrayNotHasKey( 'access-control-allow-credentials', $unlisted['headers'] );
		$this->assertArrayNotHasKey( 'access-control-allow-methods', $unlisted['headers'] );
	}

	/**
	 * What needs a login keeps core's CORS: core's routes, writes, and the import/export routes
	 * echo the origin with credentials (cookie authentication there needs a nonce).
	 *
	 * @return array<string, array{0: string, 1: string}>
	 */
	public static function core_requests(): array {
		return array(
			'core route'                 => array( 'GET', '/wp-json/wp/v2/posts' ),
			'POST to the feed'           => array( 'POST', '/wp-json/cairn/v1/markers' ),
			'POST to a marker'           => array( 'POST', '/wp-json/cairn/v1/markers/{marker}' ),
			'GET overridden to DELETE'   => array( 'GET', '/wp-json/cairn/v1/markers/{marker}?_method=DELETE' ),
			'export'                     => array( 'GET', '/wp-json/cairn/v1/markers/export?format=csv' ),
			'import'                     => array( 'POST', '/wp-json/cairn/v1/markers/import' ),
			'preflight of an import'     => array( 'OPTIONS', '/wp-json/cairn/v1/markers/import' ),
			'core route, allowed list'   => array( 'GET', '/wp-json/wp/v2/posts', 'restricted' ),
			'export, allowed list'       => array( 'GET', '/wp-json/cairn/v1/markers/export?format=csv', 'restricted' ),
			'POST to feed, allowed list' => array( 'POST', '/wp-json/cairn/v1/markers', 'restricted' ),
		);
	}

	/**
	 * Core's behaviour where a login matters.
	 *
	 * @dataProvider core_requests
	 *
	 * @param string $method HTTP method.
	 * @param string $path   Path.
	 * @param string $mode   `restricted` to set the allowed origins first.
	 */
	public function test_core_behaviour_where_a_login_matters( string $method, string $path, string $mode = 'default' ): void {
		if ( 'restricted' === $mode ) {
			$this->allow_origins( array( 'https://app.example.com' ) );
		}
		$path   = strtr( $path, array( '{marker}' => (string) $this->marker ) );
		$answer = $this->http( $path, array( 'Origin' => self::ORIGIN ), $method, 'POST' === $method ? '{}' : '' );

		$this->assertSame( self::ORIGIN, $answer['headers']['access-control-allow-origin'] ?? null, 'core echoes the origin' );
		$this->assertSame( 'true', $answer['headers']['access-control-allow-credentials'] ?? null, 'core allows credentials' );
		$this->assertContains( 'origin', self::header_items( $answer, 'vary' ) );
		$this->assertNotSame( '*', $answer['headers']['access-control-allow-origin'] );
		if ( 'POST' === $method || false !== strpos( $path, '_method' ) ) {
			$this->assertNotSame( 200, $answer['status'], 'nothing was written anonymously' );
		}
		$this->assertNotNull( get_post( $this->marker ), 'the marker is still there' );
	}
}
