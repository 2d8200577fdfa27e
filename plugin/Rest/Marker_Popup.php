<?php
/**
 * One marker's popup details.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Post_Places_Repository;
use Cairn\Maps\Feed\Geojson_Feed;
use Cairn\Maps\Feed\Shape_Writer;
use Cairn\Maps\Markers\Marker_Repository;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Markers\Shape_Store;
use Cairn\Maps\Support\Rest_Routes;
use WP_Error;
use WP_Post;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

/**
 * `GET /cairn/v1/markers/<id>`: what a marker's popup shows (title, sanitised content, link,
 * coordinates, groups), for published, unprotected markers only.
 *
 * Since 0.3.0 it answers for posts with a public place too (Post_Places_Repository::public_place():
 * published, no password, an enabled type, valid coordinates, `geo_public` true; 404 for anything
 * else, whoever asks), with `type`, `excerpt` (plain text, as core's get_the_excerpt() makes it,
 * capped at EXCERPT_MAX characters) and `image` (the featured image at IMAGE_SIZE:
 * `{ src, srcset, alt, width, height }`, or null when there is none or it is not an image), and
 * `content` empty (a post's popup shows its excerpt and links to the post). Its `groups` are the
 * feed's `taxonomy:slug` keys. Markers keep their shape.
 *
 * Since 0.7.0 a marker whose route has an elevation profile also gets `profile` (the shapes
 * feed's `[[distance_m, elevation_m], …]`): the shape tiles leave it out, the popup shows it.
 *
 * @since 0.2.0
 * @since 0.3.0 Posts with a public place.
 * @since 0.7.0 `profile` of a route.
 */
class Marker_Popup {

	/**
	 * Longest excerpt, in characters.
	 *
	 * @since 0.3.0
	 */
	public const EXCERPT_MAX = 300;

	/**
	 * The size of a post's image in its popup (768 px wide at most; the srcset offers the others).
	 *
	 * @since 0.3.0
	 */
	public const IMAGE_SIZE = 'medium_large';

	/**
	 * Marker reads.
	 *
	 * @var Marker_Repository
	 */
	private Marker_Repository $repository;

	/**
	 * Post place reads.
	 *
	 * @var Post_Places_Repository
	 */
	private Post_Places_Repository $places;

	/**
	 * Creates the route.
	 *
	 * @since 0.3.0 Post place reads.
	 *
	 * @param Marker_Repository           $repository Marker reads.
	 * @param Post_Places_Repository|null $places     Post place reads.
	 */
	public function __construct( Marker_Repository $repository, ?Post_Places_Repository $places = null ) {
		$this->repository = $repository;
		$this->places     = $places ?? new Post_Places_Repository();
	}

