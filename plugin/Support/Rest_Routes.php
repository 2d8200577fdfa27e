<?php
/**
 * The plugin's REST namespace, written once.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Support;

defined( 'ABSPATH' ) || exit;

/**
 * The `cairn/v1` namespace of the plugin's own routes, and their addresses. Every route is
 * registered under NAMESPACE and every address the plugin prints is built by url(), so the
 * namespace is never written anywhere else.
 *
 * @since 0.4.0
 */
final class Rest_Routes {

	/**
	 * The REST namespace of the plugin's routes (DESIGN.md's contract).
	 */
	public const NAMESPACE = 'cairn/v1';

	/**
	 * The address of a route of the namespace, e.g. `url( 'markers' )` for the feed. A trailing
	 * slash is kept (`markers/` is the base a marker's id is appended to).
	 *
	 * @param string $path The route inside the namespace, without a leading slash.
	 */
	public static function url( string $path = '' ): string {
		return rest_url( self::NAMESPACE . '/' . $path );
	}
}
