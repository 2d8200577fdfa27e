<?php
/**
 * The public GeoJSON marker feed.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Feed\Feed_Cache;
use Cairn\Maps\Feed\Geojson_Feed;
use Cairn\Maps\Limits;
use Cairn\Maps\Markers\Marker_Repository;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Markers\Post_Type;
use WP_Error;
use WP_Post;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

/**
 * `GET /cairn/v1/markers` and `GET /cairn/v1/markers/<id>`.
 *
 * The feed answers conditional requests before reading any marker: its strong ETag comes from the
 * markers version, so a matching `If-None-Match` costs one autoloaded option. For anonymous
 * requests that is checked as soon as the theme is set up, before `init` (post types, blocks,
 * the REST server): see not_modified_early(). Anonymous answers are publicly cacheable (CDNs,
 * browsers); the body is served pre-encoded, gzip when accepted.
 *
 * A method override (`?_method=`, `X-HTTP-Method-Override`) never changes what a real GET or HEAD
 * of the feed gets (answered_method()): a shared cache keys on the URL and the real method, so a
 * GET overridden into a HEAD must not leave an empty body in it. Any other overridden answer on a
 * public route is sent `Cache-Control: private, no-store` (no_store_overridden()).
 *
 * @since 0.1.0
 */
class Markers_Controller {

	public const REST_NAMESPACE = 'cairn/v1';

	/**
	 * Cache-Control of anonymous feed answers: fresh for a minute, then revalidated with the ETag
	 * (a 304 costs next to nothing), served stale for up to an hour while revalidating.
	 */
	public const PUBLIC_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=3600';

	/**
	 * Cache-Control of an anonymous answer that serves the previous build while another request
	 * rebuilds: caches may keep it, but must ask again before reusing it.
	 */
	public const STALE_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

	/**
	 * Query parameters the early 304 understands; any other leaves the request to the REST server.
	 */
	private const EARLY_PARAMS = array( 'rest_route', 'group', 'include', 'bbox' );

	/**
	 * Global REST parameters that would force the whole feed into PHP arrays.
	 */
	private const UNSUPPORTED_GLOBALS = array( '_fields', '_envelope', '_jsonp' );

	/**
	 * The feed.
	 *
	 * @var Geojson_Feed
	 */
	private Geojson_Feed $feed;

	/**
	 * Marker reads.
	 *
	 * @var Marker_Repository
	 */
	private Marker_Repository $repository;

