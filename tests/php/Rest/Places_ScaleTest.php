<?php
/**
 * The places routes at scale (slow: bash bin/test-php.sh --group slow --filter Places_Scale).
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Index\Index_Schema;
use Cairn\Maps\Index\Morton;
use Cairn\Maps\Index\Place_Index;
use Cairn\Maps\Index\Place_Search;
use Cairn\Maps\Index\Place_Words;
use Cairn\Maps\Index\Place_Store;
use Cairn\Maps\Rest\Answer_Slots;
use Cairn\Maps\Tests\TestCase;

// phpcs:disable WordPress.WP.AlternativeFunctions.rand_mt_rand, WordPress.WP.AlternativeFunctions.rand_seeding_mt_srand -- seeded: the same data on every run.

/**
 * Seeds the index tables with CAIRN_PLACES_SCALE places (default 100,000; bulk SQL, as the API
 * benchmark seeds) and times what the panel asks: search → list (the summary and the first page of
 * a search) and the list after a move (a box), checking every answer against a direct count and
 * PHP's peak memory per request. Prints p50/p95 to STDERR.
 *
 * @group slow
 */
class Places_ScaleTest extends TestCase {

	/**
	 * Group slugs and names of the seed.
	 */
	private const GROUPS = array(
		'cafes'     => 'Cafés',
		'huts'      => 'Mountain huts',
		'museums'   => 'Museums of Art',
		'parks'     => 'Parks',
		'beaches'   => 'Beaches',
		'hotels'    => 'Hotels',
		'shops'     => 'Shops',
		'stations'  => 'Stations',
		'churches'  => 'Churches',
		'bakeries'  => 'Bakeries',
		'libraries' => 'Libraries',
		'markets'   => 'Markets',
	);

	/**
	 * Words titles are made of.
	 */
	private const WORDS = array( 'Old', 'New', 'Grand', 'Little', 'North', 'South', 'Café', 'Mill', 'Bridge', 'Tower', 'Garden', 'Harbour', 'Église', 'Market', 'Station', 'Castle', 'River', 'Forest', 'Lake', 'Hill', 'Square', 'Lighthouse', 'Abbey', 'Fountain', 'Gallery', 'Pier', 'Museum', 'Theatre', 'Chapel', 'Farm', 'Inn', 'Bay' );

	/**
	 * Rows read by each timed request.
	 *
	 * @var int[]
	 */
	private array $reads = array();

	/**
	 * How many places were seeded.
	 *
	 * @var int
	 */
	private int $size = 0;

