<?php
/**
 * The feed addresses of a map's selections.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Support\Rest_Routes;

/**
 * The one rule for a map's feed URLs, as the editor's preview builds them too (the package's
 * feed-url.ts): the markers feed of a marker selection (`config.markersUrl`), the shapes feed of
 * the same selection (`config.shapesUrl`, when it holds shapes: see Map_Block) and the posts feed
 * of a post selection (`config.postsUrl`). tests/fixtures/feed-urls.json holds the vectors both sides
 * are tested against, so the two cannot drift.
 *
 * The query values are written as they always were (lists of slugs and ids as they are, lists of
 * post types and term keys percent-encoded): the same address byte for byte, so caches keep
 * their keys.
 *
 * @since 0.4.0
 */
final class Feed_Url {

	/**
	 * The feed's address (`GET /cairn/v1/markers`), without a selection.
	 */
	public static function base(): string {
		return Rest_Routes::url( 'markers' );
	}

	/**
	 * The shapes feed's address (`GET /cairn/v1/shapes`), without a selection.
	 *
	 * @since 0.5.0
	 */
	public static function shapes_base(): string {
		return Rest_Routes::url( 'shapes' );
	}

	/**
	 * The shapes feed URL for a marker selection: the markers feed's query (markers()) on the
	 * shapes route; '' when the selection shows no markers. Whether the selection holds a shape at
	 * all is the caller's question (Map_Block: `shapesUrl` is '' then).
	 *
	 * @since 0.5.0
	 *
	 * @param array{source: string, groups: string[], ids: int[]} $selection The map's `markers`.
	 */
	public static function shapes( array $selection ): string {
		return self::selection_url( $selection, self::shapes_base() );
	}

	/**
	 * The feed URL for a marker selection: `group` or `include` as the source says, nothing for
	 * all markers; '' when the selection shows no markers (source `none`, or no groups or ids).
	 *
	 * @param array{source: string, groups: string[], ids: int[]} $selection The map's `markers`.
	 */
	public static function markers( array $selection ): string {
		return self::selection_url( $selection, self::base() );
	}

	/**
	 * A marker selection's query on a feed's address (see markers()).
	 *
	 * @param array{source: string, groups: string[], ids: int[]} $selection The map's `markers`.
	 * @param string                                              $base      The feed's address.
	 */
	private static function selection_url( array $selection, string $base ): string {
		if ( 'none' === $selection['source'] ) {
			return '';
		}
		$args = array();
		if ( 'groups' === $selection['source'] ) {
			if ( array() === $selection['groups'] ) {
				return '';
			}
			$args['group'] = implode( ',', $selection['groups'] );
		}
		if ( 'ids' === $selection['source'] ) {
			if ( array() === $selection['ids'] ) {
				return '';
			}
			$args['include'] = implode( ',', $selection['ids'] );
		}
		return add_query_arg( $args, $base );
	}

	/**
	 * The tiles' URL template of a marker selection (`config.tilesUrl`): the `/tiles` route with the
	 * literal `{z}`, `{x}`, `{y}` the runtime fills in, and `group` (for a groups selection), `v`,
	 * `radius`, `maxzoom`. '' for selections the tiles do not serve (none, ids, no groups).
	 *
	 * @since 0.6.0
	 *
	 * @param array{source: string, groups: string[], ids: int[]} $selection The map's `markers`.
	 * @param string                                              $version   The version (Index\Index_Version).
	 * @param int                                                 $radius    Cluster radius in pixels.
	 * @param int                                                 $max_zoom  The last zoom with clusters.
	 * @param array{types?: string[], terms?: string[]}           $posts     The posts of the selection (since 0.10.0): types and group keys.
	 */
	public static function tiles( array $selection, string $version, int $radius, int $max_zoom, array $posts = array() ): string {
		$url = self::index_url( $selection, 'tiles/{z}/{x}/{y}', $version, $posts );
		return '' === $url ? '' : add_query_arg(
			array(
				'radius'  => $radius,
				'maxzoom' => $max_zoom,
			),
			$url
		);
	}

	/**
	 * The shape tiles' URL template of a marker selection (`config.shapeTilesUrl`): the
	 * `/shapes/tiles` route with the literal `{z}`, `{x}`, `{y}` the runtime fills in, the
	 * selection's `group` or `include` (sorted) and `v`. '' when the selection shows no markers.
	 *
	 * @since 0.7.0
	 *
	 * @param array{source: string, groups: string[], ids: int[]} $selection The map's `markers`.
	 * @param string                                              $version   The markers version.
	 */
	public static function shape_tiles( array $selection, string $version ): string {
		$groups = $selection['groups'];
		$ids    = array_map( 'intval', $selection['ids'] );
		sort( $groups );
		sort( $ids );
		$url = self::selection_url(
			array(
				'source' => $selection['source'],
				'groups' => $groups,
				'ids'    => $ids,
			),
			Rest_Routes::url( 'shapes/tiles/{z}/{x}/{y}' )
		);
		return '' === $url ? '' : add_query_arg( 'v', $version, $url );
	}

