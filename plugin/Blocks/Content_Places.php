<?php
/**
 * The posts a map block shows (its `content` attribute), as the render needs them.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Location_Types;
use Cairn\Maps\Content\Post_Places_Repository;
use Cairn\Maps\Feed\Geojson_Writer;
use Cairn\Maps\Support\Limits;
use WP_Post;
use WP_Query;

/**
 * For one map's post selection: the address of its posts feed (`config.postsUrl`), the legend
 * entries of its terms (`config.groupStyles`), and pages of its posts for the list the server
 * renders without JavaScript.
 *
 * A post's place reaches a visitor only when the post is published, has no password, both
 * coordinates are stored and valid, `geo_public` is true and its type is enabled for locations.
 * The feed (content-feed's repository) applies the same rule to what it serves; here it decides
 * the list and whether a map's "this post" has anything to show.
 *
 * @since 0.3.0
 */
class Content_Places {

	/**
	 * A decimal number, as coordinates are stored.
	 */
	private const NUMBER = '^-?[0-9]{1,3}(\\.[0-9]+)?$';

	/**
	 * The post a map's `current` shows: the post from block context when its place is public,
	 * else null.
	 *
	 * @param array{postTypes: string[], terms: array<string, string[]>, current: bool} $content The map's `content`.
	 * @param array<string, mixed>                                                      $context Block context (`postId`, `postType`).
	 */
	public function current_post( array $content, array $context ): ?WP_Post {
		if ( ! $content['current'] ) {
			return null;
		}
		$id   = is_numeric( $context['postId'] ?? null ) ? (int) $context['postId'] : 0;
		$post = $id > 0 ? get_post( $id ) : null;
		if ( ! $post instanceof WP_Post || ( isset( $context['postType'] ) && $context['postType'] !== $post->post_type ) ) {
			return null;
		}
		return self::is_public_place( $post ) ? $post : null;
	}

	/**
	 * Whether a post's place may be shown to anyone.
	 *
	 * @param WP_Post $post The post.
	 */
	public static function is_public_place( WP_Post $post ): bool {
		// The feed's own rule, so a map never promises a place its feed will not serve.
		return null !== Post_Places_Repository::public_place( $post );
	}

	/**
	 * The address of a map's posts feed, '' when it shows no posts (Feed_Url::posts(), the rule
	 * the editor's preview shares).
	 *
	 * @param array{postTypes: string[], terms: array<string, string[]>, current: bool} $content The map's `content`.
	 * @param WP_Post|null                                                              $current The post from block context whose place is public (current_post()).
	 */
	public function posts_url( array $content, ?WP_Post $current ): string {
		return Feed_Url::posts(
			$content,
			null === $current ? array() : array(
				'postId'   => $current->ID,
				'postType' => $current->post_type,
			)
		);
	}

	/**
	 * Legend entries for the terms a map's posts are grouped by: the terms the map names, or,
	 * when it names none, the most used terms of its types' public hierarchical taxonomies shown
	 * in REST (at most `content.maxLegendTerms`). `slug` is the `taxonomy:slug` key the feed puts
	 * in `properties.groups`, `name` the term's name, the colour from the fixed palette (the same
	 * term always gets the same colour), no icon.
	 *
	 * @param array{postTypes: string[], terms: array<string, string[]>, current: bool} $content The map's `content`.
	 * @param WP_Post|null                                                              $current The post from block context (for `current`).
	 * @return array<int, array{slug: string, name: string, color: string, icon: string}>
	 */
	public function legend( array $content, ?WP_Post $current ): array {
		$types = $content['current'] ? ( null === $current ? array() : array( $current->post_type ) ) : $content['postTypes'];
		if ( array() === $types ) {
			return array();
		}
		$max   = (int) Limits::get( 'content.maxLegendTerms' );
		$found = array();
		if ( ! $content['current'] && array() !== $content['terms'] ) {
			foreach ( $content['terms'] as $taxonomy => $slugs ) {
				$found = array_merge(
					$found,
					self::terms(
						array(
							'taxonomy'   => $taxonomy,
							'slug'       => $slugs,
							'hide_empty' => false,
							'number'     => $max,
						)
					)
				);
			}
		} else {
			// The feed's own rule, so the legend's keys are the keys its features carry.
			$taxonomies = Post_Places_Repository::group_taxonomies( $types );
			if ( array() !== $taxonomies ) {
				$found = self::terms(
					$content['current'] && null !== $current
						? array(
							'taxonomy'   => $taxonomies,
							'object_ids' => array( $current->ID ),
							'number'     => $max,
						)
						: array(
							'taxonomy'   => $taxonomies,
							'hide_empty' => true,
							'orderby'    => 'count',
							'order'      => 'DESC',
							'number'     => $max,
						)
				);
			}
		}
		$palette = (array) Limits::get( 'content.termPalette' );
		$styles  = array();
		foreach ( array_slice( $found, 0, $max ) as $term ) {
			$key      = $term->taxonomy . ':' . $term->slug;
			$styles[] = array(
				'slug'  => $key,
				'name'  => Geojson_Writer::plain_title( $term->name ),
				'color' => (string) $palette[ crc32( $key ) % max( 1, count( $palette ) ) ],
				'icon'  => '',
			);
		}
		return $styles;
	}

