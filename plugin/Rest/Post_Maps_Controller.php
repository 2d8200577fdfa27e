<?php
/**
 * The maps of a post, for headless front ends.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Blocks\Feed_Url;
use Cairn\Maps\Blocks\Patterns_Version;
use Cairn\Maps\Blocks\Post_Maps;
use Cairn\Maps\Content\Places_Version;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Support\Rest_Routes;
use WP_Error;
use WP_Post;
use WP_REST_Posts_Controller;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

/**
 * `GET /cairn/v1/posts/<id>/maps`: the route, its answer and its ETag, and the early 304.
 *
 * Readable exactly when core's `/wp/v2/<type>/<id>` is: the permission check is the post type's
 * own REST controller's, with the same id, password and the view context. A password-protected
 * post gives no maps unless the request carries its password, as core's `content` does.
 *
 * Answers carry a strong ETag made of cheap inputs only (the post row, the markers, patterns and
 * plugin versions, the token, the REST URL), so that an anonymous conditional request for a
 * published post can get its `304` before `init`, like the marker feed's (not_modified_early()).
 * Anonymous answers are publicly cacheable with the feed's Cache-Control.
 *
 * The same maps are the `cairn_maps` field of core's post routes (Post_Maps_Field); the JSON
 * schemas of both are Post_Maps_Schema's.
 *
 * @since 0.2.0
 */
class Post_Maps_Controller {

	/**
	 * The REST field on core's post routes (registered by Post_Maps_Field).
	 */
	public const FIELD = Post_Maps_Field::FIELD;

	/**
	 * Option: post types whose published posts anyone may read through core's rules, remembered
	 * when the REST API starts so that the early 304 (before post types are registered) knows them.
	 */
	public const EARLY_POST_TYPES_OPTION = 'cairn_maps_early_post_types';

	/**
	 * The route's pattern, under the plugin's namespace.
	 */
	private const ROUTE = '/posts/(?P<id>\d+)/maps';

	/**
	 * The map blocks of posts.
	 *
	 * @var Post_Maps
	 */
	private Post_Maps $post_maps;

	/**
	 * Settings (the token is part of the ETag).
	 *
	 * @var Settings
	 */
	private Settings $settings;

	/**
	 * Markers version (group looks are in the configuration).
	 *
	 * @var Markers_Version
	 */
	private Markers_Version $markers_version;

	/**
	 * Synced patterns version.
	 *
	 * @var Patterns_Version
	 */
	private Patterns_Version $patterns_version;

	/**
	 * Version of the posts' places that maps of posts show.
	 *
	 * @var Places_Version|null
	 */
	private ?Places_Version $content_version;

	/**
	 * Creates the controller.
	 *
	 * @since 0.2.0
	 *
	 * @param Post_Maps           $post_maps        The map blocks of posts.
	 * @param Settings            $settings         Settings.
	 * @param Markers_Version     $markers_version  Markers version.
	 * @param Patterns_Version    $patterns_version Synced patterns version.
	 * @param Places_Version|null $content_version  Posts' places version (since 0.3.0).
	 */
	public function __construct( Post_Maps $post_maps, Settings $settings, Markers_Version $markers_version, Patterns_Version $patterns_version, ?Places_Version $content_version = null ) {
		$this->content_version  = $content_version;
		$this->post_maps        = $post_maps;
		$this->settings         = $settings;
		$this->markers_version  = $markers_version;
		$this->patterns_version = $patterns_version;
	}

	/**
	 * Wires hooks.
	 *
	 * @since 0.2.0
	 */
	public function add_hooks(): void {
		add_action( 'rest_api_init', array( $this, 'register_routes' ) );
		add_action( 'rest_api_init', array( $this, 'remember_early_post_types' ) );
		// Last on after_setup_theme, as the feed's: every filter is in place, `init` has not run.
		add_action( 'after_setup_theme', array( $this, 'not_modified_early' ), PHP_INT_MAX );
	}

	/**
	 * Registers the route.
	 *
	 * @since 0.2.0
	 */
	public function register_routes(): void {
		register_rest_route(
			Rest_Routes::NAMESPACE,
			self::ROUTE,
			array(
				array(
					'methods'             => WP_REST_Server::READABLE,
					'callback'            => array( $this, 'get_item' ),
					// The post type's own REST controller decides, as for /wp/v2/<type>/<id>.
					'permission_callback' => array( $this, 'get_item_permissions_check' ),
					'args'                => array(
						'id'       => array(
							'description' => __( 'Unique identifier for the post.', 'cairn-maps' ),
							'type'        => 'integer',
						),
						'password' => array(
							'description' => __( 'The password for the post if it is password protected.', 'cairn-maps' ),
							'type'        => 'string',
						),
					),
				),
				// A route option (beside the endpoints), which is what OPTIONS requests show.
				'schema' => array( Post_Maps_Schema::class, 'get_item_schema' ),
			)
		);
	}

