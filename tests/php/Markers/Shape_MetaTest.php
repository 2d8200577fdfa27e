<?php
/**
 * A marker's shape through core's /wp/v2/cairn-markers and through PHP.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Markers;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Geometry_Rule;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Markers\Shape_Meta;
use Cairn\Maps\Markers\Shape_Store;
use Cairn\Maps\Plugin;
use Cairn\Maps\Tests\TestCase;
use WP_REST_Response;

/**
 * `meta.cairn_geometry` is the shape as an object or null; writes are checked before anything is
 * stored; the derived `_cairn_shape` follows every write and stays out of REST.
 *
 * @since 0.5.0
 */
final class Shape_MetaTest extends TestCase {

	private const ROUTE = '/wp/v2/cairn-markers';

	/**
	 * A trail with elevations: 1° of a meridian north from 46°N, 7°E.
	 *
	 * @return array{type: string, coordinates: array<int, array<int, float|int>>}
	 */
	private static function trail(): array {
		return array(
			'type'        => 'LineString',
			'coordinates' => array( array( 7, 46, 1000 ), array( 7, 46.5, 1100 ), array( 7, 47, 1050 ) ),
		);
	}

	/**
	 * A 2 × 2 degree square area with its middle at 9°E 45°N.
	 *
	 * @return array{type: string, coordinates: array<int, mixed>}
	 */
	private static function area(): array {
		return array(
			'type'        => 'Polygon',
			'coordinates' => array( array( array( 8, 44 ), array( 10, 44 ), array( 10, 46 ), array( 8, 46 ), array( 8, 44 ) ) ),
		);
	}

	/**
	 * A geometry as Geometry_Rule checks it.
	 *
	 * @param array<string, mixed> $geometry A valid geometry.
	 * @return array{type: string, coordinates: array<int, mixed>}
	 */
	private function checked( array $geometry ): array {
		$checked = Geometry_Rule::check( $geometry );
		$this->assertIsArray( $checked );
		return $checked;
	}

	/**
	 * The raw stored value of a meta key (one row), or null.
	 *
	 * @param int    $post_id Post id.
	 * @param string $key     Meta key.
	 */
	private static function stored( int $post_id, string $key ): ?string {
		global $wpdb;
		$value = $wpdb->get_var( $wpdb->prepare( "SELECT meta_value FROM {$wpdb->postmeta} WHERE post_id = %d AND meta_key = %s", $post_id, $key ) );
		return null === $value ? null : (string) $value;
	}

	/**
	 * The markers version.
	 */
	private function version(): string {
		$version = Plugin::instance()->get( 'markers_version' );
		$this->assertInstanceOf( Markers_Version::class, $version );
		return $version->get();
	}

	/**
	 * Asserts a refusal with the rule's message, naming the meta field.
	 *
	 * @param WP_REST_Response $response Response.
	 * @param string           $message  A piece of the message.
	 */
	private function assert_refused( WP_REST_Response $response, string $message ): void {
		$this->assertSame( 400, $response->get_status(), 'answer: ' . wp_json_encode( $response->get_data() ) );
		$this->assertSame( 'cairn_invalid_geometry', $response->get_data()['code'] );
		$this->assertStringContainsString( $message, $response->get_data()['message'] );
		$this->assertSame( 'cairn_geometry', $response->get_data()['data']['field'] );
	}

	/**
	 * The hooks are named methods.
	 */
	public function test_the_hooks_are_named_methods(): void {
		$meta = Plugin::instance()->get( 'shape_meta' );
		$this->assertInstanceOf( Shape_Meta::class, $meta );
		$this->assertSame( 5, has_filter( 'rest_pre_insert_' . Post_Type::POST_TYPE, array( $meta, 'validate_rest_write' ) ) );
		$this->assertSame( 10, has_action( 'rest_insert_' . Post_Type::POST_TYPE, array( $meta, 'save_rest_write' ) ) );
	}

