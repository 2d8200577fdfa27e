<?php
/**
 * Cross-origin reads of the public cairn/v1 routes.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Settings\Settings;
use WP_Error;
use WP_HTTP_Response;
use WP_REST_Request;

/**
 * The one home of the CORS rules for the public `cairn/v1` GET routes (the marker feed, a marker's
 * popup details, a post's maps), so that a front end on another origin can read them.
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
		'/' . Markers_Controller::REST_NAMESPACE . '/markers',
		'/' . Markers_Controller::REST_NAMESPACE . '/markers/\d+',
		'/' . Markers_Controller::REST_NAMESPACE . '/posts/\d+/maps',
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
	public const MAX_ORIGINS = 100;

	/**
	 * An IPv4 address in dotted decimal without leading zeros, as browsers serialise it.
	 */
	private const IPV4 = '/^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/';

	/**
	 * Default ports, dropped from origins as browsers do when they send one.
	 */
	private const DEFAULT_PORTS = array(
		'http'  => 80,
		'https' => 443,
	);

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
		$allow = self::allow_origin( $origin );
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
		$allow = self::allow_origin( $origin );
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
		if ( self::is_restricted() ) {
			$fields['origin'] = 'Origin';
		}
		return implode( ', ', $fields );
	}

	/**
	 * The origins allowed to read, as stored (normalised when saved); empty means any.
	 *
	 * @return string[]
	 */
	public static function allowed_origins(): array {
		$stored = get_option( Settings::ORIGINS_OPTION, array() );
		if ( null === $stored || false === $stored ) {
			return array();
		}
		return array_values(
			array_filter(
				(array) $stored,
				static function ( $origin ) {
					return is_string( $origin ) && '' !== $origin;
				}
			)
		);
	}

	/**
	 * Whether only the listed origins may read.
	 */
	public static function is_restricted(): bool {
		return array() !== self::allowed_origins();
	}

	/**
	 * The Access-Control-Allow-Origin value for this Origin, or null when it may not read.
	 *
	 * @param string $origin The request's Origin header, '' when absent.
	 */
	private static function allow_origin( string $origin ): ?string {
		$allowed = self::allowed_origins();
		if ( array() === $allowed ) {
			return '*';
		}
		// Exact: browsers send an origin serialised (lowercase, no default port), as it is stored.
		return '' !== $origin && in_array( $origin, $allowed, true ) ? $origin : null;
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
	 * Normalises a list of origins for storage: each one normalised (see normalize_origin()),
	 * blank entries dropped, duplicates removed, order kept; at most MAX_ORIGINS.
	 *
	 * @param mixed $value The submitted list.
	 * @return string[]|WP_Error The list, or why the first bad entry is refused (status 400).
	 */
	public static function normalize_origins( $value ) {
		if ( ! is_array( $value ) ) {
			return self::origin_error( 'list', __( 'The allowed origins must be a list of origins, such as https://app.example.com.', 'cairn-maps' ) );
		}
		$origins = array();
		foreach ( $value as $entry ) {
			if ( ! is_string( $entry ) ) {
				return self::origin_error( 'list', __( 'Each allowed origin must be text, such as https://app.example.com.', 'cairn-maps' ) );
			}
			if ( '' === trim( $entry ) ) {
				continue;
			}
			$origin = self::normalize_origin( $entry );
			if ( is_wp_error( $origin ) ) {
				return $origin;
			}
			$origins[ $origin ] = $origin;
		}
		if ( count( $origins ) > self::MAX_ORIGINS ) {
			/* translators: %d: most origins. */
			return self::origin_error( 'count', sprintf( __( 'At most %d origins can be allowed.', 'cairn-maps' ), self::MAX_ORIGINS ) );
		}
		return array_values( $origins );
	}

	/**
	 * Normalises one origin the way browsers serialise the Origin header: `scheme://host[:port]`
	 * with http or https, scheme and host in lowercase, the scheme's default port dropped
	 * (`https://a.example:443` is stored as `https://a.example`), a single trailing slash dropped.
	 * Refuses `null`, wildcards, other schemes, user names, paths, queries, fragments, malformed
	 * hosts or ports, and non-ASCII host names (browsers send their `xn--` form).
	 *
	 * @param string $value A candidate origin.
	 * @return string|WP_Error The origin, or why it is refused (status 400).
	 */
	public static function normalize_origin( string $value ) {
		$value = trim( $value );
		if ( 'null' === strtolower( $value ) ) {
			return self::origin_error( 'null', __( '“null” cannot be allowed: it is the origin of local files and sandboxed frames, which any page can create. Enter the exact origin of your front end, such as https://app.example.com.', 'cairn-maps' ) );
		}
		if ( false !== strpos( $value, '*' ) ) {
			/* translators: %s: the refused entry. */
			return self::origin_error( 'wildcard', sprintf( __( '“%s” contains a wildcard. List each origin exactly, such as https://app.example.com; leave the list empty to let any site read the public map data.', 'cairn-maps' ), $value ) );
		}
		if ( 1 !== preg_match( '#^(https?)://(.*)$#is', $value, $parts ) ) {
			/* translators: %s: the refused entry. */
			return self::origin_error( 'scheme', sprintf( __( '“%s” is not an origin: it must start with https:// or http://, as in https://app.example.com.', 'cairn-maps' ), $value ) );
		}
		$scheme    = strtolower( $parts[1] );
		$authority = '/' === substr( $parts[2], -1 ) ? substr( $parts[2], 0, -1 ) : $parts[2];
		$extra     = strcspn( $authority, '/?#' );
		if ( $extra < strlen( $authority ) ) {
			$suggestion = self::normalize_origin( $scheme . '://' . substr( $authority, 0, $extra ) );
			return self::origin_error(
				'path',
				is_string( $suggestion )
					/* translators: 1: the refused entry, 2: the origin it contains. */
					? sprintf( __( '“%1$s” has a path, query or fragment. An origin is only the scheme, host and port: %2$s', 'cairn-maps' ), $value, $suggestion )
					/* translators: %s: the refused entry. */
					: sprintf( __( '“%s” has a path, query or fragment. An origin is only the scheme, host and port, such as https://app.example.com.', 'cairn-maps' ), $value )
			);
		}
		if ( false !== strpos( $authority, '@' ) ) {
			/* translators: %s: the refused entry. */
			return self::origin_error( 'userinfo', sprintf( __( '“%s” contains a user name or password. An origin is only the scheme, host and port, such as https://app.example.com.', 'cairn-maps' ), $value ) );
		}
		if ( 1 === preg_match( '/[^\x00-\x7F]/', $authority ) ) {
			/* translators: %s: the refused entry. */
			return self::origin_error( 'ascii', sprintf( __( 'Write the domain of “%s” in its ASCII form (starting with xn--), as browsers send it.', 'cairn-maps' ), $value ) );
		}
		$host = self::normalize_host_port( $authority, self::DEFAULT_PORTS[ $scheme ] );
		if ( null === $host ) {
			/* translators: %s: the refused entry. */
			return self::origin_error( 'host', sprintf( __( '“%s” does not have a valid host name (letters, digits, hyphens and dots, or an IPv6 address in brackets) and port (1 to 65535).', 'cairn-maps' ), $value ) );
		}
		return $scheme . '://' . $host;
	}

	/**
	 * `host[:port]` in lowercase without the default port, or null when malformed.
	 *
	 * @param string $authority    Host and optional port.
	 * @param int    $default_port The scheme's default port.
	 */
	private static function normalize_host_port( string $authority, int $default_port ): ?string {
		if ( 1 === preg_match( '/^\[([0-9a-f:.]+)\](?::(\d{1,5}))?$/i', $authority, $parts ) ) {
			$host = self::serialize_ipv6( $parts[1] );
		} elseif ( 1 === preg_match( '/^([a-z0-9.-]+)(?::(\d{1,5}))?$/i', $authority, $parts ) ) {
			$host = strtolower( $parts[1] );
			if ( strlen( $host ) > 253 ) {
				return null;
			}
			$labels = explode( '.', $host );
			foreach ( $labels as $label ) {
				if ( 1 !== preg_match( '/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/', $label ) ) {
					return null;
				}
			}
			// A numeric last label makes it an IPv4 address to browsers: only the dotted decimal
			// form they write back can match.
			if ( 1 === preg_match( '/^(\d+|0x[0-9a-f]*)$/', (string) end( $labels ) ) && 1 !== preg_match( self::IPV4, $host ) ) {
				return null;
			}
		} else {
			return null;
		}
		$port = isset( $parts[2] ) ? (int) $parts[2] : $default_port;
		if ( null === $host || $port < 1 || $port > 65535 ) {
			return null;
		}
		return $port === $default_port ? $host : $host . ':' . $port;
	}

	/**
	 * An IPv6 address in brackets as browsers serialise it in an origin (the URL Standard: lowercase
	 * hexadecimal pieces, the first longest run of two or more zero pieces as `::`), or null.
	 *
	 * @param string $address The address, without brackets.
	 */
	private static function serialize_ipv6( string $address ): ?string {
		$packed = filter_var( $address, FILTER_VALIDATE_IP, FILTER_FLAG_IPV6 ) ? inet_pton( $address ) : false;
		if ( false === $packed || 16 !== strlen( $packed ) ) {
			return null;
		}
		$pieces = array_values( (array) unpack( 'n8', $packed ) );
		// The first longest run of zero pieces, if at least two long.
		list( $start, $length ) = array( -1, 1 );
		for ( $i = 0; $i < 8; $i++ ) {
			$run = 0;
			while ( $i + $run < 8 && 0 === $pieces[ $i + $run ] ) {
				++$run;
			}
			if ( $run > $length ) {
				list( $start, $length ) = array( $i, $run );
			}
		}
		$hex = array_map( 'dechex', $pieces );
		if ( $start < 0 ) {
			return '[' . implode( ':', $hex ) . ']';
		}
		return '[' . implode( ':', array_slice( $hex, 0, $start ) ) . '::' . implode( ':', array_slice( $hex, $start + $length ) ) . ']';
	}

	/**
	 * A refusal of the allowed origins setting: code `cairn_maps_origin_<kind>`, status 400.
	 *
	 * @param string $kind    list, count, null, wildcard, scheme, path, userinfo, ascii or host.
	 * @param string $message What is wrong, with an example of what is right.
	 */
	private static function origin_error( string $kind, string $message ): WP_Error {
		return new WP_Error( 'cairn_maps_origin_' . $kind, $message, array( 'status' => 400 ) );
	}
}
