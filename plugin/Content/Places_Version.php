<?php
/**
 * A token that changes whenever a post's public place may have changed.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Content;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Support\Post_Version_Token;
use WP_Post;

/**
 * The "places version": the basis of the posts feed's ETag and cache keys, as the markers version
 * is the markers feed's. Kept apart from it, so that a post saved keeps every markers feed's 304s
 * valid, and a marker saved every posts feed's.
 *
 * It is replaced at once whenever something a posts feed could show may have changed: a post of
 * an enabled type with a place saved while published or published, any post of an enabled type
 * unpublished, trashed or deleted while published; its geo_*
 * meta or featured image added, changed or removed; an attachment deleted (it may be a featured
 * image: core then removes its `_thumbnail_id` rows without naming the posts); its terms changed; a term of a taxonomy of an
 * enabled type renamed or deleted; the setting `cairn_maps_post_types` changed. Drafts, and
 * published posts without any geo_* value, do not touch it (a blog's posts without places are
 * saved without rebuilding the posts feeds). Leaving `publish` always does: whatever the post
 * showed must go at once.
 *
 * Code that writes places behind WordPress' back (direct SQL) can call
 * `do_action( 'cairn_maps_places_changed' )`.
 *
 * @since 0.3.0
 */
class Places_Version extends Post_Version_Token {

	public const OPTION = 'cairn_maps_places_version';

	/**
	 * Post meta whose change may change a feature or a popup.
	 */
	private const META_KEYS = array(
		Location_Types::META_LAT,
		Location_Types::META_LNG,
		Location_Types::META_PUBLIC,
		'_thumbnail_id',
	);

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		$this->add_post_hooks();
		add_action( 'delete_attachment', array( $this, 'bump' ), 10, 0 );
		add_action( 'edited_term', array( $this, 'on_term_change' ), 10, 3 );
		add_action( 'delete_term', array( $this, 'on_term_change' ), 10, 3 );
		add_action( 'add_option_' . Location_Types::OPTION, array( $this, 'bump' ), 10, 0 );
		add_action( 'update_option_' . Location_Types::OPTION, array( $this, 'bump' ), 10, 0 );
		add_action( 'delete_option_' . Location_Types::OPTION, array( $this, 'bump' ), 10, 0 );
		add_action( 'cairn_maps_places_changed', array( $this, 'bump' ), 10, 0 );
	}

	/**
	 * The option holding the token.
	 */
	protected function option(): string {
		return self::OPTION;
	}

	/**
	 * A post of an enabled type entered or left the published state, or was saved while published.
	 *
	 * @param string $new_status New status.
	 * @param string $old_status Old status.
	 * @param mixed  $post       The post (core passes a WP_Post; anything else is ignored).
	 */
	public function on_transition( $new_status, $old_status, $post ): void {
		if ( ! $post instanceof WP_Post || ( 'publish' !== $new_status && 'publish' !== $old_status ) || ! Location_Types::is_enabled( $post->post_type ) ) {
			return;
		}
		// Staying or becoming published: only a post with a place can change a feed (a place
		// removed in the same save bumped when its meta was deleted, the post then published).
		if ( 'publish' !== $new_status || self::has_place_meta( $post->ID ) ) {
			$this->bump();
		}
	}

	/**
	 * Whether a post holds any geo_* value that makes a place (coordinates or visibility).
	 *
	 * @param int $post_id Post id.
	 */
	private static function has_place_meta( int $post_id ): bool {
		foreach ( array( Location_Types::META_LAT, Location_Types::META_LNG, Location_Types::META_PUBLIC ) as $key ) {
			$value = get_post_meta( $post_id, $key, true );
			if ( '' !== $value && null !== $value && false !== $value ) {
				return true;
			}
		}
		return false;
	}

	/**
	 * A published post of an enabled type was deleted without passing through the trash.
	 *
	 * @param int          $post_id Post id.
	 * @param WP_Post|null $post    The deleted post.
	 */
	public function on_deleted_post( $post_id, $post = null ): void {
		if ( $post instanceof WP_Post && 'publish' === $post->post_status && Location_Types::is_enabled( $post->post_type ) ) {
			$this->bump();
		}
	}

	/**
	 * The place, its visibility or the featured image of a published post changed.
	 *
	 * @param int|int[] $meta_id   Meta id(s).
	 * @param int       $object_id Post id.
	 * @param string    $meta_key  Meta key.
	 */
	public function on_meta_change( $meta_id, $object_id, $meta_key ): void {
		if ( in_array( $meta_key, self::META_KEYS, true ) && $this->is_published_place( (int) $object_id ) ) {
			$this->bump();
		}
	}

	/**
	 * The terms of a published post with a place changed (any taxonomy: `terms` may name tags too).
	 *
	 * @param int               $object_id  Post id.
	 * @param array<int|string> $terms      Terms given (ids or slugs).
	 * @param int[]             $tt_ids     New term taxonomy ids.
	 * @param string            $taxonomy   Taxonomy.
	 * @param bool              $append     Whether terms were appended.
	 * @param int[]             $old_tt_ids Previous term taxonomy ids.
	 */
	public function on_set_object_terms( $object_id, $terms, $tt_ids, $taxonomy, $append, $old_tt_ids ): void {
		if ( self::terms_changed( $tt_ids, $old_tt_ids ) && $this->is_published_place( (int) $object_id ) && self::has_place_meta( (int) $object_id ) ) {
			$this->bump();
		}
	}

	/**
	 * A term was renamed (its slug is in the feed) or deleted, in a taxonomy of an enabled type.
	 *
	 * @param int    $term_id  Term id.
	 * @param int    $tt_id    Term taxonomy id.
	 * @param string $taxonomy Taxonomy.
	 */
	public function on_term_change( $term_id, $tt_id, $taxonomy ): void {
		foreach ( Location_Types::enabled() as $type ) {
			if ( is_object_in_taxonomy( $type, (string) $taxonomy ) ) {
				$this->bump();
				return;
			}
		}
	}

	/**
	 * Whether a post is published and of an enabled type (whether its place is public is not
	 * asked: making it public or not is a change too).
	 *
	 * @param int $post_id Post id.
	 */
	private function is_published_place( int $post_id ): bool {
		$post = get_post( $post_id );
		return $post instanceof WP_Post && 'publish' === $post->post_status && Location_Types::is_enabled( $post->post_type );
	}
}
