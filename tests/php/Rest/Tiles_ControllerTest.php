<?php
/**
 * Server-clustered tiles, GET /cairn/v1/tiles/<z>/<x>/<y>.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Index\Grid_Clusters;
use Cairn\Maps\Index\Morton;
use Cairn\Maps\Index\Place_Index;
use Cairn\Maps\Index\Tile_Cache;
use Cairn\Maps\Index\Tile_Radii;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Plugin;
use Cairn\Maps\Rest\Tiles_Controller;
use Cairn\Maps\Tests\TestCase;

/**
 * Tiles from a seeded index, through the real REST server: every place counted once per zoom,
 * the filters, validation, HTTP caching and bounded storage.
 *
 * @since 0.6.0
 */
final class Tiles_ControllerTest extends TestCase {

	/**
	 * The seeded places: id => [lat, lng, groups, title].
	 *
	 * @var array<int, array{0: float, 1: float, 2: string[], 3: string}>
	 */
	private array $places = array();

	/**
	 * Seeds markers in three towns and across the world, some in groups, through the index's own
	 * hooks (publishing a marker indexes it).
	 */
	protected function set_up(): void {
		parent::set_up();
		$this->index()->rebuild_now();
		$towns = array(
			'Paris'  => array( 48.8566, 2.3522, array( 'cafes' ) ),
			'London' => array( 51.5072, -0.1276, array( 'parks' ) ),
			'Lima'   => array( -12.0464, -77.0428, array() ),
		);
		$i     = 0;
		foreach ( $towns as $town => $place ) {
			for ( $k = 0; $k < 12; $k++ ) {
				$lat    = $place[0] + ( ( $k % 4 ) - 1.5 ) * 0.01 + $k * 0.0007;
				$lng    = $place[1] + ( intdiv( $k, 4 ) - 1 ) * 0.013;
				$groups = 0 === $k % 5 ? array( 'cafes', 'parks' ) : $place[2];
				$this->seed( $lat, $lng, $groups, "$town Café " . ( ++$i ) );
			}
		}
		foreach ( array( array( 64.1, -21.9 ), array( -33.9, 151.2 ), array( 35.7, 139.7 ), array( -54.8, -68.3 ), array( 0.1, 179.9 ), array( 0.1, -179.9 ) ) as $k => $far ) {
			$this->seed( $far[0], $far[1], 0 === $k % 2 ? array( 'parks' ) : array(), 'Lonely place ' . ( ++$i ) );
		}
	}

	/**
	 * The place index.
	 */
	private function index(): Place_Index {
		$index = Plugin::instance()->get( 'place_index' );
		$this->assertInstanceOf( Place_Index::class, $index );
		return $index;
	}

	/**
	 * Creates one marker and remembers it.
	 *
	 * @param float    $lat    Latitude.
	 * @param float    $lng    Longitude.
	 * @param string[] $groups Group slugs.
	 * @param string   $title  Title.
	 */
	private function seed( float $lat, float $lng, array $groups, string $title ): int {
		$id                  = $this->create_marker(
			array(
				'post_title' => $title,
				'lat'        => $lat,
				'lng'        => $lng,
				'groups'     => $groups,
			)
		);
		$this->places[ $id ] = array( $lat, $lng, $groups, $title );
		return $id;
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
		return $this->rest( 'GET', "/cairn/v1/tiles/$z/$x/$y", $query, $headers );
	}

	/**
	 * A tile's features.
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
		return $data['features'];
	}

	/**
	 * The tile z/x/y holding a position, as [x, y].
	 *
	 * @param float $lat Latitude.
	 * @param float $lng Longitude.
	 * @param int   $z   Zoom.
	 * @return array{0: int, 1: int}
	 */
	private static function tile_of( float $lat, float $lng, int $z ): array {
		return Morton::tile_of( Morton::cell( Morton::code( $lat, $lng ), $z ) );
	}

	/**
	 * The seeded places a filter keeps (as the engine would): ids.
	 *
	 * @param string[] $selection Group slugs of the selection (empty: all).
	 * @param string[] $hidden    Groups switched off.
	 * @param string   $word      A word prefix of the title ('' for none).
	 * @return int[]
	 */
	private function expected( array $selection = array(), array $hidden = array(), string $word = '' ): array {
		$ids = array();
		foreach ( $this->places as $id => $place ) {
			$groups = $place[2];
			if ( array() !== $selection && array() === array_intersect( $groups, $selection ) ) {
				continue;
			}
			if ( array() !== $groups && array() === array_diff( $groups, $hidden ) ) {
				continue;
			}
			if ( '' !== $word && 1 !== preg_match( '/\b' . preg_quote( $word, '/' ) . '/iu', remove_accents( $place[3] ) ) ) {
				continue;
			}
			$ids[] = $id;
		}
		return $ids;
	}

