<?php
/**
 * The shapes of a map, tile by tile: GET /cairn/v1/shapes/tiles/<z>/<x>/<y>.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Feed\Shape_Tile_Index;
use Cairn\Maps\Feed\Shape_Tile_Schema;
use Cairn\Maps\Feed\Shape_Tiles;
use Cairn\Maps\Index\Place_Index;
use Cairn\Maps\Markers\Geometry_Measures;
use Cairn\Maps\Markers\Geometry_Rule;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Markers\Shape_Store;
use Cairn\Maps\Plugin;
use Cairn\Maps\Tests\TestCase;
use Cairn\Maps\Uninstaller;
use WP_Error;

/**
 * Shapes written the way editors and imports write them, served tile by tile through the real
 * REST server: which tiles hold a shape, its detail per zoom, valid copies, the whole shape's
 * properties, validation, HTTP caching, and changes seen at once.
 *
 * @since 0.7.0
 */
final class Shape_Tiles_ControllerTest extends TestCase {

	private const FULL_ZOOM = 12;

	/**
	 * Shapes created: id => bbox.
	 *
	 * @var array<int, float[]>
	 */
	private array $boxes = array();

	/**
	 * The tables are complete before each test (WordPress' load started their first build).
	 */
	protected function set_up(): void {
		parent::set_up();
		$this->assertTrue( $this->index()->rebuild_now() );
	}

	/**
	 * The shape tiles' index.
	 */
	private function index(): Shape_Tile_Index {
		$index = Plugin::instance()->get( 'shape_tile_index' );
		$this->assertInstanceOf( Shape_Tile_Index::class, $index );
		return $index;
	}

	/**
	 * A published marker with a shape, saved as the editor's REST write saves it
	 * (Shape_Store::save() of a checked geometry).
	 *
	 * @param string               $type        Geometry type.
	 * @param array<int, mixed>    $coordinates Coordinates.
	 * @param array<string, mixed> $args        create_marker() arguments.
	 */
	private function shape( string $type, array $coordinates, array $args = array() ): int {
		$geometry = Geometry_Rule::check(
			array(
				'type'        => $type,
				'coordinates' => $coordinates,
			)
		);
		$this->assertIsArray( $geometry );
		$id = $this->create_marker( $args );
		Shape_Store::save( $id, $geometry );
		$this->boxes[ $id ] = Geometry_Measures::bbox( $geometry );
		return $id;
	}

	/**
	 * A winding trail of $count positions with elevations from ($lng, $lat), 15 m a step.
	 *
	 * @param float $lng   Start longitude.
	 * @param float $lat   Start latitude.
	 * @param int   $count Positions.
	 * @return array<int, array{0: float, 1: float, 2: float}>
	 */
	private static function trail( float $lng, float $lat, int $count = 3000 ): array {
		$positions = array();
		$heading   = 0.3;
		for ( $i = 0; $i < $count; $i++ ) {
			$positions[] = array( round( $lng, 7 ), round( $lat, 7 ), round( 1000 + 300 * sin( $i / 400 ), 1 ) );
			$heading    += 0.09 * sin( $i / 23 ) + 0.04 * sin( $i / 7 );
			$lat        += 15 * cos( $heading ) / 111320;
			$lng        += 15 * sin( $heading ) / ( 111320 * cos( deg2rad( $lat ) ) );
		}
		return $positions;
	}

	/**
	 * A square ring, anticlockwise (clockwise for a hole).
	 *
	 * @param float $west  West.
	 * @param float $south South.
	 * @param float $size  Side in degrees.
	 * @param bool  $hole  Whether clockwise.
	 * @return array<int, array{0: float, 1: float}>
	 */
	private static function square( float $west, float $south, float $size, bool $hole = false ): array {
		$ring = array( array( $west, $south ), array( $west + $size, $south ), array( $west + $size, $south + $size ), array( $west, $south + $size ), array( $west, $south ) );
		return $hole ? array_reverse( $ring ) : $ring;
	}

	/**
	 * A tile's answer.
	 *
	 * @param int                   $z       Zoom.
	 * @param int                   $x       Column.
	 * @param int                   $y       Row.
	 * @param array<string, string> $query   Query parameters.
	 * @param array<string, string> $headers Request headers.
	 */
	private function tile( int $z, int $x, int $y, array $query = array(), array $headers = array() ): \WP_REST_Response {
		return $this->rest( 'GET', "/cairn/v1/shapes/tiles/$z/$x/$y", $query, $headers );
	}

