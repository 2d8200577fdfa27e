<?php
/**
 * Test-only probe for the HTTP tests (tests/php/Http/), loaded by http-router.php before WordPress.
 *
 * For a request carrying an `X-Cairn-Probe: <id>` header, when the server was started with
 * CAIRN_HTTP_PROBE_LOG, appends one JSON line to that file at shutdown: the id, the status, whether
 * WordPress reached `init` and `rest_api_init`, and how many SQL queries read marker coordinates
 * or posts' places (a rebuild of a feed reads them; an answer from the cache or an early 304 does
 * not).
 *
 * `X-Cairn-Slow-Build: <ms>` delays each of those queries, so that concurrent requests overlap a
 * rebuild.
 *
 * `X-Cairn-Members-Only: 1` stands for a plugin that closes the REST API to visitors: it hooks
 * `rest_authentication_errors` when it loads (as such plugins do) and answers 401 to anyone not
 * signed in.
 *
 * @package Cairn\Maps
 */

'cli-server' === PHP_SAPI || exit; // The test web server only.

// phpcs:disable WordPress.Security.ValidatedSanitizedInput, WordPress.WP.AlternativeFunctions -- a test harness reading its own headers and writing its own log.

/**
 * Installs the probe for this request, if asked for.
 */
function cairn_maps_tests_http_probe(): void {
	if ( ! empty( $_SERVER['HTTP_X_CAIRN_MEMBERS_ONLY'] ) ) {
		$GLOBALS['wp_filter']['rest_authentication_errors'][10]['cairn_maps_tests_members_only'] = array( // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- a pre-load hook.
			'function'      => 'cairn_maps_tests_members_only',
			'accepted_args' => 1,
		);
	}
	$log = getenv( 'CAIRN_HTTP_PROBE_LOG' );
	if ( ! $log || ! isset( $_SERVER['HTTP_X_CAIRN_PROBE'] ) ) {
		return;
	}
	$GLOBALS['cairn_maps_probe'] = array(
		'id'    => preg_replace( '/[^A-Za-z0-9_.:-]/', '', (string) $_SERVER['HTTP_X_CAIRN_PROBE'] ),
		'reads' => 0,
		'slow'  => isset( $_SERVER['HTTP_X_CAIRN_SLOW_BUILD'] ) ? max( 0, min( 5000, (int) $_SERVER['HTTP_X_CAIRN_SLOW_BUILD'] ) ) : 0,
	);
	// A plain array in $wp_filter becomes a WP_Hook when plugin.php loads (like core's tests_add_filter()).
	$GLOBALS['wp_filter']['query'][10]['cairn_maps_tests_probe_query'] = array( // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- a pre-load hook.
		'function'      => 'cairn_maps_tests_probe_query',
		'accepted_args' => 1,
	);
	register_shutdown_function(
		static function () use ( $log ) {
			$line = json_encode( // phpcs:ignore WordPress.WP.AlternativeFunctions.json_encode_json_encode -- WordPress may not have loaded.
				array(
					'id'       => $GLOBALS['cairn_maps_probe']['id'],
					'status'   => http_response_code(),
					'init'     => function_exists( 'did_action' ) ? did_action( 'init' ) : 0,
					'rest'     => function_exists( 'did_action' ) ? did_action( 'rest_api_init' ) : 0,
					'reads'    => $GLOBALS['cairn_maps_probe']['reads'],
					'finished' => microtime( true ),
				)
			);
			file_put_contents( $log, $line . "\n", FILE_APPEND | LOCK_EX );
		}
	);
}

/**
 * Counts (and with X-Cairn-Slow-Build, delays) queries that read marker coordinates.
 *
 * @param string $query SQL.
 * @return string The same SQL.
 */
function cairn_maps_tests_probe_query( $query ) {
	// Marker coordinates, or (since 0.3.0) posts' places: `geo_public` is in every read of them.
	if ( is_string( $query ) && ( false !== strpos( $query, 'cairn_lat' ) || false !== strpos( $query, 'geo_public' ) ) ) {
		++$GLOBALS['cairn_maps_probe']['reads'];
		if ( $GLOBALS['cairn_maps_probe']['slow'] > 0 ) {
			usleep( 1000 * $GLOBALS['cairn_maps_probe']['slow'] );
		}
	}
	return $query;
}

/**
 * A members-only REST API: 401 for visitors.
 *
 * @param mixed $result An earlier check's result.
 * @return mixed
 */
function cairn_maps_tests_members_only( $result ) {
	if ( null !== $result || is_user_logged_in() ) {
		return $result;
	}
	return new WP_Error( 'cairn_tests_members_only', 'Members only.', array( 'status' => 401 ) );
}
