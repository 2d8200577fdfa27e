<?php
/**
 * "Add map" beside "Add Media" in the classic editor.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Blocks;

defined( 'ABSPATH' ) || exit;

use WP_Post;
use WP_Query;

/**
 * In the classic editor (and any `wp_editor()` with media buttons), a button that opens a small
 * dialog listing the site's published patterns that hold a Cairn map, and inserts
 * `[cairn_map pattern="<id>"]` for the one chosen (src/classic-editor/add-map.ts, through core's
 * `send_to_editor()`, into the visual or the text editor). The dialog is a native `<dialog>`
 * rendered here, every title escaped on the server: the script only opens it and reads the
 * chosen ID. It is printed in the footer, outside the post's form. Without such a pattern the
 * dialog says so and links to a new pattern.
 *
 * @since 0.8.0
 */
class Shortcode_Button {

	/**
	 * The script's handle.
	 */
	public const SCRIPT = 'cairn-maps-add-map';

	/**
	 * The dialog's id.
	 */
	public const DIALOG_ID = 'cairn-maps-add-map';

	/**
	 * Most patterns listed.
	 */
	public const MAX_PATTERNS = 100;

	/**
	 * Finds the maps of a pattern.
	 *
	 * @var Post_Maps
	 */
	private Post_Maps $post_maps;

	/**
	 * Whether a button was printed and its dialog is still to print (one for every editor of the
	 * page).
	 *
	 * @var bool
	 */
	private bool $dialog_due = false;

	/**
	 * Creates the button.
	 *
	 * @param Post_Maps $post_maps Finds the maps of a pattern.
	 */
	public function __construct( Post_Maps $post_maps ) {
		$this->post_maps = $post_maps;
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		// After "Add Media" (priority 10).
		add_action( 'media_buttons', array( $this, 'render_button' ), 20 );
		// After the editor's form: a dialog inside the post form would be part of it.
		add_action( 'admin_footer', array( $this, 'print_dialog' ) );
		add_action( 'wp_footer', array( $this, 'print_dialog' ) );
	}

	/**
	 * Prints the button for an editor, for people who may write posts (the dialog follows in the
	 * footer).
	 *
	 * @param mixed $editor_id The editor's id (`content` on the post screen).
	 */
	public function render_button( $editor_id = 'content' ): void {
		if ( ! current_user_can( 'edit_posts' ) || ! $this->enqueue() ) {
			return;
		}
		$editor_id = is_string( $editor_id ) && '' !== $editor_id ? $editor_id : 'content';
		printf(
			'<button type="button" class="button cairn-maps-add-map-button" data-editor="%1$s" aria-haspopup="dialog" aria-controls="%2$s"><span class="dashicons dashicons-location-alt" aria-hidden="true"></span> %3$s</button>',
			esc_attr( $editor_id ),
			esc_attr( self::DIALOG_ID ),
			esc_html__( 'Add map', 'cairn-maps' )
		);
		$this->dialog_due = true;
	}

	/**
	 * Prints the dialog, once, when a button was printed.
	 */
	public function print_dialog(): void {
		if ( $this->dialog_due ) {
			$this->dialog_due = false;
			echo $this->dialog(); // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- escaped as it is built.
		}
	}

