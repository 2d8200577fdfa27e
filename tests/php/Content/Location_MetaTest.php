<?php
/**
 * Locations written through core's /wp/v2/<type>.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Content;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Location_Meta;
use Cairn\Maps\Content\Location_Types;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Tests\TestCase;
use WP_REST_Request;
use WP_REST_Response;

/**
 * A location is checked like a marker's coordinates: a 400 naming the field, and nothing saved —
 * neither the post nor any of its meta.
 *
 * @since 0.3.0
 */
final class Location_MetaTest extends TestCase {

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
	 * Every row of wp_posts and wp_postmeta, to compare before and after a refused write.
	 *
	 * @return array{0: mixed, 1: mixed}
	 */
	private function stored_rows(): array {
		global $wpdb;
		// phpcs:disable WordPress.DB.DirectDatabaseQuery -- the rows themselves are what is checked.
		return array(
			$wpdb->get_results( "SELECT ID, post_title, post_status, post_modified_gmt FROM {$wpdb->posts} ORDER BY ID", ARRAY_A ),
			$wpdb->get_results( "SELECT post_id, meta_key, meta_value FROM {$wpdb->postmeta} ORDER BY meta_id", ARRAY_A ),
		);
		// phpcs:enable
	}

	/**
	 * Asserts a 400 whose message names a field, and that nothing was stored.
	 *
	 * @param WP_REST_Response          $response Response.
	 * @param string                    $field    Text the message must contain.
	 * @param array{0: mixed, 1: mixed} $before Rows before the request.
	 */
	private function assert_refused_and_unchanged( WP_REST_Response $response, string $field, array $before ): void {
		$this->assertSame( 400, $response->get_status(), 'answer: ' . wp_json_encode( $response->get_data() ) );
		$this->assertStringContainsString( $field, $response->get_data()['message'] );
		$this->assertSame( $before, $this->stored_rows(), 'nothing was written' );
	}

	/**
	 * Bad location meta, as JSON text, and the field the message must name.
	 *
	 * @return array<string, array{0: string, 1: string}>
	 */
	public function bad_locations(): array {
		return array(
			'latitude above 90'        => array( '{"geo_latitude":90.0001,"geo_longitude":0}', 'geo_latitude' ),
			'latitude below -90'       => array( '{"geo_latitude":-91,"geo_longitude":0}', 'geo_latitude' ),
			'longitude above 180'      => array( '{"geo_latitude":0,"geo_longitude":180.5}', 'geo_longitude' ),
			'longitude below -180'     => array( '{"geo_latitude":0,"geo_longitude":-181}', 'geo_longitude' ),
			'latitude as words'        => array( '{"geo_latitude":"north","geo_longitude":0}', 'geo_latitude' ),
			'latitude "NaN"'           => array( '{"geo_latitude":"NaN","geo_longitude":0}', 'geo_latitude' ),
			'longitude "INF"'          => array( '{"geo_latitude":0,"geo_longitude":"INF"}', 'geo_longitude' ),
			'latitude 1e999 literal'   => array( '{"geo_latitude":1e999,"geo_longitude":0}', 'geo_latitude' ),
			'latitude "1e999" string'  => array( '{"geo_latitude":"1e999","geo_longitude":0}', 'geo_latitude' ),
			'latitude empty string'    => array( '{"geo_latitude":"","geo_longitude":0}', 'geo_latitude' ),
			'latitude boolean'         => array( '{"geo_latitude":true,"geo_longitude":0}', 'geo_latitude' ),
			'longitude array'          => array( '{"geo_latitude":0,"geo_longitude":[1]}', 'geo_longitude' ),
			'latitude hex'             => array( '{"geo_latitude":"0x1A","geo_longitude":0}', 'geo_latitude' ),
			'latitude only'            => array( '{"geo_latitude":12.5}', 'geo_longitude' ),
			'longitude only'           => array( '{"geo_longitude":12.5,"geo_public":true}', 'geo_latitude' ),
			'longitude removed'        => array( '{"geo_latitude":12.5,"geo_longitude":null}', 'geo_longitude' ),
			'address too long'         => array( '{"geo_latitude":1,"geo_longitude":2,"geo_address":"' . str_repeat( 'a', 501 ) . '"}', 'geo_address' ),
			'address a number'         => array( '{"geo_latitude":1,"geo_longitude":2,"geo_address":12}', 'geo_address' ),
			'geo_public not a boolean' => array( '{"geo_latitude":1,"geo_longitude":2,"geo_public":"perhaps"}', 'geo_public' ),
		);
	}

