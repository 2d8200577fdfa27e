<?php
/**
 * Places within a circle, counted from the grid's aggregates.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Index\Place_Filter;
use Cairn\Maps\Index\Place_Search;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Plugin;
use Cairn\Maps\Tests\Sphere;
use Cairn\Maps\Tests\TestCase;

/**
 * A radius over thousands of places (issue 34: "a radius search at 1M answers in ≤ 150 ms"): the
 * count, the bounds and every page are those of a direct great-circle distance over the seeded
 * places, on dense circles whose inner cells count by their aggregates, across the antimeridian
 * and over a pole, with a group filter and a box; and the count reads the places along the
 * circle's edge only (rows the database returned, counted, not timed).
 *
 * @since 0.9.0
 */
final class Place_Search_CircleTest extends TestCase {

	/**
	 * Seeded places: id => [lng, lat, in the group].
	 *
	 * @var array<int, array{0: float, 1: float, 2: bool}>
	 */
	private array $places = array();

	/**
	 * About 5,000 places within 60 km of Edinburgh (denser towards the centre), 400 around the
	 * antimeridian at Fiji's latitude, 300 around the North Pole; one place in three in a group.
	 */
	protected function set_up(): void {
		parent::set_up();
		$group  = $this->create_group( 'bothies' );
		$seed   = 7;
		$random = static function () use ( &$seed ): float {
			$seed = ( $seed * 16807 ) % 2147483647;
			return $seed / 2147483647;
		};
		$points = array();
		foreach ( array( array( -3.1875, 55.95, 60000, 5000 ), array( 180.0, -17.0, 40000, 400 ), array( 0.0, 90.0, 300000, 300 ) ) as list( $lng, $lat, $reach, $n ) ) {
			for ( $i = 0; $i < $n; $i++ ) {
				$points[] = Sphere::destination( array( $lng, $lat ), $reach * sqrt( $random() ) * ( 0.2 + 0.8 * $random() ), 2 * M_PI * $random() );
			}
		}
		$this->insert( $points, $group );
		$index = Plugin::instance()->get( 'place_index' );
		$index->rebuild_now();
	}

	/**
	 * Published markers written in bulk (as an importer does), then announced.
	 *
	 * @param array<int, float[]> $points [lng, lat] each.
	 * @param int                 $group  The group's term id: every third place.
	 */
	private function insert( array $points, int $group ): void {
		global $wpdb;
		$now      = current_time( 'mysql', true );
		$taxonomy = (int) get_term( $group, Post_Type::TAXONOMY )->term_taxonomy_id;
		foreach ( array_chunk( $points, 2000 ) as $chunk ) {
			$rows = array();
			foreach ( $chunk as $i => $point ) {
				$rows[] = $wpdb->prepare( '(1, %s, %s, %s, %s, %s, %s)', $now, $now, "Circle place {$i}", 'circle-place-' . wp_generate_password( 8, false ), Post_Type::POST_TYPE, 'publish' );
			}
			// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared -- each row was prepared above.
			$wpdb->query( "INSERT INTO {$wpdb->posts} (post_author, post_date_gmt, post_modified_gmt, post_title, post_name, post_type, post_status) VALUES " . implode( ',', $rows ) );
			$first = (int) $wpdb->get_var( 'SELECT LAST_INSERT_ID()' );
			$meta  = array();
			$terms = array();
			foreach ( $chunk as $i => $point ) {
				$id     = $first + $i;
				$meta[] = $wpdb->prepare( '(%d, %s, %s), (%d, %s, %s)', $id, Post_Type::META_LAT, Post_Type::format_coordinate( $point[1] ), $id, Post_Type::META_LNG, Post_Type::format_coordinate( $point[0] ) );
				$in     = 0 === $id % 3;
				if ( $in ) {
					$terms[] = $wpdb->prepare( '(%d, %d)', $id, $taxonomy );
				}
				$this->places[ $id ] = array( (float) Post_Type::format_coordinate( $point[0] ), (float) Post_Type::format_coordinate( $point[1] ), $in );
			}
			// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared -- each row was prepared above.
			$wpdb->query( "INSERT INTO {$wpdb->postmeta} (post_id, meta_key, meta_value) VALUES " . implode( ',', $meta ) );
			if ( array() !== $terms ) {
				// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared -- each row was prepared above.
				$wpdb->query( "INSERT INTO {$wpdb->term_relationships} (object_id, term_taxonomy_id) VALUES " . implode( ',', $terms ) );
			}
		}
		wp_update_term_count_now( array( $taxonomy ), Post_Type::TAXONOMY );
		do_action( 'cairn_maps_markers_changed' );
	}

	/**
	 * The seeded places within a circle (and a box), nearest first then by id: id => metres.
	 *
	 * @param array{0: float, 1: float, 2: int} $circle [lng, lat, metres].
	 * @param bool                              $group  Only the group's.
	 * @param float[]|null                      $box    [west, south, east, north], or null.
	 * @return array<int, float>
	 */
	private function expected( array $circle, bool $group = false, ?array $box = null ): array {
		$within = array();
		foreach ( $this->places as $id => $place ) {
			$in_box = null === $box || ( $place[0] >= $box[0] && $place[0] <= $box[2] && $place[1] >= $box[1] && $place[1] <= $box[3] );
			$metres = Sphere::distance( array( $circle[0], $circle[1] ), $place );
			if ( $in_box && ( ! $group || $place[2] ) && $metres <= $circle[2] ) {
				$within[ $id ] = $metres;
			}
		}
		uksort(
			$within,
			static function ( int $a, int $b ) use ( $within ): int {
				return array( $within[ $a ], $a ) <=> array( $within[ $b ], $b );
			}
		);
		return $within;
	}