	/**
	 * Creates the controller.
	 *
	 * @param Geojson_Feed|null      $feed       The feed.
	 * @param Marker_Repository|null $repository Marker reads.
	 */
	public function __construct( ?Geojson_Feed $feed = null, ?Marker_Repository $repository = null ) {
		$this->repository = $repository ?? new Marker_Repository();
		$this->feed       = $feed ?? new Geojson_Feed( $this->repository, new Markers_Version(), new Feed_Cache() );
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'rest_api_init', array( $this, 'register_routes' ) );
		// After the CORS headers: core's (10), then ours in Cors (11).
		add_filter( 'rest_pre_serve_request', array( $this, 'serve_feed' ), 12, 3 );
		// Late, after anything that sets caching headers.
		add_filter( 'rest_post_dispatch', array( $this, 'no_store_overridden' ), 1000, 3 );
		add_filter( 'rest_pre_dispatch', array( $this, 'maps_as_real_method' ), 10, 3 );
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
		// phpcs:ignore WordPress.Security.NonceVerification.Recommended, WordPress.Security.ValidatedSanitizedInput -- read-only; every value is validated below.
		$headers = $this->early_not_modified_headers( wp_unslash( $_SERVER ), wp_unslash( $_GET ), $_COOKIE );
		if ( null !== $headers ) {
			Early_Not_Modified::send( $headers );
		}
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
		$route = '/' . self::REST_NAMESPACE . '/markers';
		if ( null === $match || array() !== array_diff( array_map( 'strval', array_keys( $query ) ), self::EARLY_PARAMS ) || Early_Not_Modified::route( $server, $query ) !== $route ) {
			return null;
		}
		$filters = array();
		foreach ( array( 'group', 'include', 'bbox' ) as $name ) {
			if ( ! isset( $query[ $name ] ) ) {
				continue;
			}
			$value = $query[ $name ];
			$valid = 'group' === $name ? $this->validate_slugs( $value ) : ( 'include' === $name ? $this->validate_ids( $value ) : $this->validate_bbox( $value ) );
			if ( true !== $valid ) {
				return null; // The REST server answers 400.
			}
			if ( 'group' === $name ) {
				$filters['groups'] = explode( ',', $value );
			} elseif ( 'include' === $name ) {
				$filters['ids'] = array_map( 'intval', explode( ',', $value ) );
			} else {
				$bbox = self::parse_bbox( $value ); // Valid (checked above), so never null.
				if ( null !== $bbox ) {
					$filters['bbox'] = $bbox;
				}
			}
		}
		if ( ! Early_Not_Modified::allowed( $route ) ) {
			return null;
		}
		$etag = $this->feed->etag( $filters );
		if ( ! self::etag_matches( $match, $etag ) ) {
			return null;
		}
		// An Origin is no credential: the answer carries the same CORS headers as the REST route's.
		return Cors::with_public_headers(
			array(
				'Content-Type'  => 'application/json; charset=' . get_option( 'blog_charset' ),
				'ETag'          => self::representation_etag( $etag, (string) ( $server['HTTP_ACCEPT_ENCODING'] ?? '' ) ),
				'Cache-Control' => $this->cache_control( false, false ),
				'Vary'          => 'Accept-Encoding',
			),
			(string) ( $server['HTTP_ORIGIN'] ?? '' )
		);
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
						'description'       => __( 'Comma-separated marker group slugs; markers in any of them.', 'cairn-maps' ),
						'type'              => 'string',
						'validate_callback' => array( $this, 'validate_slugs' ),
					),
					'include' => array(
						'description'       => __( 'Comma-separated marker ids.', 'cairn-maps' ),
						'type'              => 'string',
						'validate_callback' => array( $this, 'validate_ids' ),
					),
					'bbox'    => array(
						'description'       => __( 'Bounding box "west,south,east,north" in degrees. West greater than east selects a box across the antimeridian.', 'cairn-maps' ),
						'type'              => 'string',
						'validate_callback' => array( $this, 'validate_bbox' ),
					),
				),
				'schema'              => array( $this, 'get_feed_schema' ),
			)
		);
		register_rest_route(
			self::REST_NAMESPACE,
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
	 * Validates a comma-separated slug list.
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public function validate_slugs( $value ) {
		$max = (int) Limits::get( 'markersQuery.maxGroups' );
		if ( ! is_string( $value ) || 1 !== preg_match( '/^[a-z0-9_-]+(,[a-z0-9_-]+)*$/', $value ) || count( explode( ',', $value ) ) > $max ) {
			/* translators: %d: most groups per request. */
			return new WP_Error( 'rest_invalid_param', sprintf( __( 'group must be a comma-separated list of at most %d marker group slugs.', 'cairn-maps' ), $max ), array( 'status' => 400 ) );
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
		$max = (int) Limits::get( 'markersQuery.maxInclude' );
		if ( ! is_string( $value ) || 1 !== preg_match( '/^[1-9][0-9]{0,18}(,[1-9][0-9]{0,18})*$/', $value ) || count( explode( ',', $value ) ) > $max ) {
			/* translators: %d: most ids per request. */
			return new WP_Error( 'rest_invalid_param', sprintf( __( 'include must be a comma-separated list of at most %d marker ids.', 'cairn-maps' ), $max ), array( 'status' => 400 ) );
		}
		return true;
	}

	/**
	 * Validates a bounding box: four finite numbers, longitudes within −180…180, latitudes within
	 * −90…90 and south ≤ north. West may exceed east: the box then crosses the antimeridian.
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public function validate_bbox( $value ) {
		$bbox = is_string( $value ) ? self::parse_bbox( $value ) : null;
		if ( null === $bbox ) {
			return new WP_Error(
				'rest_invalid_param',
				__( 'bbox must be "west,south,east,north": longitudes between -180 and 180, latitudes between -90 and 90, south not above north.', 'cairn-maps' ),
				array( 'status' => 400 )
			);
		}
		return true;
	}

	/**
	 * Parses a bounding box.
	 *
	 * @param string $value "west,south,east,north".
	 * @return float[]|null The four numbers, or null when invalid.
	 */
	public static function parse_bbox( string $value ): ?array {
		$parts = explode( ',', $value );
		if ( 4 !== count( $parts ) ) {
			return null;
		}
		$numbers = array();
		foreach ( $parts as $part ) {
			$part = trim( $part );
			if ( 1 !== preg_match( '/^-?(\d{1,3}(\.\d{1,15})?|\.\d{1,15})$/', $part ) ) {
				return null;
			}
			$numbers[] = (float) $part;
		}
		list( $west, $south, $east, $north ) = $numbers;
		$lng_min                             = (float) Limits::get( 'longitude.min' );
		$lng_max                             = (float) Limits::get( 'longitude.max' );
		$lat_min                             = (float) Limits::get( 'markerLatitude.min' );
		$lat_max                             = (float) Limits::get( 'markerLatitude.max' );
		foreach ( array( $west, $east ) as $lng ) {
			if ( $lng < $lng_min || $lng > $lng_max ) {
				return null;
			}
		}
		foreach ( array( $south, $north ) as $lat ) {
			if ( $lat < $lat_min || $lat > $lat_max ) {
				return null;
			}
		}
		return $south <= $north ? $numbers : null;
	}

	/**
	 * The feed as a GeoJSON FeatureCollection.
	 *
	 * @param WP_REST_Request $request The request.
	 * @return WP_REST_Response|WP_Error
	 */
	public function get_items( WP_REST_Request $request ) {
		foreach ( self::UNSUPPORTED_GLOBALS as $name ) {
			if ( null !== $request->get_param( $name ) ) {
				return new WP_Error(
					'rest_invalid_param',
					/* translators: %s: a global REST parameter such as _fields. */
					sprintf( __( '%s is not supported by the marker feed: it is served as one pre-built GeoJSON document.', 'cairn-maps' ), $name ),
					array(
						'status' => 400,
						'params' => array( $name => __( 'Not supported by this route.', 'cairn-maps' ) ),
					)
				);
			}
		}
		$filters   = $this->filters( $request );
		$etag      = $this->feed->etag( $filters );
		$logged_in = is_user_logged_in();
		$headers   = array(
			'ETag'          => $etag,
			'Cache-Control' => $this->cache_control( $logged_in, false ),
			'Vary'          => 'Accept-Encoding',
		);
		$condition = $request->get_header( 'If-None-Match' );
		if ( self::etag_matches( $condition, $etag ) ) {
			return $this->not_modified( $headers, $request );
		}
		if ( 'HEAD' === self::answered_method( $request ) ) {
			return new WP_REST_Response( null, 200, $headers );
		}
		// Anonymous visitors may get the previous build while another request makes the new one.
		$payload = $this->feed->payload( $filters, ! $logged_in );
		if ( '' !== $payload->version() && $this->feed->etag( $filters, $payload->version() ) !== $etag ) {
			$headers['ETag']          = $this->feed->etag( $filters, $payload->version() );
			$headers['Cache-Control'] = $this->cache_control( $logged_in, true );
			if ( self::etag_matches( $condition, $headers['ETag'] ) ) {
				return $this->not_modified( $headers, $request );
			}
		}
		return new Geojson_Response( $payload, 200, $headers );
	}

	/**
	 * The method the feed answers a request as: its own, unless a method override (`?_method=` or
	 * `X-HTTP-Method-Override`, which core's REST server applies) came with a real GET or HEAD.
	 * Then the real method: a shared cache keys on the URL and the real method only, so an
	 * overridden GET gets the whole feed with the plain GET's headers and a real HEAD no body,
	 * whatever the override says. Internal requests (`rest_do_request()`) carry no override.
	 *
	 * @since 0.2.0
	 *
	 * @param WP_REST_Request $request The request.
	 */
	public static function answered_method( WP_REST_Request $request ): string {
		$method = strtoupper( $request->get_method() );
		if ( ! self::is_overridden( $request ) ) {
			return $method;
		}
		$real = self::real_method();
		return 'GET' === $real || 'HEAD' === $real ? $real : $method;
	}

	/**
	 * Whether a request asks for a method override (core applies `?_method=` first, else the
	 * `X-HTTP-Method-Override` header).
	 *
	 * @since 0.2.0
	 *
	 * @param WP_REST_Request $request The request.
	 */
	public static function is_overridden( WP_REST_Request $request ): bool {
		$query = $request->get_query_params();
		return isset( $query['_method'] ) || null !== $request->get_header( 'X-HTTP-Method-Override' );
	}

	/**
	 * The HTTP method of the request being served, uppercase ('' outside a web request).
	 */
	private static function real_method(): string {
		// phpcs:ignore WordPress.Security.ValidatedSanitizedInput.InputNotSanitized -- compared with method names only.
		return isset( $_SERVER['REQUEST_METHOD'] ) ? strtoupper( (string) preg_replace( '/[^A-Za-z]/', '', (string) wp_unslash( $_SERVER['REQUEST_METHOD'] ) ) ) : '';
	}

	/**
	 * A post's maps are answered as the real GET or HEAD, whatever override came with it: core would
	 * otherwise send a real GET overridden to HEAD without its body, under the GET's URL. (The
	 * feed, which sends its own bytes, does the same through answered_method().) Hooked to
	 * `rest_pre_dispatch`.
	 *
	 * @since 0.3.0
	 *
	 * @param mixed                $result  A response to use instead of dispatching, or null.
	 * @param mixed                $server  The REST server.
	 * @param WP_REST_Request|null $request The request.
	 * @return mixed The same result.
	 */
	public function maps_as_real_method( $result, $server = null, $request = null ) {
		if (
			null === $result &&
			$request instanceof WP_REST_Request &&
			self::is_overridden( $request ) &&
			1 === preg_match( '@^/' . self::REST_NAMESPACE . '/posts/\d+/maps$@i', $request->get_route() )
		) {
			$real = self::real_method();
			if ( 'GET' === $real || 'HEAD' === $real ) {
				$request->set_method( $real );
			}
		}
		return $result;
	}

	/**
	 * Keeps shared caches from storing an answer to an overridden method on a public route (the
	 * feed, a marker, a post's maps) that is not the answer to the real method: a real GET whose
	 * override made it a HEAD (an empty body), an OPTIONS (the route's description), a POST (an
	 * error)… Such an answer gets `Cache-Control: private, no-store`. The feed answers an override
	 * of a real GET or HEAD as the real method (answered_method()): those keep their caching.
	 * Hooked late to `rest_post_dispatch`.
	 *
	 * @since 0.2.0
	 *
	 * @param mixed                $response The response.
	 * @param mixed                $server   The REST server.
	 * @param WP_REST_Request|null $request  The request.
	 * @return mixed The response.
	 */
	public function no_store_overridden( $response, $server = null, $request = null ) {
		if ( ! $response instanceof \WP_HTTP_Response || ! $request instanceof WP_REST_Request || ! self::is_overridden( $request ) ) {
			return $response;
		}
		$route  = $request->get_route();
		$public = false;
		foreach ( Cors::PUBLIC_ROUTES as $pattern ) {
			$public = $public || 1 === preg_match( '@^' . $pattern . '$@i', $route );
		}
		if ( ! $public ) {
			return $response;
		}
		$method = strtoupper( $request->get_method() );
		// The feed's and a post's maps' handlers (GET, HEAD) answered as answered_method() says.
		if ( ( 'GET' === $method || 'HEAD' === $method ) && 1 === preg_match( '@^/' . self::REST_NAMESPACE . '/(?:markers|posts/\d+/maps)$@i', $route ) ) {
			$method = self::answered_method( $request );
		}
		$real = self::real_method();
		if ( $real !== $method ) {
			$response->header( 'Cache-Control', 'private, no-store' );
		}
		return $response;
	}

	/**
	 * A 304 with the ETag of the representation the client would get (the gzip one when it accepts
	 * gzip).
	 *
	 * @param array<string, string> $headers Headers of the answer.
	 * @param WP_REST_Request       $request The request.
	 */
	private function not_modified( array $headers, WP_REST_Request $request ): WP_REST_Response {
		$headers['ETag'] = self::representation_etag( $headers['ETag'], (string) $request->get_header( 'Accept-Encoding' ) );
		return new WP_REST_Response( null, 304, $headers );
	}

	/**
	 * The ETag of what is sent for this Accept-Encoding: the gzip variant has its own.
	 *
	 * @param string $etag            ETag of the JSON, quoted.
	 * @param string $accept_encoding Accept-Encoding header.
	 */
	private static function representation_etag( string $etag, string $accept_encoding ): string {
		return self::accepts_gzip( $accept_encoding ) && ! self::output_is_compressed() ? substr( $etag, 0, -1 ) . '-gzip"' : $etag;
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
			if ( $request instanceof WP_REST_Request && self::accepts_gzip( (string) $request->get_header( 'Accept-Encoding' ) ) && ! self::output_is_compressed() && ! headers_sent() ) {
				// A strong ETag names one representation: the gzip one gets its own.
				$etag = (string) ( $result->get_headers()['ETag'] ?? '' );
				if ( '' !== $etag ) {
					header( 'ETag: ' . self::representation_etag( $etag, 'gzip' ) );
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
				'title'   => Geojson_Feed::plain_title( get_the_title( $post ) ),
				'content' => wp_kses_post( (string) apply_filters( 'the_content', $post->post_content ) ), // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- core's filter.
				'link'    => $link,
				'lng'     => (float) get_post_meta( $post->ID, Post_Type::META_LNG, true ),
				'lat'     => (float) get_post_meta( $post->ID, Post_Type::META_LAT, true ),
				'groups'  => $groups[ $post->ID ] ?? array(),
			)
		);
	}

	/**
	 * The JSON schema of the feed, for discovery (`OPTIONS /cairn/v1/markers`).
	 *
	 * @return array<string, mixed>
	 */
	public function get_feed_schema(): array {
		return array(
			'$schema'    => 'http://json-schema.org/draft-04/schema#',
			'title'      => 'cairn-markers-feature-collection',
			'type'       => 'object',
			'properties' => array(
				'type'     => array(
					'type' => 'string',
					'enum' => array( 'FeatureCollection' ),
				),
				'features' => array(
					'type'  => 'array',
					'items' => array(
						'type'       => 'object',
						'properties' => array(
							'type'       => array(
								'type' => 'string',
								'enum' => array( 'Feature' ),
							),
							'id'         => array( 'type' => 'integer' ),
							'geometry'   => array(
								'type'       => 'object',
								'properties' => array(
									'type'        => array(
										'type' => 'string',
										'enum' => array( 'Point' ),
									),
									'coordinates' => array(
										'description' => __( '[longitude, latitude] in degrees, 5 decimals.', 'cairn-maps' ),
										'type'        => 'array',
										'items'       => array( 'type' => 'number' ),
									),
								),
							),
							'properties' => array(
								'type'       => 'object',
								'properties' => array(
									'title'  => array(
										'description' => __( 'Title as plain text.', 'cairn-maps' ),
										'type'        => 'string',
									),
									'groups' => array(
										'type'  => 'array',
										'items' => array( 'type' => 'string' ),
									),
								),
							),
						),
					),
				),
			),
		);
	}

	/**
	 * Repository filters from a validated request.
	 *
	 * @param WP_REST_Request $request The request.
	 * @return array{groups?: string[], ids?: int[], bbox?: float[]}
	 */
	private function filters( WP_REST_Request $request ): array {
		$filters = array();
		if ( is_string( $request['group'] ) && '' !== $request['group'] ) {
			$filters['groups'] = explode( ',', $request['group'] );
		}
		if ( is_string( $request['include'] ) && '' !== $request['include'] ) {
			$filters['ids'] = array_map( 'intval', explode( ',', $request['include'] ) );
		}
		if ( is_string( $request['bbox'] ) && '' !== $request['bbox'] ) {
			$bbox = self::parse_bbox( $request['bbox'] );
			if ( null !== $bbox ) {
				$filters['bbox'] = $bbox;
			}
		}
		return $filters;
	}

	/**
	 * Cache-Control of an answer: public for anonymous visitors, never stored when logged in.
	 *
	 * The other public routes (the maps of a post) follow the same policy and filter.
	 *
	 * @since 0.1.0
	 * @since 0.2.0 Public and static, $stale optional.
	 *
	 * @param bool $logged_in Whether the request is authenticated.
	 * @param bool $stale     Whether the answer is the previous build, served during a rebuild.
	 */
	public static function cache_control( bool $logged_in, bool $stale = false ): string {
		if ( $logged_in ) {
			return 'private, no-store';
		}
		if ( $stale ) {
			return self::STALE_CACHE_CONTROL;
		}
		/**
		 * Filters the Cache-Control header of anonymous marker feed answers.
		 *
		 * @since 0.1.0
		 * @param string $cache_control Header value.
		 */
		return (string) apply_filters( 'cairn_maps_feed_cache_control', self::PUBLIC_CACHE_CONTROL );
	}

	/**
	 * Whether an If-None-Match header matches the ETag (weak comparison, as RFC 9110 asks; the gzip
	 * variant's tag matches too).
	 *
	 * @param string|null $header Header value.
	 * @param string      $etag   Current ETag, quoted.
	 */
	public static function etag_matches( ?string $header, string $etag ): bool {
		if ( null === $header || '' === trim( $header ) ) {
			return false;
		}
		if ( '*' === trim( $header ) ) {
			return true;
		}
		$opaque = trim( $etag, '"' );
		foreach ( explode( ',', $header ) as $tag ) {
			$tag = trim( $tag );
			if ( 0 === strpos( $tag, 'W/' ) ) {
				$tag = substr( $tag, 2 );
			}
			$tag = trim( $tag, '"' );
			if ( $tag === $opaque || $tag === $opaque . '-gzip' ) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Whether an Accept-Encoding header accepts gzip.
	 *
	 * @param string $header Header value.
	 */
	public static function accepts_gzip( string $header ): bool {
		foreach ( explode( ',', strtolower( $header ) ) as $coding ) {
			$parts = array_map( 'trim', explode( ';', $coding ) );
			if ( 'gzip' !== $parts[0] && 'x-gzip' !== $parts[0] ) {
				continue;
			}
			foreach ( array_slice( $parts, 1 ) as $param ) {
				if ( 1 === preg_match( '/^q\s*=\s*0(\.0{0,3})?$/', $param ) ) {
					return false;
				}
			}
			return true;
		}
		return false;
	}

	/**
	 * Whether PHP already compresses output (then the payload is sent uncompressed to it).
	 */
	private static function output_is_compressed(): bool {
		if ( filter_var( ini_get( 'zlib.output_compression' ), FILTER_VALIDATE_BOOLEAN ) ) {
			return true;
		}
		return array() !== array_intersect( ob_list_handlers(), array( 'ob_gzhandler', 'zlib output compression' ) );
	}
}
