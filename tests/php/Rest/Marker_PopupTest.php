<?php
/**
 * One marker for its popup, GET /cairn/v1/markers/<id>.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Tests\TestCase;

/**
 * The popup contract, and 404 for anything that is not a published, unprotected marker.
 *
 * @since 0.1.0
 */
final class Marker_PopupTest extends TestCase {

	/**
	 * The popup fields, with sanitised content and plain-text title.
	 */
	public function test_popup_contract(): void {
		$this->act_as( 'administrator' );
		$id = $this->create_marker(
			array(
				'post_title'   => 'Café & <em>Bar</em>',
				'post_content' => '<p>Open <strong>daily</strong>.</p><script>alert(1)</script><a href="javascript:alert(2)">x</a>',
				'lat'          => 48.8566,
				'lng'          => 2.3522,
				'groups'       => array( 'food' ),
			)
		);
		wp_set_current_user( 0 );

		$response = $this->rest( 'GET', "/cairn/v1/markers/{$id}" );
		$this->assertSame( 200, $response->get_status() );
		$data = $response->get_data();
		$this->assertSame( array( 'id', 'title', 'content', 'link', 'lng', 'lat', 'groups' ), array_keys( $data ) );
		$this->assertSame( $id, $data['id'] );
		$this->assertSame( 'Café & Bar', $data['title'] );
		$this->assertStringContainsString( '<strong>daily</strong>', $data['content'] );
		$this->assertStringNotContainsString( '<script', $data['content'] );
		$this->assertStringNotContainsString( 'javascript:', $data['content'] );
		$this->assertSame( 2.3522, $data['lng'] );
		$this->assertSame( 48.8566, $data['lat'] );
		$this->assertSame( array( 'food' ), $data['groups'] );
		$this->assertIsString( $data['link'] );
	}

	/**
	 * Things that are not public markers.
	 *
	 * @return array<string, array{0: array<string, mixed>}>
	 */
	public function hidden(): array {
		return array(
			'draft'              => array( array( 'post_status' => 'draft' ) ),
			'pending'            => array( array( 'post_status' => 'pending' ) ),
			'private'            => array( array( 'post_status' => 'private' ) ),
			'scheduled'          => array(
				array(
					'post_status' => 'future',
					'post_date'   => gmdate( 'Y-m-d H:i:s', time() + DAY_IN_SECONDS ),
				),
			),
			'password-protected' => array( array( 'post_password' => 'secret' ) ),
			'trashed'            => array( array( 'trash' => true ) ),
			'a blog post'        => array( array( 'post_type' => 'post' ) ),
			'a page'             => array( array( 'post_type' => 'page' ) ),
		);
	}

	/**
	 * Each answers 404, to visitors and to editors alike.
	 *
	 * @dataProvider hidden
	 *
	 * @param array<string, mixed> $args Post fields.
	 */
	public function test_not_public_markers_are_404( array $args ): void {
		$trash = ! empty( $args['trash'] );
		unset( $args['trash'] );
		$id = $this->create_marker( $args );
		if ( $trash ) {
			wp_trash_post( $id );
		}
		foreach ( array( 'anonymous', 'editor' ) as $role ) {
			$this->act_as( $role );
			$response = $this->rest( 'GET', "/cairn/v1/markers/{$id}" );
			$this->assertSame( 404, $response->get_status(), $role );
			$this->assertSame( 'cairn_marker_not_found', $response->get_data()['code'] );
		}
	}

	/**
	 * An id that does not exist is 404; one that is not a number does not match the route.
	 */
	public function test_unknown_ids(): void {
		$this->assertSame( 404, $this->rest( 'GET', '/cairn/v1/markers/999999' )->get_status() );
		$this->assertSame( 404, $this->rest( 'GET', '/cairn/v1/markers/abc' )->get_status() );
	}
	/**
	 * A long title is capped in the popup as in the feed (TITLE_MAX characters, an ellipsis
	 * last), so both show the same text.
	 */
	public function test_the_title_is_capped_like_the_feeds(): void {
		$long = str_repeat( 'Ä', 300 ) . ' <b>end</b>';
		$id   = $this->create_marker( array( 'post_title' => $long ) );
		$data = $this->rest( 'GET', "/cairn/v1/markers/{$id}" )->get_data();
		$this->assertSame( \Cairn\Maps\Feed\Geojson_Feed::TITLE_MAX, mb_strlen( $data['title'], 'UTF-8' ) );
		$this->assertSame( str_repeat( 'Ä', \Cairn\Maps\Feed\Geojson_Feed::TITLE_MAX - 1 ) . '…', $data['title'] );
		$this->assertSame( \Cairn\Maps\Feed\Geojson_Feed::plain_title( get_the_title( $id ), \Cairn\Maps\Feed\Geojson_Feed::TITLE_MAX ), $data['title'], 'the feed\'s text' );
	}
}
