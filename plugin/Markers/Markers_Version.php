<?php
/**
 * A token that changes whenever the published marker data changes.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Support\Post_Version_Token;
use WP_Post;

/**
 * The "markers version": the basis of the feed's ETag and of its cache keys.
 *
 * It is a random token in an autoloaded option, replaced at once whenever something the feed shows
 * may have changed: a published marker saved, published, unpublished, trashed or deleted; its
 * coordinates, shape or groups changed; a group created, renamed or deleted, or its looks (colour, icon)
 * changed. Changes to drafts do not touch it, so editing never invalidates the public caches. An
 * import changes it once, in a batch() (see Version_Token).
 *
 * Code that changes markers behind WordPress' back (direct SQL) can call
 * `do_action( 'cairn_maps_markers_changed' )`.
 *
 * @since 0.1.0
 */
class Markers_Version extends Post_Version_Token {

	public const OPTION = 'cairn_maps_markers_version';

	/**
	 * Statuses whose markers the feed shows.
	 */
	private const VISIBLE = array( 'publish' );

	/**
	 * The meta keys of a marker's place: its coordinates, its shape and the shape's derived copy.
	 */
	private const PLACE_META_KEYS = array( Post_Type::META_LAT, Post_Type::META_LNG, Shape_Store::META_GEOMETRY, Shape_Store::META_SHAPE );

	/**
	 * The term meta keys of a group's looks (Groups\Group_Styles::META_KEYS, given by Plugin).
	 *
	 * @var string[]
	 */
	private array $group_meta_keys;

	/**
	 * Creates the version.
	 *
	 * @since 0.4.0
	 *
	 * @param string[] $group_meta_keys The term meta keys of a group's looks (colour, icon), whose
	 *                                  changes maps receive; none when only reading the version.
	 */
	public function __construct( array $group_meta_keys = array() ) {
		$this->group_meta_keys = $group_meta_keys;
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		$this->add_post_hooks();
		add_action( 'created_' . Post_Type::TAXONOMY, array( $this, 'bump' ), 10, 0 );
		add_action( 'edited_' . Post_Type::TAXONOMY, array( $this, 'bump' ), 10, 0 );
		add_action( 'delete_' . Post_Type::TAXONOMY, array( $this, 'bump' ), 10, 0 );
		add_action( 'added_term_meta', array( $this, 'on_term_meta_change' ), 10, 3 );
		add_action( 'updated_term_meta', array( $this, 'on_term_meta_change' ), 10, 3 );
		add_action( 'deleted_term_meta', array( $this, 'on_term_meta_change' ), 10, 3 );
		add_action( 'cairn_maps_markers_changed', array( $this, 'bump' ), 10, 0 );
	}

	/**
	 * The option holding the token.
	 */
	protected function option(): string {
		return self::OPTION;
	}

	/**
	 * A marker entered or left the published state, or a published marker was saved.
	 *
	 * @param string $new_status New status.
	 * @param string $old_status Old status.
	 * @param mixed  $post       The post (core passes a WP_Post; anything else is ignored).
	 */
	public function on_transition( $new_status, $old_status, $post ): void {
		if ( $post instanceof WP_Post && Post_Type::POST_TYPE === $post->post_type
			&& ( in_array( $new_status, self::VISIBLE, true ) || in_array( $old_status, self::VISIBLE, true ) ) ) {
			$this->bump();
		}
	}

	/**
	 * A published marker was deleted without passing through the trash.
	 *
	 * @param int          $post_id Post id.
	 * @param WP_Post|null $post    The deleted post.
	 */
	public function on_deleted_post( $post_id, $post = null ): void {
		if ( $post instanceof WP_Post && Post_Type::POST_TYPE === $post->post_type && in_array( $post->post_status, self::VISIBLE, true ) ) {
			$this->bump();
		}
	}

	/**
	 * Coordinates or the shape of a published marker changed.
	 *
	 * @param int|int[] $meta_id   Meta id(s).
	 * @param int       $object_id Post id.
	 * @param string    $meta_key  Meta key.
	 */
	public function on_meta_change( $meta_id, $object_id, $meta_key ): void {
		if ( in_array( $meta_key, self::PLACE_META_KEYS, true ) && $this->is_visible_marker( (int) $object_id ) ) {
			$this->bump();
		}
	}

	/**
	 * Groups of a published marker changed.
	 *
	 * @param int               $object_id  Post id.
	 * @param array<int|string> $terms      Terms given (ids or slugs).
	 * @param int[]             $tt_ids     New term taxonomy ids.
	 * @param string            $taxonomy   Taxonomy.
	 * @param bool              $append     Whether terms were appended.
	 * @param int[]             $old_tt_ids Previous term taxonomy ids.
	 */
	public function on_set_object_terms( $object_id, $terms, $tt_ids, $taxonomy, $append, $old_tt_ids ): void {
		if ( Post_Type::TAXONOMY !== $taxonomy || ! $this->is_visible_marker( (int) $object_id ) ) {
			return;
		}
		if ( self::terms_changed( $tt_ids, $old_tt_ids ) ) {
			$this->bump();
		}
	}

	/**
	 * The looks (colour, icon) of a group changed: maps receive them with their configuration.
	 *
	 * @param int|int[] $meta_id   Meta id(s).
	 * @param int       $object_id Term id.
	 * @param string    $meta_key  Meta key.
	 */
	public function on_term_meta_change( $meta_id, $object_id, $meta_key ): void {
		if ( ! in_array( $meta_key, $this->group_meta_keys, true ) ) {
			return;
		}
		$term = get_term( (int) $object_id );
		if ( $term instanceof \WP_Term && Post_Type::TAXONOMY === $term->taxonomy ) {
			$this->bump();
		}
	}

	/**
	 * Whether a post is a marker the feed shows.
	 *
	 * @param int $post_id Post id.
	 */
	private function is_visible_marker( int $post_id ): bool {
		$post = get_post( $post_id );
		return $post instanceof WP_Post && Post_Type::POST_TYPE === $post->post_type && in_array( $post->post_status, self::VISIBLE, true );
	}
}