	/**
	 * Seeds the tables.
	 */
	protected function set_up(): void {
		parent::set_up();
		if ( getenv( 'CAIRN_PLACES_DEBUG' ) && ! defined( 'SAVEQUERIES' ) ) {
			define( 'SAVEQUERIES', true ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedConstantFound -- core's constant, to time queries.
		}
		$this->size = (int) ( getenv( 'CAIRN_PLACES_SCALE' ) ? getenv( 'CAIRN_PLACES_SCALE' ) : 100000 );
		foreach ( self::GROUPS as $slug => $name ) {
			$this->create_group( $slug, $name );
		}
		$this->seed( $this->size );
	}

	/**
	 * Bulk-inserts places, their words, combinations and cells.
	 *
	 * @param int $count Places.
	 */
	private function seed( int $count ): void {
		global $wpdb;
		mt_srand( 22 );
		$slugs   = array_keys( self::GROUPS );
		$combos  = array();
		$centres = array();
		for ( $i = 0; $i < 40; $i++ ) {
			$centres[] = array( mt_rand( -60000, 70000 ) / 1000, mt_rand( -180000, 180000 ) / 1000 );
		}
		$places = array();
		$words  = array();
		for ( $id = 1; $id <= $count; $id++ ) {
			if ( 0 === $id % 2 ) {
				list( $clat, $clng ) = $centres[ $id % 40 ];
				$lat                 = max( -85, min( 85, $clat + ( mt_rand() / mt_getrandmax() - 0.5 ) * 6 ) );
				$lng                 = max( -180, min( 180, $clng + ( mt_rand() / mt_getrandmax() - 0.5 ) * 8 ) );
			} else {
				$lat = mt_rand( -60000000, 75000000 ) / 1000000;
				$lng = mt_rand( -180000000, 180000000 ) / 1000000;
			}
			$groups = array();
			for ( $g = mt_rand( 0, 2 ); $g > 0; $g-- ) {
				$groups[] = $slugs[ mt_rand( 0, count( $slugs ) - 1 ) ];
			}
			$groups = array_values( array_unique( $groups ) );
			sort( $groups );
			$combo = 0;
			if ( array() !== $groups ) {
				$key = implode( ',', $groups );
				if ( ! isset( $combos[ $key ] ) ) {
					$combos[ $key ] = count( $combos ) + 1;
				}
				$combo = $combos[ $key ];
			}
			$title    = self::WORDS[ mt_rand( 0, 31 ) ] . ' ' . self::WORDS[ mt_rand( 0, 31 ) ] . ' ' . mt_rand( 1, 99999 );
			$places[] = $wpdb->prepare( '(%d,%d,%s,%s,%d,%s,%s)', $id, Morton::code( $lat, $lng ), (string) $lat, (string) $lng, $combo, $title, Place_Store::sort_key( $title ) );
			foreach ( Place_Words::words( $title ) as $word ) {
				$words[] = $wpdb->prepare( '(%s,%d,%d,%s,%s,%s)', $word, $id, $combo, (string) $lat, (string) $lng, Place_Store::sort_key( $title ) );
			}
			if ( count( $places ) >= 2000 || $id === $count ) {
				$this->insert( 'cairn_places', '(post_id, code, lat, lng, combo, title, sort_key)', $places );
				$this->insert( 'cairn_place_words', '(word, post_id, combo, lat, lng, sort_key)', $words );
				$places = array();
				$words  = array();
			}
		}
		$rows = array();
		foreach ( $combos as $key => $id ) {
			$rows[] = $wpdb->prepare( '(%d,%s,%s)', $id, $key, md5( $key ) );
		}
		$this->insert( 'cairn_place_combos', '(id, slugs, hash)', $rows );
		$places = Index_Schema::table( 'cairn_places' );
		$cells  = Index_Schema::table( 'cairn_place_cells' );
		foreach ( Place_Index::CELL_LEVELS as $level ) {
			$shift = 2 * ( Morton::LEVEL - $level );
			for ( $try = 0; $try < 3; $try++ ) {
				// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- a test's seed.
				if ( false !== $wpdb->query( "INSERT INTO {$cells} (level, cell, combo, n, sum_lat, sum_lng) SELECT {$level}, code >> {$shift}, combo, COUNT(*), SUM(lat), SUM(lng) FROM {$places} GROUP BY code >> {$shift}, combo" ) ) {
					break; // (A busy machine's /tmp cleaner has been seen to remove MariaDB's temporary files.)
				}
			}
		}
		$wpdb->query( "ANALYZE TABLE {$places}" ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- a test's seed.
	}

	/**
	 * One multi-row INSERT.
	 *
	 * @param string   $table   Table without prefix.
	 * @param string   $columns Column list.
	 * @param string[] $rows    Prepared rows.
	 */
	private function insert( string $table, string $columns, array $rows ): void {
		global $wpdb;
		if ( array() !== $rows ) {
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- prepared rows, a column list.
			$wpdb->query( 'INSERT INTO ' . Index_Schema::table( $table ) . " {$columns} VALUES " . implode( ',', $rows ) );
		}
	}

	/**
	 * Times one request (the answer cache emptied first), returns [ms, peak MB, data].
	 *
	 * @param string               $route Route.
	 * @param array<string, mixed> $query Query.
	 * @return array{0: float, 1: float, 2: array<string, mixed>}
	 */
	private function timed( string $route, array $query ): array {
		wp_cache_flush_group( Answer_Slots::GROUP );
		$GLOBALS['wpdb']->queries = array();
		$reads                    = self::rows_read();
		memory_reset_peak_usage();
		$base          = memory_get_usage();
		$start         = hrtime( true );
		$response      = $this->rest( 'GET', '/cairn/v1' . $route, $query );
		$ms            = ( hrtime( true ) - $start ) / 1e6;
		$peak          = ( memory_get_peak_usage() - $base ) / 1048576;
		$this->reads[] = self::rows_read() - $reads;
		if ( getenv( 'CAIRN_PLACES_DEBUG' ) ) {
			fwrite( STDERR, sprintf( "READS %7d %6.1f ms %s %s\n", end( $this->reads ), $ms, $route, (string) wp_json_encode( $query ) ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fwrite
		}
		$this->assertSame( 200, $response->get_status(), (string) wp_json_encode( $response->get_data() ) );
		if ( getenv( 'CAIRN_PLACES_DEBUG' ) ) {
			global $wpdb;
			foreach ( (array) $wpdb->queries as $logged ) {
				if ( $logged[1] > 0.01 ) {
					fwrite( STDERR, sprintf( "%6.1f ms %s\n", $logged[1] * 1000, substr( preg_replace( '/\s+/', ' ', $logged[0] ), 0, 400 ) ) ); // phpcs:ignore
					if ( 0 === strpos( $logged[0], 'SELECT' ) ) {
						fwrite( STDERR, '   ' . wp_json_encode( $wpdb->get_results( 'EXPLAIN ' . $logged[0], ARRAY_A ) ) . "\n" ); // phpcs:ignore
					}
				}
			}
			$wpdb->queries = array();
		}
		return array( $ms, $peak, (array) json_decode( (string) wp_json_encode( $response->get_data() ), true ) );
	}

	/**
	 * Index and table rows the database has read in this session (a cost that load does not blur).
	 */
	private static function rows_read(): int {
		global $wpdb;
		$rows = $wpdb->get_results( "SHOW SESSION STATUS LIKE 'Handler_read%'", ARRAY_N ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery -- a benchmark's counter.
		return (int) array_sum( array_map( 'intval', array_column( (array) $rows, 1 ) ) );
	}

	/**
	 * Every seeded place's searchable words (id => its title's words and its groups' names'
	 * words), read once.
	 *
	 * @return array<int, string[]>
	 */
	private function titles(): array {
		global $wpdb;
		$places = Index_Schema::table( 'cairn_places' );
		$combos = Index_Schema::table( 'cairn_place_combos' );
		$named  = array( 0 => array() );
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- a test's direct read.
		foreach ( (array) $wpdb->get_results( "SELECT id, slugs FROM {$combos}", ARRAY_N ) as $row ) {
			$words = array();
			foreach ( explode( ',', (string) $row[1] ) as $slug ) {
				$words = array_merge( $words, Place_Words::words( self::GROUPS[ $slug ] ?? '' ) );
			}
			$named[ (int) $row[0] ] = $words;
		}
		$words = array();
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- a test's direct read.
		foreach ( (array) $wpdb->get_results( "SELECT post_id, title, combo FROM {$places}", ARRAY_N ) as $row ) {
			$words[ (int) $row[0] ] = array_merge( Place_Words::words( (string) $row[1] ), $named[ (int) $row[2] ] ?? array() );
		}
		return $words;
	}

	/**
	 * How many places a search finds, counted directly: every query word starts one of the place's
	 * words.
	 *
	 * @param array<int, string[]> $titles Words by place.
	 * @param string               $q      The search.
	 */
	private static function direct_matches( array $titles, string $q ): int {
		$query = Place_Words::query_words( $q );
		$found = 0;
		foreach ( $titles as $words ) {
			foreach ( $query as $word ) {
				$hit = false;
				foreach ( $words as $place_word ) {
					if ( 0 === strncmp( $place_word, $word, strlen( $word ) ) ) {
						$hit = true;
						break;
					}
				}
				if ( ! $hit ) {
					continue 2;
				}
			}
			++$found;
		}
		return $found;
	}

	/**
	 * The 50th and 95th percentiles.
	 *
	 * @param float[] $times Times.
	 * @return array{0: float, 1: float}
	 */
	private static function percentiles( array $times ): array {
		sort( $times );
		$n = count( $times );
		return array( $times[ (int) floor( 0.5 * ( $n - 1 ) ) ], $times[ (int) ceil( 0.95 * ( $n - 1 ) ) ] );
	}

	/**
	 * Search → list and list after a move, timed, checked against direct counts.
	 */
	public function test_search_and_list_at_scale(): void {
		global $wpdb;
		$places  = Index_Schema::table( 'cairn_places' );
		$search  = array();
		$move    = array();
		$peak    = 0.0;
		$queries = array( 'cafe', 'gran', 'light', 'old mill', 'egl', 'museum', 'tower bay', 'l', 'hil', 'abbey', 'f', 'bridge river', 'mark', 'pier', 'lake', 'south', 'inn', 'chap', 'new', 'harb' );
		$titles  = $this->titles();
		$reads   = array();
		foreach ( $queries as $i => $q ) {
			list( $t1, $m1, $summary ) = $this->timed( '/places/summary', array( 'q' => $q ) );
			list( $t2, $m2, $list )    = $this->timed( '/places', array( 'q' => $q ) );
			$search[]                  = $t1 + $t2;
			$reads[]                   = max( array_slice( $this->reads, -2 ) );
			$peak                      = max( $peak, $m1, $m2 );
			$this->assertSame( $summary['matches'], $list['total'], "q={$q}" );
			$this->assertLessThanOrEqual( 50, count( $list['items'] ) );
			// The count is exact up to search.maxCount, then stops there and says so.
			$direct = self::direct_matches( $titles, $q );
			$this->assertSame( $direct > Place_Search::cap(), $summary['capped'], "q={$q}: capped" );
			$this->assertSame( min( $direct, Place_Search::cap() ), $summary['matches'], "q={$q}: {$direct} places match" );
			$this->assertSame( $summary['capped'], $list['capped'], "q={$q}" );
		}
		// Printed, not asserted: what a broad search reads is bounded by the cap (the count stops
		// there), the bench at 1M compares it with smaller sites.
		list( $s50, $s95 ) = self::percentiles( $search );
		fwrite( STDERR, sprintf( "\n[places at %d] search→list p50 %.1f ms p95 %.1f ms; rows read by a search request max %d\n", $this->size, $s50, $s95, (int) max( $reads ) ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fwrite
		mt_srand( 7 );
		for ( $i = 0; $i < 40; $i++ ) {
			$span  = array( 60, 20, 5, 1, 0.2 )[ $i % 5 ];
			$west  = mt_rand( -180000, 180000 - (int) ( $span * 1000 ) ) / 1000;
			$south = mt_rand( -60000, (int) ( 75000 - $span * 500 ) ) / 1000;
			$bbox  = array( $west, $south, $west + $span, min( 85, $south + $span / 2 ) );
			$query = array( 'bbox' => implode( ',', $bbox ) );
			if ( 1 === $i % 4 ) {
				$query['hidden'] = 'cafes,huts';
			}
			if ( 2 === $i % 4 ) {
				// Nearest first: from the box's centre, as "sort by distance" asks.
				$query['near'] = sprintf( '%.4F,%.4F', ( $bbox[0] + $bbox[2] ) / 2, ( $bbox[1] + $bbox[3] ) / 2 );
			}
			if ( 3 === $i % 8 ) {
				unset( $query['bbox'] );
				$query['near'] = '2.35,48.86';
			}
			list( $t, $m, $list ) = $this->timed( '/places', $query );
			$move[]               = $t;
			$peak                 = max( $peak, $m );
			if ( ! isset( $query['hidden'] ) && isset( $query['bbox'] ) ) {
				// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- a test's direct count.
				$direct = (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$places} WHERE lat BETWEEN %f AND %f AND lng BETWEEN %f AND %f", $bbox[1], $bbox[3], $bbox[0], $bbox[2] ) );
				$this->assertSame( $direct, $list['total'], 'bbox ' . $query['bbox'] );
			}
		}
		list( $s50, $s95 ) = self::percentiles( $search );
		list( $m50, $m95 ) = self::percentiles( $move );
		list( $r50, $r95 ) = self::percentiles( $this->reads );
		fwrite( STDERR, sprintf( "\n[places at %d] search→list p50 %.1f ms p95 %.1f ms; list after a move p50 %.1f ms p95 %.1f ms; rows read per request p50 %d p95 %d max %d; peak %.1f MB over the request; load %s\n", $this->size, $s50, $s95, $m50, $m95, $r50, $r95, (int) max( array_merge( array( 0 ), $this->reads ) ), $peak, implode( ' ', array_map( 'strval', (array) sys_getloadavg() ) ) ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fwrite
		$this->assertLessThan( 32, $peak, 'PHP peak stays under 32 MB' );
	}
}
