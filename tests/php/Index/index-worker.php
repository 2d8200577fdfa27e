<?php
/**
 * One PHP process of the test site writing the place index outside any transaction of a test,
 * for Place_Store_CommitTest:
 *
 *   CAIRN_TESTS_CONFIG=… php index-worker.php publish <title> <lat> <lng>
 *   CAIRN_TESTS_CONFIG=… php index-worker.php fail <title> <lat> <lng>   (the words insert fails)
 *   CAIRN_TESTS_CONFIG=… php index-worker.php rebuild
 *   CAIRN_TESTS_CONFIG=… php index-worker.php seed <count>               (publishes that many markers)
 *   CAIRN_TESTS_CONFIG=… php index-worker.php start                      (start_rebuild())
 *   CAIRN_TESTS_CONFIG=… php index-worker.php steps <go> <batch>         (from microtime <go> on,
 *       one step at a time as admin page loads run them, until no rebuild is pending; every write
 *       of places is slowed by 10 ms, as on a busy database, so that two workers overlap)
 *
 * Loads WordPress with the test configuration (autocommit on, as on a live site), does that and
 * prints one JSON line: `{ id }`, `{ ready }`, `{ ids }` or `{ results }` (what each run of
 * steps said, counted). Everything it writes is committed for real.
 *
 * @package Cairn\Maps
 */

'cli' === PHP_SAPI && getenv( 'CAIRN_TESTS_CONFIG' ) || exit; // A test helper, never a page.

// phpcs:disable WordPress.NamingConventions.PrefixAllGlobals -- WordPress' own globals; a test process.

require_once dirname( __DIR__ ) . '/includes/config.php';
require getenv( 'CAIRN_TESTS_CONFIG' );
cairn_maps_tests_server_vars();
cairn_maps_tests_preload_hooks();
require_once ABSPATH . 'wp-settings.php';

$cairn_mode = (string) ( $argv[1] ?? '' );
if ( 'rebuild' === $cairn_mode ) {
	$cairn_index = \Cairn\Maps\Plugin::instance()->get( 'place_index' );
	echo wp_json_encode( array( 'ready' => $cairn_index->rebuild_now() && $cairn_index->is_ready() ) ) . "\n";
	exit( 0 );
}
if ( 'seed' === $cairn_mode ) {
	$cairn_ids = array();
	for ( $cairn_n = 0; $cairn_n < (int) ( $argv[2] ?? 1 ); $cairn_n++ ) {
		$cairn_ids[] = wp_insert_post(
			array(
				'post_type'   => 'cairn_marker',
				'post_status' => 'publish',
				'post_title'  => "Worker hut $cairn_n",
				'meta_input'  => array(
					'cairn_lat' => (string) ( 40 + $cairn_n / 10 ),
					'cairn_lng' => (string) ( 5 + $cairn_n / 7 ),
				),
			)
		);
	}
	echo wp_json_encode( array( 'ids' => $cairn_ids ) ) . "\n";
	exit( 0 );
}
if ( 'start' === $cairn_mode ) {
	\Cairn\Maps\Plugin::instance()->get( 'place_index' )->start_rebuild();
	echo wp_json_encode( array( 'ready' => false ) ) . "\n";
	exit( 0 );
}
if ( 'steps' === $cairn_mode ) {
	$cairn_index = \Cairn\Maps\Plugin::instance()->get( 'place_index' );
	add_filter(
		'query',
		static function ( $sql ) {
			if ( is_string( $sql ) && 1 === preg_match( '/^\s*INSERT INTO \S*cairn_places\b/', $sql ) ) {
				usleep( 10000 );
			}
			return $sql;
		}
	);
	$cairn_go = (float) ( $argv[2] ?? 0 );
	while ( microtime( true ) < $cairn_go ) {
		usleep( 1000 );
	}
	$cairn_results = array();
	$cairn_runs    = 0;
	while ( $cairn_runs++ < 5000 && $cairn_index->is_pending() ) {
		$cairn_result                   = $cairn_index->run_steps( 0.0, (int) ( $argv[3] ?? 1 ), 'admin' );
		$cairn_results[ $cairn_result ] = ( $cairn_results[ $cairn_result ] ?? 0 ) + 1;
		usleep( 'locked' === $cairn_result ? 1000 : 3000 ); // The next page load comes a moment later.
	}
	echo wp_json_encode( array( 'results' => $cairn_results ) ) . "\n";
	exit( 0 );
}
if ( 'fail' === $cairn_mode ) {
	// The database refuses the index's words: the index must roll its change back.
	$GLOBALS['wpdb']->suppress_errors( true );
	add_filter(
		'query',
		static fn( $sql ) => is_string( $sql ) && 1 === preg_match( '/^\s*INSERT\b.*cairn_place_words/is', $sql ) ? 'INSERT INTO cairn_no_such_table VALUES (1)' : $sql
	);
}
$cairn_id = wp_insert_post(
	array(
		'post_type'   => 'cairn_marker',
		'post_status' => 'publish',
		'post_title'  => (string) ( $argv[2] ?? 'Worker marker' ),
		'meta_input'  => array(
			'cairn_lat' => (string) ( $argv[3] ?? '10' ),
			'cairn_lng' => (string) ( $argv[4] ?? '20' ),
		),
	),
	true
);
if ( is_wp_error( $cairn_id ) ) {
	fwrite( STDERR, $cairn_id->get_error_message() ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fwrite
	exit( 1 );
}
echo wp_json_encode( array( 'id' => $cairn_id ) ) . "\n";
