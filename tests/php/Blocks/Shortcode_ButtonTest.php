<?php
/**
 * The classic editor's "Add map" button.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Blocks\Map_Block;
use Cairn\Maps\Blocks\Post_Maps;
use Cairn\Maps\Blocks\Shortcode_Button;
use Cairn\Maps\Plugin;
use Cairn\Maps\Tests\TestCase;

/**
 * `media_buttons` prints "Add map" and its dialog for people who may write posts: the published
 * patterns that hold a map, titles escaped; or, without one, a link to make one.
 *
 * @since 0.8.0
 */
final class Shortcode_ButtonTest extends TestCase {

	/**
	 * The plugin's button.
	 */
	private static function button(): Shortcode_Button {
		$button = Plugin::instance()->get( 'shortcode_button' );
		self::assertInstanceOf( Shortcode_Button::class, $button );
		return $button;
	}

	/**
	 * What `media_buttons` prints on a page with these editors (a fresh button: a new request).
	 *
	 * @param string ...$editor_ids The editors' ids.
	 */
	private static function media_buttons( string ...$editor_ids ): string {
		$block = Plugin::instance()->get( 'map_block' );
		self::assertInstanceOf( Map_Block::class, $block );
		$button = new Shortcode_Button( new Post_Maps( $block ) );
		ob_start();
		foreach ( $editor_ids as $editor_id ) {
			$button->render_button( $editor_id );
		}
		// The footer, after the post's form.
		$button->print_dialog();
		$button->print_dialog();
		return (string) ob_get_clean();
	}

	/**
	 * A pattern.
	 *
	 * @param string $title   Title.
	 * @param string $content Content.
	 * @param string $status  Status.
	 */
	private static function pattern( string $title, string $content, string $status = 'publish' ): int {
		$id = wp_insert_post(
			array(
				'post_type'    => 'wp_block',
				'post_status'  => $status,
				'post_title'   => $title,
				'post_content' => $content,
			),
			true
		);
		self::assertIsInt( $id );
		return $id;
	}

	/**
	 * The radio buttons of the dialog: value => label text.
	 *
	 * @param string $html The dialog.
	 * @return array<int, string>
	 */
	private static function choices( string $html ): array {
		preg_match_all( '#<label><input type="radio" name="cairn-maps-pattern" value="(\d+)"(?: checked)?> (.*?) <span#', $html, $found, PREG_SET_ORDER );
		$choices = array();
		foreach ( $found as $match ) {
			$choices[ (int) $match[1] ] = html_entity_decode( $match[2], ENT_QUOTES, 'UTF-8' );
		}
		return $choices;
	}

	/**
	 * Hooked by name, after "Add Media".
	 */
	public function test_the_button_is_hooked_to_media_buttons(): void {
		$this->assertSame( 20, has_action( 'media_buttons', array( self::button(), 'render_button' ) ) );
		$this->assertSame( 10, has_action( 'admin_footer', array( self::button(), 'print_dialog' ) ) );
		$this->assertSame( 10, has_action( 'wp_footer', array( self::button(), 'print_dialog' ) ) );
	}

	/**
	 * An author sees the button, once per editor, and one dialog listing the published patterns
	 * with a map (by title, escaped), its first chosen; the script is enqueued.
	 */
	public function test_an_author_chooses_among_the_patterns_with_a_map(): void {
		// Whoever may write any HTML may write a pattern's title with markup.
		$this->act_as( 'administrator' );
		$hostile  = self::pattern( 'Harbour <img src=x onerror="alert(1)">', '<!-- wp:group --><div class="wp-block-group"><!-- wp:cairn/map {"zoom":4} /--></div><!-- /wp:group -->' );
		$walks    = self::pattern( 'Alpine walks', '<!-- wp:cairn/map /-->' );
		$untitled = self::pattern( '', '<!-- wp:cairn/map /-->' );
		self::pattern( 'Draft map', '<!-- wp:cairn/map /-->', 'draft' );
		self::pattern( 'Only words', '<!-- wp:paragraph --><p>About wp:cairn/map blocks</p><!-- /wp:paragraph -->' );
		wp_insert_post(
			array(
				'post_type'     => 'wp_block',
				'post_status'   => 'publish',
				'post_title'    => 'Protected map',
				'post_content'  => '<!-- wp:cairn/map /-->',
				'post_password' => 'secret',
			)
		);
		$this->act_as( 'author' );

		$html = self::media_buttons( 'content', 'excerpt' );

		$this->assertStringContainsString( '<button type="button" class="button cairn-maps-add-map-button" data-editor="content" aria-haspopup="dialog" aria-controls="cairn-maps-add-map">', $html );
		$this->assertStringContainsString( 'data-editor="excerpt"', $html );
		$this->assertStringContainsString( '</span> Add map</button>', $html );
		$this->assertSame( 2, substr_count( $html, 'cairn-maps-add-map-button' ) );
		$this->assertSame( 1, substr_count( $html, '<dialog ' ), 'one dialog for the page' );
		$this->assertStringNotContainsString( '<form', $html, 'no form inside the post form' );
		$this->assertStringNotContainsString( 'type="submit"', $html );
		$this->assertGreaterThan( strrpos( $html, 'cairn-maps-add-map-button' ), strpos( $html, '<dialog ' ), 'the dialog comes after the buttons' );
		$dialog = substr( $html, (int) strpos( $html, '<dialog ' ) );
		$this->assertSame(
			array(
				$untitled => '(no title)',
				$walks    => 'Alpine walks',
				$hostile  => 'Harbour <img src=x onerror="alert(1)">',
			),
			self::choices( $dialog )
		);
		$this->assertStringNotContainsString( '<img', $dialog, 'titles are text' );
		$this->assertStringContainsString( 'value="' . $untitled . '" checked>', $dialog );
		$this->assertStringContainsString( '<button type="button" class="button button-primary" data-cairn-close="insert">Insert map</button>', $dialog );
		$this->assertTrue( wp_script_is( Shortcode_Button::SCRIPT, 'enqueued' ) );
		$this->assertContains( 'media-upload', wp_scripts()->registered[ Shortcode_Button::SCRIPT ]->deps, 'send_to_editor() is there' );
	}

	/**
	 * Without a pattern holding a map, the dialog says so and links to a new pattern.
	 */
	public function test_without_a_pattern_the_dialog_says_what_to_do(): void {
		self::pattern( 'Only words', '<!-- wp:paragraph --><p>Hello</p><!-- /wp:paragraph -->' );
		$this->act_as( 'editor' );

		$html = self::media_buttons( 'content' );

		$this->assertSame( array(), self::choices( $html ) );
		$this->assertStringContainsString( 'No published pattern holds a Cairn map yet.', $html );
		$this->assertStringContainsString( '<a href="' . esc_url( admin_url( 'post-new.php?post_type=wp_block' ) ) . '">Create a pattern</a>', $html );
		$this->assertStringNotContainsString( 'Insert map', $html );
	}

	/**
	 * People who may not write posts get nothing, and nothing is enqueued.
	 */
	public function test_subscribers_get_no_button(): void {
		wp_dequeue_script( Shortcode_Button::SCRIPT );
		self::pattern( 'Alpine walks', '<!-- wp:cairn/map /-->' );
		$this->act_as( 'subscriber' );

		$this->assertSame( '', self::media_buttons( 'content' ) );
		$this->assertFalse( wp_script_is( Shortcode_Button::SCRIPT, 'enqueued' ) );
	}
}
