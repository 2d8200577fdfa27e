<?php
/**
 * The Live Preview's demo content, for WordPress.org's plugin preview (WordPress Playground).
 *
 * Not part of the plugin: bin/blueprint.mjs copies this file's text into the runPHP step of
 * .wordpress-org/blueprints/blueprint.json. The writeFile step before it leaves the plan in
 * /tmp/cairn-maps-demo.json: bin/seed.mjs's demo as REST requests, built from the same data by
 * the same functions (groups; the markers, routes and areas as one GeoJSON import; posts with
 * places; the three demo pages; the world archive and the basemap setting). They run here through
 * rest_do_request() as the site's first administrator, so every rule of the REST API applies
 * (capabilities, coordinate and shape checks), and the first refused request stops the blueprint
 * with the site's own message.
 *
 * A plan entry is { method, path, query?, body?, ref?, file?, headers? }. In a body, { "$id": ref } stands
 * for the id an earlier entry named ref created, and { "$archive": ref } for the `pmtiles://`
 * reference of the archive uploaded as ref, read through the plugin's byte-range route (Playground
 * answers no Range request on a static file). `file` names a file of the installed plugin sent as
 * the raw body (the media upload).
 *
 * @package Cairn\Maps
 */

/**
 * A body value with its references to earlier entries resolved.
 *
 * @param mixed              $value A value of the plan.
 * @param array<string, int> $ids   Ids created so far, by ref.
 * @return mixed
 * @throws RuntimeException When a reference names no earlier entry.
 */
function cairn_maps_demo_resolve( $value, array $ids ) {
	if ( ! is_array( $value ) ) {
		return $value;
	}
	foreach ( array( '$id', '$archive' ) as $kind ) {
		if ( array( $kind ) === array_keys( $value ) ) {
			$ref = (string) $value[ $kind ];
			if ( ! isset( $ids[ $ref ] ) ) {
				throw new RuntimeException( 'the demo plan names "' . $ref . '" before creating it' );
			}
			return '$id' === $kind
				? $ids[ $ref ]
				: 'pmtiles://' . rest_url( 'cairn/v1/basemaps/' . $ids[ $ref ] );
		}
	}
	return array_map(
		static function ( $item ) use ( $ids ) {
			return cairn_maps_demo_resolve( $item, $ids );
		},
		$value
	);
}

/**
 * Runs one entry of the plan; returns the id of what it created (0 when the answer has none).
 *
 * @param array<string, mixed> $entry The entry.
 * @param array<string, int>   $ids   Ids created so far, by ref.
 * @throws RuntimeException When the site refuses the request.
 */
function cairn_maps_demo_run( array $entry, array $ids ): int {
	$request = new WP_REST_Request( (string) $entry['method'], (string) $entry['path'] );
	$request->set_query_params( (array) ( $entry['query'] ?? array() ) );
	foreach ( (array) ( $entry['headers'] ?? array() ) as $name => $value ) {
		$request->set_header( (string) $name, (string) $value );
	}
	if ( isset( $entry['file'] ) ) {
		$file = WP_PLUGIN_DIR . '/cairn-maps/' . $entry['file'];
		$body = is_readable( $file ) ? file_get_contents( $file ) : false; // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a file of the installed plugin.
		if ( false === $body ) {
			throw new RuntimeException( 'the plugin has no ' . $entry['file'] );
		}
		$request->set_body( $body );
	} else {
		$request->set_header( 'Content-Type', 'application/json' );
		$request->set_body( (string) wp_json_encode( cairn_maps_demo_resolve( $entry['body'] ?? array(), $ids ) ) );
	}
	$response = rest_do_request( $request );
	$data     = $response->get_data();
	if ( $response->get_status() >= 300 ) {
		$message = is_array( $data ) ? ( $data['message'] ?? '' ) : '';
		throw new RuntimeException( sprintf( '%s %s: HTTP %d %s', $entry['method'], $entry['path'], $response->get_status(), $message ) );
	}
	return is_array( $data ) && isset( $data['id'] ) ? (int) $data['id'] : 0;
}

/**
 * Seeds the demo from a plan file; prints what it made.
 *
 * @param string $plan_file The plan (JSON: { "requests": [ entries ] }).
 * @throws RuntimeException When the plan is missing or a request is refused.
 */
function cairn_maps_demo_seed( string $plan_file ): void {
	$plan = is_readable( $plan_file ) ? json_decode( (string) file_get_contents( $plan_file ), true ) : null; // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- the blueprint's own file.
	if ( ! is_array( $plan ) || ! isset( $plan['requests'] ) || ! is_array( $plan['requests'] ) ) {
		throw new RuntimeException( 'no demo plan at ' . $plan_file );
	}
	$admins = get_users(
		array(
			'role'    => 'administrator',
			'number'  => 1,
			'orderby' => 'ID',
			'fields'  => 'ID',
		)
	);
	if ( ! $admins ) {
		throw new RuntimeException( 'the site has no administrator' );
	}
	wp_set_current_user( (int) $admins[0] );
	$ids = array();
	foreach ( $plan['requests'] as $entry ) {
		$id = cairn_maps_demo_run( $entry, $ids );
		if ( isset( $entry['ref'] ) ) {
			$ids[ (string) $entry['ref'] ] = $id;
		}
	}
	// The place index is built in the background after activation; the demo's maps should not
	// wait for WP-Cron.
	$index = \Cairn\Maps\Plugin::instance()->get( 'place_index' );
	if ( $index && method_exists( $index, 'rebuild_now' ) ) {
		$index->rebuild_now();
	}
	wp_delete_file( $plan_file );
	printf( "Cairn Maps demo: %d requests\n", count( $plan['requests'] ) );
}

// Only where the blueprint's writeFile step left a plan (Playground): anywhere else, such as a web
// request for this file in a checkout, nothing runs and nothing is said.
if ( ! is_file( '/tmp/cairn-maps-demo.json' ) ) {
	return;
}
require_once '/wordpress/wp-load.php';
try {
	cairn_maps_demo_seed( '/tmp/cairn-maps-demo.json' );
} catch ( Throwable $cairn_maps_error ) {
	// Said in the step's output (WordPress' fatal-error page would hide it), and the step fails.
	echo 'Cairn Maps demo: ' . esc_html( $cairn_maps_error->getMessage() ) . "\n";
	exit( 1 );
}