	/**
	 * An editor creates a published trail without coordinates: it is stored as JSON text, its
	 * anchor becomes the marker's place, its derived copy is stored and out of REST.
	 */
	public function test_an_editor_creates_a_marker_with_a_shape(): void {
		$this->act_as( 'editor' );
		$before   = $this->version();
		$response = $this->rest(
			'POST',
			self::ROUTE,
			array(
				'title'  => 'Ridge trail',
				'status' => 'publish',
				'meta'   => array( 'cairn_geometry' => self::trail() ),
			)
		);
		$this->assertSame( 201, $response->get_status(), 'answer: ' . wp_json_encode( $response->get_data() ) );
		$data = $response->get_data();
		$id   = (int) $data['id'];
		$this->assertSame(
			array(
				'type'        => 'LineString',
				'coordinates' => array( array( 7.0, 46.0, 1000.0 ), array( 7.0, 46.5, 1100.0 ), array( 7.0, 47.0, 1050.0 ) ),
			),
			$data['meta']['cairn_geometry']
		);
		$this->assertEquals( 46, $data['meta']['cairn_lat'] );
		$this->assertEquals( 7, $data['meta']['cairn_lng'] );
		$this->assertArrayNotHasKey( '_cairn_shape', $data['meta'] );
		$this->assertStringNotContainsString( 'length_m', (string) wp_json_encode( $data ) );

		$this->assertSame( '{"type":"LineString","coordinates":[[7.0,46.0,1000.0],[7.0,46.5,1100.0],[7.0,47.0,1050.0]]}', self::stored( $id, 'cairn_geometry' ) );
		$shape = Shape_Store::shape( $id );
		$this->assertIsArray( $shape );
		$this->assertSame( 111195, $shape['length_m'] );
		$this->assertSame( 100, $shape['ascent_m'] );
		$this->assertNotSame( $before, $this->version(), 'the feed changes' );

		$read = $this->rest( 'GET', self::ROUTE . '/' . $id );
		$this->assertSame( $data['meta']['cairn_geometry'], $read->get_data()['meta']['cairn_geometry'] );

		$point = $this->rest( 'GET', self::ROUTE . '/' . $this->create_marker() );
		$this->assertNull( $point->get_data()['meta']['cairn_geometry'], 'a point has no shape' );
	}

	/**
	 * An update replaces the shape, keeping coordinates the request gives; null removes it.
	 */
	public function test_an_editor_updates_and_removes_a_shape(): void {
		$this->act_as( 'editor' );
		$id = $this->create_marker( array( 'post_title' => 'Zone' ) );

		$response = $this->rest(
			'POST',
			self::ROUTE . '/' . $id,
			array(
				'meta' => array(
					'cairn_geometry' => self::area(),
					'cairn_lat'      => 45.5,
					'cairn_lng'      => 9.5,
				),
			)
		);
		$this->assertSame( 200, $response->get_status(), 'answer: ' . wp_json_encode( $response->get_data() ) );
		$this->assertSame( 'Polygon', $response->get_data()['meta']['cairn_geometry']['type'] );
		$this->assertEquals( 45.5, $response->get_data()['meta']['cairn_lat'], 'the coordinates given are kept' );
		$this->assertSame( array( 8, 44, 10, 46 ), Shape_Store::shape( $id )['bbox'] ?? null );

		$same = $this->rest( 'POST', self::ROUTE . '/' . $id, array( 'meta' => array( 'cairn_geometry' => self::area() ) ) );
		$this->assertSame( 200, $same->get_status() );
		$this->assertEquals( 45.5, $same->get_data()['meta']['cairn_lat'], 'the same shape again leaves the point chosen for it' );

		$moved = $this->rest( 'POST', self::ROUTE . '/' . $id, array( 'meta' => array( 'cairn_geometry' => self::trail() ) ) );
		$this->assertSame( 200, $moved->get_status() );
		$this->assertEquals( 46, $moved->get_data()['meta']['cairn_lat'], 'a new shape without coordinates: its anchor' );

		$before  = $this->version();
		$removed = $this->rest( 'POST', self::ROUTE . '/' . $id, array( 'meta' => array( 'cairn_geometry' => null ) ) );
		$this->assertSame( 200, $removed->get_status(), 'answer: ' . wp_json_encode( $removed->get_data() ) );
		$this->assertNull( $removed->get_data()['meta']['cairn_geometry'] );
		$this->assertEquals( 46, $removed->get_data()['meta']['cairn_lat'], 'the point stays' );
		$this->assertNull( self::stored( $id, 'cairn_geometry' ) );
		$this->assertNull( self::stored( $id, '_cairn_shape' ) );
		$this->assertNotSame( $before, $this->version() );

		$again = $this->rest( 'POST', self::ROUTE . '/' . $id, array( 'meta' => array( 'cairn_geometry' => null ) ) );
		$this->assertSame( 200, $again->get_status(), 'removing no shape is fine' );
	}

