<?php
/**
 * Bench-only bulk seeding: brings the bench site to N published `cairn_marker` posts with plain
 * multi-row INSERTs into wp_posts, wp_postmeta and wp_term_relationships (no wp_insert_post), so
 * 100,000 markers take seconds. Cumulative: markers 1…N are always the same, whatever the steps.
 *
 *   php bench/api/seed.php N        prints a JSON summary on stdout
 *
 * The data (deterministic, from crc32 of the marker number):
 * - coordinates uniform over longitude −180…180 and latitude −60…70 (BENCH_DATA=world, the default:
 *   the hardest case for compression), or over a country-sized box, longitude −8…2 and latitude
 *   50…58 (BENCH_DATA=country), or (BENCH_DATA=cities, issue 22's tiles: what a real map of many
 *   places looks like) two thirds around 60 "cities" (a normal spread of 0.4°, centres between
 *   latitudes −45 and 65) and a third uniform over the world box; stored as the plugin stores them (up to 7 decimals, no trailing
 *   zeros);
 * - titles of two words from two lists of 32 ("Misty Tarn", "Old Bridge"), a quarter with a
 *   number ("Stony Col 17"), a few with "&" or "é";
 * - 5 marker groups: 10 % of markers in none, 75 % in one, 15 % in two;
 * - a one-sentence post_content, dates one minute apart.
 *
 * Posts with places (issue 24), unless BENCH_POSTS=0: as many published `post` posts as markers,
 * seeded after the markers of each step (so each kind's ids come in long runs), with the same
 * kind of titles and coordinates (from other seeds), `geo_public` 1, 5 categories (10 % none,
 * 75 % one, 15 % two) and for half of them a featured image, one of 20 image attachments with
 * thumbnail sizes (posts seeded with places are counted in the summary's `posts`).
 *
 * The caller then announces the change to the plugin (`php bench/api/wp.php bump`), as any code
 * writing markers or places behind WordPress' back must.
 *
 * Environment: CAIRN_BENCH_DB_HOST, CAIRN_BENCH_DB_PORT, CAIRN_BENCH_DB_NAME, CAIRN_BENCH_DB_USER,
 * CAIRN_BENCH_DB_PASSWORD.
 *
 * @package Cairn\Maps
 */

'cli' === PHP_SAPI || exit; // A command-line script, never a web page.

const CAIRN_BENCH_BATCH = 1000;
const CAIRN_BENCH_GROUPS = array(
	'huts'       => 'Huts',
	'peaks'      => 'Peaks',
	'springs'    => 'Springs',
	'viewpoints' => 'Viewpoints',
	'bridges'    => 'Bridges',
);
const CAIRN_BENCH_WORDS_A = array( 'Old', 'High', 'Little', 'Great', 'North', 'South', 'East', 'West', 'Upper', 'Lower', 'Black', 'White', 'Red', 'Green', 'Grey', 'Long', 'Broad', 'Stony', 'Windy', 'Hidden', 'Lone', 'Twin', 'Silver', 'Golden', 'Misty', 'Quiet', 'Rocky', 'Sunny', 'Deep', 'Far', 'Saint', 'Royal' );
const CAIRN_BENCH_WORDS_B = array( 'Cairn', 'Peak', 'Ridge', 'Tarn', 'Hut', 'Bothy', 'Bridge', 'Falls', 'Spring', 'Crag', 'Col', 'Pass', 'Loch', 'Glen', 'Moor', 'Knoll', 'Summit', 'Lookout', 'Chapel', 'Mill', 'Well', 'Ford', 'Cove', 'Point', 'Fell', 'Pike', 'Scar', 'Beck', 'Combe', 'Dale', 'Café', 'Rock & Pool' );

$target = isset( $argv[1] ) ? (int) $argv[1] : 0;
if ( $target < 1 ) {
	fwrite( STDERR, "usage: php bench/api/seed.php N\n" );
	exit( 2 );
}
mysqli_report( MYSQLI_REPORT_ERROR | MYSQLI_REPORT_STRICT );
$db = new mysqli(
	(string) getenv( 'CAIRN_BENCH_DB_HOST' ),
	(string) getenv( 'CAIRN_BENCH_DB_USER' ),
	(string) getenv( 'CAIRN_BENCH_DB_PASSWORD' ),
	(string) getenv( 'CAIRN_BENCH_DB_NAME' ),
	(int) getenv( 'CAIRN_BENCH_DB_PORT' )
);
$db->set_charset( 'utf8mb4' );
$started = microtime( true );

