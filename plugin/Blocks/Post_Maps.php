<?php
/**
 * The map blocks of a post.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Blocks;

defined( 'ABSPATH' ) || exit;

use WP_Block_Type;
use WP_Block_Type_Registry;
use WP_Post;

/**
 * Finds every `cairn/map` block of a post, in document order, the way the server render meets
 * them: nested in other blocks (groups, columns) and inside synced patterns (`core/block` with a
 * `ref` to a published `wp_block`, as core's render_block_core_block() follows it: a pattern
 * already being expanded is not expanded again). For each it gives what a headless front end
 * needs, built by the same code as the render (Map_Block::client_config()).
 *
 * @since 0.2.0
 */
class Post_Maps {

	/**
	 * Deepest chain of patterns inside patterns that is followed.
	 */
	public const MAX_PATTERN_DEPTH = 16;

	/**
	 * Most pattern expansions for one post (a pattern used twice counts twice): a bound on the work
	 * a pathological post can cause.
	 */
	public const MAX_PATTERN_EXPANSIONS = 200;

	/**
	 * The block, which builds each map's configuration.
	 *
	 * @var Map_Block
	 */
	private Map_Block $block;

	/**
	 * Creates the finder.
	 *
	 * @since 0.2.0
	 *
	 * @param Map_Block $block The block.
	 */
	public function __construct( Map_Block $block ) {
		$this->block = $block;
	}

	/**
	 * The maps of a post, in document order: `id` (the block's anchor when it has a valid one,
	 * else `map-<n>`, counted from 1 over all maps of the post), `attributes` (every default
	 * filled in, invalid values replaced by the default, `anchor`/`className`/`align` kept when
	 * set), `config` (exactly the block's `data-cairn-config`) and `error` ('' or the error code
	 * the render shows) and `places` (the first page of the places list the render shows without
	 * JavaScript: `items` of `id`, `title`, `lng`, `lat`, the `total`, `page` and `perPage`).
	 *
	 * Hash names are counted as the render counts them for the post: the first hashed map has
	 * none, the next ones their anchor or `map-<k>`.
	 *
	 * @since 0.2.0
	 *
	 * @param WP_Post $post The post.
	 * @return array<int, array{id: string, attributes: array<string, mixed>, config: array<string, mixed>, error: string, places: array<string, mixed>}>
	 */
	public function maps( WP_Post $post ): array {
		$blocks = $this->blocks( $post );
		$type   = WP_Block_Type_Registry::get_instance()->get_registered( 'cairn/map' );
		if ( array() === $blocks || ! $type instanceof WP_Block_Type ) {
			return array();
		}
		$maps   = array();
		$hashed = 0;
		// What render_block() gives every block of the post's content: the post is "this post".
		$context = array(
			'postId'   => $post->ID,
			'postType' => $post->post_type,
		);
		foreach ( $blocks as $index => $stored ) {
			// What WP_Block hands the render callback: mistyped values dropped, defaults filled in.
			$attributes = $type->prepare_attributes_for_render( $stored );
			$built      = $this->block->client_config( $attributes, $hashed + 1, $type, $context );
			if ( true === $built['config']['hash'] ) {
				++$hashed;
			}
			$anchor = Map_Block::anchor( $attributes );
			$maps[] = array(
				'id'         => '' !== $anchor ? $anchor : 'map-' . ( $index + 1 ),
				'attributes' => self::attributes( $attributes, $built['config'], $type ),
				'config'     => $built['config'],
				'error'      => $built['error'],
				// The first page of the list the server renders without JavaScript.
				'places'     => $this->block->places_page( $built['config'], $context ),
			);
		}
		return $maps;
	}

	/**
	 * The site's consent policy every map's configuration carries (part of the maps' ETag), for
	 * a map of the site's basemap.
	 *
	 * @since 0.3.0
	 *
	 * @return array{required: bool, category: string}
	 */
	public function consent_policy(): array {
		return $this->block->consent_policy();
	}

	/**
	 * The site's basemap and the hosts style URLs may use (part of the maps' ETag: a map of the
	 * default style draws the site's basemap, and a block's style URL is kept only on those hosts).
	 *
	 * @since 0.7.0
	 */
	public function basemap_version(): string {
		return Basemap::site_style() . "\n" . implode( ',', Map_Attributes::style_hosts() );
	}

