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
		fwrite( STDERR, "usage: php bench/api/wp.php install|activate|bump|maps-page|profile|info|feed-cache\n" );
		exit( 2 );
}