	/**
	 * Terms for a query, or none when the query fails.
	 *
	 * @param array<string, mixed> $args get_terms() arguments.
	 * @return \WP_Term[]
	 */
	private static function terms( array $args ): array {
		$terms = get_terms( $args + array( 'update_term_meta_cache' => false ) );
		return is_array( $terms ) ? array_values( array_filter( $terms, static fn( $term ) => $term instanceof \WP_Term ) ) : array();
	}

	/**
	 * A slice of a map's posts with a public place, in title order, for the server's list: ids,
	 * plain-text titles, coordinates and links, and how many there are in all.
	 *
	 * @param array{postTypes: string[], terms: array<string, string[]>, current: bool} $content The map's `content`.
	 * @param WP_Post|null                                                              $current The post from block context (for `current`).
	 * @param int                                                                       $offset  Posts to skip.
	 * @param int                                                                       $limit   Most posts to give (bounded by the list's page size).
	 * @return array{items: array<int, array{id: int, title: string, lng: float, lat: float, link: string}>, total: int}
	 */
	public function slice( array $content, ?WP_Post $current, int $offset, int $limit ): array {
		if ( $content['current'] ) {
			if ( null === $current ) {
				return array(
					'items' => array(),
					'total' => 0,
				);
			}
			return array(
				'items' => 0 === $offset && $limit > 0 ? array( self::item( $current ) ) : array(),
				'total' => 1,
			);
		}
		if ( array() === $content['postTypes'] ) {
			return array(
				'items' => array(),
				'total' => 0,
			);
		}
		$query = new WP_Query( $this->query_args( $content, max( 0, $offset ), max( 1, min( $limit, (int) Limits::get( 'markerList.maxItems' ) ) ) ) );
		$items = array();
		if ( $limit > 0 ) {
			foreach ( is_array( $query->posts ) ? $query->posts : array() as $post ) {
				if ( $post instanceof WP_Post ) {
					$items[] = self::item( $post );
				}
			}
		}
		return array(
			'items' => $items,
			'total' => (int) $query->found_posts,
		);
	}

	/**
	 * The WP_Query arguments of a map's public posts (bounded: one page).
	 *
	 * @param array{postTypes: string[], terms: array<string, string[]>, current: bool} $content The map's `content`.
	 * @param int                                                                       $offset  Posts to skip.
	 * @param int                                                                       $limit   Page size.
	 * @return array<string, mixed>
	 */
	private function query_args( array $content, int $offset, int $limit ): array {
		$coordinate = static fn( string $key, float $max ): array => array(
			'relation' => 'AND',
			array(
				'key'     => $key,
				'value'   => self::NUMBER,
				'compare' => 'REGEXP',
			),
			array(
				'key'     => $key,
				'value'   => array( -$max, $max ),
				'compare' => 'BETWEEN',
				'type'    => 'DECIMAL(10,6)',
			),
		);
		$args       = array(
			'post_type'              => $content['postTypes'],
			'post_status'            => 'publish',
			'has_password'           => false,
			'orderby'                => array(
				'title' => 'ASC',
				'ID'    => 'ASC',
			),
			'offset'                 => $offset,
			'posts_per_page'         => $limit,
			'ignore_sticky_posts'    => true,
			'suppress_filters'       => true,
			'update_post_term_cache' => false,
			// phpcs:ignore WordPress.DB.SlowDBQuery.slow_db_query_meta_query -- bounded to one page; the feed serves the map itself.
			'meta_query'             => array(
				'relation' => 'AND',
				$coordinate( Location_Types::META_LAT, (float) Limits::get( 'markerLatitude.max' ) ),
				$coordinate( Location_Types::META_LNG, (float) Limits::get( 'longitude.max' ) ),
				array(
					'key'     => Location_Types::META_PUBLIC,
					'value'   => Post_Places_Repository::PUBLIC_VALUES,
					'compare' => 'IN',
				),
			),
		);
		if ( array() !== $content['terms'] ) {
			// A post with any of the named terms, as the feed's flat `terms` list reads.
			$tax_query = array( 'relation' => 'OR' );
			foreach ( $content['terms'] as $taxonomy => $slugs ) {
				$tax_query[] = array(
					'taxonomy' => $taxonomy,
					'field'    => 'slug',
					'terms'    => $slugs,
				);
			}
			// phpcs:ignore WordPress.DB.SlowDBQuery.slow_db_query_tax_query -- bounded to one page.
			$args['tax_query'] = $tax_query;
		}
		return $args;
	}

	/**
	 * One post as an entry of the list.
	 *
	 * @param WP_Post $post A post with a public place.
	 * @return array{id: int, title: string, lng: float, lat: float, link: string}
	 */
	private static function item( WP_Post $post ): array {
		return array(
			'id'    => (int) $post->ID,
			'title' => Geojson_Writer::plain_title( $post->post_title ),
			'lng'   => (float) get_post_meta( $post->ID, Location_Types::META_LNG, true ),
			'lat'   => (float) get_post_meta( $post->ID, Location_Types::META_LAT, true ),
			'link'  => (string) get_permalink( $post ),
		);
	}
}
