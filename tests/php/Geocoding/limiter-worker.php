<?php
/**
 * One PHP process of the test site searching addresses, for Rate_Limiter_ProcessesTest:
 *
 *   CAIRN_TESTS_CONFIG=… CAIRN_GEOCODER_FIXTURE_BASE=http://localhost:PORT/nominatim \
 *     php limiter-worker.php <folder> <workers> <max wait> <query> [<query>…]
 *
 * Loads WordPress with the test configuration, then meets the other workers at a barrier (each
 * leaves a file `ready-<pid>` in the folder and waits until there is one per worker), so that
 * they search together however long each took to start. It writes `start <pid>` to the folder's
 * `events` file, searches each query with Geocoder::search( $query, 1, <max wait> ), writes
 * `end <pid>`, and prints one JSON line per query: `{ query, ok, code }`. The order of the events
 * shows whether the workers overlapped, with no clock.
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

$cairn_folder  = (string) $argv[1];
$cairn_workers = (int) $argv[2];
$cairn_wait    = (float) $argv[3];
$cairn_pid     = getmypid();
touch( "$cairn_folder/ready-$cairn_pid" );
// The barrier: at most 3,000 looks, 10 ms apart, for the others to be ready.
for ( $cairn_look = 0; $cairn_look < 3000; $cairn_look++ ) {
	if ( count( (array) glob( "$cairn_folder/ready-*" ) ) >= $cairn_workers ) {
		break;
	}
	usleep( 10000 );
}
file_put_contents( "$cairn_folder/events", "start $cairn_pid\n", FILE_APPEND | LOCK_EX );
$cairn_geocoder = new Cairn\Maps\Geocoding\Geocoder();
$cairn_lines    = array();
foreach ( array_slice( $argv, 4 ) as $cairn_query ) {
	$cairn_result  = $cairn_geocoder->search( $cairn_query, 1, $cairn_wait );
	$cairn_lines[] = wp_json_encode(
		array(
			'query' => $cairn_query,
			'ok'    => ! is_wp_error( $cairn_result ),
			'code'  => is_wp_error( $cairn_result ) ? $cairn_result->get_error_code() : '',
		)
	);
}
file_put_contents( "$cairn_folder/events", "end $cairn_pid\n", FILE_APPEND | LOCK_EX );
echo implode( "\n", $cairn_lines ) . "\n"; // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- JSON lines for the test.