	/**
	 * The dialog: the patterns to choose from, or what to do without one.
	 */
	public function dialog(): string {
		$patterns = $this->patterns();
		$html     = sprintf(
			'<dialog id="%1$s" class="cairn-maps-add-map" aria-labelledby="%1$s-title"><h2 id="%1$s-title">%2$s</h2>',
			esc_attr( self::DIALOG_ID ),
			esc_html__( 'Add a map', 'cairn-maps' )
		);
		if ( array() === $patterns ) {
			$html .= sprintf(
				'<p>%1$s</p><p><a href="%2$s">%3$s</a></p><div class="cairn-maps-add-map__actions"><button type="button" class="button" data-cairn-close="cancel">%4$s</button></div>',
				esc_html__( 'No published pattern holds a Cairn map yet. Compose a map in the block editor as a synced pattern, publish it, and add it here.', 'cairn-maps' ),
				esc_url( admin_url( 'post-new.php?post_type=wp_block' ) ),
				esc_html__( 'Create a pattern', 'cairn-maps' ),
				esc_html__( 'Close', 'cairn-maps' )
			);
			return $html . '</dialog>';
		}
		$html .= sprintf(
			'<p id="%1$s-help">%2$s</p><fieldset aria-describedby="%1$s-help"><legend>%3$s</legend>',
			esc_attr( self::DIALOG_ID ),
			esc_html__( 'The post shows the pattern as it is when the post is viewed: later changes to the pattern show too.', 'cairn-maps' ),
			esc_html__( 'Patterns with a map', 'cairn-maps' )
		);
		foreach ( $patterns as $index => $pattern ) {
			$title = '' !== trim( $pattern->post_title ) ? $pattern->post_title : __( '(no title)', 'cairn-maps' );
			$html .= sprintf(
				'<label><input type="radio" name="cairn-maps-pattern" value="%1$d"%2$s> %3$s <span class="cairn-maps-add-map__id">%4$s</span></label>',
				$pattern->ID,
				0 === $index ? ' checked' : '',
				esc_html( $title ),
				/* translators: %d: the pattern's ID. */
				esc_html( sprintf( __( '(ID %d)', 'cairn-maps' ), $pattern->ID ) )
			);
		}
		$html .= sprintf(
			'</fieldset><div class="cairn-maps-add-map__actions"><button type="button" class="button button-primary" data-cairn-close="insert">%1$s</button> <button type="button" class="button" data-cairn-close="cancel">%2$s</button></div>',
			esc_html__( 'Insert map', 'cairn-maps' ),
			esc_html__( 'Cancel', 'cairn-maps' )
		);
		return $html . '</dialog>';
	}

	/**
	 * The published patterns without a password that hold a map block (at most MAX_PATTERNS, by
	 * title): those the shortcode shows. A pattern whose map is only inside another pattern it
	 * refers to is not found by the search, though the shortcode shows it.
	 *
	 * @return WP_Post[]
	 */
	public function patterns(): array {
		$query    = new WP_Query(
			array(
				'post_type'              => 'wp_block',
				'post_status'            => 'publish',
				'has_password'           => false,
				's'                      => 'wp:cairn/map',
				'search_columns'         => array( 'post_content' ),
				'orderby'                => 'title',
				'order'                  => 'ASC',
				'posts_per_page'         => self::MAX_PATTERNS, // phpcs:ignore WordPress.WP.PostsPerPage.posts_per_page_posts_per_page -- a bounded list, only in the classic editor.
				'no_found_rows'          => true,
				'ignore_sticky_posts'    => true,
				'update_post_term_cache' => false,
			)
		);
		$patterns = array();
		foreach ( (array) $query->posts as $post ) {
			// The search also finds the words in a paragraph: keep patterns with a map block.
			if ( $post instanceof WP_Post && array() !== $this->post_maps->blocks( $post ) ) {
				$patterns[] = $post;
			}
		}
		return $patterns;
	}

	/**
	 * Loads the dialog's script and styles; false when they are not built.
	 */
	private function enqueue(): bool {
		$asset_file = CAIRN_MAPS_DIR . 'build/classic-editor/add-map.asset.php';
		if ( ! is_readable( $asset_file ) ) {
			return false;
		}
		$asset = require $asset_file;
		// send_to_editor() is core's media-upload script's.
		wp_enqueue_script( self::SCRIPT, plugins_url( 'build/classic-editor/add-map.js', CAIRN_MAPS_FILE ), array_merge( $asset['dependencies'], array( 'media-upload' ) ), $asset['version'], true );
		if ( is_readable( CAIRN_MAPS_DIR . 'build/classic-editor/add-map.css' ) ) {
			wp_enqueue_style( self::SCRIPT, plugins_url( 'build/classic-editor/add-map.css', CAIRN_MAPS_FILE ), array(), $asset['version'] );
		}
		return true;
	}
}
