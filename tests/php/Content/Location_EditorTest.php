<?php
/**
 * The post edit screen's "Location" panel script.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Content;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Location_Editor;
use Cairn\Maps\Content\Location_Types;
use Cairn\Maps\Plugin;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Tests\Blocks\Map_BlockTest;
use Cairn\Maps\Tests\TestCase;

/**
 * The panel loads in the block editor of enabled post types only, with the editor data and the
 * map library's addresses printed before it.
 *
 * @since 0.3.0
 */
final class Location_EditorTest extends TestCase {

	/**
	 * The script registry before the test.
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
	private function editor(): Location_Editor {
		$editor = Plugin::instance()->get( 'location_editor' );
		$this->assertInstanceOf( Location_Editor::class, $editor );
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
	 * In the post editor (posts are enabled by default): the script and what it needs before it.
	 */
	public function test_the_panel_loads_in_the_editor_of_an_enabled_type(): void {
		update_option( Settings::TOKEN_OPTION, Map_BlockTest::public_token() );
		$this->act_as( 'author' );
		$this->open_editor( 'post' );
		$this->editor()->enqueue();

		$this->assertTrue( wp_script_is( Location_Editor::SCRIPT_HANDLE, 'enqueued' ) );
		$script = wp_scripts()->registered[ Location_Editor::SCRIPT_HANDLE ];
		$this->assertStringEndsWith( 'build/locations/index.js', $script->src );
		$this->assertContains( 'wp-editor', $script->deps );
		$this->assertContains( 'wp-a11y', $script->deps );
		$before = implode( "\n", (array) wp_scripts()->get_data( Location_Editor::SCRIPT_HANDLE, 'before' ) );
		$this->assertStringContainsString( 'window.cairnMapsEditor = ', $before );
		$this->assertStringContainsString( Map_BlockTest::public_token(), $before );
		$this->assertStringContainsString( 'var cairnMapsMapboxGl = ', $before );
	}

	/**
	 * Screens without the panel.
	 *
	 * @return array<string, array{0: string}>
	 */
	public function other_screens(): array {
		return array(
			'page editor (not enabled)' => array( 'page' ),
			'marker editor'             => array( 'cairn_marker' ),
			'post list screen'          => array( 'edit-post' ),
		);
	}

	/**
	 * Not loaded where locations are not enabled, nor outside the editor.
	 *
	 * @dataProvider other_screens
	 *
	 * @param string $screen Screen id.
	 */
	public function test_the_panel_is_not_loaded_elsewhere( string $screen ): void {
		$this->act_as( 'editor' );
		$this->open_editor( $screen );
		$this->editor()->enqueue();
		$this->assertFalse( wp_script_is( Location_Editor::SCRIPT_HANDLE, 'enqueued' ) );
	}

	/**
	 * Switching posts off removes the panel from their editor.
	 */
	public function test_no_panel_once_posts_are_switched_off(): void {
		update_option( Location_Types::OPTION, array() );
		$this->act_as( 'editor' );
		$this->open_editor( 'post' );
		$this->editor()->enqueue();
		$this->assertFalse( wp_script_is( Location_Editor::SCRIPT_HANDLE, 'enqueued' ) );
	}
}
