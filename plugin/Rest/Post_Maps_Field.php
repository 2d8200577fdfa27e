<?php
/**
 * The maps of a post as a field of core's post routes.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Blocks\Post_Maps;
use WP_Post;
use WP_REST_Posts_Controller;
use WP_REST_Request;

/**
 * The `cairn_maps` REST field: the same `maps` list as `GET /cairn/v1/posts/<id>/maps`, on every
 * post type shown in REST that uses the editor (`/wp/v2/posts/<id>?_fields=cairn_maps`).
 *
 * Core reads it only for posts the request may read; a password-protected post gives no maps
 * unless the request carries its password, as core's `content` does.
 *
 * @since 0.2.0
 */
class Post_Maps_Field {

	/**
	 * The REST field on core's post routes.
	 */
	public const FIELD = 'cairn_maps';

	/**
	 * The map blocks of posts.
	 *
	 * @var Post_Maps
	 */
	private Post_Maps $post_maps;

	/**
	 * Creates the field.
	 *
	 * @param Post_Maps $post_maps The map blocks of posts.
	 */
	public function __construct( Post_Maps $post_maps ) {
		$this->post_maps = $post_maps;
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'rest_api_init', array( $this, 'register_field' ) );
	}

	/**
	 * Registers the `cairn_maps` field on every post type shown in REST that uses the editor.
	 *
	 * @since 0.2.0
	 */
	public function register_field(): void {
		$types = array();
		foreach ( get_post_types( array( 'show_in_rest' => true ), 'objects' ) as $type ) {
			if ( post_type_supports( $type->name, 'editor' ) && $type->get_rest_controller() instanceof WP_REST_Posts_Controller ) {
				$types[] = $type->name;
			}
		}
		if ( array() === $types ) {
			return;
		}
		register_rest_field(
			$types,
			self::FIELD,
			array(
				'get_callback'    => array( $this, 'get_field' ),
				'update_callback' => null,
				'schema'          => array_merge(
					Post_Maps_Schema::maps_schema(),
					array(
						'description' => __( 'The Cairn maps of the post, in document order: what a headless front end needs to render them. Empty for a password-protected post without its password.', 'cairn-maps' ),
						'context'     => array( 'view', 'edit' ),
						'readonly'    => true,
					)
				),
			)
		);
	}

	/**
	 * The `cairn_maps` field of a post. Core calls it only when the field is requested (`_fields`)
	 * and only for posts the request may read.
	 *
	 * @since 0.2.0
	 *
	 * @param mixed  $data    The post's response data (an array from core).
	 * @param string $field   Field name.
	 * @param mixed  $request The request (a WP_REST_Request from core).
	 * @return array<int, array<string, mixed>>
	 */
	public function get_field( $data, $field, $request ): array {
		$post = get_post( is_array( $data ) && isset( $data['id'] ) && is_int( $data['id'] ) ? $data['id'] : 0 );
		if ( ! $post instanceof WP_Post || ! $request instanceof WP_REST_Request ) {
			return array();
		}
		$controller = get_post_type_object( $post->post_type )?->get_rest_controller();
		if ( '' !== $post->post_password && ! ( $controller instanceof WP_REST_Posts_Controller && $controller->can_access_password_content( $post, $request ) ) ) {
			return array();
		}
		return $this->post_maps->maps( $post );
	}
}