	/**
	 * Registers the route (on `rest_api_init`, by Markers_Controller, right after the feed's).
	 */
	public function register_route(): void {
		register_rest_route(
			Rest_Routes::NAMESPACE,
			'/markers/(?P<id>\d+)',
			array(
				'methods'             => WP_REST_Server::READABLE,
				'callback'            => array( $this, 'get_item' ),
				// Public: answers only for published, unprotected markers.
				'permission_callback' => '__return_true',
				'args'                => array(
					'id' => array(
						'description' => __( 'Marker id, or the id of a post with a public place.', 'cairn-maps' ),
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
		if ( $post instanceof WP_Post && Post_Type::POST_TYPE !== $post->post_type ) {
			return $this->post_item( $post );
		}
		if ( ! $post instanceof WP_Post || 'publish' !== $post->post_status || '' !== $post->post_password ) {
			return new WP_Error( 'cairn_marker_not_found', __( 'No published marker has this id.', 'cairn-maps' ), array( 'status' => 404 ) );
		}
		$groups  = $this->repository->groups_of( array( $post->ID ) );
		$link    = is_post_type_viewable( $post->post_type ) ? (string) get_permalink( $post ) : '';
		$profile = self::profile( $post->ID );
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
			) + ( null === $profile ? array() : array( 'profile' => $profile ) )
		);
	}

	/**
	 * A route's elevation profile (`[[distance_m, elevation_m], …]`, as the shapes feed has it),
	 * or null when the marker has none: the shape tiles leave it out, and its popup shows it.
	 *
	 * @since 0.7.0
	 *
	 * @param int $post_id A published marker.
	 * @return array<int, mixed>|null
	 */
	private static function profile( int $post_id ): ?array {
		$text  = get_post_meta( $post_id, Shape_Store::META_SHAPE, true );
		$shape = is_string( $text ) && '' !== $text ? Shape_Writer::parse( $text ) : null;
		return null !== $shape && is_array( $shape['measures']['profile'] ?? null ) ? array_values( $shape['measures']['profile'] ) : null;
	}

	/**
	 * A post with a public place, for its popup; 404 for any other post.
	 *
	 * @since 0.3.0
	 *
	 * @param WP_Post $post The post.
	 * @return WP_REST_Response|WP_Error
	 */
	private function post_item( WP_Post $post ) {
		$place = Post_Places_Repository::public_place( $post );
		if ( null === $place ) {
			return new WP_Error( 'cairn_marker_not_found', __( 'No published marker or post with a public place has this id.', 'cairn-maps' ), array( 'status' => 404 ) );
		}
		return new WP_REST_Response(
			array(
				'id'      => $post->ID,
				'title'   => Geojson_Feed::plain_title( get_the_title( $post ), Geojson_Feed::TITLE_MAX ),
				'content' => '',
				'link'    => is_post_type_viewable( $post->post_type ) ? (string) get_permalink( $post ) : '',
				'lng'     => $place['lng'],
				'lat'     => $place['lat'],
				'groups'  => $this->places->groups_of( $post ),
				'type'    => $post->post_type,
				'excerpt' => self::excerpt( $post ),
				'image'   => self::image( $post ),
			)
		);
	}

	/**
	 * A post's excerpt as plain text: core's (the written excerpt, else the start of the content,
	 * through `get_the_excerpt`), tags stripped, entities decoded, capped at EXCERPT_MAX characters.
	 *
	 * @since 0.3.0
	 *
	 * @param WP_Post $post A published, unprotected post.
	 */
	public static function excerpt( WP_Post $post ): string {
		$text = html_entity_decode( wp_strip_all_tags( get_the_excerpt( $post ), true ), ENT_QUOTES | ENT_HTML5, 'UTF-8' );
		$text = trim( (string) preg_replace( '/\s+/u', ' ', $text ) );
		if ( mb_strlen( $text, 'UTF-8' ) > self::EXCERPT_MAX ) {
			$text = rtrim( mb_substr( $text, 0, self::EXCERPT_MAX - 1, 'UTF-8' ) ) . '…';
		}
		return $text;
	}

	/**
	 * A post's featured image at IMAGE_SIZE, or null when it has none, or the attachment is gone or
	 * is not an image.
	 *
	 * @since 0.3.0
	 *
	 * @param WP_Post $post The post.
	 * @return array{src: string, srcset: string, alt: string, width: int, height: int}|null
	 */
	public static function image( WP_Post $post ): ?array {
		$id = (int) get_post_thumbnail_id( $post );
		if ( $id <= 0 || ! wp_attachment_is_image( $id ) ) {
			return null;
		}
		$src = wp_get_attachment_image_src( $id, self::IMAGE_SIZE );
		if ( ! is_array( $src ) || '' === $src[0] ) {
			return null;
		}
		$srcset = wp_get_attachment_image_srcset( $id, self::IMAGE_SIZE );
		$alt    = get_post_meta( $id, '_wp_attachment_image_alt', true );
		return array(
			'src'    => esc_url_raw( $src[0] ),
			'srcset' => is_string( $srcset ) ? $srcset : '',
			'alt'    => is_string( $alt ) ? trim( wp_strip_all_tags( $alt ) ) : '',
			'width'  => (int) $src[1],
			'height' => (int) $src[2],
		);
	}
}
