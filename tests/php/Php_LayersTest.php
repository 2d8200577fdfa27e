<?php
/**
 * The layers of plugin/'s folders (bin/check-php-layers.php, run by npm run lint:php).
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests;

defined( 'ABSPATH' ) || exit;

// phpcs:disable WordPress.WP.AlternativeFunctions -- files of a throw-away folder, outside WordPress' filesystem.

/**
 * The plugin's folders pass; a folder tree with a cycle, a use upwards or a folder in no layer
 * fails with a message naming the files and classes. Names count as PHP resolves them (imports,
 * aliases, grouped imports, qualified and fully qualified names), comments and strings do not.
 *
 * @since 0.4.0
 */
final class Php_LayersTest extends TestCase {

	/**
	 * A throw-away plugin/ folder.
	 *
	 * @var string
	 */
	private string $root = '';

	/**
	 * Removes the throw-away folder.
	 */
	public function tear_down(): void {
		if ( '' !== $this->root && is_dir( $this->root ) ) {
			$files = new \RecursiveIteratorIterator( new \RecursiveDirectoryIterator( $this->root, \FilesystemIterator::SKIP_DOTS ), \RecursiveIteratorIterator::CHILD_FIRST );
			foreach ( $files as $file ) {
				$file->isDir() ? rmdir( $file->getPathname() ) : unlink( $file->getPathname() );
			}
			rmdir( $this->root );
		}
		parent::tear_down();
	}

	/**
	 * Runs the check on a folder.
	 *
	 * @param string|null $root The folder; the plugin's own plugin/ when null.
	 * @return array{0: int, 1: string} Exit status and output.
	 */
	private function check( ?string $root = null ): array {
		$command = escapeshellarg( PHP_BINARY ) . ' ' . escapeshellarg( CAIRN_MAPS_TESTS_ROOT . '/bin/check-php-layers.php' );
		if ( null !== $root ) {
			$command .= ' ' . escapeshellarg( $root );
		}
		$output = array();
		$status = 0;
		exec( $command . ' 2>&1', $output, $status ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.system_calls_exec
		return array( $status, implode( "\n", $output ) );
	}

	/**
	 * Writes a throw-away plugin/ folder.
	 *
	 * @param array<string, string> $files Path => PHP after `<?php`.
	 */
	private function tree( array $files ): string {
		$this->root = get_temp_dir() . 'cairn-layers-' . wp_generate_password( 8, false );
		foreach ( $files as $path => $code ) {
			wp_mkdir_p( dirname( $this->root . '/' . $path ) );
			file_put_contents( $this->root . '/' . $path, "<?php\n" . $code );
		}
		return $this->root;
	}

	/**
	 * Today's plugin/ holds its layers.
	 */
	public function test_the_plugin_folders_are_in_layers(): void {
		list( $status, $output ) = $this->check();
		$this->assertSame( 0, $status, $output );
		$this->assertStringContainsString( 'no cycle', $output );
	}

	/**
	 * Markers using the feed, which uses markers: a cycle, named with its files and classes, and a
	 * use upwards. Two-way use hidden in an alias and a grouped import is found as well.
	 */
	public function test_a_cycle_fails_and_is_named(): void {
		$root = $this->tree(
			array(
				'Markers/List.php' => "namespace Cairn\\Maps\\Markers;\nuse Cairn\\Maps\\Feed\\{Writer, Feed as Geo};\nclass Marker_List { function a() { return Geo::normalize( array() ); } }\n",
				'Feed/Feed.php'    => "namespace Cairn\\Maps\\Feed;\nuse Cairn\\Maps\\Markers\\Marker_Repository as Repo;\nclass Feed { function a( Repo \$r ) {} }\n",
				'Feed/Writer.php'  => "namespace Cairn\\Maps\\Feed;\nclass Writer {}\n",
			)
		);

		list( $status, $output ) = $this->check( $root );
		$this->assertSame( 1, $status, $output );
		$this->assertStringContainsString( 'Folders form a cycle: Feed → Markers → Feed', $output );
		$this->assertStringContainsString( 'Feed → Markers (plugin/Feed/Feed.php:3 uses Cairn\\Maps\\Markers\\Marker_Repository)', $output );
		$this->assertStringContainsString( 'Markers → Feed (plugin/Markers/List.php:3 uses Cairn\\Maps\\Feed\\Writer)', $output );
		$this->assertStringContainsString( 'Markers uses Feed, in a layer above it', $output );
	}

	/**
	 * A fully qualified name upwards fails without a cycle; peers of one layer may not use each
	 * other; a folder in no layer must be placed.
	 */
	public function test_upward_and_sideways_uses_and_new_folders_fail(): void {
		$root = $this->tree(
			array(
				'Support/Limits.php' => "namespace Cairn\\Maps\\Support;\nclass Limits { function a() { return \\Cairn\\Maps\\Rest\\Cors::class; } }\n",
				'Groups/Styles.php'  => "namespace Cairn\\Maps\\Groups;\nclass Styles { function a() { return new \\Cairn\\Maps\\Content\\Location_Types(); } }\n",
				'Admin/Page.php'     => "namespace Cairn\\Maps\\Admin;\nclass Page {}\n",
			)
		);

		list( $status, $output ) = $this->check( $root );
		$this->assertSame( 1, $status, $output );
		$this->assertStringNotContainsString( 'cycle', $output );
		$this->assertStringContainsString( 'Support uses Rest, in a layer above it: Support → Rest (plugin/Support/Limits.php:3 uses Cairn\\Maps\\Rest\\Cors)', $output );
		$this->assertStringContainsString( 'Groups uses Content, in its own layer', $output );
		$this->assertStringContainsString( 'plugin/Admin/ is in no layer', $output );
	}

	/**
	 * Downward uses pass; comments, strings, method names and same-folder names are no uses.
	 */
	public function test_downward_uses_comments_and_strings_pass(): void {
		$root = $this->tree(
			array(
				'Support/Limits.php'    => "namespace Cairn\\Maps\\Support;\n/** @see \\Cairn\\Maps\\Rest\\Cors */\nclass Limits { function a() { return 'Cairn\\\\Maps\\\\Rest\\\\Cors' . \$this->settings(); } function settings() { return Limits::class; } }\n",
				'Markers/Post_Type.php' => "namespace Cairn\\Maps\\Markers;\nuse Cairn\\Maps\\Support\\Limits;\nclass Post_Type { function a() { return Limits::a() . Marker_List::class; } }\n",
				'Rest/Cors.php'         => "namespace Cairn\\Maps\\Rest;\nuse Cairn\\Maps\\Markers;\nclass Cors { function a() { return Markers\\Post_Type::class . \\Cairn\\Maps\\Support\\Limits::class; } }\n",
				'Plugin.php'            => "namespace Cairn\\Maps;\nclass Plugin { function a() { return new Rest\\Cors(); } }\n",
			)
		);

		list( $status, $output ) = $this->check( $root );
		$this->assertSame( 0, $status, $output );
	}
}
