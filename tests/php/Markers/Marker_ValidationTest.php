<?php
/**
 * Writes through core's /wp/v2/cairn-markers.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Markers;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Tests\TestCase;
use WP_REST_Request;
use WP_REST_Response;

/**
 * Invalid coordinates are refused with a 400 naming the field, and nothing is saved.
 *
 * @since 0.1.0
 */
final class Marker_ValidationTest extends TestCase {

	private const ROUTE = '/wp/v2/cairn-markers';

	/**
	 * Sends a raw JSON body (for literals such as 1e999 that PHP cannot encode).
	 *
	 * @param string $method HTTP method.
	 * @param string $route  Route.
	 * @param string $json   Body.
	 */
	private function raw_json( string $method, string $route, string $json ): WP_REST_Response {
		$request = new WP_REST_Request( $method, $route );
		$request->set_header( 'Content-Type', 'application/json' );
		$request->set_body( $json );
		return rest_get_server()->dispatch( $request );
	}

	/**
	 * Asserts a 400 whose message names a field.
	 *
	 * @param WP_REST_Response $response Response.
	 * @param string           $field    Text the message must contain.
	 */
	private function assert_refused( WP_REST_Response $response, string $field ): void {
		$this->assertSame( 400, $response->get_status(), 'answer: ' . wp_json_encode( $response->get_data() ) );
		$this->assertStringContainsString( $field, $response->get_data()['message'] );
	}

	/**
	 * Bad coordinate values, as JSON text, and the field the message must name.
	 *
	 * @return array<string, array{0: string, 1: string}>
	 */
	public function bad_coordinates(): array {
		return array(
			'latitude above 90'        => array( '{"cairn_lat":90.0001,"cairn_lng":0}', 'cairn_lat' ),
			'latitude below -90'       => array( '{"cairn_lat":-91,"cairn_lng":0}', 'cairn_lat' ),
			'longitude above 180'      => array( '{"cairn_lat":0,"cairn_lng":180.5}', 'cairn_lng' ),
			'longitude below -180'     => array( '{"cairn_lat":0,"cairn_lng":-181}', 'cairn_lng' ),
			'latitude as words'        => array( '{"cairn_lat":"north","cairn_lng":0}', 'cairn_lat' ),
			'latitude "NaN"'           => array( '{"cairn_lat":"NaN","cairn_lng":0}', 'cairn_lat' ),
			'longitude "INF"'          => array( '{"cairn_lat":0,"cairn_lng":"INF"}', 'cairn_lng' ),
			'longitude "-INF"'         => array( '{"cairn_lat":0,"cairn_lng":"-INF"}', 'cairn_lng' ),
			'latitude 1e999 literal'   => array( '{"cairn_lat":1e999,"cairn_lng":0}', 'cairn_lat' ),
			'longitude -1e999 literal' => array( '{"cairn_lat":0,"cairn_lng":-1e999}', 'cairn_lng' ),
			'latitude "1e999" string'  => array( '{"cairn_lat":"1e999","cairn_lng":0}', 'cairn_lat' ),
			'latitude empty string'    => array( '{"cairn_lat":"","cairn_lng":0}', 'cairn_lat' ),
			'latitude boolean'         => array( '{"cairn_lat":true,"cairn_lng":0}', 'cairn_lat' ),
			'longitude array'          => array( '{"cairn_lat":0,"cairn_lng":[1]}', 'cairn_lng' ),
			'longitude object'         => array( '{"cairn_lat":0,"cairn_lng":{"v":1}}', 'cairn_lng' ),
			'latitude hex'             => array( '{"cairn_lat":"0x1A","cairn_lng":0}', 'cairn_lat' ),
		);
	}

	/**
	 * Creating a marker with a bad coordinate, as a draft or published, stores nothing.
	 *
	 * @dataProvider bad_coordinates
	 *
	 * @param string $meta  Meta object as JSON.
	 * @param string $field Field the message names.
	 */
	public function test_create_with_a_bad_coordinate_is_refused_and_saves_nothing( string $meta, string $field ): void {
		$this->act_as( 'editor' );
		foreach ( array( 'draft', 'publish' ) as $status ) {
			$before   = $this->count_markers();
			$response = $this->raw_json( 'POST', self::ROUTE, '{"title":"Bad","status":"' . $status . '","meta":' . $meta . '}' );
			$this->assert_refused( $response, $field );
			$this->assertSame( $before, $this->count_markers(), "no {$status} marker was created" );
		}
	}