	/**
	 * A bad shape is refused with the rule's message, and nothing is saved: no marker created, or
	 * the marker's title, place and shape unchanged.
	 */
	public function test_a_bad_shape_saves_nothing(): void {
		$this->act_as( 'editor' );
		$count    = $this->count_markers();
		$unclosed = array(
			'type'        => 'Polygon',
			'coordinates' => array( array( array( 8, 44 ), array( 10, 44 ), array( 10, 46 ), array( 8, 46 ) ) ),
		);
		$response = $this->rest(
			'POST',
			self::ROUTE,
			array(
				'title'  => 'Broken zone',
				'status' => 'publish',
				'meta'   => array( 'cairn_geometry' => $unclosed ),
			)
		);
		$this->assert_refused( $response, 'Ring 1 is not closed' );
		$this->assertSame( $count, $this->count_markers(), 'no marker created' );

		$id = $this->create_marker( array( 'post_title' => 'Ridge' ) );
		Shape_Store::save( $id, $this->checked( self::trail() ) );
		$geometry = self::stored( $id, 'cairn_geometry' );
		$shape    = self::stored( $id, '_cairn_shape' );
		$this->assertNotNull( $geometry );
		foreach ( array(
			array(
				array(
					'type'        => 'Point',
					'coordinates' => array( 7, 46 ),
				),
				'A Point is not a shape',
			),
			array(
				array(
					'type'        => 'LineString',
					'coordinates' => array( array( 7, 46 ), array( 7, 95 ) ),
				),
				'its latitude 95 is not between -90 and 90',
			),
			array( 'not a geometry', 'must be a GeoJSON geometry' ),
		) as list( $bad, $message ) ) {
			$refused = $this->rest(
				'POST',
				self::ROUTE . '/' . $id,
				array(
					'title' => 'Renamed',
					'meta'  => array(
						'cairn_geometry' => $bad,
						'cairn_lat'      => 10,
						'cairn_lng'      => 10,
					),
				)
			);
			$this->assert_refused( $refused, $message );
			$this->assertSame( 'Ridge', get_post( $id )->post_title ?? null );
			$this->assertSame( '51.5', self::stored( $id, 'cairn_lat' ) );
			$this->assertSame( $geometry, self::stored( $id, 'cairn_geometry' ) );
			$this->assertSame( $shape, self::stored( $id, '_cairn_shape' ) );
		}
	}

