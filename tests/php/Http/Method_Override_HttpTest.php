<?php
/**
 * Method overrides on the public routes over real HTTP (issue 12, point 1).
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Http;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Rest\Markers_Controller;
use Cairn\Maps\Tests\TestCase;

/**
 * Core's REST server lets `X-HTTP-Method-Override` and `?_method=` turn a GET into another method.
 * A shared cache (a CDN) keys on the URL and the real method, not on that header: whatever such a
 * request gets must either be the very answer a plain GET gets, or be kept by no shared cache. A
 * GET must never produce a cacheable empty body.
 *
 * @since 0.2.0
 */
final class Method_Override_HttpTest extends TestCase {
	use Web_Server;

	/**
	 * Posts to delete after the test.
	 *
	 * @var int[]
	 */
	private array $committed = array();

	/**
	 * Commits two markers and a post with a map, so the web server sees them.
	 */
	protected function set_up(): void {
		global $wpdb;
		parent::set_up();
		rest_get_server(); // Before the commit: starting the REST server may write an option.
		$this->committed[] = $this->create_marker( array( 'post_title' => 'Override 1' ) );
		$this->committed[] = $this->create_marker( array( 'post_title' => 'Override 2' ) );
		$this->committed[] = (int) wp_insert_post(
			array(
				'post_title'   => 'A map',
				'post_status'  => 'publish',
				'post_content' => '<!-- wp:cairn/map /-->',
			)
		);
		$wpdb->query( 'COMMIT' );
	}

	/**
	 * Deletes what the test committed.
	 */
	protected function tear_down(): void {
		global $wpdb;
		foreach ( $this->committed as $id ) {
			wp_delete_post( $id, true );
		}
		$wpdb->query( 'COMMIT' );
		parent::tear_down();
	}

	/**
	 * Headers a shared cache and a cross-origin reader act on.
	 */
	private const COMPARED = array( 'etag', 'cache-control', 'content-type', 'access-control-allow-origin', 'access-control-expose-headers' );

	/**
	 * Asserts that an answer is the plain GET's answer: same status, body and caching headers.
	 *
	 * @param array<string, mixed> $plain  The plain GET's answer.
	 * @param array<string, mixed> $answer The answer to compare.
	 * @param string               $what   What is compared.
	 */
	private function assertSameAnswer( array $plain, array $answer, string $what ): void {
		$this->assertSame( $plain['status'], $answer['status'], $what );
		$this->assertSame( $plain['body'], $answer['body'], "{$what}: the whole body" );
		foreach ( self::COMPARED as $name ) {
			$this->assertSame( $plain['headers'][ $name ] ?? null, $answer['headers'][ $name ] ?? null, "{$what}: {$name}" );
		}
		$this->assertEqualsCanonicalizing( self::header_items( $plain, 'vary' ), self::header_items( $answer, 'vary' ), "{$what}: vary" );
	}

	/**
	 * Asserts that no shared cache may keep an answer.
	 *
	 * @param array<string, mixed> $answer The answer.
	 * @param string               $what   What is checked.
	 */
	private function assertNotSharedCacheable( array $answer, string $what ): void {
		$directives = self::header_items( $answer, 'cache-control' );
		$this->assertNotContains( 'public', $directives, $what );
		$this->assertTrue( in_array( 'no-store', $directives, true ) || in_array( 'private', $directives, true ), "{$what}: private or no-store, got \"" . ( $answer['headers']['cache-control'] ?? '' ) . '"' );
	}

	/**
	 * The feed asked for with a HEAD override on a real GET is the whole feed, with the plain GET's
	 * headers (CORS ones included), whichever way the override is sent; a real HEAD stays bodiless.
	 */
	public function test_head_override_on_a_get_answers_the_whole_feed(): void {
		foreach ( array(
			'query'  => '/?rest_route=/cairn/v1/markers',
			'pretty' => '/wp-json/cairn/v1/markers',
		) as $kind => $path ) {
			$glue  = false === strpos( $path, '?' ) ? '?' : '&';
			$plain = $this->http( $path, array( 'Origin' => 'http://localhost:5173' ) );
			$this->assertSame( 200, $plain['status'] );
			$this->assertCount( 2, json_decode( $plain['body'], true )['features'] );
			$this->assertSame( '*', $plain['headers']['access-control-allow-origin'] ?? null, 'CORS as before' );
			$this->assertSame( Markers_Controller::PUBLIC_CACHE_CONTROL, $plain['headers']['cache-control'] );

			foreach ( array(
				'header HEAD'  => array( $path, array( 'X-HTTP-Method-Override' => 'HEAD' ) ),
				'header head'  => array( $path, array( 'X-HTTP-Method-Override' => 'head' ) ),
				'_method=HEAD' => array( "{$path}{$glue}_method=HEAD", array() ),
				'header GET'   => array( $path, array( 'X-HTTP-Method-Override' => 'GET' ) ),
			) as $how => list( $url, $headers ) ) {
				$answer = $this->http( $url, $headers + array( 'Origin' => 'http://localhost:5173' ) );
				if ( '_method=HEAD' === $how ) {
					// Another URL: its own cache entry, so only the body and the caching matter.
					$this->assertSame( 200, $answer['status'], "{$kind}, {$how}" );
					$this->assertSame( $plain['body'], $answer['body'], "{$kind}, {$how}: the whole body" );
					$this->assertSame( $plain['headers']['cache-control'], $answer['headers']['cache-control'] ?? null );
					continue;
				}
				$this->assertSameAnswer( $plain, $answer, "{$kind}, {$how}" );
			}

			// Gzip too: the same bytes as the plain gzip answer.
			$gzip     = $this->http( $path, array( 'Accept-Encoding' => 'gzip' ) );
			$override = $this->http(
				$path,
				array(
					'Accept-Encoding'        => 'gzip',
					'X-HTTP-Method-Override' => 'HEAD',
				)
			);
			$this->assertSame( 'gzip', $override['headers']['content-encoding'] ?? null, "{$kind}: gzip" );
			$this->assertSame( $plain['body'], gzdecode( $override['body'] ) );
			$this->assertSame( $gzip['headers']['etag'], $override['headers']['etag'] );

			// A real HEAD has no body, even when asked to be a GET.
			foreach ( array( array( "{$path}{$glue}_method=GET", array() ), array( $path, array( 'X-HTTP-Method-Override' => 'GET' ) ) ) as list( $url, $headers ) ) {
				$head = $this->http( $url, $headers, 'HEAD' );
				$this->assertSame( 200, $head['status'] );
				$this->assertSame( '', $head['body'], "{$kind}: a real HEAD" );
				$this->assertSame( $plain['headers']['etag'], $head['headers']['etag'] );
			}
		}
	}