/**
 * A deterministic number in [0, 1) for marker $n and purpose $k.
 */
function cairn_bench_rand( int $n, string $k ): float {
	return crc32( $n . ':' . $k ) / 4294967296;
}

/**
 * A coordinate as the plugin stores it (Post_Type::format_coordinate).
 */
function cairn_bench_coordinate( float $degrees ): string {
	$text = rtrim( rtrim( number_format( $degrees, 7, '.', '' ), '0' ), '.' );
	return '-0' === $text ? '0' : $text;
}

// Groups (created once).
$tt_ids = array();
foreach ( CAIRN_BENCH_GROUPS as $slug => $name ) {
	$row = $db->query( "SELECT tt.term_taxonomy_id FROM wp_terms t JOIN wp_term_taxonomy tt ON tt.term_id = t.term_id AND tt.taxonomy = 'cairn_marker_group' WHERE t.slug = '" . $db->real_escape_string( $slug ) . "'" )->fetch_row();
	if ( null === $row ) {
		$db->query( "INSERT INTO wp_terms (name, slug, term_group) VALUES ('" . $db->real_escape_string( $name ) . "', '" . $db->real_escape_string( $slug ) . "', 0)" );
		$term_id = $db->insert_id;
		$db->query( "INSERT INTO wp_term_taxonomy (term_id, taxonomy, description, parent, count) VALUES ({$term_id}, 'cairn_marker_group', '', 0, 0)" );
		$tt_ids[ $slug ] = (int) $db->insert_id;
	} else {
		$tt_ids[ $slug ] = (int) $row[0];
	}
}
$slugs = array_keys( $tt_ids );

/**
 * Term taxonomy ids of terms of a taxonomy, created once.
 *
 * @param mysqli                $db       Connection.
 * @param string                $taxonomy Taxonomy.
 * @param array<string, string> $terms    Name by slug.
 * @return array<string, int>
 */
function cairn_bench_terms( mysqli $db, string $taxonomy, array $terms ): array {
	$ids = array();
	foreach ( $terms as $slug => $name ) {
		$row = $db->query( "SELECT tt.term_taxonomy_id FROM wp_terms t JOIN wp_term_taxonomy tt ON tt.term_id = t.term_id AND tt.taxonomy = '" . $db->real_escape_string( $taxonomy ) . "' WHERE t.slug = '" . $db->real_escape_string( $slug ) . "'" )->fetch_row();
		if ( null === $row ) {
			$db->query( "INSERT INTO wp_terms (name, slug, term_group) VALUES ('" . $db->real_escape_string( $name ) . "', '" . $db->real_escape_string( $slug ) . "', 0)" );
			$term_id = $db->insert_id;
			$db->query( "INSERT INTO wp_term_taxonomy (term_id, taxonomy, description, parent, count) VALUES ({$term_id}, '" . $db->real_escape_string( $taxonomy ) . "', '', 0, 0)" );
			$ids[ $slug ] = (int) $db->insert_id;
		} else {
			$ids[ $slug ] = (int) $row[0];
		}
	}
	return $ids;
}

$before = (int) $db->query( "SELECT COUNT(*) FROM wp_posts WHERE post_type = 'cairn_marker'" )->fetch_row()[0];
$next_id = (int) $db->query( 'SELECT COALESCE(MAX(ID), 0) + 1 FROM wp_posts' )->fetch_row()[0];
$with_posts = '0' !== getenv( 'BENCH_POSTS' );

$db->query( 'SET unique_checks = 0' );
$db->query( 'SET foreign_key_checks = 0' );
$db->autocommit( false );

$data = getenv( 'BENCH_DATA' ) ?: 'world';
if ( ! in_array( $data, array( 'world', 'country', 'cities' ), true ) ) {
	fwrite( STDERR, "seed.php: BENCH_DATA must be world, country or cities\n" );
	exit( 2 );
}
// [ west, width, south, height ] in degrees.
$box  = 'country' === $data ? array( -8, 10, 50, 8 ) : array( -180, 360, -60, 130 );
// BENCH_DATA=cities: the 60 centres, [ lng, lat ].
$cities = array();
for ( $c = 0; $c < 60; $c++ ) {
	$cities[] = array( round( -180 + 360 * cairn_bench_rand( $c, 'city-lng' ), 4 ), round( -45 + 110 * cairn_bench_rand( $c, 'city-lat' ), 4 ) );
}

