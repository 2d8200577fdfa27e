<?php
/**
 * Router for PHP's built-in web server, serving the test site for tests/php/Http/.
 *
 *   CAIRN_TESTS_CONFIG=.cache/wp-tests/wp-tests-config.php php -S 127.0.0.1:PORT -t <core> http-router.php
 *
 * Loads WordPress like index.php does, with the test configuration (the core tree has no
 * wp-config.php of its own).
 *
 * @package Cairn\Maps
 */

( 'cli-server' === PHP_SAPI && getenv( 'CAIRN_TESTS_CONFIG' ) ) || exit; // The router the HTTP tests start PHP's built-in server with, never a page.

// phpcs:disable WordPress.NamingConventions.PrefixAllGlobals -- WordPress' own globals and constants.

require_once __DIR__ . '/config.php';
require_once __DIR__ . '/http-probe.php';
require getenv( 'CAIRN_TESTS_CONFIG' );
cairn_maps_tests_preload_hooks();
cairn_maps_tests_http_probe();

$cairn_maps_path = (string) parse_url( $_SERVER['REQUEST_URI'] ?? '/', PHP_URL_PATH ); // phpcs:ignore WordPress.Security.ValidatedSanitizedInput, WordPress.WP.AlternativeFunctions.parse_url_parse_url -- routing only, before WordPress loads.
if ( '/' !== $cairn_maps_path && is_file( ABSPATH . ltrim( $cairn_maps_path, '/' ) ) && '.php' !== substr( $cairn_maps_path, -4 ) ) {
	return false; // A static file: the built-in server sends it.
}

define( 'WP_USE_THEMES', true );
require_once ABSPATH . 'wp-settings.php';
wp();
require_once ABSPATH . WPINC . '/template-loader.php';
