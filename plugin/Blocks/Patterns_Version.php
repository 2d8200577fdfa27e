<?php
/**
 * A token that changes whenever a synced pattern changes.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Support\Version_Token;
use WP_Post;

/**
 * The "patterns version": part of the ETag of `/cairn/v1/posts/<id>/maps`, whose maps may come
 * from synced patterns (`wp_block` posts) that change without the post changing.
 *
 * A Version_Token (an autoloaded option, read before `init` at the cost of no query), replaced
 * whenever a `wp_block` post is saved, changes status or is deleted. Patterns change rarely, so
 * one version for all of them is enough.
 *
 * @since 0.2.0
 */
class Patterns_Version extends Version_Token {

	public const OPTION = 'cairn_maps_patterns_version';

	/**
	 * The post type of synced patterns.
	 */
	private const PATTERN_TYPE = 'wp_block';

	/**
	 * Wires hooks.
	 *
	 * @since 0.2.0
	 */
	public function add_hooks(): void {
		// Fires on every save (wp_insert_post, wp_update_post, trash, restore), whatever the status.
		add_action( 'transition_post_status', array( $this, 'on_transition' ), 10, 3 );
		add_action( 'deleted_post', array( $this, 'on_deleted_post' ), 10, 2 );
	}

	/**
	 * The option holding the token.
	 *
	 * @since 0.2.0
	 */
	protected function option(): string {
		return self::OPTION;
	}

	/**
	 * A pattern was saved.
	 *
	 * @since 0.2.0
	 *
	 * @param string $new_status New status.
	 * @param string $old_status Old status.
	 * @param mixed  $post       The post (core passes a WP_Post; anything else is ignored).
	 */
	public function on_transition( $new_status, $old_status, $post ): void {
		if ( $post instanceof WP_Post && self::PATTERN_TYPE === $post->post_type ) {
			$this->bump();
		}
	}

	/**
	 * A pattern was deleted.
	 *
	 * @since 0.2.0
	 *
	 * @param int          $post_id Post id.
	 * @param WP_Post|null $post    The deleted post.
	 */
	public function on_deleted_post( $post_id, $post = null ): void {
		if ( $post instanceof WP_Post && self::PATTERN_TYPE === $post->post_type ) {
			$this->bump();
		}
	}
}
