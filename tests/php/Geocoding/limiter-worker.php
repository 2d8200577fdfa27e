<?php
/**
 * One PHP process of the test site searching addresses, for Rate_LimiterTest's concurrency test:
 *
 *   CAIRN_TESTS_CONFIG=… CAIRN_GEOCODER_FIXTURE_BASE=http://localhost:PORT/nominatim \
 *     php limiter-worker.php <start unix time> <max wait> <query> [<query>…]
 *
 * Loads WordPress with the test configuration, waits for the start time (so that the workers
 * begin together), searches each query with Geocoder::search( $query, 1, <max wait> ) and prints
 * one JSON line per query: `{ query, ok, code, time }`.
 *
 * @package Cairn\Maps
 */

'cli' === PHP_SAPI && getenv( 'CAIRN_TESTS_CONFIG' ) || exit; // A test helper, never a page.

// phpcs:disable WordPress.NamingConventions.PrefixAllGlobals, WordPress.WP.AlternativeFunctions -- WordPress' own globals; a test process.

require_once dirname( __DIR__ ) . '/includes/config.php';
require getenv( 'CAIRN_TESTS_CONFIG' );
cairn_maps_tests_server_vars();
cairn_maps_tests_preload_hooks();
require_once ABSPATH . 'wp-settings.php';

add_filter(
	'cairn_maps_geocoder_base_url',
	static fn() => (string) getenv( 'CAIRN_GEOCODER_FIXTURE_BASE' )
);

$cairn_start = (float) $argv[1];
$cairn_wait  = (float) $argv[2];
$cairn_gap   = $cairn_start - microtime( true );
if ( $cairn_gap > 0 ) {
	usleep( (int) ( $cairn_gap * 1e6 ) );
}
$cairn_geocoder = new Cairn\Maps\Geocoding\Geocoder();
foreach ( array_slice( $argv, 3 ) as $cairn_query ) {
	$cairn_result = $cairn_geocoder->search( $cairn_query, 1, $cairn_wait );
	echo wp_json_encode(
		array(
			'query' => $cairn_query,
			'ok'    => ! is_wp_error( $cairn_result ),
			'code'  => is_wp_error( $cairn_result ) ? $cairn_result->get_error_code() : '',
			'time'  => microtime( true ),
		)
	) . "\n";
}
