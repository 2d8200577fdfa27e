<?php
/**
 * The marker feed over real HTTP.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Http;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Rest\Markers_Controller;
use Cairn\Maps\Tests\TestCase;

/**
 * Requests the feed from the test site served by PHP's built-in web server, to check what only a
 * real response shows: sent headers, cookies, gzip, empty 304 and HEAD bodies.
 *
 * The server runs in its own process, so the markers these tests create are committed (and
 * deleted afterwards) instead of living in the per-test transaction. It runs 4 workers, so that
 * concurrent requests really overlap, and a probe (tests/php/includes/http-probe.php) reports
 * for each request whether WordPress reached `init` and how many queries read markers.
 *
 * @since 0.1.0
 */
final class Markers_Feed_HttpTest extends TestCase {
	use Web_Server;

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
	 * Four workers, so that concurrent requests really overlap.
	 *
	 * @return int
	 */
	protected static function web_server_workers(): int {
		return 4;
	}

	/**
	 * Deletes what the test committed.
	 */
	protected function tear_down(): void {
		global $wpdb;
		foreach ( $this->committed as $id ) {
			wp_delete_post( $id, true );
		}
		foreach ( $this->committed_users as $id ) {
			require_once ABSPATH . 'wp-admin/includes/user.php';
			wp_delete_user( $id );
		}
		$wpdb->query( 'COMMIT' );
		parent::tear_down();
	}

	/**
	 * Creates published markers and commits them, so the web server sees them.
	 *
	 * @param int $count How many.
	 */
	private function commit_markers( int $count ): void {
		global $wpdb;
		for ( $i = 1; $i <= $count; $i++ ) {
			$this->committed[] = $this->create_marker(
				array(
					'post_title' => "Over HTTP {$i}",
					'lat'        => $i,
					'lng'        => -$i,
				)
			);
		}
		$wpdb->query( 'COMMIT' );
	}

	/**
	 * An anonymous request: JSON, strong ETag, public caching, no cookies.
	 */
	public function test_anonymous_answer_headers_and_body(): void {
		$this->commit_markers( 3 );
		$answer = $this->http( '/?rest_route=/cairn/v1/markers' );

		$this->assertSame( 200, $answer['status'], $answer['body'] );
		$this->assertStringStartsWith( 'application/json', $answer['headers']['content-type'] );
		$this->assertMatchesRegularExpression( '/^"[0-9a-f]{32}"$/', $answer['headers']['etag'] );
		$this->assertMatchesRegularExpression( '/^public, max-age=\d+, stale-while-revalidate=\d+$/', $answer['headers']['cache-control'] );
		$this->assertContains( 'Accept-Encoding', array_map( 'trim', explode( ',', $answer['headers']['vary'] ) ) );
		$this->assertSame( 0, $answer['cookies'], 'no cookie is set' );
		$this->assertArrayNotHasKey( 'x-wp-nonce', $answer['headers'] );
		$this->assertArrayNotHasKey( 'content-encoding', $answer['headers'] );

		$data = json_decode( $answer['body'], true );
		$this->assertSame( 'FeatureCollection', $data['type'] );
		$this->assertSame( array( 'Over HTTP 1', 'Over HTTP 2', 'Over HTTP 3' ), array_column( array_column( $data['features'], 'properties' ), 'title' ) );
	}

	/**
	 * Gzip when accepted, with its own strong ETag that revalidates too.
	 */
	public function test_gzip_when_accepted(): void {
		$this->commit_markers( 2 );
		$plain = $this->http( '/wp-json/cairn/v1/markers' );
		$gzip  = $this->http( '/wp-json/cairn/v1/markers', array( 'Accept-Encoding' => 'gzip, deflate, br' ) );

		$this->assertSame( 200, $gzip['status'] );
		$this->assertSame( 'gzip', $gzip['headers']['content-encoding'] );
		$this->assertSame( $plain['body'], gzdecode( $gzip['body'] ) );
		$this->assertSame( substr( $plain['headers']['etag'], 0, -1 ) . '-gzip"', $gzip['headers']['etag'] );

		$revalidated = $this->http( '/wp-json/cairn/v1/markers', array( 'If-None-Match' => $gzip['headers']['etag'] ) );
		$this->assertSame( 304, $revalidated['status'] );
	}