	/**
	 * The attributes of every `cairn/map` block of a post, in document order, as stored.
	 *
	 * @since 0.2.0
	 *
	 * @param WP_Post $post The post.
	 * @return array<int, array<mixed>>
	 */
	public function blocks( WP_Post $post ): array {
		if ( ! self::may_have_maps( $post->post_content ) ) {
			return array();
		}
		$found      = array();
		$expansions = 0;
		$this->collect( parse_blocks( $post->post_content ), array(), $found, $expansions );
		return $found;
	}

	/**
	 * Collects map blocks from parsed blocks, depth first, following synced patterns.
	 *
	 * @param array<array<string, mixed>> $blocks     Parsed blocks.
	 * @param array<int, true>            $expanding  Patterns being expanded (ids).
	 * @param array<int, array<mixed>>    $found      Attributes of the maps found so far.
	 * @param int                         $expansions Patterns expanded so far.
	 */
	private function collect( array $blocks, array $expanding, array &$found, int &$expansions ): void {
		foreach ( $blocks as $block ) {
			$name = $block['blockName'] ?? null;
			if ( 'cairn/map' === $name ) {
				$found[] = is_array( $block['attrs'] ?? null ) ? $block['attrs'] : array();
			} elseif ( 'core/block' === $name ) {
				$pattern = $this->pattern( $block['attrs']['ref'] ?? null, $expanding, $expansions );
				if ( null !== $pattern ) {
					++$expansions;
					$this->collect( parse_blocks( $pattern->post_content ), $expanding + array( $pattern->ID => true ), $found, $expansions );
				}
			}
			if ( ! empty( $block['innerBlocks'] ) && is_array( $block['innerBlocks'] ) ) {
				$this->collect( $block['innerBlocks'], $expanding, $found, $expansions );
			}
		}
	}

	/**
	 * The synced pattern a `core/block` refers to, when the render would show it (published, no
	 * password, not already being expanded) and it may hold maps.
	 *
	 * @param mixed            $ref        The block's `ref` attribute.
	 * @param array<int, true> $expanding  Patterns being expanded.
	 * @param int              $expansions Patterns expanded so far.
	 */
	private function pattern( $ref, array $expanding, int $expansions ): ?WP_Post {
		$id = is_numeric( $ref ) ? (int) $ref : 0;
		if ( $id <= 0 || isset( $expanding[ $id ] ) || count( $expanding ) >= self::MAX_PATTERN_DEPTH || $expansions >= self::MAX_PATTERN_EXPANSIONS ) {
			return null;
		}
		$pattern = get_post( $id );
		if ( ! $pattern instanceof WP_Post || 'wp_block' !== $pattern->post_type || 'publish' !== $pattern->post_status || '' !== $pattern->post_password ) {
			return null;
		}
		return self::may_have_maps( $pattern->post_content ) ? $pattern : null;
	}

	/**
	 * Whether content may hold a map: a map block or a pattern reference (a cheap test that spares
	 * parsing the blocks of most posts).
	 *
	 * @param string $content Post content.
	 */
	private static function may_have_maps( string $content ): bool {
		return false !== strpos( $content, '<!-- wp:cairn/map' ) || false !== strpos( $content, '<!-- wp:block ' );
	}

	/**
	 * A map's attributes for a headless front end: those the map uses, as the render parsed them
	 * (Map_Attributes), the block type's other attributes that have a default (valid for their
	 * schema, or the default), and `anchor`, `className` and `align` when set.
	 *
	 * @param array<string, mixed> $attributes Attributes as prepared for rendering.
	 * @param array<string, mixed> $config     The map's client configuration.
	 * @param WP_Block_Type        $type       The block type.
	 * @return array<string, mixed>
	 */
	private static function attributes( array $attributes, array $config, WP_Block_Type $type ): array {
		$result = Map_Attributes::attributes( $config );
		// The block's own choice (`site` follows the site), not the app the configuration resolved.
		$result['directions'] = Map_Attributes::directions( $attributes, Map_Block::defaults( $type ) );
		foreach ( $type->attributes ?? array() as $name => $schema ) {
			if ( ! array_key_exists( $name, $result ) && is_array( $schema ) && array_key_exists( 'default', $schema ) ) {
				// prepare_attributes_for_render() kept only a value valid for the schema, else the default.
				$result[ $name ] = $attributes[ $name ] ?? $schema['default'];
			}
		}
		foreach ( array( 'anchor', 'className', 'align' ) as $name ) {
			if ( isset( $attributes[ $name ] ) && is_string( $attributes[ $name ] ) && '' !== $attributes[ $name ] ) {
				$result[ $name ] = $attributes[ $name ];
			}
		}
		return $result;
	}
}