	/**
	 * Per zoom, the tiles around the kept places answer clusters and points that add up to the
	 * whole selection: no point and no cluster comes twice, each feature lies in its tile, and
	 * each point is a kept place of its tile. (A cluster may hold places of a neighbouring tile:
	 * tiles cluster as supercluster does, across their edges.)
	 *
	 * @dataProvider filters
	 *
	 * @param array<string, string> $query    Query parameters.
	 * @param string[]              $groups   The selection.
	 * @param string[]              $hidden   Groups switched off.
	 * @param string                $word     Search word.
	 */
	public function test_tiles_count_every_kept_place_once_per_zoom( array $query, array $groups, array $hidden, string $word ): void {
		$kept = $this->expected( $groups, $hidden, $word );
		$this->assertNotEmpty( $kept );
		foreach ( array( 0, 2, 5, 8, 11, 13, 16, 17 ) as $z ) {
			$by_tile = array();
			foreach ( $kept as $id ) {
				list( $x, $y ) = self::tile_of( $this->places[ $id ][0], $this->places[ $id ][1], $z );
				for ( $dx = -1; $dx <= 1; $dx++ ) {
					for ( $dy = -1; $dy <= 1; $dy++ ) {
						if ( min( $x + $dx, $y + $dy ) >= 0 && max( $x + $dx, $y + $dy ) < 2 ** $z ) {
							$by_tile[ ( $x + $dx ) . '/' . ( $y + $dy ) ] = $by_tile[ ( $x + $dx ) . '/' . ( $y + $dy ) ] ?? array();
						}
					}
				}
				$by_tile[ "$x/$y" ][] = $id;
			}
			$seen  = array();
			$total = 0;
			foreach ( $by_tile as $key => $ids ) {
				list( $x, $y ) = array_map( 'intval', explode( '/', $key ) );
				foreach ( $this->features( $z, $x, $y, $query ) as $feature ) {
					$this->assertNotContains( $feature['id'], $seen, "zoom $z: feature {$feature['id']} in two tiles" );
					$seen[]            = $feature['id'];
					list( $lng, $lat ) = $feature['geometry']['coordinates'];
					$this->assertSame( array( $x, $y ), self::tile_of( $lat, $lng, $z ), "zoom $z: a feature outside its tile" );
					if ( ! empty( $feature['properties']['cluster'] ) ) {
						$total += $feature['properties']['point_count'];
					} else {
						$this->assertContains( $feature['id'], $ids, "zoom $z: point {$feature['id']} is a kept place of this tile" );
						++$total;
					}
				}
			}
			$this->assertSame( count( $kept ), $total, "zoom $z counts the selection" );
		}
	}

	/**
	 * Filters and what they keep.
	 *
	 * @return array<string, array{0: array<string, string>, 1: string[], 2: string[], 3: string}>
	 */
	public function filters(): array {
		return array(
			'all'             => array( array(), array(), array(), '' ),
			'a group'         => array( array( 'group' => 'cafes' ), array( 'cafes' ), array(), '' ),
			'groups, hidden'  => array(
				array(
					'group'  => 'parks,cafes',
					'hidden' => 'parks',
				),
				array( 'cafes', 'parks' ),
				array( 'parks' ),
				'',
			),
			'hidden'          => array( array( 'hidden' => 'cafes' ), array(), array( 'cafes' ), '' ),
			'search title'    => array( array( 'q' => 'LONEL' ), array(), array(), 'lonel' ),
			'search accented' => array(
				array(
					'q'      => 'café',
					'hidden' => 'parks',
				),
				array(),
				array( 'parks' ),
				'cafe',
			),
		);
	}

	/**
	 * Features are shaped as the runtime's engine makes them.
	 */
	public function test_features_are_shaped_as_the_engine_makes_them(): void {
		list( $x, $y ) = self::tile_of( 48.8566, 2.3522, 5 );
		$features      = $this->features( 5, $x, $y );
		$this->assertCount( 1, $features, 'the twelve places of Paris are one cluster at zoom 5' );
		$cluster = $features[0];
		$this->assertSame( 'Feature', $cluster['type'] );
		$this->assertSame( 'Point', $cluster['geometry']['type'] );
		$this->assertSame( $cluster['id'], $cluster['properties']['cluster_id'] );
		$this->assertGreaterThanOrEqual( Grid_Clusters::ID_BASE, $cluster['id'] );
		$this->assertEqualsCanonicalizing( array( 'cluster', 'cluster_id', 'point_count', 'point_count_abbreviated', 'expansion_zoom' ), array_keys( $cluster['properties'] ) );
		$this->assertTrue( $cluster['properties']['cluster'] );
		$this->assertSame( 12, $cluster['properties']['point_count'] );
		$this->assertSame( 12, $cluster['properties']['point_count_abbreviated'] );
		$this->assertSame( 11, $cluster['properties']['expansion_zoom'], 'supercluster splits the twelve at zoom 11' );
		$this->assertEqualsWithDelta( 48.8566, $cluster['geometry']['coordinates'][1], 0.02 );

		list( $x, $y ) = self::tile_of( 64.1, -21.9, 5 );
		$points        = $this->features( 5, $x, $y );
		$this->assertCount( 1, $points );
		$id = array_search( array( 64.1, -21.9, array( 'parks' ), 'Lonely place 37' ), $this->places, true );
		$this->assertSame(
			array(
				'type'       => 'Feature',
				'id'         => $id,
				'geometry'   => array(
					'type'        => 'Point',
					'coordinates' => array( -21.9, 64.1 ),
				),
				'properties' => array(
					'groups' => array( 'parks' ),
					'title'  => 'Lonely place 37',
				),
			),
			$points[0]
		);
	}

