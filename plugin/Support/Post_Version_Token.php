<?php
/**
 * A version token that follows the posts a feed shows.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Support;

defined( 'ABSPATH' ) || exit;

/**
 * The shared part of the feeds' version tokens (Markers\Markers_Version, Content\Places_Version):
 * the post hooks both follow (status transitions, deletions, meta changes, term assignments) and
 * the test whether an assignment changed a post's terms. Subclasses decide which of these changes
 * bump the token.
 *
 * @since 0.3.0
 */
abstract class Post_Version_Token extends Version_Token {

	/**
	 * Hooks the post changes a feed may show into the subclass' handlers.
	 */
	protected function add_post_hooks(): void {
		add_action( 'transition_post_status', array( $this, 'on_transition' ), 10, 3 );
		add_action( 'deleted_post', array( $this, 'on_deleted_post' ), 10, 2 );
		add_action( 'added_post_meta', array( $this, 'on_meta_change' ), 10, 3 );
		add_action( 'updated_post_meta', array( $this, 'on_meta_change' ), 10, 3 );
		add_action( 'deleted_post_meta', array( $this, 'on_meta_change' ), 10, 3 );
		add_action( 'set_object_terms', array( $this, 'on_set_object_terms' ), 10, 6 );
	}

	/**
	 * A post entered or left a status, or was saved.
	 *
	 * @param string $new_status New status.
	 * @param string $old_status Old status.
	 * @param mixed  $post       The post (core passes a WP_Post; anything else is ignored).
	 */
	abstract public function on_transition( $new_status, $old_status, $post ): void;

	/**
	 * A post was deleted without passing through the trash.
	 *
	 * @param int           $post_id Post id.
	 * @param \WP_Post|null $post    The deleted post.
	 */
	abstract public function on_deleted_post( $post_id, $post = null ): void;

	/**
	 * Post meta was added, changed or removed.
	 *
	 * @param int|int[] $meta_id   Meta id(s).
	 * @param int       $object_id Post id.
	 * @param string    $meta_key  Meta key.
	 */
	abstract public function on_meta_change( $meta_id, $object_id, $meta_key ): void;

	/**
	 * Terms were assigned to a post.
	 *
	 * @param int               $object_id  Post id.
	 * @param array<int|string> $terms      Terms given (ids or slugs).
	 * @param int[]             $tt_ids     New term taxonomy ids.
	 * @param string            $taxonomy   Taxonomy.
	 * @param bool              $append     Whether terms were appended.
	 * @param int[]             $old_tt_ids Previous term taxonomy ids.
	 */
	abstract public function on_set_object_terms( $object_id, $terms, $tt_ids, $taxonomy, $append, $old_tt_ids ): void;

	/**
	 * Whether a term assignment changed the set of a post's terms (`set_object_terms` also fires
	 * when the same terms are assigned again).
	 *
	 * @param mixed $tt_ids     New term taxonomy ids.
	 * @param mixed $old_tt_ids Previous term taxonomy ids.
	 */
	protected static function terms_changed( $tt_ids, $old_tt_ids ): bool {
		$new = array_map( 'intval', (array) $tt_ids );
		$old = array_map( 'intval', (array) $old_tt_ids );
		sort( $new );
		sort( $old );
		return $new !== $old;
	}
}
