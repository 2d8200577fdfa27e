<?php
/**
 * Loaded by bin/wp.sh with CAIRN_WP_PEAK=1 (WP-CLI's --require): prints PHP's peak memory at exit.
 *
 * @package Cairn\Maps
 */

'cli' === PHP_SAPI || exit; // Loaded by WP-CLI only, never a web page.

register_shutdown_function(
	static function (): void {
		fwrite( STDERR, 'peak_memory_bytes=' . memory_get_peak_usage( true ) . "\n" ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fwrite
	}
);
