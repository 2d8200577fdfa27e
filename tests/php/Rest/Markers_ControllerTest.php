<?php
/**
 * The public GeoJSON feed, GET /cairn/v1/markers.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Rest\Markers_Controller;
use Cairn\Maps\Tests\TestCase;

/**
 * Contract, filters, validation and HTTP caching of the feed, through the real REST server.
 *
 * @since 0.1.0
 */
final class Markers_ControllerTest extends TestCase {

	private const ROUTE = '/cairn/v1/markers';

	/**
	 * The feed's features for a query.
	 *
	 * @param array<string, string> $query Query parameters.
	 * @return array<int, array<string, mixed>>
	 */
	private function features( array $query = array() ): array {
		$response = $this->rest( 'GET', self::ROUTE, $query );
		$this->assertSame( 200, $response->get_status(), wp_json_encode( $response->get_data() ) );
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
	 * With no markers the feed is an empty FeatureCollection.
	 */
	public function test_empty_feed_is_an_empty_feature_collection(): void {
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
	 * A feature carries id, a Point [lng, lat] at 5 decimals, a plain-text title and group slugs.
	 */
	public function test_feature_shape(): void {
		$id = $this->create_marker(
			array(
				'post_title' => 'Fish &amp; Chips',
				'lat'        => 51.50735091,
				'lng'        => -0.12775829,
				'groups'     => array( 'food', 'london' ),
			)
		);
		// Member order is the feed's business (chosen for compression); the content is the contract.
		$this->assertEquals(
			array(
				array(
					'type'       => 'Feature',
					'id'         => $id,
					'geometry'   => array(
						'type'        => 'Point',
						'coordinates' => array( -0.12776, 51.50735 ),
					),
					'properties' => array(
						'title'  => 'Fish & Chips',
						'groups' => array( 'food', 'london' ),
					),
				),
			),
			$this->features()
		);
	}

	/**
	 * Only published, unprotected markers with both coordinates are served.
	 */
	public function test_only_published_markers_with_coordinates_are_served(): void {
		$published = $this->create_marker();
		$this->create_marker( array( 'post_status' => 'draft' ) );
		$this->create_marker( array( 'post_status' => 'pending' ) );
		$this->create_marker( array( 'post_status' => 'private' ) );
		$this->create_marker(
			array(
				'post_status' => 'future',
				'post_date'   => gmdate( 'Y-m-d H:i:s', time() + DAY_IN_SECONDS ),
			)
		);
		$this->create_marker( array( 'post_password' => 'secret' ) );
		wp_trash_post( $this->create_marker() );
		$this->create_marker( array( 'lat' => null ) );
		$this->create_marker( array( 'lng' => null ) );
		// Written behind the REST API's back: stored empty, skipped rather than placed at 0,0.
		$this->create_marker( array( 'lat' => 'not a number' ) );
		wp_insert_post(
			array(
				'post_type'   => 'post',
				'post_status' => 'publish',
				'post_title'  => 'A post',
				'meta_input'  => array(
					Post_Type::META_LAT => 1,
					Post_Type::META_LNG => 1,
				),
			)
		);

		$this->act_as( 'administrator' ); // Logged-in users see the same public feed.
		$this->assertSame( array( $published ), $this->ids() );
	}

	/**
	 * Filters: group (any of the slugs), include (ids) and both together.
	 */
	public function test_group_and_include_filters(): void {
		$peak   = $this->create_marker( array( 'groups' => array( 'peaks' ) ) );
		$lake   = $this->create_marker( array( 'groups' => array( 'lakes' ) ) );
		$both   = $this->create_marker( array( 'groups' => array( 'peaks', 'lakes' ) ) );
		$none   = $this->create_marker();
		$hidden = $this->create_marker(
			array(
				'post_status' => 'draft',
				'groups'      => array( 'peaks' ),
			)
		);

		$this->assertSame( array( $peak, $both ), $this->ids( array( 'group' => 'peaks' ) ) );
		$this->assertSame( array( $peak, $lake, $both ), $this->ids( array( 'group' => 'peaks,lakes' ) ) );
		$this->assertSame( array(), $this->ids( array( 'group' => 'no-such-group' ) ) );
		$this->assertSame( array( $lake, $none ), $this->ids( array( 'include' => "{$none},{$lake},{$hidden}" ) ) );
		$this->assertSame(
			array( $both ),
			$this->ids(
				array(
					'include' => "{$both},{$none}",
					'group'   => 'lakes',
				)
			)
		);
	}

	/**
	 * The bounding box filter, inclusive, and across the antimeridian when west > east.
	 */
	public function test_bbox_filter(): void {
		$london = $this->create_marker(
			array(
				'lat' => 51.5,
				'lng' => -0.12,
			)
		);
		$paris  = $this->create_marker(
			array(
				'lat' => 48.85,
				'lng' => 2.35,
			)
		);
		$fiji   = $this->create_marker(
			array(
				'lat' => -17.7,
				'lng' => 178.0,
			)
		);
		$samoa  = $this->create_marker(
			array(
				'lat' => -13.8,
				'lng' => -172.1,
			)
		);
		$edge   = $this->create_marker(
			array(
				'lat' => 10,
				'lng' => 10,
			)
		);

		$this->assertSame( array( $london, $paris ), $this->ids( array( 'bbox' => '-5,45,5,55' ) ) );
		$this->assertSame( array( $london ), $this->ids( array( 'bbox' => '-1,50,0,52' ) ) );
		$this->assertSame( array( $fiji, $samoa ), $this->ids( array( 'bbox' => '170,-20,-170,-10' ) ), 'west > east crosses the antimeridian' );
		$this->assertSame( array( $edge ), $this->ids( array( 'bbox' => '10,10,10,10' ) ), 'edges are inclusive' );
		$this->assertCount( 5, $this->ids( array( 'bbox' => '-180,-90,180,90' ) ) );
		$this->assertSame( array( $paris ), $this->ids( array( 'bbox' => '0,40,180,60' ) ) );
	}

	/**
	 * Bad filter values.
	 *
	 * @return array<string, array{0: string, 1: string}>
	 */
	public function bad_params(): array {
		return array(
			'group with a space'           => array( 'group', 'Bad Slug' ),
			'group with an empty item'     => array( 'group', 'a,,b' ),
			'group with markup'            => array( 'group', '<b>' ),
			'too many groups'              => array( 'group', implode( ',', array_map( static fn( $i ) => "g{$i}", range( 1, 51 ) ) ) ),
			'include zero'                 => array( 'include', '0' ),
			'include negative'             => array( 'include', '-1' ),
			'include words'                => array( 'include', 'one,two' ),
			'include decimals'             => array( 'include', '1.5' ),
			'too many ids'                 => array( 'include', implode( ',', range( 1, 501 ) ) ),
			'bbox with three numbers'      => array( 'bbox', '1,2,3' ),
			'bbox with five numbers'       => array( 'bbox', '1,2,3,4,5' ),
			'bbox west beyond 180'         => array( 'bbox', '181,0,10,10' ),
			'bbox east below -180'         => array( 'bbox', '0,0,-180.5,10' ),
			'bbox south below -90'         => array( 'bbox', '0,-91,10,10' ),
			'bbox north above 90'          => array( 'bbox', '0,0,10,90.1' ),
			'bbox south above north'       => array( 'bbox', '0,10,10,5' ),
			'bbox NaN'                     => array( 'bbox', 'NaN,0,1,1' ),
			'bbox INF'                     => array( 'bbox', '0,0,INF,1' ),
			'bbox exponent'                => array( 'bbox', '1e1,0,20,1' ),
			'bbox empty item'              => array( 'bbox', '0,,1,1' ),
			'bbox words'                   => array( 'bbox', 'west,south,east,north' ),
			'fields would decode the feed' => array( '_fields', 'type' ),
			'envelope'                     => array( '_envelope', '1' ),
		);
	}

	/**
	 * Bad values answer 400 naming the parameter.
	 *
	 * @dataProvider bad_params
	 *
	 * @param string $param Parameter.
	 * @param string $value Value.
	 */
	public function test_bad_params_answer_400_naming_the_parameter( string $param, string $value ): void {
		$this->create_marker();
		$response = $this->rest( 'GET', self::ROUTE, array( $param => $value ) );
		$this->assertSame( 400, $response->get_status() );
		$data = $response->get_data();
		$this->assertStringContainsString( $param, $data['message'] );
		$this->assertArrayHasKey( $param, $data['data']['params'] );
	}

	/**
	 * A strong ETag, stable while nothing changes, new as soon as a marker changes.
	 */
	public function test_etag_is_strong_stable_and_changes_with_markers(): void {
		$id    = $this->create_marker();
		$first = $this->rest( 'GET', self::ROUTE )->get_headers()['ETag'];
		$this->assertMatchesRegularExpression( '/^"[0-9a-f]{32}"$/', $first, 'a strong ETag' );
		$this->assertSame( $first, $this->rest( 'GET', self::ROUTE )->get_headers()['ETag'] );
		$this->assertNotSame( $first, $this->rest( 'GET', self::ROUTE, array( 'group' => 'x' ) )->get_headers()['ETag'], 'each filter set has its own ETag' );

		update_post_meta( $id, Post_Type::META_LAT, 12 );
		$second = $this->rest( 'GET', self::ROUTE );
		$this->assertNotSame( $first, $second->get_headers()['ETag'] );
		$this->assertSame( 12.0, (float) $second->get_data()['features'][0]['geometry']['coordinates'][1], 'the new data is served at once' );
	}

	/**
	 * A matching If-None-Match answers 304 without a body and without reading any marker.
	 */
	public function test_matching_if_none_match_answers_304_before_reading_markers(): void {
		global $wpdb;
		$this->create_marker();
		$etag = $this->rest( 'GET', self::ROUTE )->get_headers()['ETag'];
		rest_get_server(); // Routes registered before counting.

		foreach ( array( $etag, 'W/' . $etag, '"other", ' . $etag, substr( $etag, 0, -1 ) . '-gzip"', '*' ) as $header ) {
			$queries  = $wpdb->num_queries;
			$response = $this->rest( 'GET', self::ROUTE, array(), array( 'If-None-Match' => $header ) );
			$this->assertSame( 304, $response->get_status(), "If-None-Match: {$header}" );
			$this->assertNull( $response->get_data() );
			$this->assertSame( $etag, $response->get_headers()['ETag'] );
			$this->assertSame( $queries, $wpdb->num_queries, 'no query for a 304' );
		}

		$this->assertSame( 200, $this->rest( 'GET', self::ROUTE, array(), array( 'If-None-Match' => '"stale"' ) )->get_status() );
	}

	/**
	 * Anonymous answers are publicly cacheable; logged-in ones are not stored.
	 */
	public function test_cache_control_by_visitor(): void {
		$this->create_marker();
		$anonymous = $this->rest( 'GET', self::ROUTE )->get_headers();
		$this->assertMatchesRegularExpression( '/^public, max-age=\d+, stale-while-revalidate=\d+$/', $anonymous['Cache-Control'] );
		$this->assertSame( 'Accept-Encoding', $anonymous['Vary'] );
		$this->assertArrayNotHasKey( 'Set-Cookie', $anonymous );

		$this->act_as( 'editor' );
		$this->assertSame( 'private, no-store', $this->rest( 'GET', self::ROUTE )->get_headers()['Cache-Control'] );
	}

	/**
	 * Served like an HTTP request, the body is the pre-built JSON, and HEAD and 304 answers have no
	 * body (gzip and real headers: Http/Markers_Feed_HttpTest).
	 */
	public function test_serving_prints_the_prebuilt_payload(): void {
		$this->create_marker( array( 'post_title' => 'Served' ) );
		$expected = $this->rest( 'GET', self::ROUTE )->get_data();

		$plain = $this->serve( self::ROUTE );
		$this->assertSame( 200, $plain['status'] );
		$this->assertSame( $expected, json_decode( $plain['body'], true ) );
		$this->assertStringStartsWith( '{"type":"FeatureCollection","features":[{"type":"Feature"', $plain['body'] );

		$head = $this->serve( self::ROUTE, array(), array(), 'HEAD' );
		$this->assertSame( 200, $head['status'] );
		$this->assertSame( '', $head['body'] );

		$not_modified = $this->serve( self::ROUTE, array(), array( 'If-None-Match' => $plain['headers']['ETag'] ) );
		$this->assertSame( 304, $not_modified['status'] );
		$this->assertSame( '', $not_modified['body'] );
	}

	/**
	 * The second request is answered from the cache; a change is visible on the next one.
	 */
	public function test_built_feed_is_cached_until_markers_change(): void {
		global $wpdb;
		$id = $this->create_marker( array( 'post_title' => 'Cached' ) );
		$this->rest( 'GET', self::ROUTE );

		$queries = array();
		$log     = static function ( $sql ) use ( &$queries ) {
			$queries[] = $sql;
			return $sql;
		};
		add_filter( 'query', $log );
		$again = $this->rest( 'GET', self::ROUTE );
		remove_filter( 'query', $log );
		$this->assertSame( 'Cached', $again->get_data()['features'][0]['properties']['title'] );
		$this->assertSame( array(), preg_grep( "/FROM {$wpdb->posts}/", $queries ), 'no marker read: served from the cache' );

		wp_update_post(
			array(
				'ID'         => $id,
				'post_title' => 'Changed',
			)
		);
		$this->assertSame( 'Changed', $this->rest( 'GET', self::ROUTE )->get_data()['features'][0]['properties']['title'] );
	}

	/**
	 * A method override never changes what a real GET or HEAD gets (issue 12): an overridden GET
	 * prints the whole feed with the plain GET's headers, a real HEAD prints nothing; any other
	 * overridden answer is kept by no shared cache. Internal requests keep their own method. (Sent
	 * headers and the other public routes: Http/Method_Override_HttpTest.)
	 */
	public function test_method_override_is_answered_as_the_real_method(): void {
		$this->create_marker( array( 'post_title' => 'Overridden' ) );
		$plain = $this->serve( self::ROUTE );

		foreach ( array(
			'query'  => array( array( '_method' => 'HEAD' ), array() ),
			'header' => array( array(), array( 'X-HTTP-Method-Override' => 'HEAD' ) ),
		) as $how => list( $query, $headers ) ) {
			$answer = $this->serve( self::ROUTE, $query, $headers );
			$this->assertSame( 200, $answer['status'], $how );
			$this->assertSame( $plain['body'], $answer['body'], "{$how}: the whole feed" );
			$this->assertSame( $plain['headers']['ETag'], $answer['headers']['ETag'] );
			$this->assertSame( Markers_Controller::PUBLIC_CACHE_CONTROL, $answer['headers']['Cache-Control'], "{$how}: as cacheable as the plain GET" );
		}

		$head = $this->serve( self::ROUTE, array( '_method' => 'GET' ), array(), 'HEAD' );
		$this->assertSame( 200, $head['status'] );
		$this->assertSame( '', $head['body'], 'a real HEAD' );

		foreach ( array( 'OPTIONS', 'POST', 'DELETE' ) as $method ) {
			$other = $this->serve( self::ROUTE, array(), array( 'X-HTTP-Method-Override' => $method ) );
			$this->assertSame( 'private, no-store', $other['headers']['Cache-Control'] ?? null, $method );
		}
		$post = $this->serve( self::ROUTE, array( '_method' => 'GET' ), array(), 'POST' );
		$this->assertSame( 'private, no-store', $post['headers']['Cache-Control'], 'a real POST made a GET' );

		$this->assertNull( $this->rest( 'HEAD', self::ROUTE )->get_data(), 'an internal HEAD' );
	}

	/**
	 * Group slugs that name no group and ids that name no published marker select nothing, beside
	 * real ones or alone (the real ones still do), each with its own ETag.
	 */
	public function test_invented_groups_and_ids_select_nothing(): void {
		$hut   = $this->create_marker( array( 'groups' => array( 'huts' ) ) );
		$draft = $this->create_marker(
			array(
				'post_status' => 'draft',
				'groups'      => array( 'huts' ),
			)
		);
		$this->assertSame( array( $hut ), $this->ids( array( 'group' => 'nowhere,huts,huts' ) ) );
		$this->assertSame( array(), $this->ids( array( 'group' => 'nowhere' ) ) );
		$this->assertSame( array( $hut ), $this->ids( array( 'include' => "999999,{$hut},{$draft}" ) ) );
		$this->assertSame( array(), $this->ids( array( 'include' => "999999,{$draft}" ) ) );
		$this->assertSame(
			array( $hut ),
			$this->ids(
				array(
					'group' => 'huts,nowhere',
					'bbox'  => '-180,-90,180,90',
				)
			)
		);
		$this->assertNotSame(
			$this->rest( 'GET', self::ROUTE, array( 'group' => 'huts' ) )->get_headers()['ETag'],
			$this->rest( 'GET', self::ROUTE, array( 'group' => 'huts,nowhere' ) )->get_headers()['ETag']
		);
	}

	/**
	 * The bbox parser accepts what the validator accepts.
	 */
	public function test_parse_bbox(): void {
		$this->assertSame( array( -10.5, -20.0, 30.0, 40.25 ), Markers_Controller::parse_bbox( '-10.5,-20,30,40.25' ) );
		$this->assertSame( array( 170.0, -20.0, -170.0, 20.0 ), Markers_Controller::parse_bbox( '170, -20, -170, 20' ) );
		$this->assertNull( Markers_Controller::parse_bbox( '0,0,0' ) );
	}

	/**
	 * Discovery: OPTIONS shows the feed's schema and its parameters.
	 */
	public function test_options_show_the_feed_schema(): void {
		$options = $this->rest( 'OPTIONS', self::ROUTE )->get_data();
		$this->assertSame( 'cairn-markers-feature-collection', $options['schema']['title'] ?? null );
		$this->assertSame( array( 'group', 'include', 'bbox', 'post_type', 'terms' ), array_keys( $options['endpoints'][0]['args'] ) );
	}
}