	/**
	 * A tile's features by id.
	 *
	 * @param int                   $z     Zoom.
	 * @param int                   $x     Column.
	 * @param int                   $y     Row.
	 * @param array<string, string> $query Query parameters.
	 * @return array<int, array<string, mixed>>
	 */
	private function features( int $z, int $x, int $y, array $query = array() ): array {
		$response = $this->tile( $z, $x, $y, $query );
		$this->assertSame( 200, $response->get_status(), (string) wp_json_encode( $response->get_data() ) );
		$data = $response->get_data();
		$this->assertSame( 'FeatureCollection', $data['type'] );
		return array_column( $data['features'], null, 'id' );
	}

	/**
	 * The tile column and row of a position at zoom z (Web Mercator).
	 *
	 * @param float $lng Longitude.
	 * @param float $lat Latitude.
	 * @param int   $z   Zoom.
	 * @return array{0: int, 1: int}
	 */
	private static function tile_of( float $lng, float $lat, int $z ): array {
		$n   = 2 ** $z;
		$rad = deg2rad( max( -85.0511, min( 85.0511, $lat ) ) );
		return array(
			(int) min( $n - 1, max( 0, floor( ( $lng + 180 ) / 360 * $n ) ) ),
			(int) min( $n - 1, max( 0, floor( ( 1 - log( tan( $rad ) + 1 / cos( $rad ) ) / M_PI ) / 2 * $n ) ) ),
		);
	}

	/**
	 * Whether a shape's bbox meets a tile grown by 8 of its 512 pixels on each side (the first and
	 * last rows reaching the poles).
	 *
	 * @param float[] $bbox Shape's bbox.
	 * @param int     $z    Zoom.
	 * @param int     $x    Column.
	 * @param int     $y    Row.
	 */
	private static function meets( array $bbox, int $z, int $x, int $y ): bool {
		$n     = 2 ** $z;
		$grow  = 8 / 512;
		$lng   = static fn( float $c ): float => $c / $n * 360 - 180;
		$lat   = static fn( float $r ): float => rad2deg( atan( sinh( M_PI * ( 1 - 2 * $r / $n ) ) ) );
		$north = 0 === $y ? 90 : $lat( $y - $grow );
		$south = $n - 1 === $y ? -90 : $lat( $y + 1 + $grow );
		return $bbox[0] <= $lng( $x + 1 + $grow ) && $bbox[2] >= $lng( $x - $grow ) && $bbox[1] <= $north && $bbox[3] >= $south;
	}

	/**
	 * Bad coordinates and filters.
	 *
	 * @return array<string, array{0: string, 1: array<string, string>, 2: string}>
	 */
	public function bad_requests(): array {
		return array(
			'zoom too high'        => array( '23/0/0', array(), 'z must be an integer from 0 to 22.' ),
			'zoom not a number'    => array( 'a/0/0', array(), 'z must be an integer from 0 to 22.' ),
			'zoom negative'        => array( '-1/0/0', array(), 'z must be an integer from 0 to 22.' ),
			'column not a number'  => array( '3/1.5/0', array(), 'x must be an integer from 0 to 2^z - 1.' ),
			'row with a sign'      => array( '3/0/+1', array(), 'y must be an integer from 0 to 2^z - 1.' ),
			'column past the zoom' => array( '1/2/0', array(), 'At zoom 1, x and y must be integers from 0 to 1.' ),
			'row past the zoom'    => array( '2/0/4', array(), 'At zoom 2, x and y must be integers from 0 to 3.' ),
			'bad group'            => array( '0/0/0', array( 'group' => 'Trails!' ), 'group must be a comma-separated list of at most 50 marker group slugs.' ),
			'bad include'          => array( '0/0/0', array( 'include' => '0,a' ), 'include must be a comma-separated list of at most 500 marker ids.' ),
			'bad version'          => array( '0/0/0', array( 'v' => 'no spaces' ), 'v must be a version token: 1 to 64 letters, digits, dots, dashes or underscores.' ),
			'_fields'              => array( '0/0/0', array( '_fields' => 'id' ), '_fields is not supported by the shape tiles: each is served as one pre-built GeoJSON document.' ),
		);
	}

