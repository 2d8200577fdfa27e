<?php
/**
 * The public address lookup of "near a place".
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Geocoding;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Support\Rest_Routes;
use WP_Error;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

/**
 * `GET /cairn/v1/geocode/visitor?q=<text>`: where a town, an address or a postcode a visitor
 * typed into a map's places panel is (the panel's "Near"), for anyone, when the owner's
 * geocoder is Nominatim (OpenStreetMap's, or their own through `cairn_maps_geocoder_base_url`).
 * With Mapbox the visitor's browser asks Mapbox's temporary geocoding itself with the map's public
 * token, so this route answers 404 `cairn_geocode_not_offered`: a visitor never causes billed
 * permanent lookups.
 *
 * Answers `{ results: [ { label, lat, lng } ] }` (at most 1), `attribution`, `attribution_url`.
 * What keeps it within the provider's policy and the site's storage bounded:
 * - the cache (Geocode_Cache, 30 days): the same text costs one provider request a month;
 * - the site-wide Rate_Limiter: at most one provider request a second for the whole site
 *   (visitors take the people's share, the import job keeps its quarter); a visitor waits at
 *   most MAX_WAIT (1.5 s) for the slot, else a 429 with Retry-After;
 * - a per-visitor quota (Visitor_Quota): 5 uncached lookups a minute, 30 an hour, the visitor
 *   known by an HMAC of their IP address with the site's salt, never the address itself, at
 *   most 3,600 rows alive.
 * Answers carry `Cache-Control: public, max-age=86400`, so a CDN absorbs repeats as well.
 *
 * @since 0.8.0
 */
class Visitor_Geocode_Controller {

	/**
	 * The route, under the plugin's namespace.
	 */
	public const ROUTE = '/geocode/visitor';

	/**
	 * Longest wait for the site-wide slot, in seconds.
	 */
	public const MAX_WAIT = 1.5;

	/**
	 * Cache-Control of a found place: an address names the same place for a day.
	 */
	public const CACHE_CONTROL = 'public, max-age=86400';

	/**
	 * The geocoder.
	 *
	 * @var Geocoder
	 */
	private Geocoder $geocoder;

	/**
	 * The per-visitor quota.
	 *
	 * @var Visitor_Quota|null
	 */
	private ?Visitor_Quota $quota;

	/**
	 * Creates the controller.
	 *
	 * @param Geocoder           $geocoder The geocoder.
	 * @param Visitor_Quota|null $quota    The per-visitor quota (tests give one with a clock).
	 */
	public function __construct( Geocoder $geocoder, ?Visitor_Quota $quota = null ) {
		$this->geocoder = $geocoder;
		$this->quota    = $quota;
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'rest_api_init', array( $this, 'register_routes' ) );
	}

	/**
	 * The answer for a text whose address the geocoding cache keeps, as answer() gives it (body
	 * and caching), or null when nothing is kept for it or the route is not offered: then only
	 * answer(), where the visitor's quota applies, may ask the provider. Nothing is counted here.
	 * Rest\Early_Geocode_Answer sends it before `init`.
	 *
	 * @since 0.8.0
	 *
	 * @param string $query The text, as the route takes `q`.
	 * @return array{headers: array<string, string>, body: string}|null
	 */
	public function kept_answer( string $query ): ?array {
		if ( ! self::offered() ) {
			return null;
		}
		$results = $this->geocoder->cached_search( $query, 1 );
		if ( null === $results ) {
			return null;
		}
		return array(
			'headers' => array(
				'Content-Type'           => 'application/json; charset=' . get_option( 'blog_charset' ),
				'Cache-Control'          => self::CACHE_CONTROL,
				'X-Content-Type-Options' => 'nosniff',
				'X-Robots-Tag'           => 'noindex',
			),
			'body'    => (string) wp_json_encode( $this->body( $results ) ),
		);
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
				// Public: what a visitor typed, answered from the cache or within the limits above.
				'permission_callback' => '__return_true',
				'args'                => array(
					'q' => array(
						/* translators: 1: fewest characters, 2: most characters. */
						'description' => sprintf( __( 'A town, an address or a postcode to find (%1$d–%2$d characters).', 'cairn-maps' ), Geocoder::MIN_QUERY, Geocoder::MAX_QUERY ),
						'type'        => 'string',
						'required'    => true,
					),
				),
			)
		);
	}

	/**
	 * Whether the site looks visitors' addresses up itself (the owner's geocoder is Nominatim;
	 * Blocks\Map_Block::visitor_geocoder() tells the runtime the same).
	 */
	public static function offered(): bool {
		return Nominatim::ID === Geocoder::chosen();
	}

	/**
	 * Answers a lookup.
	 *
	 * @param WP_REST_Request $request The request.
	 */
	public function answer( WP_REST_Request $request ): WP_REST_Response {
		if ( ! self::offered() ) {
			return self::error( new WP_Error( 'cairn_geocode_not_offered', __( 'This site does not look addresses up for visitors.', 'cairn-maps' ), array( 'status' => 404 ) ) );
		}
		$ip       = isset( $_SERVER['REMOTE_ADDR'] ) ? sanitize_text_field( wp_unslash( (string) $_SERVER['REMOTE_ADDR'] ) ) : '';
		$geocoder = $this->geocoder->for_visitor( Visitor_Quota::key( $ip ), $this->quota );
		$results  = $geocoder->search( (string) $request->get_param( 'q' ), 1, self::MAX_WAIT );
		if ( is_wp_error( $results ) ) {
			return self::error( $results );
		}
		$response = new WP_REST_Response( $this->body( $results ) );
		$response->header( 'Cache-Control', self::CACHE_CONTROL );
		return $response;
	}

	/**
	 * The body of an answer: the places, with the provider's credit.
	 *
	 * @param list<array{label: string, lat: float, lng: float}> $results The places.
	 * @return array{results: list<array{label: string, lat: float, lng: float}>, attribution: string, attribution_url: string}
	 */
	private function body( array $results ): array {
		return array(
			'results'         => $results,
			'attribution'     => $this->geocoder->attribution(),
			'attribution_url' => $this->geocoder->attribution_url(),
		);
	}

	/**
	 * An error as a response (Geocode_Controller::error()), never cached.
	 *
	 * @param WP_Error $error The error.
	 */
	private static function error( WP_Error $error ): WP_REST_Response {
		$response = Geocode_Controller::error( $error );
		$response->header( 'Cache-Control', 'no-store' );
		return $response;
	}
}
