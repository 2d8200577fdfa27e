<?php
/**
 * Development and test sites only (copied into the site's mu-plugins by bin/start.mjs; never part
 * of the plugin): many generated markers at once, for a big demo map (`npm start -- --demo-size=N`)
 * and the end-to-end test of a tiled map on WordPress Playground.
 *
 * Creating markers one by one over REST takes Playground about 50 ms each, and even the plugin's
 * import (`POST /cairn/v1/markers/import`, multi-row INSERTs) about 25 s per 1,000, most of it
 * the SQLite drop-in translating each statement. These routes write the rows straight into the
 * tables instead — through the drop-in's own PDO connection with prepared statements on SQLite
 * (12,000 markers in under a second there), through $wpdb elsewhere — and then announce the
 * change as code writing markers behind WordPress' back must: `cairn_maps_markers_changed` (a new
 * markers version for the feeds, and a rebuild of the place index).
 *
 * - `POST /wp-json/cairn-dev/v1/demo-places` `{ count, group?, name?, box? }` brings the group
 *   (slug, default `demo-places`; created when missing) to `count` published markers (1–200,000),
 *   adding only the missing ones. Places are the same on every site: marker n of a group is
 *   always at the same position with the same title ("Misty Tarn 17"), two thirds of them around
 *   24 centres inside `box` (`west,south,east,north`, default Europe), the rest spread over it.
 * - `GET /wp-json/cairn-dev/v1/demo-places?group=…`: how many the group holds, and where the place
 *   index stands (`index`: `pending`, `phase`, `done`, `total`, `by`; `places`, every place the index
 *   holds, and `indexed`, the group's), for the seed's progress.
 * - `DELETE /wp-json/cairn-dev/v1/demo-places?group=…`: removes the group and its markers.
 * - Each takes `type=post` (since 0.10.0) for posts with a public place in a category of that
 *   slug instead of markers in a group; POST and DELETE take `index=true` to run the place index's
 *   pending rebuild in the same request (a test of tiled maps that cannot wait for admin pages).
 *
 * For administrators only (manage_options), with the REST nonce as any REST write.
 *
 * @package Cairn\Maps
 */

defined( 'ABSPATH' ) || exit;

// phpcs:disable WordPress.DB.DirectDatabaseQuery -- a development tool writing rows in bulk on purpose (see above); the plugin never does.

/**
 * Most markers one request may bring a group to.
 */
const CAIRN_MAPS_DEV_MAX_PLACES = 200000;

/**
 * The default box: most of Europe.
 */
const CAIRN_MAPS_DEV_BOX = array( -10.0, 36.0, 30.0, 60.0 );

const CAIRN_MAPS_DEV_WORDS_A = array( 'Misty', 'Quiet', 'Windy', 'Golden', 'Hidden', 'Upper', 'Lower', 'Stony', 'Silver', 'Green', 'Lonely', 'Broad', 'Sunny', 'Old', 'North', 'South' );
const CAIRN_MAPS_DEV_WORDS_B = array( 'Tarn', 'Ridge', 'Bothy', 'Falls', 'Harbour', 'Meadow', 'Chapel', 'Mill', 'Ford', 'Lookout', 'Spring', 'Crag', 'Orchard', 'Bridge', 'Beacon', 'Cove' );

add_action( 'rest_api_init', 'cairn_maps_dev_demo_places_routes' );

/**
 * Registers the routes.
 */
