<?php
/**
 * The marker feed over real HTTP.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Http;

use Cairn\Maps\Tests\TestCase;

/**
 * Requests the feed from the test site served by PHP's built-in web server, to check what only a
 * real response shows: sent headers, cookies, gzip, empty 304 and HEAD bodies.
 *
 * The server runs in its own process, so the markers these tests create are committed (and
 * deleted afterwards) instead of living in the per-test transaction.
 *
 * @since 0.1.0
 */
final class Markers_Feed_HttpTest extends TestCase {

	/**
	 * The web server process.
	 *
	 * @var resource|null
	 */
	private static $server = null;

	/**
	 * Its port.
	 *
	 * @var int
	 */
	private static int $port = 0;

	/**
	 * Markers to delete after the test.
	 *
	 * @var int[]
	 */
	private array $committed = array();

	/**
	 * Starts the web server.
	 */
	public static function set_up_before_class(): void {
		parent::set_up_before_class();
		$socket     = stream_socket_server( 'tcp://127.0.0.1:0' );
		self::$port = (int) substr( (string) strrchr( stream_socket_get_name( $socket, false ), ':' ), 1 );
		fclose( $socket ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fclose

		$root         = dirname( __DIR__, 3 );
		$command      = array( PHP_BINARY, '-S', '127.0.0.1:' . self::$port, '-t', ABSPATH, __DIR__ . '/../includes/http-router.php' );
		$env          = array_merge( getenv(), array( 'CAIRN_TESTS_CONFIG' => $root . '/.cache/wp-tests/wp-tests-config.php' ) );
		$null         = array( 'file', getenv( 'CAIRN_HTTP_LOG' ) ? getenv( 'CAIRN_HTTP_LOG' ) : '/dev/null', 'a' );
		self::$server = proc_open( // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.system_calls_proc_open -- the test web server.
			$command,
			array(
				0 => array( 'file', '/dev/null', 'r' ),
				1 => $null,
				2 => $null,
			),
			$pipes,
			$root,
			$env
		);
		$deadline     = microtime( true ) + 10;
		while ( microtime( true ) < $deadline ) {
			$probe = @fsockopen( '127.0.0.1', self::$port, $errno, $errstr, 0.2 ); // phpcs:ignore WordPress.PHP.NoSilencedErrors.Discouraged, WordPress.WP.AlternativeFunctions.file_system_read_fsockopen -- polling until the server listens.
			if ( $probe ) {
				fclose( $probe ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fclose
				return;
			}
			usleep( 50000 );
		}
		self::fail( 'PHP\'s built-in web server did not start.' );
	}

	/**
	 * Stops the web server.
	 */
	public static function tear_down_after_class(): void {
		if ( is_resource( self::$server ) ) {
			proc_terminate( self::$server );
			proc_close( self::$server );
		}
		self::$server = null;
		parent::tear_down_after_class();
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
	 * Sends one HTTP/1.0 request and returns the raw answer.
	 *
	 * @param string                $path    Path and query.
	 * @param array<string, string> $headers Request headers.
	 * @param string                $method  Method.
	 * @return array{status: int, headers: array<string, string>, cookies: int, body: string}
	 */
	private function http( string $path, array $headers = array(), string $method = 'GET' ): array {
		$socket = fsockopen( '127.0.0.1', self::$port, $errno, $errstr, 5 ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fsockopen -- a raw HTTP client, to see the bytes sent.
		$this->assertIsResource( $socket, "connect: {$errstr}" );
		$request = "{$method} {$path} HTTP/1.0\r\nHost: 127.0.0.1:" . self::$port . "\r\n";
		foreach ( $headers as $name => $value ) {
			$request .= "{$name}: {$value}\r\n";
		}
		fwrite( $socket, $request . "\r\n" ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fwrite
		stream_set_timeout( $socket, 30 );
		$raw = stream_get_contents( $socket );
		fclose( $socket ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fclose

		list( $head, $body ) = array_pad( explode( "\r\n\r\n", (string) $raw, 2 ), 2, '' );
		$lines               = explode( "\r\n", $head );
		preg_match( '#^HTTP/\d\.\d (\d{3})#', (string) array_shift( $lines ), $status );
		$parsed  = array();
		$cookies = 0;
		foreach ( $lines as $line ) {
			list( $name, $value ) = array_map( 'trim', explode( ':', $line, 2 ) + array( '', '' ) );
			if ( 'set-cookie' === strtolower( $name ) ) {
				++$cookies;
			}
			$name            = strtolower( $name );
			$parsed[ $name ] = isset( $parsed[ $name ] ) ? $parsed[ $name ] . ', ' . $value : $value;
		}
		return array(
			'status'  => (int) ( $status[1] ?? 0 ),
			'headers' => $parsed,
			'cookies' => $cookies,
			'body'    => $body,
		);
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
}
