<?php
/**
 * The public GeoJSON marker feed.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

use Cairn\Maps\Markers\Marker_Repository;
use Cairn\Maps\Markers\Post_Type;
use WP_Error;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

/**
 * `GET /cairn/v1/markers` and `GET /cairn/v1/markers/<id>`.
 *
 * @since 0.1.0
 */
class Markers_Controller {

	public const REST_NAMESPACE = 'cairn/v1';

	/**
	 * Marker reads.
	 *
	 * @var Marker_Repository
	 */
	private Marker_Repository $repository;

	/**
	 * Creates the controller.
	 *
	 * @param Marker_Repository|null $repository Marker reads.
	 */
	public function __construct( ?Marker_Repository $repository = null ) {
		$this->repository = $repository ?? new Marker_Repository();
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'rest_api_init', array( $this, 'register_routes' ) );
	}

	/**
	 * Registers the routes.
	 */
	public function register_routes(): void {
		register_rest_route(
			self::REST_NAMESPACE,
			'/markers',
			array(
				'methods'             => WP_REST_Server::READABLE,
				'callback'            => array( $this, 'get_items' ),
				// Public: only published markers are served, the same data the pages show.
				'permission_callback' => '__return_true',
				'args'                => array(
					'group'   => array(
						'description'       => __( 'Comma-separated marker group slugs.', 'cairn-maps' ),
						'type'              => 'string',
						'validate_callback' => array( $this, 'validate_slugs' ),
					),
					'include' => array(
						'description'       => __( 'Comma-separated marker ids.', 'cairn-maps' ),
						'type'              => 'string',
						'validate_callback' => array( $this, 'validate_ids' ),
					),
				),
			)
		);
		register_rest_route(
			self::REST_NAMESPACE,
			'/markers/(?P<id>\d+)',
			array(
				'methods'             => WP_REST_Server::READABLE,
				'callback'            => array( $this, 'get_item' ),
				// Public: answers only for published markers.
				'permission_callback' => '__return_true',
				'args'                => array(
					'id' => array(
						'type'    => 'integer',
						'minimum' => 1,
					),
				),
			)
		);
	}

	/**
	 * Validates a comma-separated slug list.
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public function validate_slugs( $value ) {
		if ( ! is_string( $value ) || 1 !== preg_match( '/^[a-z0-9_-]+(,[a-z0-9_-]+)*$/', $value ) ) {
			return new WP_Error( 'rest_invalid_param', __( 'group must be a comma-separated list of marker group slugs.', 'cairn-maps' ), array( 'status' => 400 ) );
		}
		return true;
	}

	/**
	 * Validates a comma-separated id list.
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public function validate_ids( $value ) {
		if ( ! is_string( $value ) || 1 !== preg_match( '/^[1-9][0-9]{0,18}(,[1-9][0-9]{0,18})*$/', $value ) ) {
			return new WP_Error( 'rest_invalid_param', __( 'include must be a comma-separated list of marker ids.', 'cairn-maps' ), array( 'status' => 400 ) );
		}
		return true;
	}

	/**
	 * The feed as a GeoJSON FeatureCollection.
	 *
	 * @param WP_REST_Request $request The request.
	 */
	public function get_items( WP_REST_Request $request ): WP_REST_Response {
		$filters  = array(
			'groups' => $request['group'] ? explode( ',', (string) $request['group'] ) : array(),
			'ids'    => $request['include'] ? array_map( 'intval', explode( ',', (string) $request['include'] ) ) : array(),
		);
		$features = array();
		foreach ( $this->repository->each( $filters ) as $marker ) {
			$features[] = array(
				'type'       => 'Feature',
				'id'         => $marker['id'],
				'geometry'   => array(
					'type'        => 'Point',
					'coordinates' => array( round( $marker['lng'], 6 ), round( $marker['lat'], 6 ) ),
				),
				'properties' => array(
					'title' => wp_strip_all_tags( $marker['title'] ),
				),
			);
		}
		return new WP_REST_Response(
			array(
				'type'     => 'FeatureCollection',
				'features' => $features,
			)
		);
	}

	/**
	 * One published marker, for its popup.
	 *
	 * @param WP_REST_Request $request The request.
	 * @return WP_REST_Response|WP_Error
	 */
	public function get_item( WP_REST_Request $request ) {
		$post = get_post( (int) $request['id'] );
		if ( ! $post || Post_Type::POST_TYPE !== $post->post_type || 'publish' !== $post->post_status || post_password_required( $post ) ) {
			return new WP_Error( 'cairn_marker_not_found', __( 'No published marker has this id.', 'cairn-maps' ), array( 'status' => 404 ) );
		}
		$groups = wp_get_post_terms( $post->ID, Post_Type::TAXONOMY, array( 'fields' => 'slugs' ) );
		return new WP_REST_Response(
			array(
				'id'      => $post->ID,
				'title'   => wp_strip_all_tags( get_the_title( $post ) ),
				'content' => wp_kses_post( apply_filters( 'the_content', $post->post_content ) ),
				'link'    => get_permalink( $post ),
				'lng'     => (float) get_post_meta( $post->ID, Post_Type::META_LNG, true ),
				'lat'     => (float) get_post_meta( $post->ID, Post_Type::META_LAT, true ),
				'groups'  => is_array( $groups ) ? $groups : array(),
			)
		);
	}
}
