<?php
/**
 * The maps of a post over real HTTP.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Http;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Rest\Markers_Controller;
use Cairn\Maps\Tests\Rest\Post_Maps_ControllerTest;
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
		Post_Maps_ControllerTest::store_site_language( '' );
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
	/**
	 * After the Site Language changes from en_GB to en_US, the ETag issued before gets a 200 with
	 * `imperial` units, from the early path (no parameter) and from the REST server.
	 */
	public function test_a_site_language_change_is_not_answered_304(): void {
		global $wpdb;
		$id   = $this->committed[0];
		$path = "/wp-json/cairn/v1/posts/{$id}/maps";
		Post_Maps_ControllerTest::store_site_language( 'en_GB' );
		$wpdb->query( 'COMMIT' );
		$british = $this->http( $path );
		$this->assertSame( 200, $british['status'] );
		$this->assertSame( 'metric', json_decode( $british['body'], true )['maps'][0]['config']['units'] );
		$etag = $british['headers']['etag'];
		$this->assertSame( 304, $this->http( $path, array( 'If-None-Match' => $etag ) )['status'], 'the same language: 304' );

		Post_Maps_ControllerTest::store_site_language( 'en_US' );
		$wpdb->query( 'COMMIT' );
		foreach ( array(
			'early path'  => $path,
			'REST server' => $path . '?_fields=maps',
		) as $case => $url ) {
			$answer = $this->http(
				$url,
				array(
					'If-None-Match' => $etag,
					'X-Cairn-Probe' => 'language-' . strtok( $case, ' ' ),
				)
			);
			$this->assertSame( 200, $answer['status'], $case );
			$this->assertSame( 'imperial', json_decode( $answer['body'], true )['maps'][0]['config']['units'], $case );
			$this->assertNotSame( $etag, $answer['headers']['etag'], $case );
		}
	}

	/**
	 * A plugin that closes the REST API to visitors (it hooks `rest_authentication_errors`) is not
	 * bypassed by the early 304: a revalidation with a current ETag gets its 401, for the maps of
	 * a post and for the marker feed, from the REST server.
	 */
	public function test_a_members_only_rest_api_is_not_bypassed_by_the_early_304(): void {
		$id = $this->committed[0];
		foreach ( array(
			'maps' => "/wp-json/cairn/v1/posts/{$id}/maps",
			'feed' => '/wp-json/cairn/v1/markers',
		) as $case => $path ) {
			$etag = $this->http( $path )['headers']['etag'];
			$this->assertSame( 304, $this->http( $path, array( 'If-None-Match' => $etag ) )['status'], "{$case}: 304 without the plugin" );

			$answer = $this->http(
				$path,
				array(
					'If-None-Match'        => $etag,
					'X-Cairn-Members-Only' => '1',
					'X-Cairn-Probe'        => "members-{$case}",
				)
			);
			$this->assertSame( 401, $answer['status'], $case );
			$this->assertSame( 'cairn_tests_members_only', json_decode( $answer['body'], true )['code'], $case );
			$this->assertGreaterThan( 0, $this->probe( "members-{$case}" )['rest'], "{$case}: decided by the REST server" );
		}
	}

	/**
	 * A post made private after its ETag was issued: a visitor revalidating with that ETag gets
	 * the REST route's 401, never a 304 (early or not).
	 */
	public function test_a_post_made_private_gets_no_304(): void {
		global $wpdb;
		$id   = $this->committed[0];
		$path = "/wp-json/cairn/v1/posts/{$id}/maps";
		$etag = $this->http( $path )['headers']['etag'];

		wp_update_post(
			array(
				'ID'          => $id,
				'post_status' => 'private',
			)
		);
		$wpdb->query( 'COMMIT' );
		foreach ( array(
			'early path'  => $path,
			'REST server' => $path . '?_fields=maps',
		) as $case => $url ) {
			$answer = $this->http( $url, array( 'If-None-Match' => $etag ) );
			$this->assertSame( 401, $answer['status'], $case );
			$this->assertSame( 'rest_forbidden', json_decode( $answer['body'], true )['code'], $case );
		}
	}
	/**
	 * `If-None-Match: *` is answered as RFC 9110 §13.1.2 says for a GET: 304 exactly when the
	 * resource exists and the request may read it (early or by the REST server, the same
	 * answer), else what the request gets without the header — so `*` reveals nothing a plain
	 * GET does not: a draft's 401, an unknown post's 404, a members-only API's 401, a bad feed
	 * parameter's 400.
	 */
	public function test_if_none_match_star_is_answered_as_rfc_9110_says(): void {
		$published = $this->committed[0];
		$draft     = $this->committed[1];
		$star      = array( 'If-None-Match' => '*' );
		foreach ( array(
			"/wp-json/cairn/v1/posts/{$published}/maps" => 304,
			"/wp-json/cairn/v1/posts/{$published}/maps?_fields=maps" => 304,
			"/wp-json/cairn/v1/posts/{$draft}/maps"     => 401,
			'/wp-json/cairn/v1/posts/999999/maps'       => 404,
			"/wp-json/cairn/v1/posts/{$published}/maps?password[]=x" => 400,
			'/wp-json/cairn/v1/markers'                 => 304,
			'/wp-json/cairn/v1/markers?bbox=0,0,200,10' => 400,
		) as $path => $status ) {
			$answer = $this->http( $path, $star );
			$this->assertSame( $status, $answer['status'], $path );
			$this->assertSame( $status, 304 === $status ? 304 : $this->http( $path )['status'], "{$path}: as without the header" );
		}
		$members = $this->http( "/wp-json/cairn/v1/posts/{$published}/maps", $star + array( 'X-Cairn-Members-Only' => '1' ) );
		$this->assertSame( 401, $members['status'] );
	}
}
