<?php
/**
 * Where maps load mapbox-gl from.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Blocks\Mapbox_Gl;
use Cairn\Maps\Blocks\View_Script;
use Cairn\Maps\Plugin;
use Cairn\Maps\Tests\TestCase;

/**
 * The pinned release from Mapbox's distribution, with the build's integrity hashes, printed before
 * the scripts that start maps; the base URL filter moves the files, never the hashes.
 *
 * @since 0.3.0
 */
final class Mapbox_GlTest extends TestCase {

	/**
	 * The build's build/mapbox-gl.json.
	 *
	 * @return array{version: string, js: string, css: string}
	 */
	private function build(): array {
		$json = file_get_contents( CAIRN_MAPS_DIR . 'build/mapbox-gl.json' ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents
		$this->assertIsString( $json, 'npm run build writes build/mapbox-gl.json' );
		$build = json_decode( $json, true );
		$this->assertIsArray( $build );
		return $build;
	}

	/**
	 * The plugin's part.
	 */
	private function part(): Mapbox_Gl {
		$part = Plugin::instance()->get( 'mapbox_gl' );
		$this->assertInstanceOf( Mapbox_Gl::class, $part );
		return $part;
	}

	/**
	 * By default: Mapbox's distribution of the version the plugin was built with.
	 */
	public function test_the_pinned_release_from_mapbox_with_the_builds_integrity(): void {
		$build = $this->build();
		$this->assertMatchesRegularExpression( '/^sha384-[A-Za-z0-9+\/]{64}$/', $build['js'] );
		$this->assertSame(
			array(
				'version' => $build['version'],
				'js'      => array(
					'src'       => 'https://api.mapbox.com/mapbox-gl-js/v' . $build['version'] . '/mapbox-gl.js',
					'integrity' => $build['js'],
				),
				'css'     => array(
					'src'       => 'https://api.mapbox.com/mapbox-gl-js/v' . $build['version'] . '/mapbox-gl.css',
					'integrity' => $build['css'],
				),
			),
			$this->part()->library()
		);
	}

	/**
	 * The hashes come from the files npm installed, which are what the CDN serves for the version.
	 */
	public function test_the_hashes_are_those_of_the_installed_release_files(): void {
		$dist = CAIRN_MAPS_DIR . 'node_modules/mapbox-gl/dist/';
		if ( ! is_readable( $dist . 'mapbox-gl.js' ) ) {
			$this->markTestSkipped( 'node_modules is not installed.' );
		}
		$build = $this->build();
		foreach ( array( 'js', 'css' ) as $kind ) {
			$this->assertSame(
				'sha384-' . base64_encode( hash_file( 'sha384', $dist . 'mapbox-gl.' . $kind, true ) ), // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_encode
				$build[ $kind ],
				$kind
			);
		}
	}

	/**
	 * Self-hosting: another folder, the same hashes; anything that is not an http(s) URL is ignored.
	 *
	 * @dataProvider base_urls
	 *
	 * @param mixed  $filtered What the filter returns.
	 * @param string $expected The folder used ('' = Mapbox's).
	 */
	public function test_the_base_url_filter( $filtered, string $expected ): void {
		$build = $this->build();
		add_filter( Mapbox_Gl::BASE_URL_FILTER, static fn() => $filtered );
		$library = $this->part()->library();
		$this->assertIsArray( $library );
		$folder = '' === $expected ? 'https://api.mapbox.com/mapbox-gl-js/v' . $build['version'] . '/' : $expected;
		$this->assertSame( $folder . 'mapbox-gl.js', $library['js']['src'] );
		$this->assertSame( $folder . 'mapbox-gl.css', $library['css']['src'] );
		$this->assertSame( $build['js'], $library['js']['integrity'] );
		$this->assertSame( $build['css'], $library['css']['integrity'] );
	}

	/**
	 * Filter answers.
	 *
	 * @return array<string, array{mixed, string}>
	 */
	public static function base_urls(): array {
		return array(
			'a folder on the site'   => array( 'https://example.org/wp-content/uploads/mapbox-gl/3', 'https://example.org/wp-content/uploads/mapbox-gl/3/' ),
			'with its slash'         => array( 'https://cdn.example.org/gl/', 'https://cdn.example.org/gl/' ),
			'javascript: is ignored' => array( 'javascript:alert(1)//', '' ),
			'a relative path'        => array( '/mapbox-gl/', '' ),
			'empty'                  => array( '', '' ),
			'not a string'           => array( array( 'https://example.org/' ), '' ),
		);
	}

	/**
	 * The loader and the block's editor script get `window.cairnMapsMapboxGl` before them.
	 */
	public function test_printed_before_the_loader_and_the_block_editor_script(): void {
		$type = \WP_Block_Type_Registry::get_instance()->get_registered( 'cairn/map' );
		$this->assertNotNull( $type );
		$handles = array( View_Script::handle(), (string) reset( $type->editor_script_handles ) );
		foreach ( $handles as $handle ) {
			$before = wp_scripts()->get_data( $handle, 'before' );
			$this->assertIsArray( $before, $handle );
			$printed = implode( "\n", $before );
			$this->assertStringContainsString( 'var cairnMapsMapboxGl = {"version":', $printed, $handle );
			$this->assertStringContainsString( '"integrity":"sha384-', $printed, $handle );
		}
	}
}