	/**
	 * Creating a post with a bad location, as a draft or published, stores nothing.
	 *
	 * @dataProvider bad_locations
	 *
	 * @param string $meta  Meta object as JSON.
	 * @param string $field Field the message names.
	 */
	public function test_create_with_a_bad_location_is_refused_and_saves_nothing( string $meta, string $field ): void {
		$this->act_as( 'editor' );
		foreach ( array( 'draft', 'publish' ) as $status ) {
			$before   = $this->stored_rows();
			$response = $this->raw_json( 'POST', '/wp/v2/posts', '{"title":"Bad","status":"' . $status . '","meta":' . $meta . '}' );
			$this->assert_refused_and_unchanged( $response, $field, $before );
		}
	}

	/**
	 * Updating a post with a bad location changes nothing, not even the title.
	 *
	 * @dataProvider bad_locations
	 *
	 * @param string $meta  Meta object as JSON.
	 * @param string $field Field the message names.
	 */
	public function test_update_with_a_bad_location_changes_nothing( string $meta, string $field ): void {
		$this->act_as( 'editor' );
		$id = self::factory_post( array( 'post_title' => 'Before' ) );
		if ( 'longitude removed' !== $this->dataName() ) {
			// A post without a location, except for the case that removes half of one.
			delete_post_meta( $id, Location_Types::META_LAT );
			delete_post_meta( $id, Location_Types::META_LNG );
		}
		$before = $this->stored_rows();

		$response = $this->raw_json( 'POST', '/wp/v2/posts/' . $id, '{"title":"After","meta":' . $meta . '}' );

		$this->assert_refused_and_unchanged( $response, $field, $before );
		clean_post_cache( $id );
		$this->assertSame( 'Before', get_post( $id )->post_title );
	}

	/**
	 * A good location is stored as sent (coordinates as decimal text, the address as plain text).
	 */
	public function test_a_valid_location_is_stored_and_answered(): void {
		$this->act_as( 'author' );
		$response = $this->rest(
			'POST',
			'/wp/v2/posts',
			array(
				'title'  => 'Leith',
				'status' => 'publish',
				'meta'   => array(
					'geo_latitude'  => 55.9756,
					'geo_longitude' => '-3.1695',
					'geo_address'   => "Leith <b>Shore</b>,\nEdinburgh",
					'geo_public'    => true,
				),
			)
		);
		$this->assertSame( 201, $response->get_status(), wp_json_encode( $response->get_data() ) );
		$id = $response->get_data()['id'];
		$this->assertSame( '55.9756', get_post_meta( $id, 'geo_latitude', true ) );
		$this->assertSame( '-3.1695', get_post_meta( $id, 'geo_longitude', true ) );
		$this->assertSame( 'Leith Shore, Edinburgh', get_post_meta( $id, 'geo_address', true ) );
		$this->assertTrue( rest_sanitize_boolean( get_post_meta( $id, 'geo_public', true ) ) );
		$meta = $response->get_data()['meta'];
		$this->assertSame( 55.9756, $meta['geo_latitude'] );
		$this->assertSame( -3.1695, $meta['geo_longitude'] );
		$this->assertTrue( $meta['geo_public'] );
	}

	/**
	 * Removing both coordinates removes the location; sending null for a location never stored
	 * is not an error (the editor sends every registered key).
	 */
	public function test_removing_both_coordinates_and_nulls_without_a_location(): void {
		$this->act_as( 'editor' );
		$id = self::factory_post( array() );

		$response = $this->rest(
			'POST',
			'/wp/v2/posts/' . $id,
			array(
				'meta' => array(
					'geo_latitude'  => null,
					'geo_longitude' => null,
				),
			)
		);
		$this->assertSame( 200, $response->get_status(), wp_json_encode( $response->get_data() ) );
		$this->assertFalse( metadata_exists( 'post', $id, 'geo_latitude' ) );
		$this->assertFalse( metadata_exists( 'post', $id, 'geo_longitude' ) );

		$response = $this->rest(
			'POST',
			'/wp/v2/posts/' . $id,
			array(
				'title' => 'Still fine',
				'meta'  => array(
					'geo_latitude'  => null,
					'geo_longitude' => null,
					'geo_address'   => null,
				),
			)
		);
		$this->assertSame( 200, $response->get_status(), wp_json_encode( $response->get_data() ) );
		$this->assertSame( 'Still fine', get_post( $id )->post_title );
	}

	/**
	 * A post without a location answers null coordinates (not 0, a real place), to its editors too.
	 */
	public function test_a_post_without_a_location_reads_null_coordinates(): void {
		$this->act_as( 'editor' );
		$response = $this->rest(
			'POST',
			'/wp/v2/posts',
			array(
				'title'  => 'No place',
				'status' => 'draft',
			)
		);
		$this->assertSame( 201, $response->get_status() );
		$id = $response->get_data()['id'];
		foreach ( array( $response, $this->rest( 'GET', '/wp/v2/posts/' . $id, array( 'context' => 'edit' ) ) ) as $answer ) {
			$meta = $answer->get_data()['meta'];
			$this->assertNull( $meta['geo_latitude'] );
			$this->assertNull( $meta['geo_longitude'] );
			$this->assertFalse( $meta['geo_public'] );
		}
	}

