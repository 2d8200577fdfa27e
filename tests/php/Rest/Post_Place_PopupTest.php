<?php
/**
 * A post's popup, GET /cairn/v1/markers/<id> for a post with a public place.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Location_Types;
use Cairn\Maps\Rest\Marker_Popup;
use Cairn\Maps\Tests\Feed\Post_Places_Fixtures;
use Cairn\Maps\Tests\TestCase;

/**
 * The popup answers for a post exactly when the feed shows it: title, link, coordinates, groups,
 * type, a plain-text excerpt and the featured image (or null). Anything else is a 404, whoever
 * asks.
 *
 * @since 0.3.0
 */
final class Post_Place_PopupTest extends TestCase {

	use Post_Places_Fixtures;

	/**
	 * The privacy matrix: only the published, public place of an enabled type answers; the other
	 * 47 posts are 404 to visitors and to administrators alike (who edit them elsewhere).
	 */
	public function test_privacy_matrix(): void {
		$this->act_as( 'administrator' );
		$ids = $this->create_privacy_matrix();
		foreach ( array( 'anonymous', 'administrator' ) as $role ) {
			$this->act_as( $role );
			foreach ( $ids as $case => $id ) {
				$response = $this->rest( 'GET', "/cairn/v1/markers/{$id}" );
				$this->assertSame( 'publish/true/post' === $case ? 200 : 404, $response->get_status(), "{$role}: {$case}" );
				if ( 404 === $response->get_status() ) {
					$this->assertSame( 'cairn_marker_not_found', $response->as_error()->get_error_code() );
				}
			}
		}
		update_option( Location_Types::OPTION, array( 'page' ) );
		$this->assertSame( 404, $this->rest( 'GET', '/cairn/v1/markers/' . $ids['publish/true/post'] )->get_status(), 'posts no longer enabled' );
		$this->assertSame( 200, $this->rest( 'GET', '/cairn/v1/markers/' . $ids['publish/true/page'] )->get_status(), 'pages enabled' );
	}

	/**
	 * A place that is not valid is no popup either.
	 */
	public function test_invalid_place_is_404(): void {
		foreach ( array( array( 'lat' => 95 ), array( 'lng' => 'east' ), array( 'lat' => null ) ) as $place ) {
			$id = $this->create_place( $place );
			$this->assertSame( 404, $this->rest( 'GET', "/cairn/v1/markers/{$id}" )->get_status(), (string) wp_json_encode( $place ) );
		}
	}

	/**
	 * The answer for a post: the marker popup's keys plus type, excerpt and image; the excerpt is
	 * plain text, from the content when the post has none written, capped; the image is the
	 * featured image at medium_large with its srcset and alt.
	 */
	public function test_post_popup_contract(): void {
		$image = $this->create_attachment( 'image/jpeg', 'A <b>lake</b> at dawn' );
		$long  = str_repeat( 'Word &amp; <strong>more</strong> words. ', 80 );
		$id    = $this->create_place(
			array(
				'post_title'   => 'Lake &amp; <em>hut</em>',
				'post_content' => "<!-- wp:paragraph --><p>{$long}</p><!-- /wp:paragraph --><script>alert(1)</script>",
				'lat'          => 46.5,
				'lng'          => 8.25,
				'category'     => array( 'travel' ),
			)
		);
		set_post_thumbnail( $id, $image );

		$response = $this->rest( 'GET', "/cairn/v1/markers/{$id}" );
		$this->assertSame( 200, $response->get_status() );
		$data = $response->get_data();
		$this->assertSame( array( 'id', 'title', 'content', 'link', 'lng', 'lat', 'groups', 'type', 'excerpt', 'image' ), array_keys( $data ) );
		$this->assertSame( $id, $data['id'] );
		$this->assertSame( 'Lake & hut', $data['title'] );
		$this->assertSame( '', $data['content'] );
		$this->assertSame( get_permalink( $id ), $data['link'] );
		$this->assertSame( 8.25, $data['lng'] );
		$this->assertSame( 46.5, $data['lat'] );
		$this->assertSame( array( 'category:travel' ), $data['groups'] );
		$this->assertSame( 'post', $data['type'] );
		$this->assertStringStartsWith( 'Word & more words. Word & more', $data['excerpt'] );
		$this->assertStringNotContainsString( '<', $data['excerpt'] );
		$this->assertStringNotContainsString( 'alert', $data['excerpt'] );
		$this->assertLessThanOrEqual( Marker_Popup::EXCERPT_MAX, mb_strlen( $data['excerpt'], 'UTF-8' ) );
		$this->assertSame( array( 'src', 'srcset', 'alt', 'width', 'height' ), array_keys( $data['image'] ) );
		$this->assertStringEndsWith( '/2026/11/lake-768x576.jpg', $data['image']['src'] );
		$this->assertSame( 768, $data['image']['width'] );
		$this->assertSame( 576, $data['image']['height'] );
		$this->assertSame( 'A lake at dawn', $data['image']['alt'] );
		$this->assertStringContainsString( 'lake-300x225.jpg 300w', $data['image']['srcset'] );

		// A written excerpt is used as it is (as plain text).
		wp_update_post(
			array(
				'ID'           => $id,
				'post_excerpt' => 'Short <em>and</em> sweet.',
			)
		);
		$this->assertSame( 'Short and sweet.', $this->rest( 'GET', "/cairn/v1/markers/{$id}" )->get_data()['excerpt'] );
	}

	/**
	 * No featured image, a featured image that is not an image, or one that was deleted: `image`
	 * is null, and nothing warns (PHPUnit turns warnings into failures).
	 */
	public function test_image_is_null_without_an_image(): void {
		$none = $this->create_place();
		$this->assertNull( $this->rest( 'GET', "/cairn/v1/markers/{$none}" )->get_data()['image'] );

		$pdf = $this->create_place();
		set_post_thumbnail( $pdf, $this->create_attachment( 'application/pdf' ) );
		update_post_meta( $pdf, '_thumbnail_id', $this->create_attachment( 'application/pdf' ) );
		$response = $this->rest( 'GET', "/cairn/v1/markers/{$pdf}" );
		$this->assertSame( 200, $response->get_status() );
		$this->assertNull( $response->get_data()['image'] );

		$gone = $this->create_place();
		update_post_meta( $gone, '_thumbnail_id', 999999 );
		$response = $this->rest( 'GET', "/cairn/v1/markers/{$gone}" );
		$this->assertSame( 200, $response->get_status() );
		$this->assertNull( $response->get_data()['image'] );
	}

	/**
	 * Markers keep their popup's shape.
	 */
	public function test_markers_keep_their_shape(): void {
		$id = $this->create_marker();
		$this->assertSame( array( 'id', 'title', 'content', 'link', 'lng', 'lat', 'groups' ), array_keys( $this->rest( 'GET', "/cairn/v1/markers/{$id}" )->get_data() ) );
	}
}
