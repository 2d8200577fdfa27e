<?php
/**
 * How the public GeoJSON feeds answer.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Feed\Geojson_Feed;
use WP_Error;
use WP_REST_Request;
use WP_REST_Response;

/**
 * The rules the public feeds share — the markers feed (`GET /cairn/v1/markers`, Markers_Controller)
 * and the shapes feed (`GET /cairn/v1/shapes`, Shapes_Controller): the strong ETag from the feed's
 * version token, `304` on a matching `If-None-Match` (sooner, before `init`, for anonymous
 * requests: early_headers()), Cache-Control by Cache_Headers, the pre-built body served by
 * Markers_Controller::serve_feed(), and the global REST parameters a pre-built document cannot
 * honour. A route decides its own parameters and which feed answers them.
 *
 * @since 0.5.0
 */
final class Feed_Answer {

	/**
	 * Global REST parameters that would force a whole feed into PHP arrays.
	 */
	public const UNSUPPORTED_GLOBALS = array( '_fields', '_envelope', '_jsonp' );

	/**
	 * A 400 when the request names a global REST parameter the feed cannot honour, else null.
	 *
	 * @param WP_REST_Request $request The request.
	 * @param string          $message Translated message; `%s` is the parameter's name.
	 */
	public static function unsupported_global( WP_REST_Request $request, string $message ): ?WP_Error {
		foreach ( self::UNSUPPORTED_GLOBALS as $name ) {
			if ( null !== $request->get_param( $name ) ) {
				return new WP_Error(
					'rest_invalid_param',
					sprintf( $message, $name ),
					array(
						'status' => 400,
						'params' => array( $name => __( 'Not supported by this route.', 'cairn-maps' ) ),
					)
				);
			}
		}
		return null;
	}

	/**
	 * The feed's answer for validated filters: `304` when the ETag matches, headers only for HEAD,
	 * else the pre-built payload (anonymous visitors may get the previous build, with its ETag,
	 * while another request makes the new one).
	 *
	 * @param Geojson_Feed         $feed    The feed that serves these filters.
	 * @param array<string, mixed> $filters Validated filters.
	 * @param WP_REST_Request      $request The request.
	 */
	public static function respond( Geojson_Feed $feed, array $filters, WP_REST_Request $request ): WP_REST_Response {
		$etag      = $feed->etag( $filters );
		$logged_in = is_user_logged_in();
		$headers   = array(
			'ETag'          => $etag,
			'Cache-Control' => Cache_Headers::cache_control( $logged_in, false ),
			'Vary'          => 'Accept-Encoding',
		);
		$condition = $request->get_header( 'If-None-Match' );
		if ( Cache_Headers::etag_matches( $condition, $etag ) ) {
			return self::not_modified( $headers, $request );
		}
		if ( 'HEAD' === Method_Override_Guard::answered_method( $request ) ) {
			return new WP_REST_Response( null, 200, $headers );
		}
		$payload = $feed->payload( $filters, ! $logged_in );
		if ( '' !== $payload->version() && $feed->etag( $filters, $payload->version() ) !== $etag ) {
			$headers['ETag']          = $feed->etag( $filters, $payload->version() );
			$headers['Cache-Control'] = Cache_Headers::cache_control( $logged_in, true );
			if ( Cache_Headers::etag_matches( $condition, $headers['ETag'] ) ) {
				return self::not_modified( $headers, $request );
			}
		}
		return new Geojson_Response( $payload, 200, $headers );
	}

	/**
	 * The headers of an early `304` for an anonymous conditional request whose route, parameters
	 * and permission the caller has checked, or null when the ETag does not match. Same headers as
	 * respond() gives (ETag, Cache-Control, Vary, CORS for the request's Origin).
	 *
	 * @param Geojson_Feed         $feed    The feed that serves these filters.
	 * @param array<string, mixed> $filters Validated filters.
	 * @param string               $match   The request's `If-None-Match`.
	 * @param array<string, mixed> $server  Request server variables (unslashed).
	 * @return array<string, string>|null
	 */
	public static function early_headers( Geojson_Feed $feed, array $filters, string $match, array $server ): ?array {
		$etag = $feed->etag( $filters );
		if ( ! Cache_Headers::etag_matches( $match, $etag ) ) {
			return null;
		}
		// An Origin is no credential: the answer carries the same CORS headers as the REST route's.
		return Cors::with_public_headers(
			array(
				'Content-Type'  => 'application/json; charset=' . get_option( 'blog_charset' ),
				'ETag'          => Cache_Headers::representation_etag( $etag, (string) ( $server['HTTP_ACCEPT_ENCODING'] ?? '' ) ),
				'Cache-Control' => Cache_Headers::cache_control( false, false ),
				'Vary'          => 'Accept-Encoding',
			),
			(string) ( $server['HTTP_ORIGIN'] ?? '' )
		);
	}

	/**
	 * A 304 with the ETag of the representation the client would get (the gzip one when it accepts
	 * gzip).
	 *
	 * @param array<string, string> $headers Headers of the answer.
	 * @param WP_REST_Request       $request The request.
	 */
	private static function not_modified( array $headers, WP_REST_Request $request ): WP_REST_Response {
		$headers['ETag'] = Cache_Headers::representation_etag( $headers['ETag'], (string) $request->get_header( 'Accept-Encoding' ) );
		return new WP_REST_Response( null, 304, $headers );
	}
}
