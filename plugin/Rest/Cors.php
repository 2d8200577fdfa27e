<?php
/**
 * Cross-origin reads of the public cairn/v1 routes.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Settings\Allowed_Origins;
use Cairn\Maps\Support\Rest_Routes;
use WP_Error;
use WP_HTTP_Response;
use WP_REST_Request;

/**
 * The one home of the CORS rules for the public `cairn/v1` GET routes (the marker feed, a marker's
 * popup details, the shapes feed, a post's maps), so that a front end on another origin can read them.
 *
 * Default mode (option `cairn_maps_allowed_origins` empty): every answer carries
 * `Access-Control-Allow-Origin: *` and exposes `ETag`, whatever the request's Origin, and no
 * `Vary: Origin`: one cached copy serves every site (CDN). Restricted mode (the option lists
 * origins): only a listed Origin, compared exactly, is echoed, and answers vary by Origin. Never
 * `Access-Control-Allow-Credentials`: browsers then never send cookies with these requests, and a
 * credentialed request cannot read the answer.
 *
 * Core's `rest_send_cors_headers()` echoes any Origin with credentials (safe only because cookie
 * authentication needs a nonce); it stays in charge of every other route and method, including
 * the import/export routes and everything under `/wp/v2`.
 *
 * This class writes the headers; which origins may read, and how the setting's entries are
 * normalised, are Allowed_Origins' rules (the static methods here that read them delegate to it).
 *
 * Everything here that an answer needs is static and reads only options, so the early 304 of the
 * feed can call it before `init`.
 *
 * @since 0.2.0
 */
class Cors {

	/**
	 * The public routes, as patterns over the request route (matched like core does: anchored,
	 * case-insensitive). Only their GET and HEAD answers and their preflights get these rules.
	 */
	public const PUBLIC_ROUTES = array(
		'/' . Rest_Routes::NAMESPACE . '/markers',
		'/' . Rest_Routes::NAMESPACE . '/markers/\d+',
		'/' . Rest_Routes::NAMESPACE . '/shapes',
		'/' . Rest_Routes::NAMESPACE . '/shapes/tiles/[^/]+/[^/]+/[^/]+',
		'/' . Rest_Routes::NAMESPACE . '/posts/\d+/maps',
		'/' . Rest_Routes::NAMESPACE . '/tiles/[^/]+/[^/]+/[^/]+',
		'/' . Rest_Routes::NAMESPACE . '/places',
		'/' . Rest_Routes::NAMESPACE . '/places/summary',
	);

	/**
	 * Methods a cross-origin page may use on the public routes.
	 */
	public const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

	/**
	 * Request headers a cross-origin page may send: `If-None-Match` to revalidate by script, and
	 * `Content-Type` that some fetch wrappers add to every request. Never Authorization or X-WP-Nonce.
	 */
	public const ALLOWED_HEADERS = 'If-None-Match, Content-Type';

	/**
	 * Response headers a cross-origin script may read besides the CORS-safelisted ones.
	 */
	public const EXPOSED_HEADERS = 'ETag';

	/**
	 * How long a browser may reuse a preflight answer, in seconds (Chromium caps it at 7200).
	 */
	public const PREFLIGHT_MAX_AGE = 600;

	/**
	 * Every header this class decides on the public routes; core's values are replaced.
	 */
	private const CORS_HEADERS = array(
		'Access-Control-Allow-Origin',
		'Access-Control-Allow-Credentials',
		'Access-Control-Allow-Methods',
		'Access-Control-Allow-Headers',
		'Access-Control-Expose-Headers',
		'Access-Control-Max-Age',
	);

