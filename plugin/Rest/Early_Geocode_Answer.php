<?php
/**
 * A visitor's kept address, answered before `init`.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Geocoding\Visitor_Geocode_Controller;
use Cairn\Maps\Support\Rest_Routes;

/**
 * `GET /cairn/v1/geocode/visitor?q=…` ("near a place") from an anonymous visitor, for a text whose
 * address the geocoding cache keeps, is answered on `after_setup_theme` with the body and caching
 * the REST route gives (Visitor_Geocode_Controller::kept_answer()): the answer then costs
 * WordPress' start-up and one option read, not `init` and the REST server. Anything else goes on
 * to the REST server: another method, credentials, an Origin (the REST server decides
 * cross-origin reads of this route), a parameter besides `q`, a plugin's own REST authentication
 * or the `cairn_maps_early_not_modified` filter saying no, the route not offered, or no kept
 * answer (where the visitor's quota applies).
 *
 * @since 0.8.0
 */
final class Early_Geocode_Answer {

	/**
	 * The visitors' route.
	 *
	 * @var Visitor_Geocode_Controller
	 */
	private Visitor_Geocode_Controller $route;

	/**
	 * Creates the early answer.
	 *
	 * @param Visitor_Geocode_Controller $route The visitors' route.
	 */
	public function __construct( Visitor_Geocode_Controller $route ) {
		$this->route = $route;
	}

	/**
	 * Wires hooks: last on after_setup_theme, as the feed's early 304.
	 */
	public function add_hooks(): void {
		add_action( 'after_setup_theme', array( $this, 'answer' ), PHP_INT_MAX );
	}

	/**
	 * Sends the early answer of this request and ends it, when there is one (for_request()).
	 */
	public function answer(): void {
		// phpcs:ignore WordPress.Security.NonceVerification.Recommended, WordPress.Security.ValidatedSanitizedInput -- read-only; `q` is normalised and checked as the route does.
		$early = $this->for_request( wp_unslash( $_SERVER ), wp_unslash( $_GET ), $_COOKIE );
		if ( null === $early || headers_sent() ) {
			return;
		}
		status_header( 200 );
		foreach ( $early['headers'] as $name => $value ) {
			header( "{$name}: {$value}" );
		}
		echo $early['body']; // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- JSON from wp_json_encode, sent as application/json with nosniff.
		exit;
	}

	/**
	 * The early answer of a request, or null when it must go on to the REST server (see the class).
	 *
	 * @param array<string, mixed> $server  Request server variables (unslashed).
	 * @param array<string, mixed> $query   Query parameters (unslashed).
	 * @param array<string, mixed> $cookies Cookies.
	 * @return array{headers: array<string, string>, body: string}|null
	 */
	public function for_request( array $server, array $query, array $cookies ): ?array {
		if ( 'GET' !== strtoupper( (string) ( $server['REQUEST_METHOD'] ?? '' ) ) || ! empty( $server['HTTP_ORIGIN'] ) ) {
			return null;
		}
		$route = '/' . Rest_Routes::NAMESPACE . Visitor_Geocode_Controller::ROUTE;
		if ( ! Early_Not_Modified::anonymous_read( $server, $cookies )
			|| array() !== array_diff( array_map( 'strval', array_keys( $query ) ), array( 'rest_route', 'q' ) )
			|| ! is_string( $query['q'] ?? null )
			|| Early_Not_Modified::route( $server, $query ) !== $route
			|| ! Early_Not_Modified::allowed( $route ) ) {
			return null;
		}
		return $this->route->kept_answer( $query['q'] );
	}
}
