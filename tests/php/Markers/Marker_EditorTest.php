<?php
/**
 * The marker edit screen's "Location" panel script.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Markers;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Tests\Blocks\Map_BlockTest;
use Cairn\Maps\Markers\Marker_Editor;
use Cairn\Maps\Plugin;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Tests\TestCase;

/**
 * The panel loads on the marker editor only, with the editor data printed before it.
 *
 * @since 0.1.0
 */
final class Marker_EditorTest extends TestCase {

	/**
	 * The script registry before the test (block scripts registered at init included).
	 *
	 * @var \WP_Scripts|null
	 */
	private ?\WP_Scripts $scripts = null;

	/**
	 * Loads the screen API and keeps a copy of the script registry.
	 */
	protected function set_up(): void {
		parent::set_up();
		require_once ABSPATH . 'wp-admin/includes/class-wp-screen.php';
		require_once ABSPATH . 'wp-admin/includes/screen.php';
		$this->scripts = clone wp_scripts();
	}

	/**
	 * Leaves the admin screen and puts the script registry back.
	 */
	protected function tear_down(): void {
		$GLOBALS['current_screen'] = null; // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- back to a front-end request.
		$GLOBALS['wp_scripts']     = $this->scripts; // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- forgets what the test enqueued.
		parent::tear_down();
	}

	/**
	 * The part.
	 */
	private function editor(): Marker_Editor {
		$editor = Plugin::instance()->get( 'marker_editor' );
		$this->assertInstanceOf( Marker_Editor::class, $editor );
		return $editor;
	}

	/**
	 * Opens the block editor screen of a post type.
	 *
	 * @param string $post_type Post type.
	 */
	private function open_editor( string $post_type ): void {
		set_current_screen( $post_type );
		get_current_screen()->is_block_editor( true );
	}

	/**
	 * Hooked by name.
	 */
	public function test_hooks_are_named_methods(): void {
		$this->assertSame( 10, has_action( 'enqueue_block_editor_assets', array( $this->editor(), 'enqueue' ) ) );
	}

	/**
	 * On the marker editor: the script, its dependencies, and the token printed before it.
	 */
	public function test_the_panel_loads_on_the_marker_editor_with_the_editor_data(): void {
		update_option( Settings::TOKEN_OPTION, Map_BlockTest::public_token() );
		$this->act_as( 'editor' );
		$this->open_editor( 'cairn_marker' );
		$this->assertTrue( $this->editor()->is_marker_screen() );
		$this->editor()->enqueue();

		$this->assertTrue( wp_script_is( Marker_Editor::SCRIPT_HANDLE, 'enqueued' ) );
		$script = wp_scripts()->registered[ Marker_Editor::SCRIPT_HANDLE ];
		$this->assertStringEndsWith( 'build/markers/index.js', $script->src );
		$this->assertContains( 'wp-plugins', $script->deps );
		$this->assertContains( 'wp-editor', $script->deps );
		$before = implode( "\n", (array) wp_scripts()->get_data( Marker_Editor::SCRIPT_HANDLE, 'before' ) );
		$this->assertStringContainsString( 'window.cairnMapsEditor = ', $before );
		$this->assertStringContainsString( Map_BlockTest::public_token(), $before );
	}

	/**
	 * Elsewhere (posts, pages, the marker list) nothing is loaded.
	 *
	 * @return array<string, array{0: string}>
	 */
	public function other_screens(): array {
		return array(
			'post editor'        => array( 'post' ),
			'page editor'        => array( 'page' ),
			'marker list screen' => array( 'edit-cairn_marker' ),
		);
	}

	/**
	 * Not loaded on other screens.
	 *
	 * @dataProvider other_screens
	 *
	 * @param string $screen Screen id.
	 */
	public function test_the_panel_is_not_loaded_elsewhere( string $screen ): void {
		$this->act_as( 'editor' );
		$this->open_editor( $screen );
		$this->editor()->enqueue();
		$this->assertFalse( wp_script_is( Marker_Editor::SCRIPT_HANDLE, 'enqueued' ) );
	}
}
