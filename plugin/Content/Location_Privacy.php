<?php
/**
 * When a post's location may reach a visitor.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Content;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Post_Type;
use WP_Post;
use WP_REST_Response;

/**
 * One rule for every way out (feeds, popups, lists, core's REST): a post's location is public
 * only when the post is published without a password, its type is enabled, both coordinates are
 * stored and valid, and `geo_public` is true. In core's `/wp/v2/<type>` answers the `geo_*` meta
 * of any other post is removed for readers who cannot edit it; its editors still see and change it.
 *
 * @since 0.3.0
 */
class Location_Privacy {

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		// After Location_Meta registered the meta on the enabled types (init, 20).
		add_action( 'init', array( $this, 'hook_enabled_types' ), 30 );
	}

	/**
	 * Filters core's answers for each enabled post type.
	 */
	public function hook_enabled_types(): void {
		foreach ( Location_Types::enabled() as $type ) {
			add_filter( 'rest_prepare_' . $type, array( $this, 'hide_private_location' ), 10, 2 );
			add_filter( 'rest_prepare_' . $type, array( $this, 'null_missing_coordinates' ), 11, 2 );
		}
	}

	/**
	 * Whether a post's location may be shown to anyone who can read the post.
	 *
	 * @param WP_Post $post The post.
	 */
	public static function is_public( WP_Post $post ): bool {
		// One rule for every reader: the feed's, which the popup and the block use too.
		return null !== Post_Places_Repository::public_place( $post );
	}

	/**
	 * In REST answers, a coordinate that is not stored (or not valid) reads `null`, not core's
	 * empty value 0, which would be a real place off the coast of Africa.
	 *
	 * @param mixed $response The response (a WP_REST_Response, unless another filter replaced it).
	 * @param mixed $post     The post (a WP_Post from core).
	 * @return mixed The response, changed only when it is a WP_REST_Response.
	 */
	public function null_missing_coordinates( $response, $post ) {
		if ( ! $response instanceof WP_REST_Response || ! $post instanceof WP_Post ) {
			return $response;
		}
		$data = $response->get_data();
		if ( ! is_array( $data ) || ! isset( $data['meta'] ) || ! is_array( $data['meta'] ) ) {
			return $response;
		}
		foreach ( array( Location_Types::META_LAT, Location_Types::META_LNG ) as $key ) {
			if ( array_key_exists( $key, $data['meta'] ) && is_wp_error( Location_Meta::coordinate( $key, get_post_meta( $post->ID, $key, true ) ) ) ) {
				$data['meta'][ $key ] = null;
			}
		}
		$response->set_data( $data );
		return $response;
	}

	/**
	 * Removes `meta.geo_*` from an answer about a post whose location is not public, unless the
	 * reader may edit the post.
	 *
	 * @param mixed $response The response (a WP_REST_Response, unless another filter replaced it).
	 * @param mixed $post     The post (a WP_Post from core).
	 * @return mixed The response, changed only when it is a WP_REST_Response.
	 */
	public function hide_private_location( $response, $post ) {
		if ( ! $response instanceof WP_REST_Response || ! $post instanceof WP_Post ) {
			return $response;
		}
		if ( current_user_can( 'edit_post', $post->ID ) || self::is_public( $post ) ) {
			return $response;
		}
		// The markers' rule (Post_Type::hide_place()): the address goes with the coordinates.
		return Post_Type::hide_place( $response, Location_Meta::KEYS, true );
	}
}
