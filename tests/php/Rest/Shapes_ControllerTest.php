<?php
/**
 * The public GeoJSON shapes feed, GET /cairn/v1/shapes.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Plugin;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Tests\Feed\Plugin_Feed;
use Cairn\Maps\Tests\Feed\Shape_Fixtures;
use Cairn\Maps\Tests\TestCase;

/**
 * Contract, filters, validation, HTTP caching and CORS of the shapes feed, through the real REST
 * server.
 *
 * @since 0.5.0
 */
final class Shapes_ControllerTest extends TestCase {

	use Plugin_Feed;
	use Shape_Fixtures;

	private const ROUTE = '/cairn/v1/shapes';

	/**
	 * The feed's features for a query.
	 *
	 * @param array<string, string> $query Query parameters.
	 * @return array<int, array<string, mixed>>
	 */
	private function features( array $query = array() ): array {
		$response = $this->rest( 'GET', self::ROUTE, $query );
		$this->assertSame( 200, $response->get_status(), (string) wp_json_encode( $response->get_data() ) );
		$this->assertSame( 'FeatureCollection', $response->get_data()['type'] );
		return $response->get_data()['features'];
	}

	/**
	 * Feature ids for a query, sorted.
	 *
	 * @param array<string, string> $query Query parameters.
	 * @return int[]
	 */
	private function ids( array $query = array() ): array {
		$ids = array_column( $this->features( $query ), 'id' );
		sort( $ids );
		return $ids;
	}

	/**
	 * Without shapes the feed is an empty FeatureCollection, whatever points there are.
	 */
	public function test_points_only_is_an_empty_feature_collection(): void {
		$this->create_marker();
		$response = $this->rest( 'GET', self::ROUTE );
		$this->assertSame( 200, $response->get_status() );
		$this->assertSame(
			array(
				'type'     => 'FeatureCollection',
				'features' => array(),
			),
			$response->get_data()
		);
	}

	/**
	 * A feature carries the id, the stored geometry, a plain-text title, group slugs, the bbox and
	 * the measures that are known (absent when null).
	 */
	public function test_feature_format(): void {
		$route = $this->create_shape(
			self::line( 7.5, 46.2, 3 ),
			array(
				'post_title' => 'Col &amp; Lake <b>trail</b>',
				'groups'     => array( 'trails', 'summer' ),
			),
			array(
				'length_m'  => 2310,
				'ascent_m'  => 412,
				'descent_m' => 15,
				'profile'   => array( array( 0, 1500 ), array( 2310, 1897 ) ),
			)
		);
		$area  = $this->create_shape( self::square( 8.0, 46.0 ), array( 'post_title' => 'Zone' ) );
		$this->assertEquals(
			array(
				array(
					'type'       => 'Feature',
					'id'         => $route,
					'geometry'   => self::line( 7.5, 46.2, 3 ),
					'properties' => array(
						'title'     => 'Col & Lake trail',
						'groups'    => array( 'summer', 'trails' ),
						'bbox'      => array( 7.5, 46.2, 7.53, 46.2 ),
						'length_m'  => 2310,
						'ascent_m'  => 412,
						'descent_m' => 15,
						'profile'   => array( array( 0, 1500 ), array( 2310, 1897 ) ),
					),
				),
				array(
					'type'       => 'Feature',
					'id'         => $area,
					'geometry'   => self::square( 8.0, 46.0 ),
					'properties' => array(
						'title'  => 'Zone',
						'groups' => array(),
						'bbox'   => array( 8.0, 46.0, 8.5, 46.5 ),
					),
				),
			),
			$this->features()
		);
	}

	/**
	 * The geometry goes out as stored, byte for byte (spliced, not decoded and encoded again).
	 */
	public function test_geometry_is_served_as_stored(): void {
		$id   = $this->create_marker( array( 'post_title' => 'Track' ) );
		$text = '{"geometry":{"type":"MultiLineString","coordinates":[[[7.1,46.000001],[7.2,46.1]],[[7.3,46.2],[7.35,46.25]]]},"bbox":[7.1,46.000001,7.35,46.25],"length_m":21000,"ascent_m":null,"descent_m":null,"profile":null}';
		$this->store_shape_text( $id, $text );
		$served = $this->serve( self::ROUTE );
		$this->assertSame( 200, $served['status'] );
		$this->assertSame(
			'{"type":"FeatureCollection","features":[{"type":"Feature","id":' . $id . ',"geometry":{"type":"MultiLineString","coordinates":[[[7.1,46.000001],[7.2,46.1]],[[7.3,46.2],[7.35,46.25]]]},"properties":{"title":"Track","groups":[],"bbox":[7.1,46.000001,7.35,46.25],"length_m":21000}}]}',
			$served['body']
		);
	}

