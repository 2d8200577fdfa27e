<?php
/**
 * The nginx proxy_cache (tests/php/Engines/nginx-proxy.conf) in front of a test web server.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Engines;

defined( 'ABSPATH' ) || exit;

/**
 * Starts and stops nginx for a test class and sends requests through it (the class also uses
 * Web_Server, whose receive() parses the answers). Its X-Cache-Status header says whether an
 * answer came from nginx's cache.
 */
trait Nginx_Proxy {

	/**
	 * The proxy process.
	 *
	 * @var resource|null
	 */
	private static $proxy = null;

	/**
	 * Its port.
	 *
	 * @var int
	 */
	private static int $proxy_port = 0;

	/**
	 * Its folder (configuration, cache, logs).
	 *
	 * @var string
	 */
	private static string $proxy_dir = '';

	/**
	 * Starts nginx in front of 127.0.0.1:$upstream.
	 *
	 * @param int $upstream The web server's port.
	 */
	private static function start_proxy( int $upstream ): void {
		$nginx = is_executable( '/usr/sbin/nginx' ) ? '/usr/sbin/nginx' : trim( (string) shell_exec( 'command -v nginx' ) ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.system_calls_shell_exec
		if ( '' === $nginx ) {
			self::fail( 'The proxy tests need nginx (Debian: apt-get install nginx).' );
		}
		$socket           = stream_socket_server( 'tcp://127.0.0.1:0' );
		self::$proxy_port = (int) substr( (string) strrchr( stream_socket_get_name( $socket, false ), ':' ), 1 );
		fclose( $socket ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fclose

		self::$proxy_dir = sys_get_temp_dir() . '/cairn-proxy-' . getmypid() . '-' . self::$proxy_port;
		mkdir( self::$proxy_dir . '/cache', 0700, true ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_operations_mkdir
		$conf = strtr(
			(string) file_get_contents( __DIR__ . '/nginx-proxy.conf' ), // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents
			array(
				'@USER@'     => 0 === posix_getuid() ? 'user root;' : '',
				'@DIR@'      => self::$proxy_dir,
				'@PORT@'     => (string) self::$proxy_port,
				'@UPSTREAM@' => (string) $upstream,
			)
		);
		file_put_contents( self::$proxy_dir . '/nginx.conf', $conf ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_file_put_contents
		self::$proxy = proc_open( // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.system_calls_proc_open -- the proxy under test.
			array( $nginx, '-p', self::$proxy_dir, '-e', self::$proxy_dir . '/error.log', '-c', self::$proxy_dir . '/nginx.conf' ),
			array(
				0 => array( 'file', '/dev/null', 'r' ),
				1 => array( 'file', self::$proxy_dir . '/stdout.log', 'a' ),
				2 => array( 'file', self::$proxy_dir . '/stdout.log', 'a' ),
			),
			$pipes
		);
		$deadline    = microtime( true ) + 10;
		while ( microtime( true ) < $deadline ) {
			$probe = @fsockopen( '127.0.0.1', self::$proxy_port, $errno, $errstr, 0.2 ); // phpcs:ignore WordPress.PHP.NoSilencedErrors.Discouraged, WordPress.WP.AlternativeFunctions.file_system_read_fsockopen -- polling until nginx listens.
			if ( $probe ) {
				fclose( $probe ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fclose
				return;
			}
			usleep( 50000 );
		}
		self::fail( 'nginx did not start: ' . file_get_contents( self::$proxy_dir . '/error.log' ) . file_get_contents( self::$proxy_dir . '/stdout.log' ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents
	}

	/**
	 * Stops nginx (it stops its workers on TERM) and removes its folder.
	 */
	private static function stop_proxy(): void {
		if ( is_resource( self::$proxy ) ) {
			proc_terminate( self::$proxy );
			proc_close( self::$proxy );
		}
		self::$proxy = null;
		if ( '' !== self::$proxy_dir && is_dir( self::$proxy_dir ) ) {
			exec( 'rm -rf ' . escapeshellarg( self::$proxy_dir ) ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.system_calls_exec
		}
	}

	/**
	 * A GET through the proxy.
	 *
	 * @param string                $path    Path and query.
	 * @param array<string, string> $headers Request headers.
	 * @return array{status: int, headers: array<string, string>, cookies: int, body: string}
	 */
	private function through_proxy( string $path, array $headers = array() ): array {
		$socket = fsockopen( '127.0.0.1', self::$proxy_port, $errno, $errstr, 5 ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fsockopen -- a raw HTTP client.
		$this->assertIsResource( $socket, "connect to nginx: {$errstr}" );
		$request = "GET {$path} HTTP/1.0\r\nHost: 127.0.0.1:" . self::$proxy_port . "\r\n";
		foreach ( $headers as $name => $value ) {
			$request .= "{$name}: {$value}\r\n";
		}
		fwrite( $socket, $request . "\r\n" ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fwrite
		return $this->receive( $socket );
	}

}