	/**
	 * 304 and HEAD answers carry headers and no body; a change gives a new ETag at once.
	 */
	public function test_not_modified_head_and_change(): void {
		$this->commit_markers( 1 );
		$first = $this->http( '/?rest_route=/cairn/v1/markers' );

		$not_modified = $this->http( '/?rest_route=/cairn/v1/markers', array( 'If-None-Match' => $first['headers']['etag'] ) );
		$this->assertSame( 304, $not_modified['status'] );
		$this->assertSame( '', $not_modified['body'] );
		$this->assertSame( $first['headers']['etag'], $not_modified['headers']['etag'] );
		$this->assertSame( 0, $not_modified['cookies'] );

		$head = $this->http( '/?rest_route=/cairn/v1/markers', array(), 'HEAD' );
		$this->assertSame( 200, $head['status'] );
		$this->assertSame( '', $head['body'] );
		$this->assertSame( $first['headers']['etag'], $head['headers']['etag'] );

		$this->commit_markers( 1 );
		$changed = $this->http( '/?rest_route=/cairn/v1/markers', array( 'If-None-Match' => $first['headers']['etag'] ) );
		$this->assertSame( 200, $changed['status'] );
		$this->assertNotSame( $first['headers']['etag'], $changed['headers']['etag'] );
		$this->assertCount( 2, json_decode( $changed['body'], true )['features'] );
	}

	/**
	 * A bad parameter is a JSON 400 over HTTP too.
	 */
	public function test_bad_parameter(): void {
		$answer = $this->http( '/?rest_route=/cairn/v1/markers&bbox=0,0,200,10' );
		$this->assertSame( 400, $answer['status'] );
		$this->assertSame( 'rest_invalid_param', json_decode( $answer['body'], true )['code'] );
	}

	/**
	 * The Vary header's field names.
	 *
	 * @param array{headers: array<string, string>} $answer An answer.
	 * @return string[]
	 */
	private static function vary( array $answer ): array {
		return array_values( array_unique( array_map( 'strtolower', array_map( 'trim', explode( ',', $answer['headers']['vary'] ?? '' ) ) ) ) );
	}

	/**
	 * A logged-in editor's cookie header and REST nonce, valid for the web server.
	 *
	 * @return array{0: string, 1: string}
	 */
	private function login(): array {
		global $wpdb;
		$user                    = $this->create_user( 'editor' );
		$this->committed_users[] = $user;
		$expiration              = time() + HOUR_IN_SECONDS;
		$token                   = \WP_Session_Tokens::get_instance( $user )->create( $expiration );
		$cookie                  = wp_generate_auth_cookie( $user, $expiration, 'logged_in', $token );
		$wpdb->query( 'COMMIT' );
		$_COOKIE[ LOGGED_IN_COOKIE ] = $cookie;
		wp_set_current_user( $user );
		$nonce = wp_create_nonce( 'wp_rest' );
		unset( $_COOKIE[ LOGGED_IN_COOKIE ] );
		wp_set_current_user( 0 );
		return array( LOGGED_IN_COOKIE . '=' . rawurlencode( $cookie ), $nonce );
	}

	/**
	 * Sends $count feed requests at once (rebuilds slowed down by $slow_ms per marker read) and
	 * returns the answers with their probe reports.
	 *
	 * @param int    $count   Requests.
	 * @param string $label   Probe id prefix.
	 * @param int    $slow_ms Delay of each marker read.
	 * @return array<int, array{status: int, headers: array<string, string>, cookies: int, body: string, probe: array<string, mixed>}>
	 */
	private function concurrently( int $count, string $label, int $slow_ms ): array {
		$sockets = array();
		for ( $i = 0; $i < $count; $i++ ) {
			$sockets[ $i ] = $this->send(
				'/?rest_route=/cairn/v1/markers',
				array(
					'X-Cairn-Probe'      => "{$label}-{$i}",
					'X-Cairn-Slow-Build' => (string) $slow_ms,
				)
			);
		}
		$answers = array();
		foreach ( $sockets as $i => $socket ) {
			$answers[ $i ]          = $this->receive( $socket );
			$answers[ $i ]['probe'] = $this->probe( "{$label}-{$i}" );
		}
		return $answers;
	}