	/**
	 * Only published, unprotected markers' shapes; stored text that is not a shape is left out
	 * rather than breaking the document.
	 */
	public function test_only_published_shapes_are_served(): void {
		$published = $this->create_shape( self::line( 1, 1 ) );
		$this->create_shape( self::line( 1, 1 ), array( 'post_status' => 'draft' ) );
		$this->create_shape( self::line( 1, 1 ), array( 'post_status' => 'pending' ) );
		$this->create_shape( self::line( 1, 1 ), array( 'post_status' => 'private' ) );
		$this->create_shape( self::line( 1, 1 ), array( 'post_password' => 'secret' ) );
		wp_trash_post( $this->create_shape( self::line( 1, 1 ) ) );
		$post = (int) wp_insert_post(
			array(
				'post_type'   => 'post',
				'post_status' => 'publish',
				'post_title'  => 'A post',
			)
		);
		$this->store_shape( $post, self::line( 1, 1 ) );
		foreach ( array( 'not json', '{"geometry":{"type":"Point","coordinates":[1,1]},"bbox":[1,1,1,1]}', '{"geometry":{"type":"LineString","coordinates":[[1,1],[2,"x"]]},"bbox":[1,1,2,2]}', '{"geometry":{"type":"LineString","coordinates":[[1,1],[2,2]]]},"bbox":[1,1,2,2]}', '{"geometry":{"type":"LineString","coordinates":[[1,1],[2,2]]},"bbox":[1,1]}' ) as $broken ) {
			$this->store_shape_text( $this->create_marker(), $broken );
		}

		$this->act_as( 'administrator' ); // Logged-in users see the same public feed.
		$this->assertSame( array( $published ), $this->ids() );
		$this->assertSame( 200, $this->serve( self::ROUTE )['status'] );
	}

	/**
	 * Text in another member order, or whose geometry has members of its own, is decoded instead
	 * of spliced: the same feature, its geometry's type and coordinates only.
	 */
	public function test_text_in_another_order_is_read_too(): void {
		$loop = $this->create_marker( array( 'post_title' => 'Loop' ) );
		$this->store_shape_text( $loop, '{"bbox":[1,2,3,4],"length_m":5,"geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]}}' );
		$boxed = $this->create_marker( array( 'post_title' => 'Boxed' ) );
		$this->store_shape_text( $boxed, '{"geometry":{"type":"LineString","bbox":[1,2,3,4],"coordinates":[[1,2],[3,4]]},"bbox":[1,2,3,4],"length_m":6}' );
		$features = $this->features();
		$this->assertCount( 2, $features );
		foreach ( $features as $feature ) {
			$this->assertSame(
				array(
					'type'        => 'LineString',
					'coordinates' => array( array( 1, 2 ), array( 3, 4 ) ),
				),
				$feature['geometry']
			);
		}
		$this->assertSame( array( 5, 6 ), array_column( array_column( $features, 'properties' ), 'length_m' ) );
	}

	/**
	 * The markers feed's filters: group, include, both, and a box that meets the shape's bbox
	 * (across the antimeridian too).
	 */
	public function test_filters(): void {
		$alps   = $this->create_shape( self::line( 7.0, 46.0 ), array( 'groups' => array( 'trails' ) ) );
		$zone   = $this->create_shape( self::square( 8.0, 46.0 ), array( 'groups' => array( 'zones' ) ) );
		$both   = $this->create_shape( self::square( 179.5, -17.0, 1.0 ), array( 'groups' => array( 'trails', 'zones' ) ) );
		$plain  = $this->create_shape( self::line( -3.0, 40.0 ) );
		$points = $this->create_marker( array( 'groups' => array( 'trails' ) ) );

		$this->assertSame( array( $alps, $zone, $both, $plain ), $this->ids() );
		$this->assertSame( array( $alps, $both ), $this->ids( array( 'group' => 'trails' ) ) );
		$this->assertSame( array( $alps, $zone, $both ), $this->ids( array( 'group' => 'zones,trails' ) ) );
		$this->assertSame( array(), $this->ids( array( 'group' => 'unknown' ) ) );
		$this->assertSame( array( $zone, $plain ), $this->ids( array( 'include' => "{$plain},{$zone},{$points}" ) ) );
		$this->assertSame(
			array( $zone ),
			$this->ids(
				array(
					'include' => "{$plain},{$zone}",
					'group'   => 'zones',
				)
			)
		);
		// A box overlapping the square's corner, though no vertex lies inside it.
		$this->assertSame( array( $zone ), $this->ids( array( 'bbox' => '8.4,46.4,9,47' ) ) );
		$this->assertSame( array( $alps, $zone ), $this->ids( array( 'bbox' => '6.5,45.5,8.2,46.2' ) ) );
		// Across the antimeridian: the square from 179.5 to 180.5 (stored as its bbox).
		$this->assertSame( array( $both ), $this->ids( array( 'bbox' => '170,-20,-170,-10' ) ) );
		$this->assertSame( array(), $this->ids( array( 'bbox' => '0,0,1,1' ) ) );
	}

