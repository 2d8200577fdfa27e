<?php
/**
 * One marker's popup details.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Feed\Geojson_Feed;
use Cairn\Maps\Markers\Marker_Repository;
use Cairn\Maps\Markers\Post_Type;
use WP_Error;
use WP_Post;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

/**
 * `GET /cairn/v1/markers/<id>`: what a marker's popup shows (title, sanitised content, link,
 * coordinates, groups), for published, unprotected markers only.
 *
 * @since 0.2.0
 */
class Marker_Popup {

	/**
	 * Marker reads.
	 *
	 * @var Marker_Repository
	 */
	private Marker_Repository $repository;

	/**
	 * Creates the route.
	 *
	 * @param Marker_Repository $repository Marker reads.
	 */
	public function __construct( Marker_Repository $repository ) {
		$this->repository = $repository;
	}

	/**
	 * Registers the route (on `rest_api_init`, by Markers_Controller, right after the feed's).
	 */
	public function register_route(): void {
		register_rest_route(
			Markers_Controller::REST_NAMESPACE,
			'/markers/(?P<id>\d+)',
			array(
				'methods'             => WP_REST_Server::READABLE,
				'callback'            => array( $this, 'get_item' ),
				// Public: answers only for published, unprotected markers.
				'permission_callback' => '__return_true',
				'args'                => array(
					'id' => array(
						'description' => __( 'Marker id.', 'cairn-maps' ),
						'type'        => 'integer',
						'minimum'     => 1,
					),
				),
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
		if ( ! $post instanceof WP_Post || Post_Type::POST_TYPE !== $post->post_type || 'publish' !== $post->post_status || '' !== $post->post_password ) {
			return new WP_Error( 'cairn_marker_not_found', __( 'No published marker has this id.', 'cairn-maps' ), array( 'status' => 404 ) );
		}
		$groups = $this->repository->groups_of( array( $post->ID ) );
		$link   = is_post_type_viewable( $post->post_type ) ? (string) get_permalink( $post ) : '';
		return new WP_REST_Response(
			array(
				'id'      => $post->ID,
				// Capped as the feed caps it: the popup's title is the same text as the list's.
				'title'   => Geojson_Feed::plain_title( get_the_title( $post ), Geojson_Feed::TITLE_MAX ),
				'content' => wp_kses_post( (string) apply_filters( 'the_content', $post->post_content ) ), // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- core's filter.
				'link'    => $link,
				'lng'     => (float) get_post_meta( $post->ID, Post_Type::META_LNG, true ),
				'lat'     => (float) get_post_meta( $post->ID, Post_Type::META_LAT, true ),
				'groups'  => $groups[ $post->ID ] ?? array(),
			)
		);
	}
}