	/**
	 * Bad coordinates and filters answer 400 with a message naming the parameter.
	 *
	 * @dataProvider bad_requests
	 *
	 * @param string                $path    z/x/y.
	 * @param array<string, string> $query   Query parameters.
	 * @param string                $message The message.
	 */
	public function test_bad_requests_answer_400( string $path, array $query, string $message ): void {
		$response = $this->rest( 'GET', "/cairn/v1/shapes/tiles/$path", $query );
		$this->assertSame( 400, $response->get_status() );
		$error = $response->as_error();
		$this->assertInstanceOf( WP_Error::class, $error );
		$messages = array_merge( array( $error->get_error_message() ), array_values( (array) ( $error->get_error_data()['params'] ?? array() ) ) );
		$this->assertContains( $message, $messages, (string) wp_json_encode( $response->get_data() ) );
	}

	/**
	 * Per zoom, a shape is in every tile its box meets (with the buffer) and in no other: a route,
	 * an area with a hole, a line across the meridian and the equator (four tiles at every zoom),
	 * an area by the antimeridian, and a line just east of a tile's edge at zoom 8 (0.01°, within
	 * that tile's 8 pixels of buffer: 0.022°), which the tile west of it holds too.
	 */
	public function test_a_shape_is_in_every_tile_it_meets_and_in_no_other(): void {
		$edge = $this->shape( 'LineString', array( array( 8.4475, 30.1 ), array( 8.9, 30.3 ) ) );
		$this->shape( 'LineString', self::trail( 6.6, 46.5, 800 ) );
		$this->shape( 'Polygon', array( self::square( 10.6, 59.8, 0.3 ), self::square( 10.7, 59.9, 0.05, true ) ) );
		$this->shape( 'LineString', array( array( -0.05, -0.02 ), array( 0.03, 0.04 ) ) );
		$this->shape( 'MultiPolygon', array( array( self::square( 179.5, -17.2, 0.4 ) ), array( self::square( 178.9, -17.6, 0.2 ) ) ) );
		foreach ( array( 0, 2, 5, 8, 11, 12, 14 ) as $z ) {
			$tiles = array();
			foreach ( $this->boxes as $bbox ) {
				list( $x0, $y1 ) = self::tile_of( $bbox[0], $bbox[1], $z );
				list( $x1, $y0 ) = self::tile_of( $bbox[2], $bbox[3], $z );
				$last_x          = min( 2 ** $z - 1, $x1 + 1 );
				$last_y          = min( 2 ** $z - 1, $y1 + 1 );
				for ( $x = max( 0, $x0 - 1 ); $x <= $last_x; $x++ ) {
					for ( $y = max( 0, $y0 - 1 ); $y <= $last_y; $y++ ) {
						$tiles[ "$x/$y" ] = array( $x, $y );
					}
				}
			}
			$seen = array();
			foreach ( $tiles as $key => list( $x, $y ) ) {
				$expected = array_keys( array_filter( $this->boxes, static fn( array $bbox ): bool => self::meets( $bbox, $z, $x, $y ) ) );
				$got      = array_keys( $this->features( $z, $x, $y ) );
				sort( $got );
				$this->assertSame( $expected, $got, "zoom $z, tile $key" );
				$seen = array_merge( $seen, $got );
			}
			$seen = array_values( array_unique( $seen ) );
			sort( $seen );
			$this->assertSame( array_keys( $this->boxes ), $seen, "zoom $z: every shape somewhere" );
		}
		list( $x, $y ) = self::tile_of( 8.4475, 30.1, 8 );
		$this->assertSame( 134, $x );
		$this->assertArrayHasKey( $edge, $this->features( 8, 133, $y ), 'in the buffer of the tile west of it' );
		$this->assertArrayNotHasKey( $edge, $this->features( 8, 132, $y ) );
		$meridian = array_keys( $this->boxes )[3];
		foreach ( array( 1, 6, 13 ) as $z ) {
			$half = 2 ** ( $z - 1 );
			foreach ( array( array( $half - 1, $half - 1 ), array( $half, $half - 1 ), array( $half - 1, $half ), array( $half, $half ) ) as list( $x, $y ) ) {
				$this->assertArrayHasKey( $meridian, $this->features( $z, $x, $y ), "zoom $z: the line across the meridian and the equator is in tile $x/$y" );
			}
		}
	}

