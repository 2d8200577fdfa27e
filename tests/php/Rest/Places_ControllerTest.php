<?php
/**
 * Tests of the places routes (the panel of a tiled map).
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Index\Place_Index;
use Cairn\Maps\Index\Place_Filter;
use Cairn\Maps\Index\Place_Search;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Plugin;
use Cairn\Maps\Rest\Answer_Slots;
use Cairn\Maps\Rest\Places_Controller;
use Cairn\Maps\Tests\TestCase;

/**
 * `GET /cairn/v1/places` and `GET /cairn/v1/places/summary` over real markers, indexed by the
 * plugin's own hooks (Place_Index), against what the markers themselves say.
 */
class Places_ControllerTest extends TestCase {

	/**
	 * Post ids of the fixture by a short name.
	 *
	 * @var array<string, int>
	 */
	private array $ids = array();

	/**
	 * Creates the fixture's places: groups with names unlike their slugs, places across the
	 * antimeridian, titles with accents, case, digits, punctuation, right-to-left script.
	 */
	protected function set_up(): void {
		parent::set_up();
		$this->create_group( 'cafes', 'Cafés' );
		$this->create_group( 'huts', 'Mountain huts' );
		$this->create_group( 'museums', 'Museums of Art' );
		$places = array(
			'flore'     => array( 'Café de Flore', 48.854, 2.333, array( 'cafes' ) ),
			'cafeteria' => array( 'CAFETERIA Nord', 59.91, 10.75, array() ),
			'alpha'     => array( 'Refuge Alpha', 46.0, 7.5, array( 'huts' ) ),
			'beta'      => array( 'Hut Beta', -17.0, 179.5, array( 'huts', 'cafes' ) ),
			'art'       => array( 'Ocean house', -16.0, -179.5, array( 'museums' ) ),
			'sale'      => array( 'Big 50% sale_day', 0.5, 0.5, array() ),
			'ecluse'    => array( 'Écluse', 47.0, 3.0, array() ),
			'palm'      => array( 'مقهى النخيل', 25.2, 55.27, array() ),
		);
		foreach ( $places as $name => list( $title, $lat, $lng, $groups ) ) {
			$this->ids[ $name ] = $this->create_marker(
				array(
					'post_title' => $title,
					'lat'        => $lat,
					'lng'        => $lng,
					'groups'     => $groups,
				)
			);
		}
		$this->ids['draft'] = $this->create_marker(
			array(
				'post_title'  => 'Café draft',
				'post_status' => 'draft',
				'lat'         => 48.0,
				'lng'         => 2.0,
			)
		);
		// The index as a site has it once built (its first build runs in the background).
		$index = Plugin::instance()->get( 'place_index' );
		$this->assertInstanceOf( Place_Index::class, $index );
		$index->rebuild_now();
		$this->assertTrue( $index->is_ready() );
	}

	/**
	 * A route's JSON answer.
	 *
	 * @param string                $route   Route under cairn/v1.
	 * @param array<string, mixed>  $query   Query parameters.
	 * @param array<string, string> $headers Request headers.
	 * @return array{status: int, data: mixed, headers: array<string, string>}
	 */
	private function get( string $route, array $query = array(), array $headers = array() ): array {
		$response = $this->rest( 'GET', '/cairn/v1' . $route, $query, $headers );
		return array(
			'status'  => $response->get_status(),
			'data'    => json_decode( (string) wp_json_encode( $response->get_data() ), true ),
			'headers' => $response->get_headers(),
		);
	}

	/**
	 * The ids the list gives (every page of 50).
	 *
	 * @param array<string, mixed> $query Query parameters.
	 * @return int[]
	 */
	private function listed( array $query = array() ): array {
		$answer = $this->get( '/places', $query );
		$this->assertSame( 200, $answer['status'], (string) wp_json_encode( $answer['data'] ) );
		return array_column( $answer['data']['items'], 'id' );
	}

	/**
	 * Ids of the fixture by name.
	 *
	 * @param string ...$names Names.
	 * @return int[]
	 */
	private function of( string ...$names ): array {
		return array_map(
			function ( string $name ): int {
				return $this->ids[ $name ];
			},
			$names
		);
	}

