<?php
/**
 * The marker post type, its coordinates and its groups.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Support\Limits;

/**
 * Registers `cairn_marker`, the `cairn_lat` / `cairn_lng` meta and the `cairn_marker_group` taxonomy.
 *
 * @since 0.1.0
 */
class Post_Type {

	public const POST_TYPE = 'cairn_marker';
	public const TAXONOMY  = 'cairn_marker_group';
	public const META_LAT  = 'cairn_lat';
	public const META_LNG  = 'cairn_lng';

	/**
	 * The address meta of markers and located posts (Content registers it).
	 *
	 * @since 0.7.0
	 */
	public const META_ADDRESS = 'geo_address';

	/**
	 * Every meta key that says where a marker is: hidden together whenever its place is hidden.
	 *
	 * @since 0.7.0
	 */
	public const PLACE_KEYS = array( self::META_LAT, self::META_LNG, Shape_Store::META_GEOMETRY, self::META_ADDRESS );

	/**
	 * The markers' primitive capabilities (`capability_type` cairn_marker / cairn_markers), each
	 * with the post capability a user needs for it unless a role or the user says otherwise.
	 */
	public const CAPABILITIES = array(
		'edit_cairn_markers'             => 'edit_posts',
		'edit_others_cairn_markers'      => 'edit_others_posts',
		'edit_private_cairn_markers'     => 'edit_private_posts',
		'edit_published_cairn_markers'   => 'edit_published_posts',
		'publish_cairn_markers'          => 'publish_posts',
		'read_private_cairn_markers'     => 'read_private_posts',
		'delete_cairn_markers'           => 'delete_posts',
		'delete_others_cairn_markers'    => 'delete_others_posts',
		'delete_private_cairn_markers'   => 'delete_private_posts',
		'delete_published_cairn_markers' => 'delete_published_posts',
	);

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'init', array( $this, 'register' ) );
		add_filter( 'user_has_cap', array( $this, 'grant_marker_capabilities' ), 10, 1 );
		add_filter( 'rest_prepare_' . self::POST_TYPE, array( $this, 'null_missing_coordinates' ), 10, 2 );
		add_filter( 'rest_prepare_' . self::POST_TYPE, array( $this, 'hide_protected_coordinates' ), 10, 3 );
	}

	/**
	 * Registers the post type, the meta and the taxonomy.
	 */
	public function register(): void {
		register_post_type(
			self::POST_TYPE,
			array(
				'labels'          => array(
					'name'               => _x( 'Markers', 'post type general name', 'cairn-maps' ),
					'singular_name'      => _x( 'Marker', 'post type singular name', 'cairn-maps' ),
					'add_new_item'       => __( 'Add New Marker', 'cairn-maps' ),
					'edit_item'          => __( 'Edit Marker', 'cairn-maps' ),
					'new_item'           => __( 'New Marker', 'cairn-maps' ),
					'view_item'          => __( 'View Marker', 'cairn-maps' ),
					'search_items'       => __( 'Search Markers', 'cairn-maps' ),
					'not_found'          => __( 'No markers found.', 'cairn-maps' ),
					'not_found_in_trash' => __( 'No markers found in Trash.', 'cairn-maps' ),
					'all_items'          => __( 'All Markers', 'cairn-maps' ),
					'menu_name'          => _x( 'Map Markers', 'admin menu', 'cairn-maps' ),
				),
				'public'          => false,
				'show_ui'         => true,
				'show_in_menu'    => true,
				'menu_icon'       => 'dashicons-location',
				'show_in_rest'    => true,
				'rest_base'       => 'cairn-markers',
				// Capabilities of their own, so that an owner can let authors write posts without
				// letting them put places on every map; see grant_marker_capabilities().
				'capability_type' => array( 'cairn_marker', 'cairn_markers' ),
				'map_meta_cap'    => true,
				'supports'        => array( 'title', 'editor', 'excerpt', 'thumbnail', 'custom-fields', 'revisions', 'author' ),
				'taxonomies'      => array( self::TAXONOMY ),
			)
		);

		foreach ( array(
			// Markers may sit at any real latitude; the map's ±85.0511 limit applies to the camera only.
			self::META_LAT => array( Limits::get( 'markerLatitude.min' ), Limits::get( 'markerLatitude.max' ), __( 'Latitude in degrees.', 'cairn-maps' ) ),
			self::META_LNG => array( Limits::get( 'longitude.min' ), Limits::get( 'longitude.max' ), __( 'Longitude in degrees.', 'cairn-maps' ) ),
		) as $key => list( $min, $max, $description ) ) {
			register_post_meta(
				self::POST_TYPE,
				$key,
				Coordinate_Rule::meta_args( $description, $min, $max, array( $this, 'sanitize_coordinate' ), array( $this, 'can_edit_marker' ) )
			);
		}

		register_taxonomy(
			self::TAXONOMY,
			self::POST_TYPE,
			array(
				'labels'            => array(
					'name'          => _x( 'Marker groups', 'taxonomy general name', 'cairn-maps' ),
					'singular_name' => _x( 'Marker group', 'taxonomy singular name', 'cairn-maps' ),
					'search_items'  => __( 'Search Marker Groups', 'cairn-maps' ),
					'all_items'     => __( 'All Marker Groups', 'cairn-maps' ),
					'edit_item'     => __( 'Edit Marker Group', 'cairn-maps' ),
					'add_new_item'  => __( 'Add New Marker Group', 'cairn-maps' ),
					'menu_name'     => __( 'Groups', 'cairn-maps' ),
				),
				'public'            => false,
				'show_ui'           => true,
				'show_admin_column' => true,
				'show_in_rest'      => true,
				'rest_base'         => 'cairn-marker-groups',
				'hierarchical'      => false,
				// Managing groups stays with category managers; putting a marker in a group is part
				// of writing markers (core's default would be writing posts).
				'capabilities'      => array(
					'manage_terms' => 'manage_categories',
					'edit_terms'   => 'manage_categories',
					'delete_terms' => 'manage_categories',
					'assign_terms' => 'edit_cairn_markers',
				),
			)
		);
	}

	/**
	 * Gives each user the marker capabilities that match the post capabilities they hold, unless a
	 * role or the user itself grants or denies a marker capability explicitly.
	 *
	 * So today's roles keep today's rights (an author publishes markers as they publish posts)
	 * without writing to the stored roles — nothing to install, upgrade or undo, the same on every
	 * site of a network — and a role editor changes them by setting a marker capability on a role:
	 * `publish_cairn_markers` denied to authors keeps them writing posts but not publishing places.
	 *
	 * @param mixed $allcaps The user's capabilities (from the roles and the user): an array of
	 *                       booleans by capability, unless another filter broke it.
	 * @return mixed The capabilities, with the marker ones added when they are an array.
	 */
	public function grant_marker_capabilities( $allcaps ) {
		if ( ! is_array( $allcaps ) ) {
			return $allcaps;
		}
		foreach ( self::CAPABILITIES as $marker_cap => $post_cap ) {
			if ( ! array_key_exists( $marker_cap, $allcaps ) ) {
				$allcaps[ $marker_cap ] = ! empty( $allcaps[ $post_cap ] );
			}
		}
		return $allcaps;
	}

	/**
	 * Stores coordinates as plain decimal text with at most 7 decimals (about 1 cm), never in
	 * exponent notation, so SQL can compare them as numbers.
	 *
	 * REST writes are validated before this runs (Marker_Validation). Other ways in (PHP, WP-CLI)
	 * cannot be refused here: an invalid value is stored empty, and the feed skips the marker
	 * rather than placing it at 0,0.
	 *
	 * @param mixed  $value    Submitted value.
	 * @param string $meta_key `cairn_lat` or `cairn_lng`.
	 * @return string The coordinate, or '' when invalid.
	 */
	public function sanitize_coordinate( $value, $meta_key = self::META_LAT ): string {
		$key    = self::META_LNG === $meta_key ? self::META_LNG : self::META_LAT;
		$number = Marker_Validation::coordinate( $key, $value );
		return is_wp_error( $number ) ? '' : self::format_coordinate( $number );
	}

	/**
	 * A coordinate as decimal text: up to 7 decimals, no trailing zeros, no exponent.
	 *
	 * @param float $degrees Degrees.
	 */
	public static function format_coordinate( float $degrees ): string {
		$text = rtrim( rtrim( number_format( $degrees, 7, '.', '' ), '0' ), '.' );
		return '-0' === $text ? '0' : $text;
	}

	/**
	 * In REST answers, a coordinate that is not stored reads `null`, not core's empty value 0
	 * (which would be a real place off the coast of Africa).
	 *
	 * @param mixed $response The response (a WP_REST_Response, unless another filter replaced it).
	 * @param mixed $post     The marker (a WP_Post from core).
	 * @return mixed The response, changed only when it is a WP_REST_Response.
	 */
	public function null_missing_coordinates( $response, $post ) {
		if ( ! $response instanceof \WP_REST_Response || ! $post instanceof \WP_Post ) {
			return $response;
		}
		$data = $response->get_data();
		if ( ! is_array( $data ) || ! isset( $data['meta'] ) || ! is_array( $data['meta'] ) ) {
			return $response;
		}
		foreach ( array( self::META_LAT, self::META_LNG ) as $key ) {
			if ( array_key_exists( $key, $data['meta'] ) && '' === (string) get_post_meta( $post->ID, $key, true ) ) {
				$data['meta'][ $key ] = null;
			}
		}
		$response->set_data( $data );
		return $response;
	}

	/**
	 * In core's REST answers, a password-protected marker's place (PLACE_KEYS: coordinates, shape
	 * and street address) is hidden exactly when core hides its content: the place is what the
	 * password protects, and the plugin's own feed and popups leave such markers out. Each key
	 * reads `null`, as for a marker without a place.
	 *
	 * Shown with the right `password` parameter, in the edit context to users who may edit the
	 * marker, and to a visitor whose browser holds the marker's password cookie.
	 *
	 * @param mixed $response The response (a WP_REST_Response, unless another filter replaced it).
	 * @param mixed $post     The marker (a WP_Post from core).
	 * @param mixed $request  The request (a WP_REST_Request from core, or null).
	 * @return mixed The response, changed only when it is a WP_REST_Response.
	 */
	public function hide_protected_coordinates( $response, $post, $request = null ) {
		if ( ! $response instanceof \WP_REST_Response || ! $post instanceof \WP_Post || '' === (string) $post->post_password ) {
			return $response;
		}
		$type       = get_post_type_object( self::POST_TYPE );
		$controller = $type ? $type->get_rest_controller() : null;
		if ( $request instanceof \WP_REST_Request && $controller instanceof \WP_REST_Posts_Controller && $controller->can_access_password_content( $post, $request ) ) {
			return $response;
		}
		if ( ! post_password_required( $post ) ) {
			return $response;
		}
		return self::hide_place( $response, self::PLACE_KEYS, false );
	}

	/**
	 * The one way a place leaves a REST answer, for markers and located posts alike: every key of
	 * the place in `meta` goes together, so no part of it (an address) outlives the rest.
	 *
	 * @since 0.7.0
	 *
	 * @param \WP_REST_Response $response The answer.
	 * @param string[]          $keys     The place's meta keys.
	 * @param bool              $remove   Remove the keys (true) or make them read null (false).
	 * @return \WP_REST_Response The same answer.
	 */
	public static function hide_place( \WP_REST_Response $response, array $keys, bool $remove ): \WP_REST_Response {
		$data = $response->get_data();
		if ( ! is_array( $data ) || ! isset( $data['meta'] ) || ! is_array( $data['meta'] ) ) {
			return $response;
		}
		foreach ( $keys as $key ) {
			if ( ! array_key_exists( $key, $data['meta'] ) ) {
				continue;
			}
			if ( $remove ) {
				unset( $data['meta'][ $key ] );
			} else {
				$data['meta'][ $key ] = null;
			}
		}
		$response->set_data( $data );
		return $response;
	}

	/**
	 * Coordinates follow the marker's own edit capability.
	 *
	 * @param bool   $allowed  Whether allowed so far.
	 * @param string $meta_key Meta key.
	 * @param int    $post_id  Marker id.
	 * @param int    $user_id  User id.
	 */
	public function can_edit_marker( $allowed, $meta_key, $post_id, $user_id ): bool {
		return user_can( $user_id, 'edit_post', $post_id );
	}
}