/**
 * Marker $n's position [ lng, lat ] in the chosen data (see the header); $k tells markers from posts.
 *
 * @param int                 $n      Number of the place.
 * @param string              $k      '' for markers, 'p' for posts.
 * @param string              $data   BENCH_DATA.
 * @param array<int, float>   $box    [ west, width, south, height ].
 * @param array<int, float[]> $cities Centres.
 * @return float[]
 */
function cairn_bench_position( int $n, string $k, string $data, array $box, array $cities ): array {
	if ( 'cities' === $data && cairn_bench_rand( $n, $k . 'city' ) < 2 / 3 ) {
		$centre = $cities[ (int) ( cairn_bench_rand( $n, $k . 'which' ) * count( $cities ) ) ];
		// Box–Muller: two normal offsets of 0.4° from two uniform numbers.
		$r     = sqrt( -2 * log( max( 1e-12, cairn_bench_rand( $n, $k . 'r' ) ) ) ) * 0.4;
		$theta = 2 * M_PI * cairn_bench_rand( $n, $k . 't' );
		$lng   = $centre[0] + $r * cos( $theta );
		$lng   = $lng > 180 ? $lng - 360 : ( $lng < -180 ? $lng + 360 : $lng );
		return array( $lng, max( -85, min( 85, $centre[1] + $r * sin( $theta ) ) ) );
	}
	return array( $box[0] + $box[1] * cairn_bench_rand( $n, $k . 'lng' ), $box[2] + $box[3] * cairn_bench_rand( $n, $k . 'lat' ) );
}
$base = strtotime( '2024-01-01 00:00:00 UTC' );
for ( $from = $before + 1; $from <= $target; $from += CAIRN_BENCH_BATCH ) {
	$to    = min( $target, $from + CAIRN_BENCH_BATCH - 1 );
	$posts = array();
	$meta  = array();
	$rels  = array();
	for ( $n = $from; $n <= $to; $n++ ) {
		$id    = $next_id++;
		$title = CAIRN_BENCH_WORDS_A[ (int) ( cairn_bench_rand( $n, 'a' ) * 32 ) ] . ' ' . CAIRN_BENCH_WORDS_B[ (int) ( cairn_bench_rand( $n, 'b' ) * 32 ) ];
		if ( cairn_bench_rand( $n, 'num' ) < 0.25 ) {
			$title .= ' ' . ( 2 + (int) ( cairn_bench_rand( $n, 'k' ) * 98 ) );
		}
		$date    = gmdate( 'Y-m-d H:i:s', $base + 60 * $n );
		$title_s = $db->real_escape_string( $title );
		$content = $db->real_escape_string( "<!-- wp:paragraph -->\n<p>{$title}: a place worth the walk.</p>\n<!-- /wp:paragraph -->" );
		$posts[] = "({$id},1,'{$date}','{$date}','{$content}','{$title_s}','','publish','closed','closed','','marker-{$n}','','','{$date}','{$date}','',0,'',0,'cairn_marker','',0)";
		$at      = cairn_bench_position( $n, '', $data, $box, $cities );
		$lat     = cairn_bench_coordinate( $at[1] );
		$lng     = cairn_bench_coordinate( $at[0] );
		$meta[]  = "({$id},'cairn_lat','{$lat}')";
		$meta[]  = "({$id},'cairn_lng','{$lng}')";
		$g       = cairn_bench_rand( $n, 'g' );
		if ( $g >= 0.10 ) {
			$first  = (int) ( cairn_bench_rand( $n, 'g1' ) * 5 );
			$rels[] = "({$id}," . $tt_ids[ $slugs[ $first ] ] . ',0)';
			if ( $g >= 0.85 ) {
				$rels[] = "({$id}," . $tt_ids[ $slugs[ ( $first + 1 + (int) ( cairn_bench_rand( $n, 'g2' ) * 4 ) ) % 5 ] ] . ',0)';
			}
		}
	}
	$db->query( 'INSERT INTO wp_posts (ID, post_author, post_date, post_date_gmt, post_content, post_title, post_excerpt, post_status, comment_status, ping_status, post_password, post_name, to_ping, pinged, post_modified, post_modified_gmt, post_content_filtered, post_parent, guid, menu_order, post_type, post_mime_type, comment_count) VALUES ' . implode( ',', $posts ) );
	$db->query( 'INSERT INTO wp_postmeta (post_id, meta_key, meta_value) VALUES ' . implode( ',', $meta ) );
	if ( array() !== $rels ) {
		$db->query( 'INSERT INTO wp_term_relationships (object_id, term_taxonomy_id, term_order) VALUES ' . implode( ',', $rels ) );
	}
	$db->commit();
}
// Posts with places (issue 24): as many as markers, after them.
$posts_after = 0;
if ( $with_posts ) {
	$categories  = cairn_bench_terms(
		$db,
		'category',
		array(
			'travel'   => 'Travel',
			'food'     => 'Food',
			'walks'    => 'Walks',
			'history'  => 'History',
			'wildlife' => 'Wildlife',
		)
	);
	$category_tt = array_values( $categories );
	// 20 image attachments with sizes, created once.
	$images = array_map( 'intval', array_column( $db->query( "SELECT ID FROM wp_posts WHERE post_type = 'attachment' AND post_name LIKE 'bench-image-%' ORDER BY ID" )->fetch_all(), 0 ) );
	for ( $i = count( $images ) + 1; $i <= 20; $i++ ) {
		$id   = $next_id++;
		$file = "2024/01/bench-image-{$i}.jpg";
		$date = gmdate( 'Y-m-d H:i:s', $base );
		$db->query( "INSERT INTO wp_posts (ID, post_author, post_date, post_date_gmt, post_content, post_title, post_excerpt, post_status, comment_status, ping_status, post_password, post_name, to_ping, pinged, post_modified, post_modified_gmt, post_content_filtered, post_parent, guid, menu_order, post_type, post_mime_type, comment_count) VALUES ({$id},1,'{$date}','{$date}','','Bench image {$i}','','inherit','closed','closed','','bench-image-{$i}','','','{$date}','{$date}','',0,'',0,'attachment','image/jpeg',0)" );
		$sizes = array();
		foreach ( array( 'thumbnail' => 150, 'medium' => 300, 'medium_large' => 768 ) as $size => $width ) {
			$sizes[ $size ] = array(
				'file'      => "bench-image-{$i}-{$width}x" . (int) ( $width * 0.75 ) . '.jpg',
				'width'     => $width,
				'height'    => (int) ( $width * 0.75 ),
				'mime-type' => 'image/jpeg',
			);
		}
		$meta = serialize( // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.serialize_serialize -- stored as WordPress stores attachment metadata.
			array(
				'width'  => 1600,
				'height' => 1200,
				'file'   => $file,
				'sizes'  => $sizes,
			)
		);
		$db->query( "INSERT INTO wp_postmeta (post_id, meta_key, meta_value) VALUES ({$id},'_wp_attached_file','" . $db->real_escape_string( $file ) . "'),({$id},'_wp_attachment_metadata','" . $db->real_escape_string( $meta ) . "')" );
		$images[] = $id;
	}
	$db->commit();
	$posts_before = (int) $db->query( "SELECT COUNT(*) FROM wp_posts WHERE post_type = 'post' AND post_name LIKE 'place-%'" )->fetch_row()[0];
	for ( $from = $posts_before + 1; $from <= $target; $from += CAIRN_BENCH_BATCH ) {
		$to    = min( $target, $from + CAIRN_BENCH_BATCH - 1 );
		$posts = array();
		$meta  = array();
		$rels  = array();
		for ( $n = $from; $n <= $to; $n++ ) {
			$id      = $next_id++;
			$title   = CAIRN_BENCH_WORDS_A[ (int) ( cairn_bench_rand( $n, 'pa' ) * 32 ) ] . ' ' . CAIRN_BENCH_WORDS_B[ (int) ( cairn_bench_rand( $n, 'pb' ) * 32 ) ];
			$date    = gmdate( 'Y-m-d H:i:s', $base + 60 * $n );
			$title_s = $db->real_escape_string( $title );
			$content = $db->real_escape_string( "<!-- wp:paragraph -->\n<p>{$title}: a story from the road, with a place on the map.</p>\n<!-- /wp:paragraph -->" );
			$posts[] = "({$id},1,'{$date}','{$date}','{$content}','{$title_s}','','publish','open','open','','place-{$n}','','','{$date}','{$date}','',0,'',0,'post','',0)";
			$at      = cairn_bench_position( $n, 'p', $data, $box, $cities );
			$lat     = cairn_bench_coordinate( $at[1] );
			$lng     = cairn_bench_coordinate( $at[0] );
			$meta[]  = "({$id},'geo_latitude','{$lat}')";
			$meta[]  = "({$id},'geo_longitude','{$lng}')";
			$meta[]  = "({$id},'geo_public','1')";
			if ( cairn_bench_rand( $n, 'img' ) < 0.5 ) {
				$meta[] = "({$id},'_thumbnail_id','" . $images[ (int) ( cairn_bench_rand( $n, 'imgn' ) * 20 ) ] . "')";
			}
			$g = cairn_bench_rand( $n, 'pg' );
			if ( $g >= 0.10 ) {
				$first  = (int) ( cairn_bench_rand( $n, 'pg1' ) * 5 );
				$rels[] = "({$id}," . $category_tt[ $first ] . ',0)';
				if ( $g >= 0.85 ) {
					$rels[] = "({$id}," . $category_tt[ ( $first + 1 + (int) ( cairn_bench_rand( $n, 'pg2' ) * 4 ) ) % 5 ] . ',0)';
				}
			}
		}
		$db->query( 'INSERT INTO wp_posts (ID, post_author, post_date, post_date_gmt, post_content, post_title, post_excerpt, post_status, comment_status, ping_status, post_password, post_name, to_ping, pinged, post_modified, post_modified_gmt, post_content_filtered, post_parent, guid, menu_order, post_type, post_mime_type, comment_count) VALUES ' . implode( ',', $posts ) );
		$db->query( 'INSERT INTO wp_postmeta (post_id, meta_key, meta_value) VALUES ' . implode( ',', $meta ) );
		if ( array() !== $rels ) {
			$db->query( 'INSERT INTO wp_term_relationships (object_id, term_taxonomy_id, term_order) VALUES ' . implode( ',', $rels ) );
		}
		$db->commit();
	}
	$db->query( "UPDATE wp_term_taxonomy tt SET count = (SELECT COUNT(*) FROM wp_term_relationships tr WHERE tr.term_taxonomy_id = tt.term_taxonomy_id) WHERE tt.taxonomy = 'category'" );
	$posts_after = (int) $db->query( "SELECT COUNT(*) FROM wp_posts WHERE post_type = 'post' AND post_status = 'publish' AND post_name LIKE 'place-%'" )->fetch_row()[0];
}
$db->query( "UPDATE wp_term_taxonomy tt SET count = (SELECT COUNT(*) FROM wp_term_relationships tr WHERE tr.term_taxonomy_id = tt.term_taxonomy_id) WHERE tt.taxonomy = 'cairn_marker_group'" );
$db->commit();
$db->autocommit( true );
// Fresh index statistics, as a site that grew to this size would have.
$db->query( 'ANALYZE TABLE wp_posts, wp_postmeta, wp_term_relationships, wp_term_taxonomy, wp_terms' )->fetch_all();

