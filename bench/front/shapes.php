<?php
/**
 * Bench-only: the shapes feed's features of the front bench's routes, made by the plugin's own
 * code, for bench/front/routes.ts (`npm run bench:front:shapes`).
 *
 *   php bench/front/shapes.php < routes.ndjson > features.ndjson
 *
 * Reads one route a line, `{"id":…,"title":…,"group":…,"coordinates":[[lng,lat,ele],…]}`, and
 * writes one line per route: the feature the shapes feed (`GET /cairn/v1/shapes`) serves for a
 * published marker with that line as its shape. Each line goes the plugin's way:
 * `Markers\Geometry_Rule::check()` (as the REST API and the importer check a shape),
 * `Markers\Shape_Store::derive()` (the `_cairn_shape` text: the geometry simplified by
 * `Line_Simplifier`, bbox, length, ascent/descent, profile), then `Feed\Shape_Writer::parse()` and
 * `feature_json()` (what `Shapes_Feed` splices into the feed). A route the rule refuses stops the
 * script (exit 1, the reason on stderr). Line by line, so 500 routes of 2,000 positions never sit
 * in memory together.
 *
 * No database and no WordPress bootstrap: those classes need only a few of core's functions
 * (`wp_json_encode`, `__`, `is_wp_error`, `WP_Error`, `wp_strip_all_tags`, `apply_filters`),
 * loaded from core's own files in `.cache/wordpress` (`bash bin/wp-core.sh`), or the core named
 * by CAIRN_WP_CORE_DIR.
 *
 * @package Cairn\Maps
 */

'cli' === PHP_SAPI || exit; // A command-line script, never a web page.

// phpcs:disable WordPress.WP.AlternativeFunctions -- a command-line filter of stdin to stdout.

$cairn_bench_root = dirname( __DIR__, 2 );
$cairn_bench_core = rtrim( (string) ( getenv( 'CAIRN_WP_CORE_DIR' ) ?: $cairn_bench_root . '/.cache/wordpress' ), '/' );
if ( ! is_file( $cairn_bench_core . '/wp-includes/functions.php' ) ) {
	fwrite( STDERR, "bench/front/shapes.php: WordPress core is not at {$cairn_bench_core}: run \"bash bin/wp-core.sh\" (or set CAIRN_WP_CORE_DIR)\n" );
	exit( 2 );
}
if ( ! is_file( $cairn_bench_root . '/vendor/autoload.php' ) ) {
	fwrite( STDERR, "bench/front/shapes.php: vendor/ is missing: run \"composer install\"\n" );
	exit( 2 );
}

define( 'ABSPATH', $cairn_bench_core . '/' );
define( 'WPINC', 'wp-includes' );
require ABSPATH . WPINC . '/load.php';
require ABSPATH . WPINC . '/class-wp-error.php';
require ABSPATH . WPINC . '/plugin.php';
require ABSPATH . WPINC . '/functions.php';
require ABSPATH . WPINC . '/formatting.php';
require ABSPATH . WPINC . '/l10n.php';
require ABSPATH . WPINC . '/pomo/translations.php';
// The plugin's limits (Geometry_Rule reads build/limits.json through Support\Limits).
define( 'CAIRN_MAPS_DIR', $cairn_bench_root . '/' );
require $cairn_bench_root . '/vendor/autoload.php';

// The plugin's strings untranslated (only the rule's refusals use them).
$GLOBALS['l10n'] = array( 'cairn-maps' => new NOOP_Translations() ); // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited

use Cairn\Maps\Feed\Shape_Writer;
use Cairn\Maps\Markers\Geometry_Rule;
use Cairn\Maps\Markers\Shape_Store;

$cairn_bench_line = 0;
while ( false !== ( $cairn_bench_text = fgets( STDIN ) ) ) {
	++$cairn_bench_line;
	if ( '' === trim( $cairn_bench_text ) ) {
		continue;
	}
	$cairn_bench_route = json_decode( $cairn_bench_text, true );
	if ( ! is_array( $cairn_bench_route ) || ! isset( $cairn_bench_route['id'], $cairn_bench_route['coordinates'] ) ) {
		fwrite( STDERR, "bench/front/shapes.php: line {$cairn_bench_line} is not a route\n" );
		exit( 1 );
	}
	$cairn_bench_checked = Geometry_Rule::check(
		array(
			'type'        => 'LineString',
			'coordinates' => $cairn_bench_route['coordinates'],
		)
	);
	if ( is_wp_error( $cairn_bench_checked ) ) {
		fwrite( STDERR, "bench/front/shapes.php: route {$cairn_bench_route['id']} refused: " . $cairn_bench_checked->get_error_message() . "\n" );
		exit( 1 );
	}
	$cairn_bench_shape = Shape_Writer::parse( Shape_Store::derive( $cairn_bench_checked ) );
	if ( null === $cairn_bench_shape ) {
		fwrite( STDERR, "bench/front/shapes.php: route {$cairn_bench_route['id']}: the feed cannot read its _cairn_shape\n" );
		exit( 1 );
	}
	fwrite(
		STDOUT,
		Shape_Writer::feature_json(
			(int) $cairn_bench_route['id'],
			(string) ( $cairn_bench_route['title'] ?? '' ),
			isset( $cairn_bench_route['group'] ) ? array( (string) $cairn_bench_route['group'] ) : array(),
			$cairn_bench_shape
		) . "\n"
	);
}