	/**
	 * An anonymous revalidation that matches is answered before `init`: 304 with the headers of
	 * the REST route's own 304, no marker read, no cookie; the pretty path and the gzip variant too.
	 */
	public function test_matching_revalidation_is_answered_early(): void {
		$this->commit_markers( 2 );
		$etag = $this->http( '/?rest_route=/cairn/v1/markers' )['headers']['etag'];

		$early = $this->http(
			'/?rest_route=/cairn/v1/markers',
			array(
				'If-None-Match' => $etag,
				'Cookie'        => 'wordpress_test_cookie=WP%20Cookie%20check; theme=dark',
				'X-Cairn-Probe' => 'early',
			)
		);
		$this->assertSame( 304, $early['status'] );
		$this->assertSame( '', $early['body'] );
		$this->assertSame( 0, $early['cookies'], 'no cookie is set' );
		$probe = $this->probe( 'early' );
		$this->assertSame( 0, $probe['init'], 'answered before init' );
		$this->assertSame( 0, $probe['reads'], 'no marker was read' );

		// The REST route's own 304: a parameter the early answer does not know leaves it to the server.
		$normal = $this->http(
			'/?rest_route=/cairn/v1/markers&cache_buster=1',
			array(
				'If-None-Match' => $etag,
				'X-Cairn-Probe' => 'normal',
			)
		);
		$this->assertSame( 304, $normal['status'] );
		$this->assertGreaterThan( 0, $this->probe( 'normal' )['rest'], 'served by the REST server' );
		foreach ( array( 'etag', 'cache-control' ) as $name ) {
			$this->assertSame( $normal['headers'][ $name ], $early['headers'][ $name ], $name );
		}
		$this->assertEqualsCanonicalizing( self::vary( $normal ), self::vary( $early ) );

		// The pretty path, revalidating the gzip variant: its own ETag comes back.
		$gzip_etag = substr( $etag, 0, -1 ) . '-gzip"';
		$pretty    = $this->http(
			'/wp-json/cairn/v1/markers',
			array(
				'If-None-Match'   => $gzip_etag,
				'Accept-Encoding' => 'gzip',
				'X-Cairn-Probe'   => 'pretty',
			)
		);
		$this->assertSame( 304, $pretty['status'] );
		$this->assertSame( $gzip_etag, $pretty['headers']['etag'] );
		$this->assertSame( 0, $this->probe( 'pretty' )['init'] );

		// An ETag that no longer matches, or a filter, is answered in full.
		$stale = $this->http( '/?rest_route=/cairn/v1/markers', array( 'If-None-Match' => '"0123456789abcdef0123456789abcdef"' ) );
		$this->assertSame( 200, $stale['status'] );
		$this->assertCount( 2, json_decode( $stale['body'], true )['features'] );
		$filtered = $this->http( '/?rest_route=/cairn/v1/markers&include=' . $this->committed[0], array( 'If-None-Match' => $etag ) );
		$this->assertSame( 200, $filtered['status'], 'another selection has another ETag' );
	}

	/**
	 * Requests with credentials are left to the REST server: logged in (cookie and nonce) the 304
	 * is private; with the cookie alone the REST API treats the visitor as anonymous.
	 */
	public function test_revalidation_with_credentials_goes_through_the_rest_server(): void {
		$this->commit_markers( 1 );
		$etag                   = $this->http( '/?rest_route=/cairn/v1/markers' )['headers']['etag'];
		list( $cookie, $nonce ) = $this->login();

		$logged_in = $this->http(
			'/?rest_route=/cairn/v1/markers',
			array(
				'If-None-Match' => $etag,
				'Cookie'        => $cookie,
				'X-WP-Nonce'    => $nonce,
				'X-Cairn-Probe' => 'logged-in',
			)
		);
		$this->assertSame( 304, $logged_in['status'] );
		$this->assertStringContainsString( 'private', $logged_in['headers']['cache-control'] );
		$this->assertStringContainsString( 'no-store', $logged_in['headers']['cache-control'] );
		$this->assertGreaterThan( 0, $this->probe( 'logged-in' )['init'], 'not answered early' );

		$cookie_only = $this->http(
			'/?rest_route=/cairn/v1/markers',
			array(
				'If-None-Match' => $etag,
				'Cookie'        => $cookie,
				'X-Cairn-Probe' => 'cookie-only',
			)
		);
		$this->assertSame( 304, $cookie_only['status'] );
		$this->assertStringStartsWith( 'public', $cookie_only['headers']['cache-control'] );
		$this->assertGreaterThan( 0, $this->probe( 'cookie-only' )['init'], 'not answered early' );

		$authorization = $this->http(
			'/?rest_route=/cairn/v1/markers',
			array(
				'If-None-Match' => $etag,
				'Authorization' => 'Basic ' . base64_encode( 'nobody:wrong' ), // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_encode -- HTTP Basic credentials.
				'X-Cairn-Probe' => 'authorization',
			)
		);
		$this->assertGreaterThan( 0, $this->probe( 'authorization' )['init'], 'not answered early' );
		$this->assertNotSame( 200, $authorization['status'] );
	}