	/**
	 * Updating a published marker with a bad coordinate changes nothing, not even the title.
	 *
	 * @dataProvider bad_coordinates
	 *
	 * @param string $meta  Meta object as JSON.
	 * @param string $field Field the message names.
	 */
	public function test_update_with_a_bad_coordinate_changes_nothing( string $meta, string $field ): void {
		$this->act_as( 'editor' );
		$id = $this->create_marker(
			array(
				'post_title' => 'Before',
				'lat'        => 10,
				'lng'        => 20,
			)
		);

		$response = $this->raw_json( 'POST', self::ROUTE . '/' . $id, '{"title":"After","meta":' . $meta . '}' );

		$this->assert_refused( $response, $field );
		clean_post_cache( $id );
		$this->assertSame( 'Before', get_post( $id )->post_title );
		$this->assertSame( '10', get_post_meta( $id, Post_Type::META_LAT, true ) );
		$this->assertSame( '20', get_post_meta( $id, Post_Type::META_LNG, true ) );
	}

	/**
	 * A valid marker is stored, its coordinates as plain decimals.
	 */
	public function test_valid_marker_is_created_with_its_coordinates(): void {
		$this->act_as( 'author' );
		$response = $this->rest(
			'POST',
			self::ROUTE,
			array(
				'title'  => 'Ben Nevis',
				'status' => 'publish',
				'meta'   => array(
					'cairn_lat' => 56.796891,
					'cairn_lng' => '-5.0035',
				),
			)
		);
		$this->assertSame( 201, $response->get_status(), wp_json_encode( $response->get_data() ) );
		$id = $response->get_data()['id'];
		$this->assertSame( '56.796891', get_post_meta( $id, Post_Type::META_LAT, true ) );
		$this->assertSame( '-5.0035', get_post_meta( $id, Post_Type::META_LNG, true ) );
		$this->assertSame( 56.796891, $response->get_data()['meta']['cairn_lat'] );
		$this->assertSame( 'publish', get_post_status( $id ) );
	}

	/**
	 * The extremes of the ranges are valid, and tiny numbers are stored without exponents.
	 */
	public function test_range_limits_are_accepted(): void {
		$this->act_as( 'editor' );
		foreach ( array( array( 90, 180 ), array( -90, -180 ), array( 0.0000001, -0.0000001 ) ) as list( $lat, $lng ) ) {
			$response = $this->rest(
				'POST',
				self::ROUTE,
				array(
					'title'  => 'Edge',
					'status' => 'publish',
					'meta'   => array(
						'cairn_lat' => $lat,
						'cairn_lng' => $lng,
					),
				)
			);
			$this->assertSame( 201, $response->get_status(), wp_json_encode( $response->get_data() ) );
			$stored = get_post_meta( $response->get_data()['id'], Post_Type::META_LAT, true );
			$this->assertStringNotContainsStringIgnoringCase( 'e', $stored );
			$this->assertEqualsWithDelta( $lat, (float) $stored, 1e-9 );
		}
	}

	/**
	 * Publishing needs both coordinates, at creation.
	 *
	 * @return array<string, array{0: array<string, float>, 1: string}>
	 */
	public function incomplete_coordinates(): array {
		return array(
			'no coordinates'  => array( array(), 'cairn_lat' ),
			'latitude only'   => array( array( 'cairn_lat' => 1.5 ), 'cairn_lng' ),
			'longitude only'  => array( array( 'cairn_lng' => 1.5 ), 'cairn_lat' ),
			'latitude nulled' => array(
				array(
					'cairn_lat' => null,
					'cairn_lng' => 1.5,
				),
				'cairn_lat',
			),
		);
	}

	/**
	 * A published or scheduled marker without both coordinates is refused; a draft is fine.
	 *
	 * @dataProvider incomplete_coordinates
	 *
	 * @param array<string, float> $meta  Meta sent.
	 * @param string               $field Field the message names.
	 */
	public function test_publishing_without_both_coordinates_is_refused( array $meta, string $field ): void {
		$this->act_as( 'editor' );
		$before = $this->count_markers();
		$params = array(
			'title'  => 'Somewhere',
			'status' => 'publish',
		);
		if ( array() !== $meta ) {
			$params['meta'] = $meta;
		}
		$this->assert_refused( $this->rest( 'POST', self::ROUTE, $params ), $field );
		$this->assert_refused(
			$this->rest(
				'POST',
				self::ROUTE,
				array_merge(
					$params,
					array(
						'status' => 'future',
						'date'   => gmdate(
							'Y-m-d\TH:i:s',
							time() + DAY_IN_SECONDS
						),
					)
				)
			),
			$field
		);
		$this->assertSame( $before, $this->count_markers() );

		$draft = $this->rest( 'POST', self::ROUTE, array_merge( $params, array( 'status' => 'draft' ) ) );
		$this->assertSame( 201, $draft->get_status() );
	}

