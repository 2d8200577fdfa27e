<?php
/**
 * What the early `304` answers of the public routes share.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

/**
 * The parts of an early `304` (an anonymous conditional GET answered before `init`) that do not
 * depend on the route: is the request anonymous and conditional, which REST route is it for, may it
 * be answered early at all, and sending the answer.
 *
 * A route's controller adds what is its own (its parameters, its ETag, its headers) and calls
 * send() only when everything matches; anything else goes on to the REST server.
 *
 * @since 0.2.0
 */
final class Early_Not_Modified {

	/**
	 * Request headers that carry credentials or change what the REST server does (method
	 * override): such requests are left to the REST server. (An overridden conditional GET of the
	 * feed gets the same 304 there, see Method_Override_Guard::answered_method(); any other
	 * overridden answer is kept by no shared cache, see Method_Override_Guard::no_store_overridden().)
	 */
	public const CREDENTIAL_HEADERS = array( 'HTTP_AUTHORIZATION', 'REDIRECT_HTTP_AUTHORIZATION', 'PHP_AUTH_USER', 'HTTP_X_WP_NONCE', 'HTTP_X_HTTP_METHOD_OVERRIDE' );

	/**
	 * Core's own `rest_authentication_errors` callbacks; any other one needs the REST server.
	 */
	private const CORE_AUTHENTICATION = array( 'rest_cookie_check_errors', 'rest_application_password_check_errors' );

	/**
	 * The request's `If-None-Match` when it is a GET or HEAD without credentials (no auth cookie,
	 * none of $blocking_headers), else null.
	 *
	 * @since 0.2.0
	 *
	 * @param array<string, mixed> $server           Request server variables (unslashed).
	 * @param array<string, mixed> $cookies          Cookies.
	 * @param string[]             $blocking_headers Server variables (`HTTP_…`) that leave the
	 *                                               request to the REST server when present.
	 */
	public static function anonymous_condition( array $server, array $cookies, array $blocking_headers = self::CREDENTIAL_HEADERS ): ?string {
		$match = $server['HTTP_IF_NONE_MATCH'] ?? null;
		if ( ! is_string( $match ) || '' === trim( $match ) || ! self::anonymous_read( $server, $cookies, $blocking_headers ) ) {
			return null;
		}
		return $match;
	}

	/**
	 * Whether the request is a GET or HEAD without credentials: no auth cookie and none of
	 * $blocking_headers (what an early answer of a public route needs, conditional or not).
	 *
	 * @since 0.8.0
	 *
	 * @param array<string, mixed> $server           Request server variables (unslashed).
	 * @param array<string, mixed> $cookies          Cookies.
	 * @param string[]             $blocking_headers Server variables (`HTTP_…`) that leave the
	 *                                               request to the REST server when present.
	 */
	public static function anonymous_read( array $server, array $cookies, array $blocking_headers = self::CREDENTIAL_HEADERS ): bool {
		$method = strtoupper( (string) ( $server['REQUEST_METHOD'] ?? '' ) );
		if ( 'GET' !== $method && 'HEAD' !== $method ) {
			return false;
		}
		foreach ( $blocking_headers as $name ) {
			if ( ! empty( $server[ $name ] ) ) {
				return false;
			}
		}
		$auth_cookies = array_filter( array( defined( 'AUTH_COOKIE' ) ? AUTH_COOKIE : '', defined( 'SECURE_AUTH_COOKIE' ) ? SECURE_AUTH_COOKIE : '', defined( 'LOGGED_IN_COOKIE' ) ? LOGGED_IN_COOKIE : '' ) );
		foreach ( array_keys( $cookies ) as $cookie ) {
			$cookie = (string) $cookie;
			if ( in_array( $cookie, $auth_cookies, true ) || ( 0 === strpos( $cookie, 'wordpress_' ) && 'wordpress_test_cookie' !== $cookie ) ) {
				return false;
			}
		}
		return true;
	}

