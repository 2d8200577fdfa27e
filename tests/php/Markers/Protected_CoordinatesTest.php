<?php
/**
 * Coordinates of password-protected markers in core's REST routes.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Markers;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Plugin;
use Cairn\Maps\Tests\TestCase;

/**
 * `/wp/v2/cairn-markers` hides a protected marker's place when it hides its content, as the
 * plugin's own feed and popups do; with the password, or to its editors, the place is there.
 *
 * @since 0.2.0
 */
final class Protected_CoordinatesTest extends TestCase {

	/**
	 * The coordinates an answer shows for a marker.
	 *
	 * @param array<string, mixed> $item A marker as core's controller answers it.
	 * @return array{0: mixed, 1: mixed}
	 */
	private static function coordinates( array $item ): array {
		$meta = is_array( $item['meta'] ?? null ) ? $item['meta'] : array();
		return array(
			array_key_exists( Post_Type::META_LAT, $meta ) ? $meta[ Post_Type::META_LAT ] : 'absent',
			array_key_exists( Post_Type::META_LNG, $meta ) ? $meta[ Post_Type::META_LNG ] : 'absent',
		);
	}

	/**
	 * A published, password-protected marker.
	 */
	private function protected_marker(): int {
		return $this->create_marker(
			array(
				'post_title'    => 'Secret spring',
				'post_password' => 'open sesame',
				'lat'           => 57.25,
				'lng'           => -3.5,
			)
		);
	}

	/**
	 * The filter is a named method.
	 */
	public function test_the_filter_is_a_named_method(): void {
		$this->assertSame( 10, has_filter( 'rest_prepare_' . Post_Type::POST_TYPE, array( Plugin::instance()->get( 'post_type' ), 'hide_protected_coordinates' ) ) );
	}

	/**
	 * Anyone reading the marker, or the list, without the password sees no place.
	 */
	public function test_visitors_without_the_password_see_no_coordinates(): void {
		$marker = $this->protected_marker();
		$open   = $this->create_marker( array( 'post_title' => 'Open spring' ) );
		foreach ( array( 'anonymous', 'subscriber', 'author' ) as $role ) {
			$this->act_as( $role );
			$one = $this->rest( 'GET', "/wp/v2/cairn-markers/{$marker}" );
			$this->assertSame( 200, $one->get_status(), $role );
			$this->assertSame( array( null, null ), self::coordinates( $one->get_data() ), "{$role}: single marker" );
			$this->assertTrue( $one->get_data()['content']['protected'] );

			$list = array_column( $this->rest( 'GET', '/wp/v2/cairn-markers' )->get_data(), null, 'id' );
			$this->assertSame( array( null, null ), self::coordinates( $list[ $marker ] ), "{$role}: list" );
			$this->assertSame( array( 51.5, -0.12 ), self::coordinates( $list[ $open ] ), "{$role}: an open marker keeps its place" );
		}
		$fields = $this->rest( 'GET', "/wp/v2/cairn-markers/{$marker}", array( '_fields' => 'meta.cairn_lat,meta.cairn_lng' ) );
		$this->assertStringNotContainsString( '57.25', (string) wp_json_encode( $fields->get_data() ) );
	}

	/**
	 * The password shows the place; a wrong one is refused as core refuses it.
	 */
	public function test_the_password_shows_the_coordinates(): void {
		$marker = $this->protected_marker();
		$right  = $this->rest( 'GET', "/wp/v2/cairn-markers/{$marker}", array( 'password' => 'open sesame' ) );
		$this->assertSame( array( 57.25, -3.5 ), self::coordinates( $right->get_data() ) );
		$wrong = $this->rest( 'GET', "/wp/v2/cairn-markers/{$marker}", array( 'password' => 'guess' ) );
		$this->assertSame( 403, $wrong->get_status() );
		$this->assertStringNotContainsString( '57.25', (string) wp_json_encode( $wrong->get_data() ) );
	}

	/**
	 * Its editors see the place where they edit it (the marker sidebar reads the edit context).
	 */
	public function test_editors_see_the_coordinates_in_the_edit_context(): void {
		$marker = $this->protected_marker();
		$this->act_as( 'editor' );
		$edit = $this->rest( 'GET', "/wp/v2/cairn-markers/{$marker}", array( 'context' => 'edit' ) );
		$this->assertSame( 200, $edit->get_status() );
		$this->assertSame( array( 57.25, -3.5 ), self::coordinates( $edit->get_data() ) );
		$update = $this->rest( 'POST', "/wp/v2/cairn-markers/{$marker}", array( 'title' => 'Secret spring, north' ) );
		$this->assertSame( 200, $update->get_status() );
		$this->assertSame( array( 57.25, -3.5 ), self::coordinates( $update->get_data() ), 'the answer to a save (edit context)' );
		$this->assertSame( '57.25', get_post_meta( $marker, Post_Type::META_LAT, true ), 'the stored place is untouched' );
	}

