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

	use Web_Server;

	/**
	 * PHP's built-in server on the plugin folder itself, showing errors, without a router.
	 *
	 * @param int $port The port to listen on.
	 * @return list<string>
	 */
	protected static function web_server_command( int $port ): array {
		return array( PHP_BINARY, '-d', 'display_errors=1', '-d', 'html_errors=0', '-d', 'error_reporting=-1', '-S', '127.0.0.1:' . $port, '-t', self::root() );
	}

	/**
	 * Nothing of the test run's environment.
	 *
	 * @return array<string, string>
	 */
	protected static function web_server_environment(): array {
		return array( 'PATH' => (string) getenv( 'PATH' ) );
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
			$answer = $this->http( '/' . $file );
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
