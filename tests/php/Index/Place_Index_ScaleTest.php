<?php
/**
 * The place index with many markers: memory of a rebuild's batch, time of one change.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Index\Index_Schema;
use Cairn\Maps\Index\Place_Filter;
use Cairn\Maps\Index\Morton;
use Cairn\Maps\Index\Place_Index;
use Cairn\Maps\Index\Place_Search;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Plugin;
use Cairn\Maps\Tests\Feed\Geojson_FeedTest;
use Cairn\Maps\Tests\TestCase;

// phpcs:disable WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- a test reads the plugin's own tables.
// phpcs:disable WordPress.WP.AlternativeFunctions.file_system_read_fwrite -- timings for the developer, on STDERR.

/**
 * A rebuild of N markers in batches of 5,000, each within 32 MB, its cells equal to a recount in
 * SQL, and then one marker moved through WordPress in well under a second.
 *
 * @since 0.5.0
 */
final class Place_Index_ScaleTest extends TestCase {

	/**
	 * 20,000 markers.
	 */
	public function test_twenty_thousand_markers(): void {
		$this->assert_scales( 20000 );
	}

	/**
	 * A million markers, or CAIRN_INDEX_SCALE (slow: bash bin/test-php.sh --group slow --filter Place_Index_Scale).
	 *
	 * @group slow
	 */
	public function test_a_million_markers(): void {
		$this->assert_scales( (int) ( getenv( 'CAIRN_INDEX_SCALE' ) ? getenv( 'CAIRN_INDEX_SCALE' ) : 1000000 ) );
	}

