<?php
/**
 * Bench-only WordPress helper, run from the command line by bench/api/run.sh and measure.mjs.
 *
 *   php bench/api/wp.php install    install WordPress into the bench database
 *   php bench/api/wp.php activate   activate cairn-maps
 *   php bench/api/wp.php bump       tell the plugin that markers changed behind its back
 *                                   (`cairn_maps_markers_changed`: new markers version, so the
 *                                   feed's ETag and cache key change and the next request rebuilds)
 *   php bench/api/wp.php bump-places the same for posts' places (`cairn_maps_places_changed`: new
 *                                   places version, the posts feed rebuilds; issue 24)
 *   php bench/api/wp.php maps-page  a published page with three map blocks (two hashed, one
 *                                   showing a group) and a public token; prints its id
 *   php bench/api/wp.php seed-shapes ROUTES VERTICES
 *                                   issue 21: brings the site to ROUTES published markers that are
 *                                   routes of VERTICES positions with elevation (bench/api/trails.php),
 *                                   started at random places of the seed's area (BENCH_DATA), one of
 *                                   the seed's groups each: every geometry goes through the plugin's
 *                                   Geometry_Rule::check(), Geometry_Measures::anchor() and
 *                                   Shape_Store::derive(), then batched INSERTs of the posts and
 *                                   their meta (cairn_lat/lng, cairn_geometry, _cairn_shape); then
 *                                   `cairn_maps_markers_changed`. Cumulative; prints a JSON summary
 *   php bench/api/wp.php app-password  an application password of the administrator (the bench
 *                                   mu-plugin allows them over HTTP); prints `admin:<password>`
 *   php bench/api/wp.php info       plugin/WordPress facts as JSON
 *   php bench/api/wp.php feed-cache what the feed cache holds in the options table, as JSON: rows
 *                                   and bytes of the whole feed, of the filtered copies and of
 *                                   the bookkeeping, the bound (Feed_Cache::limits(), max_rows()),
 *                                   the whole options table, and the published markers' id range
 *
 * Environment: CAIRN_BENCH_WP_ROOT (the bench WordPress root with its wp-config.php),
 * CAIRN_BENCH_SITE_URL (http://127.0.0.1:PORT).
 *
 * @package Cairn\Maps
 */

'cli' === PHP_SAPI || exit; // A command-line script, never a web page.

$cairn_bench_command = $argv[1] ?? '';
$cairn_bench_root    = rtrim( (string) getenv( 'CAIRN_BENCH_WP_ROOT' ), '/' );
$cairn_bench_url     = (string) getenv( 'CAIRN_BENCH_SITE_URL' );

if ( '' === $cairn_bench_root || ! is_file( $cairn_bench_root . '/wp-config.php' ) ) {
	fwrite( STDERR, "wp.php: CAIRN_BENCH_WP_ROOT must name the bench WordPress root (with wp-config.php)\n" );
	exit( 2 );
}
$cairn_bench_parts       = parse_url( $cairn_bench_url );
$_SERVER['HTTP_HOST']    = ( $cairn_bench_parts['host'] ?? '127.0.0.1' ) . ( isset( $cairn_bench_parts['port'] ) ? ':' . $cairn_bench_parts['port'] : '' );
$_SERVER['SERVER_NAME']  = $cairn_bench_parts['host'] ?? '127.0.0.1';
$_SERVER['REQUEST_URI']  = '/';
$_SERVER['SERVER_PORT']  = (string) ( $cairn_bench_parts['port'] ?? 80 );
$_SERVER['REMOTE_ADDR']  = '127.0.0.1';
$_SERVER['REQUEST_METHOD'] = 'GET';