function cairn_maps_dev_demo_places_routes(): void {
	$group = array(
		'type'    => 'string',
		'pattern' => '^[a-z0-9][a-z0-9-]{0,59}$',
		'default' => 'demo-places',
	);
	// Markers in a marker group, or posts (with a public place) in a category of that slug.
	$type = array(
		'type'    => 'string',
		'enum'    => array( 'cairn_marker', 'post' ),
		'default' => 'cairn_marker',
	);
	register_rest_route(
		'cairn-dev/v1',
		'/demo-places',
		array(
			array(
				'methods'             => WP_REST_Server::CREATABLE,
				'callback'            => 'cairn_maps_dev_demo_places_create',
				'permission_callback' => 'cairn_maps_dev_demo_places_allowed',
				'args'                => array(
					'count' => array(
						'type'     => 'integer',
						'minimum'  => 1,
						'maximum'  => CAIRN_MAPS_DEV_MAX_PLACES,
						'required' => true,
					),
					'group' => $group,
					'name'  => array(
						'type'      => 'string',
						'maxLength' => 100,
						'default'   => 'Demo places',
					),
					'box'   => array(
						'type'    => 'string',
						'pattern' => '^-?[0-9.]+,-?[0-9.]+,-?[0-9.]+,-?[0-9.]+$',
					),
					'type'  => $type,
					'index' => array(
						'type'    => 'boolean',
						'default' => false,
					),
				),
			),
			array(
				'methods'             => WP_REST_Server::READABLE,
				'callback'            => 'cairn_maps_dev_demo_places_count',
				'permission_callback' => 'cairn_maps_dev_demo_places_allowed',
				'args'                => array(
					'group' => $group,
					'type'  => $type,
				),
			),
			array(
				'methods'             => WP_REST_Server::DELETABLE,
				'callback'            => 'cairn_maps_dev_demo_places_delete',
				'permission_callback' => 'cairn_maps_dev_demo_places_allowed',
				'args'                => array(
					'group' => $group,
					'type'  => $type,
					'index' => array(
						'type'    => 'boolean',
						'default' => false,
					),
				),
			),
		)
	);
}

/**
 * Administrators only; and Cairn Maps must be active.
 *
 * @return true|WP_Error
 */
function cairn_maps_dev_demo_places_allowed() {
	if ( ! current_user_can( 'manage_options' ) ) {
		return new WP_Error( 'rest_forbidden', 'Only administrators may generate demo places.', array( 'status' => rest_authorization_required_code() ) );
	}
	if ( ! post_type_exists( 'cairn_marker' ) ) {
		return new WP_Error( 'cairn_dev_inactive', 'Cairn Maps is not active on this site.', array( 'status' => 409 ) );
	}
	return true;
}

/**
 * The box of a request: [ west, south, east, north ].
 *
 * @param WP_REST_Request $request The request.
 * @return float[]|WP_Error
 */
function cairn_maps_dev_demo_places_box( WP_REST_Request $request ) {
	if ( null === $request['box'] ) {
		return CAIRN_MAPS_DEV_BOX;
	}
	$box = array_map( 'floatval', explode( ',', (string) $request['box'] ) );
	if ( $box[0] < -180 || $box[2] > 180 || $box[1] < -85 || $box[3] > 85 || $box[0] >= $box[2] || $box[1] >= $box[3] ) {
		return new WP_Error( 'cairn_dev_box', 'box must be west,south,east,north with west < east (−180…180) and south < north (−85…85).', array( 'status' => 400 ) );
	}
	return $box;
}

/**
 * Marker n of a generated group: title and position, the same on every site.
 *
 * @param int     $n   Its number (1…).
 * @param float[] $box [ west, south, east, north ].
 * @return array{title: string, lat: string, lng: string}
 */
function cairn_maps_dev_demo_place( int $n, array $box ): array {
	$random = static fn( string $key ): float => crc32( $key ) / 4294967296;
	$width  = $box[2] - $box[0];
	$height = $box[3] - $box[1];
	if ( $random( "$n:spread" ) < 2 / 3 ) {
		$centre = (int) floor( $random( "$n:centre" ) * 24 );
		// About a normal spread (the sum of three uniforms) of a twentieth of the box.
		$lng = $box[0] + $width * $random( "c$centre:lng" ) + ( $random( "$n:a" ) + $random( "$n:b" ) + $random( "$n:c" ) - 1.5 ) * $width / 20;
		$lat = $box[1] + $height * $random( "c$centre:lat" ) + ( $random( "$n:d" ) + $random( "$n:e" ) + $random( "$n:f" ) - 1.5 ) * $height / 20;
	} else {
		$lng = $box[0] + $width * $random( "$n:lng" );
		$lat = $box[1] + $height * $random( "$n:lat" );
	}
	$number = static fn( float $value ): string => rtrim( rtrim( number_format( $value, 5, '.', '' ), '0' ), '.' );
	return array(
		'title' => CAIRN_MAPS_DEV_WORDS_A[ crc32( "$n:a-word" ) % 16 ] . ' ' . CAIRN_MAPS_DEV_WORDS_B[ crc32( "$n:b-word" ) % 16 ] . ' ' . $n,
		'lat'   => $number( min( $box[3], max( $box[1], $lat ) ) ),
		'lng'   => $number( min( $box[2], max( $box[0], $lng ) ) ),
	);
}