	/**
	 * Published markers with valid coordinates, counted directly.
	 *
	 * @param string $group A group slug, or '' for all.
	 */
	private function direct_count( string $group = '' ): int {
		$query = new \WP_Query(
			array(
				'post_type'      => 'cairn_marker',
				'post_status'    => 'publish',
				'fields'         => 'ids',
				'posts_per_page' => 100,
				'no_found_rows'  => true,
				'tax_query'      => '' === $group ? array() : array( // phpcs:ignore WordPress.DB.SlowDBQuery.slow_db_query_tax_query -- a test's direct count.
					array(
						'taxonomy' => 'cairn_marker_group',
						'field'    => 'slug',
						'terms'    => $group,
					),
				),
			)
		);
		return count( (array) $query->posts );
	}

	/**
	 * The summary counts the published places of the selection, per group.
	 */
	public function test_summary_totals_and_groups_match_a_direct_count(): void {
		$answer = $this->get( '/places/summary' );
		$this->assertSame( 200, $answer['status'] );
		$this->assertSame( $this->direct_count(), $answer['data']['total'] );
		$this->assertSame( 8, $answer['data']['total'], 'the draft is not counted' );
		$this->assertSame(
			array(
				'cafes'   => $this->direct_count( 'cafes' ),
				'huts'    => $this->direct_count( 'huts' ),
				'museums' => $this->direct_count( 'museums' ),
			),
			$answer['data']['groups']
		);
		$this->assertSame( 8, $answer['data']['matches'] );
		$this->assertEquals( array( -179.5, -17.0, 179.5, 59.91 ), $answer['data']['bounds'] );

		$selection = $this->get( '/places/summary', array( 'group' => 'huts' ) );
		$this->assertSame( 2, $selection['data']['total'] );
		$this->assertSame(
			array(
				'cafes' => 1,
				'huts'  => 2,
			),
			$selection['data']['groups'],
			'a place counts in each of its groups'
		);
	}

	/**
	 * Matches and bounds follow hidden groups and the search; the total does not.
	 */
	public function test_summary_matches_and_bounds_follow_the_filter(): void {
		$answer = $this->get(
			'/places/summary',
			array(
				'q'      => 'hut',
				'hidden' => 'cafes',
			)
		);
		$this->assertSame( 8, $answer['data']['total'], 'the total is the selection, unfiltered' );
		// "hut" starts "Hut Beta" and the group name "Mountain huts" (Refuge Alpha, Hut Beta).
		$this->assertSame( 2, $answer['data']['matches'] );
		$this->assertEquals( array( 7.5, -17.0, 179.5, 46.0 ), $answer['data']['bounds'] );

		$none = $this->get( '/places/summary', array( 'q' => 'zzz' ) );
		$this->assertSame( 0, $none['data']['matches'] );
		$this->assertNull( $none['data']['bounds'] );
	}

	/**
	 * Bounds are the places' own extremes, not their grid cells': places a few metres apart in
	 * the outermost line of cells.
	 */
	public function test_bounds_are_exact(): void {
		$this->create_marker(
			array(
				'post_title' => 'West twin',
				'lat'        => -15.0,
				'lng'        => -179.495,
			)
		);
		$this->create_marker(
			array(
				'post_title' => 'North twin',
				'lat'        => 59.9,
				'lng'        => 10.7,
			)
		);
		$this->assertEquals( array( -179.5, -17.0, 179.5, 59.91 ), $this->get( '/places/summary' )['data']['bounds'] );
		$this->assertEquals( array( -179.5, -17.0, 179.5, 59.91 ), $this->get( '/places/summary', array( 'hidden' => 'huts' ) )['data']['bounds'] );
	}

