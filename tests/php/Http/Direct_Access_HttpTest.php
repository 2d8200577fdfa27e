<?php
/**
 * Requesting the plugin's PHP files directly over the web.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Http;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Tests\TestCase;

/**
 * A site that serves its plugin folder as it is (no WordPress in front, as a web server does for
 * any `.php` URL under wp-content/plugins/) and shows PHP errors: every PHP file of the plugin,
 * and of its development folders (bench/, bin/, tests/) when the folder is a checkout, answers
 * without an error and without the server path. And the plugin never loads a development vendor/.
 *
 * @since 0.2.0
 */
final class Direct_Access_HttpTest extends TestCase {

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
	 * Starts PHP's built-in server on the plugin folder itself, showing errors, without a router.
	 */
	public static function set_up_before_class(): void {
		parent::set_up_before_class();
		$socket     = stream_socket_server( 'tcp://127.0.0.1:0' );
		self::$port = (int) substr( (string) strrchr( stream_socket_get_name( $socket, false ), ':' ), 1 );
		fclose( $socket ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fclose

		$command      = array( 'setsid', PHP_BINARY, '-d', 'display_errors=1', '-d', 'html_errors=0', '-d', 'error_reporting=-1', '-S', '127.0.0.1:' . self::$port, '-t', self::root() );
		self::$server = proc_open( // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.system_calls_proc_open -- the test web server.
			$command,
			array(
				0 => array( 'file', '/dev/null', 'r' ),
				1 => array( 'file', '/dev/null', 'a' ),
				2 => array( 'file', '/dev/null', 'a' ),
			),
			$pipes,
			self::root(),
			array( 'PATH' => (string) getenv( 'PATH' ) ) // Nothing of the test run's environment.
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
				posix_kill( -$pid, SIGTERM );
			}
			proc_terminate( self::$server );
			proc_close( self::$server );
		}
		self::$server = null;
		parent::tear_down_after_class();
	}

	/**
	 * The plugin folder.
	 *
	 * @return string
	 */
	private static function root(): string {
		return dirname( __DIR__, 3 );
	}

	/**
	 * Every PHP file of a folder of the plugin, relative to the plugin folder.
	 *
	 * @param string $folder Folder, relative to the plugin folder.
	 * @return string[]
	 */
	private static function php_files( string $folder ): array {
		$files    = array();
		$iterator = new \RecursiveIteratorIterator( new \RecursiveDirectoryIterator( self::root() . '/' . $folder, \FilesystemIterator::SKIP_DOTS ) );
		foreach ( $iterator as $file ) {
			if ( 'php' === $file->getExtension() ) {
				$files[] = substr( $file->getPathname(), strlen( self::root() ) + 1 );
			}
		}
		sort( $files );
		return $files;
	}

	/**
	 * Sends one GET and returns the status line's code and the body.
	 *
	 * @param string $path Path.
	 * @return array{status: int, body: string}
	 */
	private function get( string $path ): array {
		$socket = fsockopen( '127.0.0.1', self::$port, $errno, $errstr, 5 ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fsockopen -- a raw HTTP client.
		$this->assertIsResource( $socket, "connect: {$errstr}" );
		fwrite( $socket, "GET {$path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n" ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fwrite
		stream_set_timeout( $socket, 30 );
		$raw = (string) stream_get_contents( $socket );
		fclose( $socket ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fclose
		list( $head, $body ) = array_pad( explode( "\r\n\r\n", $raw, 2 ), 2, '' );
		preg_match( '#^HTTP/\d\.\d (\d{3})#', $head, $status );
		return array(
			'status' => (int) ( $status[1] ?? 0 ),
			'body'   => $body,
		);
	}

	/**
	 * The folders whose PHP files are requested.
	 *
	 * @return array<string, array{string}>
	 */
	public function folders(): array {
		return array(
			'plugin' => array( 'plugin' ),
			'bench'  => array( 'bench' ),
			'bin'    => array( 'bin' ),
			'tests'  => array( 'tests' ),
		);
	}

	/**
	 * Every PHP file answers empty: no error, no path, nothing run.
	 *
	 * @dataProvider folders
	 *
	 * @param string $folder Folder.
	 */
	public function test_php_files_answer_without_an_error_or_the_server_path( string $folder ): void {
		$files = self::php_files( $folder );
		$this->assertNotEmpty( $files );
		foreach ( $files as $file ) {
			$answer = $this->get( '/' . $file );
			$this->assertSame( 200, $answer['status'], "{$file}: {$answer['body']}" );
			$this->assertStringNotContainsString( self::root(), $answer['body'], "{$file} shows the server path" );
			$this->assertDoesNotMatchRegularExpression( '/(Fatal error|Warning|Notice|Deprecated|Uncaught)/i', $answer['body'], "{$file} shows an error" );
			$this->assertSame( '', $answer['body'], "{$file} prints something" );
		}
	}

	/**
	 * The plugin's main file, loaded by WordPress, uses its own class loader even when a development
	 * vendor/ (Composer's, with PHPUnit in it) sits in the folder.
	 */
	public function test_the_plugin_does_not_load_a_development_vendor_folder(): void {
		$this->assertFileExists( self::root() . '/vendor/autoload.php', 'this checkout has a development vendor/' );
		$code   = implode(
			"\n",
			array(
				'require ' . var_export( self::root() . '/tests/php/includes/config.php', true ) . ';', // phpcs:ignore WordPress.PHP.DevelopmentFunctions.error_log_var_export
				'require ' . var_export( self::root() . '/.cache/wp-tests/wp-tests-config.php', true ) . ';', // phpcs:ignore WordPress.PHP.DevelopmentFunctions.error_log_var_export
				'cairn_maps_tests_server_vars();',
				'require ABSPATH . "wp-settings.php";',
				'$loaded = array_values( array_filter( get_included_files(), static fn( $f ) => false !== strpos( $f, "/vendor/" ) ) );',
				'echo json_encode( array( "active" => class_exists( "Cairn\\\\Maps\\\\Plugin", false ), "vendor" => $loaded ) );',
			)
		);
		$output = array();
		exec( escapeshellarg( PHP_BINARY ) . ' -r ' . escapeshellarg( $code ) . ' 2>&1', $output, $status ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.system_calls_exec -- WordPress loaded afresh, as a request would.
		$this->assertSame( 0, $status, implode( "\n", $output ) );
		$result = json_decode( (string) end( $output ), true );
		$this->assertIsArray( $result, implode( "\n", $output ) );
		$this->assertTrue( $result['active'], 'the plugin is loaded' );
		$this->assertSame( array(), $result['vendor'] );
	}
}
