<?php
/**
 * The `cairn_geometry` meta of markers: registration, REST reads and writes.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

defined( 'ABSPATH' ) || exit;

use WP_Error;
use WP_Post;
use WP_REST_Request;

/**
 * Registers `cairn_geometry` on markers: in REST `meta.cairn_geometry` is a GeoJSON geometry
 * object (LineString, MultiLineString, Polygon, MultiPolygon) or null.
 *
 * Core's posts controller writes the post first and its meta afterwards, checking meta values only
 * then; and it cannot set to null a value stored as text. So a REST write of the shape is taken
 * out of core's hands: `rest_pre_insert_cairn_marker` (before anything is written, after the
 * permission checks) checks it with Geometry_Rule — a 400 with the rule's message, nothing saved —
 * sets `cairn_lat`/`cairn_lng` to its anchor when the request gives neither (unless the marker
 * already has this shape and a point), and removes it from the request's meta; once core has
 * written the post (`rest_insert_cairn_marker`), Shape_Store saves it, or deletes it for null.
 * Before any of that, a write whose body holds far more positions than allowed is refused
 * undecoded (refuse_oversized_body()).
 *
 * Writes by other ways (update_post_meta, WP-CLI) go through the meta's sanitize callback
 * (Shape_Store::sanitize), and `_cairn_shape` is derived again after each.
 *
 * @since 0.5.0
 */
final class Shape_Meta {

	/**
	 * Shapes checked in rest_pre_insert, waiting for the post to be written: request => geometry
	 * (null to delete).
	 *
	 * @var \WeakMap<object, array{geometry: array{type: string, coordinates: array<int, mixed>}|null}>
	 */
	private \WeakMap $pending;

