<?php
/**
 * Tests of "near a place, within a radius" on the places routes and the tiles.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Index\Morton;
use Cairn\Maps\Index\Place_Index;
use Cairn\Maps\Plugin;
use Cairn\Maps\Tests\Sphere;
use Cairn\Maps\Tests\TestCase;

/**
 * `GET /cairn/v1/places` and `/places/summary` with `near` + `radius`, and the tiles with `near` +
 * `near_radius`, over real markers, against a direct great-circle distance over the seeded places.
 */
class Places_NearTest extends TestCase {

	/**
	 * Edinburgh's Royal Mile (the geocoder fixture's "edinburgh"): lng, lat.
	 */
	private const CENTRE = array( -3.1875, 55.95 );

	/**
	 * The radii the tests ask for, in metres (seeded places keep clear of their edges).
	 */
	private const RADII = array( 1000, 5000, 25000, 100000 );

	/**
	 * Seeded places: id => [lng, lat, groups].
	 *
	 * @var array<int, array{0: float, 1: float, 2: string[]}>
	 */
	private array $places = array();

	/**
	 * Seeds places around Edinburgh from 0 to 150 km (a fixed pseudo-random spread, none within
	 * 30 m of a tested radius), a few across the antimeridian, in two groups.
	 */
	protected function set_up(): void {
		parent::set_up();
		$this->create_group( 'cafes', 'Cafés' );
		$this->create_group( 'huts', 'Huts' );
		// A fixed pseudo-random spread (Park–Miller), the same on every run.
		$seed   = 34;
		$random = static function () use ( &$seed ): float {
			$seed = ( $seed * 16807 ) % 2147483647;
			return $seed / 2147483647;
		};
		$made   = 0;
		while ( $made < 90 ) {
			// Distances spread on a log scale, so every radius holds some and leaves some out.
			$metres  = 200 * ( 750 ** $random() );
			$bearing = 2 * M_PI * $random();
			$point   = self::rounded( Sphere::destination( self::CENTRE, $metres, $bearing ) );
			$close   = array_filter( self::RADII, static fn( int $r ): bool => abs( Sphere::distance( self::CENTRE, $point ) - $r ) < 30 );
			if ( array() !== $close ) {
				continue;
			}
			$groups = 0 === $made % 3 ? array( 'cafes' ) : ( 1 === $made % 3 ? array( 'huts' ) : array() );
			$this->seed( $point, 0 === $made % 2 ? "Cafe {$made}" : "Bothy {$made}", $groups );
			++$made;
		}
		foreach ( array( array( 179.95, -16.5 ), array( -179.95, -16.5 ), array( -179.5, -16.5 ) ) as $index => $point ) {
			$this->seed( $point, "Island {$index}", array() );
		}
		$index = Plugin::instance()->get( 'place_index' );
		$this->assertInstanceOf( Place_Index::class, $index );
		$index->rebuild_now();
	}

	/**
	 * Creates a marker and remembers it.
	 *
	 * @param float[]  $point  [lng, lat].
	 * @param string   $title  Title.
	 * @param string[] $groups Group slugs.
	 */
	private function seed( array $point, string $title, array $groups ): void {
		$id                  = $this->create_marker(
			array(
				'post_title' => $title,
				'lat'        => $point[1],
				'lng'        => $point[0],
				'groups'     => $groups,
			)
		);
		$this->places[ $id ] = array( $point[0], $point[1], $groups );
	}

	/**
	 * A position rounded to 7 decimals, as stored.
	 *
	 * @param float[] $point [lng, lat].
	 * @return float[]
	 */
	private static function rounded( array $point ): array {
		return array( round( $point[0], 7 ), round( $point[1], 7 ) );
	}

