<?php
/**
 * Whether a map is served as tiles, and its tiled routes' addresses.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Location_Types;
use Cairn\Maps\Content\Post_Places_Repository;
use Cairn\Maps\Index\Index_Version;
use Cairn\Maps\Index\Place_Filter;
use Cairn\Maps\Index\Place_Index;
use Cairn\Maps\Index\Tile_Radii;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Support\Limits;

/**
 * The server decides per map whether it ships its whole feed (as always) or is served as
 * server-clustered tiles with the places panel answered by the server: tiled when the map shows
 * markers of all or of some groups (not a list of ids), or posts of enabled types (since 0.10.0;
 * narrowed by group terms, not "this post"), or both, clusters them, the place index is ready,
 * and the selection holds at least Limits::tile_threshold() places. A tiled map's
 * configuration carries `tilesUrl`, `placesUrl` and `summaryUrl`; every other map gets '' for the
 * three and nothing else changes for it.
 *
 * @since 0.6.0
 */
final class Tile_Config {

	/**
	 * The place index; null: no map is tiled.
	 *
	 * @var Place_Index|null
	 */
	private ?Place_Index $index;

	/**
	 * The markers version, which the addresses carry.
	 *
	 * @var Markers_Version
	 */
	private Markers_Version $version;

	/**
	 * Creates the rule.
	 *
	 * @param Place_Index|null     $index   The place index; null: no map is tiled.
	 * @param Markers_Version|null $version The markers version.
	 */
	public function __construct( ?Place_Index $index = null, ?Markers_Version $version = null ) {
		$this->index   = $index;
		$this->version = $version ?? new Markers_Version();
	}

	/**
	 * The three addresses of a map: all '' unless it is tiled.
	 *
	 * @param array<string, mixed> $config    The map's parsed configuration (`markers`, `content`, `cluster`).
	 * @param string               $posts_url The map's posts feed ('' when it shows no posts).
	 * @return array{tilesUrl: string, placesUrl: string, summaryUrl: string}
	 */
	public function urls( array $config, string $posts_url ): array {
		$none      = array(
			'tilesUrl'   => '',
			'placesUrl'  => '',
			'summaryUrl' => '',
		);
		$markers   = $config['markers'];
		$cluster   = $config['cluster'];
		$posts     = self::posts( $config['content'] ?? array(), $posts_url );
		$selection = null === $posts ? null : self::selection( $markers, $posts );
		if ( null === $selection || null === $this->index || empty( $cluster['enabled'] ) || ! $this->index->is_ready() ) {
			return $none;
		}
		// A ready index counts from its coarsest cells: a few hundred rows, whatever the places.
		if ( $this->index->count( $selection ) < Limits::tile_threshold() ) {
			return $none;
		}
		$version = Index_Version::of( $selection, $this->version->get() );
		$radius  = (int) round( (float) $cluster['radius'] );
		$maxzoom = (int) Limits::get( 'cluster.maxZoom' );
		// Only tiles of radii that maps use are kept on the server (Index\Tile_Radii).
		( new Tile_Radii() )->remember( $radius, $maxzoom );
		return array(
			'tilesUrl'   => Feed_Url::tiles( $markers, $version, $radius, $maxzoom, $posts ),
			'placesUrl'  => Feed_Url::places( $markers, $version, $posts ),
			'summaryUrl' => Feed_Url::summary( $markers, $version, $posts ),
		);
	}

	/**
	 * The posts of a map's selection as the index serves them: the enabled types and the group
	 * keys of its terms; none when it shows no posts; null when the index cannot serve them
	 * ("this post", or terms outside the types' group taxonomies, such as tags, which the index
	 * does not hold).
	 *
	 * @param array<string, mixed> $content   The map's `content`.
	 * @param string               $posts_url The map's posts feed ('' when it shows no posts).
	 * @return array{types: string[], terms: string[]}|null
	 */
	private static function posts( array $content, string $posts_url ): ?array {
		$none = array(
			'types' => array(),
			'terms' => array(),
		);
		if ( '' === $posts_url ) {
			return $none;
		}
		if ( ! empty( $content['current'] ) ) {
			return null;
		}
		$types = array_values( array_intersect( (array) ( $content['postTypes'] ?? array() ), Location_Types::enabled() ) );
		if ( array() === $types ) {
			return $none;
		}
		$groups = Post_Places_Repository::group_taxonomies( $types );
		$terms  = Feed_Url::term_keys( (array) ( $content['terms'] ?? array() ) );
		foreach ( $terms as $key ) {
			if ( ! in_array( explode( ':', $key, 2 )[0], $groups, true ) ) {
				return null;
			}
		}
		return array(
			'types' => $types,
			'terms' => $terms,
		);
	}

	/**
	 * A map's selection as the index reads it, or null when the index does not serve it (a list
	 * of ids, a groups selection naming none, nothing at all).
	 *
	 * @param array{source: string, groups: string[], ids: int[]} $markers The map's `markers`.
	 * @param array{types: string[], terms: string[]}             $posts   Its posts (posts()).
	 */
	private static function selection( array $markers, array $posts ): ?Place_Filter {
		if ( 'ids' === $markers['source'] ) {
			return null;
		}
		$shows = 'all' === $markers['source'] || ( 'groups' === $markers['source'] && array() !== $markers['groups'] );
		if ( ! $shows && array() === $posts['types'] ) {
			return null;
		}
		$filter = new Place_Filter( 'groups' === $markers['source'] ? $markers['groups'] : array() );
		return array() === $posts['types'] ? $filter : $filter->with_posts( $shows, $posts['types'], $posts['terms'] );
	}
}