	/**
	 * Above the cluster max zoom a tile holds only points.
	 */
	public function test_above_maxzoom_only_points(): void {
		list( $x, $y ) = self::tile_of( 48.8566, 2.3522, 5 );
		$this->assertTrue( ! empty( $this->features( 5, $x, $y, array( 'maxzoom' => '5' ) )[0]['properties']['cluster'] ) );
		list( $x, $y ) = self::tile_of( 48.8566, 2.3522, 6 );
		$features      = $this->features( 6, $x, $y, array( 'maxzoom' => '5' ) );
		$this->assertCount( 12, $features );
		foreach ( $features as $feature ) {
			$this->assertArrayNotHasKey( 'cluster', $feature['properties'] );
		}
	}

	/**
	 * Abbreviated counts as engine.ts abbreviate().
	 */
	public function test_abbreviated_counts(): void {
		$this->assertSame( 999, \Cairn\Maps\Index\Tile_Builder::abbreviate( 999 ) );
		$this->assertSame( '1k', \Cairn\Maps\Index\Tile_Builder::abbreviate( 1000 ) );
		$this->assertSame( '1.3k', \Cairn\Maps\Index\Tile_Builder::abbreviate( 1250 ) );
		$this->assertSame( '10k', \Cairn\Maps\Index\Tile_Builder::abbreviate( 9960 ) );
		$this->assertSame( '12k', \Cairn\Maps\Index\Tile_Builder::abbreviate( 12345 ) );
	}

	/**
	 * Bad parameters, each with what its message names.
	 *
	 * @return array<string, array{0: string, 1: array<string, string>, 2: string}>
	 */
	public function bad_params(): array {
		$long = str_repeat( 'é', 201 );
		return array(
			'z above 17'       => array( '18/0/0', array(), 'z must be' ),
			'z negative'       => array( '-1/0/0', array(), 'z must be' ),
			'z not an integer' => array( '1.5/0/0', array(), 'z must be' ),
			'z a word'         => array( 'abc/0/0', array(), 'z must be' ),
			'x out of range'   => array( '1/2/0', array(), 'x and y must be' ),
			'y out of range'   => array( '2/0/4', array(), 'x and y must be' ),
			'x exponent'       => array( '3/1e1/0', array(), 'x must be' ),
			'y negative'       => array( '3/0/-1', array(), 'y must be' ),
			'radius small'     => array( '0/0/0', array( 'radius' => '9' ), 'radius must be' ),
			'radius big'       => array( '0/0/0', array( 'radius' => '201' ), 'radius must be' ),
			'radius a number'  => array( '0/0/0', array( 'radius' => '80.5' ), 'radius must be' ),
			'maxzoom big'      => array( '0/0/0', array( 'maxzoom' => '17' ), 'maxzoom must be' ),
			'maxzoom word'     => array( '0/0/0', array( 'maxzoom' => 'max' ), 'maxzoom must be' ),
			'q too long'       => array( '0/0/0', array( 'q' => $long ), 'q must be' ),
			'q not utf-8'      => array( '0/0/0', array( 'q' => "caf\xE9" ), 'q must be' ),
			'v bad'            => array( '0/0/0', array( 'v' => 'a b' ), 'v must be' ),
			'v too long'       => array( '0/0/0', array( 'v' => str_repeat( 'a', 65 ) ), 'v must be' ),
			'group bad'        => array( '0/0/0', array( 'group' => 'Cafés' ), 'group must be' ),
			'hidden bad'       => array( '0/0/0', array( 'hidden' => ',parks' ), 'hidden must be' ),
			'_fields'          => array( '0/0/0', array( '_fields' => 'id' ), '_fields is not supported' ),
		);
	}

	/**
	 * Each bad parameter answers 400 `rest_invalid_param` with its message, never a 500.
	 *
	 * @dataProvider bad_params
	 *
	 * @param string                $path    z/x/y.
	 * @param array<string, string> $query   Query parameters.
	 * @param string                $message Start of the message.
	 */
	public function test_bad_params_answer_400_with_a_message( string $path, array $query, string $message ): void {
		$response = $this->rest( 'GET', '/cairn/v1/tiles/' . $path, $query );
		$this->assertSame( 400, $response->get_status() );
		$this->assertSame( 'rest_invalid_param', $response->get_data()['code'] );
		$this->assertStringContainsString( $message, (string) wp_json_encode( $response->get_data(), JSON_UNESCAPED_UNICODE ) );
	}

	/**
	 * A search of 200 characters in any script is fine; trimmed, up to 200.
	 */
	public function test_a_long_search_within_the_bound_answers(): void {
		$this->assertSame( array(), $this->features( 0, 0, 0, array( 'q' => '  ' . str_repeat( '東', 200 ) . '  ' ) ) );
		$this->assertSame( $this->features( 0, 0, 0 ), $this->features( 0, 0, 0, array( 'q' => '%_\\ !' ) ), 'no word: no search' );
	}