	/**
	 * A long route's detail grows with the zoom: a few positions at zoom 0, more at every zoom up
	 * to the full zoom, from which every tile serves the shapes feed's own copy; every copy is the
	 * same whole shape (its ends) in every tile of its zoom.
	 */
	public function test_detail_grows_with_the_zoom_up_to_the_feed_copy(): void {
		$route = $this->shape( 'LineString', self::trail( 7.0, 46.0 ) );
		$feed  = array_column( $this->rest( 'GET', '/cairn/v1/shapes' )->get_data()['features'], null, 'id' )[ $route ];
		$count = static fn( array $feature ): int => count( $feature['geometry']['coordinates'] );
		$last  = 0;
		for ( $z = 0; $z <= 15; $z++ ) {
			list( $x, $y ) = self::tile_of( 7.0, 46.0, $z );
			$feature       = $this->features( $z, $x, $y )[ $route ];
			$this->assertGreaterThanOrEqual( $last, $count( $feature ), "zoom $z keeps at least zoom " . ( $z - 1 ) . "'s positions" );
			$last = $count( $feature );
			if ( $z >= self::FULL_ZOOM ) {
				$this->assertSame( $feed['geometry'], $feature['geometry'], "zoom $z: the feed's copy" );
			}
		}
		$zero = $this->features( 0, 0, 0 )[ $route ];
		$this->assertLessThanOrEqual( 4, $count( $zero ) );
		list( $x, $y ) = self::tile_of( 7.0, 46.0, 8 );
		$eight         = $this->features( 8, $x, $y )[ $route ];
		$this->assertLessThan( $count( $feed ) / 4, $count( $eight ), 'zoom 8: a fraction of the feed\'s positions' );
		$this->assertGreaterThan( $count( $zero ), $count( $eight ) );
		// Not cut at the tile's edge: the whole route, from its start to its end, in each tile.
		$end             = end( $feed['geometry']['coordinates'] );
		list( $ex, $ey ) = self::tile_of( $end[0], $end[1], 11 );
		list( $sx, $sy ) = self::tile_of( 7.0, 46.0, 11 );
		$this->assertNotSame( array( $sx, $sy ), array( $ex, $ey ), 'the route crosses tiles at zoom 11' );
		$this->assertSame( $this->features( 11, $sx, $sy )[ $route ]['geometry'], $this->features( 11, $ex, $ey )[ $route ]['geometry'] );
	}

	/**
	 * Every copy served is a shape the rules accept: rings closed with at least four positions,
	 * crossing nothing, holes inside; lines of two different positions.
	 */
	public function test_every_copy_served_is_a_valid_shape(): void {
		$ids = array(
			$this->shape( 'Polygon', array( self::square( 8, 45, 1 ), self::square( 8.2, 45.2, 0.3, true ), self::square( 8.7, 45.7, 0.0001, true ) ) ),
			$this->shape( 'MultiPolygon', array( array( self::square( 9.5, 45, 0.4 ) ), array( self::square( 9.95, 45.5, 0.00002 ) ) ) ),
			$this->shape( 'MultiLineString', array( self::trail( 8.1, 45.1, 400 ), array( array( 8.3, 45.3 ), array( 8.30001, 45.3 ), array( 8.3, 45.3 ) ) ) ),
		);
		for ( $z = 0; $z <= 13; $z++ ) {
			foreach ( $ids as $id ) {
				list( $x, $y ) = self::tile_of( $this->boxes[ $id ][0], $this->boxes[ $id ][1], $z );
				$features      = $this->features( $z, $x, $y );
				$this->assertArrayHasKey( $id, $features, "zoom $z: nothing disappears" );
				$checked = Geometry_Rule::check( $features[ $id ]['geometry'] );
				$this->assertNotInstanceOf( WP_Error::class, $checked, "zoom $z, shape $id: " . ( $checked instanceof WP_Error ? $checked->get_error_message() : '' ) );
				if ( $id === $ids[1] ) {
					$this->assertCount( 2, $features[ $id ]['geometry']['coordinates'], "zoom $z: the tiny island is still there" );
				}
			}
		}
	}

