<?php
/**
 * The marker post type, its coordinates and its groups.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

use Cairn\Maps\Limits;

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
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'init', array( $this, 'register' ) );
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
				'capability_type' => 'post',
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
				array(
					'type'              => 'number',
					'description'       => $description,
					'single'            => true,
					'show_in_rest'      => array(
						'schema' => array(
							'type'    => 'number',
							'minimum' => $min,
							'maximum' => $max,
						),
					),
					'sanitize_callback' => array( $this, 'sanitize_coordinate' ),
					'auth_callback'     => array( $this, 'can_edit_marker' ),
				)
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
			)
		);
	}

	/**
	 * Stores coordinates as plain decimal numbers.
	 *
	 * @param mixed $value Submitted value, already validated by the REST schema.
	 * @return float The coordinate.
	 */
	public function sanitize_coordinate( $value ): float {
		return is_numeric( $value ) ? (float) $value : 0.0;
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