	/**
	 * Creates the part.
	 */
	public function __construct() {
		$this->pending = new \WeakMap();
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'init', array( $this, 'register' ) );
		add_filter( 'rest_pre_dispatch', array( $this, 'refuse_oversized_body' ), 5, 3 );
		// Before Marker_Validation (10), which then finds the anchor's coordinates in the request.
		add_filter( 'rest_pre_insert_' . Post_Type::POST_TYPE, array( $this, 'validate_rest_write' ), 5, 2 );
		add_action( 'rest_insert_' . Post_Type::POST_TYPE, array( $this, 'save_rest_write' ), 10, 2 );
		add_action( 'added_post_meta', array( $this, 'on_geometry_written' ), 10, 4 );
		add_action( 'updated_post_meta', array( $this, 'on_geometry_written' ), 10, 4 );
		add_action( 'deleted_post_meta', array( $this, 'on_geometry_deleted' ), 10, 3 );
	}

	/**
	 * Registers the meta.
	 */
	public function register(): void {
		register_post_meta(
			Post_Type::POST_TYPE,
			Shape_Store::META_GEOMETRY,
			array(
				'type'              => 'object',
				'description'       => __( 'The marker\'s shape: a GeoJSON geometry (LineString, MultiLineString, Polygon or MultiPolygon), or null for a point.', 'cairn-maps' ),
				'single'            => true,
				'show_in_rest'      => array(
					'schema'           => array(
						'type'                 => 'object',
						'properties'           => array(
							'type'        => array(
								'type' => 'string',
								'enum' => Geometry_Rule::TYPES,
							),
							'coordinates' => array(
								'type' => 'array',
							),
						),
						'additionalProperties' => true,
					),
					'prepare_callback' => array( $this, 'prepare_for_rest' ),
				),
				'sanitize_callback' => array( Shape_Store::class, 'sanitize' ),
				'auth_callback'     => array( $this, 'can_edit_marker' ),
			)
		);
	}

	/**
	 * The stored JSON text as the geometry object, or null.
	 *
	 * @param mixed $value Stored value.
	 * @return array{type: string, coordinates: array<int, mixed>}|null
	 */
	public function prepare_for_rest( mixed $value ): ?array {
		return Shape_Store::decode_geometry( $value );
	}

	/**
	 * Refuses a marker write whose body holds far more positions than a shape may have, before
	 * core decodes it: decoding a million positions takes over 200 MB, more than PHP may have.
	 * Positions are counted in the raw JSON (each `[` followed by a number), with room for the
	 * few other lists of numbers a marker write may hold (groups), so no valid shape is refused.
	 *
	 * @param mixed $result  A response to use instead of dispatching, or null.
	 * @param mixed $server  The REST server.
	 * @param mixed $request The request (a WP_REST_Request from core).
	 * @return mixed The result, or the refusal.
	 */
	public function refuse_oversized_body( $result, $server = null, $request = null ) {
		if ( null !== $result || ! $request instanceof WP_REST_Request || ! in_array( $request->get_method(), array( 'POST', 'PUT', 'PATCH' ), true ) ) {
			return $result;
		}
		// Null when the request has no body, whatever the stubs say.
		$body = (string) $request->get_body();
		// 100,000 positions take at least 600 kB of JSON ("[1,2],"): smaller bodies are let through.
		if ( strlen( $body ) < 6 * Geometry_Rule::max_vertices() || 1 !== preg_match( '@^/wp/v2/cairn-markers(?:/\d+)?/?$@', $request->get_route() ) ) {
			return $result;
		}
		$positions = (int) preg_match_all( '/\[\s*-?[0-9.]/', $body );
		if ( $positions <= Geometry_Rule::max_vertices() + Geometry_Rule::max_parts() ) {
			return $result;
		}
		$error = Geometry_Rule::too_many_vertices( $positions );
		return new WP_Error(
			Geometry_Rule::ERROR_CODE,
			$error->get_error_message(),
			array(
				'status' => 400,
				'params' => array( 'meta' => $error->get_error_message() ),
				'field'  => Shape_Store::META_GEOMETRY,
			)
		);
	}

	/**
	 * Checks a shape in a REST write before anything is stored.
	 *
	 * @param \stdClass|WP_Error $prepared_post The post about to be written.
	 * @param mixed              $request       The request (a WP_REST_Request from core).
	 * @return \stdClass|WP_Error The unchanged post, or why the write is refused.
	 */
	public function validate_rest_write( $prepared_post, $request ) {
		if ( is_wp_error( $prepared_post ) || ! $request instanceof WP_REST_Request ) {
			return $prepared_post;
		}
		$meta = $request['meta'];
		if ( ! is_array( $meta ) || ! array_key_exists( Shape_Store::META_GEOMETRY, $meta ) ) {
			return $prepared_post;
		}
		$geometry = null;
		if ( null !== $meta[ Shape_Store::META_GEOMETRY ] ) {
			$geometry = Geometry_Rule::check( $meta[ Shape_Store::META_GEOMETRY ] );
			if ( $geometry instanceof WP_Error ) {
				return new WP_Error(
					Geometry_Rule::ERROR_CODE,
					$geometry->get_error_message(),
					array(
						'status' => 400,
						'params' => array( 'meta' => $geometry->get_error_message() ),
						'field'  => Shape_Store::META_GEOMETRY,
					)
				);
			}
			if ( ! array_key_exists( Post_Type::META_LAT, $meta ) && ! array_key_exists( Post_Type::META_LNG, $meta ) && ! self::is_stored( $prepared_post, $geometry ) ) {
				$anchor                      = Geometry_Measures::anchor( $geometry );
				$meta[ Post_Type::META_LAT ] = $anchor['lat'];
				$meta[ Post_Type::META_LNG ] = $anchor['lng'];
			}
		}
		unset( $meta[ Shape_Store::META_GEOMETRY ] );
		$request->set_param( 'meta', $meta );
		$this->pending[ $request ] = array( 'geometry' => $geometry );
		return $prepared_post;
	}

	/**
	 * Whether a marker already has this very shape and a point: then sending the shape again (an
	 * editor saving all its meta) leaves a point chosen apart from the shape where it is.
	 *
	 * @param \stdClass                                           $prepared_post The post about to be written.
	 * @param array{type: string, coordinates: array<int, mixed>} $geometry      A checked geometry.
	 */
	private static function is_stored( $prepared_post, array $geometry ): bool {
		$id = isset( $prepared_post->ID ) ? (int) $prepared_post->ID : 0;
		return $id > 0
			&& '' !== (string) get_post_meta( $id, Post_Type::META_LAT, true )
			&& '' !== (string) get_post_meta( $id, Post_Type::META_LNG, true )
			&& Shape_Store::encode( $geometry ) === get_post_meta( $id, Shape_Store::META_GEOMETRY, true );
	}

	/**
	 * Stores the shape checked by validate_rest_write(), once core has written the post.
	 *
	 * @param mixed $post    The marker (a WP_Post from core).
	 * @param mixed $request The request (a WP_REST_Request from core).
	 */
	public function save_rest_write( $post, $request ): void {
		if ( ! $post instanceof WP_Post || ! $request instanceof WP_REST_Request || ! isset( $this->pending[ $request ] ) ) {
			return;
		}
		$geometry = $this->pending[ $request ]['geometry'];
		unset( $this->pending[ $request ] );
		Shape_Store::save( $post->ID, $geometry );
	}

	/**
	 * `cairn_geometry` was written some other way than Shape_Store::save(): derive `_cairn_shape`.
	 *
	 * @param int    $meta_id    Meta id.
	 * @param int    $object_id  Post id.
	 * @param string $meta_key   Meta key.
	 * @param mixed  $meta_value The value written (sanitized: JSON text or '').
	 */
	public function on_geometry_written( $meta_id, $object_id, $meta_key, $meta_value ): void {
		if ( Shape_Store::META_GEOMETRY !== $meta_key || Shape_Store::is_saving() || Post_Type::POST_TYPE !== get_post_type( (int) $object_id ) ) {
			return;
		}
		$geometry = Shape_Store::decode_geometry( $meta_value );
		if ( null === $geometry ) {
			delete_post_meta( (int) $object_id, Shape_Store::META_SHAPE );
			return;
		}
		update_post_meta( (int) $object_id, Shape_Store::META_SHAPE, wp_slash( Shape_Store::derive( $geometry ) ) );
	}

	/**
	 * `cairn_geometry` was deleted: its derived copy goes too.
	 *
	 * @param int|int[] $meta_ids  Meta ids.
	 * @param int       $object_id Post id.
	 * @param string    $meta_key  Meta key.
	 */
	public function on_geometry_deleted( $meta_ids, $object_id, $meta_key ): void {
		if ( Shape_Store::META_GEOMETRY === $meta_key ) {
			delete_post_meta( (int) $object_id, Shape_Store::META_SHAPE );
		}
	}

	/**
	 * The shape follows the marker's own edit capability.
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