switch ( $cairn_bench_command ) {
	case 'install':
		define( 'WP_INSTALLING', true );
		require $cairn_bench_root . '/wp-load.php';
		require_once ABSPATH . 'wp-admin/includes/upgrade.php';
		if ( is_blog_installed() ) {
			echo "WordPress is already installed\n";
			exit( 0 );
		}
		add_filter( 'pre_wp_mail', '__return_false' ); // No "new site" mail (no sendmail here).
		$result = wp_install( 'Cairn Maps bench', 'admin', 'admin@example.org', false, '', wp_generate_password( 24 ) );
		if ( is_wp_error( $result ) ) {
			fwrite( STDERR, 'wp_install failed: ' . $result->get_error_message() . "\n" );
			exit( 1 );
		}
		echo 'WordPress ' . get_bloginfo( 'version' ) . " installed\n";
		exit( 0 );

	case 'activate':
		require $cairn_bench_root . '/wp-load.php';
		require_once ABSPATH . 'wp-admin/includes/plugin.php';
		$result = activate_plugin( 'cairn-maps/cairn-maps.php' );
		if ( is_wp_error( $result ) ) {
			fwrite( STDERR, 'activate_plugin failed: ' . $result->get_error_message() . "\n" );
			exit( 1 );
		}
		echo "cairn-maps active\n";
		exit( 0 );

	case 'bump':
		require $cairn_bench_root . '/wp-load.php';
		if ( ! has_action( 'cairn_maps_markers_changed' ) ) {
			fwrite( STDERR, "wp.php bump: the plugin is not loaded (inactive, or idle because build/ is missing)\n" );
			exit( 1 );
		}
		do_action( 'cairn_maps_markers_changed' );
		echo "markers version bumped\n";
		exit( 0 );

	case 'bump-places':
		require $cairn_bench_root . '/wp-load.php';
		if ( ! has_action( 'cairn_maps_places_changed' ) ) {
			fwrite( STDERR, "wp.php bump-places: the plugin is not loaded, or has no posts feed\n" );
			exit( 1 );
		}
		do_action( 'cairn_maps_places_changed' );
		echo "places version bumped\n";
		exit( 0 );

	case 'profile':
		// Where a cold rebuild's time goes, step by step, with the plugin's own classes (CLI, the
		// same database). Steps run one after another on the same data; run after the HTTP
		// measurements (it stores one extra feed entry under its own key).
		require $cairn_bench_root . '/wp-load.php';
		$steps = array();
		$time  = static function ( callable $step ) {
			$start = hrtime( true );
			$value = $step();
			return array( round( ( hrtime( true ) - $start ) / 1e6, 1 ), $value );
		};
		try {
			$version    = new Cairn\Maps\Markers\Markers_Version();
			$repository = new Cairn\Maps\Markers\Marker_Repository( $version );
			$feed       = new Cairn\Maps\Feed\Geojson_Feed( $repository, $version, new Cairn\Maps\Feed\Feed_Cache() );
			$markers    = array();
			list( $steps['read_rows_and_groups_ms'] ) = $time(
				static function () use ( $repository, &$markers ) {
					foreach ( $repository->each( array() ) as $marker ) {
						$markers[] = $marker;
					}
				}
			);
			$ids = array_column( $markers, 'id' );
			$json = '';
			list( $steps['feature_json_ms'] ) = $time(
				static function () use ( $markers, &$json ) {
					$parts = array();
					foreach ( $markers as $marker ) {
						$parts[] = Cairn\Maps\Feed\Geojson_Feed::feature_json( $marker );
					}
					$json = '{"type":"FeatureCollection","features":[' . implode( ',', $parts ) . ']}';
				}
			);
			foreach ( array( 9, Cairn\Maps\Feed\Geojson_Feed::GZIP_LEVEL, 6 ) as $level ) {
				list( $steps[ "gzip_level{$level}_ms" ], $bytes ) = $time(
					static function () use ( $json, $level ) {
						$context = deflate_init(
							ZLIB_ENCODING_GZIP,
							array(
								'level'    => $level,
								'memory'   => 9,
								'strategy' => ZLIB_FILTERED,
							)
						);
						return strlen( deflate_add( $context, $json, ZLIB_FINISH ) );
					}
				);
				$steps[ "gzip_level{$level}_bytes_per_marker" ] = round( $bytes / max( 1, count( $markers ) ), 2 );
			}
			unset( $json, $markers );
			// What a cold request does: reads overlapped with JSON and gzip at the plugin's level.
			list( $steps['build_total_ms'], $payload ) = $time(
				static function () use ( $feed ) {
					return $feed->build( Cairn\Maps\Feed\Geojson_Feed::normalize( array() ) );
				}
			);
			$steps['gzip_level'] = Cairn\Maps\Feed\Geojson_Feed::GZIP_LEVEL;
			list( $steps['store_ms'] ) = $time(
				static function () use ( $payload ) {
					( new Cairn\Maps\Feed\Feed_Cache() )->set( 'benchprofile', 'benchprofile', $payload );
				}
			);
			list( $steps['load_ms'] ) = $time(
				static function () {
					wp_cache_flush(); // Read from the database, as a fresh request does.
					( new Cairn\Maps\Feed\Feed_Cache() )->get( 'benchprofile', 'benchprofile' );
				}
			);
			// A filtered answer cut from the cached whole feed (issue 12): a box, and a group asked for
			// the first time (so not stored), with no marker read from the database.
			$reads = 0;
			add_filter(
				'query',
				static function ( $sql ) use ( &$reads ) {
					$reads += false !== strpos( (string) $sql, 'cairn_lng' ) ? 1 : 0;
					return $sql;
				}
			);
			$feed->payload( array(), true ); // The whole feed, cached (by the HTTP runs).
			$reads = 0;
			list( $steps['bbox_from_cache_ms'], $cut ) = $time(
				static function () use ( $feed ) {
					return $feed->payload( array( 'bbox' => array( -10.0, 40.0, 10.0, 60.0 ) ), true );
				}
			);
			$steps['bbox_from_cache_features'] = $cut->count();
			list( $steps['group_from_cache_ms'], $cut ) = $time(
				static function () use ( $feed ) {
					return $feed->payload( array( 'groups' => array( 'springs', 'bridges' ) ), true );
				}
			);
			$steps['group_from_cache_features'] = $cut->count();
			$steps['from_cache_marker_reads']   = $reads;
			$steps['markers'] = count( $ids );
		} catch ( Throwable $error ) {
			$steps['error'] = get_class( $error ) . ': ' . $error->getMessage();
		}
		echo wp_json_encode( $steps ) . "\n";
		exit( 0 );

	case 'feed-cache':
		// The options table as a flood of filtered requests would grow it (issue 12).
		require $cairn_bench_root . '/wp-load.php';
		global $wpdb;
		$prefix = Cairn\Maps\Feed\Feed_Cache::PREFIX;
		$index  = get_option( 'cairn_maps_feed_index', array() );
		$index  = is_array( $index ) ? $index : array();
		$parts  = array();
		foreach ( array( 'whole', 'filtered', 'bookkeeping', 'locks' ) as $part ) {
			$parts[ $part ] = array(
				'rows'      => 0,
				'bytes'     => 0,
				'manifests' => 0,
			);
		}
		$rows = $wpdb->get_results( $wpdb->prepare( "SELECT option_name, LENGTH(option_value) AS bytes FROM {$wpdb->options} WHERE option_name LIKE %s OR option_name LIKE %s OR option_name LIKE %s", $wpdb->esc_like( '_transient_' . $prefix ) . '%', $wpdb->esc_like( '_transient_timeout_' . $prefix ) . '%', $wpdb->esc_like( $prefix ) . '%' ), ARRAY_A );
		foreach ( $rows as $row ) {
			$name = $row['option_name'];
			if ( 1 === preg_match( '/^(_transient_(timeout_)?)?' . preg_quote( $prefix, '/' ) . '([0-9a-f]{32})(_.*)?$/', $name, $match ) ) {
				$part = isset( $index[ $match[3] ] ) ? 'filtered' : 'whole';
				if ( '_transient_' === $match[1] && empty( $match[4] ) ) {
					++$parts[ $part ]['manifests'];
				}
			} else {
				$part = 0 === strpos( $name, $prefix . 'lock_' ) ? 'locks' : 'bookkeeping';
			}
			++$parts[ $part ]['rows'];
			$parts[ $part ]['bytes'] += (int) $row['bytes'];
		}
		$table = $wpdb->get_row( "SELECT COUNT(*) AS row_count, COALESCE(SUM(LENGTH(option_value)), 0) AS bytes FROM {$wpdb->options}", ARRAY_A );
		$range = $wpdb->get_row( $wpdb->prepare( "SELECT MIN(ID) AS min_id, MAX(ID) AS max_id FROM {$wpdb->posts} WHERE post_type = %s AND post_status = 'publish'", 'cairn_marker' ), ARRAY_A );
		$cache = 'Cairn\\Maps\\Feed\\Feed_Cache';
		echo wp_json_encode(
			array(
				'parts'         => $parts,
				'rows'          => count( $rows ),
				'bytes'         => (int) array_sum( array_column( $rows, 'bytes' ) ),
				'entries'       => count( $index ),
				'entry_bytes'   => (int) array_sum( array_column( $index, 'bytes' ) ),
				'bound'         => method_exists( $cache, 'limits' ) ? $cache::limits() + array( 'rows' => $cache::max_rows() ) : null,
				'options_table' => array(
					'rows'  => (int) $table['row_count'],
					'bytes' => (int) $table['bytes'],
				),
				'markers'       => array(
					'min_id' => (int) $range['min_id'],
					'max_id' => (int) $range['max_id'],
				),
			)
		) . "\n";
		exit( 0 );

	case 'maps-page':
		// The page of `/cairn/v1/posts/<id>/maps` beside core's `/wp/v2/pages/<id>` (issue 10).
		require $cairn_bench_root . '/wp-load.php';
		$token = 'pk.' . rtrim( strtr( base64_encode( '{"u":"cairn","a":"bench"}' ), '+/', '-_' ), '=' ) . '.c2lnbmF0dXJl';
		update_option( 'cairn_maps_access_token', $token );
		$existing = get_page_by_path( 'cairn-bench-maps', OBJECT, 'page' );
		$id       = $existing ? $existing->ID : wp_insert_post(
			array(
				'post_type'    => 'page',
				'post_status'  => 'publish',
				'post_name'    => 'cairn-bench-maps',
				'post_title'   => 'Three maps',
				'post_content' => '<!-- wp:paragraph --><p>Huts and peaks.</p><!-- /wp:paragraph -->'
					. '<!-- wp:cairn/map {"hash":true,"zoom":5,"center":{"lng":-3.2,"lat":55.9}} /-->'
					. '<!-- wp:group --><div class="wp-block-group"><!-- wp:cairn/map {"markers":{"source":"groups","groups":["huts"],"ids":[]}} /--></div><!-- /wp:group -->'
					. '<!-- wp:cairn/map {"hash":true,"anchor":"peaks","markers":{"source":"groups","groups":["peaks"],"ids":[]}} /-->',
			),
			true
		);
		if ( is_wp_error( $id ) || ! $id ) {
			fwrite( STDERR, 'wp.php maps-page: the page could not be created' . "\n" );
			exit( 1 );
		}
		echo (int) $id . "\n";
		exit( 0 );

	case 'seed-shapes':
		require $cairn_bench_root . '/wp-load.php';
		require __DIR__ . '/trails.php';
		exit( cairn_bench_seed_shapes( max( 0, (int) ( $argv[2] ?? 500 ) ), max( 2, (int) ( $argv[3] ?? 2000 ) ) ) );

	case 'app-password':
		require $cairn_bench_root . '/wp-load.php';
		$user = get_user_by( 'login', 'admin' );
		if ( ! $user ) {
			fwrite( STDERR, "wp.php app-password: no user 'admin'\n" );
			exit( 1 );
		}
		$created = WP_Application_Passwords::create_new_application_password( $user->ID, array( 'name' => 'cairn-bench-' . wp_generate_password( 6, false ) ) );
		if ( is_wp_error( $created ) ) {
			fwrite( STDERR, 'wp.php app-password: ' . $created->get_error_message() . "\n" );
			exit( 1 );
		}
		echo 'admin:' . $created[0] . "\n";
		exit( 0 );

	case 'tiles-page':
		// Issue 22: a page with one map of every marker (the default selection), whose
		// `/cairn/v1/posts/<id>/maps` carries the tiled map's `tilesUrl`, `placesUrl` and `summaryUrl`.
		require $cairn_bench_root . '/wp-load.php';
		$token = 'pk.' . rtrim( strtr( base64_encode( '{"u":"cairn","a":"bench"}' ), '+/', '-_' ), '=' ) . '.c2lnbmF0dXJl';
		update_option( 'cairn_maps_access_token', $token );
		$existing = get_page_by_path( 'cairn-bench-tiles', OBJECT, 'page' );
		$id       = $existing ? $existing->ID : wp_insert_post(
			array(
				'post_type'    => 'page',
				'post_status'  => 'publish',
				'post_name'    => 'cairn-bench-tiles',
				'post_title'   => 'Every place',
				'post_content' => '<!-- wp:cairn/map /-->',
			),
			true
		);
		if ( is_wp_error( $id ) || ! $id ) {
			fwrite( STDERR, "wp.php tiles-page: the page could not be created\n" );
			exit( 1 );
		}
		echo (int) $id . "\n";
		exit( 0 );

	case 'index-rebuild':
		// Issue 22: the place index after a bulk seed (which wrote behind WordPress' back), timed.
		// `index-rebuild` skips the work when the index is ready and holds every published marker
		// (a database kept from an earlier run); `index-rebuild force` always rebuilds.
		require $cairn_bench_root . '/wp-load.php';
		exit( cairn_bench_index_rebuild( 'force' === ( $argv[2] ?? '' ) ) );

	case 'tile-flush':
		// Issue 22: empties the server's tile and places caches (a cold start), whatever keeps them.
		require $cairn_bench_root . '/wp-load.php';
		echo wp_json_encode( cairn_bench_tile_flush() ) . "\n";
		exit( 0 );

	case 'geocode-prime':
		// Issue 34: the visitor geocoding cache, filled the way a visitor's first lookups fill it
		// (Geocoder::search, as background work: no person's quota). Nominatim is answered here by a
		// stand-in (one place, its point derived from the words): the bench never reaches the
		// network. Prints {"primed": n, "failed": [...]}.
		require $cairn_bench_root . '/wp-load.php';
		add_filter(
			'pre_http_request',
			static function ( $pre, $parsed_args, $url ) {
				if ( false === strpos( (string) $url, 'nominatim.openstreetmap.org' ) ) {
					return $pre;
				}
				parse_str( (string) wp_parse_url( (string) $url, PHP_URL_QUERY ), $query );
				$words = (string) ( $query['q'] ?? '' );
				$hash  = crc32( $words );
				return array(
					'headers'  => array( 'content-type' => 'application/json' ),
					'body'     => wp_json_encode(
						array(
							array(
								'display_name' => ucwords( $words ) . ', Benchshire',
								'lat'          => (string) round( -50 + ( $hash % 11000 ) / 100, 5 ),
								'lon'          => (string) round( -180 + ( intdiv( $hash, 11000 ) % 36000 ) / 100, 5 ),
							)
						)
					),
					'response' => array(
						'code'    => 200,
						'message' => 'OK',
					),
					'cookies'  => array(),
					'filename' => null,
				);
			},
			10,
			3
		);
		$cairn_bench_geocoder = new \Cairn\Maps\Geocoding\Geocoder();
		$cairn_bench_failed   = array();
		$cairn_bench_primed   = 0;
		foreach ( array_slice( $argv, 2 ) as $cairn_bench_town ) {
			// The site-wide slot allows one lookup a second: wait for it rather than fail.
			for ( $cairn_bench_try = 0; $cairn_bench_try < 5; $cairn_bench_try++ ) {
				$cairn_bench_found = $cairn_bench_geocoder->search( $cairn_bench_town, 1, 3.0 );
				if ( ! is_wp_error( $cairn_bench_found ) ) {
					break;
				}
				sleep( 1 );
			}
			if ( is_wp_error( $cairn_bench_found ) || 1 !== count( $cairn_bench_found ) ) {
				$cairn_bench_failed[] = array( $cairn_bench_town, is_wp_error( $cairn_bench_found ) ? $cairn_bench_found->get_error_code() : count( $cairn_bench_found ) );
			} else {
				++$cairn_bench_primed;
			}
		}
		echo wp_json_encode(
			array(
				'primed' => $cairn_bench_primed,
				'failed' => $cairn_bench_failed,
			)
		) . "\n";
		exit( 0 );

	case 'version':
		// Issue 22: the markers version token (the `v` of tile and places URLs).
		require $cairn_bench_root . '/wp-load.php';
		echo (string) get_option( 'cairn_maps_markers_version', '' ) . "\n";
		exit( 0 );

	case 'places-dump':
		// Issue 33: every place of the index as little-endian doubles lng, lat in post-id order,
		// to a file (bench/api/clusters.mjs gives them to supercluster). Streamed, not buffered.
		require $cairn_bench_root . '/wp-load.php';
		global $wpdb;
		$file   = (string) ( $argv[2] ?? '' );
		$handle = '' === $file ? false : fopen( $file, 'wb' );
		if ( false === $handle || ! $wpdb->dbh instanceof mysqli ) {
			fwrite( STDERR, "wp.php places-dump FILE: cannot write the file, or no mysqli\n" );
			exit( 1 );
		}
		$result = mysqli_query( $wpdb->dbh, 'SELECT lng, lat FROM ' . $wpdb->prefix . 'cairn_places ORDER BY post_id', MYSQLI_USE_RESULT );
		$count  = 0;
		$buffer = '';
		while ( $result && ( $row = mysqli_fetch_row( $result ) ) ) {
			$buffer .= pack( 'e2', (float) $row[0], (float) $row[1] );
			if ( 0 === ++$count % 10000 ) {
				fwrite( $handle, $buffer );
				$buffer = '';
			}
		}
		fwrite( $handle, $buffer );
		fclose( $handle );
		echo $count . "\n";
		exit( 0 );

	case 'cache-rows':
		// Issue 22: what the plugin stores beyond the index (bounded growth under a flood of URLs).
		require $cairn_bench_root . '/wp-load.php';
		echo wp_json_encode( cairn_bench_cache_rows() ) . "\n";
		exit( 0 );

	case 'info':
		require $cairn_bench_root . '/wp-load.php';
		echo wp_json_encode(
			array(
				'wordpress' => get_bloginfo( 'version' ),
				'plugin'    => defined( 'CAIRN_MAPS_VERSION' ) ? CAIRN_MAPS_VERSION : null,
				'active'    => has_action( 'cairn_maps_markers_changed' ) ? true : false,
			)
		) . "\n";
		exit( 0 );

	default:
		fwrite( STDERR, "usage: php bench/api/wp.php install|activate|bump|bump-places|maps-page|profile|info|feed-cache|seed-shapes|app-password|tiles-page|index-rebuild [force]|tile-flush|cache-rows\n" );
		exit( 2 );
}

