<?php
/**
 * The public GeoJSON marker feed.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Feed\Feed_Cache;
use Cairn\Maps\Content\Places_Version;
use Cairn\Maps\Content\Post_Places_Repository;
use Cairn\Maps\Feed\Geojson_Feed;
use Cairn\Maps\Feed\Post_Places_Feed;
use Cairn\Maps\Markers\Marker_Repository;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Support\Rest_Routes;
use WP_Error;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

/**
 * `GET /cairn/v1/markers`, the feed: its route, its conditional answers and how it is printed. It
 * also registers `GET /cairn/v1/markers/<id>`, whose answer is Marker_Popup's.
 *
 * The feed answers conditional requests before reading any marker: its strong ETag comes from the
 * markers version, so a matching `If-None-Match` costs one autoloaded option. For anonymous
 * requests that is checked as soon as the theme is set up, before `init` (post types, blocks,
 * the REST server): see not_modified_early(). Anonymous answers are publicly cacheable (CDNs,
 * browsers; see Cache_Headers); the body is served pre-encoded, gzip when accepted.
 *
 * With `post_type` it serves the posts feed instead (posts with a public place, Post_Places_Feed,
 * under the places version), by the same rules (ETag, 304, early 304, Cache-Control, CORS).
 *
 * Its parameters and their validation are Feed_Schema's. A method override never changes what a
 * real GET or HEAD of the feed gets: see Method_Override_Guard.
 *
 * @since 0.1.0
 */
class Markers_Controller {


	/**
	 * Cache-Control of anonymous feed answers (see Cache_Headers).
	 */
	public const PUBLIC_CACHE_CONTROL = Cache_Headers::PUBLIC_CACHE_CONTROL;

	/**
	 * Cache-Control of an anonymous answer that serves the previous build (see Cache_Headers).
	 */
	public const STALE_CACHE_CONTROL = Cache_Headers::STALE_CACHE_CONTROL;

	/**
	 * Query parameters the early 304 understands; any other leaves the request to the REST server.
	 */
	private const EARLY_PARAMS = array( 'rest_route', 'group', 'include', 'bbox', 'post_type', 'terms' );

	/**
	 * The feed.
	 *
	 * @var Geojson_Feed
	 */
	private Geojson_Feed $feed;

	/**
	 * The posts feed.
	 *
	 * @var Post_Places_Feed
	 */
	private Post_Places_Feed $posts_feed;

	/**
	 * The feed's parameters and answer schema.
	 *
	 * @var Feed_Schema
	 */
	private Feed_Schema $schema;

	/**
	 * The marker popup route.
	 *
	 * @var Marker_Popup
	 */
	private Marker_Popup $popup;

	/**
	 * Creates the controller.
	 *
	 * @since 0.3.0 The posts feed.
	 *
	 * @param Geojson_Feed|null      $feed       The feed.
	 * @param Marker_Repository|null $repository Marker reads.
	 * @param Post_Places_Feed|null  $posts_feed The posts feed.
	 */
	public function __construct( ?Geojson_Feed $feed = null, ?Marker_Repository $repository = null, ?Post_Places_Feed $posts_feed = null ) {
		$repository       = $repository ?? new Marker_Repository();
		$places           = new Post_Places_Repository();
		$this->feed       = $feed ?? new Geojson_Feed( $repository, new Markers_Version(), new Feed_Cache() );
		$this->posts_feed = $posts_feed ?? new Post_Places_Feed( $places, new Places_Version(), new Feed_Cache() );
		$this->schema     = new Feed_Schema();
		$this->popup      = new Marker_Popup( $repository, $places );
	}

