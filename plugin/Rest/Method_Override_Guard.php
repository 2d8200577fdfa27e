<?php
/**
 * Method overrides on the public routes.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Support\Rest_Routes;
use WP_REST_Request;

/**
 * Keeps a method override (`?_method=`, `X-HTTP-Method-Override`, which core's REST server
 * applies) from poisoning shared caches on the public `cairn/v1` routes.
 *
 * A shared cache keys on the URL and the real method only. So the feed and a post's maps answer a
 * real GET or HEAD as that real method, whatever the override says (answered_method(),
 * maps_as_real_method()): a GET overridden into a HEAD must not leave an empty body in the cache.
 * Any other overridden answer on a public route is sent `Cache-Control: private, no-store`
 * (no_store_overridden()).
 *
 * @since 0.2.0
 */
class Method_Override_Guard {

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		// Late, after anything that sets caching headers.
		add_filter( 'rest_post_dispatch', array( $this, 'no_store_overridden' ), 1000, 3 );
		add_filter( 'rest_pre_dispatch', array( $this, 'maps_as_real_method' ), 10, 3 );
	}

	/**
	 * The method the feed answers a request as: its own, unless a method override (`?_method=` or
	 * `X-HTTP-Method-Override`, which core's REST server applies) came with a real GET or HEAD.
	 * Then the real method: a shared cache keys on the URL and the real method only, so an
	 * overridden GET gets the whole feed with the plain GET's headers and a real HEAD no body,
	 * whatever the override says. Internal requests (`rest_do_request()`) carry no override.
	 *
	 * @since 0.2.0 As Markers_Controller::answered_method().
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
	 * @since 0.2.0 As Markers_Controller::is_overridden().
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
	 * @since 0.2.0
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
			1 === preg_match( '@^/' . Rest_Routes::NAMESPACE . '/posts/\d+/maps$@i', $request->get_route() )
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
		if ( ( 'GET' === $method || 'HEAD' === $method ) && 1 === preg_match( '@^/' . Rest_Routes::NAMESPACE . '/(?:markers|posts/\d+/maps)$@i', $route ) ) {
			$method = self::answered_method( $request );
		}
		$real = self::real_method();
		if ( $real !== $method ) {
			$response->header( 'Cache-Control', 'private, no-store' );
		}
		return $response;
	}
}
