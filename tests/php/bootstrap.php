<?php
/**
 * PHPUnit bootstrap: real WordPress, installed afresh into the test database, plugin active.
 *
 * Run through bin/test-php.sh, which starts MariaDB and exports CAIRN_TEST_DB_* and
 * CAIRN_WP_CORE_DIR. Like core's own suite, WordPress is installed in a separate PHP process
 * (install.php, with WP_INSTALLING) and then loaded here normally.
 *
 * @package Cairn\Maps
 */

'cli' === PHP_SAPI || exit; // PHPUnit's bootstrap, never a web page.

// phpcs:disable WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedVariableFound -- WordPress' own globals.

/**
 * Stops the run with a message a developer can act on.
 *
 * @param string $message What is wrong and what to do.
 */
function cairn_maps_tests_fail( string $message ): void {
	fwrite( STDERR, "\n[cairn tests] {$message}\n\n" ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fwrite
	exit( 1 );
}

define( 'CAIRN_MAPS_TESTS_ROOT', dirname( __DIR__, 2 ) );

if ( ! is_readable( CAIRN_MAPS_TESTS_ROOT . '/vendor/autoload.php' ) ) {
	cairn_maps_tests_fail( 'vendor/ is missing: run "composer install".' );
}
require_once CAIRN_MAPS_TESTS_ROOT . '/vendor/autoload.php';

if ( ! is_readable( CAIRN_MAPS_TESTS_ROOT . '/build/blocks/map/block.json' ) ) {
	cairn_maps_tests_fail( 'build/blocks/map/block.json is missing: run "npm run build" first (the plugin idles without it).' );
}

foreach ( array( 'CAIRN_TEST_DB_HOST', 'CAIRN_TEST_DB_NAME', 'CAIRN_TEST_DB_USER', 'CAIRN_TEST_DB_PASSWORD', 'CAIRN_WP_CORE_DIR' ) as $cairn_maps_var ) {
	if ( false === getenv( $cairn_maps_var ) ) {
		cairn_maps_tests_fail( "{$cairn_maps_var} is not set. Run the PHP tests with \"npm run test:php\" (bash bin/test-php.sh), which starts the test database." );
	}
}

require_once __DIR__ . '/includes/config.php';
$cairn_maps_config = cairn_maps_tests_write_config();

// Install WordPress into the empty test database in a separate process, as core's suite does:
// WP_INSTALLING is a constant and must not leak into the tests.
$cairn_maps_output = array();
$cairn_maps_status = 0;
exec( escapeshellarg( PHP_BINARY ) . ' ' . escapeshellarg( __DIR__ . '/includes/install.php' ) . ' ' . escapeshellarg( $cairn_maps_config ) . ' 2>&1', $cairn_maps_output, $cairn_maps_status ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.system_calls_exec
if ( 0 !== $cairn_maps_status ) {
	cairn_maps_tests_fail( "Installing WordPress into the test database failed:\n" . implode( "\n", $cairn_maps_output ) );
}

global $wpdb, $current_site, $current_blog, $wp_rewrite, $shortcode_tags, $wp, $phpmailer, $wp_theme_directories, $table_prefix;

require $cairn_maps_config;
cairn_maps_tests_server_vars();
cairn_maps_tests_preload_hooks();

require_once ABSPATH . 'wp-settings.php';

if ( ! class_exists( \Cairn\Maps\Plugin::class, false ) || null === \Cairn\Maps\Plugin::instance()->get( 'markers' ) ) {
	cairn_maps_tests_fail( 'WordPress loaded but Cairn Maps did not boot: is it active, and are its requirements met?' );
}

// Pretty permalinks were set by install.php; the rules (incl. /wp-json/) are built once here.
flush_rewrite_rules( false );
