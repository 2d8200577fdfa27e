<?php
/**
 * The public GeoJSON shapes feed.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Feed\Feed_Cache;
use Cairn\Maps\Feed\Shapes_Feed;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Support\Rest_Routes;
use WP_Error;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

/**
 * `GET /cairn/v1/shapes`: the lines and areas of the published markers (Shapes_Feed), with the
 * markers feed's filters (`group`, `include`, `bbox`; their validation and messages are
 * Feed_Schema's) and its rules (Feed_Answer): strong ETag from the markers version, 304, the early
 * 304 for anonymous requests, Cache-Control, CORS for the allowed origins (Cors), the pre-built
 * body printed by Markers_Controller::serve_feed().
 *
 * @since 0.5.0
 */
class Shapes_Controller {

	/**
	 * The route, under the plugin's namespace.
	 */
	public const ROUTE = '/shapes';

	/**
	 * The feed's parameters.
	 */
	private const PARAMS = array( 'group', 'include', 'bbox' );

	/**
	 * Query parameters the early 304 understands; any other leaves the request to the REST server.
	 */
	private const EARLY_PARAMS = array( 'rest_route', 'group', 'include', 'bbox' );

	/**
	 * The feed.
	 *
	 * @var Shapes_Feed
	 */
	private Shapes_Feed $feed;

	/**
	 * The parameters' validation (the markers feed's).
	 *
	 * @var Feed_Schema
	 */
	private Feed_Schema $schema;

	/**
	 * Creates the controller.
	 *
	 * @param Shapes_Feed|null $feed The feed.
	 */
	public function __construct( ?Shapes_Feed $feed = null ) {
		$this->feed   = $feed ?? new Shapes_Feed( new Markers_Version(), new Feed_Cache() );
		$this->schema = new Feed_Schema();
	}

	/**
	 * Wires hooks. (The body is printed by Markers_Controller::serve_feed(), which prints any
	 * pristine Geojson_Response.)
	 */
	public function add_hooks(): void {
		add_action( 'rest_api_init', array( $this, 'register_routes' ) );
		add_action( 'after_setup_theme', array( $this, 'not_modified_early' ), PHP_INT_MAX );
	}

	/**
	 * Registers the route.
	 */
	public function register_routes(): void {
		register_rest_route(
			Rest_Routes::NAMESPACE,
			self::ROUTE,
			array(
				array(
					'methods'             => WP_REST_Server::READABLE,
					'callback'            => array( $this, 'get_items' ),
					// Public: only published markers' shapes are served, the same data the pages show.
					'permission_callback' => '__return_true',
					'args'                => array_intersect_key( $this->schema->args(), array_flip( self::PARAMS ) ),
				),
				// A route option (beside the endpoints), so that OPTIONS shows it.
				'schema' => array( $this->schema, 'get_shapes_schema' ),
			)
		);
	}

	/**
	 * Answers an anonymous conditional request whose ETag still matches with `304` before `init`,
	 * as the markers feed does (see Markers_Controller::not_modified_early()).
	 */
	public function not_modified_early(): void {
		Early_Not_Modified::answer( array( $this, 'early_not_modified_headers' ) );
	}

	/**
	 * The headers of an early 304 for this request, or null when it must go on to the REST server
	 * (see Markers_Controller::early_not_modified_headers()).
	 *
	 * @param array<string, mixed> $server  Request server variables (unslashed).
	 * @param array<string, mixed> $query   Query parameters (unslashed).
	 * @param array<string, mixed> $cookies Cookies.
	 * @return array<string, string>|null
	 */
	public function early_not_modified_headers( array $server, array $query, array $cookies ): ?array {
		$match = Early_Not_Modified::anonymous_condition( $server, $cookies );
		$route = '/' . Rest_Routes::NAMESPACE . self::ROUTE;
		if ( null === $match || array() !== array_diff( array_map( 'strval', array_keys( $query ) ), self::EARLY_PARAMS ) || Early_Not_Modified::route( $server, $query ) !== $route ) {
			return null;
		}
		$filters = $this->schema->query_filters( $query );
		if ( null === $filters || ! Early_Not_Modified::allowed( $route ) ) {
			return null; // Invalid: the REST server answers 400.
		}
		return Feed_Answer::early_headers( $this->feed, $filters, $match, $server );
	}

	/**
	 * The shapes as a GeoJSON FeatureCollection.
	 *
	 * @param WP_REST_Request $request The request.
	 * @return WP_REST_Response|WP_Error
	 */
	public function get_items( WP_REST_Request $request ) {
		/* translators: %s: a global REST parameter such as _fields. */
		$error = Feed_Answer::unsupported_global( $request, __( '%s is not supported by the shapes feed: it is served as one pre-built GeoJSON document.', 'cairn-maps' ) );
		if ( null !== $error ) {
			return $error;
		}
		$params = array();
		foreach ( self::PARAMS as $name ) {
			$params[ $name ] = $request[ $name ];
		}
		$filters = Feed_Schema::filters( $params );
		return Feed_Answer::respond( $this->feed, $filters, $request );
	}
}
