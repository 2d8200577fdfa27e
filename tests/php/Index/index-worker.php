<?php
/**
 * One PHP process of the test site writing the place index outside any transaction of a test,
 * for Place_Store_CommitTest:
 *
 *   CAIRN_TESTS_CONFIG=… php index-worker.php publish <title> <lat> <lng>
 *   CAIRN_TESTS_CONFIG=… php index-worker.php fail <title> <lat> <lng>   (the words insert fails)
 *   CAIRN_TESTS_CONFIG=… php index-worker.php rebuild
 *
 * Loads WordPress with the test configuration (autocommit on, as on a live site), does that and
 * prints one JSON line: `{ id }` or `{ ready }`. Everything it writes is committed for real.
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
