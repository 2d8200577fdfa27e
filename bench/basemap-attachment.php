<?php
/**
 * Bench-only (bench/basemap-range.mjs): puts the demo world archive in the bench WordPress's media
 * library and prints the plugin's range route for it.
 *
 *   CAIRN_BENCH_WP_ROOT=… CAIRN_BENCH_SITE_URL=http://127.0.0.1:PORT php bench/basemap-attachment.php ARCHIVE
 *
 * @package Cairn\Maps
 */

'cli' === PHP_SAPI || exit; // A command-line script, never a web page.

$cairn_bench_root  = rtrim( (string) getenv( 'CAIRN_BENCH_WP_ROOT' ), '/' );
$cairn_bench_url   = (string) getenv( 'CAIRN_BENCH_SITE_URL' );
$cairn_bench_parts = wp_parse_url_fallback( $cairn_bench_url );

/**
 * The parts of a URL (WordPress is not loaded yet).
 *
 * @param string $url URL.
 * @return array<string, mixed>
 */
function wp_parse_url_fallback( string $url ): array {
	$parts = parse_url( $url ); // phpcs:ignore WordPress.WP.AlternativeFunctions.parse_url_parse_url -- before WordPress loads.
	return is_array( $parts ) ? $parts : array();
}

$_SERVER['HTTP_HOST']      = ( $cairn_bench_parts['host'] ?? '127.0.0.1' ) . ( isset( $cairn_bench_parts['port'] ) ? ':' . $cairn_bench_parts['port'] : '' );
$_SERVER['SERVER_NAME']    = $cairn_bench_parts['host'] ?? '127.0.0.1';
$_SERVER['REQUEST_URI']    = '/';
$_SERVER['SERVER_PORT']    = (string) ( $cairn_bench_parts['port'] ?? 80 );
$_SERVER['REMOTE_ADDR']    = '127.0.0.1';
$_SERVER['REQUEST_METHOD'] = 'GET';
require $cairn_bench_root . '/wp-load.php';

$cairn_bench_archive = (string) ( $argv[1] ?? '' );
$cairn_bench_dir     = wp_upload_dir()['path'];
wp_mkdir_p( $cairn_bench_dir );
$cairn_bench_file = $cairn_bench_dir . '/bench-world.pmtiles';
copy( $cairn_bench_archive, $cairn_bench_file );
$cairn_bench_id = wp_insert_attachment(
	array(
		'post_title'     => 'bench world',
		'post_mime_type' => 'application/vnd.pmtiles',
		'post_status'    => 'inherit',
	),
	$cairn_bench_file
);
echo esc_url_raw( $cairn_bench_url . '/?rest_route=/cairn/v1/basemaps/' . (int) $cairn_bench_id ) . "\n";