	/**
	 * Properties are the shapes feed's, of the whole shape (title, groups, bbox, length, ascent,
	 * descent), at every zoom; the elevation profile is left to the popup's answer.
	 */
	public function test_properties_are_those_of_the_whole_shape(): void {
		$route = $this->shape(
			'LineString',
			self::trail( 7.0, 46.0, 2000 ),
			array(
				'post_title' => 'Col &amp; Lake <b>trail</b>',
				'groups'     => array( 'trails', 'summer' ),
			)
		);
		$feed  = array_column( $this->rest( 'GET', '/cairn/v1/shapes' )->get_data()['features'], null, 'id' )[ $route ];
		$this->assertArrayHasKey( 'profile', $feed['properties'] );
		$expected = array_diff_key( $feed['properties'], array( 'profile' => true ) );
		$this->assertSame( array( 'title', 'groups', 'bbox', 'length_m', 'ascent_m', 'descent_m' ), array_keys( $expected ) );
		foreach ( array( 0, 4, 9, 12, 16 ) as $z ) {
			list( $x, $y ) = self::tile_of( 7.0, 46.0, $z );
			$this->assertSame( $expected, $this->features( $z, $x, $y )[ $route ]['properties'], "zoom $z" );
		}
		$popup = $this->rest( 'GET', "/cairn/v1/markers/$route" )->get_data();
		$this->assertSame( $feed['properties']['profile'], $popup['profile'], 'the popup carries the profile' );
		$area = $this->shape( 'Polygon', array( self::square( 9, 45, 0.1 ) ) );
		$this->assertArrayNotHasKey( 'profile', $this->rest( 'GET', "/cairn/v1/markers/$area" )->get_data() );
	}

	/**
	 * The selection's filters: `group` (any of them) and `include`, as the shapes feed's.
	 */
	public function test_filters(): void {
		$trail = $this->shape( 'LineString', array( array( 7, 46 ), array( 7.1, 46.1 ) ), array( 'groups' => array( 'trails' ) ) );
		$both  = $this->shape( 'LineString', array( array( 7.2, 46 ), array( 7.3, 46.1 ) ), array( 'groups' => array( 'trails', 'parks' ) ) );
		$park  = $this->shape( 'Polygon', array( self::square( 7.4, 46, 0.1 ) ), array( 'groups' => array( 'parks' ) ) );
		$none  = $this->shape( 'Polygon', array( self::square( 7.6, 46, 0.1 ) ) );
		$ids   = static fn( array $features ): array => array_keys( $features );
		$this->assertSame( array( $trail, $both, $park, $none ), $ids( $this->features( 0, 0, 0 ) ) );
		$this->assertSame( array( $trail, $both ), $ids( $this->features( 0, 0, 0, array( 'group' => 'trails' ) ) ) );
		$this->assertSame( array( $trail, $both, $park ), $ids( $this->features( 0, 0, 0, array( 'group' => 'parks,trails' ) ) ), 'a shape in two groups once' );
		$this->assertSame( array( $both, $none ), $ids( $this->features( 0, 0, 0, array( 'include' => "$none,$both" ) ) ) );
		$this->assertSame( array(), $ids( $this->features( 0, 0, 0, array( 'group' => 'huts' ) ) ) );
	}

