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
}
