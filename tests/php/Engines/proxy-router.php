<?php
/**
 * Router of the web server behind the test proxy (tests/php/Engines/Proxy_HttpTest.php): the test
 * site of http-router.php, with a short public max-age on the plugin's feeds (the documented
 * `cairn_maps_feed_cache_control` filter, as a site's mu-plugin would set it), so that the test of
 * "gone within the max-age" is quick.
 *
 * @package Cairn\Maps
 */

( 'cli-server' === PHP_SAPI && getenv( 'CAIRN_TESTS_CONFIG' ) && getenv( 'CAIRN_TEST_PROXY_MAX_AGE' ) ) || exit; // The proxy tests' web server only.

/**
 * The feeds' Cache-Control for this test site.
 *
 * @return string
 */
function cairn_maps_tests_proxy_cache_control(): string {
	return 'public, max-age=' . (int) getenv( 'CAIRN_TEST_PROXY_MAX_AGE' );
}

// A plain array in $wp_filter becomes a WP_Hook when plugin.php loads (like core's tests_add_filter()).
$GLOBALS['wp_filter']['cairn_maps_feed_cache_control'][10]['cairn_maps_tests_proxy_cache_control'] = array( // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- a pre-load hook.
	'function'      => 'cairn_maps_tests_proxy_cache_control',
	'accepted_args' => 0,
);

return require dirname( __DIR__ ) . '/includes/http-router.php';
