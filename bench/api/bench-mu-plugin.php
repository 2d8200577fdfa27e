<?php
/**
 * Plugin Name: Cairn Maps API bench probe
 * Description: Bench-only. Copied by bench/api/run.sh into the bench site's mu-plugins; never part of the plugin.
 *
 * For requests carrying an `X-Bench-Id` header, appends one JSON line to CAIRN_BENCH_PEAK_LOG at
 * shutdown, after the body was printed: PHP peak memory (`memory_get_peak_usage()`, and the real
 * size allocated from the system), time spent in PHP and the status. A streamed body cannot carry
 * a header sent after it, so the log is the measurement; `X-Bench-Peak-Memory` (the peak when the
 * REST server finished dispatching, before serving) is added as well where headers are still open.
 *
 * Issue 22: with CAIRN_BENCH_TILE_THRESHOLD defined (wp-config of BENCH_ONLY=tiles), the plugin's
 * `cairn_maps_tile_threshold` filter returns it, and each logged request counts the SQL that reads
 * the place index (`cairn_place*` tables, `cairn_tile_stamps`), as `index_reads`, and those of its
 * places, cells or words (what building an answer reads; a cached one reads none), as `build_reads`.
 *
 * `/?cairn_bench_info=1` answers with the PHP runtime facts (SAPI, OPcache, memory limit).
 *
 * Issue 21: the bench site accepts application passwords over plain HTTP on 127.0.0.1 (core
 * wants HTTPS or a 'local' environment), so that the shapes bench can POST a GPX file to
 * `/cairn/v1/markers/import` as an administrator; and each logged request counts the SQL that
 * reads stored shapes (`_cairn_shape`), as `shape_reads`.
 *
 * @package Cairn\Maps
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

// The bench site serves 127.0.0.1 over HTTP only: let the shapes bench authenticate its import.
add_filter( 'wp_is_application_passwords_available', '__return_true' );

// Issue 22 (BENCH_ONLY=tiles): every size is served as tiles, so that 1k, 100k and 1M are
// measured on the same path (the real threshold is what bench:front recommends).
if ( defined( 'CAIRN_BENCH_TILE_THRESHOLD' ) ) {
	add_filter(
		'cairn_maps_tile_threshold',
		static function () {
			return (int) CAIRN_BENCH_TILE_THRESHOLD;
		}
	);
}

if ( isset( $_SERVER['HTTP_X_BENCH_ID'] ) && defined( 'CAIRN_BENCH_PEAK_LOG' ) ) {
	$cairn_bench_id    = preg_replace( '/[^A-Za-z0-9_.:-]/', '', (string) $_SERVER['HTTP_X_BENCH_ID'] );
	$cairn_bench_start = isset( $_SERVER['REQUEST_TIME_FLOAT'] ) ? (float) $_SERVER['REQUEST_TIME_FLOAT'] : microtime( true );
	// When WordPress reached each stage, in ms since the request started (where the time goes).
	$GLOBALS['cairn_bench_marks'] = array( 'mu_plugins' => round( ( microtime( true ) - $cairn_bench_start ) * 1000, 2 ) );
	foreach ( array( 'plugins_loaded', 'after_setup_theme', 'init', 'wp_loaded', 'rest_api_init', 'rest_pre_dispatch', 'rest_post_dispatch', 'rest_pre_serve_request' ) as $cairn_bench_hook ) {
		add_filter(
			$cairn_bench_hook,
			static function ( $value = null ) use ( $cairn_bench_hook, $cairn_bench_start ) {
				if ( ! isset( $GLOBALS['cairn_bench_marks'][ $cairn_bench_hook ] ) ) {
					$GLOBALS['cairn_bench_marks'][ $cairn_bench_hook ] = round( ( microtime( true ) - $cairn_bench_start ) * 1000, 2 );
				}
				return $value;
			},
			PHP_INT_MIN
		);
	}
	// SQL that reads marker coordinates: how a request that rebuilt the feed is told from one served
	// from the cache (the cached answers read no coordinates).
	$GLOBALS['cairn_bench_marker_reads'] = 0;
	$GLOBALS['cairn_bench_shape_reads']  = 0;
	$GLOBALS['cairn_bench_index_reads']  = 0;
	$GLOBALS['cairn_bench_build_reads']  = 0;
	add_filter(
		'query',
		static function ( $query ) {
			// Markers' coordinates, or posts' places (geo_public is in every read of them).
			if ( is_string( $query ) && ( false !== strpos( $query, 'cairn_lng' ) || false !== strpos( $query, 'geo_public' ) ) ) {
				++$GLOBALS['cairn_bench_marker_reads'];
			}
			// Stored shapes (issue 21): a shapes feed answered from its cache reads none.
			if ( is_string( $query ) && false !== strpos( $query, '_cairn_shape' ) ) {
				++$GLOBALS['cairn_bench_shape_reads'];
			}
			// The place index (issue 22): a tile or a list answered from a cache reads none of it.
			if ( is_string( $query ) && ( false !== strpos( $query, 'cairn_place' ) || false !== strpos( $query, 'cairn_tile_stamps' ) ) ) {
				++$GLOBALS['cairn_bench_index_reads'];
			}
			// Places, cells or words: what building a tile or a list reads (a cached answer may
			// still look up a stamp or the combos, never these).
			if ( is_string( $query ) && preg_match( '/cairn_(places|place_cells|place_words)\b/', $query ) ) {
				++$GLOBALS['cairn_bench_build_reads'];
			}
			return $query;
		}
	);
	register_shutdown_function(
		static function () use ( $cairn_bench_id, $cairn_bench_start ) {
			$start = $cairn_bench_start;
			$line  = json_encode(
				array(
					'id'        => $cairn_bench_id,
					'peak'      => memory_get_peak_usage(),
					'peak_real' => memory_get_peak_usage( true ),
					'php_ms'    => round( ( microtime( true ) - $start ) * 1000, 2 ),
					'status'    => http_response_code(),
					'queries'   => isset( $GLOBALS['wpdb'] ) ? (int) $GLOBALS['wpdb']->num_queries : null,
					'marks'     => $GLOBALS['cairn_bench_marks'] ?? array(),
					'reads'     => $GLOBALS['cairn_bench_marker_reads'],
					'shape_reads' => $GLOBALS['cairn_bench_shape_reads'],
					'index_reads' => $GLOBALS['cairn_bench_index_reads'],
					'build_reads' => $GLOBALS['cairn_bench_build_reads'],
				)
			);
			file_put_contents( CAIRN_BENCH_PEAK_LOG, $line . "\n", FILE_APPEND | LOCK_EX );
		}
	);
	add_filter(
		'rest_post_dispatch',
		static function ( $response ) {
			if ( ! headers_sent() ) {
				header( 'X-Bench-Peak-Memory: ' . memory_get_peak_usage() );
			}
			return $response;
		},
		PHP_INT_MAX
	);
}

if ( isset( $_GET['cairn_bench_info'] ) ) {
	add_action(
		'wp_loaded',
		static function () {
			$opcache = function_exists( 'opcache_get_status' ) ? opcache_get_status( false ) : false;
			header( 'Content-Type: application/json' );
			echo json_encode(
				array(
					'php'                     => PHP_VERSION,
					'sapi'                    => PHP_SAPI,
					'opcache_enabled'         => is_array( $opcache ) && ! empty( $opcache['opcache_enabled'] ),
					'opcache_cached_scripts'  => is_array( $opcache ) ? ( $opcache['opcache_statistics']['num_cached_scripts'] ?? null ) : null,
					'opcache_jit'             => is_array( $opcache ) && ! empty( $opcache['jit']['on'] ),
					'memory_limit'            => ini_get( 'memory_limit' ),
					'output_buffering'        => ini_get( 'output_buffering' ),
					'zlib_output_compression' => ini_get( 'zlib.output_compression' ),
					'wordpress'               => $GLOBALS['wp_version'] ?? null,
					'plugin_loaded'           => defined( 'CAIRN_MAPS_VERSION' ) && has_action( 'cairn_maps_markers_changed' ),
					'plugin_version'          => defined( 'CAIRN_MAPS_VERSION' ) ? CAIRN_MAPS_VERSION : null,
				)
			);
			exit;
		}
	);
}