	/**
	 * The REST route a request is for, without a trailing slash: the `rest_route` query parameter,
	 * or the path under the REST prefix when pretty permalinks are on. Null for anything else.
	 *
	 * @since 0.2.0
	 *
	 * @param array<string, mixed> $server Request server variables.
	 * @param array<string, mixed> $query  Query parameters.
	 */
	public static function route( array $server, array $query ): ?string {
		if ( isset( $query['rest_route'] ) ) {
			return is_string( $query['rest_route'] ) ? untrailingslashit( $query['rest_route'] ) : null;
		}
		if ( '' === (string) get_option( 'permalink_structure' ) ) {
			return null;
		}
		$path   = wp_parse_url( (string) ( $server['REQUEST_URI'] ?? '' ), PHP_URL_PATH );
		$home   = wp_parse_url( home_url( '/' ), PHP_URL_PATH );
		$prefix = untrailingslashit( is_string( $home ) ? $home : '/' ) . '/' . rest_get_url_prefix() . '/';
		if ( ! is_string( $path ) || 0 !== strpos( $path, $prefix ) ) {
			return null;
		}
		return untrailingslashit( '/' . substr( $path, strlen( $prefix ) ) );
	}

	/**
	 * Whether a route may be answered early: nothing beside core's own checks hooks
	 * `rest_authentication_errors` (a plugin that restricts the REST API needs the REST server),
	 * and the `cairn_maps_early_not_modified` filter allows it.
	 *
	 * @since 0.2.0
	 *
	 * @param string $route The REST route, e.g. `/cairn/v1/markers`.
	 */
	public static function allowed( string $route ): bool {
		if ( self::has_foreign_rest_authentication() ) {
			return false;
		}
		/**
		 * Filters whether a matching conditional request from an anonymous visitor for a public
		 * Cairn Maps route (the marker feed, the shapes feed, the maps of a post) is answered with 304 before
		 * `init` (true), or by the REST server (false).
		 *
		 * @since 0.1.0
		 * @since 0.2.0 The `$route` parameter.
		 *
		 * @param bool   $early Whether to answer early.
		 * @param string $route The REST route, e.g. `/cairn/v1/markers`.
		 */
		return (bool) apply_filters( 'cairn_maps_early_not_modified', true, $route );
	}

	/**
	 * Whether something beside core's own checks hooks `rest_authentication_errors`.
	 *
	 * @since 0.2.0
	 */
	public static function has_foreign_rest_authentication(): bool {
		global $wp_filter;
		$hook = $wp_filter['rest_authentication_errors'] ?? null;
		if ( ! $hook instanceof \WP_Hook ) {
			return false;
		}
		foreach ( $hook->callbacks as $callbacks ) {
			foreach ( $callbacks as $callback ) {
				if ( ! is_string( $callback['function'] ) || ! in_array( $callback['function'], self::CORE_AUTHENTICATION, true ) ) {
					return true;
				}
			}
		}
		return false;
	}

	/**
	 * Asks a route for the headers of an early `304` for the current request and sends it when
	 * there is one (see send()); otherwise the request goes on as usual.
	 *
	 * @since 0.2.0
	 *
	 * @param callable(array<string, mixed>, array<string, mixed>, array<string, mixed>): (array<string, string>|null) $headers_for The route's
	 *        check: request server variables and query (unslashed) and cookies in, headers or null out.
	 */
	public static function answer( callable $headers_for ): void {
		// phpcs:ignore WordPress.Security.NonceVerification.Recommended, WordPress.Security.ValidatedSanitizedInput -- read-only; the route validates every value.
		$headers = $headers_for( wp_unslash( $_SERVER ), wp_unslash( $_GET ), $_COOKIE );
		if ( null !== $headers ) {
			self::send( $headers );
		}
	}

	/**
	 * Sends a `304` with these headers and ends the request, unless output has started.
	 *
	 * @since 0.2.0
	 *
	 * @param array<string, string> $headers Headers.
	 */
	public static function send( array $headers ): void {
		if ( headers_sent() ) {
			return;
		}
		status_header( 304 );
		foreach ( $headers as $name => $value ) {
			header( "{$name}: {$value}" );
		}
		exit;
	}
}
