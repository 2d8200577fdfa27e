<?php
/**
 * The test site over real HTTP, for tests that need sent headers.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Http;

defined( 'ABSPATH' ) || exit;

/**
 * Starts PHP's built-in web server on the test site for the test class (WordPress loaded by
 * tests/php/includes/http-router.php, probe reports in a log), and sends raw HTTP/1.0 requests to
 * it. The server is another process: what a test wants it to see must be committed.
 *
 * @since 0.2.0
 */
trait Web_Server {

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
	 * The probe log of the server's requests.
	 *
	 * @var string
	 */
	private static string $probe_log = '';

	/**
	 * How many workers the web server runs; a class overrides this when its requests must overlap.
	 *
	 * @return int
	 */
	protected static function web_server_workers(): int {
		return 2;
	}

	/**
	 * The router script in front of the test site; a class overrides it to load the site its own
	 * way.
	 *
	 * @return string
	 */
	protected static function web_server_router(): string {
		return __DIR__ . '/../includes/http-router.php';
	}

	/**
	 * The server's command line: by default the test site behind web_server_router(). A class
	 * overrides it to serve something else (another document root, other ini settings).
	 *
	 * @param int $port The port to listen on.
	 * @return list<string>
	 */
	protected static function web_server_command( int $port ): array {
		return array( PHP_BINARY, '-S', '127.0.0.1:' . $port, '-t', ABSPATH, static::web_server_router() );
	}

	/**
	 * The server's environment: by default the test run's, with the test site's configuration.
	 *
	 * @return array<string, string>
	 */
	protected static function web_server_environment(): array {
		return array_merge(
			getenv(),
			array(
				'CAIRN_TESTS_CONFIG'     => dirname( __DIR__, 3 ) . '/.cache/wp-tests/wp-tests-config.php',
				'CAIRN_HTTP_PROBE_LOG'   => self::$probe_log,
				'PHP_CLI_SERVER_WORKERS' => (string) static::web_server_workers(),
			)
		);
	}

	/**
	 * Starts the web server.
	 */
	public static function set_up_before_class(): void {
		parent::set_up_before_class();
		$socket     = stream_socket_server( 'tcp://127.0.0.1:0' );
		self::$port = (int) substr( (string) strrchr( stream_socket_get_name( $socket, false ), ':' ), 1 );
		fclose( $socket ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fclose

		$root            = dirname( __DIR__, 3 );
		self::$probe_log = (string) tempnam( sys_get_temp_dir(), 'cairn-probe-' );
		// In a session of its own (setsid), so that the workers can be stopped with it as a group.
		$log          = array( 'file', getenv( 'CAIRN_HTTP_LOG' ) ? getenv( 'CAIRN_HTTP_LOG' ) : '/dev/null', 'a' );
		self::$server = proc_open( // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.system_calls_proc_open -- the test web server.
			array_merge( array( 'setsid' ), static::web_server_command( self::$port ) ),
			array(
				0 => array( 'file', '/dev/null', 'r' ),
				1 => $log,
				2 => $log,
			),
			$pipes,
			$root,
			static::web_server_environment()
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
			$pid = (int) proc_get_status( self::$server )['pid'];
			if ( $pid > 0 ) {
				posix_kill( -$pid, SIGTERM ); // The server and its workers.
			}
			proc_terminate( self::$server );
			proc_close( self::$server );
		}
		self::$server = null;
		if ( '' !== self::$probe_log && is_file( self::$probe_log ) ) {
			unlink( self::$probe_log ); // phpcs:ignore WordPress.WP.AlternativeFunctions.unlink_unlink
		}
		parent::tear_down_after_class();
	}

	/**
	 * Sends one HTTP/1.0 request and returns the answer.
	 *
	 * @param string                $path    Path and query.
	 * @param array<string, string> $headers Request headers.
	 * @param string                $method  Method.
	 * @param string                $body    Request body.
	 * @return array{status: int, headers: array<string, string>, cookies: int, body: string} Header
	 *         names in lowercase; repeated headers joined with ", ".
	 */
	private function http( string $path, array $headers = array(), string $method = 'GET', string $body = '' ): array {
		return $this->receive( $this->send( $path, $headers, $method, $body ) );
	}

	/**
	 * Sends one HTTP/1.0 request without waiting for the answer.
	 *
	 * @param string                $path    Path and query.
	 * @param array<string, string> $headers Request headers.
	 * @param string                $method  Method.
	 * @param string                $body    Request body.
	 * @return resource The connection.
	 */
	private function send( string $path, array $headers = array(), string $method = 'GET', string $body = '' ) {
		$socket = fsockopen( '127.0.0.1', self::$port, $errno, $errstr, 5 ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fsockopen -- a raw HTTP client, to see the bytes sent.
		$this->assertIsResource( $socket, "connect: {$errstr}" );
		$request = "{$method} {$path} HTTP/1.0\r\nHost: 127.0.0.1:" . self::$port . "\r\n";
		if ( '' !== $body ) {
			$headers['Content-Length'] = (string) strlen( $body );
		}
		foreach ( $headers as $name => $value ) {
			$request .= "{$name}: {$value}\r\n";
		}
		fwrite( $socket, $request . "\r\n" . $body ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fwrite
		return $socket;
	}

	/**
	 * Reads the whole answer of a request sent with send().
	 *
	 * @param resource $socket The connection.
	 * @return array{status: int, headers: array<string, string>, cookies: int, body: string} Header
	 *         names in lowercase; repeated headers joined with ", ".
	 */
	private function receive( $socket ): array {
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
			$name                 = strtolower( $name );
			if ( 'set-cookie' === $name ) {
				++$cookies;
			}
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
	 * The probe's report on a request (tests/php/includes/http-probe.php).
	 *
	 * @param string $id The request's X-Cairn-Probe value.
	 * @return array{id: string, status: int, init: int, rest: int, reads: int}
	 */
	private function probe( string $id ): array {
		$deadline = microtime( true ) + 5;
		do {
			foreach ( file( self::$probe_log, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES ) as $line ) {
				$entry = json_decode( $line, true );
				if ( is_array( $entry ) && $id === $entry['id'] ) {
					return $entry;
				}
			}
			usleep( 20000 );
		} while ( microtime( true ) < $deadline );
		$this->fail( "no probe report for {$id}" );
	}

	/**
	 * A comma-separated header's items in lowercase, e.g. the field names of Vary.
	 *
	 * @param array{headers: array<string, string>} $answer An answer.
	 * @param string                                $name   Header name, lowercase.
	 * @return string[]
	 */
	private static function header_items( array $answer, string $name ): array {
		$items = array_map( 'strtolower', array_map( 'trim', explode( ',', $answer['headers'][ $name ] ?? '' ) ) );
		return array_values( array_unique( array_filter( $items ) ) );
	}
}