/**
 * The group's term taxonomy id and term id, created when missing.
 *
 * @param string $slug     Slug.
 * @param string $name     Name, for a new group.
 * @param string $taxonomy The markers' groups, or the posts' categories.
 * @return array{0: int, 1: int}|WP_Error
 */
function cairn_maps_dev_demo_places_term( string $slug, string $name, string $taxonomy = 'cairn_marker_group' ) {
	$term = get_term_by( 'slug', $slug, $taxonomy );
	if ( ! $term instanceof WP_Term ) {
		$made = wp_insert_term( $name, $taxonomy, array( 'slug' => $slug ) );
		if ( is_wp_error( $made ) ) {
			return $made;
		}
		return array( (int) $made['term_taxonomy_id'], (int) $made['term_id'] );
	}
	return array( (int) $term->term_taxonomy_id, (int) $term->term_id );
}

/**
 * How many markers (or posts) a group holds.
 *
 * @param int    $tt_id Term taxonomy id.
 * @param string $type  Post type.
 */
function cairn_maps_dev_demo_places_held( int $tt_id, string $type = 'cairn_marker' ): int {
	global $wpdb;
	return (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->term_relationships} tr INNER JOIN {$wpdb->posts} p ON p.ID = tr.object_id WHERE tr.term_taxonomy_id = %d AND p.post_type = %s", $tt_id, $type ) );
}

/**
 * The taxonomy of a type's demo groups.
 *
 * @param string $type Post type.
 */
function cairn_maps_dev_demo_places_taxonomy( string $type ): string {
	return 'post' === $type ? 'category' : 'cairn_marker_group';
}

/**
 * A statement runner for bulk writes: the SQLite drop-in's own PDO connection when the site runs
 * on it (no translation per statement), else $wpdb.
 *
 * @return array{begin: callable(): void, run: callable(string, list<int|string>): void, commit: callable(): void}
 */
function cairn_maps_dev_demo_places_writer(): array {
	global $wpdb;
	$pdo = null;
	$dbh = $wpdb->dbh ?? null;
	if ( is_object( $dbh ) && method_exists( $dbh, 'get_connection' ) ) {
		$pdo = $dbh->get_connection()->get_pdo();
	} elseif ( is_object( $dbh ) && method_exists( $dbh, 'get_sqlite_pdo' ) ) {
		$pdo = $dbh->get_sqlite_pdo();
	} elseif ( isset( $GLOBALS['@pdo'] ) && $GLOBALS['@pdo'] instanceof PDO ) {
		$pdo = $GLOBALS['@pdo'];
	}
	if ( $pdo instanceof PDO ) {
		$statements = array();
		return array(
			'begin'  => static fn() => $pdo->inTransaction() || $pdo->beginTransaction(),
			'run'    => static function ( string $sql, array $values ) use ( $pdo, &$statements ): void {
				$statements[ $sql ] = $statements[ $sql ] ?? $pdo->prepare( str_replace( array( '%d', '%s' ), '?', $sql ) );
				$statements[ $sql ]->execute( $values );
			},
			'commit' => static fn() => ! $pdo->inTransaction() || $pdo->commit(),
		);
	}
	return array(
		'begin'  => static fn() => $wpdb->query( 'START TRANSACTION' ),
		// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared -- prepared here; the statements are this file's own.
		'run'    => static fn( string $sql, array $values ) => $wpdb->query( $wpdb->prepare( $sql, $values ) ),
		'commit' => static fn() => $wpdb->query( 'COMMIT' ),
	);
}

/**
 * Brings a group to `count` generated markers.
 *
 * @param WP_REST_Request $request The request.
 * @return WP_REST_Response|WP_Error
 */
