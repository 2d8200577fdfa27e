<?php
/**
 * The places panel of a tiled map, answered by the server.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Index\Index_Version;
use Cairn\Maps\Index\Place_Filter;
use Cairn\Maps\Index\Place_Index;
use Cairn\Maps\Index\Place_Search;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Support\Rest_Routes;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

/**
 * `GET /cairn/v1/places/summary` (the selection's totals per group, and the count and bounds of
 * the places passing a filter) and `GET /cairn/v1/places` (one page of them, in a box or not, by
 * title or by distance): what the places panel asks when its map is tiled and has no whole feed
 * to search (see Index\Place_Search; the parameters are Search_Params').
 *
 * Caching as the feeds: a strong ETag from the markers version and the canonical parameters, 304
 * on a match, public Cache-Control for anonymous requests — a year and immutable when the address
 * carries the current version (`v`), since any change to the places renews it — CORS as the
 * public routes (Cors). Answers are kept in the object cache in a fixed number of slots
 * (Answer_Slots), so a flood of distinct searches never grows storage.
 *
 * @since 0.6.0
 */
class Places_Controller {

	/**
	 * The list's route, under the plugin's namespace.
	 */
	public const ROUTE = '/places';

	/**
	 * The summary's route.
	 */
	public const SUMMARY_ROUTE = '/places/summary';

	/**
	 * Cache-Control of an anonymous answer whose address carries the current version.
	 */
	public const IMMUTABLE_CACHE_CONTROL = Cache_Headers::IMMUTABLE_CACHE_CONTROL;

	/**
	 * The queries.
	 *
	 * @var Place_Search
	 */
	private Place_Search $search;

	/**
	 * The markers version (ETags, cache keys, `v`).
	 *
	 * @var Markers_Version
	 */
	private Markers_Version $version;

	/**
	 * The parameters.
	 *
	 * @var Search_Params
	 */
	private Search_Params $params;

	/**
	 * Kept answers.
	 *
	 * @var Answer_Slots
	 */
	private Answer_Slots $slots;

	/**
	 * The place index (whether it is complete).
	 *
	 * @var Place_Index
	 */
	private Place_Index $index;

	/**
	 * Creates the controller.
	 *
	 * @param Place_Search|null    $search  The queries.
	 * @param Markers_Version|null $version The markers version.
	 * @param Answer_Slots|null    $slots   Kept answers.
	 * @param Place_Index|null     $index   The place index.
	 */
	public function __construct( ?Place_Search $search = null, ?Markers_Version $version = null, ?Answer_Slots $slots = null, ?Place_Index $index = null ) {
		$this->search  = $search ?? new Place_Search();
		$this->version = $version ?? new Markers_Version();
		$this->params  = new Search_Params();
		$this->slots   = $slots ?? new Answer_Slots();
		$this->index   = $index ?? new Place_Index();
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
			Rest_Routes::NAMESPACE,
			self::ROUTE,
			array(
				'methods'             => WP_REST_Server::READABLE,
				'callback'            => array( $this, 'get_list' ),
				// Public: only published markers are indexed, the same data the pages show.
				'permission_callback' => '__return_true',
				'args'                => $this->params->args( true ),
			)
		);
		register_rest_route(
			Rest_Routes::NAMESPACE,
			self::SUMMARY_ROUTE,
			array(
				'methods'             => WP_REST_Server::READABLE,
				'callback'            => array( $this, 'get_summary' ),
				// Public: the same places as the list.
				'permission_callback' => '__return_true',
				'args'                => $this->params->args( false ),
			)
		);
	}

	/**
	 * `GET /cairn/v1/places`.
	 *
	 * @param WP_REST_Request $request The request.
	 */
	public function get_list( WP_REST_Request $request ): WP_REST_Response {
		$params = $this->request_params( $request, array_merge( Search_Params::FILTER_PARAMS, Search_Params::LIST_PARAMS ) );
		$error  = Places_Params::combination_error( $params );
		if ( null !== $error ) {
			return rest_convert_error_to_response( $error );
		}
		$filter = Search_Params::filter( $params );
		$query  = Search_Params::list_query( $params );
		return $this->answer(
			$request,
			$filter,
			array( 'list', $filter->key(), $query ),
			function () use ( $filter, $query ): array {
				return $this->search->list( $filter, $query );
			}
		);
	}

	/**
	 * `GET /cairn/v1/places/summary`.
	 *
	 * @param WP_REST_Request $request The request.
	 */
	public function get_summary( WP_REST_Request $request ): WP_REST_Response {
		$params = $this->request_params( $request, Search_Params::FILTER_PARAMS );
		$error  = Places_Params::combination_error( $params );
		if ( null !== $error ) {
			return rest_convert_error_to_response( $error );
		}
		$filter = Search_Params::filter( $params );
		return $this->answer(
			$request,
			$filter,
			array( 'summary', $filter->key() ),
			function () use ( $filter ): array {
				return $this->search->summary( $filter );
			}
		);
	}

	/**
	 * The named parameters of a request.
	 *
	 * @param WP_REST_Request $request The request.
	 * @param string[]        $names   Parameter names.
	 * @return array<string, mixed>
	 */
	private function request_params( WP_REST_Request $request, array $names ): array {
		$params = array();
		foreach ( $names as $name ) {
			$params[ $name ] = $request->get_param( $name );
		}
		return $params;
	}

	/**
	 * The answer to a validated request: 304 when its ETag matches, else the kept answer or a new
	 * one, with the caching headers.
	 *
	 * @param WP_REST_Request   $request   The request.
	 * @param Place_Filter      $filter    Its filter (the selection decides the version: Index_Version).
	 * @param array<int, mixed> $canonical What the answer depends on besides the version.
	 * @param callable          $compute   Makes the answer (an array).
	 */
	private function answer( WP_REST_Request $request, Place_Filter $filter, array $canonical, callable $compute ): WP_REST_Response {
		$version   = Index_Version::of( $filter, $this->version->get() );
		$key       = md5( $version . "\n" . (string) wp_json_encode( $canonical ) );
		$etag      = '"' . $key . '"';
		$logged_in = is_user_logged_in();
		$headers   = array(
			'ETag'          => $etag,
			'Cache-Control' => $this->cache_control( $logged_in, (string) $request->get_param( 'v' ), $version ),
		);
		if ( Cache_Headers::etag_matches( $request->get_header( 'If-None-Match' ), $etag ) ) {
			return new WP_REST_Response( null, 304, $headers );
		}
		$data = $this->slots->get( $key );
		if ( null === $data ) {
			$data = $compute();
			$this->slots->set( $key, $data );
		}
		return new WP_REST_Response( $data, 200, $headers );
	}

	/**
	 * Cache-Control of an answer (Cache_Headers::versioned(), the rule of every index answer).
	 *
	 * @param bool   $logged_in Whether the request is authenticated.
	 * @param string $asked     The request's `v`.
	 * @param string $current   The current markers version.
	 */
	private function cache_control( bool $logged_in, string $asked, string $current ): string {
		return Cache_Headers::versioned( $logged_in, $asked, $current, $this->index->is_ready() );
	}
}