	/**
	 * After a change, four visitors at once: one rebuilds, the others get the previous build with
	 * its own ETag (to be revalidated before reuse); without a previous build they wait for the one
	 * rebuild.
	 */
	public function test_concurrent_requests_rebuild_once(): void {
		global $wpdb;
		$this->commit_markers( 3 );
		$old = $this->http( '/?rest_route=/cairn/v1/markers' );
		$this->assertSame( 200, $old['status'] );

		do_action( 'cairn_maps_markers_changed' );
		$wpdb->query( 'COMMIT' );
		$answers = $this->concurrently( 4, 'stale', 800 );
		$new     = $this->http( '/?rest_route=/cairn/v1/markers', array( 'X-Cairn-Probe' => 'stale-after' ) );
		$this->assertSame( 0, $this->probe( 'stale-after' )['reads'], 'the rebuild was stored' );
		$this->assertNotSame( $old['headers']['etag'], $new['headers']['etag'] );
		$builders = array_filter(
			$answers,
			static function ( $answer ) {
				return $answer['probe']['reads'] > 0;
			}
		);
		$this->assertCount( 1, $builders, 'one request rebuilt' );
		$this->assertSame( $new['headers']['etag'], current( $builders )['headers']['etag'] );
		$stale = 0;
		foreach ( $answers as $answer ) {
			$this->assertSame( 200, $answer['status'] );
			$this->assertCount( 3, json_decode( $answer['body'], true )['features'] );
			$this->assertContains( $answer['headers']['etag'], array( $old['headers']['etag'], $new['headers']['etag'] ) );
			if ( $answer['headers']['etag'] === $old['headers']['etag'] ) {
				++$stale;
				$this->assertSame( Markers_Controller::STALE_CACHE_CONTROL, $answer['headers']['cache-control'], 'a previous build is revalidated before reuse' );
			}
		}
		$this->assertGreaterThan( 0, $stale, 'the previous build was served meanwhile' );

		// No previous build to serve: the others wait for the one rebuild.
		$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->options} WHERE option_name LIKE %s OR option_name LIKE %s", $wpdb->esc_like( '_transient_cairn_maps_feed_' ) . '%', $wpdb->esc_like( '_transient_timeout_cairn_maps_feed_' ) . '%' ) );
		do_action( 'cairn_maps_markers_changed' );
		$wpdb->query( 'COMMIT' );
		$answers = $this->concurrently( 4, 'wait', 800 );
		$this->assertSame( array( 1, 0, 0, 0 ), self::sorted_reads( $answers ), 'one request rebuilt' );
		$etags = array_unique( array_column( array_column( $answers, 'headers' ), 'etag' ) );
		$this->assertCount( 1, $etags, 'all got the new build' );
		foreach ( $answers as $answer ) {
			$this->assertSame( 200, $answer['status'] );
			$this->assertCount( 3, json_decode( $answer['body'], true )['features'] );
		}
	}

	/**
	 * Marker reads of each answer (1 for the one that rebuilt, 0 for the rest), largest first.
	 *
	 * @param array<int, array{probe: array<string, mixed>}> $answers Answers.
	 * @return int[]
	 */
	private static function sorted_reads( array $answers ): array {
		$reads = array_map( 'intval', array_column( array_column( $answers, 'probe' ), 'reads' ) );
		rsort( $reads );
		return $reads;
	}
}
