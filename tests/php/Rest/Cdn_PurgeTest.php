<?php
/**
 * The purge action fired when a place stops being public.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Rest\Cache_Headers;
use Cairn\Maps\Rest\Cdn_Purge;
use Cairn\Maps\Tests\TestCase;

/**
 * A CDN may keep an old answer until its max-age and stale window pass (issue 30): when a place is
 * unpublished, made private, trashed, deleted or given a password, `cairn_maps_purge` names the
 * addresses that may still show it, so a proxy or CDN plugin can purge them at once.
 *
 * @since 0.7.0
 */
final class Cdn_PurgeTest extends TestCase {

	/**
	 * The action's calls: [urls, post id].
	 *
	 * @var array<int, array{0: string[], 1: int}>
	 */
	private array $calls = array();

	/**
	 * Records the action.
	 */
	protected function set_up(): void {
		parent::set_up();
		$this->calls = array();
		add_action( Cdn_Purge::ACTION, array( $this, 'record' ), 10, 2 );
	}

	/**
	 * Records one call.
	 *
	 * @param string[] $urls    Addresses.
	 * @param int      $post_id Post.
	 */
	public function record( $urls, $post_id ): void {
		$this->calls[] = array( $urls, $post_id );
	}

	/**
	 * The ways a published place stops being public.
	 *
	 * @return array<string, array{0: callable(int): mixed}>
	 */
	public static function ways_out(): array {
		return array(
			'unpublished'      => array( static fn( int $id ) => wp_update_post( array( 'ID' => $id, 'post_status' => 'draft' ) ) ), // phpcs:ignore WordPress.Arrays.ArrayDeclarationSpacing.AssociativeArrayFound
			'made private'     => array( static fn( int $id ) => wp_update_post( array( 'ID' => $id, 'post_status' => 'private' ) ) ), // phpcs:ignore WordPress.Arrays.ArrayDeclarationSpacing.AssociativeArrayFound
			'trashed'          => array( static fn( int $id ) => wp_trash_post( $id ) ),
			'deleted'          => array( static fn( int $id ) => wp_delete_post( $id, true ) ),
			'given a password' => array( static fn( int $id ) => wp_update_post( array( 'ID' => $id, 'post_password' => 'secret' ) ) ), // phpcs:ignore WordPress.Arrays.ArrayDeclarationSpacing.AssociativeArrayFound
		);
	}

	/**
	 * A marker leaving the public: one call, with the feeds, tiles, places, its popup, its core
	 * REST answer and the page it was published at.
	 *
	 * @dataProvider ways_out
	 *
	 * @param callable $way How it leaves.
	 */
	public function test_a_marker_that_leaves_the_public_is_purged( callable $way ): void {
		$marker = $this->create_marker( array( 'post_title' => 'Hidden spring' ) );
		$link   = get_permalink( $marker );
		$this->assertSame( array(), $this->calls, 'publishing purges nothing' );
		$way( $marker );
		$this->assertCount( 1, $this->calls );
		list( $urls, $post_id ) = $this->calls[0];
		$this->assertSame( $marker, $post_id );
		foreach ( array( 'cairn/v1/markers', "cairn/v1/markers/{$marker}", 'cairn/v1/shapes', 'cairn/v1/tiles/', 'cairn/v1/places', "wp/v2/cairn-markers/{$marker}" ) as $route ) {
			$this->assertContains( rest_url( $route ), $urls, $route );
		}
		$this->assertContains( $link, $urls, 'the page it was published at' );
		$this->assertStringContainsString( 'hidden-spring', $link );
	}

	/**
	 * A located post leaving the public names the posts feed and its own answers; a page (no
	 * locations) and a change that keeps a place public fire nothing.
	 */
	public function test_posts_are_purged_and_nothing_else(): void {
		$post   = wp_insert_post(
			array(
				'post_title'  => 'Walk',
				'post_status' => 'publish',
				'post_type'   => 'post',
			)
		);
		$page   = wp_insert_post(
			array(
				'post_title'  => 'About',
				'post_status' => 'publish',
				'post_type'   => 'page',
			)
		);
		$marker = $this->create_marker();
		wp_update_post(
			array(
				'ID'         => $marker,
				'post_title' => 'Renamed',
			)
		);
		wp_update_post(
			array(
				'ID'          => $page,
				'post_status' => 'draft',
			)
		);
		$this->assertSame( array(), $this->calls, 'a retitled marker and a page purge nothing' );
		wp_update_post(
			array(
				'ID'          => $post,
				'post_status' => 'draft',
			)
		);
		$this->assertCount( 1, $this->calls );
		$this->assertSame( $post, $this->calls[0][1] );
		$this->assertContains( rest_url( 'cairn/v1/markers' ), $this->calls[0][0] );
		$this->assertContains( rest_url( "wp/v2/posts/{$post}" ), $this->calls[0][0] );
		$this->assertNotContains( rest_url( 'cairn/v1/tiles/' ), $this->calls[0][0], 'tiles hold markers only' );
	}

	/**
	 * The stale window a cache may add after max-age is at most the max-age itself (issue 30: an
	 * hour), so an unpublished place is gone from every honest cache within two minutes.
	 */
	public function test_the_stale_window_is_short(): void {
		$this->assertSame( 1, preg_match( '/max-age=(\d+), stale-while-revalidate=(\d+)$/', Cache_Headers::PUBLIC_CACHE_CONTROL, $parts ) );
		$this->assertSame( 60, (int) $parts[1] );
		$this->assertLessThanOrEqual( 60, (int) $parts[2] );
	}
}
