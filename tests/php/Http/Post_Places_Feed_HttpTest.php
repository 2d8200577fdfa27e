<?php
/**
 * The posts feed over real HTTP.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Http;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Location_Types;
use Cairn\Maps\Tests\Feed\Post_Places_Fixtures;
use Cairn\Maps\Tests\TestCase;

/**
 * `GET /cairn/v1/markers?post_type=post` from the test site served by PHP's built-in web server:
 * the markers feed's headers (ETag, public Cache-Control, CORS, no cookie), gzip, the early 304
 * before `init`, and a new ETag once a place changes, while the markers feed keeps its own.
 *
 * The posts are committed (the server runs in its own process) and deleted afterwards.
 *
 * @since 0.3.0
 */
final class Post_Places_Feed_HttpTest extends TestCase {
	use Web_Server;
	use Post_Places_Fixtures;

	private const PATH = '/?rest_route=/cairn/v1/markers&post_type=post';

	/**
	 * Posts to delete after the test.
	 *
	 * @var int[]
	 */
	private array $committed = array();

	/**
	 * Deletes what the test committed.
	 */
	protected function tear_down(): void {
		global $wpdb;
		foreach ( $this->committed as $id ) {
			wp_delete_post( $id, true );
		}
		$wpdb->query( 'COMMIT' );
		parent::tear_down();
	}

	/**
	 * Creates published posts with public places and commits them.
	 *
	 * @param int $count How many.
	 */
	private function commit_places( int $count ): void {
		global $wpdb;
		for ( $i = 1; $i <= $count; $i++ ) {
			$this->committed[] = $this->create_place(
				array(
					'post_title' => "Post over HTTP {$i}",
					'lat'        => $i,
					'lng'        => -$i,
				)
			);
		}
		$wpdb->query( 'COMMIT' );
	}

	/**
	 * Headers and body of an anonymous answer, gzip, the early 304, and the ETag after a change.
	 */
	public function test_posts_feed_over_http(): void {
		global $wpdb;
		$this->commit_places( 2 );
		$answer = $this->http( self::PATH, array( 'Origin' => 'https://front.example' ) );
		$this->assertSame( 200, $answer['status'], $answer['body'] );
		$this->assertStringStartsWith( 'application/json', $answer['headers']['content-type'] );
		$this->assertMatchesRegularExpression( '/^"[0-9a-f]{32}"$/', $answer['headers']['etag'] );
		$this->assertMatchesRegularExpression( '/^public, max-age=\d+/', $answer['headers']['cache-control'] );
		$this->assertSame( '*', $answer['headers']['access-control-allow-origin'] );
		$this->assertSame( 0, $answer['cookies'] );
		$data = json_decode( $answer['body'], true );
		$this->assertSame( $this->committed, array_column( $data['features'], 'id' ) );
		$this->assertSame( array( 'post', 'post' ), array_column( array_column( $data['features'], 'properties' ), 'type' ) );

		$gzip = $this->http( self::PATH, array( 'Accept-Encoding' => 'gzip' ) );
		$this->assertSame( 'gzip', $gzip['headers']['content-encoding'] );
		$this->assertSame( $answer['body'], gzdecode( $gzip['body'] ) );

		$etag    = $answer['headers']['etag'];
		$markers = $this->http( '/?rest_route=/cairn/v1/markers' )['headers']['etag'];
		$early   = $this->http(
			self::PATH,
			array(
				'If-None-Match' => $etag,
				'X-Cairn-Probe' => 'posts-early',
			)
		);
		$this->assertSame( 304, $early['status'] );
		$this->assertSame( '', $early['body'] );
		$probe = $this->probe( 'posts-early' );
		$this->assertSame( 0, $probe['init'], 'answered before init' );
		$this->assertSame( 0, $probe['reads'], 'no place was read' );

		update_post_meta( $this->committed[0], Location_Types::META_PUBLIC, '0' );
		$wpdb->query( 'COMMIT' );
		$after = $this->http(
			self::PATH,
			array(
				'If-None-Match' => $etag,
				'X-Cairn-Probe' => 'posts-after',
			)
		);
		$this->assertSame( 200, $after['status'], 'the old ETag no longer 304s' );
		$this->assertNotSame( $etag, $after['headers']['etag'] );
		$this->assertSame( array( $this->committed[1] ), array_column( json_decode( $after['body'], true )['features'], 'id' ) );
		$this->assertGreaterThan( 0, $this->probe( 'posts-after' )['reads'], 'rebuilt' );
		$this->assertSame( $markers, $this->http( '/?rest_route=/cairn/v1/markers' )['headers']['etag'], 'the markers feed kept its ETag' );
	}
}