	/**
	 * A strong ETag; 304 on a match, with the same headers.
	 */
	public function test_etag_and_304(): void {
		$first = $this->tile( 0, 0, 0 );
		$etag  = $first->get_headers()['ETag'];
		$this->assertMatchesRegularExpression( '/^"[0-9a-f]{32}"$/', $etag );
		$this->assertSame( $etag, $this->tile( 0, 0, 0 )->get_headers()['ETag'] );
		$again = $this->tile( 0, 0, 0, array(), array( 'If-None-Match' => $etag ) );
		$this->assertSame( 304, $again->get_status() );
		$this->assertNull( $again->get_data() );
		$this->assertNotSame( $etag, $this->tile( 0, 0, 0, array( 'hidden' => 'parks' ) )->get_headers()['ETag'], 'another filter, another tag' );
	}

	/**
	 * Served over the REST server: the body as built, geo+json, CORS like the feed.
	 */
	public function test_served_as_geojson_with_cors(): void {
		$served = $this->serve( '/cairn/v1/tiles/0/0/0', array(), array( 'Origin' => 'https://front.example' ) );
		$this->assertSame( 200, $served['status'] );
		$this->assertStringStartsWith( Tiles_Controller::CONTENT_TYPE, $served['headers']['Content-Type'] );
		$this->assertSame( '*', $served['headers']['Access-Control-Allow-Origin'] ?? null );
		$data = json_decode( $served['body'], true );
		$this->assertSame( 'FeatureCollection', $data['type'] );
		$this->assertSame( count( $this->places ), array_sum( array_map( static fn( $f ) => $f['properties']['point_count'] ?? 1, $data['features'] ) ) );
	}

	/**
	 * `immutable` only for the current version and anonymous visitors.
	 */
	public function test_cache_control_is_immutable_only_for_the_current_version(): void {
		$current = ( new Markers_Version() )->get();
		$this->assertSame( Tiles_Controller::IMMUTABLE_CACHE_CONTROL, $this->tile( 0, 0, 0, array( 'v' => $current ) )->get_headers()['Cache-Control'] );
		$this->assertSame( 'public, max-age=60, stale-while-revalidate=60', $this->tile( 0, 0, 0, array( 'v' => 'old-version' ) )->get_headers()['Cache-Control'] );
		$this->assertSame( 'public, max-age=60, stale-while-revalidate=60', $this->tile( 0, 0, 0 )->get_headers()['Cache-Control'] );
		$this->act_as( 'editor' );
		$this->assertSame( 'private, no-store', $this->tile( 0, 0, 0, array( 'v' => $current ) )->get_headers()['Cache-Control'] );
	}

	/**
	 * A place that moves changes its tile (ETag and answer), and leaves a far tile's ETag alone.
	 */
	public function test_a_changed_place_changes_its_tile_only(): void {
		list( $px, $py ) = self::tile_of( 48.8566, 2.3522, 9 );
		list( $lx, $ly ) = self::tile_of( 51.5072, -0.1276, 9 );
		$paris           = $this->tile( 9, $px, $py );
		$london          = $this->tile( 9, $lx, $ly );
		$id              = (int) array_key_first( $this->places );
		$this->assertSame( 'Paris Café 1', get_the_title( $id ) );
		update_post_meta( $id, 'cairn_lat', 48.87 );

		$moved = $this->tile( 9, $px, $py );
		$this->assertNotSame( $paris->get_headers()['ETag'], $moved->get_headers()['ETag'] );
		$this->assertNotSame( wp_json_encode( $paris->get_data() ), wp_json_encode( $moved->get_data() ) );
		$this->assertSame( $london->get_headers()['ETag'], $this->tile( 9, $lx, $ly )->get_headers()['ETag'] );

		wp_update_post(
			array(
				'ID'          => $id,
				'post_status' => 'draft',
			)
		);
		$gone  = $this->tile( 9, $px, $py );
		$count = array_sum( array_map( static fn( $f ) => $f['properties']['point_count'] ?? 1, $gone->get_data()['features'] ) );
		$this->assertSame( 11, $count, 'an unpublished place leaves its tile' );
		$this->assertSame( $london->get_headers()['ETag'], $this->tile( 9, $lx, $ly )->get_headers()['ETag'] );
	}