function cairn_maps_dev_demo_places_create( WP_REST_Request $request ) {
	global $wpdb;
	$started = microtime( true );
	$box     = cairn_maps_dev_demo_places_box( $request );
	if ( is_wp_error( $box ) ) {
		return $box;
	}
	$slug     = (string) $request['group'];
	$type     = (string) $request['type'];
	$taxonomy = cairn_maps_dev_demo_places_taxonomy( $type );
	$term     = cairn_maps_dev_demo_places_term( $slug, sanitize_text_field( (string) $request['name'] ), $taxonomy );
	if ( is_wp_error( $term ) ) {
		return $term;
	}
	$held  = cairn_maps_dev_demo_places_held( $term[0], $type );
	$count = (int) $request['count'];
	if ( $held < $count ) {
		$next   = (int) $wpdb->get_var( "SELECT COALESCE(MAX(ID), 0) + 1 FROM {$wpdb->posts}" );
		$now    = current_time( 'mysql' );
		$gmt    = current_time( 'mysql', true );
		$author = get_current_user_id();
		$guid   = home_url( '/?post_type=' . $type . '&p=' );
		$writer = cairn_maps_dev_demo_places_writer();
		$post   = "INSERT INTO {$wpdb->posts} (ID, post_author, post_date, post_date_gmt, post_content, post_title, post_excerpt, post_status, comment_status, ping_status, post_password, post_name, to_ping, pinged, post_modified, post_modified_gmt, post_content_filtered, post_parent, guid, menu_order, post_type, post_mime_type, comment_count) VALUES (%d, %d, %s, %s, '', %s, '', 'publish', 'closed', 'closed', '', %s, '', '', %s, %s, '', 0, %s, 0, %s, '', 0)";
		$meta   = "INSERT INTO {$wpdb->postmeta} (post_id, meta_key, meta_value) VALUES (%d, %s, %s)";
		$link   = "INSERT INTO {$wpdb->term_relationships} (object_id, term_taxonomy_id, term_order) VALUES (%d, %d, 0)";
		$writer['begin']();
		for ( $n = $held + 1; $n <= $count; $n++, $next++ ) {
			$place = cairn_maps_dev_demo_place( $n, $box );
			$writer['run']( $post, array( $next, $author, $now, $gmt, $place['title'], "$slug-$n", $now, $gmt, $guid . $next, $type ) );
			if ( 'post' === $type ) {
				$writer['run']( $meta, array( $next, 'geo_latitude', $place['lat'] ) );
				$writer['run']( $meta, array( $next, 'geo_longitude', $place['lng'] ) );
				$writer['run']( $meta, array( $next, 'geo_public', '1' ) );
			} else {
				$writer['run']( $meta, array( $next, 'cairn_lat', $place['lat'] ) );
				$writer['run']( $meta, array( $next, 'cairn_lng', $place['lng'] ) );
			}
			$writer['run']( $link, array( $next, $term[0] ) );
		}
		$writer['commit']();
		cairn_maps_dev_demo_places_changed( $term, $taxonomy );
	}
	cairn_maps_dev_demo_places_index_now( $request );
	return rest_ensure_response(
		array(
			'group'   => $slug,
			'added'   => max( 0, $count - $held ),
			'total'   => max( $held, $count ),
			'seconds' => round( microtime( true ) - $started, 2 ),
		)
	);
}

/**
 * With `index`, a pending rebuild of the place index is run in this request (a test that needs
 * the tiles now, not after many admin page loads).
 *
 * @param WP_REST_Request $request The request.
 */
function cairn_maps_dev_demo_places_index_now( WP_REST_Request $request ): void {
	$index = class_exists( '\\Cairn\\Maps\\Plugin' ) ? \Cairn\Maps\Plugin::instance()->get( 'place_index' ) : null;
	if ( $request['index'] && $index instanceof \Cairn\Maps\Index\Place_Index && $index->is_pending() ) {
		$index->rebuild_now( 2000 );
	}
}

/**
 * How many markers a group holds.
 *
 * @param WP_REST_Request $request The request.
 * @return WP_REST_Response
 */