	/**
	 * A draft without coordinates reads null coordinates, not 0,0, and cannot be published
	 * until they are given.
	 */
	public function test_publishing_a_draft_needs_its_coordinates(): void {
		$this->act_as( 'editor' );
		$created = $this->rest(
			'POST',
			self::ROUTE,
			array(
				'title'  => 'Draft',
				'status' => 'draft',
			)
		);
		$this->assertSame( 201, $created->get_status() );
		$id = $created->get_data()['id'];
		$this->assertNull( $created->get_data()['meta']['cairn_lat'] );
		$this->assertNull( $created->get_data()['meta']['cairn_lng'] );

		$refused = $this->rest( 'POST', self::ROUTE . '/' . $id, array( 'status' => 'publish' ) );
		$this->assert_refused( $refused, 'cairn_lat' );
		$this->assertStringContainsString( 'cairn_lng', $refused->get_data()['message'] );
		clean_post_cache( $id );
		$this->assertSame( 'draft', get_post_status( $id ) );

		$half = $this->rest(
			'POST',
			self::ROUTE . '/' . $id,
			array(
				'status' => 'publish',
				'meta'   => array( 'cairn_lat' => 12 ),
			)
		);
		$this->assert_refused( $half, 'cairn_lng' );
		$this->assertSame( '', get_post_meta( $id, Post_Type::META_LAT, true ), 'the half update stored nothing' );

		$published = $this->rest(
			'POST',
			self::ROUTE . '/' . $id,
			array(
				'status' => 'publish',
				'meta'   => array(
					'cairn_lat' => 12,
					'cairn_lng' => 34,
				),
			)
		);
		$this->assertSame( 200, $published->get_status() );
		$this->assertSame( 'publish', get_post_status( $id ) );
	}

	/**
	 * A published marker keeps its coordinates: removing one is refused; editing the title alone
	 * is fine.
	 */
	public function test_a_published_marker_cannot_lose_a_coordinate(): void {
		$this->act_as( 'editor' );
		$id = $this->create_marker(
			array(
				'lat' => 1,
				'lng' => 2,
			)
		);
		$this->assert_refused(
			$this->raw_json( 'POST', self::ROUTE . '/' . $id, '{"meta":{"cairn_lng":null}}' ),
			'cairn_lng'
		);
		$this->assertSame( '2', get_post_meta( $id, Post_Type::META_LNG, true ) );

		$renamed = $this->rest( 'POST', self::ROUTE . '/' . $id, array( 'title' => 'Renamed' ) );
		$this->assertSame( 200, $renamed->get_status() );
		$this->assertSame( 'Renamed', get_post( $id )->post_title );
	}

	/**
	 * Who may do what, per role.
	 *
	 * @return array<string, array{0: string, 1: int, 2: int, 3: int, 4: int}>
	 *         role, create draft, create published, edit own published, edit another's.
	 */
	public function roles(): array {
		return array(
			'anonymous'     => array( 'anonymous', 401, 401, 0, 401 ),
			'subscriber'    => array( 'subscriber', 403, 403, 0, 403 ),
			'contributor'   => array( 'contributor', 201, 403, 0, 403 ),
			'author'        => array( 'author', 201, 201, 200, 403 ),
			'editor'        => array( 'editor', 201, 201, 200, 200 ),
			'administrator' => array( 'administrator', 201, 201, 200, 200 ),
		);
	}