$after = (int) $db->query( "SELECT COUNT(*) FROM wp_posts WHERE post_type = 'cairn_marker' AND post_status = 'publish'" )->fetch_row()[0];
echo json_encode(
	array(
		'target'   => $target,
		'before'   => $before,
		'inserted' => $after - $before,
		'markers'  => $after,
		'seconds'  => round( microtime( true ) - $started, 2 ),
		'groups'   => array_keys( CAIRN_BENCH_GROUPS ),
		'posts'    => $posts_after,
		'categories' => $with_posts ? array( 'travel', 'food', 'walks', 'history', 'wildlife' ) : array(),
		'cities'   => 'cities' === $data ? $cities : array(),
		'data'     => sprintf( 'BENCH_DATA=%s: %suniform lng %g..%g, lat %g..%g (7 decimals stored); titles "Adj Noun" from 32x32 words, 25%% with a number; 5 groups (10%% none, 75%% one, 15%% two)%s', $data, 'cities' === $data ? '2/3 around 60 cities (normal, sigma 0.4 deg), 1/3 ' : '', $box[0], $box[0] + $box[1], $box[2], $box[2] + $box[3], $with_posts ? '; as many posts with public places (same distributions, 5 categories, half with one of 20 featured images)' : '' ),
	)
) . "\n";
if ( $with_posts && $posts_after !== $target ) {
	fwrite( STDERR, "seed.php: expected {$target} published posts with places, found {$posts_after}\n" );
	exit( 1 );
}
if ( $after !== $target ) {
	fwrite( STDERR, "seed.php: expected {$target} published markers, found {$after}\n" );
	exit( 1 );
}