/**
 * The plugin's class of that short name in the Markers folder (issue 21's shapes model).
 *
 * @param string $name Class name.
 */
function cairn_bench_markers_class( string $name ): string {
	foreach ( array( 'Cairn\\Maps\\Markers\\', 'Cairn_Maps\\Markers\\' ) as $namespace ) {
		if ( class_exists( $namespace . $name ) ) {
			return $namespace . $name;
		}
	}
	fwrite( STDERR, "wp.php seed-shapes: the plugin has no Markers\\{$name} (issue 21's shapes model is not merged)\n" );
	exit( 1 );
}

/**
 * `seed-shapes`: ROUTES routes of VERTICES positions, through the plugin's rule, anchor and
 * derive(), written with batched INSERTs (see the header).
 *
 * @param int $routes   Routes wanted in all.
 * @param int $vertices Positions per route.
 * @return int Exit status.
 */
function cairn_bench_seed_shapes( int $routes, int $vertices ): int {
	global $wpdb;
	$rule     = cairn_bench_markers_class( 'Geometry_Rule' );
	$measures = cairn_bench_markers_class( 'Geometry_Measures' );
	$store    = cairn_bench_markers_class( 'Shape_Store' );
	$started  = microtime( true );
	$before   = (int) $wpdb->get_var( "SELECT COUNT(*) FROM {$wpdb->posts} WHERE post_type = 'cairn_marker' AND post_name LIKE 'route-%'" );
	$groups   = array_values(
		array_filter(
			array_map(
				static function ( $slug ) {
					$term = get_term_by( 'slug', $slug, 'cairn_marker_group' );
					return $term ? (int) $term->term_taxonomy_id : 0;
				},
				array( 'huts', 'peaks', 'springs', 'viewpoints', 'bridges' )
			)
		)
	);
	$data = getenv( 'BENCH_DATA' ) ?: 'world';
	// As seed.php: [ west, width, south, height ] in degrees; routes start 0.5° inside.
	$box      = 'country' === $data ? array( -7.5, 9, 50.5, 7 ) : array( -179.5, 359, -59.5, 129 );
	$base     = strtotime( '2025-01-01 00:00:00 UTC' );
	$times    = array(
		'check_ms'  => 0.0,
		'derive_ms' => 0.0,
		'insert_ms' => 0.0,
	);
	$bytes    = array(
		'cairn_geometry' => 0,
		'_cairn_shape'   => 0,
	);
	$shape_vertices = 0;
	$clock          = static function ( string $key, callable $work ) use ( &$times ) {
		$start          = hrtime( true );
		$value          = $work();
		$times[ $key ] += ( hrtime( true ) - $start ) / 1e6;
		return $value;
	};
	$words_a = array( 'Ridge', 'Loch', 'Glen', 'Coast', 'Forest', 'Moor', 'River', 'Summit' );
	$words_b = array( 'Walk', 'Trail', 'Round', 'Way', 'Traverse', 'Loop' );
	$batch   = 25;
	for ( $from = $before + 1; $from <= $routes; $from += $batch ) {
		$to    = min( $routes, $from + $batch - 1 );
		$posts = array();
		$meta  = array();
		$rels  = array();
		$ids   = array();
		for ( $n = $from; $n <= $to; $n++ ) {
			$lng      = $box[0] + $box[1] * ( crc32( "route:{$n}:lng" ) / 4294967296 );
			$lat      = $box[2] + $box[3] * ( crc32( "route:{$n}:lat" ) / 4294967296 );
			$geometry = array(
				'type'        => 'LineString',
				'coordinates' => cairn_bench_trail( $lng, $lat, $vertices, 15.0, 2100 + $n ),
			);
			$checked  = $clock( 'check_ms', static fn() => $rule::check( $geometry ) );
			if ( is_wp_error( $checked ) ) {
				fwrite( STDERR, "wp.php seed-shapes: route {$n} refused: " . $checked->get_error_message() . "\n" );
				return 1;
			}
			$anchor = $measures::anchor( $checked );
			$shape  = $clock( 'derive_ms', static fn() => $store::derive( $checked ) );
			// As Shape_Store::save() stores it (JSON, floats kept as floats).
			$text   = method_exists( $store, 'encode' ) ? $store::encode( $checked ) : (string) wp_json_encode( $checked );
			$decoded = json_decode( $shape, true );
			foreach ( (array) ( $decoded['geometry']['coordinates'] ?? array() ) as $position ) {
				$shape_vertices += is_array( $position ) ? 1 : 0;
			}
			$bytes['cairn_geometry'] += strlen( $text );
			$bytes['_cairn_shape']   += strlen( $shape );
			$id    = (int) $wpdb->get_var( "SELECT COALESCE(MAX(ID), 0) + 1 FROM {$wpdb->posts}" ) + count( $ids );
			$ids[] = $id;
			$title = $words_a[ $n % 8 ] . ' ' . $words_b[ intdiv( $n, 8 ) % 6 ] . ' ' . $n;
			$date  = gmdate( 'Y-m-d H:i:s', $base + 60 * $n );
			$posts[] = $wpdb->prepare( '(%d,1,%s,%s,%s,%s,\'\',\'publish\',\'closed\',\'closed\',\'\',%s,\'\',\'\',%s,%s,\'\',0,\'\',0,\'cairn_marker\',\'\',0)', $id, $date, $date, "<!-- wp:paragraph -->\n<p>{$title}: a generated route of {$vertices} points.</p>\n<!-- /wp:paragraph -->", $title, "route-{$n}", $date, $date );
			$format = static fn( float $degrees ): string => rtrim( rtrim( number_format( $degrees, 7, '.', '' ), '0' ), '.' );
			$meta[] = $wpdb->prepare( '(%d,%s,%s)', $id, 'cairn_lat', $format( (float) $anchor['lat'] ) );
			$meta[] = $wpdb->prepare( '(%d,%s,%s)', $id, 'cairn_lng', $format( (float) $anchor['lng'] ) );
			$meta[] = $wpdb->prepare( '(%d,%s,%s)', $id, 'cairn_geometry', $text );
			$meta[] = $wpdb->prepare( '(%d,%s,%s)', $id, '_cairn_shape', $shape );
			if ( $groups ) {
				$rels[] = $wpdb->prepare( '(%d,%d,0)', $id, $groups[ $n % count( $groups ) ] );
			}
		}
		$clock(
			'insert_ms',
			static function () use ( $wpdb, $posts, $meta, $rels ) {
				// phpcs:disable WordPress.DB.PreparedSQL.NotPrepared -- every value above went through prepare().
				$wpdb->query( "INSERT INTO {$wpdb->posts} (ID, post_author, post_date, post_date_gmt, post_content, post_title, post_excerpt, post_status, comment_status, ping_status, post_password, post_name, to_ping, pinged, post_modified, post_modified_gmt, post_content_filtered, post_parent, guid, menu_order, post_type, post_mime_type, comment_count) VALUES " . implode( ',', $posts ) );
				$wpdb->query( "INSERT INTO {$wpdb->postmeta} (post_id, meta_key, meta_value) VALUES " . implode( ',', $meta ) );
				if ( $rels ) {
					$wpdb->query( "INSERT INTO {$wpdb->term_relationships} (object_id, term_taxonomy_id, term_order) VALUES " . implode( ',', $rels ) );
				}
				// phpcs:enable
			}
		);
		if ( '' !== $wpdb->last_error ) {
			fwrite( STDERR, 'wp.php seed-shapes: ' . $wpdb->last_error . "\n" );
			return 1;
		}
	}
	$wpdb->query( "UPDATE {$wpdb->term_taxonomy} tt SET count = (SELECT COUNT(*) FROM {$wpdb->term_relationships} tr WHERE tr.term_taxonomy_id = tt.term_taxonomy_id) WHERE tt.taxonomy = 'cairn_marker_group'" );
	wp_cache_flush();
	// Announced as any code writing markers behind WordPress' back must.
	do_action( 'cairn_maps_markers_changed' );
	$after = (int) $wpdb->get_var( "SELECT COUNT(*) FROM {$wpdb->posts} WHERE post_type = 'cairn_marker' AND post_status = 'publish' AND post_name LIKE 'route-%'" );
	$added = max( 0, $after - $before );
	echo wp_json_encode(
		array(
			'routes'                 => $after,
			'added'                  => $added,
			'vertices'               => $vertices,
			'seconds'                => round( microtime( true ) - $started, 2 ),
			'check_ms'               => round( $times['check_ms'] ),
			'derive_ms'              => round( $times['derive_ms'] ),
			'insert_ms'              => round( $times['insert_ms'] ),
			'stored_geometry_bytes'  => $bytes['cairn_geometry'],
			'derived_shape_bytes'    => $bytes['_cairn_shape'],
			'derived_vertices'       => $shape_vertices,
			'derived_vertices_each'  => $added ? round( $shape_vertices / $added ) : null,
			'data'                   => sprintf( 'routes: random-walk trails (bench/api/trails.php) of %d positions with elevation, a position every 15 m on average, starting uniformly over BENCH_DATA=%s, one of 5 groups each', $vertices, $data ),
		)
	) . "\n";
	if ( $after !== $routes ) {
		fwrite( STDERR, "wp.php seed-shapes: expected {$routes} routes, found {$after}\n" );
		return 1;
	}
	return 0;
}