	/**
	 * Pages cover every place once, by folded title; past the last page the list is empty.
	 */
	public function test_pages_hold_every_place_once_in_title_order(): void {
		$seen = array();
		for ( $page = 1; $page <= 3; $page++ ) {
			$answer = $this->get(
				'/places',
				array(
					'per_page' => 3,
					'page'     => $page,
				)
			);
			$this->assertSame( 8, $answer['data']['total'] );
			$this->assertSame( 3, $answer['data']['pages'] );
			$this->assertSame( $page, $answer['data']['page'] );
			$seen = array_merge( $seen, array_column( $answer['data']['items'], 'title' ) );
		}
		$this->assertSame(
			array( 'Big 50% sale_day', 'Café de Flore', 'CAFETERIA Nord', 'Écluse', 'Hut Beta', 'Ocean house', 'Refuge Alpha', 'مقهى النخيل' ),
			$seen,
			'folded title order: accents and case do not count'
		);
		$past = $this->get(
			'/places',
			array(
				'per_page' => 3,
				'page'     => 9,
			)
		);
		$this->assertSame( 200, $past['status'] );
		$this->assertSame( array(), $past['data']['items'] );
		$this->assertSame( 8, $past['data']['total'] );
	}

	/**
	 * A list item holds what the panel shows.
	 */
	public function test_item_format(): void {
		$answer = $this->get( '/places', array( 'q' => 'flore' ) );
		$this->assertSame(
			array(
				array(
					'id'     => $this->ids['flore'],
					'title'  => 'Café de Flore',
					'lng'    => 2.333,
					'lat'    => 48.854,
					'groups' => array( 'cafes' ),
				),
			),
			$answer['data']['items']
		);
	}

	/**
	 * Searches and the places they find.
	 *
	 * @return array<string, array{0: string, 1: string[]}>
	 */
	public function searches(): array {
		$all = array( 'sale', 'flore', 'cafeteria', 'ecluse', 'beta', 'art', 'alpha', 'palm' );
		return array(
			'word prefix, accents folded' => array( 'cafe', array( 'flore', 'cafeteria', 'beta' ) ),
			'case folded'                 => array( 'CAFÉ DE', array( 'flore' ) ),
			'every word must match'       => array( 'caf nord', array( 'cafeteria' ) ),
			'not a substring'             => array( 'afe', array() ),
			'group name'                  => array( 'museums', array( 'art' ) ),
			'group name, second word'     => array( 'art', array( 'art' ) ),
			'title or group name'         => array( 'hut', array( 'alpha', 'beta' ) ),
			'accented title'              => array( 'ecl', array( 'ecluse' ) ),
			'right-to-left script'        => array( 'مقه', array( 'palm' ) ),
			'digits'                      => array( '50%', array( 'sale' ) ),
			// A search without a word is no search, on the small map (words.ts) as here.
			'percent alone'               => array( '%', $all ),
			'underscore alone'            => array( '_', $all ),
			'backslash alone'             => array( '\\', $all ),
			'emoji alone'                 => array( '🙂', $all ),
			'wildcards beside a word'     => array( 'x% _y', array() ),
			'blank is no search'          => array( '   ', $all ),
		);
	}

	/**
	 * A search finds the places whose title or group names have words starting with its words.
	 *
	 * @dataProvider searches
	 *
	 * @param string   $search The search.
	 * @param string[] $names  The places found, in title order.
	 */
	public function test_search( string $search, array $names ): void {
		$expected = $this->of( ...$names );
		$found    = $this->listed( array( 'q' => $search ) );
		sort( $expected );
		sort( $found );
		$this->assertSame( $expected, $found );
		$summary = $this->get( '/places/summary', array( 'q' => $search ) );
		$this->assertSame( count( $names ), $summary['data']['matches'] );
	}

	/**
	 * Hidden groups take out places all of whose groups are hidden.
	 */
	public function test_hidden_groups(): void {
		$found = $this->listed( array( 'hidden' => 'cafes' ) );
		$this->assertNotContains( $this->ids['flore'], $found, 'a place whose groups are all hidden is out' );
		$this->assertContains( $this->ids['beta'], $found, 'a place with another group shown stays' );
		$this->assertContains( $this->ids['sale'], $found, 'a place without groups stays' );
		$found = $this->listed( array( 'hidden' => 'cafes,huts' ) );
		$this->assertNotContains( $this->ids['beta'], $found );
		$this->assertNotContains( $this->ids['alpha'], $found );
		$this->assertCount( 5, $found );
	}