	/**
	 * A strong ETag and 304; immutable only for anonymous visitors asking with the current
	 * version while the tables are complete; kept tiles served as built.
	 */
	public function test_versioned_caching(): void {
		$this->shape( 'LineString', self::trail( 7.0, 46.0, 500 ) );
		$current = ( new Markers_Version() )->get();
		$first   = $this->tile( 3, 4, 2, array( 'v' => $current ) );
		$etag    = $first->get_headers()['ETag'];
		$this->assertMatchesRegularExpression( '/^"[0-9a-f]{32}"$/', $etag );
		$this->assertSame( 'public, max-age=31536000, immutable', $first->get_headers()['Cache-Control'] );
		$this->assertSame( 'public, max-age=60, stale-while-revalidate=60', $this->tile( 3, 4, 2, array( 'v' => 'old-version' ) )->get_headers()['Cache-Control'] );
		$this->assertSame( 'public, max-age=60, stale-while-revalidate=60', $this->tile( 3, 4, 2 )->get_headers()['Cache-Control'] );
		$not_modified = $this->tile( 3, 4, 2, array( 'v' => $current ), array( 'If-None-Match' => $etag ) );
		$this->assertSame( 304, $not_modified->get_status() );
		$this->assertNull( $not_modified->get_data() );
		$this->assertSame( 304, $this->tile( 3, 4, 2, array( 'v' => $current ), array( 'If-None-Match' => substr( $etag, 0, -1 ) . '-gzip"' ) )->get_status(), 'the gzip ETag matches too' );
		$this->assertNotSame( $etag, $this->tile( 3, 4, 3 )->get_headers()['ETag'], 'another tile, another ETag' );
		$this->assertNotSame( $etag, $this->tile( 3, 4, 2, array( 'group' => 'trails' ) )->get_headers()['ETag'], 'another selection, another ETag' );

		// Kept: the second answer reads no shape from the tables.
		$reads = 0;
		$count = static function ( $sql ) use ( &$reads ) {
			$reads += false !== strpos( (string) $sql, 'cairn_shape_zooms' ) ? 1 : 0;
			return $sql;
		};
		add_filter( 'query', $count );
		$again = $this->tile( 3, 4, 2, array( 'v' => $current ) );
		remove_filter( 'query', $count );
		$this->assertSame( $first->get_data(), $again->get_data() );
		$this->assertSame( 0, $reads, 'served from the kept tiles' );

		$this->act_as( 'editor' );
		$this->assertSame( 'private, no-store', $this->tile( 3, 4, 2, array( 'v' => $current ) )->get_headers()['Cache-Control'] );
		wp_set_current_user( 0 );

		$this->index()->start_rebuild();
		$rebuilding = ( new Markers_Version() )->get();
		$this->assertNotSame( $current, $rebuilding, 'a rebuild starts under a new version' );
		$this->assertSame( 'public, max-age=60, stale-while-revalidate=60', $this->tile( 3, 4, 2, array( 'v' => $rebuilding ) )->get_headers()['Cache-Control'], 'never immutable while the tables are rebuilt' );
	}

	/**
	 * A shape changed, trashed or moved to another group is seen at once: the tile's ETag changes
	 * with the markers version, and the next answer shows the change.
	 */
	public function test_changes_are_seen_at_once(): void {
		$route         = $this->shape( 'LineString', self::trail( 7.0, 46.0, 500 ), array( 'groups' => array( 'trails' ) ) );
		list( $x, $y ) = self::tile_of( 7.0, 46.0, 10 );
		$before        = $this->tile( 10, $x, $y, array( 'v' => ( new Markers_Version() )->get() ) );
		$this->assertArrayHasKey( $route, array_column( $before->get_data()['features'], null, 'id' ) );

		Shape_Store::save(
			$route,
			Geometry_Rule::check(
				array(
					'type'        => 'LineString',
					'coordinates' => array(
						array(
							20,
							10,
						),
						array( 20.1, 10.1 ),
					),
				)
			)
		);
		$moved = $this->tile( 10, $x, $y, array(), array( 'If-None-Match' => $before->get_headers()['ETag'] ) );
		$this->assertSame( 200, $moved->get_status(), 'a new ETag' );
		$this->assertSame( array(), $moved->get_data()['features'], 'the route left this tile' );
		list( $nx, $ny ) = self::tile_of( 20, 10, 10 );
		$this->assertSame( array( array( 20, 10 ), array( 20.1, 10.1 ) ), $this->features( 10, $nx, $ny )[ $route ]['geometry']['coordinates'] );

		wp_set_object_terms( $route, array( 'parks' ), Post_Type::TAXONOMY );
		$this->assertSame( array(), $this->features( 0, 0, 0, array( 'group' => 'trails' ) ) );
		$this->assertSame( array( 'parks' ), $this->features( 0, 0, 0, array( 'group' => 'parks' ) )[ $route ]['properties']['groups'] );

		wp_trash_post( $route );
		$this->assertSame( array(), $this->features( 0, 0, 0 ), 'a trashed shape is gone' );
		wp_untrash_post( $route );
		wp_publish_post( $route );
		$this->assertArrayHasKey( $route, $this->features( 0, 0, 0 ), 'published again, back' );

		Shape_Store::save( $route, null );
		$this->assertSame( array(), $this->features( 0, 0, 0 ), 'its shape removed, gone' );
		$this->assertSame( 0, $this->index()->positions( array() ) );
	}

