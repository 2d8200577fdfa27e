<?php
/**
 * A token that changes whenever the posts' places that maps show may have changed.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Location_Types;
use Cairn\Maps\Version_Token;
use WP_Post;

/**
 * Part of the ETag of `GET /cairn/v1/posts/<id>/maps`: a map of posts carries its posts' first
 * page of places, its legend (term names) and, for "this post", a feed URL only when the post's
 * place is public. Renewed when a post of a type enabled for locations enters or leaves the
 * published state or is saved while published, when its geodata (`geo_*`) or terms change, when
 * a term is created, renamed or deleted, and when the enabled types change.
 *
 * @since 0.3.0
 */
class Content_Places_Version extends Version_Token {

	public const OPTION = 'cairn_maps_content_places_version';

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'transition_post_status', array( $this, 'on_transition' ), 10, 3 );
		add_action( 'deleted_post', array( $this, 'on_deleted_post' ), 10, 2 );
		add_action( 'added_post_meta', array( $this, 'on_meta_change' ), 10, 3 );
		add_action( 'updated_post_meta', array( $this, 'on_meta_change' ), 10, 3 );
		add_action( 'deleted_post_meta', array( $this, 'on_meta_change' ), 10, 3 );
		add_action( 'set_object_terms', array( $this, 'on_set_object_terms' ), 10, 1 );
		add_action( 'created_term', array( $this, 'bump' ), 10, 0 );
		add_action( 'edited_term', array( $this, 'bump' ), 10, 0 );
		add_action( 'delete_term', array( $this, 'bump' ), 10, 0 );
		add_action( 'add_option_' . Location_Types::OPTION, array( $this, 'bump' ), 10, 0 );
		add_action( 'update_option_' . Location_Types::OPTION, array( $this, 'bump' ), 10, 0 );
		add_action( 'cairn_maps_content_places_changed', array( $this, 'bump' ), 10, 0 );
	}

	/**
	 * The option holding the token.
	 */
	protected function option(): string {
		return self::OPTION;
	}

	/**
	 * Whether posts of a type may be on maps (the stored setting, read raw: cheap, and right even
	 * while the type is not registered yet).
	 *
	 * @param string $type Post type.
	 */
	private static function may_have_places( string $type ): bool {
		$stored = get_option( Location_Types::OPTION, Location_Types::DEFAULT_TYPES );
		return is_array( $stored ) && in_array( $type, $stored, true );
	}

	/**
	 * Whether a post has (or had, up to this save) a place: posts without one are on no map.
	 *
	 * @param WP_Post $post The post.
	 */
	private static function has_place( WP_Post $post ): bool {
		return self::may_have_places( $post->post_type ) && '' !== get_post_meta( $post->ID, Location_Types::META_LAT, true );
	}

	/**
	 * A post with a place entered or left the published state, or was saved while published.
	 *
	 * @param string $new_status New status.
	 * @param string $old_status Old status.
	 * @param mixed  $post       The post.
	 */
	public function on_transition( $new_status, $old_status, $post ): void {
		if ( $post instanceof WP_Post && ( 'publish' === $new_status || 'publish' === $old_status ) && self::has_place( $post ) ) {
			$this->bump();
		}
	}

	/**
	 * A post was deleted.
	 *
	 * @param int          $post_id Post id.
	 * @param WP_Post|null $post    The deleted post.
	 */
	public function on_deleted_post( $post_id, $post = null ): void {
		if ( $post instanceof WP_Post && self::has_place( $post ) ) {
			$this->bump();
		}
	}

	/**
	 * A post's geodata changed.
	 *
	 * @param mixed $meta_id  Meta id(s).
	 * @param mixed $post_id  Post id.
	 * @param mixed $meta_key Meta key.
	 */
	public function on_meta_change( $meta_id, $post_id, $meta_key ): void {
		if ( in_array( $meta_key, array( Location_Types::META_LAT, Location_Types::META_LNG, Location_Types::META_PUBLIC ), true ) ) {
			$this->bump();
		}
	}

	/**
	 * A post's terms changed.
	 *
	 * @param mixed $object_id The object.
	 */
	public function on_set_object_terms( $object_id ): void {
		$post = is_numeric( $object_id ) ? get_post( (int) $object_id ) : null;
		if ( $post instanceof WP_Post && self::has_place( $post ) ) {
			$this->bump();
		}
	}
}
