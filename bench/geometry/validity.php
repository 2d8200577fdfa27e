<?php
/**
 * Bench-only: how long the shape rule takes on 100,000 vertices (issue 32's budget: under 2 s).
 *
 *   php bench/geometry/validity.php
 *
 * Times Markers\Geometry_Rule::check() (positions, then Ring_Crossings::fault()) and
 * Shape_Store::derive() (the simplified copy, checked again) on three areas of 100,000 vertices:
 * a wiggly star, a comb of 25,000 long teeth (most edges open across the sweep at once) and a
 * shell with 999 holes touching it. Prints CPU and wall seconds, the comparisons counted by
 * Ring_Crossings::comparisons() and the load average: the tests assert the count, never the time.
 *
 * No database and no WordPress bootstrap, as bench/front/shapes.php: core's few functions from
 * `.cache/wordpress` (`bash bin/wp-core.sh`) or CAIRN_WP_CORE_DIR.
 *
 * @package Cairn\Maps
 */

'cli' === PHP_SAPI || exit; // A command-line script, never a web page.

// phpcs:disable WordPress.WP.AlternativeFunctions -- a command-line report to stdout.

$cairn_bench_root = dirname( __DIR__, 2 );
$cairn_bench_core = rtrim( (string) ( getenv( 'CAIRN_WP_CORE_DIR' ) ?: $cairn_bench_root . '/.cache/wordpress' ), '/' );
if ( ! is_file( $cairn_bench_core . '/wp-includes/functions.php' ) || ! is_file( $cairn_bench_root . '/vendor/autoload.php' ) ) {
	fwrite( STDERR, "bench/geometry/validity.php: needs WordPress core in .cache/wordpress (bash bin/wp-core.sh) and vendor/ (composer install)\n" );
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
define( 'CAIRN_MAPS_DIR', $cairn_bench_root . '/' );
require $cairn_bench_root . '/vendor/autoload.php';
$GLOBALS['l10n'] = array( 'cairn-maps' => new NOOP_Translations() ); // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited

use Cairn\Maps\Markers\Geometry_Rule;
use Cairn\Maps\Markers\Ring_Crossings;
use Cairn\Maps\Markers\Shape_Store;

/**
 * CPU seconds used so far.
 */
function cairn_bench_cpu(): float {
	$usage = getrusage();
	return $usage['ru_utime.tv_sec'] + $usage['ru_utime.tv_usec'] / 1e6 + $usage['ru_stime.tv_sec'] + $usage['ru_stime.tv_usec'] / 1e6;
}

$cairn_bench_star = array();
for ( $i = 0; $i < 99999; $i++ ) {
	$cairn_bench_angle  = 2 * M_PI * $i / 99999;
	$cairn_bench_radius = 1 + 0.05 * sin( 40 * $cairn_bench_angle );
	$cairn_bench_star[] = array( 10 + $cairn_bench_radius * cos( $cairn_bench_angle ), 45 + $cairn_bench_radius * sin( $cairn_bench_angle ) );
}
$cairn_bench_star[] = $cairn_bench_star[0];
$cairn_bench_comb   = array();
for ( $k = 0; $k < 24999; $k++ ) {
	$y = $k * 0.0001;
	array_push( $cairn_bench_comb, array( 0.0, $y ), array( 1.0, $y ), array( 1.0, $y + 0.00005 ), array( 0.0001, $y + 0.00005 ) );
}
array_push( $cairn_bench_comb, array( 0.0, 24999 * 0.0001 ), array( -0.1, 24999 * 0.0001 ), array( -0.1, 0.0 ), array( 0.0, 0.0 ) );
$cairn_bench_holes = array( array( array( 0.0, 0.0 ), array( 1.0, 0.0 ), array( 1.0, 0.02 ), array( 0.0, 0.02 ), array( 0.0, 0.0 ) ) );
for ( $h = 0; $h < 999; $h++ ) {
	$x    = $h * 0.001;
	$ring = array( array( $x, 0.0 ) );
	for ( $i = 0; $i < 98; $i++ ) {
		$ring[] = array( $x + 0.001 - 0.0008 * $i / 97, 0.01 + ( $i % 2 ) * 0.0001 );
	}
	$ring[]              = array( $x, 0.0 );
	$cairn_bench_holes[] = $ring;
}

foreach ( array(
	'star'           => array( 'Polygon', array( $cairn_bench_star ) ),
	'comb'           => array( 'Polygon', array( $cairn_bench_comb ) ),
	'touching holes' => array( 'Polygon', $cairn_bench_holes ),
) as $cairn_bench_name => list( $cairn_bench_type, $cairn_bench_coordinates ) ) {
	$cairn_bench_cpu       = cairn_bench_cpu();
	$cairn_bench_wall      = microtime( true );
	$cairn_bench_checked   = Geometry_Rule::check(
		array(
			'type'        => $cairn_bench_type,
			'coordinates' => $cairn_bench_coordinates,
		)
	);
	$cairn_bench_check     = array( cairn_bench_cpu() - $cairn_bench_cpu, microtime( true ) - $cairn_bench_wall, Ring_Crossings::comparisons() );
	if ( is_wp_error( $cairn_bench_checked ) ) {
		fwrite( STDERR, "{$cairn_bench_name}: refused: " . $cairn_bench_checked->get_error_message() . "\n" );
		exit( 1 );
	}
	$cairn_bench_cpu  = cairn_bench_cpu();
	$cairn_bench_wall = microtime( true );
	Shape_Store::derive( $cairn_bench_checked );
	$cairn_bench_vertices = array_sum( array_map( 'count', 'Polygon' === $cairn_bench_type ? $cairn_bench_coordinates : array() ) );
	printf(
		"%-15s %7d vertices: check %.2f s CPU (%.2f s wall, %s comparisons); derive %.2f s CPU (%.2f s wall)\n",
		$cairn_bench_name,
		$cairn_bench_vertices,
		$cairn_bench_check[0],
		$cairn_bench_check[1],
		number_format( $cairn_bench_check[2] ),
		cairn_bench_cpu() - $cairn_bench_cpu,
		microtime( true ) - $cairn_bench_wall
	);
}
printf( "load average %s\n", implode( ' ', array_slice( explode( ' ', (string) file_get_contents( '/proc/loadavg' ) ), 0, 3 ) ) );