/**
 * The plugin's place index (issue 22), or exit with a message when it is not merged.
 *
 * @return object
 */
function cairn_bench_place_index() {
	$index = null;
	if ( class_exists( 'Cairn\\Maps\\Plugin' ) && method_exists( 'Cairn\\Maps\\Plugin', 'instance' ) ) {
		$index = \Cairn\Maps\Plugin::instance()->get( 'place_index' );
	}
	if ( ! is_object( $index ) ) {
		fwrite( STDERR, "wp.php: the plugin has no place index (Plugin::instance()->get('place_index'), issue 22's index is not merged)\n" );
		exit( 1 );
	}
	return $index;
}

/**
 * Builds the place index, timed; prints a JSON line. Uses `rebuild_now()` when the index has it,
 * else its batches (`rebuild()`) until done.
 *
 * @param bool $force Rebuild even when the index is ready and complete.
 */
function cairn_bench_index_rebuild( bool $force ): int {
	global $wpdb;
	$index   = cairn_bench_place_index();
	$markers = (int) $wpdb->get_var( "SELECT COUNT(*) FROM {$wpdb->posts} WHERE post_type = 'cairn_marker' AND post_status = 'publish'" );
	if ( ! $force && $index->is_ready() && $index->count() === $markers ) {
		echo wp_json_encode( array( 'skipped' => true, 'places' => $index->count(), 'markers' => $markers, 'seconds' => 0 ) ) . "\n";
		return 0;
	}
	$started = microtime( true );
	$batches = 0;
	if ( method_exists( $index, 'rebuild_now' ) ) {
		$index->rebuild_now();
		$batches = null;
	} else {
		// Start over (the seed wrote behind WordPress' back), then batches until done.
		foreach ( array( 'start_rebuild', 'schedule_rebuild', 'reset' ) as $start ) {
			if ( method_exists( $index, $start ) ) {
				$index->$start();
				break;
			}
		}
		while ( ! $index->rebuild( 5000 ) ) {
			++$batches;
			if ( $batches > 100000 ) {
				fwrite( STDERR, "wp.php index-rebuild: no end after 100,000 batches\n" );
				return 1;
			}
		}
		++$batches;
	}
	$seconds = round( microtime( true ) - $started, 2 );
	$places  = $index->count();
	echo wp_json_encode(
		array(
			'skipped'    => false,
			'places'     => $places,
			'markers'    => $markers,
			'seconds'    => $seconds,
			'batches'    => $batches,
			'ready'      => $index->is_ready(),
			'peak_bytes' => memory_get_peak_usage(),
		)
	) . "\n";
	if ( $places !== $markers ) {
		fwrite( STDERR, "wp.php index-rebuild: the index holds {$places} places, {$markers} markers are published\n" );
		return 1;
	}
	return 0;
}