	/**
	 * A flood of distinct tiles and filters stores at most the cache's slots.
	 */
	public function test_a_flood_of_tiles_keeps_storage_bounded(): void {
		global $wpdb;
		add_filter( 'cairn_maps_tile_cache_slots', static fn() => 8 );
		$current = ( new Markers_Version() )->get();
		for ( $k = 0; $k < 60; $k++ ) {
			$this->tile(
				4,
				$k % 16,
				intdiv( $k, 16 ),
				array(
					'q' => "w$k",
					'v' => $current,
				)
			);
			$this->tile( 17, $k, $k, array( 'v' => $current ) );
		}
		$rows = (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM $wpdb->options WHERE option_name LIKE %s", '%' . $wpdb->esc_like( Tile_Cache::GROUP ) . '%' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery
		$this->assertGreaterThan( 0, $rows, 'tiles are kept' );
		$this->assertLessThanOrEqual( 2 * 8, $rows, 'a value and a timeout row per slot at most' );
	}

	/**
	 * A kept tile is served from the cache: the same body without reading the places again.
	 */
	public function test_a_kept_tile_is_not_built_again(): void {
		$current = array( 'v' => ( new Markers_Version() )->get() );
		$first   = wp_json_encode( $this->tile( 2, 2, 1, $current )->get_data() );
		$queries = array();
		$log     = static function ( $sql ) use ( &$queries ) {
			$queries[] = $sql;
			return $sql;
		};
		add_filter( 'query', $log );
		$second = wp_json_encode( $this->tile( 2, 2, 1, $current )->get_data() );
		remove_filter( 'query', $log );
		$this->assertSame( $first, $second );
		$this->assertSame( array(), preg_grep( '/cairn_places\b/', $queries ), 'no read of the places' );
	}

	/**
	 * The tiles controller.
	 */
	private function controller(): Tiles_Controller {
		$controller = Plugin::instance()->get( 'tiles' );
		$this->assertInstanceOf( Tiles_Controller::class, $controller );
		return $controller;
	}

	/**
	 * An anonymous conditional request that still matches is answered before `init`, with the
	 * REST route's headers; a changed tile, a search, credentials or an unknown parameter go on
	 * to the REST server.
	 */
	public function test_early_not_modified(): void {
		$current = ( new Markers_Version() )->get();
		$query   = array(
			'rest_route' => '/cairn/v1/tiles/2/2/1',
			'v'          => $current,
			'hidden'     => 'parks',
		);
		$etag    = $this->tile( 2, 2, 1, array_diff_key( $query, array( 'rest_route' => 1 ) ) )->get_headers()['ETag'];
		$server  = array(
			'REQUEST_METHOD'       => 'GET',
			'HTTP_IF_NONE_MATCH'   => substr( $etag, 0, -1 ) . '-gzip"',
			'HTTP_ACCEPT_ENCODING' => 'gzip',
		);
		$headers = $this->controller()->early_not_modified_headers( $server, $query, array() );
		$this->assertIsArray( $headers );
		$this->assertSame( substr( $etag, 0, -1 ) . '-gzip"', $headers['ETag'] );
		$this->assertSame( Tiles_Controller::IMMUTABLE_CACHE_CONTROL, $headers['Cache-Control'] );
		$this->assertSame( '*', $headers['Access-Control-Allow-Origin'] );

		$this->assertNull( $this->controller()->early_not_modified_headers( $server, array( 'q' => 'paris' ) + $query, array() ), 'a search' );
		$this->assertNull( $this->controller()->early_not_modified_headers( $server, array( 'page' => '2' ) + $query, array() ), 'another parameter' );
		$this->assertNull( $this->controller()->early_not_modified_headers( $server, array( 'radius' => '9' ) + $query, array() ), 'a bad parameter' );
		$this->assertNull( $this->controller()->early_not_modified_headers( $server, array( 'rest_route' => '/cairn/v1/tiles/2/4/1' ) + $query, array() ), 'a tile out of range' );
		$this->assertNull( $this->controller()->early_not_modified_headers( array( 'HTTP_X_WP_NONCE' => 'abc' ) + $server, $query, array() ), 'credentials' );
		$id = (int) array_key_first( $this->places );
		update_post_meta( $id, 'cairn_lng', 2.4 );
		$this->assertNull( $this->controller()->early_not_modified_headers( $server, $query, array() ), 'the tile changed' );
	}

	/**
	 * An anonymous GET of a kept tile is answered before `init` with the body and headers the
	 * REST route gives (gzip when accepted); a tile not kept yet, a search, credentials, a HEAD or
	 * a changed tile go on to the REST server.
	 */
	public function test_early_kept_tile(): void {
		$current = ( new Markers_Version() )->get();
		$query   = array(
			'rest_route' => '/cairn/v1/tiles/2/2/1',
			'v'          => $current,
		);
		$server  = array( 'REQUEST_METHOD' => 'GET' );
		$this->assertNull( $this->controller()->early_kept_tile( $server, $query, array() ), 'not kept before its first answer' );

		$response = $this->tile( 2, 2, 1, array( 'v' => $current ) );
		$kept     = $this->controller()->early_kept_tile( $server, $query, array() );
		$this->assertIsArray( $kept );
		$this->assertSame( wp_json_encode( $response->get_data() ), wp_json_encode( json_decode( $kept['body'], true ) ), 'the same tile as the REST route' );
		$this->assertSame( $response->get_headers()['ETag'], $kept['headers']['ETag'] );
		$this->assertSame( Tiles_Controller::IMMUTABLE_CACHE_CONTROL, $kept['headers']['Cache-Control'] );
		$this->assertSame( '*', $kept['headers']['Access-Control-Allow-Origin'] );
		$this->assertStringStartsWith( 'application/geo+json', $kept['headers']['Content-Type'] );

		$gzip = $this->controller()->early_kept_tile( array( 'HTTP_ACCEPT_ENCODING' => 'gzip, br' ) + $server, $query, array() );
		$this->assertIsArray( $gzip );
		$this->assertSame( 'gzip', $gzip['headers']['Content-Encoding'] );
		$this->assertSame( $kept['body'], gzdecode( $gzip['body'] ) );
		$this->assertSame( substr( $kept['headers']['ETag'], 0, -1 ) . '-gzip"', $gzip['headers']['ETag'] );

		$this->assertNull( $this->controller()->early_kept_tile( array( 'REQUEST_METHOD' => 'HEAD' ), $query, array() ), 'a HEAD' );
		$this->assertNull( $this->controller()->early_kept_tile( $server, array( 'q' => 'paris' ) + $query, array() ), 'a search' );
		$this->assertNull( $this->controller()->early_kept_tile( array( 'HTTP_X_WP_NONCE' => 'abc' ) + $server, $query, array() ), 'credentials' );
		$this->assertNull( $this->controller()->early_kept_tile( $server, array( 'rest_route' => '/cairn/v1/tiles/2/1/1' ) + $query, array() ), 'another tile, not kept' );
		$id = (int) array_key_first( $this->places );
		update_post_meta( $id, 'cairn_lng', 2.4 );
		$this->assertNull( $this->controller()->early_kept_tile( $server, $query, array() ), 'the tile changed' );
	}

	/**
	 * Two tiles whose first slots meet are both kept (the cache is two-way): a visitor's tiles
	 * do not throw each other out.
	 */
	public function test_tiles_meeting_in_a_slot_are_both_kept(): void {
		add_filter( 'cairn_maps_tile_cache_slots', static fn() => 64 );
		$first = array();
		$pair  = null;
		for ( $i = 0; null === $pair && $i < 10000; $i++ ) {
			$key  = md5( "tile $i" );
			$hash = md5( $key );
			$a    = hexdec( substr( $hash, 0, 7 ) ) % 64;
			$b    = hexdec( substr( $hash, 7, 7 ) ) % 64;
			if ( $a === $b ) {
				continue;
			}
			if ( isset( $first[ $a ] ) && $first[ $a ][1] !== $b ) {
				$pair = array( $first[ $a ][0], $key );
			}
			$first[ $a ] ??= array( $key, $b );
		}
		$this->assertNotNull( $pair );
		$cache = new Tile_Cache();
		$cache->set( $pair[0], '{"one":1}' );
		$cache->set( $pair[1], '{"two":2}' );
		$this->assertSame( '{"one":1}', $cache->get( $pair[0] ) );
		$this->assertSame( '{"two":2}', $cache->get( $pair[1] ) );
	}

	/**
	 * A key whose two slots are both taken replaces the older tile of the two (kept the longest),
	 * whichever of its slots that is: the newer one stays.
	 */
	public function test_a_full_pair_of_slots_loses_its_older_tile(): void {
		add_filter( 'cairn_maps_tile_cache_slots', static fn() => 64 );
		$slots = new \Cairn\Maps\Support\Slot_Cache( Tile_Cache::GROUP, Tile_Cache::slots(), true );
		foreach ( array( 0, 1 ) as $older ) {
			$key = '';
			for ( $i = 0; '' === $key && $i < 1000; $i++ ) {
				$pair = $slots->slots_of( md5( "tile $older $i" ) );
				$key  = 2 === count( $pair ) ? md5( "tile $older $i" ) : '';
			}
			$this->assertNotSame( '', $key );
			$pair = $slots->slots_of( $key );
			// Two tiles already there, the one in the key's slot $older stored an hour earlier.
			foreach ( $pair as $n => $slot ) {
				set_transient( Tile_Cache::GROUP . '_' . $slot, array( "other-$older-$n", "{\"n\":$n}", time() - ( $n === $older ? 3600 : 60 ) ), Tile_Cache::TTL );
			}
			$cache = new Tile_Cache();
			$cache->set( $key, '{"new":1}' );
			$this->assertSame( '{"new":1}', $cache->get( $key ) );
			$held = array_map( static fn( $slot ) => get_transient( Tile_Cache::GROUP . '_' . $slot )[0] ?? null, $pair );
			$this->assertSame( $key, $held[ $older ], "the older tile (slot $older of the pair) was replaced" );
			$this->assertSame( "other-$older-" . ( 1 - $older ), $held[ 1 - $older ], 'the newer one stays' );
		}
	}

	/**
	 * While the index is rebuilt, tiles are answered but neither kept nor sent as immutable.
	 */
	public function test_during_a_rebuild_tiles_are_not_kept(): void {
		global $wpdb;
		$this->index()->start_rebuild();
		$current = ( new Markers_Version() )->get();
		$this->assertNotSame( Tiles_Controller::IMMUTABLE_CACHE_CONTROL, $this->tile( 1, 1, 0, array( 'v' => $current ) )->get_headers()['Cache-Control'] );
		$rows = (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM $wpdb->options WHERE option_name LIKE %s", '%' . $wpdb->esc_like( Tile_Cache::GROUP ) . '%' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery
		$this->assertSame( 0, $rows );
	}

	/**
	 * Served gzip-compressed when accepted, with that representation's ETag... as far as the CLI
	 * lets headers be sent: the body is the tile either way.
	 */
	public function test_head_has_the_headers_and_no_body(): void {
		$served = $this->serve( '/cairn/v1/tiles/0/0/0', array(), array(), 'HEAD' );
		$this->assertSame( 200, $served['status'] );
		$this->assertSame( '', $served['body'] );
		$this->assertMatchesRegularExpression( '/^"[0-9a-f]{32}"$/', $served['headers']['ETag'] );
	}

	/**
	 * A tile of thousands of places: at most `tiles.maxFeatures` features, and PHP's memory peak
	 * far below 32 MB, clustered from the places table (zoom 12) and as points (zoom 17).
	 */
	public function test_a_dense_tile_is_bounded_in_features_and_memory(): void {
		global $wpdb;
		$table = $wpdb->prefix . 'cairn_places';
		$rows  = array();
		for ( $k = 0; $k < 20000; $k++ ) {
			$lat    = 40.0 + ( $k % 200 ) * 0.000005;
			$lng    = -3.0 + intdiv( $k, 200 ) * 0.000005;
			$rows[] = $wpdb->prepare( '(%d,%d,%f,%f,0,%s,%s)', 9000000 + $k, Morton::code( $lat, $lng ), $lat, $lng, "Dense $k", "dense $k" );
			if ( 1000 === count( $rows ) ) {
				$wpdb->query( "INSERT INTO $table (post_id, code, lat, lng, combo, title, sort_key) VALUES " . implode( ',', $rows ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.PreparedSQL.NotPrepared -- prepared rows.
				$rows = array();
			}
		}
		foreach ( array( 12, 17 ) as $z ) {
			list( $x, $y ) = self::tile_of( 40.0005, -2.9995, $z );
			memory_reset_peak_usage();
			$before   = memory_get_usage();
			$served   = $this->serve( "/cairn/v1/tiles/$z/$x/$y", array( 'radius' => '10' ) );
			$peak     = memory_get_peak_usage() - $before;
			$features = json_decode( $served['body'], true )['features'];
			$this->assertLessThanOrEqual( (int) \Cairn\Maps\Support\Limits::get( 'tiles.maxFeatures' ), count( $features ) );
			$this->assertLessThan( 8 * 1024 * 1024, $peak, "zoom $z: memory above the test's own" );
			$count = array_sum( array_map( static fn( $f ) => $f['properties']['point_count'] ?? 1, $features ) );
			if ( 12 === $z ) {
				$this->assertSame( 20000, $count, 'every place counted at zoom 12' );
			} else {
				$this->assertSame( 4000, $count, 'the first 4,000 points at zoom 17' );
			}
		}
	}

	/**
	 * A group's new slug is in every tile at once (the index renames it in place, no stamp).
	 */
	public function test_a_group_slug_change_changes_the_tiles(): void {
		list( $x, $y ) = self::tile_of( 64.1, -21.9, 5 );
		$before        = $this->tile( 5, $x, $y );
		$this->assertSame( array( 'parks' ), $before->get_data()['features'][0]['properties']['groups'] );
		$term = get_term_by( 'slug', 'parks', 'cairn_marker_group' );
		$this->assertInstanceOf( \WP_Term::class, $term );
		wp_update_term( $term->term_id, 'cairn_marker_group', array( 'slug' => 'gardens' ) );
		$after = $this->tile( 5, $x, $y );
		$this->assertNotSame( $before->get_headers()['ETag'], $after->get_headers()['ETag'] );
		$this->assertSame( array( 'gardens' ), $after->get_data()['features'][0]['properties']['groups'] );
	}

	/**
	 * Rows the tile cache holds in the options table (two a slot: value and timeout).
	 */
	private static function kept_rows(): int {
		global $wpdb;
		return (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM $wpdb->options WHERE option_name LIKE %s", '%' . $wpdb->esc_like( Tile_Cache::GROUP ) . '%' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery
	}

	/**
	 * Invented group slugs, radii, max zooms and versions are answered but fill no slot (issue 30:
	 * 60 such requests stored 60 tiles); the defaults and a map's own radius with the current `v`
	 * are kept.
	 */
	public function test_invented_slugs_and_radii_store_no_tiles(): void {
		$current = ( new Markers_Version() )->get();
		$default = Tile_Radii::defaults();
		// The real maps' tiles (all places; the cafes) are kept first: invented slugs name them.
		for ( $x = 0; $x < 4; $x++ ) {
			$this->tile( 2, $x, 1, array( 'v' => $current ) );
			$this->tile(
				2,
				$x,
				1,
				array(
					'v'     => $current,
					'group' => 'cafes',
				)
			);
		}
		$before = self::kept_rows();
		$this->assertSame( 16, $before, 'the real tiles are kept' );
		for ( $k = 0; $k < 12; $k++ ) {
			$x        = $k % 4;
			$invented = array(
				array( 'group' => "invented-$k" ),
				array( 'hidden' => "invented-$k" ),
				array( 'group' => "cafes,invented-$k" ),
				array( 'radius' => (string) ( 11 + $k ) ),
				array( 'maxzoom' => (string) $k ),
			);
			// Each with the current version; then an old version and none, with default parameters.
			$queries = array_map( static fn( $query ) => $query + array( 'v' => $current ), $invented );
			$queries = array_merge( $queries, array( array( 'v' => "old-$k" ), array() ) );
			foreach ( $queries as $query ) {
				$response = $this->tile( 2, $x, 1, $query );
				$this->assertSame( 200, $response->get_status(), (string) wp_json_encode( $query ) );
			}
		}
		$this->assertSame( $before, self::kept_rows(), 'no invented request took a slot' );

		$this->tile( 2, 2, 0, array( 'v' => $current ) );
		$this->assertSame( $before + 2, self::kept_rows(), 'a new default tile of the current version is kept' );
		$this->tile(
			2,
			2,
			1,
			array(
				'v'      => $current,
				'radius' => '50',
			)
		);
		$this->assertSame( $before + 2, self::kept_rows(), 'radius 50: no map uses it yet' );
		( new Tile_Radii() )->remember( 50, $default[1] );
		$this->tile(
			2,
			2,
			1,
			array(
				'v'      => $current,
				'radius' => '50',
			)
		);
		$this->assertSame( $before + 4, self::kept_rows(), 'a map\'s own radius is kept' );
		$this->tile( 2, 3, 0, array( 'v' => 'old-version' ) );
		$this->tile( 2, 3, 0 );
		$this->assertSame( $before + 4, self::kept_rows(), 'a new tile asked with an old v, or none, is answered, not kept' );
		$this->tile( 2, 3, 0, array( 'v' => $current ) );
		$this->assertSame( $before + 6, self::kept_rows(), 'the same tile with the current v is kept' );
	}

	/**
	 * A slug no place has changes nothing a tile shows, so it names the same tile; a selection of
	 * unknown groups only shows nothing (not everything).
	 */
	public function test_unknown_slugs_are_dropped_before_the_key(): void {
		$current = ( new Markers_Version() )->get();
		$cafes   = $this->tile(
			2,
			2,
			1,
			array(
				'group' => 'cafes',
				'v'     => $current,
			)
		);
		$this->assertSame(
			$cafes->get_headers()['ETag'],
			$this->tile(
				2,
				2,
				1,
				array(
					'group' => 'cafes,nonesuch',
					'v'     => $current,
				)
			)->get_headers()['ETag']
		);
		$this->assertSame( $this->tile( 2, 2, 1 )->get_headers()['ETag'], $this->tile( 2, 2, 1, array( 'hidden' => 'nonesuch,other' ) )->get_headers()['ETag'] );
		$none = $this->tile(
			2,
			2,
			1,
			array(
				'group' => 'nonesuch',
				'v'     => $current,
			)
		);
		$this->assertSame( 200, $none->get_status() );
		$this->assertSame( array(), $none->get_data()['features'], 'an unknown selection shows no place' );
		$this->assertNotSame( array(), $cafes->get_data()['features'] );
	}

	/**
	 * A map that is rendered tiled with its own radius makes that radius one whose tiles are kept.
	 */
	public function test_a_tiled_maps_radius_is_remembered(): void {
		add_filter( 'cairn_maps_tile_threshold', static fn() => 1 );
		$config = new \Cairn\Maps\Blocks\Tile_Config( $this->index(), new Markers_Version() );
		$radii  = new Tile_Radii();
		$this->assertFalse( $radii->has( 45, Tile_Radii::defaults()[1] ) );
		$urls = $config->urls(
			array(
				'markers' => array(
					'source' => 'all',
					'groups' => array(),
					'ids'    => array(),
				),
				'cluster' => array(
					'enabled' => true,
					'radius'  => 45,
				),
			),
			''
		);
		$this->assertStringContainsString( 'radius=45', $urls['tilesUrl'] );
		$this->assertTrue( $radii->has( 45, Tile_Radii::defaults()[1] ) );
	}

	/**
	 * A search matches group names, so renaming a group (its name only: no place, slug or stamp
	 * changes) gives its search tiles a new key: the kept tile of the old name is not served for
	 * the new one (issue 30's mutant dropped the names from the key and served stale searches).
	 */
	public function test_renaming_a_group_changes_its_search_tiles(): void {
		$query  = array(
			'q' => 'Gardens',
			'v' => ( new Markers_Version() )->get(),
		);
		$before = $this->tile( 0, 0, 0, $query );
		$this->assertSame( array(), $before->get_data()['features'], 'no place or group is called Gardens yet' );
		$this->assertSame( $before->get_headers()['ETag'], $this->tile( 0, 0, 0, $query )->get_headers()['ETag'], 'the same search, the same tile' );
		$term = get_term_by( 'slug', 'parks', 'cairn_marker_group' );
		$this->assertInstanceOf( \WP_Term::class, $term );
		wp_update_term( $term->term_id, 'cairn_marker_group', array( 'name' => 'Gardens' ) );
		$query['v'] = ( new Markers_Version() )->get();
		$after      = $this->tile( 0, 0, 0, $query );
		$this->assertNotSame( $before->get_headers()['ETag'], $after->get_headers()['ETag'] );
		$parks = count( array_filter( $this->places, static fn( $place ) => in_array( 'parks', $place[2], true ) ) );
		$this->assertGreaterThan( 0, $parks );
		$this->assertSame( $parks, array_sum( array_map( static fn( $f ) => $f['properties']['point_count'] ?? 1, $after->get_data()['features'] ) ), 'the renamed group\'s places are found' );
	}
}