	/**
	 * Whether the request may read the post: the answer of its post type's REST controller to the
	 * same request for `/wp/v2/<type>/<id>` (401/403/404 with core's codes).
	 *
	 * @since 0.2.0
	 *
	 * @param WP_REST_Request $request The request.
	 * @return bool|WP_Error
	 */
	public function get_item_permissions_check( WP_REST_Request $request ) {
		$target = $this->target( $request );
		if ( $target instanceof WP_Error ) {
			return $target;
		}
		return $target['controller']->get_item_permissions_check( $target['request'] );
	}

	/**
	 * The maps of the post.
	 *
	 * @since 0.2.0
	 *
	 * @param WP_REST_Request $request The request.
	 * @return WP_REST_Response|WP_Error
	 */
	public function get_item( WP_REST_Request $request ) {
		$target = $this->target( $request );
		if ( $target instanceof WP_Error ) {
			return $target;
		}
		$post    = $target['post'];
		$shown   = '' === $post->post_password || $target['controller']->can_access_password_content( $post, $target['request'] );
		$etag    = $this->etag( $post, $shown );
		$headers = array(
			'ETag'          => $etag,
			// A protected post's maps are for those who know the password: never kept by shared caches.
			'Cache-Control' => Cache_Headers::cache_control( is_user_logged_in() || ( '' !== $post->post_password && $shown ) ),
		);
		// Bodiless answers hold an empty array, not null: core's `_fields` filter needs an array.
		if ( Cache_Headers::etag_matches( $request->get_header( 'If-None-Match' ), $etag ) ) {
			return new WP_REST_Response( array(), 304, $headers );
		}
		if ( 'HEAD' === $request->get_method() ) {
			return new WP_REST_Response( array(), 200, $headers );
		}
		return new WP_REST_Response(
			array(
				'post'     => $post->ID,
				'modified' => self::modified( $post ),
				'maps'     => $shown ? $this->post_maps->maps( $post ) : array(),
			),
			200,
			$headers
		);
	}

	/**
	 * The ETag of a post's maps: a hash of what they are made of, all of it cheap to read before
	 * `init` (one post row, autoloaded options): the post (id, type, status, modification time,
	 * content, whether it is protected and whether the maps are shown), the markers version (group
	 * looks are in the configuration), the synced patterns version, the token maps use, the consent
	 * policy, the site's basemap and style hosts, the REST URL (the site's address, scheme and
	 * permalinks are in the marker URLs), the site's locale (`config.units` follows it), the plugin
	 * version and the built block.json's time (its defaults).
	 *
	 * @since 0.2.0
	 *
	 * @param WP_Post $post  The post.
	 * @param bool    $shown Whether the answer carries the maps (false: protected, no password).
	 */
	public function etag( WP_Post $post, bool $shown ): string {
		$token = $this->settings->map_token();
		$block = CAIRN_MAPS_DIR . 'build/blocks/map/block.json';
		$parts = array(
			CAIRN_MAPS_VERSION,
			(string) ( is_file( $block ) ? filemtime( $block ) : 0 ),
			(string) $post->ID,
			$post->post_type,
			$post->post_status,
			$post->post_modified_gmt,
			// Two saves within a second share a modification time; the content tells them apart.
			hash( 'sha256', $post->post_content ),
			'' === $post->post_password ? 'open' : ( $shown ? 'shown' : 'protected' ),
			$this->markers_version->get(),
			$this->patterns_version->get(),
			$token['token'],
			$token['error'],
			// config.consent: the owner's setting, its category, whether the consent API is there.
			(string) wp_json_encode( $this->post_maps->consent_policy() ),
			// config.style, engine and basemap: the site's basemap (owner's choice, or automatic).
			$this->post_maps->basemap_version(),
			Feed_Url::base(),
			// The config's units (Map_Block::units()); get_locale() is the same before `init`.
			get_locale(),
			// Maps of posts: their feed URL, legend and first page of places follow the posts' places.
			null === $this->content_version ? '' : $this->content_version->get(),
		);
		return '"' . substr( hash( 'sha256', implode( "\n", $parts ) ), 0, 32 ) . '"';
	}

	/**
	 * Answers an anonymous conditional request for the maps of a published post whose ETag still
	 * matches with `304` before `init`, as the marker feed does. See early_not_modified_headers().
	 *
	 * @since 0.2.0
	 */
	public function not_modified_early(): void {
		Early_Not_Modified::answer( array( $this, 'early_not_modified_headers' ) );
	}