	/**
	 * Capabilities follow WordPress' post rules: contributors draft, authors publish their own,
	 * editors edit all; subscribers and visitors cannot write. Refusals store nothing.
	 *
	 * @dataProvider roles
	 *
	 * @param string $role         Role.
	 * @param int    $create_draft Expected status creating a draft.
	 * @param int    $create_pub   Expected status creating a published marker.
	 * @param int    $edit_own     Expected status editing one's own published marker (0: n/a).
	 * @param int    $edit_other   Expected status editing another user's marker.
	 */
	public function test_capabilities_by_role( string $role, int $create_draft, int $create_pub, int $edit_own, int $edit_other ): void {
		$owner = $this->create_user( 'editor' );
		wp_set_current_user( $owner );
		$others = $this->create_marker(
			array(
				'post_title' => 'Not yours',
				'lat'        => 5,
				'lng'        => 6,
			)
		);
		$user   = $this->act_as( $role );
		$marker = array(
			'title' => 'Mine',
			'meta'  => array(
				'cairn_lat' => 1,
				'cairn_lng' => 2,
			),
		);

		$before = $this->count_markers();
		$draft  = $this->rest( 'POST', self::ROUTE, $marker + array( 'status' => 'draft' ) );
		$this->assertSame( $create_draft, $draft->get_status(), "{$role} creating a draft" );
		$published = $this->rest( 'POST', self::ROUTE, $marker + array( 'status' => 'publish' ) );
		$this->assertSame( $create_pub, $published->get_status(), "{$role} publishing" );
		$this->assertSame( $before + ( 201 === $create_draft ? 1 : 0 ) + ( 201 === $create_pub ? 1 : 0 ), $this->count_markers(), 'refusals stored nothing' );

		if ( $edit_own ) {
			$own = $this->create_marker(
				array(
					'post_author' => $user,
					'lat'         => 1,
					'lng'         => 1,
				)
			);
			$this->assertSame( $edit_own, $this->rest( 'POST', self::ROUTE . '/' . $own, array( 'meta' => array( 'cairn_lat' => 3 ) ) )->get_status(), "{$role} editing their own marker" );
		}

		$other = $this->rest(
			'POST',
			self::ROUTE . '/' . $others,
			array(
				'title' => 'Taken over',
				'meta'  => array( 'cairn_lat' => 7 ),
			)
		);
		$this->assertSame( $edit_other, $other->get_status(), "{$role} editing another's marker" );
		if ( 200 !== $edit_other ) {
			clean_post_cache( $others );
			$this->assertSame( 'Not yours', get_post( $others )->post_title );
			$this->assertSame( '5', get_post_meta( $others, Post_Type::META_LAT, true ) );
		}
	}

	/**
	 * Script in a title: kept out for authors (kses), never raw in the feed for anyone.
	 */
	public function test_script_in_titles_is_filtered_by_role_and_plain_in_the_feed(): void {
		$this->act_as( 'author' );
		$by_author = $this->rest(
			'POST',
			self::ROUTE,
			array(
				'title'  => '<script>alert(1)</script>Hello <b>bold</b> &amp; co',
				'status' => 'publish',
				'meta'   => array(
					'cairn_lat' => 1,
					'cairn_lng' => 1,
				),
			)
		);
		$this->assertSame( 201, $by_author->get_status() );
		$this->assertStringNotContainsString( '<script', get_post( $by_author->get_data()['id'] )->post_title );

		$this->act_as( 'administrator' );
		$by_admin = $this->rest(
			'POST',
			self::ROUTE,
			array(
				'title'  => '<img src=x onerror=alert(2)>Admin <script>alert(3)</script>',
				'status' => 'publish',
				'meta'   => array(
					'cairn_lat' => 2,
					'cairn_lng' => 2,
				),
			)
		);
		$this->assertSame( 201, $by_admin->get_status() );

		wp_set_current_user( 0 );
		$titles = array_column( array_column( $this->rest( 'GET', '/cairn/v1/markers' )->get_data()['features'], 'properties' ), 'title' );
		$this->assertCount( 2, $titles );
		foreach ( $titles as $title ) {
			$this->assertStringNotContainsString( '<', $title );
			$this->assertStringNotContainsString( '&amp;', $title, 'entities are decoded: plain text' );
		}
		$this->assertContains( 'Admin', array_map( 'trim', $titles ) );
	}

	/**
	 * Text that is not UTF-8 is refused with a 400 (not a database error), and nothing is saved.
	 */
	public function test_broken_utf8_is_refused(): void {
		$this->act_as( 'editor' );
		$before = $this->count_markers();

		$form = new WP_REST_Request( 'POST', self::ROUTE );
		$form->set_body_params(
			array(
				'title'  => "Caf\xC3\x28 \xFF",
				'status' => 'draft',
			)
		);
		$response = rest_get_server()->dispatch( $form );
		$this->assert_refused( $response, 'title' );

		$json = $this->raw_json( 'POST', self::ROUTE, "{\"title\":\"Caf\xC3\x28\",\"status\":\"draft\"}" );
		$this->assertSame( 400, $json->get_status() );

		$this->assertSame( $before, $this->count_markers() );
	}