	/**
	 * A location sent to a post type that is not enabled (pages, by default) is refused with a
	 * message saying so, and no page is created.
	 */
	public function test_a_location_on_a_type_that_is_not_enabled_is_refused(): void {
		$this->act_as( 'editor' );
		$this->assertFalse( Location_Types::is_enabled( 'page' ) );
		$before   = $this->stored_rows();
		$response = $this->rest(
			'POST',
			'/wp/v2/pages',
			array(
				'title'  => 'About',
				'status' => 'publish',
				'meta'   => array(
					'geo_latitude'  => 1,
					'geo_longitude' => 2,
				),
			)
		);
		$this->assert_refused_and_unchanged( $response, 'Locations are not enabled for this post type', $before );

		$page     = self::factory_post( array( 'post_type' => 'page' ) );
		$before   = $this->stored_rows();
		$response = $this->rest( 'POST', '/wp/v2/pages/' . $page, array( 'meta' => array( 'geo_public' => true ) ) );
		$this->assert_refused_and_unchanged( $response, 'geo_public', $before );
	}

	/**
	 * Markers take an address, but not geo coordinates (their place is cairn_lat/cairn_lng).
	 */
	public function test_markers_take_an_address_only(): void {
		$this->act_as( 'editor' );
		$id       = $this->create_marker(
			array(
				'lat' => 10,
				'lng' => 20,
			)
		);
		$response = $this->rest( 'POST', '/wp/v2/cairn-markers/' . $id, array( 'meta' => array( 'geo_address' => 'Rue de Rivoli, Paris' ) ) );
		$this->assertSame( 200, $response->get_status(), wp_json_encode( $response->get_data() ) );
		$this->assertSame( 'Rue de Rivoli, Paris', get_post_meta( $id, 'geo_address', true ) );

		$before   = $this->stored_rows();
		$response = $this->rest( 'POST', '/wp/v2/cairn-markers/' . $id, array( 'meta' => array( 'geo_latitude' => 1 ) ) );
		$this->assert_refused_and_unchanged( $response, 'geo_latitude', $before );
		$this->assertSame( '10', get_post_meta( $id, Post_Type::META_LAT, true ) );
	}

	/**
	 * Someone who cannot edit the post cannot write its location (core's 401/403 first).
	 */
	public function test_a_contributor_cannot_set_the_location_of_someone_elses_post(): void {
		$id = self::factory_post( array( 'post_author' => $this->create_user( 'editor' ) ) );
		$this->act_as( 'contributor' );
		$response = $this->rest( 'POST', '/wp/v2/posts/' . $id, array( 'meta' => array( 'geo_latitude' => 0 ) ) );
		$this->assertContains( $response->get_status(), array( 401, 403 ) );
		$this->assertSame( '55.95', get_post_meta( $id, 'geo_latitude', true ) );
	}

	/**
	 * The meta is registered on enabled types only, and the address on markers.
	 */
	public function test_registration(): void {
		$this->assertArrayHasKey( 'geo_latitude', get_registered_meta_keys( 'post', 'post' ) );
		$this->assertArrayHasKey( 'geo_public', get_registered_meta_keys( 'post', 'post' ) );
		$this->assertArrayNotHasKey( 'geo_latitude', get_registered_meta_keys( 'post', 'page' ) );
		$this->assertArrayHasKey( 'geo_address', get_registered_meta_keys( 'post', Post_Type::POST_TYPE ) );
		$this->assertArrayNotHasKey( 'geo_latitude', get_registered_meta_keys( 'post', Post_Type::POST_TYPE ) );
		$this->assertSame( Location_Meta::ADDRESS_MAX, get_registered_meta_keys( 'post', 'post' )['geo_address']['show_in_rest']['schema']['maxLength'] );
	}

	/**
	 * A published post at 55.95, -3.19 whose location is public.
	 *
	 * @param array<string, mixed> $args wp_insert_post() arguments.
	 */
	private static function factory_post( array $args ): int {
		$id = wp_insert_post(
			array_merge(
				array(
					'post_title'  => 'A post',
					'post_status' => 'publish',
					'post_type'   => 'post',
				),
				$args
			)
		);
		update_post_meta( $id, 'geo_latitude', '55.95' );
		update_post_meta( $id, 'geo_longitude', '-3.19' );
		update_post_meta( $id, 'geo_public', '1' );
		return (int) $id;
	}
}
