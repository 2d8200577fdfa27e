<?php
/**
 * Installs WordPress into the (emptied) test database and activates Cairn Maps.
 *
 * Runs in its own process (see bootstrap.php): php install.php <config file>.
 *
 * @package Cairn\Maps
 */

'cli' === PHP_SAPI || exit; // A command-line script, never a web page.

// phpcs:disable WordPress.NamingConventions.PrefixAllGlobals -- WordPress' own globals and pluggables.

define( 'WP_INSTALLING', true );

/**
 * Stops with a message.
 *
 * @param string $message Why.
 */
function cairn_maps_tests_fail( string $message ): void {
	fwrite( STDERR, $message . "\n" ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fwrite
	exit( 1 );
}

/**
 * No "new site" e-mail (pluggable, defined before upgrade.php loads).
 */
function wp_new_blog_notification() {}

require_once __DIR__ . '/config.php';
require $argv[1];
cairn_maps_tests_server_vars();
cairn_maps_tests_preload_hooks();

require_once ABSPATH . 'wp-settings.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
require_once ABSPATH . 'wp-admin/includes/plugin.php';

global $wpdb, $wp_rewrite;

// Start from an empty database: drop every table of this prefix.
$wpdb->query( 'SET foreign_key_checks = 0' );
foreach ( $wpdb->get_col( $wpdb->prepare( 'SHOW TABLES LIKE %s', $wpdb->esc_like( $wpdb->prefix ) . '%' ) ) as $cairn_maps_table ) {
	$wpdb->query( "DROP TABLE IF EXISTS `{$cairn_maps_table}`" ); // phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.DirectDatabaseQuery
}
$wpdb->query( 'SET foreign_key_checks = 1' );
wp_cache_flush();

$cairn_maps_installed = wp_install( 'Cairn Maps Tests', 'admin', 'admin@example.org', true, '', 'password' );
if ( empty( $cairn_maps_installed['user_id'] ) ) {
	cairn_maps_tests_fail( 'wp_install() did not create the admin user.' );
}

$wp_rewrite->set_permalink_structure( '/%postname%/' );

$cairn_maps_activated = activate_plugin( 'cairn-maps/cairn-maps.php' );
if ( is_wp_error( $cairn_maps_activated ) ) {
	cairn_maps_tests_fail( 'Activating Cairn Maps failed: ' . $cairn_maps_activated->get_error_message() );
}