	/**
	 * A million positions are refused before the body is decoded: fast, with little memory, the
	 * rule's message, nothing saved. A body of exactly the most positions passes that guard.
	 */
	public function test_a_million_positions_are_refused_before_decoding(): void {
		$this->act_as( 'editor' );
		$count = $this->count_markers();
		$body  = '{"title":"Huge","status":"publish","meta":{"cairn_geometry":{"type":"LineString","coordinates":[' . str_repeat( '[7.1,46.1],', 999999 ) . '[7.2,46.2]]}}}';

		$request = new \WP_REST_Request( 'POST', self::ROUTE );
		$request->set_header( 'Content-Type', 'application/json' );
		$request->set_body( $body );
		memory_reset_peak_usage();
		$before   = memory_get_peak_usage();
		$response = rest_get_server()->dispatch( $request );
		$grown    = memory_get_peak_usage() - $before;

		$this->assert_refused( $response, 'This shape has 1,000,000 vertices; the most a shape may have is 100,000.' );
		$this->assertSame( $count, $this->count_markers() );
		$this->assertLessThan( 16 * MB_IN_BYTES, $grown, 'bytes: the body was not decoded (that takes over 150 MB)' );
		fwrite( STDERR, sprintf( "\n[geo] 1,000,000 positions over REST: refused, peak memory +%.1f MB\n", $grown / MB_IN_BYTES ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fwrite -- the measurement, for the record.

		$most = '{"title":"Long","status":"draft","cairn-marker-groups":[],"meta":{"cairn_geometry":{"type":"LineString","coordinates":[' . str_repeat( '[7.1,46.1],', 99999 ) . '[7.2,46.2]]}}}';
		$ok   = new \WP_REST_Request( 'POST', self::ROUTE );
		$ok->set_header( 'Content-Type', 'application/json' );
		$ok->set_body( $most );
		$this->assertSame( 201, rest_get_server()->dispatch( $ok )->get_status(), '100,000 positions are allowed' );
	}

	/**
	 * Who may write a shape is who may write the marker: subscribers and visitors never, a
	 * contributor on their own draft but not on another's marker.
	 */
	public function test_writing_a_shape_needs_the_marker_capability(): void {
		$count = $this->count_markers();
		foreach ( array(
			'anonymous'  => 401,
			'subscriber' => 403,
		) as $role => $status ) {
			$this->act_as( $role );
			$response = $this->rest(
				'POST',
				self::ROUTE,
				array(
					'title' => 'Sneaky',
					'meta'  => array( 'cairn_geometry' => self::trail() ),
				)
			);
			$this->assertSame( $status, $response->get_status(), $role );
		}
		$this->assertSame( $count, $this->count_markers() );

		$others = $this->create_marker( array( 'post_title' => 'Not yours' ) );
		$this->act_as( 'contributor' );
		$refused = $this->rest( 'POST', self::ROUTE . '/' . $others, array( 'meta' => array( 'cairn_geometry' => self::trail() ) ) );
		$this->assertSame( 403, $refused->get_status() );
		$this->assertNull( self::stored( $others, 'cairn_geometry' ) );

		$draft = $this->rest(
			'POST',
			self::ROUTE,
			array(
				'title'  => 'My draft trail',
				'status' => 'draft',
				'meta'   => array( 'cairn_geometry' => self::trail() ),
			)
		);
		$this->assertSame( 201, $draft->get_status(), 'answer: ' . wp_json_encode( $draft->get_data() ) );
		$this->assertNotNull( self::stored( (int) $draft->get_data()['id'], '_cairn_shape' ) );
	}

	/**
	 * A password-protected marker's shape is hidden as its coordinates are.
	 */
	public function test_a_protected_shape_is_hidden(): void {
		$id = $this->create_marker( array( 'post_password' => 'secret' ) );
		Shape_Store::save( $id, $this->checked( self::area() ) );
		$this->act_as( 'anonymous' );
		$response = $this->rest( 'GET', self::ROUTE . '/' . $id );
		$this->assertSame( 200, $response->get_status() );
		$this->assertNull( $response->get_data()['meta']['cairn_geometry'] );
		$this->assertStringNotContainsString( '44', (string) wp_json_encode( $response->get_data()['meta'] ) );
	}

	/**
	 * Written from PHP: checked by the sanitize callback, derived again; deleted with the meta or
	 * the marker; a published marker's shape changes the feed's version, a draft's does not.
	 */
	public function test_php_writes_keep_the_derived_copy(): void {
		$id = $this->create_marker();
		update_post_meta( $id, 'cairn_geometry', self::trail() );
		$this->assertStringStartsWith( '{"type":"LineString"', (string) self::stored( $id, 'cairn_geometry' ) );
		$this->assertSame( 111195, Shape_Store::shape( $id )['length_m'] ?? null );

		update_post_meta( $id, 'cairn_geometry', wp_slash( (string) wp_json_encode( self::area() ) ) );
		$this->assertSame( 'Polygon', Shape_Store::shape( $id )['geometry']['type'] ?? null );

		update_post_meta(
			$id,
			'cairn_geometry',
			array(
				'type'        => 'Point',
				'coordinates' => array( 1, 2 ),
			)
		);
		$this->assertSame( '', get_post_meta( $id, 'cairn_geometry', true ), 'an invalid shape is stored empty' );
		$this->assertNull( Shape_Store::geometry( $id ) );
		$this->assertNull( self::stored( $id, '_cairn_shape' ) );

		Shape_Store::save( $id, $this->checked( self::trail() ) );
		delete_post_meta( $id, 'cairn_geometry' );
		$this->assertNull( self::stored( $id, '_cairn_shape' ) );

		$draft  = $this->create_marker( array( 'post_status' => 'draft' ) );
		$before = $this->version();
		Shape_Store::save( $draft, $this->checked( self::trail() ) );
		$this->assertSame( $before, $this->version(), 'a draft\'s shape does not change the feed' );
		Shape_Store::save( $id, $this->checked( self::area() ) );
		$this->assertNotSame( $before, $this->version(), 'a published marker\'s shape does' );

		wp_delete_post( $id, true );
		$this->assertNull( self::stored( $id, 'cairn_geometry' ) );
		$this->assertNull( self::stored( $id, '_cairn_shape' ) );
	}
}