	/**
	 * The filter of a circle.
	 *
	 * @param array{0: float, 1: float, 2: int} $circle [lng, lat, metres].
	 * @param bool                              $group  Only the group's.
	 * @return array<string, mixed>
	 */
	private static function filter( array $circle, bool $group = false ): Place_Filter {
		return ( new Place_Filter( $group ? array( 'bothies' ) : array() ) )->with_circle( $circle );
	}

	/**
	 * Every page of a circle's list: id => metres, each place once, `total` their number.
	 *
	 * @param Place_Search                      $search   The search.
	 * @param array{0: float, 1: float, 2: int} $circle   [lng, lat, metres].
	 * @param bool                              $group    Only the group's.
	 * @param float[]|null                      $box      A box, or null.
	 * @param int                               $per_page Places a page.
	 * @return array<int, float>
	 */
	private function listed( Place_Search $search, array $circle, bool $group, ?array $box, int $per_page ): array {
		$listed = array();
		$page   = 1;
		do {
			$answer = $search->list(
				self::filter( $circle, $group ),
				array(
					'bbox'     => $box,
					'near'     => array( $circle[0], $circle[1] ),
					'page'     => $page,
					'per_page' => $per_page,
					'include'  => 0,
				)
			);
			foreach ( $answer['items'] as $item ) {
				$this->assertArrayNotHasKey( $item['id'], $listed, 'each place once' );
				$listed[ $item['id'] ] = $item['distance'];
			}
			++$page;
		} while ( $page <= $answer['pages'] );
		$this->assertSame( count( $listed ), $answer['total'] );
		return $listed;
	}

	/**
	 * Count, bounds and every page, against the direct distance, on dense circles.
	 */
	public function test_dense_circles_are_counted_bounded_and_listed_exactly(): void {
		$circles = array(
			'Edinburgh 5 km'              => array( array( -3.1875, 55.95, 5000 ), false, null ),
			'Edinburgh 25 km'             => array( array( -3.1875, 55.95, 25000 ), false, null ),
			'Edinburgh 50 km, the group'  => array( array( -3.0, 55.9, 50000 ), true, null ),
			'Edinburgh 25 km in a box'    => array( array( -3.1875, 55.95, 25000 ), false, array( -3.3, 55.8, -3.0, 56.2 ) ),
			'across the antimeridian'     => array( array( 179.9, -17.0, 30000 ), false, null ),
			'over the North Pole'         => array( array( 45.0, 88.5, 250000 ), false, null ),
			'the pole, a box on one side' => array( array( 45.0, 88.5, 250000 ), false, array( -180.0, 85.0, 0.0, 90.0 ) ),
		);
		foreach ( $circles as $name => list( $circle, $group, $box ) ) {
			$expected = $this->expected( $circle, $group, $box );
			$this->assertGreaterThan( 50, count( $expected ), "{$name}: a dense circle" );
			if ( null === $box ) {
				$summary = ( new Place_Search() )->summary( self::filter( $circle, $group ) );
				$this->assertSame( count( $expected ), $summary['matches'], "{$name}: the count" );
				$within = array_intersect_key( $this->places, $expected );
				$this->assertEqualsWithDelta(
					array( min( array_column( $within, 0 ) ), min( array_column( $within, 1 ) ), max( array_column( $within, 0 ) ), max( array_column( $within, 1 ) ) ),
					$summary['bounds'],
					1e-6,
					"{$name}: the bounds"
				);
			}
			// Exact order with every candidate, and with a small exact limit (squares grown around the centre).
			foreach ( array( Place_Search::NEAR_EXACT, 60 ) as $exact ) {
				$listed = $this->listed( new Place_Search( null, null, $exact ), $circle, $group, $box, 37 );
				$this->assertSame( array_keys( $expected ), array_keys( $listed ), "{$name}, exact limit {$exact}: every place within, nearest first" );
				foreach ( array_slice( $expected, 0, 50, true ) as $id => $metres ) {
					$this->assertEqualsWithDelta( $metres, $listed[ $id ], 0.2, "{$name}: a distance" );
				}
			}
		}
	}

	/**
	 * The count reads only the places along the circle's edge: far fewer than the places within,
	 * which come from the cells' aggregates.
	 */
	public function test_the_count_reads_the_edge_not_the_circle(): void {
		global $wpdb;
		$circle   = array( -3.1875, 55.95, 25000 );
		$expected = count( $this->expected( $circle ) );
		$this->assertGreaterThan( 1500, $expected );
		$places  = $wpdb->prefix . 'cairn_places ';
		$rows    = 0;
		$last    = '';
		$count   = static function ( string $sql ) use ( &$rows, &$last, $wpdb, $places ): string {
			// The places the query before this one returned (the cells' aggregates aside).
			$rows += false !== strpos( $last, $places ) ? (int) $wpdb->num_rows : 0;
			$last  = $sql;
			return $sql;
		};
		$search  = new Place_Search();
		$filter  = self::filter( $circle );
		$summary = null;
		add_filter( 'query', $count );
		try {
			$summary = $search->summary( $filter );
			$wpdb->get_var( 'SELECT 1' );
		} finally {
			remove_filter( 'query', $count );
		}
		$this->assertSame( $expected, $summary['matches'] );
		$this->assertGreaterThan( 0, $rows, 'the edge is read' );
		$this->assertLessThan( 0.25 * $expected, $rows, "{$rows} places read for {$expected} places within" );
	}
}
