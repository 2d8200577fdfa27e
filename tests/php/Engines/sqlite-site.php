<?php
/**
 * A second test site on SQLite (the database Playground runs), for the proxy tests: WordPress core
 * from .cache/wordpress (untouched), the SQLite Database Integration plugin that
 *
 * @wp-playground/cli bundles (its db.php drop-in), Cairn Maps, and — when CAIRN_TEST_REDIS is
 * set — the test Redis drop-in under a key prefix of its own.
 *
 *   php sqlite-site.php setup                 fresh site; prints the configuration file's path
 *   php sqlite-site.php marker <title> <lat> <lng>   a published marker; prints its id
 *   php sqlite-site.php unpublish <id>        the marker back to draft
 *   php sqlite-site.php rebuild               rebuilds the place index now
 *   php sqlite-site.php version               prints the markers version
 *
 * Everything lives in .cache/wp-tests/sqlite/. Needs CAIRN_WP_CORE_DIR (bin/test-php.sh sets it).
 *
 * @package Cairn\Maps
 */

'cli' === PHP_SAPI || exit; // A command-line script, never a web page.

// phpcs:disable WordPress.NamingConventions.PrefixAllGlobals, WordPress.WP.AlternativeFunctions, WordPress.Security.EscapeOutput -- a test harness.

define( 'CAIRN_SQLITE_ROOT', dirname( __DIR__, 3 ) );
define( 'CAIRN_SQLITE_DIR', CAIRN_SQLITE_ROOT . '/.cache/wp-tests/sqlite' );

/**
 * Stops with a message.
 *
 * @param string $message Why.
 */
function cairn_sqlite_fail( string $message ): void {
	fwrite( STDERR, "[sqlite-site] {$message}\n" );
	exit( 1 );
}

/**
 * Unpacks the SQLite plugin, writes the db.php drop-in and the configuration; returns its path.
 *
 * @return string
 */
function cairn_sqlite_prepare(): string {
	$core = rtrim( (string) getenv( 'CAIRN_WP_CORE_DIR' ), '/' ) . '/';
	if ( ! is_file( $core . 'wp-settings.php' ) ) {
		cairn_sqlite_fail( 'CAIRN_WP_CORE_DIR does not name WordPress core (run through bin/test-php.sh).' );
	}
	$plugins = CAIRN_SQLITE_DIR . '/plugins';
	$content = CAIRN_SQLITE_DIR . '/content';
	foreach ( array( $plugins, $content, CAIRN_SQLITE_DIR . '/database', CAIRN_SQLITE_DIR . '/uploads' ) as $folder ) {
		is_dir( $folder ) || mkdir( $folder, 0777, true ) || cairn_sqlite_fail( "cannot create {$folder}" );
	}
	$sqlite = $plugins . '/sqlite-database-integration';
	if ( ! is_file( $sqlite . '/db.copy' ) ) {
		$zip = new ZipArchive();
		if ( true !== $zip->open( CAIRN_SQLITE_ROOT . '/node_modules/@wp-playground/cli/sqlite-database-integration.zip' ) ) {
			cairn_sqlite_fail( 'cannot open the SQLite plugin bundled with @wp-playground/cli (npm ci?)' );
		}
		$zip->extractTo( CAIRN_SQLITE_DIR . '/unpacked' );
		$zip->close();
		rename( CAIRN_SQLITE_DIR . '/unpacked/plugin-sqlite-database-integration', $sqlite ) || cairn_sqlite_fail( 'cannot move the SQLite plugin' );
	}
	file_put_contents(
		$content . '/db.php',
		strtr(
			(string) file_get_contents( $sqlite . '/db.copy' ),
			array(
				'{SQLITE_IMPLEMENTATION_FOLDER_PATH}' => $sqlite,
				'{SQLITE_PLUGIN}'                     => 'sqlite-database-integration/load.php',
			)
		)
	);
	$links = array(
		$plugins . '/cairn-maps' => CAIRN_SQLITE_ROOT,
		$content . '/themes'     => $core . 'wp-content/themes',
	);
	$redis = (string) getenv( 'CAIRN_TEST_REDIS' );
	if ( '' !== $redis ) {
		$links[ $content . '/object-cache.php' ] = dirname( __DIR__ ) . '/object-cache/object-cache.php';
	} elseif ( is_link( $content . '/object-cache.php' ) ) {
		unlink( $content . '/object-cache.php' );
	}
	foreach ( $links as $link => $target ) {
		if ( ! is_link( $link ) || readlink( $link ) !== $target ) {
			is_link( $link ) && unlink( $link );
			symlink( $target, $link ) || cairn_sqlite_fail( "cannot link {$link}" );
		}
	}
	$constants = array(
		'ABSPATH'                    => $core,
		'WP_CONTENT_DIR'             => $content,
		'WP_PLUGIN_DIR'              => $plugins,
		'DB_DIR'                     => CAIRN_SQLITE_DIR . '/database/',
		'DB_FILE'                    => 'site.sqlite',
		'DB_NAME'                    => 'cairn_sqlite',
		'DB_USER'                    => '',
		'DB_PASSWORD'                => '',
		'DB_HOST'                    => '',
		'DB_CHARSET'                 => 'utf8mb4',
		'DB_COLLATE'                 => '',
		'CAIRN_MAPS_TESTS_UPLOADS'   => CAIRN_SQLITE_DIR . '/uploads',
		'WP_TESTS_DOMAIN'            => 'example.org',
		'WP_DEFAULT_THEME'           => 'twentytwentyfive',
		'WP_DEBUG'                   => true,
		'WP_DEBUG_DISPLAY'           => true,
		'DISABLE_WP_CRON'            => true,
		'WP_HTTP_BLOCK_EXTERNAL'     => true,
		'AUTOMATIC_UPDATER_DISABLED' => true,
	);
	if ( 1 === preg_match( '/^([0-9.]+):(\d+)$/', $redis, $parts ) ) {
		$constants += array(
			'CAIRN_TEST_REDIS_HOST'   => $parts[1],
			'CAIRN_TEST_REDIS_PORT'   => (int) $parts[2],
			'CAIRN_TEST_REDIS_PREFIX' => 'cairn-sqlite:',
		);
	}
	foreach ( array( 'AUTH', 'SECURE_AUTH', 'LOGGED_IN', 'NONCE' ) as $scheme ) {
		$constants[ $scheme . '_KEY' ]  = 'cairn-sqlite-' . strtolower( $scheme ) . '-key';
		$constants[ $scheme . '_SALT' ] = 'cairn-sqlite-' . strtolower( $scheme ) . '-salt';
	}
	$php = "<?php\n// Generated by tests/php/Engines/sqlite-site.php. Do not edit.\n";
	foreach ( $constants as $name => $value ) {
		$php .= sprintf( "defined( '%1\$s' ) || define( '%1\$s', %2\$s );\n", $name, var_export( $value, true ) );
	}
	$php .= "\$GLOBALS['table_prefix'] = 'wp_';\n";
	$file = CAIRN_SQLITE_DIR . '/wp-config-sqlite.php';
	file_put_contents( $file, $php );
	return $file;
}

