<?php
/**
 * Who sees a post's location in core's /wp/v2/posts answers.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Content;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Location_Privacy;
use Cairn\Maps\Tests\TestCase;

/**
 * The privacy matrix: post status × `geo_public` × reader. A location reaches a reader who cannot
 * edit the post only when it is public (published, no password, both coordinates, `geo_public`).
 *
 * @since 0.3.0
 */
final class Location_PrivacyTest extends TestCase {

	/**
	 * Post states: name => wp_insert_post() arguments.
	 *
	 * @return array<string, array<string, mixed>>
	 */
	private static function states(): array {
		return array(
			'publish'  => array( 'post_status' => 'publish' ),
			'draft'    => array( 'post_status' => 'draft' ),
			'private'  => array( 'post_status' => 'private' ),
			'password' => array(
				'post_status'   => 'publish',
				'post_password' => 'secret',
			),
			'future'   => array(
				'post_status' => 'future',
				'post_date'   => gmdate( 'Y-m-d H:i:s', time() + 86400 * 30 ),
			),
		);
	}

	/**
	 * Every cell: [ state, geo_public, reader, what the reader gets ].
	 * `hidden`: the post is answered without geo_*; `shown`: with the coordinates; `no-access`:
	 * core refuses the post itself (401/403/404).
	 *
	 * @return array<string, array{0: string, 1: bool, 2: string, 3: string}>
	 */
	public function matrix(): array {
		$rows = array();
		foreach ( array_keys( self::states() ) as $state ) {
			foreach ( array( true, false ) as $public ) {
				foreach ( array( 'anonymous', 'author', 'editor' ) as $reader ) {
					if ( 'editor' === $reader ) {
						$expected = 'shown';
					} elseif ( in_array( $state, array( 'draft', 'private', 'future' ), true ) ) {
						$expected = 'no-access';
					} elseif ( 'publish' === $state && $public ) {
						$expected = 'shown';
					} else {
						$expected = 'hidden';
					}
					$rows[ sprintf( '%s, geo_public %s, %s', $state, $public ? 'true' : 'false', $reader ) ] = array( $state, $public, $reader, $expected );
				}
			}
		}
		return $rows;
	}

	/**
	 * One cell of the matrix, in the view context (list and single) and, for those allowed, edit.
	 *
	 * @dataProvider matrix
	 *
	 * @param string $state    Post state.
	 * @param bool   $public   geo_public.
	 * @param string $reader   anonymous, author (not the post's author) or editor.
	 * @param string $expected shown, hidden or no-access.
	 */
	public function test_privacy_matrix( string $state, bool $public, string $reader, string $expected ): void {
		$owner = $this->create_user( 'author' );
		$id    = (int) wp_insert_post(
			array_merge(
				array(
					'post_title'  => 'Placed',
					'post_type'   => 'post',
					'post_author' => $owner,
				),
				self::states()[ $state ]
			)
		);
		update_post_meta( $id, 'geo_latitude', '48.8566' );
		update_post_meta( $id, 'geo_longitude', '2.3522' );
		update_post_meta( $id, 'geo_address', 'Paris' );
		update_post_meta( $id, 'geo_public', $public ? '1' : '' );
		$this->act_as( $reader );

		$single = $this->rest( 'GET', '/wp/v2/posts/' . $id );
		if ( 'no-access' === $expected ) {
			$this->assertContains( $single->get_status(), array( 401, 403, 404 ) );
		} else {
			$this->assertSame( 200, $single->get_status() );
			$this->assert_location( $expected, $single->get_data() );
		}

		$list  = $this->rest(
			'GET',
			'/wp/v2/posts',
			array(
				'include' => array( $id ),
				'status'  => 'editor' === $reader ? 'any' : 'publish',
			)
		);
		$items = 200 === $list->get_status() ? $list->get_data() : array();
		if ( 'no-access' === $expected ) {
			$this->assertSame( array(), $items );
		} else {
			$this->assertCount( 1, $items );
			$this->assert_location( $expected, $items[0] );
		}

		$this->assertSame( 'publish' === $state && $public, Location_Privacy::is_public( get_post( $id ) ) );
	}

	/**
	 * A published post with geo_public but only one valid coordinate is not public.
	 */
	public function test_a_broken_location_is_not_public(): void {
		$id = (int) wp_insert_post(
			array(
				'post_title'  => 'Half',
				'post_status' => 'publish',
			)
		);
		update_post_meta( $id, 'geo_latitude', '48.8566' );
		update_post_meta( $id, 'geo_longitude', 'east' );
		update_post_meta( $id, 'geo_public', '1' );
		$this->assertFalse( Location_Privacy::is_public( get_post( $id ) ) );
		$this->act_as( 'anonymous' );
		$this->assert_location( 'hidden', $this->rest( 'GET', '/wp/v2/posts/' . $id )->get_data() );
	}

	/**
	 * Asserts what an answer shows of the location.
	 *
	 * @param string               $expected shown or hidden.
	 * @param array<string, mixed> $item     A post as core answers it.
	 */
	private function assert_location( string $expected, array $item ): void {
		$meta = $item['meta'] ?? array();
		$this->assertIsArray( $meta );
		if ( 'shown' === $expected ) {
			$this->assertSame( 48.8566, $meta['geo_latitude'] ?? 'absent' );
			$this->assertSame( 2.3522, $meta['geo_longitude'] ?? 'absent' );
			$this->assertSame( 'Paris', $meta['geo_address'] ?? 'absent' );
			return;
		}
		foreach ( array( 'geo_latitude', 'geo_longitude', 'geo_address', 'geo_public' ) as $key ) {
			$this->assertArrayNotHasKey( $key, $meta );
		}
		$this->assertStringNotContainsString( '48.8566', (string) wp_json_encode( $item ) );
	}
}