	/**
	 * A post's maps asked for with a HEAD override on a real GET are the whole answer, with the plain
	 * GET's headers; a real HEAD stays bodiless.
	 */
	public function test_head_override_on_a_get_answers_a_posts_whole_maps(): void {
		$path  = '/?rest_route=/cairn/v1/posts/' . $this->committed[2] . '/maps';
		$plain = $this->http( $path );
		$this->assertSame( 200, $plain['status'] );
		$this->assertCount( 1, json_decode( $plain['body'], true )['maps'] );
		foreach ( array(
			'header HEAD'  => array( $path, array( 'X-HTTP-Method-Override' => 'HEAD' ) ),
			'_method=HEAD' => array( "{$path}&_method=HEAD", array() ),
		) as $how => list( $url, $headers ) ) {
			$answer = $this->http( $url, $headers );
			$this->assertSame( 200, $answer['status'], $how );
			$this->assertSame( $plain['body'], $answer['body'], "{$how}: the whole body" );
			$this->assertSame( $plain['headers']['cache-control'] ?? null, $answer['headers']['cache-control'] ?? null, "{$how}: cache-control" );
		}
		$head = $this->http( $path, array( 'X-HTTP-Method-Override' => 'GET' ), 'HEAD' );
		$this->assertSame( '', $head['body'], 'a real HEAD' );
	}

	/**
	 * A conditional GET with an override gets the REST server's 304 (the early one leaves it
	 * alone): the same headers as the early 304 of a plain conditional GET.
	 */
	public function test_conditional_override_gets_the_same_304(): void {
		$etag  = $this->http( '/?rest_route=/cairn/v1/markers' )['headers']['etag'];
		$early = $this->http(
			'/?rest_route=/cairn/v1/markers',
			array(
				'If-None-Match' => $etag,
				'X-Cairn-Probe' => 'override-early',
			)
		);
		$this->assertSame( 304, $early['status'] );
		$this->assertSame( 0, $this->probe( 'override-early' )['init'] );

		foreach ( array( 'HEAD', 'GET' ) as $method ) {
			$rest = $this->http(
				'/?rest_route=/cairn/v1/markers',
				array(
					'If-None-Match'          => $etag,
					'X-HTTP-Method-Override' => $method,
					'X-Cairn-Probe'          => "override-rest-{$method}",
				)
			);
			$this->assertSame( 304, $rest['status'], $method );
			$this->assertSame( '', $rest['body'] );
			$this->assertGreaterThan( 0, $this->probe( "override-rest-{$method}" )['rest'], 'served by the REST server' );
			foreach ( array( 'etag', 'cache-control', 'access-control-allow-origin', 'access-control-expose-headers' ) as $name ) {
				$this->assertSame( $early['headers'][ $name ] ?? null, $rest['headers'][ $name ] ?? null, "{$method}: {$name}" );
			}
			$this->assertEqualsCanonicalizing( self::header_items( $early, 'vary' ), self::header_items( $rest, 'vary' ) );
		}
	}

	/**
	 * Any other override of a real GET on a public route (OPTIONS, POST, …; HEAD on the routes that
	 * do answer it without a body): whatever comes back, no shared cache may keep it under the
	 * GET's URL.
	 */
	public function test_other_overrides_are_never_shared_cacheable(): void {
		$routes = array(
			'feed'   => '/cairn/v1/markers',
			'marker' => '/cairn/v1/markers/' . $this->committed[0],
			'maps'   => '/cairn/v1/posts/' . $this->committed[2] . '/maps',
		);
		foreach ( $routes as $name => $route ) {
			$plain = $this->http( "/?rest_route={$route}" );
			$this->assertSame( 200, $plain['status'], $name );
			$this->assertNotSame( '', $plain['body'] );
			foreach ( array( 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE' ) as $method ) {
				foreach ( array(
					'header'  => array( "/?rest_route={$route}", array( 'X-HTTP-Method-Override' => $method ) ),
					'_method' => array( "/?rest_route={$route}&_method={$method}", array() ),
				) as $how => list( $url, $headers ) ) {
					$answer = $this->http( $url, $headers );
					$what   = "{$name}, {$how} {$method}: {$answer['status']}";
					if ( $answer['status'] === $plain['status'] && $answer['body'] === $plain['body'] ) {
						continue; // The plain GET's answer: as cacheable as that one.
					}
					$this->assertNotSharedCacheable( $answer, $what );
				}
			}
		}
	}
}