	/**
	 * The selection (group) narrows the list before hidden groups.
	 */
	public function test_selection(): void {
		$this->assertSame( $this->of( 'beta', 'alpha' ), $this->listed( array( 'group' => 'huts' ) ) );
		$this->assertSame(
			$this->of( 'beta' ),
			$this->listed(
				array(
					'group'  => 'huts',
					'hidden' => 'huts',
				)
			)
		);
	}

	/**
	 * A box narrows the list, also across the antimeridian.
	 */
	public function test_bbox_and_across_the_antimeridian(): void {
		$this->assertSame( $this->of( 'flore', 'ecluse' ), $this->listed( array( 'bbox' => '1,45,4,49' ) ) );
		$this->assertSame( 2, $this->get( '/places', array( 'bbox' => '1,45,4,49' ) )['data']['total'] );
		$this->assertSame( 2, $this->get( '/places', array( 'bbox' => '170,-20,-170,-10' ) )['data']['total'] );
		$this->assertSame( 8, $this->get( '/places', array( 'bbox' => '-180,-90,180,90' ) )['data']['total'], 'the whole world' );
		$this->assertSame( $this->of( 'beta', 'art' ), $this->listed( array( 'bbox' => '170,-20,-170,-10' ) ) );
		$this->assertSame( array(), $this->listed( array( 'bbox' => '-170,-20,170,-10' ) ), 'west < east: the box between, not across' );
		$answer = $this->get(
			'/places',
			array(
				'bbox' => '170,-20,-170,-10',
				'q'    => 'ocean',
			)
		);
		$this->assertSame( 1, $answer['data']['total'] );
	}

	/**
	 * Places just outside a box's edge, in grid cells the edge cuts, are not counted.
	 */
	public function test_a_box_counts_exactly_at_its_edges(): void {
		$outside = array();
		foreach ( array( array( 47.0, 4.0001 ), array( 49.0001, 2.0 ), array( 44.9999, 3.0 ), array( 47.0, 0.9999 ) ) as list( $lat, $lng ) ) {
			$outside[] = $this->create_marker(
				array(
					'post_title' => 'Just outside',
					'lat'        => $lat,
					'lng'        => $lng,
				)
			);
		}
		$on_edge = $this->create_marker(
			array(
				'post_title' => 'On the edge',
				'lat'        => 49.0,
				'lng'        => 4.0,
			)
		);
		$answer  = $this->get( '/places', array( 'bbox' => '1,45,4,49' ) );
		$this->assertSame( 3, $answer['data']['total'] );
		$this->assertSame( array( $this->ids['flore'], $this->ids['ecluse'], $on_edge ), array_column( $answer['data']['items'], 'id' ) );
		$this->assertSame( 8 + 5, $this->get( '/places', array( 'bbox' => '-180,-90,180,90' ) )['data']['total'] );
		$this->assertSame( array(), array_intersect( $outside, array_column( $answer['data']['items'], 'id' ) ) );
	}

	/**
	 * A list near a position is sorted by distance, given in metres.
	 */
	public function test_near_sorts_by_distance_with_metres(): void {
		$answer = $this->get( '/places', array( 'near' => '2.35,48.86' ) );
		$items  = $answer['data']['items'];
		$this->assertSame( $this->of( 'flore', 'ecluse', 'alpha', 'cafeteria', 'palm', 'sale', 'art', 'beta' ), array_column( $items, 'id' ) );
		$this->assertEqualsWithDelta( Place_Search::distance( 2.35, 48.86, 2.333, 48.854 ), $items[0]['distance'], 0.1 );
		$this->assertEqualsWithDelta( 1411, $items[0]['distance'], 20, 'Café de Flore is about 1.4 km away' );
		$in_box = $this->get(
			'/places',
			array(
				'near' => '2.35,48.86',
				'bbox' => '0,0,10,50',
			)
		);
		$this->assertSame( $this->of( 'flore', 'ecluse', 'alpha', 'sale' ), array_column( $in_box['data']['items'], 'id' ) );
	}