	/**
	 * Most origins the allowed origins setting holds.
	 */
	public const MAX_ORIGINS = Allowed_Origins::MAX_ORIGINS;

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		// After core's rest_send_cors_headers() (10), before the feed is printed (serve_feed, 12).
		add_filter( 'rest_pre_serve_request', array( $this, 'send_rest_headers' ), 11, 3 );
	}

	/**
	 * The CORS headers of a GET or HEAD answer of a public route for a request from this Origin
	 * ('' when the request has none): header name => value, or an empty array when that origin may
	 * not read. Never a credentials header. Send vary() beside it, or use with_public_headers().
	 *
	 * @param string $origin The request's Origin header, '' when absent.
	 * @return array<string, string>
	 */
	public static function public_headers( string $origin ): array {
		$allow = Allowed_Origins::allow_origin( $origin );
		if ( null === $allow ) {
			return array();
		}
		return array(
			'Access-Control-Allow-Origin'   => $allow,
			'Access-Control-Expose-Headers' => self::EXPOSED_HEADERS,
		);
	}

	/**
	 * An answer's headers for a GET or HEAD of a public route from this Origin: its own headers
	 * with public_headers() in place of any CORS header, and its Vary rewritten by vary(). For
	 * answers sent without the REST server (the early 304s).
	 *
	 * @param array<string, string> $headers The answer's headers; `Vary` the fields it varies on.
	 * @param string                $origin  The request's Origin header, '' when absent.
	 * @return array<string, string>
	 */
	public static function with_public_headers( array $headers, string $origin ): array {
		return self::replace_headers( $headers, self::public_headers( $origin ), array( (string) ( $headers['Vary'] ?? '' ) ) );
	}

	/**
	 * The CORS headers of an answer to a preflight (OPTIONS) of a public route, or an empty array
	 * when that origin may not read.
	 *
	 * @param string $origin The request's Origin header, '' when absent.
	 * @return array<string, string>
	 */
	public static function preflight_headers( string $origin ): array {
		$allow = Allowed_Origins::allow_origin( $origin );
		if ( null === $allow ) {
			return array();
		}
		return array(
			'Access-Control-Allow-Origin'  => $allow,
			'Access-Control-Allow-Methods' => self::ALLOWED_METHODS,
			'Access-Control-Allow-Headers' => self::ALLOWED_HEADERS,
			'Access-Control-Max-Age'       => (string) self::PREFLIGHT_MAX_AGE,
		);
	}

	/**
	 * The Vary header of a public route's answer, from the fields it varies on otherwise: Origin
	 * removed in the default mode (the answer is the same for every origin), added in the
	 * restricted mode (whether the origin is echoed depends on it). '' when nothing is left.
	 *
	 * @param string $vary Comma-separated field names, e.g. `Accept-Encoding` or `Origin, Accept-Encoding`.
	 */
	public static function vary( string $vary ): string {
		$fields = array();
		foreach ( explode( ',', $vary ) as $field ) {
			$field = trim( $field );
			if ( '' !== $field && 'origin' !== strtolower( $field ) ) {
				$fields[ strtolower( $field ) ] = $field;
			}
		}
		if ( Allowed_Origins::is_restricted() ) {
			$fields['origin'] = 'Origin';
		}
		return implode( ', ', $fields );
	}

	/**
	 * The origins allowed to read, as stored (normalised when saved); empty means any.
	 *
	 * @see Allowed_Origins::allowed_origins()
	 *
	 * @return string[]
	 */
	public static function allowed_origins(): array {
		return Allowed_Origins::allowed_origins();
	}

	/**
	 * Whether only the listed origins may read.
	 *
	 * @see Allowed_Origins::is_restricted()
	 */
	public static function is_restricted(): bool {
		return Allowed_Origins::is_restricted();
	}

	/**
	 * Whether a request gets these rules: GET, HEAD or OPTIONS on a public route.
	 *
	 * @param string $method The request method (after any override).
	 * @param string $route  The request route, e.g. `/cairn/v1/markers/12`.
	 */
	public static function is_public_request( string $method, string $route ): bool {
		if ( ! in_array( strtoupper( $method ), array( 'GET', 'HEAD', 'OPTIONS' ), true ) ) {
			return false;
		}
		foreach ( self::PUBLIC_ROUTES as $pattern ) {
			if ( 1 === preg_match( '@^' . $pattern . '$@i', $route ) ) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Puts these rules in place of core's CORS headers on a public route's answer served by the
	 * REST server (the feed's own printing included): core has sent its headers with header()
	 * already, so they are removed and ours sent; the response object records the result.
	 * Hooked to `rest_pre_serve_request`, after core's `rest_send_cors_headers()`.
	 *
	 * @param bool                  $served  Whether the request was served already.
	 * @param WP_HTTP_Response|null $result  The response.
	 * @param WP_REST_Request|null  $request The request.
	 * @return bool Unchanged.
	 */
	public function send_rest_headers( $served, $result = null, $request = null ) {
		if ( $served || ! $result instanceof WP_HTTP_Response || ! $request instanceof WP_REST_Request
			|| ! self::is_public_request( $request->get_method(), $request->get_route() ) ) {
			return $served;
		}
		$origin  = (string) $request->get_header( 'Origin' );
		$cors    = 'OPTIONS' === strtoupper( $request->get_method() ) ? self::preflight_headers( $origin ) : self::public_headers( $origin );
		$vary    = array_merge( array( (string) ( $result->get_headers()['Vary'] ?? '' ) ), self::sent_header_values( 'Vary' ) );
		$headers = self::replace_headers( $result->get_headers(), $cors, $vary );
		$result->set_headers( $headers );

		if ( ! headers_sent() ) {
			foreach ( array_merge( self::CORS_HEADERS, array( 'Vary' ) ) as $name ) {
				header_remove( $name );
				if ( isset( $headers[ $name ] ) ) {
					header( "{$name}: {$headers[ $name ]}" );
				}
			}
		}
		return $served;
	}

	/**
	 * Headers with every CORS header replaced by $cors and one Vary made from $vary by vary().
	 *
	 * @param array<string, string> $headers The answer's headers.
	 * @param array<string, string> $cors    The CORS headers to send.
	 * @param string[]              $vary    Vary values the answer has (from it and from header()).
	 * @return array<string, string>
	 */
	private static function replace_headers( array $headers, array $cors, array $vary ): array {
		$vary    = self::vary( implode( ', ', $vary ) );
		$headers = array_diff_key( $headers, array_flip( array_merge( self::CORS_HEADERS, array( 'Vary' ) ) ) );
		return array_merge( $headers, $cors, '' === $vary ? array() : array( 'Vary' => $vary ) );
	}

	/**
	 * Values of a header already handed to PHP with header() (core's `Vary: Origin`, say).
	 *
	 * @param string $name Header name.
	 * @return string[]
	 */
	private static function sent_header_values( string $name ): array {
		$values = array();
		$prefix = strtolower( $name ) . ':';
		foreach ( headers_list() as $line ) {
			if ( 0 === strpos( strtolower( $line ), $prefix ) ) {
				$values[] = trim( substr( $line, strlen( $prefix ) ) );
			}
		}
		return $values;
	}

	/**
	 * Normalises a list of origins for storage (the allowed origins setting).
	 *
	 * @see Allowed_Origins::normalize_origins()
	 *
	 * @param mixed $value The submitted list.
	 * @return string[]|WP_Error The list, or why the first bad entry is refused (status 400).
	 */
	public static function normalize_origins( $value ) {
		return Allowed_Origins::normalize_origins( $value );
	}

	/**
	 * Normalises one origin the way browsers serialise the Origin header.
	 *
	 * @see Allowed_Origins::normalize_origin()
	 *
	 * @param string $value A candidate origin.
	 * @return string|WP_Error The origin, or why it is refused (status 400).
	 */
	public static function normalize_origin( string $value ) {
		return Allowed_Origins::normalize_origin( $value );
	}
}