	/**
	 * The seeded places within a radius, nearest first then by id: id => metres.
	 *
	 * @param float[]  $centre [lng, lat].
	 * @param int      $metres Radius.
	 * @param callable $keep   Which seeded places count (id, groups) => bool.
	 * @return array<int, float>
	 */
	private function expected( array $centre, int $metres, ?callable $keep = null ): array {
		$within = array();
		foreach ( $this->places as $id => $place ) {
			$distance = Sphere::distance( $centre, $place );
			if ( $distance <= $metres && ( null === $keep || $keep( $id, $place[2] ) ) ) {
				$within[ $id ] = $distance;
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
	 * A route's answer.
	 *
	 * @param string               $route Route under cairn/v1.
	 * @param array<string, mixed> $query Query parameters.
	 * @return array{status: int, data: mixed}
	 */
	private function get( string $route, array $query ): array {
		$response = $this->rest( 'GET', '/cairn/v1' . $route, $query );
		return array(
			'status' => $response->get_status(),
			'data'   => json_decode( (string) wp_json_encode( $response->get_data() ), true ),
		);
	}

	/**
	 * Every listed place of a query (all pages of 10): id => metres.
	 *
	 * @param array<string, mixed> $query Query parameters.
	 * @return array<int, float>
	 */
	private function listed( array $query ): array {
		$listed = array();
		$page   = 1;
		do {
			$answer = $this->get(
				'/places',
				$query + array(
					'per_page' => 10,
					'page'     => $page,
				)
			);
			$this->assertSame( 200, $answer['status'], (string) wp_json_encode( $answer['data'] ) );
			foreach ( $answer['data']['items'] as $item ) {
				$this->assertArrayNotHasKey( $item['id'], $listed, 'each place once' );
				$listed[ $item['id'] ] = $item['distance'];
			}
			++$page;
		} while ( $page <= $answer['data']['pages'] );
		$this->assertSame( count( $listed ), $answer['data']['total'] );
		return $listed;
	}

	/**
	 * "lng,lat" of a position.
	 *
	 * @param float[] $point [lng, lat].
	 */
	private static function near( array $point ): string {
		return $point[0] . ',' . $point[1];
	}

	/**
	 * The list within each radius holds exactly the seeded places a direct distance puts within
	 * it, nearest first, with their distances in metres; the summary counts them and bounds them.
	 */
	public function test_list_and_summary_hold_exactly_the_places_within_the_radius_nearest_first(): void {
		foreach ( self::RADII as $radius ) {
			$expected = $this->expected( self::CENTRE, $radius );
			$this->assertNotEmpty( $expected, "some places within {$radius} m" );
			$this->assertLessThan( count( $this->places ), count( $expected ), "some places beyond {$radius} m" );
			$listed = $this->listed(
				array(
					'near'   => self::near( self::CENTRE ),
					'radius' => (string) $radius,
				)
			);
			$this->assertSame( array_keys( $expected ), array_keys( $listed ), "the places within {$radius} m, nearest first" );
			foreach ( $expected as $id => $metres ) {
				$this->assertEqualsWithDelta( $metres, $listed[ $id ], 0.2, 'its distance in metres' );
			}
			$summary = $this->get(
				'/places/summary',
				array(
					'near'   => self::near( self::CENTRE ),
					'radius' => $radius,
				)
			);
			$this->assertSame( 200, $summary['status'] );
			$this->assertSame( count( $expected ), $summary['data']['matches'] );
			$this->assertSame( count( $this->places ), $summary['data']['total'], 'the total stays the selection’s' );
			$within = array_intersect_key( $this->places, $expected );
			$this->assertEqualsWithDelta(
				array( min( array_column( $within, 0 ) ), min( array_column( $within, 1 ) ), max( array_column( $within, 0 ) ), max( array_column( $within, 1 ) ) ),
				$summary['data']['bounds'],
				1e-6
			);
		}
	}

	/**
	 * A search, hidden groups and a box narrow the circle as they narrow the list.
	 */
	public function test_the_filter_and_a_box_apply_within_the_circle(): void {
		$near = self::near( self::CENTRE );
		$this->assertSame(
			array_keys( $this->expected( self::CENTRE, 100000, fn( int $id, array $groups ): bool => str_starts_with( get_the_title( $id ), 'Cafe' ) || in_array( 'cafes', $groups, true ) ) ),
			array_keys(
				$this->listed(
					array(
						'near'   => $near,
						'radius' => 100000,
						'q'      => 'caf',
					)
				)
			)
		);
		$this->assertSame(
			array_keys( $this->expected( self::CENTRE, 25000, fn( int $id, array $groups ): bool => array( 'huts' ) !== $groups ) ),
			array_keys(
				$this->listed(
					array(
						'near'   => $near,
						'radius' => 25000,
						'hidden' => 'huts',
					)
				)
			)
		);
		$this->assertSame(
			array_keys( $this->expected( self::CENTRE, 25000, fn( int $id, array $groups ): bool => array( 'cafes' ) === $groups ) ),
			array_keys(
				$this->listed(
					array(
						'near'   => $near,
						'radius' => 25000,
						'group'  => 'cafes',
					)
				)
			)
		);
		$east = $this->expected( self::CENTRE, 100000, fn( int $id ): bool => $this->places[ $id ][0] >= self::CENTRE[0] );
		$this->assertSame(
			array_keys( $east ),
			array_keys(
				$this->listed(
					array(
						'near'   => $near,
						'radius' => 100000,
						'bbox'   => '-3.1875,50,0,60',
					)
				)
			)
		);
	}

	/**
	 * A circle across the antimeridian holds the places on both sides of it.
	 */
	public function test_a_circle_across_the_antimeridian(): void {
		$centre   = array( 179.99, -16.5 );
		$expected = $this->expected( $centre, 60000 );
		$this->assertCount( 3, $expected );
		$this->assertSame(
			array_keys( $expected ),
			array_keys(
				$this->listed(
					array(
						'near'   => self::near( $centre ),
						'radius' => 60000,
					)
				)
			)
		);
		$this->assertCount(
			2,
			$this->listed(
				array(
					'near'   => self::near( $centre ),
					'radius' => 10000,
				)
			)
		);
	}

	/**
	 * The tiles with near and near_radius draw exactly the places within the circle: every place
	 * a point above the cluster max zoom, the clusters of zoom 0 counting them all.
	 */
	public function test_tiles_draw_only_the_places_within_the_circle(): void {
		$expected = $this->expected( self::CENTRE, 25000 );
		$query    = array(
			'near'        => self::near( self::CENTRE ),
			'near_radius' => '25000',
		);
		$counted  = 0;
		$response = $this->rest( 'GET', '/cairn/v1/tiles/0/0/0', $query );
		$this->assertSame( 200, $response->get_status() );
		foreach ( $response->get_data()['features'] as $feature ) {
			$counted += $feature['properties']['point_count'] ?? 1;
		}
		$this->assertSame( count( $expected ), $counted, 'zoom 0 counts the circle’s places' );
		// Above the cluster max zoom every place is a point: the tiles covering the circle's box.
		$points  = array();
		$maxzoom = 4;
		$z       = $maxzoom + 1;
		$seen    = array();
		foreach ( array( array( -3.6, 55.7 ), array( -2.8, 55.7 ), array( -3.6, 56.2 ), array( -2.8, 56.2 ) ) as $corner ) {
			$seen[ implode( '/', Morton::tile_of( Morton::cell( Morton::code( $corner[1], $corner[0] ), $z ) ) ) ] = true;
		}
		foreach ( array_keys( $seen ) as $tile ) {
			list( $x, $y ) = explode( '/', $tile );
			$answer        = $this->rest( 'GET', "/cairn/v1/tiles/{$z}/{$x}/{$y}", $query + array( 'maxzoom' => (string) $maxzoom ) );
			$this->assertSame( 200, $answer->get_status() );
			foreach ( $answer->get_data()['features'] as $feature ) {
				$this->assertArrayNotHasKey( 'cluster', $feature['properties'] );
				$points[] = $feature['id'];
			}
		}
		sort( $points );
		$ids = array_keys( $expected );
		sort( $ids );
		$this->assertSame( $ids, $points, 'the points are the circle’s places' );
		$everything = 0;
		foreach ( array_keys( $seen ) as $tile ) {
			$everything += count( $this->rest( 'GET', "/cairn/v1/tiles/{$z}/{$tile}", array( 'maxzoom' => (string) $maxzoom ) )->get_data()['features'] );
		}
		$this->assertGreaterThan( count( $points ), $everything, 'without the circle, more' );
	}

	/**
	 * Without JavaScript the server's list takes the same address: coordinates or one of the
	 * map's place names, a radius in km; the places within it, nearest first, with distances;
	 * and a form to ask again.
	 */
	public function test_the_no_js_list_takes_the_same_address(): void {
		$list     = new \Cairn\Maps\Blocks\Places_List( new \Cairn\Maps\Markers\Marker_Repository() );
		$imperial = 'imperial' === \Cairn\Maps\Blocks\Map_Block::units();
		// 25 of the site's unit, in km as the address carries it.
		$km       = $imperial ? '40.234' : '25';
		$expected = array_keys( $this->expected( self::CENTRE, (int) round( (float) $km * 1000 ) ) );
		$_GET     = array(
			'cairn-near'   => self::near( self::CENTRE ) . '|Edinburgh',
			'cairn-radius' => $km,
		);
		$html     = $list->render( array(), 1 );
		preg_match_all( '/data-cairn-marker-id="(\d+)"/', $html, $found );
		$this->assertSame( array_slice( $expected, 0, 50 ), array_map( 'intval', $found[1] ), 'within 25 km, nearest first, a page of 50' );
		$this->assertStringContainsString( 'of ' . count( $expected ), $html, 'the pager counts the places within' );
		$this->assertStringContainsString( 'class="wp-block-cairn-map__distance"', $html );
		$this->assertStringContainsString( 'name="cairn-near" value="Edinburgh"', $html );
		$this->assertStringContainsString( '<option value="' . $km . '" selected>25 ' . ( $imperial ? 'mi' : 'km' ) . '</option>', $html );

		// A place name of the map: the first place it names is the centre.
		$first = (int) $found[1][0];
		$title = get_the_title( $first );
		$_GET  = array(
			'cairn-near'   => $title,
			'cairn-radius' => '5',
		);
		preg_match_all( '/data-cairn-marker-id="(\d+)"/', $list->render( array(), 1 ), $named );
		$this->assertSame( array_slice( array_keys( $this->expected( array_slice( $this->places[ $first ], 0, 2 ), 5000 ) ), 0, 50 ), array_map( 'intval', $named[1] ) );

		// Nonsense is ignored: the usual list.
		$_GET = array(
			'cairn-near'   => '<script>',
			'cairn-radius' => '9999',
		);
		$html = $list->render( array(), 1 );
		$this->assertStringNotContainsString( '<script>', $html );
		$this->assertStringNotContainsString( 'wp-block-cairn-map__distance', $html );
		$_GET = array();
	}

	/**
	 * Bad circles answer 400 with a message naming the parameter.
	 */
	public function test_bad_circles_answer_400(): void {
		$near = self::near( self::CENTRE );
		$bad  = array(
			array( '/places', array( 'radius' => '5000' ), 'radius needs near' ),
			array( '/places/summary', array( 'radius' => '5000' ), 'radius needs near' ),
			array(
				'/places',
				array(
					'near'   => $near,
					'radius' => '99',
				),
				'radius must be a whole number of metres from 100 to 500000',
			),
			array(
				'/places',
				array(
					'near'   => $near,
					'radius' => '500001',
				),
				'radius must be',
			),
			array(
				'/places',
				array(
					'near'   => $near,
					'radius' => '2.5',
				),
				'radius must be',
			),
			array(
				'/places',
				array(
					'near'   => $near,
					'radius' => 'far',
				),
				'radius must be',
			),
			array(
				'/places/summary',
				array(
					'near'   => '3,95',
					'radius' => '5000',
				),
				'near must be',
			),
			array( '/tiles/0/0/0', array( 'near' => $near ), 'near and near_radius go together' ),
			array( '/tiles/0/0/0', array( 'near_radius' => '5000' ), 'near and near_radius go together' ),
			array(
				'/tiles/0/0/0',
				array(
					'near'        => $near,
					'near_radius' => '50',
				),
				'radius must be',
			),
			array(
				'/tiles/0/0/0',
				array(
					'near'        => 'here',
					'near_radius' => '5000',
				),
				'near must be',
			),
		);
		foreach ( $bad as list( $route, $query, $message ) ) {
			$answer = $this->get( $route, $query );
			$this->assertSame( 400, $answer['status'], $route . ' ' . wp_json_encode( $query ) );
			$this->assertStringContainsString( $message, (string) wp_json_encode( $answer['data'], JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES ) );
		}
	}
}