	/**
	 * Bad values answer 400 naming the parameter, with the markers feed's messages.
	 */
	public function test_bad_params_answer_400_as_the_markers_feed(): void {
		$this->create_shape( self::line( 1, 1 ) );
		$cases = array(
			array( 'group', 'Bad Slug' ),
			array( 'include', '0' ),
			array( 'include', 'one,two' ),
			array( 'bbox', '1,2,3' ),
			array( 'bbox', '0,10,10,5' ),
			array( 'bbox', '181,0,10,10' ),
			array( '_fields', 'type' ),
			array( '_envelope', '1' ),
		);
		foreach ( $cases as list( $param, $value ) ) {
			$response = $this->rest( 'GET', self::ROUTE, array( $param => $value ) );
			$this->assertSame( 400, $response->get_status(), "{$param}={$value}" );
			$data = $response->get_data();
			$this->assertArrayHasKey( $param, $data['data']['params'], "{$param}={$value}" );
			if ( '_' !== $param[0] ) {
				$this->assertSame( $this->rest( 'GET', '/cairn/v1/markers', array( $param => $value ) )->get_data()['data']['params'], $data['data']['params'], 'the same message as the markers feed' );
			}
		}
	}

	/**
	 * A strong ETag, apart from the points feed's, stable while nothing changes, new when a shape
	 * changes (and the new shape is served at once); 304 without reading anything.
	 */
	public function test_etag_and_304(): void {
		global $wpdb;
		$id    = $this->create_shape( self::line( 1, 1 ) );
		$first = $this->rest( 'GET', self::ROUTE )->get_headers()['ETag'];
		$this->assertMatchesRegularExpression( '/^"[0-9a-f]{32}"$/', $first, 'a strong ETag' );
		$this->assertSame( $first, $this->rest( 'GET', self::ROUTE )->get_headers()['ETag'] );
		$this->assertNotSame( $first, $this->rest( 'GET', '/cairn/v1/markers' )->get_headers()['ETag'], 'not the points feed\'s ETag' );
		$this->assertNotSame( $first, $this->rest( 'GET', self::ROUTE, array( 'group' => 'x' ) )->get_headers()['ETag'], 'each filter set has its own' );

		rest_get_server();
		$queries  = $wpdb->num_queries;
		$response = $this->rest( 'GET', self::ROUTE, array(), array( 'If-None-Match' => $first ) );
		$this->assertSame( 304, $response->get_status() );
		$this->assertNull( $response->get_data() );
		$this->assertSame( $queries, $wpdb->num_queries, 'no query for a 304' );

		$this->store_shape( $id, self::line( 2, 2 ) );
		$second = $this->rest( 'GET', self::ROUTE, array(), array( 'If-None-Match' => $first ) );
		$this->assertSame( 200, $second->get_status(), 'the old ETag no longer matches' );
		$this->assertNotSame( $first, $second->get_headers()['ETag'] );
		$this->assertEquals( self::line( 2, 2 ), $second->get_data()['features'][0]['geometry'], 'the new shape is served at once' );
	}