$command = $argv[1] ?? '';
$config  = cairn_sqlite_prepare();
if ( 'setup' === $command ) {
	@unlink( CAIRN_SQLITE_DIR . '/database/site.sqlite' ); // phpcs:ignore WordPress.PHP.NoSilencedErrors.Discouraged -- may not exist.
	define( 'WP_INSTALLING', true );
}

require_once dirname( __DIR__ ) . '/includes/config.php';
require $config;
cairn_maps_tests_server_vars();
cairn_maps_tests_preload_hooks();
require_once ABSPATH . 'wp-settings.php';

switch ( $command ) {
	case 'setup':
		/** No "new site" e-mail. */
		function wp_new_blog_notification() {} // phpcs:ignore Squiz.Commenting.FunctionComment.Missing, Universal.Files.SeparateFunctionsFromOO
		require_once ABSPATH . 'wp-admin/includes/upgrade.php';
		require_once ABSPATH . 'wp-admin/includes/plugin.php';
		wp_cache_flush();
		$installed = wp_install( 'Cairn Maps on SQLite', 'admin', 'admin@example.org', true, '', 'password' );
		empty( $installed['user_id'] ) && cairn_sqlite_fail( 'wp_install() failed' );
		$activated = activate_plugin( 'cairn-maps/cairn-maps.php' );
		is_wp_error( $activated ) && cairn_sqlite_fail( 'activating Cairn Maps failed: ' . $activated->get_error_message() );
		echo $config, "\n";
		break;
	case 'marker':
		$marker = wp_insert_post(
			array(
				'post_type'   => 'cairn_marker',
				'post_status' => 'publish',
				'post_title'  => (string) $argv[2],
				'meta_input'  => array(
					'cairn_lat' => (float) $argv[3],
					'cairn_lng' => (float) $argv[4],
				),
			),
			true
		);
		is_wp_error( $marker ) && cairn_sqlite_fail( $marker->get_error_message() );
		echo (int) $marker, "\n";
		break;
	case 'unpublish':
		wp_update_post(
			array(
				'ID'          => (int) $argv[2],
				'post_status' => 'draft',
			)
		);
		break;
	case 'rebuild':
		\Cairn\Maps\Plugin::instance()->get( 'place_index' )->rebuild_now();
		break;
	case 'version':
		echo ( new \Cairn\Maps\Markers\Markers_Version() )->get(), "\n";
		break;
	default:
		cairn_sqlite_fail( "unknown command '{$command}'" );
}