	/**
	 * The places list's URL of a marker selection (`config.placesUrl`): `/places` with `group`
	 * and `v`; '' as tiles().
	 *
	 * @since 0.6.0
	 *
	 * @param array{source: string, groups: string[], ids: int[]} $selection The map's `markers`.
	 * @param string                                              $version   The version (Index\Index_Version).
	 * @param array{types?: string[], terms?: string[]}           $posts     The posts of the selection (since 0.10.0).
	 */
	public static function places( array $selection, string $version, array $posts = array() ): string {
		return self::index_url( $selection, 'places', $version, $posts );
	}

	/**
	 * The places summary's URL of a marker selection (`config.summaryUrl`): `/places/summary`
	 * with `group` and `v`; '' as tiles().
	 *
	 * @since 0.6.0
	 *
	 * @param array{source: string, groups: string[], ids: int[]} $selection The map's `markers`.
	 * @param string                                              $version   The version (Index\Index_Version).
	 * @param array{types?: string[], terms?: string[]}           $posts     The posts of the selection (since 0.10.0).
	 */
	public static function summary( array $selection, string $version, array $posts = array() ): string {
		return self::index_url( $selection, 'places/summary', $version, $posts );
	}

	/**
	 * A route of the place index with a selection's `group` (or `markers=none`), its posts'
	 * `post_type` and `terms` (each sorted), and the version `v`; '' for a selection the index
	 * does not serve.
	 *
	 * @param array{source: string, groups: string[], ids: int[]} $selection The map's `markers`.
	 * @param string                                              $path      The route in the namespace.
	 * @param string                                              $version   The version.
	 * @param array{types?: string[], terms?: string[]}           $posts     The posts of the selection.
	 */
	private static function index_url( array $selection, string $path, string $version, array $posts = array() ): string {
		$types = $posts['types'] ?? array();
		$terms = $posts['terms'] ?? array();
		sort( $types );
		sort( $terms );
		$args = array();
		if ( 'groups' === $selection['source'] && array() !== $selection['groups'] ) {
			$groups = $selection['groups'];
			sort( $groups );
			$args['group'] = implode( ',', $groups );
		} elseif ( 'all' !== $selection['source'] ) {
			if ( array() === $types || 'ids' === $selection['source'] ) {
				return '';
			}
			$args['markers'] = 'none';
		}
		if ( array() !== $types ) {
			$args['post_type'] = implode( ',', $types );
			if ( array() !== $terms ) {
				$args['terms'] = implode( ',', $terms );
			}
		}
		$args['v'] = $version;
		return add_query_arg( array_map( 'rawurlencode', $args ), Rest_Routes::url( $path ) );
	}

	/**
	 * The posts feed URL for a post selection: `post_type` and `terms` (`taxonomy:slug`), each
	 * sorted, or for "this post" its type and id (`include`); '' when the map shows no posts.
	 *
	 * @param array{postTypes: string[], terms: array<string, string[]>, current: bool} $content The map's `content`.
	 * @param array{postId?: int, postType?: string}                                    $current The post "this post" shows, none when it has no public place.
	 */
	public static function posts( array $content, array $current ): string {
		if ( $content['current'] ) {
			if ( empty( $current['postId'] ) || empty( $current['postType'] ) ) {
				return '';
			}
			return add_query_arg(
				array(
					'post_type' => $current['postType'],
					'include'   => (string) $current['postId'],
				),
				self::base()
			);
		}
		if ( array() === $content['postTypes'] ) {
			return '';
		}
		$types = $content['postTypes'];
		sort( $types );
		$args = array( 'post_type' => implode( ',', $types ) );
		$keys = self::term_keys( $content['terms'] );
		if ( array() !== $keys ) {
			$args['terms'] = implode( ',', $keys );
		}
		return add_query_arg( array_map( 'rawurlencode', $args ), self::base() );
	}

	/**
	 * `taxonomy:slug` keys of a term selection, sorted.
	 *
	 * @param array<string, string[]> $terms Slugs by taxonomy.
	 * @return string[]
	 */
	public static function term_keys( array $terms ): array {
		$keys = array();
		foreach ( $terms as $taxonomy => $slugs ) {
			foreach ( $slugs as $slug ) {
				$keys[] = $taxonomy . ':' . $slug;
			}
		}
		sort( $keys );
		return $keys;
	}
}
