<?php
/**
 * Tells caching proxies and CDN plugins which public addresses to purge when a place goes away.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Location_Types;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Support\Rest_Routes;
use WP_Post;

/**
 * When a published marker, or a published post of a type with locations, stops being public —
 * unpublished (draft, pending, scheduled), made private, trashed, deleted, or given a password —
 * fires `cairn_maps_purge` with the public addresses that may still show it
 * (`do_action( 'cairn_maps_purge', string[] $urls, int $post_id )`).
 *
 * The site itself answers without the place at once (every ETag changes); a cache that keeps the
 * old answer keeps showing the place until its `max-age` (and `stale-while-revalidate`) pass (see
 * docs/cdn.md). A CDN plugin or a proxy's purge hook can act on the action instead of waiting.
 * Addresses ending in `/` and the feeds are prefixes: every query (`?group=`, `?v=`) and every
 * tile under them is a cached copy of its own.
 *
 * @since 0.7.0
 */
final class Cdn_Purge {

	/**
	 * The action.
	 */
	public const ACTION = 'cairn_maps_purge';

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'transition_post_status', array( $this, 'status_changed' ), 10, 3 );
		add_action( 'post_updated', array( $this, 'password_added' ), 10, 3 );
		add_action( 'before_delete_post', array( $this, 'deleting' ), 10, 2 );
	}

	/**
	 * A published place that leaves `publish` (private, draft, pending, future, trash).
	 *
	 * @param string $new_status The new status.
	 * @param string $old_status The old status.
	 * @param mixed  $post       The post.
	 */
	public function status_changed( $new_status, $old_status, $post ): void {
		if ( 'publish' === $old_status && 'publish' !== $new_status && $post instanceof WP_Post ) {
			$this->purge( $post );
		}
	}

	/**
	 * A published place that gets a password (its place is then hidden).
	 *
	 * @param int   $post_id The post id.
	 * @param mixed $after   The post after the update.
	 * @param mixed $before  The post before it.
	 */
	public function password_added( $post_id, $after, $before ): void {
		if ( $after instanceof WP_Post && $before instanceof WP_Post && 'publish' === $before->post_status && 'publish' === $after->post_status
			&& '' === (string) $before->post_password && '' !== (string) $after->post_password ) {
			$this->purge( $after );
		}
	}

	/**
	 * A published place deleted without going to the trash.
	 *
	 * @param int   $post_id The post id.
	 * @param mixed $post    The post.
	 */
	public function deleting( $post_id, $post = null ): void {
		if ( $post instanceof WP_Post && 'publish' === $post->post_status ) {
			$this->purge( $post );
		}
	}

	/**
	 * The public addresses that may show a place of this post.
	 *
	 * @param WP_Post $post The post (a marker, or a post of a type with locations).
	 * @return string[]
	 */
	public static function urls( WP_Post $post ): array {
		$route  = static fn( string $path ): string => rest_url( Rest_Routes::NAMESPACE . $path );
		$object = get_post_type_object( $post->post_type );
		$base   = $object && is_string( $object->rest_base ) && '' !== $object->rest_base ? $object->rest_base : $post->post_type;
		$urls   = array( $route( '/markers' ) );
		if ( Post_Type::POST_TYPE === $post->post_type ) {
			$urls[] = $route( '/markers/' . $post->ID );
			$urls[] = $route( Shapes_Controller::ROUTE );
			$urls[] = $route( '/tiles/' );
			$urls[] = $route( Places_Controller::ROUTE );
		}
		$urls[] = rest_url( 'wp/v2/' . $base . '/' . $post->ID );
		// The address it was published at (a draft's is ?p=, a trashed one's slug has __trashed).
		$public              = clone $post;
		$public->post_status = 'publish';
		$public->post_name   = (string) preg_replace( '/__trashed$/', '', (string) $post->post_name );
		$link                = get_permalink( $public );
		if ( '' !== (string) $link ) {
			$urls[] = (string) $link;
		}
		return array_values( array_unique( $urls ) );
	}

	/**
	 * Fires the action, for places only.
	 *
	 * @param WP_Post $post The post.
	 */
	private function purge( WP_Post $post ): void {
		if ( Post_Type::POST_TYPE !== $post->post_type && ! Location_Types::is_enabled( $post->post_type ) ) {
			return;
		}
		/**
		 * Fires when a published place stops being public (unpublished, private, trashed,
		 * deleted, given a password), with the public addresses that may still show it in a
		 * cache. Addresses ending in `/`, and the feeds, are prefixes (queries and tiles below).
		 *
		 * @since 0.7.0
		 *
		 * @param string[] $urls    Absolute addresses to purge.
		 * @param int      $post_id The post.
		 */
		do_action( 'cairn_maps_purge', self::urls( $post ), $post->ID );
	}
}
