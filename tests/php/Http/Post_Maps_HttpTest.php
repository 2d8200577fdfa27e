<?php
/**
 * The maps of a post over real HTTP.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Http;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Rest\Markers_Controller;
use Cairn\Maps\Tests\TestCase;

/**
 * `GET /cairn/v1/posts/<id>/maps` from the test site served by PHP's built-in web server: the
 * headers actually sent, 200 then 304 with `If-None-Match`, and the early 304 before `init`.
 *
 * @since 0.2.0
 */
final class Post_Maps_HttpTest extends TestCase {

	use Web_Server;

	/**
	 * Posts to delete after the test.
	 *
	 * @var int[]
	 */
	private array $committed = array();

	/**
	 * Starts the REST API once in this process (it remembers which post types anyone may read),
	 * then commits a published post with three maps and a draft, so the web server sees them.
	 */
	protected function set_up(): void {
		parent::set_up();
		// Before the commit: starting the REST server may write an option the web server would wait for.
		rest_get_server();
		$this->commit_post( 'publish' );
		$this->commit_post( 'draft' );
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
	 * Creates and commits a post with three maps.
	 *
	 * @param string $status Post status.
	 */
	private function commit_post( string $status ): void {
		global $wpdb;
		$this->committed[] = (int) wp_insert_post(
			array(
				'post_title'   => 'Three maps over HTTP',
				'post_status'  => $status,
				'post_content' => '<!-- wp:cairn/map {"hash":true} /--><!-- wp:cairn/map /--><!-- wp:cairn/map {"hash":true,"anchor":"harbour"} /-->',
			)
		);
		$wpdb->query( 'COMMIT' );
	}

	/**
	 * 200 with a strong ETag and public caching, no cookie; then 304 before `init` for the same
	 * ETag (both paths), with the headers of the REST route's own 304.
	 */
	public function test_200_then_304_early(): void {
		$id    = $this->committed[0];
		$route = "/cairn/v1/posts/{$id}/maps";
		$first = $this->http( "/?rest_route={$route}" );

		$this->assertSame( 200, $first['status'], $first['body'] );
		$this->assertStringStartsWith( 'application/json', $first['headers']['content-type'] );
		$this->assertMatchesRegularExpression( '/^"[0-9a-f]{32}"$/', $first['headers']['etag'] );
		$this->assertSame( Markers_Controller::PUBLIC_CACHE_CONTROL, $first['headers']['cache-control'] );
		$this->assertSame( 0, $first['cookies'], 'no cookie is set' );
		$data = json_decode( $first['body'], true );
		$this->assertSame( $id, $data['post'] );
		$this->assertSame( array( 'map-1', 'map-2', 'harbour' ), array_column( $data['maps'], 'id' ) );
		$etag = $first['headers']['etag'];

		foreach ( array(
			'query'  => "/?rest_route={$route}",
			'pretty' => "/wp-json{$route}",
		) as $kind => $path ) {
			$early = $this->http(
				$path,
				array(
					'If-None-Match' => $etag,
					'Cookie'        => 'wordpress_test_cookie=WP%20Cookie%20check',
					'X-Cairn-Probe' => "early-{$kind}",
				)
			);
			$this->assertSame( 304, $early['status'], $kind );
			$this->assertSame( '', $early['body'] );
			$this->assertSame( 0, $early['cookies'] );
			$this->assertSame( 0, $this->probe( "early-{$kind}" )['init'], "{$kind}: answered before init" );
		}

		// A parameter the early answer does not take leaves the request to the REST server: same 304.
		$normal = $this->http(
			"/?rest_route={$route}&_fields=maps",
			array(
				'If-None-Match' => $etag,
				'X-Cairn-Probe' => 'normal',
			)
		);
		$this->assertSame( 304, $normal['status'] );
		$this->assertGreaterThan( 0, $this->probe( 'normal' )['rest'], 'served by the REST server' );
		foreach ( array( 'etag', 'cache-control', 'access-control-allow-origin', 'access-control-expose-headers' ) as $name ) {
			$this->assertSame( $normal['headers'][ $name ] ?? null, $early['headers'][ $name ] ?? null, $name );
		}
		$this->assertEqualsCanonicalizing( self::header_items( $normal, 'vary' ), self::header_items( $early, 'vary' ) );

		// From another origin: early too, with the CORS headers the REST route sends.
		$cross = $this->http(
			"/wp-json{$route}",
			array(
				'If-None-Match' => $etag,
				'Origin'        => 'http://localhost:5173',
				'X-Cairn-Probe' => 'cross',
			)
		);
		$this->assertSame( 304, $cross['status'] );
		$this->assertSame( 0, $this->probe( 'cross' )['init'] );
		$this->assertSame( '*', $cross['headers']['access-control-allow-origin'] ?? null );
	}

	/**
	 * An edit gives a new ETag at once; a stale one gets the full answer.
	 */
	public function test_an_edit_changes_the_etag(): void {
		global $wpdb;
		$id   = $this->committed[0];
		$path = "/?rest_route=/cairn/v1/posts/{$id}/maps";
		$etag = $this->http( $path )['headers']['etag'];

		wp_update_post(
			array(
				'ID'           => $id,
				'post_content' => '<!-- wp:cairn/map {"zoom":7} /-->',
			)
		);
		$wpdb->query( 'COMMIT' );
		$changed = $this->http(
			$path,
			array(
				'If-None-Match' => $etag,
				'X-Cairn-Probe' => 'changed',
			)
		);
		$this->assertSame( 200, $changed['status'] );
		$this->assertNotSame( $etag, $changed['headers']['etag'] );
		$this->assertCount( 1, json_decode( $changed['body'], true )['maps'] );
	}

	/**
	 * A draft is not readable anonymously, and gets no early answer whatever it sends.
	 */
	public function test_a_draft_is_not_answered_early(): void {
		$id     = $this->committed[1];
		$answer = $this->http(
			"/wp-json/cairn/v1/posts/{$id}/maps",
			array(
				'If-None-Match' => '*',
				'X-Cairn-Probe' => 'draft',
			)
		);
		$this->assertSame( 401, $answer['status'] );
		$this->assertSame( 'rest_forbidden', json_decode( $answer['body'], true )['code'] );
		$this->assertGreaterThan( 0, $this->probe( 'draft' )['init'] );
	}
}
