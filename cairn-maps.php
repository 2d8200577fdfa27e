<?php
/**
 * Plugin Name:       Cairn Maps
 * Description:       Fast, accessible Mapbox GL maps with clustered markers, edited on the live map in the block editor.
 * Version:           0.2.0
 * Requires at least: 6.6
 * Requires PHP:      8.1
 * Author:            Cairn Maps
 * License:           GPL-2.0-or-later
 * License URI:       https://www.gnu.org/licenses/gpl-2.0.html
 * Text Domain:       cairn-maps
 * Domain Path:       /languages
 *
 * @package Cairn\Maps
 */

defined( 'ABSPATH' ) || exit;

define( 'CAIRN_MAPS_VERSION', '0.2.0' );
define( 'CAIRN_MAPS_FILE', __FILE__ );
define( 'CAIRN_MAPS_DIR', __DIR__ . '/' );
define( 'CAIRN_MAPS_MIN_PHP', '8.1' );
define( 'CAIRN_MAPS_MIN_WP', '6.6' );

/**
 * Whether this site can run Cairn Maps. Kept in PHP 5.6-compatible syntax so an old PHP shows the
 * notice instead of a parse error.
 *
 * @return string[] Problems, empty when the site is supported.
 */
function cairn_maps_requirement_problems() {
	$problems = array();
	if ( version_compare( PHP_VERSION, CAIRN_MAPS_MIN_PHP, '<' ) ) {
		/* translators: 1: required PHP version, 2: current PHP version. */
		$problems[] = sprintf( __( 'Cairn Maps needs PHP %1$s or newer; this site runs PHP %2$s.', 'cairn-maps' ), CAIRN_MAPS_MIN_PHP, PHP_VERSION );
	}
	if ( version_compare( get_bloginfo( 'version' ), CAIRN_MAPS_MIN_WP, '<' ) ) {
		/* translators: 1: required WordPress version, 2: current WordPress version. */
		$problems[] = sprintf( __( 'Cairn Maps needs WordPress %1$s or newer; this site runs WordPress %2$s.', 'cairn-maps' ), CAIRN_MAPS_MIN_WP, get_bloginfo( 'version' ) );
	}
	if ( ! is_readable( CAIRN_MAPS_DIR . 'build/blocks/map/block.json' ) ) {
		$problems[] = __( 'Cairn Maps is missing its built files (build/). Run "npm ci && npm run build" in the plugin folder, or install a release package.', 'cairn-maps' );
	}
	return $problems;
}

/**
 * Shows why the plugin is idle, to people who can act on it.
 *
 * @return void
 */
function cairn_maps_requirements_notice() {
	if ( ! current_user_can( 'activate_plugins' ) ) {
		return;
	}
	foreach ( cairn_maps_requirement_problems() as $problem ) {
		printf( '<div class="notice notice-error"><p>%s</p></div>', esc_html( $problem ) );
	}
}

if ( array() !== cairn_maps_requirement_problems() ) {
	add_action( 'admin_notices', 'cairn_maps_requirements_notice' );
	return;
}

// The plugin's own PSR-4 loader for its one namespace. Composer's vendor/autoload.php is never
// loaded: the plugin has no runtime dependencies, and a development vendor/ (PHPUnit, PHPCS) left
// in a deployed folder must not become code that every request of the site runs.
spl_autoload_register(
	static function ( $class_name ) {
		$prefix = 'Cairn\\Maps\\';
		if ( 0 !== strpos( $class_name, $prefix ) ) {
			return;
		}
		$file = CAIRN_MAPS_DIR . 'plugin/' . str_replace( '\\', '/', substr( $class_name, strlen( $prefix ) ) ) . '.php';
		if ( is_readable( $file ) ) {
			require_once $file;
		}
	}
);

\Cairn\Maps\Plugin::instance()->boot();