/**
 * The plugin's tables (issue 22) and their rows: the index's own and any cache.
 *
 * @return array<string, int>
 */
function cairn_bench_plugin_tables(): array {
	global $wpdb;
	$tables = array();
	foreach ( (array) $wpdb->get_col( $wpdb->prepare( 'SHOW TABLES LIKE %s', $wpdb->esc_like( $wpdb->prefix . 'cairn_' ) . '%' ) ) as $table ) {
		$tables[ (string) $table ] = (int) $wpdb->get_var( "SELECT COUNT(*) FROM `{$table}`" ); // phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- a table name from SHOW TABLES.
	}
	return $tables;
}

/**
 * Empties what may cache tiles or places answers: the plugin's cache tables (not the index),
 * its tile and places options and transients, and the object cache.
 *
 * @return array<string, mixed> What was emptied.
 */
function cairn_bench_tile_flush(): array {
	global $wpdb;
	$index   = array( 'cairn_places', 'cairn_place_combos', 'cairn_place_words', 'cairn_place_cells', 'cairn_tile_stamps' );
	$emptied = array();
	foreach ( array_keys( cairn_bench_plugin_tables() ) as $table ) {
		if ( in_array( substr( $table, strlen( $wpdb->prefix ) ), $index, true ) ) {
			continue;
		}
		$wpdb->query( "DELETE FROM `{$table}`" ); // phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- a table name from SHOW TABLES.
		$emptied[ $table ] = (int) $wpdb->rows_affected;
	}
	$like = array( '%cairn%tile%', '%cairn%places%cache%', '%cairn%place_cache%', '%cairn%places_summary%' );
	$rows = 0;
	foreach ( $like as $pattern ) {
		// Caches only: not the index's stamp or schema, nor the shape tiles' schema and rebuild
		// marks (deleting those made the next request rebuild the shape tiles, which renews the
		// markers version, so every URL the bench held named an old version: nothing was kept).
		$rows += (int) $wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->options} WHERE option_name LIKE %s AND option_name NOT IN ('cairn_maps_index_stamp', 'cairn_maps_index_schema', 'cairn_maps_shape_tiles_schema', 'cairn_maps_shape_tiles_rebuild')", $pattern ) );
	}
	$emptied['options'] = $rows;
	wp_cache_flush();
	do_action( 'cairn_bench_tile_flush' );
	return $emptied;
}

