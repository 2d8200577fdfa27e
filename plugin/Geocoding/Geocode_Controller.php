<?php
/**
 * GET /cairn/v1/geocode.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Geocoding;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Support\Limits;
use Cairn\Maps\Support\Rest_Routes;
use WP_Error;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

/**
 * Address search for people who write content: `?q=<text>` finds places, `?lat=&lng=` finds the
 * address of a place. Answers `{ results: [ { label, lat, lng } ], attribution, attribution_url }`;
 * over the site's rate limit, or past the person's quota of uncached lookups (User_Quota), a 429
 * with Retry-After.
 *
 * @since 0.3.0
 */
class Geocode_Controller {


	public const ROUTE = '/geocode';

	/**
	 * Seconds a request may wait for the site-wide slot before it answers 429: a little more than
	 * one interval, so that a second search right after another is served, late, not refused.
	 */
	public const MAX_WAIT = 1.5;

	/**
	 * The geocoder.
	 *
	 * @var Geocoder
	 */
	private Geocoder $geocoder;

	/**
	 * Creates the controller.
	 *
	 * @param Geocoder $geocoder The geocoder.
	 */
	public function __construct( Geocoder $geocoder ) {
		$this->geocoder = $geocoder;
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'rest_api_init', array( $this, 'register_routes' ) );
	}

	/**
	 * Registers the route.
	 */
	public function register_routes(): void {
		register_rest_route(
			Rest_Routes::NAMESPACE,
			self::ROUTE,
			array(
				'methods'             => WP_REST_Server::READABLE,
				'callback'            => array( $this, 'answer' ),
				'permission_callback' => array( $this, 'can_search' ),
				'args'                => array(
					'q'     => array(
						'description' => __( 'An address or place name to find (2–200 characters).', 'cairn-maps' ),
						'type'        => 'string',
					),
					'lat'   => array(
						'description' => __( 'Latitude of a place whose address to find (with lng).', 'cairn-maps' ),
						'type'        => 'number',
						'minimum'     => (float) Limits::get( 'markerLatitude.min' ),
						'maximum'     => (float) Limits::get( 'markerLatitude.max' ),
					),
					'lng'   => array(
						'description' => __( 'Longitude of a place whose address to find (with lat).', 'cairn-maps' ),
						'type'        => 'number',
						'minimum'     => (float) Limits::get( 'longitude.min' ),
						'maximum'     => (float) Limits::get( 'longitude.max' ),
					),
					'limit' => array(
						'description' => __( 'Most results of a search.', 'cairn-maps' ),
						'type'        => 'integer',
						'minimum'     => 1,
						'maximum'     => Geocoder::MAX_LIMIT,
						'default'     => Geocoder::DEFAULT_LIMIT,
					),
				),
			)
		);
	}

	/**
	 * Only people who can write posts search (each search may cost the site a provider request).
	 *
	 * @return true|WP_Error
	 */
	public function can_search() {
		if ( current_user_can( 'edit_posts' ) ) {
			return true;
		}
		return new WP_Error(
			'rest_forbidden',
			__( 'Sorry, you are not allowed to search addresses.', 'cairn-maps' ),
			array( 'status' => rest_authorization_required_code() )
		);
	}

	/**
	 * Answers a search or a reverse lookup.
	 *
	 * @param WP_REST_Request $request The request.
	 * @return WP_REST_Response
	 */
	public function answer( WP_REST_Request $request ): WP_REST_Response {
		$query   = $request->get_param( 'q' );
		$lat     = $request->get_param( 'lat' );
		$lng     = $request->get_param( 'lng' );
		$reverse = null !== $lat || null !== $lng;
		if ( ( null !== $query ) === $reverse || ( $reverse && ( null === $lat || null === $lng ) ) ) {
			return self::error(
				new WP_Error(
					'cairn_geocode_invalid',
					__( 'Send either q (an address to find) or both lat and lng (a place whose address to find).', 'cairn-maps' ),
					array( 'status' => 400 )
				)
			);
		}
		// A person's lookups: their quota, and people's share of the slot (the job keeps the rest).
		$geocoder = $this->geocoder->for_user( get_current_user_id() );
		$results  = $reverse
			? $geocoder->reverse( (float) $lat, (float) $lng, self::MAX_WAIT )
			: $geocoder->search( (string) $query, (int) $request->get_param( 'limit' ), self::MAX_WAIT );
		if ( is_wp_error( $results ) ) {
			return self::error( $results );
		}
		return new WP_REST_Response(
			array(
				'results'         => $results,
				'attribution'     => $this->geocoder->attribution(),
				'attribution_url' => $this->geocoder->attribution_url(),
			)
		);
	}

	/**
	 * An error as a response, with Retry-After when the caller must wait (the visitors' route
	 * too, since 0.8.0).
	 *
	 * @param WP_Error $error The error.
	 */
	public static function error( WP_Error $error ): WP_REST_Response {
		$response = rest_convert_error_to_response( $error );
		$data     = $error->get_error_data();
		if ( is_array( $data ) && isset( $data['retry_after'] ) ) {
			$response->header( 'Retry-After', (string) (int) $data['retry_after'] );
		}
		return $response;
	}
}