	/**
	 * Shapes written behind WordPress' back are made again by a rebuild: until it ends the tables
	 * are not complete, and maps use the whole feed.
	 */
	public function test_a_rebuild_makes_every_shape_again(): void {
		$route = $this->shape( 'LineString', self::trail( 7.0, 46.0, 500 ) );
		global $wpdb;
		$zooms = Shape_Tile_Schema::table( 'cairn_shape_zooms' );
		$wpdb->query( "DELETE FROM $zooms" ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- a table lost.
		do_action( 'cairn_maps_markers_changed' ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- the plugin's own hook.
		$this->assertFalse( $this->index()->is_ready() );
		$this->assertTrue( $this->index()->rebuild_now() );
		$this->assertTrue( $this->index()->is_ready() );
		$this->assertArrayHasKey( $route, $this->features( 5, 16, 11 ) );
	}

	/**
	 * An import's shapes (written in bulk, without meta hooks) are in the tiles after it.
	 */
	public function test_imported_shapes_are_tiled(): void {
		$this->act_as( 'editor' );
		$request = new \WP_REST_Request( 'POST', '/cairn/v1/markers/import' );
		$request->set_header( 'Content-Type', 'application/geo+json' );
		$request->set_body(
			(string) wp_json_encode(
				array(
					'type'     => 'FeatureCollection',
					'features' => array(
						array(
							'type'       => 'Feature',
							'geometry'   => array(
								'type'        => 'LineString',
								'coordinates' => self::trail( 7.0, 46.0, 600 ),
							),
							'properties' => array( 'title' => 'Imported trail' ),
						),
					),
				)
			)
		);
		$response = rest_get_server()->dispatch( $request );
		$this->assertSame( 200, $response->get_status(), (string) wp_json_encode( $response->get_data() ) );
		wp_set_current_user( 0 );
		$features = $this->features( 0, 0, 0 );
		$this->assertCount( 1, $features );
		$this->assertSame( 'Imported trail', current( $features )['properties']['title'] );
		$this->assertGreaterThan( 0, $this->index()->positions( array() ) );
	}

	/**
	 * An import's batch of points (or posts) costs the shape tiles two reads, not a write per id.
	 */
	public function test_a_batch_of_points_costs_two_reads(): void {
		$ids = array();
		for ( $i = 0; $i < 30; $i++ ) {
			$ids[] = $this->create_marker( array( 'post_title' => "Hut $i" ) );
		}
		$queries = array();
		$count   = static function ( $sql ) use ( &$queries ) {
			if ( false !== strpos( (string) $sql, 'cairn_shape' ) ) {
				$queries[] = $sql;
			}
			return $sql;
		};
		add_filter( 'query', $count );
		$this->index()->sync_many( $ids );
		remove_filter( 'query', $count );
		$this->assertCount( 2, $queries, implode( "\n", $queries ) );
	}

	/**
	 * CORS as the feed: any origin may read by default, the allowed ones only once listed.
	 */
	public function test_cors(): void {
		$this->shape( 'LineString', array( array( 7, 46 ), array( 7.1, 46.1 ) ) );
		$open = $this->serve( '/cairn/v1/shapes/tiles/0/0/0', array(), array( 'Origin' => 'http://localhost:5173' ) );
		$this->assertSame( 200, $open['status'] );
		$this->assertSame( '*', $open['headers']['Access-Control-Allow-Origin'] );
		$this->assertSame( 'ETag', $open['headers']['Access-Control-Expose-Headers'] );
		$this->assertStringContainsString( '"type":"FeatureCollection"', $open['body'] );
	}

	/**
	 * A map's configuration names the shape tiles when its shapes hold at least the threshold's
	 * positions (and the tables are complete), else ''; once known, a render asks nothing.
	 */
	public function test_maps_draw_tiles_only_when_their_shapes_are_heavy(): void {
		$this->shape( 'LineString', self::trail( 7.0, 46.0, 3000 ), array( 'groups' => array( 'trails' ) ) );
		$this->shape( 'Polygon', array( self::square( 9, 45, 0.1 ) ), array( 'groups' => array( 'parks' ) ) );
		$block  = Plugin::instance()->get( 'map_block' );
		$config = static fn( array $markers ): array => $block->client_config( array( 'markers' => $markers ) )['config'];
		$trails = array(
			'source' => 'groups',
			'groups' => array( 'trails' ),
			'ids'    => array(),
		);
		$this->assertSame( '', $config( $trails )['shapeTilesUrl'], 'below the default threshold' );
		$this->assertNotSame( '', $config( $trails )['shapesUrl'] );

		$positions = $this->index()->positions( array( 'groups' => array( 'trails' ) ) );
		add_filter( 'cairn_maps_shape_tile_threshold', static fn(): int => $positions );
		$version = ( new Markers_Version() )->get();
		$url     = $config( $trails )['shapeTilesUrl'];
		$this->assertSame( rest_url( 'cairn/v1/shapes/tiles/{z}/{x}/{y}' ) . ( false === strpos( rest_url(), '?' ) ? '?' : '&' ) . "group=trails&v=$version", $url );
		$parks = array(
			'source' => 'groups',
			'groups' => array( 'parks' ),
			'ids'    => array(),
		);
		$this->assertSame( '', $config( $parks )['shapeTilesUrl'], 'the parks hold fewer' );

		$queries = 0;
		$count   = static function ( $sql ) use ( &$queries ) {
			// The place index's own check (Tile_Config, for clustered maps) aside.
			$queries += false === strpos( (string) $sql, Place_Index::REBUILD_OPTION ) ? 1 : 0;
			return $sql;
		};
		add_filter( 'query', $count );
		$this->assertSame( $url, $config( $trails )['shapeTilesUrl'] );
		remove_filter( 'query', $count );
		$this->assertSame( 0, $queries, 'a known selection is answered without a query of the shapes' );

		$this->index()->start_rebuild();
		$this->assertSame( '', $config( $trails )['shapeTilesUrl'], 'not while the tables are rebuilt' );
		$this->assertTrue( $this->index()->rebuild_now() );
		$this->assertStringContainsString( 'v=' . ( new Markers_Version() )->get(), $config( $trails )['shapeTilesUrl'], 'back, under a new version' );
	}

	/**
	 * Deleting the plugin drops the two tables and the rebuild's event (DROP TABLE runs as DROP
	 * TEMPORARY TABLE inside a test's transaction, so the statements are what is checked).
	 */
	public function test_uninstall_drops_the_tables(): void {
		$this->index()->start_rebuild();
		$this->assertNotFalse( wp_next_scheduled( Shape_Tile_Index::HOOK ) );
		$dropped = array();
		$capture = static function ( $sql ) use ( &$dropped ) {
			if ( preg_match( '/^DROP (?:TEMPORARY )?TABLE IF EXISTS (\S+)$/', trim( (string) $sql ), $match ) ) {
				$dropped[] = $match[1];
			}
			return $sql;
		};
		add_filter( 'query', $capture, 20 );
		( new Uninstaller() )->run();
		remove_filter( 'query', $capture, 20 );
		$this->assertSame( array( Shape_Tile_Schema::table( 'cairn_shape_boxes' ), Shape_Tile_Schema::table( 'cairn_shape_zooms' ) ), array_values( array_intersect( $dropped, array_map( array( Shape_Tile_Schema::class, 'table' ), Shape_Tile_Schema::TABLES ) ) ) );
		$this->assertFalse( wp_next_scheduled( Shape_Tile_Index::HOOK ) );
		$this->assertFalse( get_option( Shape_Tile_Schema::OPTION ) );
		$this->assertFalse( get_option( Shape_Tile_Index::REBUILD_OPTION ) );
	}

	/**
	 * Built tiles are kept in a bounded number of slots: a flood of distinct tile URLs stores no more.
	 */
	public function test_a_flood_of_tiles_stores_a_bounded_amount(): void {
		$this->shape( 'LineString', array( array( 7, 46 ), array( 7.1, 46.1 ) ) );
		$current = ( new Markers_Version() )->get();
		for ( $i = 0; $i < 300; $i++ ) {
			$this->tile( 9, $i, 100, array( 'v' => $current ) );
		}
		global $wpdb;
		$kept = (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->options} WHERE option_name LIKE %s", $wpdb->esc_like( '_transient_' . Shape_Tiles::GROUP . '_' ) . '%' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery -- counting stored rows.
		$this->assertGreaterThan( 0, $kept );
		$this->assertLessThanOrEqual( Shape_Tiles::SLOTS, $kept );
	}
}
