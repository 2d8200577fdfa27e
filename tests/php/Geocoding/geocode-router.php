<?php
/**
 * Router for the test web server of Geocode_HttpTest: the test site (tests/php/includes/
 * http-router.php) with the geocoding providers pointed at the fixture server named by
 * CAIRN_GEOCODER_FIXTURE_BASE.
 *
 * @package Cairn\Maps
 */

( 'cli-server' === PHP_SAPI && getenv( 'CAIRN_TESTS_CONFIG' ) && getenv( 'CAIRN_GEOCODER_FIXTURE_BASE' ) ) || exit; // The test web server only.

// phpcs:disable WordPress.NamingConventions.PrefixAllGlobals -- a test harness.

/**
 * The fixture server's address.
 */
function cairn_maps_tests_geocoder_base(): string {
	return (string) getenv( 'CAIRN_GEOCODER_FIXTURE_BASE' );
}

// A pre-load hook (plain arrays in $wp_filter become WP_Hook objects when plugin.php loads).
$GLOBALS['wp_filter']['cairn_maps_geocoder_base_url'][10]['cairn_maps_tests_geocoder_base'] = array( // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- before WordPress loads.
	'function'      => 'cairn_maps_tests_geocoder_base',
	'accepted_args' => 1,
);

return require dirname( __DIR__ ) . '/includes/http-router.php';