	/**
	 * With more places than are ordered at once, the nearest are found in a box around the
	 * origin that surely holds them: the same pages, the same distances. (Pages past the limit,
	 * and nearest places so far that their box reaches a pole while holding too many, are ordered
	 * by a flat-earth distance instead.)
	 */
	public function test_near_beyond_the_exact_limit_gives_the_same_pages(): void {
		// The corner of a small square around (100, 0), and just past its edge but nearer.
		$corner = $this->create_marker(
			array(
				'post_title' => 'Corner',
				'lat'        => 0.7,
				'lng'        => 100.7,
			)
		);
		$edge   = $this->create_marker(
			array(
				'post_title' => 'Past the edge',
				'lat'        => 0.85,
				'lng'        => 100.0,
			)
		);
		$few    = new Place_Search( null, null, 4 );
		$all    = new Place_Search();
		$empty  = new Place_Filter();
		foreach ( array(
			'2.35,48.86'  => 2,
			'100,0'       => 2,
			'179.9,-16.5' => 1,
		) as $near => $pages ) {
			for ( $page = 1; $page <= $pages; $page++ ) {
				$query = array(
					'bbox'     => null,
					'near'     => array_map( 'floatval', explode( ',', $near ) ),
					'page'     => $page,
					'per_page' => 2,
					'include'  => 0,
				);
				$this->assertSame( $all->list( $empty, $query ), $few->list( $empty, $query ), "near {$near}, page {$page}" );
			}
		}
		$query = array(
			'bbox'     => array( 170.0, -20.0, -170.0, -10.0 ),
			'near'     => array( 179.9, -16.5 ),
			'page'     => 1,
			'per_page' => 1,
			'include'  => 0,
		);
		$this->assertSame( $this->of( 'beta' ), array_column( $few->list( $empty, $query )['items'], 'id' ) );
		$query['bbox']     = null;
		$query['near']     = array( 100.0, 0.0 );
		$query['per_page'] = 1;
		$this->assertSame( array( $edge ), array_column( $few->list( $empty, $query )['items'], 'id' ), 'nearer than the corner of the first box holding a place' );
		$query['page'] = 2;
		$this->assertSame( array( $corner ), array_column( $few->list( $empty, $query )['items'], 'id' ) );
	}

	/**
	 * A list of one place (include) gives it when it is in the selection, for deep links.
	 */
	public function test_include_gives_the_place_when_it_is_in_the_selection(): void {
		$this->assertSame( $this->of( 'flore' ), $this->listed( array( 'include' => (string) $this->ids['flore'] ) ) );
		$this->assertSame(
			$this->of( 'flore' ),
			$this->listed(
				array(
					'include' => (string) $this->ids['flore'],
					'group'   => 'cafes',
					'q'       => 'zzz',
				)
			),
			'deep links ignore the filter, as the panel does'
		);
		$this->assertSame(
			array(),
			$this->listed(
				array(
					'include' => (string) $this->ids['flore'],
					'group'   => 'huts',
				)
			)
		);
		$this->assertSame( array(), $this->listed( array( 'include' => (string) $this->ids['draft'] ) ) );
		$this->assertSame( array(), $this->listed( array( 'include' => '999999999' ) ) );
	}

	/**
	 * Renamed and unpublished places are seen at once.
	 */
	public function test_changes_are_seen_at_once(): void {
		$this->assertSame( array(), $this->listed( array( 'q' => 'lighthouse' ) ) );
		wp_update_post(
			array(
				'ID'         => $this->ids['sale'],
				'post_title' => 'Lighthouse',
			)
		);
		$this->assertSame( $this->of( 'sale' ), $this->listed( array( 'q' => 'lighthouse' ) ) );
		wp_update_post(
			array(
				'ID'          => $this->ids['sale'],
				'post_status' => 'draft',
			)
		);
		$this->assertSame( array(), $this->listed( array( 'q' => 'lighthouse' ) ) );
	}