	/**
	 * Anonymous answers are publicly cacheable; logged-in ones are not stored.
	 */
	public function test_cache_control(): void {
		$this->create_shape( self::line( 1, 1 ) );
		$anonymous = $this->rest( 'GET', self::ROUTE )->get_headers();
		$this->assertMatchesRegularExpression( '/^public, max-age=\d+, stale-while-revalidate=\d+$/', $anonymous['Cache-Control'] );
		$this->assertSame( 'Accept-Encoding', $anonymous['Vary'] );
		$this->act_as( 'editor' );
		$this->assertSame( 'private, no-store', $this->rest( 'GET', self::ROUTE )->get_headers()['Cache-Control'] );
	}

	/**
	 * The built feed is cached: the second request reads no shape.
	 */
	public function test_built_feed_is_cached(): void {
		$this->create_shape( self::line( 1, 1 ) );
		$first   = $this->rest( 'GET', self::ROUTE )->get_data();
		$reads   = 0;
		$counter = static function ( $sql ) use ( &$reads ) {
			if ( false !== strpos( (string) $sql, '_cairn_shape' ) ) {
				++$reads;
			}
			return $sql;
		};
		add_filter( 'query', $counter );
		$this->assertSame( $first, $this->rest( 'GET', self::ROUTE )->get_data() );
		$this->assertSame( 0, $reads, 'served from the feed cache' );
	}

	/**
	 * CORS: an allowed origin may read (REST answer and early 304), another gets no CORS header.
	 */
	public function test_cors_for_allowed_origins_only(): void {
		$this->create_shape( self::line( 1, 1 ) );
		$open = $this->serve( self::ROUTE, array(), array( 'Origin' => 'http://localhost:5173' ) );
		$this->assertSame( '*', $open['headers']['Access-Control-Allow-Origin'], 'default mode: anyone reads' );
		$this->assertSame( 'ETag', $open['headers']['Access-Control-Expose-Headers'] );
		$this->assertArrayNotHasKey( 'Access-Control-Allow-Credentials', $open['headers'] );

		update_option( Settings::ORIGINS_OPTION, array( 'https://front.example' ) );
		$listed = $this->serve( self::ROUTE, array(), array( 'Origin' => 'https://front.example' ) );
		$this->assertSame( 'https://front.example', $listed['headers']['Access-Control-Allow-Origin'] );
		$this->assertSame( 'Accept-Encoding, Origin', $listed['headers']['Vary'] );
		$other = $this->serve( self::ROUTE, array(), array( 'Origin' => 'https://evil.example' ) );
		$this->assertSame( 200, $other['status'] );
		$this->assertArrayNotHasKey( 'Access-Control-Allow-Origin', $other['headers'] );

		$shapes = Plugin::instance()->get( 'shapes' );
		$early  = static function ( string $origin, array $query = array( 'rest_route' => self::ROUTE ) ) use ( $shapes, $listed ) {
			return $shapes->early_not_modified_headers(
				array(
					'REQUEST_METHOD'     => 'GET',
					'HTTP_IF_NONE_MATCH' => $listed['headers']['ETag'],
					'HTTP_ORIGIN'        => $origin,
				),
				$query,
				array()
			);
		};
		$this->assertSame( 'https://front.example', $early( 'https://front.example' )['Access-Control-Allow-Origin'] );
		$this->assertArrayNotHasKey( 'Access-Control-Allow-Origin', $early( 'https://evil.example' ) );
		$this->assertNull( $early( 'https://front.example', array( 'rest_route' => '/cairn/v1/markers' ) ), 'not the markers feed\'s ETag' );
		$this->assertNull(
			$early(
				'https://front.example',
				array(
					'rest_route' => self::ROUTE,
					'post_type'  => 'post',
				)
			),
			'a parameter the route does not take goes to the REST server'
		);
	}

	/**
	 * The discovery schema documents the shape feature.
	 */
	public function test_schema(): void {
		$options = $this->rest( 'OPTIONS', self::ROUTE )->get_data();
		$this->assertIsArray( $options, (string) wp_json_encode( $options ) );
		$schema = $options['schema'] ?? array();
		$this->assertSame( 'cairn-shapes-feature-collection', $schema['title'] );
		$properties = $schema['properties']['features']['items']['properties'];
		$this->assertSame( array( 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon' ), $properties['geometry']['properties']['type']['enum'] );
		$this->assertSame( array( 'title', 'groups', 'bbox', 'length_m', 'ascent_m', 'descent_m', 'profile' ), array_keys( $properties['properties']['properties'] ) );
		$this->assertSame( array( 'group', 'include', 'bbox' ), array_keys( $options['endpoints'][0]['args'] ) );
	}
}