	/**
	 * The feed that serves these filters: the posts feed when they name post types.
	 *
	 * @param array<string, mixed> $filters Filters (Feed_Schema::filters()).
	 */
	private function feed_for( array $filters ): Geojson_Feed {
		return isset( $filters['types'] ) ? $this->posts_feed : $this->feed;
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'rest_api_init', array( $this, 'register_routes' ) );
		// After the CORS headers: core's (10), then ours in Cors (11).
		add_filter( 'rest_pre_serve_request', array( $this, 'serve_feed' ), 12, 3 );
		// Last on after_setup_theme: every plugin's and the theme's filters are in place, `init`
		// has not run yet.
		add_action( 'after_setup_theme', array( $this, 'not_modified_early' ), PHP_INT_MAX );
	}

	/**
	 * Answers an anonymous conditional request for the feed whose ETag still matches with `304`,
	 * before `init`: a revalidation then costs WordPress' start-up to here and one autoloaded
	 * option, not the whole REST stack.
	 *
	 * Same answer as the REST route gives (status, ETag, Cache-Control, Vary, CORS), only sooner.
	 * Anything else goes on to the REST server as usual: see early_not_modified_headers(). Sites
	 * that must run REST hooks on every request can turn it off with the
	 * `cairn_maps_early_not_modified` filter.
	 */
	public function not_modified_early(): void {
		Early_Not_Modified::answer( array( $this, 'early_not_modified_headers' ) );
	}

	/**
	 * The headers of an early 304 for this request, or null when the request must go on to the REST
	 * server: it is not a GET or HEAD of the feed route with only the feed's own parameters (valid),
	 * it carries credentials (an auth cookie, an Authorization header, a nonce), a plugin adds its
	 * own REST authentication rules, or the ETag does not match. An Origin is no credential: a
	 * front end on another origin gets its 304 here too, with the CORS headers of Cors.
	 *
	 * @param array<string, mixed> $server  Request server variables (unslashed).
	 * @param array<string, mixed> $query   Query parameters (unslashed).
	 * @param array<string, mixed> $cookies Cookies.
	 * @return array<string, string>|null
	 */
	public function early_not_modified_headers( array $server, array $query, array $cookies ): ?array {
		$match = Early_Not_Modified::anonymous_condition( $server, $cookies );
		$route = '/' . Rest_Routes::NAMESPACE . '/markers';
		if ( null === $match || array() !== array_diff( array_map( 'strval', array_keys( $query ) ), self::EARLY_PARAMS ) || Early_Not_Modified::route( $server, $query ) !== $route ) {
			return null;
		}
		$filters = $this->schema->query_filters( $query );
		if ( null === $filters ) {
			return null; // The REST server answers 400.
		}
		if ( ! Early_Not_Modified::allowed( $route ) ) {
			return null;
		}
		return Feed_Answer::early_headers( $this->feed_for( $filters ), $filters, $match, $server );
	}

	/**
	 * Registers the routes: the feed, then a marker's popup details.
	 */
	public function register_routes(): void {
		register_rest_route(
			Rest_Routes::NAMESPACE,
			'/markers',
			array(
				'methods'             => WP_REST_Server::READABLE,
				'callback'            => array( $this, 'get_items' ),
				// Public: only published markers are served, the same data the pages show.
				'permission_callback' => '__return_true',
				'args'                => $this->schema->args(),
				'schema'              => array( $this->schema, 'get_feed_schema' ),
			)
		);
		$this->popup->register_route();
	}

	/**
	 * Parses a bounding box.
	 *
	 * @see Feed_Schema::parse_bbox()
	 *
	 * @param string $value "west,south,east,north".
	 * @return float[]|null The four numbers, or null when invalid.
	 */
	public static function parse_bbox( string $value ): ?array {
		return Feed_Schema::parse_bbox( $value );
	}

	/**
	 * The feed as a GeoJSON FeatureCollection.
	 *
	 * @param WP_REST_Request $request The request.
	 * @return WP_REST_Response|WP_Error
	 */
	public function get_items( WP_REST_Request $request ) {
		/* translators: %s: a global REST parameter such as _fields. */
		$error = Feed_Answer::unsupported_global( $request, __( '%s is not supported by the marker feed: it is served as one pre-built GeoJSON document.', 'cairn-maps' ) );
		if ( null !== $error ) {
			return $error;
		}
		$params = array(
			'group'     => $request['group'],
			'include'   => $request['include'],
			'bbox'      => $request['bbox'],
			'post_type' => $request['post_type'],
			'terms'     => $request['terms'],
		);
		$error  = Feed_Schema::combination_error( $params );
		if ( null !== $error ) {
			return $error;
		}
		$filters = Feed_Schema::filters( $params );
		return Feed_Answer::respond( $this->feed_for( $filters ), $filters, $request );
	}

	/**
	 * Prints the feed's pre-built payload instead of letting the server json_encode an array.
	 * Hooked to `rest_pre_serve_request`, after the status and headers (CORS ones included) are sent.
	 *
	 * @param bool                   $served  Whether the request was served already.
	 * @param \WP_HTTP_Response|null $result  The response.
	 * @param WP_REST_Request|null   $request The request.
	 * @return bool Whether the request was served.
	 */
	public function serve_feed( $served, $result = null, $request = null ): bool {
		if ( $served || ! $result instanceof Geojson_Response || ! $result->is_pristine() ) {
			return (bool) $served;
		}
		$payload = $result->get_payload();
		try {
			if ( $request instanceof WP_REST_Request && Cache_Headers::sends_gzip( (string) $request->get_header( 'Accept-Encoding' ) ) && ! headers_sent() ) {
				// A strong ETag names one representation: the gzip one gets its own.
				$etag = (string) ( $result->get_headers()['ETag'] ?? '' );
				if ( '' !== $etag ) {
					header( 'ETag: ' . Cache_Headers::representation_etag( $etag, 'gzip' ) );
				}
				header( 'Content-Encoding: gzip' );
				$payload->print_gzip();
			} else {
				$payload->print_json();
			}
		} catch ( \RuntimeException $error ) {
			// A stored chunk vanished while printing (evicted from the object cache): the answer is
			// cut short; the cache forgot that build, so the next request rebuilds it.
			if ( defined( 'WP_DEBUG' ) && WP_DEBUG ) {
				trigger_error( esc_html( $error->getMessage() ), E_USER_WARNING ); // phpcs:ignore WordPress.PHP.DevelopmentFunctions.error_log_trigger_error
			}
		}
		return true;
	}
}