	/**
	 * A search word reads its places from the words' own rows, each carrying its place's group
	 * combination, position and title key: a move, a new group or a new title is seen at once
	 * by a search in a box, by groups and in order.
	 */
	public function test_a_search_sees_a_place_moved_regrouped_and_renamed_at_once(): void {
		$id     = $this->ids['sale'];
		$before = array(
			'q'    => 'big',
			'bbox' => '0,0,1,1',
		);
		$after  = array(
			'q'    => 'big',
			'bbox' => '10,59,11,60',
		);
		$this->assertSame( array( $id ), $this->listed( $before ) );
		$this->assertSame( array(), $this->listed( $after ) );
		update_post_meta( $id, Post_Type::META_LAT, 59.91 );
		update_post_meta( $id, Post_Type::META_LNG, 10.75 );
		$this->assertSame( array(), $this->listed( $before ), 'not where it was' );
		$this->assertSame( array( $id ), $this->listed( $after ), 'where it is now' );
		$this->assertEquals( array( 10.75, 59.91, 10.75, 59.91 ), $this->get( '/places/summary', array( 'q' => 'big' ) )['data']['bounds'] );

		$this->assertSame(
			array(),
			$this->listed(
				array(
					'q'     => 'big',
					'group' => 'huts',
				)
			)
		);
		wp_set_object_terms( $id, array( 'huts' ), 'cairn_marker_group' );
		$this->assertSame(
			array( $id ),
			$this->listed(
				array(
					'q'     => 'big',
					'group' => 'huts',
				)
			),
			'in its new group'
		);
		$this->assertSame(
			array(),
			$this->listed(
				array(
					'q'      => 'big',
					'hidden' => 'huts',
				)
			),
			'its only group hidden'
		);

		$this->create_marker(
			array(
				'post_title' => 'Zebra big top',
				'lat'        => 1.0,
				'lng'        => 1.0,
			)
		);
		$this->assertSame( 'Big 50% sale_day', $this->get( '/places', array( 'q' => 'big' ) )['data']['items'][0]['title'] );
		wp_update_post(
			array(
				'ID'         => $id,
				'post_title' => 'Zz big',
			)
		);
		$this->assertSame( array( 'Zebra big top', 'Zz big' ), array_column( $this->get( '/places', array( 'q' => 'big' ) )['data']['items'], 'title' ), 'ordered by its new title' );
	}

	/**
	 * A place whose title has several words a search word starts comes once, on every page, in
	 * title order; the count counts it once.
	 */
	public function test_a_title_with_words_the_search_starts_twice_comes_once(): void {
		$ids = array();
		foreach ( array( 'Mill Millpond', 'Old Mill', 'Millrace Mills Mill', 'Mill pond' ) as $i => $title ) {
			$ids[ $title ] = $this->create_marker(
				array(
					'post_title' => $title,
					'lat'        => 45.0 + $i,
					'lng'        => 6.0,
				)
			);
		}
		Plugin::instance()->get( 'place_index' )->sync_many( array_values( $ids ) );
		$pages = array();
		for ( $page = 1; $page <= 5; $page++ ) {
			$answer = $this->get(
				'/places',
				array(
					'q'        => 'mill',
					'per_page' => 1,
					'page'     => $page,
				)
			);
			$this->assertSame( 4, $answer['data']['total'] );
			$pages = array_merge( $pages, array_column( $answer['data']['items'], 'id' ) );
		}
		$this->assertSame( array( $ids['Mill Millpond'], $ids['Mill pond'], $ids['Millrace Mills Mill'], $ids['Old Mill'] ), $pages );
		$this->assertSame( 4, $this->get( '/places/summary', array( 'q' => 'mill' ) )['data']['matches'] );
		// Two words: each must start a word of the title ("pond" does not start "millpond"), and
		// one starting two of them still counts the place once.
		$this->assertSame( array( $ids['Mill pond'] ), $this->listed( array( 'q' => 'mill pond' ) ) );
		$this->assertSame( array( $ids['Mill Millpond'] ), $this->listed( array( 'q' => 'mill millp' ) ) );
		$this->assertSame( 1, $this->get( '/places/summary', array( 'q' => 'mill millp' ) )['data']['matches'] );
	}