	/**
	 * Builds N markers (a third in one group, a third in two), rebuilds, checks, moves one.
	 *
	 * @param int $count Markers.
	 */
	private function assert_scales( int $count ): void {
		global $wpdb;
		$index = Plugin::instance()->get( 'place_index' );
		$this->assertInstanceOf( Place_Index::class, $index );
		Geojson_FeedTest::bulk_markers( $count );
		$tt = array();
		foreach ( array( 'red', 'blue' ) as $slug ) {
			$tt[ $slug ] = (int) get_term( $this->create_group( $slug ), Post_Type::TAXONOMY )->term_taxonomy_id;
		}
		$wpdb->query( $wpdb->prepare( "INSERT INTO {$wpdb->term_relationships} (object_id, term_taxonomy_id) SELECT ID, %d FROM {$wpdb->posts} WHERE post_type = %s AND MOD(ID, 3) > 0", $tt['red'], Post_Type::POST_TYPE ) );
		$wpdb->query( $wpdb->prepare( "INSERT INTO {$wpdb->term_relationships} (object_id, term_taxonomy_id) SELECT ID, %d FROM {$wpdb->posts} WHERE post_type = %s AND MOD(ID, 3) = 2", $tt['blue'], Post_Type::POST_TYPE ) );
		// A seventh with two words that one prefix starts ("m": "misty", "moor"; "marker" is gone).
		$wpdb->query( $wpdb->prepare( "UPDATE {$wpdb->posts} SET post_title = CONCAT('Misty Moor ', ID) WHERE post_type = %s AND MOD(ID, 7) = 0", Post_Type::POST_TYPE ) );

		$this->assertFalse( $index->is_ready(), 'markers changed behind WordPress\' back: a rebuild is pending' );
		$peak  = 0;
		$steps = 0;
		do {
			$base = memory_get_usage();
			memory_reset_peak_usage();
			$done = $index->rebuild( 5000 );
			$peak = max( $peak, memory_get_peak_usage() - $base );
			++$steps;
		} while ( ! $done );
		$this->assertTrue( $index->is_ready() );
		$this->assertLessThan( 32 * MB_IN_BYTES, $peak, 'a rebuild step stays within 32 MB' );
		$this->assertSame( $count, $index->count() );
		foreach ( $tt as $slug => $tt_id ) {
			$this->assertSame( (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->term_relationships} WHERE term_taxonomy_id = %d", $tt_id ) ), $index->count( new Place_Filter( array( $slug ) ) ), $slug );
		}
		$this->assertCount( 2, $index->combos() );

		// The cells equal a recount in SQL, at the coarsest and the finest level.
		$places = Index_Schema::table( 'cairn_places' );
		$cells  = Index_Schema::table( 'cairn_place_cells' );
		foreach ( array( Place_Index::CELL_LEVELS[0], Place_Index::CELL_LEVELS[ count( Place_Index::CELL_LEVELS ) - 1 ] ) as $level ) {
			$div      = 1 << ( 2 * ( Morton::LEVEL - $level ) );
			$recount  = $wpdb->get_var( $wpdb->prepare( "SELECT CONCAT(COUNT(*), ':', SUM(n)) FROM (SELECT FLOOR(code / %d) AS cell, combo, COUNT(*) AS n FROM $places GROUP BY FLOOR(code / %d), combo) AS r", $div, $div ) );
			$recorded = $wpdb->get_var( $wpdb->prepare( "SELECT CONCAT(COUNT(*), ':', SUM(n)) FROM $cells WHERE level = %d", $level ) );
			$this->assertSame( $recount, $recorded, "level $level" );
		}

		// Each word row carries its place's code and position; `prev` chains a place's words.
		$words = Index_Schema::table( 'cairn_place_words' );
		$this->assertSame( '0', $wpdb->get_var( "SELECT COUNT(*) FROM $words w JOIN $places p ON p.post_id = w.post_id WHERE w.code <> p.code OR w.lat <> p.lat OR w.lng <> p.lng OR w.combo <> p.combo" ) );
		$this->assertSame( (string) $count, $wpdb->get_var( "SELECT COUNT(*) FROM $words WHERE prev = ''" ), 'one first word a place' );

		// A search's world tile counts each place it finds once, from the words alone when its
		// zone holds more than Tile_Builder::EXACT_PLACES (at 20,000): a title with two words
		// the prefix starts, a word naming a group, a group hidden.
		$moors           = (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->posts} WHERE post_type = %s AND MOD(ID, 7) = 0", Post_Type::POST_TYPE ) );
		$red             = (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->term_relationships} WHERE term_taxonomy_id = %d", $tt['red'] ) );
		$blue            = (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->term_relationships} WHERE term_taxonomy_id = %d", $tt['blue'] ) );
		$ungrouped_moors = (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->posts} WHERE post_type = %s AND MOD(ID, 7) = 0 AND MOD(ID, 3) = 0", Post_Type::POST_TYPE ) );
		$searches        = array(
			'every title, misty moors once' => array( array( 'q' => 'm' ), $count ),
			'the moors'                     => array( array( 'q' => 'MOO' ), $moors ),
			'a group by its name'           => array( array( 'q' => 're' ), $red ),
			'blue by its name and a title'  => array( array( 'q' => 'b' ), $blue ),
			'moors, grouped ones hidden'    => array(
				array(
					'q'      => 'moor',
					'hidden' => 'red,blue',
				),
				$ungrouped_moors,
			),
			'two words'                     => array( array( 'q' => 'moor mist' ), $moors ),
		);
		foreach ( $searches as $label => $search ) {
			$grouped = array();
			$capture = static function ( $sql ) use ( &$grouped ) {
				if ( false !== strpos( (string) $sql, 'GROUP BY' ) ) {
					$grouped[] = (string) $sql;
				}
				return $sql;
			};
			add_filter( 'query', $capture );
			$response = $this->rest( 'GET', '/cairn/v1/tiles/0/0/0', $search[0] );
			remove_filter( 'query', $capture );
			// Counted from the word rows, never from the places; word by word for m, moo and moor.
			$this->assertNotEmpty( $grouped, $label );
			$this->assertMatchesRegularExpression( "/ FROM {$words} p WHERE p\\.word /", $grouped[0], "$label: counted from the words" );
			$this->assertStringNotContainsString( Index_Schema::table( 'cairn_places' ) . ' ', $grouped[0], "$label: no place read" );
			if ( ! in_array( $search[0]['q'], array( 're', 'b' ), true ) ) {
				$this->assertStringContainsString( 'p.word IN (', $grouped[0], "$label: by spelling" );
			}
			$this->assertSame( 200, $response->get_status(), $label );
			$found = 0;
			foreach ( $response->get_data()['features'] as $feature ) {
				$found += $feature['properties']['point_count'] ?? 1;
			}
			$this->assertSame( $search[1], $found, $label );
			$summary = $this->rest( 'GET', '/cairn/v1/places/summary', $search[0] )->get_data();
			$this->assertSame( min( $search[1], Place_Search::cap() ), $summary['matches'], "$label: the panel's count" );
			$this->assertSame( $search[1] > Place_Search::cap(), $summary['capped'], "$label: capped or not" );
		}

		// One marker moved and regrouped through WordPress, timed with its queries.
		$id      = (int) $wpdb->get_var( $wpdb->prepare( "SELECT MAX(ID) FROM {$wpdb->posts} WHERE post_type = %s", Post_Type::POST_TYPE ) );
		$queries = 0;
		$count_q = static function ( $sql ) use ( &$queries ) {
			++$queries;
			return $sql;
		};
		add_filter( 'query', $count_q );
		$index->sync( $id ); // Nothing changed: a few reads.
		$idle = $queries;
		update_post_meta( $id, Post_Type::META_LAT, '12.5' );
		remove_filter( 'query', $count_q );
		$this->assertSame( '12.5', $wpdb->get_var( $wpdb->prepare( "SELECT lat FROM $places WHERE post_id = %d", $id ) ) );
		// One change costs a bounded number of queries whatever the size (counted, not timed).
		$this->assertLessThanOrEqual( 60, $queries, 'one move at this size (49 at 20,000 markers: the meta write and the index reads and writes)' );
		$this->assertLessThanOrEqual( 6, $idle, 'an unchanged marker costs a few reads' );
		fwrite( STDERR, sprintf( "\n[index] %d markers: rebuilt in %d steps (peak %.1f MB a step); one move: %d queries\n", $count, $steps, $peak / MB_IN_BYTES, $queries ) );
	}
}