function cairn_maps_dev_demo_places_count( WP_REST_Request $request ): WP_REST_Response {
	$type     = (string) $request['type'];
	$term     = get_term_by( 'slug', (string) $request['group'], cairn_maps_dev_demo_places_taxonomy( $type ) );
	$index    = class_exists( '\\Cairn\\Maps\\Plugin' ) ? \Cairn\Maps\Plugin::instance()->get( 'place_index' ) : null;
	$progress = $index instanceof \Cairn\Maps\Index\Place_Index ? $index->progress() : array();
	return rest_ensure_response(
		array(
			'group' => (string) $request['group'],
			'total' => $term instanceof WP_Term ? cairn_maps_dev_demo_places_held( (int) $term->term_taxonomy_id, $type ) : 0,
			'index' => array_intersect_key( $progress, array_flip( array( 'pending', 'phase', 'done', 'total', 'level', 'levels', 'by' ) ) )
				+ ( $index instanceof \Cairn\Maps\Index\Place_Index
					? array(
						'places'  => $index->info()['places'],
						'indexed' => $index->count(
							'post' === $type
								? ( new \Cairn\Maps\Index\Place_Filter() )->with_posts( false, array( 'post' ), array( 'category:' . $request['group'] ) )
								: new \Cairn\Maps\Index\Place_Filter( array( (string) $request['group'] ) )
						),
					)
					: array() ),
		)
	);
}

/**
 * Removes a group and its markers.
 *
 * @param WP_REST_Request $request The request.
 * @return WP_REST_Response
 */
function cairn_maps_dev_demo_places_delete( WP_REST_Request $request ): WP_REST_Response {
	global $wpdb;
	$started  = microtime( true );
	$type     = (string) $request['type'];
	$taxonomy = cairn_maps_dev_demo_places_taxonomy( $type );
	$term     = get_term_by( 'slug', (string) $request['group'], $taxonomy );
	$deleted  = 0;
	if ( $term instanceof WP_Term ) {
		$tt_id   = (int) $term->term_taxonomy_id;
		$deleted = cairn_maps_dev_demo_places_held( $tt_id, $type );
		$markers = $wpdb->prepare( "SELECT object_id FROM {$wpdb->term_relationships} WHERE term_taxonomy_id = %d", $tt_id );
		// phpcs:disable WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- $markers is prepared above.
		$wpdb->query( "DELETE FROM {$wpdb->postmeta} WHERE post_id IN ($markers)" );
		$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->posts} WHERE post_type = %s AND ID IN ($markers)", $type ) );
		// phpcs:enable WordPress.DB.PreparedSQL.InterpolatedNotPrepared
		$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->term_relationships} WHERE term_taxonomy_id = %d", $tt_id ) );
		wp_delete_term( (int) $term->term_id, $taxonomy );
		cairn_maps_dev_demo_places_changed( null, $taxonomy );
		cairn_maps_dev_demo_places_index_now( $request );
	}
	return rest_ensure_response(
		array(
			'group'   => (string) $request['group'],
			'deleted' => $deleted,
			'seconds' => round( microtime( true ) - $started, 2 ),
		)
	);
}

/**
 * After writing behind WordPress' back: caches and counts right, and the plugin told.
 *
 * @param array{0: int, 1: int}|null $term     The group written to (term taxonomy id, term id).
 * @param string                     $taxonomy Its taxonomy.
 */
function cairn_maps_dev_demo_places_changed( ?array $term, string $taxonomy = 'cairn_marker_group' ): void {
	if ( null !== $term ) {
		wp_update_term_count_now( array( $term[0] ), $taxonomy );
		clean_term_cache( $term[1], $taxonomy );
	}
	if ( 'category' === $taxonomy && class_exists( '\\Cairn\\Maps\\Content\\Places_Version' ) ) {
		// Posts written behind WordPress' back: their addresses' version must change too.
		( new \Cairn\Maps\Content\Places_Version() )->bump();
	}
	if ( wp_cache_supports( 'flush_runtime' ) ) {
		wp_cache_flush_runtime();
	}
	wp_cache_set_posts_last_changed();
	// phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- the plugin's own action.
	do_action( 'cairn_maps_markers_changed' );
}