	/**
	 * Bad parameters and the words of their message.
	 *
	 * @return array<string, array{0: string, 1: array<string, mixed>, 2: string}>
	 */
	public function bad_params(): array {
		return array(
			'q too long'        => array( '/places', array( 'q' => str_repeat( 'é', 201 ) ), 'at most 200 characters' ),
			'q not UTF-8'       => array( '/places/summary', array( 'q' => "\xff\xfe" ), 'at most 200 characters' ),
			'group'             => array( '/places', array( 'group' => 'Not A Slug' ), 'group must be' ),
			'hidden'            => array( '/places/summary', array( 'hidden' => 'a,,b' ), 'hidden must be' ),
			'v'                 => array( '/places', array( 'v' => 'a b' ), 'v must be' ),
			'v too long'        => array( '/places/summary', array( 'v' => str_repeat( 'a', 65 ) ), 'v must be' ),
			'bbox huge'         => array( '/places', array( 'bbox' => '-500,-10,10,10' ), 'bbox must be' ),
			'bbox upside down'  => array( '/places', array( 'bbox' => '0,10,10,-10' ), 'bbox must be' ),
			'bbox NaN'          => array( '/places', array( 'bbox' => 'NaN,0,1,1' ), 'bbox must be' ),
			'near'              => array( '/places', array( 'near' => '200,0' ), 'near must be' ),
			'near one number'   => array( '/places', array( 'near' => '2' ), 'near must be' ),
			'page 0'            => array( '/places', array( 'page' => '0' ), 'page must be' ),
			'page not a number' => array( '/places', array( 'page' => '1.5' ), 'page must be' ),
			'per_page 0'        => array( '/places', array( 'per_page' => '0' ), 'per_page must be' ),
			'per_page 51'       => array( '/places', array( 'per_page' => '51' ), 'per_page must be' ),
			'include two ids'   => array( '/places', array( 'include' => '1,2' ), 'include must be' ),
			'include not an id' => array( '/places', array( 'include' => '-3' ), 'include must be' ),
			'q as an array'     => array( '/places', array( 'q' => array( 'a' ) ), 'q must be' ),
		);
	}

	/**
	 * Bad parameters answer 400 with a message.
	 *
	 * @dataProvider bad_params
	 *
	 * @param string               $route   Route.
	 * @param array<string, mixed> $query   Query.
	 * @param string               $message Words of the message.
	 */
	public function test_bad_parameters_answer_400_with_a_message( string $route, array $query, string $message ): void {
		$answer = $this->get( $route, $query );
		$this->assertSame( 400, $answer['status'] );
		$this->assertSame( 'rest_invalid_param', $answer['data']['code'] );
		$this->assertStringContainsString( $message, (string) wp_json_encode( $answer['data'], JSON_UNESCAPED_UNICODE ) );
	}

	/**
	 * 200 characters once trimmed are accepted.
	 */
	public function test_a_200_character_search_is_fine(): void {
		$this->assertSame( 200, $this->get( '/places', array( 'q' => '  ' . str_repeat( 'é', 200 ) . '  ' ) )['status'] );
	}

	/**
	 * ETag, 304 and Cache-Control as the feed; immutable with the current version.
	 */
	public function test_etag_304_and_cache_control(): void {
		$version = ( new Markers_Version() )->get();
		$first   = $this->get( '/places', array( 'q' => 'cafe' ) );
		$etag    = $first['headers']['ETag'];
		$this->assertMatchesRegularExpression( '/^"[0-9a-f]{32}"$/', $etag );
		$this->assertSame( 'public, max-age=60, stale-while-revalidate=60', $first['headers']['Cache-Control'] );
		$again = $this->get( '/places', array( 'q' => 'cafe' ), array( 'If-None-Match' => $etag ) );
		$this->assertSame( 304, $again['status'] );
		$other = $this->get( '/places', array( 'q' => 'hut' ), array( 'If-None-Match' => $etag ) );
		$this->assertSame( 200, $other['status'], 'another search has another ETag' );

		$current = $this->get( '/places/summary', array( 'v' => $version ) );
		$this->assertSame( Places_Controller::IMMUTABLE_CACHE_CONTROL, $current['headers']['Cache-Control'] );
		$old = $this->get( '/places/summary', array( 'v' => 'old' ) );
		$this->assertSame( 'public, max-age=60, stale-while-revalidate=60', $old['headers']['Cache-Control'] );

		wp_update_post(
			array(
				'ID'         => $this->ids['sale'],
				'post_title' => 'Renamed',
			)
		);
		$this->assertSame( 200, $this->get( '/places', array( 'q' => 'cafe' ), array( 'If-None-Match' => $etag ) )['status'], 'a change renews the ETag' );

		$this->act_as( 'subscriber' );
		$this->assertSame( 'private, no-store', $this->get( '/places/summary', array( 'v' => ( new Markers_Version() )->get() ) )['headers']['Cache-Control'] );
	}