	/**
	 * The street address says where the marker is as plainly as its coordinates: whoever may not
	 * see the coordinates sees no address either, in the single answer, the collection and a
	 * `_fields` pick of the address alone (issue 30: CSV address imports fill it).
	 */
	public function test_the_address_is_hidden_with_the_coordinates(): void {
		$marker = $this->protected_marker();
		update_post_meta( $marker, 'geo_address', '12 Hidden Lane, Braemar' );
		$open = $this->create_marker( array( 'post_title' => 'Open spring' ) );
		update_post_meta( $open, 'geo_address', '1 Open Road, Ballater' );
		foreach ( array( 'anonymous', 'subscriber', 'author' ) as $role ) {
			$this->act_as( $role );
			$answers = array(
				'single'        => $this->rest( 'GET', "/wp/v2/cairn-markers/{$marker}" )->get_data(),
				'list'          => $this->rest( 'GET', '/wp/v2/cairn-markers' )->get_data(),
				'_fields'       => $this->rest( 'GET', "/wp/v2/cairn-markers/{$marker}", array( '_fields' => 'meta.geo_address' ) )->get_data(),
				'list, _fields' => $this->rest( 'GET', '/wp/v2/cairn-markers', array( '_fields' => 'id,meta.geo_address' ) )->get_data(),
			);
			foreach ( $answers as $what => $answer ) {
				$json = (string) wp_json_encode( $answer );
				$this->assertStringNotContainsString( 'Hidden Lane', $json, "{$role}: {$what}" );
				$this->assertStringContainsString( 'geo_address', $json, "{$role}: {$what} still names the field (as null)" );
			}
			$list = array_column( $answers['list'], null, 'id' );
			$this->assertNull( $list[ $marker ]['meta']['geo_address'], "{$role}: the protected marker's address reads null" );
			$this->assertSame( '1 Open Road, Ballater', $list[ $open ]['meta']['geo_address'], "{$role}: an open marker keeps its address" );
		}
		wp_set_current_user( 0 );
		$right = $this->rest( 'GET', "/wp/v2/cairn-markers/{$marker}", array( 'password' => 'open sesame' ) );
		$this->assertSame( '12 Hidden Lane, Braemar', $right->get_data()['meta']['geo_address'], 'the password shows the address' );
		$this->act_as( 'editor' );
		$edit = $this->rest( 'GET', "/wp/v2/cairn-markers/{$marker}", array( 'context' => 'edit' ) );
		$this->assertSame( '12 Hidden Lane, Braemar', $edit->get_data()['meta']['geo_address'], 'its editors see the address' );
	}

	/**
	 * Posts follow the same rule: a password-protected post's location, address included, is
	 * gone from its answer to readers without the password, and there for its editors.
	 */
	public function test_a_protected_posts_address_is_hidden_too(): void {
		$post = self::factory_post(
			array(
				'post_password' => 'open sesame',
				'meta_input'    => array(
					'geo_latitude'  => '57.25',
					'geo_longitude' => '-3.5',
					'geo_address'   => '12 Hidden Lane, Braemar',
					'geo_public'    => '1',
				),
			)
		);
		foreach ( array( 'anonymous', 'subscriber' ) as $role ) {
			$this->act_as( $role );
			foreach ( array( array(), array( '_fields' => 'meta.geo_address' ) ) as $query ) {
				$json = (string) wp_json_encode( $this->rest( 'GET', "/wp/v2/posts/{$post}", $query )->get_data() );
				$this->assertStringNotContainsString( 'Hidden Lane', $json, $role );
				$this->assertStringNotContainsString( '57.25', $json, $role );
			}
		}
		$this->act_as( 'editor' );
		$edit = $this->rest( 'GET', "/wp/v2/posts/{$post}", array( 'context' => 'edit' ) );
		$this->assertSame( '12 Hidden Lane, Braemar', $edit->get_data()['meta']['geo_address'] ?? null, 'its editors see it' );
	}

	/**
	 * A published post.
	 *
	 * @param array<string, mixed> $args Post fields.
	 */
	private static function factory_post( array $args ): int {
		$id = wp_insert_post(
			array_merge(
				array(
					'post_title'  => 'Walk',
					'post_status' => 'publish',
					'post_type'   => 'post',
				),
				$args
			),
			true
		);
		self::assertIsInt( $id );
		return $id;
	}
}