/**
 * Rows and bytes the plugin keeps: options (cairn), transients (cairn), each plugin table.
 *
 * @return array<string, mixed>
 */
function cairn_bench_cache_rows(): array {
	global $wpdb;
	$options = $wpdb->get_row( "SELECT COUNT(*) AS n, COALESCE(SUM(LENGTH(option_value)), 0) AS bytes FROM {$wpdb->options} WHERE option_name LIKE '%cairn%'", ARRAY_A );
	$all     = $wpdb->get_row( "SELECT COUNT(*) AS n, COALESCE(SUM(LENGTH(option_value)), 0) AS bytes FROM {$wpdb->options}", ARRAY_A );
	$tables  = cairn_bench_plugin_tables();
	$sizes   = array();
	foreach ( (array) $wpdb->get_results( $wpdb->prepare( 'SELECT TABLE_NAME AS t, DATA_LENGTH + INDEX_LENGTH AS bytes FROM information_schema.TABLES WHERE TABLE_SCHEMA = %s AND TABLE_NAME LIKE %s', DB_NAME, $wpdb->esc_like( $wpdb->prefix . 'cairn_' ) . '%' ), ARRAY_A ) as $row ) {
		$sizes[ $row['t'] ] = (int) $row['bytes'];
	}
	$tile_slots = class_exists( 'Cairn\\Maps\\Index\\Tile_Cache' ) ? \Cairn\Maps\Index\Tile_Cache::slots() : null;
	$tiles      = (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->options} WHERE option_name LIKE %s OR option_name LIKE %s", $wpdb->esc_like( '_transient_cairn_maps_tiles_' ) . '%', $wpdb->esc_like( '_transient_timeout_cairn_maps_tiles_' ) . '%' ) );
	return array(
		'tile_slots'          => $tile_slots,
		'tile_transients'     => $tiles,
		'cairn_options'       => (int) $options['n'],
		'cairn_options_bytes' => (int) $options['bytes'],
		'options'             => (int) $all['n'],
		'options_bytes'       => (int) $all['bytes'],
		'tables'              => $tables,
		'table_bytes'         => $sizes,
	);
}