	/**
	 * While the index is rebuilt, its answers change under the same version: none is sent as
	 * immutable, as the tiles are not (one rule, Cache_Headers::versioned()).
	 */
	public function test_during_a_rebuild_nothing_is_immutable(): void {
		$index = Plugin::instance()->get( 'place_index' );
		$this->assertInstanceOf( Place_Index::class, $index );
		$index->start_rebuild();
		$version = ( new Markers_Version() )->get();
		foreach ( array( '/places', '/places/summary' ) as $route ) {
			$answer = $this->get( $route, array( 'v' => $version ) );
			$this->assertSame( 200, $answer['status'] );
			$this->assertSame( 'public, max-age=60, stale-while-revalidate=60', $answer['headers']['Cache-Control'], $route );
		}
		$index->rebuild_now();
		$this->assertSame( Places_Controller::IMMUTABLE_CACHE_CONTROL, $this->get( '/places/summary', array( 'v' => $version ) )['headers']['Cache-Control'], 'complete again' );
	}

	/**
	 * Other origins may read, without credentials.
	 */
	public function test_cors_as_the_feed(): void {
		$answer = $this->serve( '/cairn/v1/places/summary', array(), array( 'Origin' => 'https://front.example' ) );
		$this->assertSame( 200, $answer['status'] );
		$this->assertSame( '*', $answer['headers']['Access-Control-Allow-Origin'] ?? null );
		$this->assertSame( 'ETag', $answer['headers']['Access-Control-Expose-Headers'] ?? null );
		$this->assertArrayNotHasKey( 'Access-Control-Allow-Credentials', $answer['headers'] );
	}

	/**
	 * A flood of distinct searches never keeps more than the slots.
	 */
	public function test_a_flood_of_searches_keeps_a_bounded_cache(): void {
		global $wp_object_cache, $wpdb;
		$this->get( '/places', array( 'q' => 'first' ) ); // The version token is created on first use.
		$options = (int) $wpdb->get_var( "SELECT COUNT(*) FROM {$wpdb->options}" );
		for ( $i = 0; $i < Answer_Slots::SLOTS + 300; $i++ ) {
			$this->assertSame( 200, $this->get( '/places', array( 'q' => "flood{$i}" ) )['status'] );
		}
		$kept = $wp_object_cache->cache[ Answer_Slots::GROUP ] ?? array();
		$this->assertLessThanOrEqual( Answer_Slots::SLOTS, count( $kept ) );
		$this->assertGreaterThan( 100, count( $kept ), 'answers are kept' );
		$this->assertSame( $options, (int) $wpdb->get_var( "SELECT COUNT(*) FROM {$wpdb->options}" ), 'nothing is stored in the options' );
	}

	/**
	 * A kept answer is served without querying again.
	 */
	public function test_answers_are_kept_and_reused(): void {
		$first = $this->get( '/places', array( 'q' => 'cafe' ) );
		global $wpdb;
		$queries = $wpdb->num_queries;
		$again   = $this->get( '/places', array( 'q' => 'cafe' ) );
		$this->assertSame( $first['data'], $again['data'] );
		$this->assertLessThanOrEqual( 2, $wpdb->num_queries - $queries, 'the kept answer is served without querying the index' );
	}

	/**
	 * The plugin creates the controller.
	 */
	public function test_the_plugin_serves_the_routes(): void {
		$this->assertInstanceOf( Places_Controller::class, Plugin::instance()->get( 'places_rest' ) );
	}
}