	/**
	 * The headers of an early 304 for this request, or null when it must go on to the REST server:
	 * it is not a GET or HEAD of this route without any parameter, it carries credentials (an auth
	 * cookie, an Authorization header, a nonce), a plugin adds REST authentication rules, the
	 * post is not a published post without password of a type whose published posts anyone may
	 * read, or the ETag does not match.
	 *
	 * @since 0.2.0
	 *
	 * @param array<string, mixed> $server  Request server variables (unslashed).
	 * @param array<string, mixed> $query   Query parameters (unslashed).
	 * @param array<string, mixed> $cookies Cookies.
	 * @return array<string, string>|null
	 */
	public function early_not_modified_headers( array $server, array $query, array $cookies ): ?array {
		$match = Early_Not_Modified::anonymous_condition( $server, $cookies );
		// Any parameter (a password, _fields, …) leaves the request to the REST server.
		if ( null === $match || array() !== array_diff( array_map( 'strval', array_keys( $query ) ), array( 'rest_route' ) ) ) {
			return null;
		}
		$route = Early_Not_Modified::route( $server, $query );
		if ( null === $route || 1 !== preg_match( '#^/' . Rest_Routes::NAMESPACE . '/posts/([1-9][0-9]{0,18})/maps$#', $route, $id ) || ! Early_Not_Modified::allowed( $route ) ) {
			return null;
		}
		$post  = get_post( (int) $id[1] );
		$types = get_option( self::EARLY_POST_TYPES_OPTION, array() );
		if ( ! $post instanceof WP_Post || 'publish' !== $post->post_status || '' !== $post->post_password
			|| ! is_array( $types ) || ! in_array( $post->post_type, $types, true ) ) {
			return null;
		}
		$etag = $this->etag( $post, true );
		if ( ! Cache_Headers::etag_matches( $match, $etag ) ) {
			return null;
		}
		// An Origin is no credential: the answer carries the same CORS headers as the REST route's.
		return Cors::with_public_headers(
			array(
				'Content-Type'  => 'application/json; charset=' . get_option( 'blog_charset' ),
				'ETag'          => $etag,
				'Cache-Control' => Cache_Headers::cache_control( false ),
			),
			(string) ( $server['HTTP_ORIGIN'] ?? '' )
		);
	}

	/**
	 * Remembers the post types whose published, unprotected posts anyone may read through core's
	 * own rules (shown in REST, viewable, a posts controller that does not change the read checks):
	 * the early 304 runs before post types are registered and answers only for those.
	 *
	 * @since 0.2.0
	 */
	public function remember_early_post_types(): void {
		$types = array();
		foreach ( get_post_types( array( 'show_in_rest' => true ), 'objects' ) as $type ) {
			$controller = $type->get_rest_controller();
			if ( $controller instanceof WP_REST_Posts_Controller && is_post_type_viewable( $type )
				&& WP_REST_Posts_Controller::class === ( new \ReflectionMethod( $controller, 'get_item_permissions_check' ) )->getDeclaringClass()->getName()
				&& WP_REST_Posts_Controller::class === ( new \ReflectionMethod( $controller, 'check_read_permission' ) )->getDeclaringClass()->getName() ) {
				$types[] = $type->name;
			}
		}
		sort( $types );
		if ( get_option( self::EARLY_POST_TYPES_OPTION ) !== $types ) {
			update_option( self::EARLY_POST_TYPES_OPTION, $types, true );
		}
	}

	/**
	 * The post, its type's REST controller and the request core's `/wp/v2/<type>/<id>` would get,
	 * or core's 404 when there is no such post readable over REST.
	 *
	 * @param WP_REST_Request $request The request.
	 * @return array{post: WP_Post, controller: WP_REST_Posts_Controller, request: WP_REST_Request}|WP_Error
	 */
	private function target( WP_REST_Request $request ) {
		$id         = (int) $request['id'];
		$post       = $id > 0 ? get_post( $id ) : null;
		$type       = $post instanceof WP_Post ? get_post_type_object( $post->post_type ) : null;
		$controller = $type && $type->show_in_rest ? $type->get_rest_controller() : null;
		if ( ! $post instanceof WP_Post || ! $controller instanceof WP_REST_Posts_Controller ) {
			return new WP_Error( 'rest_post_invalid_id', __( 'Invalid post ID.', 'cairn-maps' ), array( 'status' => 404 ) );
		}
		$core = new WP_REST_Request( 'GET', rest_get_route_for_post( $post ) );
		$core->set_url_params( array( 'id' => $post->ID ) );
		$params = array( 'context' => 'view' );
		$query  = $request->get_query_params();
		// Only a string: the route's schema answers anything else with a 400, but core checks the
		// permission again for that answer's Allow header (rest_send_allow_header()), where an
		// array would reach core's hash_equals() and end in a 500.
		if ( isset( $query['password'] ) && is_string( $query['password'] ) ) {
			$params['password'] = $query['password'];
		}
		$core->set_query_params( $params );
		return array(
			'post'       => $post,
			'controller' => $controller,
			'request'    => $core,
		);
	}

	/**
	 * The post's modification time in UTC, ISO 8601 with `Z`.
	 *
	 * @param WP_Post $post The post.
	 */
	private static function modified( WP_Post $post ): string {
		$gmt = '0000-00-00 00:00:00' === $post->post_modified_gmt ? get_gmt_from_date( $post->post_modified ) : $post->post_modified_gmt;
		return str_replace( ' ', 'T', $gmt ) . 'Z';
	}
}
