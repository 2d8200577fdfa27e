<?php
/**
 * PHPStan bootstrap: the constants WordPress and cairn-maps.php define at run time, so the
 * analysis knows them. Never loaded by WordPress or PHPUnit. The WordPress functions and classes
 * come from php-stubs/wordpress-stubs (see phpstan.neon.dist).
 *
 * @package Cairn\Maps
 */

// phpcs:disable WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedConstantFound -- WordPress' own constants.

define( 'ABSPATH', dirname( __DIR__, 2 ) . '/' );
define( 'WPINC', 'wp-includes' );
define( 'WP_CONTENT_DIR', ABSPATH . 'wp-content' );
define( 'WP_PLUGIN_DIR', WP_CONTENT_DIR . '/plugins' );
define( 'WP_LANG_DIR', WP_CONTENT_DIR . '/languages' );
define( 'WP_DEBUG', false );
define( 'WP_UNINSTALL_PLUGIN', 'cairn-maps/cairn-maps.php' );

define( 'MINUTE_IN_SECONDS', 60 );
define( 'HOUR_IN_SECONDS', 60 * MINUTE_IN_SECONDS );
define( 'DAY_IN_SECONDS', 24 * HOUR_IN_SECONDS );
define( 'WEEK_IN_SECONDS', 7 * DAY_IN_SECONDS );
define( 'MONTH_IN_SECONDS', 30 * DAY_IN_SECONDS );
define( 'YEAR_IN_SECONDS', 365 * DAY_IN_SECONDS );

define( 'KB_IN_BYTES', 1024 );
define( 'MB_IN_BYTES', 1024 * KB_IN_BYTES );
define( 'GB_IN_BYTES', 1024 * MB_IN_BYTES );

define( 'OBJECT', 'OBJECT' );
define( 'OBJECT_K', 'OBJECT_K' );
define( 'ARRAY_A', 'ARRAY_A' );
define( 'ARRAY_N', 'ARRAY_N' );

// As cairn-maps.php defines them (stand-in values: phpstan.neon.dist lists them as dynamic).
define( 'CAIRN_MAPS_VERSION', '0.2.0' );
define( 'CAIRN_MAPS_FILE', dirname( __DIR__, 2 ) . '/cairn-maps.php' );
define( 'CAIRN_MAPS_DIR', dirname( __DIR__, 2 ) . '/' );
define( 'CAIRN_MAPS_MIN_PHP', '8.1' );
define( 'CAIRN_MAPS_MIN_WP', '6.6' );
