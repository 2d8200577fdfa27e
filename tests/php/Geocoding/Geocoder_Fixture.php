<?php
/**
 * The geocoding providers, played by a local HTTP server.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Geocoding;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Geocoding\Geocode_Cache;
use Cairn\Maps\Geocoding\Rate_Limiter;

/**
 * Starts tests/fixtures/plugins/cairn-geocoder-fixture/server.php with PHP's built-in server for
 * the test class and points `cairn_maps_geocoder_base_url` at it (as `localhost`: the test site
 * blocks other hosts with WP_HTTP_BLOCK_EXTERNAL). Every request the server gets is a line in its
 * log, so a test counts what reached "the provider". Nothing here talks to the real services.
 *
 * @since 0.3.0
 */
trait Geocoder_Fixture {

	/**
	 * The server process.
	 *
	 * @var resource|null
	 */
	private static $fixture_server = null;

	/**
	 * Its port.
	 *
	 * @var int
	 */
	private static int $fixture_port = 0;

	/**
	 * Its request log.
	 *
	 * @var string
	 */
	private static string $fixture_log = '';

	/**
	 * Starts the server.
	 */
	public static function set_up_before_class(): void {
		parent::set_up_before_class();
		$socket             = stream_socket_server( 'tcp://127.0.0.1:0' );
		self::$fixture_port = (int) substr( (string) strrchr( stream_socket_get_name( $socket, false ), ':' ), 1 );
		fclose( $socket ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fclose
		self::$fixture_log = (string) tempnam( sys_get_temp_dir(), 'cairn-geocoder-' );

		$root                 = dirname( __DIR__, 3 );
		self::$fixture_server = proc_open( // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.system_calls_proc_open -- the fixture server.
			array( 'setsid', PHP_BINARY, '-S', '127.0.0.1:' . self::$fixture_port, $root . '/tests/fixtures/plugins/cairn-geocoder-fixture/server.php' ),
			array(
				0 => array( 'file', '/dev/null', 'r' ),
				1 => array( 'file', '/dev/null', 'a' ),
				2 => array( 'file', '/dev/null', 'a' ),
			),
			$pipes,
			$root,
			array_merge(
				getenv(),
				array(
					'CAIRN_GEOCODER_FIXTURE_LOG' => self::$fixture_log,
					'PHP_CLI_SERVER_WORKERS'     => '4',
				)
			)
		);
		$deadline             = microtime( true ) + 10;
		while ( microtime( true ) < $deadline ) {
			$probe = @fsockopen( '127.0.0.1', self::$fixture_port, $errno, $errstr, 0.2 ); // phpcs:ignore WordPress.PHP.NoSilencedErrors.Discouraged, WordPress.WP.AlternativeFunctions.file_system_read_fsockopen -- polling until the server listens.
			if ( $probe ) {
				fclose( $probe ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fclose
				return;
			}
			usleep( 50000 );
		}
		self::fail( 'The geocoder fixture server did not start.' );
	}

	/**
	 * Stops the server.
	 */
	public static function tear_down_after_class(): void {
		if ( is_resource( self::$fixture_server ) ) {
			$pid = (int) proc_get_status( self::$fixture_server )['pid'];
			if ( $pid > 0 ) {
				posix_kill( -$pid, SIGTERM ); // The server and its workers.
			}
			proc_terminate( self::$fixture_server );
			proc_close( self::$fixture_server );
		}
		self::$fixture_server = null;
		if ( '' !== self::$fixture_log && is_file( self::$fixture_log ) ) {
			unlink( self::$fixture_log ); // phpcs:ignore WordPress.WP.AlternativeFunctions.unlink_unlink
		}
		parent::tear_down_after_class();
	}

	/**
	 * Routes the providers to the fixture and starts each test with an empty log, no cached
	 * answers and a free slot (set_up() of the test class calls this).
	 */
	protected function use_geocoder_fixture(): void {
		file_put_contents( self::$fixture_log, '' ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_file_put_contents
		add_filter( 'cairn_maps_geocoder_base_url', array( self::class, 'fixture_base_url' ), 10, 2 );
		global $wpdb;
		$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->options} WHERE option_name IN (%s, %s) OR option_name LIKE %s OR option_name LIKE %s", Rate_Limiter::OPTION, Rate_Limiter::SHARE_OPTION, $wpdb->esc_like( '_transient_' . Geocode_Cache::PREFIX ) . '%', $wpdb->esc_like( '_transient_timeout_' . Geocode_Cache::PREFIX ) . '%' ) );
	}

	/**
	 * The fixture's address for a provider.
	 *
	 * @param string $url      The real base URL.
	 * @param string $provider Provider id.
	 */
	public static function fixture_base_url( $url, $provider ): string {
		return 'http://localhost:' . self::$fixture_port . ( 'mapbox-permanent' === $provider ? '/mapbox' : '/nominatim' );
	}

	/**
	 * What reached the fixture, in order.
	 *
	 * @return list<array{provider: string, endpoint: string, params: array<string, string>, user_agent: string, time: float}>
	 */
	protected function provider_requests(): array {
		$requests = array();
		foreach ( (array) file( self::$fixture_log, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES ) as $line ) {
			$requests[] = json_decode( (string) $line, true );
		}
		return $requests;
	}
}