	/**
	 * A 10 kB title is stored whole; the feed carries a capped plain-text version.
	 */
	public function test_a_huge_title_is_stored_and_capped_in_the_feed(): void {
		$this->act_as( 'editor' );
		$title    = str_repeat( 'Très long titre ', 640 );
		$response = $this->rest(
			'POST',
			self::ROUTE,
			array(
				'title'  => $title,
				'status' => 'publish',
				'meta'   => array(
					'cairn_lat' => 1,
					'cairn_lng' => 1,
				),
			)
		);
		$this->assertSame( 201, $response->get_status() );
		$this->assertSame( trim( $title ), trim( get_post( $response->get_data()['id'] )->post_title ) );

		$feed = $this->rest( 'GET', '/cairn/v1/markers' )->get_data();
		$this->assertLessThanOrEqual( 200, mb_strlen( $feed['features'][0]['properties']['title'] ) );
		$this->assertStringEndsWith( '…', $feed['features'][0]['properties']['title'] );
	}

	/**
	 * Texts larger than their database column, and who sends them.
	 *
	 * @return array<string, array{0: string, 1: string, 2: mixed, 3: string}>
	 */
	public function oversized_texts(): array {
		return array(
			'a 70,000-character title'                => array( 'editor', 'title', str_repeat( 'a', 70000 ), 'The title is too long: it may hold at most 64 KB of text.' ),
			'a title of 30,000 multi-byte characters' => array( 'editor', 'title', str_repeat( 'é', 33000 ), 'The title is too long' ),
			'a title that kses makes too long'        => array( 'author', 'title', str_repeat( '&', 20000 ), 'The title is too long' ),
			'a 70,000-character excerpt'              => array( 'editor', 'excerpt', str_repeat( 'b', 70000 ), 'The excerpt is too long: it may hold at most 64 KB of text.' ),
			'a 300-character password'                => array( 'editor', 'password', str_repeat( 'p', 300 ), 'The password is too long: it may hold at most 255 characters.' ),
		);
	}

	/**
	 * A text the database column cannot hold is a 400 naming the field, never core's
	 * `500 db_insert_error`; nothing is saved, and an update leaves the marker as it was.
	 *
	 * @dataProvider oversized_texts
	 *
	 * @param string $role    Role.
	 * @param string $field   REST field.
	 * @param string $value   Its value.
	 * @param string $message Start of the expected message.
	 */
	public function test_texts_larger_than_their_column_are_refused( string $role, string $field, string $value, string $message ): void {
		$this->act_as( $role );
		$fields   = array(
			'status' => 'publish',
			'title'  => 'Hut',
			'meta'   => array(
				'cairn_lat' => 1,
				'cairn_lng' => 1,
			),
		);
		$response = $this->rest( 'POST', self::ROUTE, array( $field => $value ) + $fields );
		$this->assertSame( 400, $response->get_status(), 'answer: ' . substr( (string) wp_json_encode( $response->get_data() ), 0, 300 ) );
		$this->assertStringStartsWith( $message, $response->get_data()['message'] );
		$this->assertSame( $message, substr( $response->get_data()['data']['params'][ $field ], 0, strlen( $message ) ) );
		$this->assertSame( 0, $this->count_markers() );

		$marker = $this->rest( 'POST', self::ROUTE, $fields );
		$this->assertSame( 201, $marker->get_status() );
		$id       = $marker->get_data()['id'];
		$response = $this->rest( 'POST', self::ROUTE . '/' . $id, array( $field => $value ) );
		$this->assertSame( 400, $response->get_status() );
		$this->assertSame( 'Hut', get_post( $id )->post_title );
		$this->assertSame( '', get_post( $id )->post_excerpt );
		$this->assertSame( '', get_post( $id )->post_password );
	}

	/**
	 * The import has its own, stricter title limit, with a message for the line (the row is
	 * refused, the others imported).
	 */
	public function test_an_import_refuses_a_70000_character_title(): void {
		$this->act_as( 'editor' );
		$request = new WP_REST_Request( 'POST', '/cairn/v1/markers/import' );
		$request->set_header( 'Content-Type', 'text/csv' );
		$request->set_body( "title,lat,lng\n" . str_repeat( 'a', 70000 ) . ",1,1\nOk,2,2\n" );
		$response = rest_get_server()->dispatch( $request );
		$this->assertSame( 200, $response->get_status(), 'a partial import: the other row is imported' );
		$this->assertSame(
			array(
				'line'    => 2,
				'message' => 'The title is longer than 500 characters.',
			),
			$response->get_data()['skipped'][0]
		);
		$this->assertSame( 1, $this->count_markers() );
	}
}
