<?php
/**
 * Tiles by key: what identifies a tile's content, and its body, built or kept.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Post_Type;

/**
 * A tile's key names everything its content depends on: its coordinates, the cluster radius and
 * max zoom, the filter, the stamp of its cell (the index renews it whenever a place in it
 * changes: moved in or out, retitled, regrouped, published, unpublished, deleted; a full rebuild
 * renews them all), the group combinations (a group's new slug is written into them in place,
 * with no new stamp) and, for a search, the group names (a renamed group changes what a search
 * finds without touching any place). A place that changes
 * therefore changes the key of the one tile per zoom that holds it, and no other: every other
 * tile stays warm, in Tile_Cache and in the browsers and CDNs that keep it by its ETag.
 *
 * Clusters never reach across a tile's edge (Grid_Clusters), so the tile's own stamp is enough;
 * its neighbours' are not needed.
 *
 * @since 0.6.0
 */
final class Tile_Service {

	/**
	 * The place index.
	 *
	 * @var Place_Index
	 */
	private Place_Index $index;

	/**
	 * The builder.
	 *
	 * @var Tile_Builder
	 */
	private Tile_Builder $builder;

	/**
	 * Built tiles.
	 *
	 * @var Tile_Cache
	 */
	private Tile_Cache $cache;

	/**
	 * Creates the service.
	 *
	 * @param Place_Index       $index   The place index.
	 * @param Tile_Builder|null $builder The builder.
	 * @param Tile_Cache|null   $cache   Built tiles.
	 */
	public function __construct( Place_Index $index, ?Tile_Builder $builder = null, ?Tile_Cache $cache = null ) {
		$this->index   = $index;
		$this->builder = $builder ?? new Tile_Builder( $index );
		$this->cache   = $cache ?? new Tile_Cache();
	}

	/**
	 * The key of a tile's content (32 hex digits).
	 *
	 * @param int          $z       Zoom.
	 * @param int          $x       Column.
	 * @param int          $y       Row.
	 * @param int          $radius  Cluster radius.
	 * @param int          $maxzoom Cluster max zoom.
	 * @param Place_Filter $filter  Which places.
	 */
	public function key( int $z, int $x, int $y, int $radius, int $maxzoom, Place_Filter $filter ): string {
		$parts = array(
			'tile-1',
			"$z/$x/$y",
			$radius,
			$maxzoom,
			$filter->key(),
			$this->index->stamp( $z, Morton::interleave( $x, $y ) ),
			md5( (string) wp_json_encode( $this->index->combos() ) ),
		);
		if ( ! $filter->by_groups_only() ) {
			$parts[] = md5( (string) wp_json_encode( self::group_names() ) );
		}
		return md5( implode( "\n", $parts ) );
	}

	/**
	 * A tile's body: the kept one for this key, else built (and kept).
	 *
	 * @param string       $key     Its key (key()).
	 * @param int          $z       Zoom.
	 * @param int          $x       Column.
	 * @param int          $y       Row.
	 * @param int          $radius  Cluster radius.
	 * @param int          $maxzoom Cluster max zoom.
	 * @param Place_Filter $filter  Which places.
	 */
	public function body( string $key, int $z, int $x, int $y, int $radius, int $maxzoom, Place_Filter $filter ): string {
		$body = $this->cache->get( $key );
		if ( null === $body ) {
			$body = $this->builder->build( $z, $x, $y, $radius, $maxzoom, $filter );
			if ( $this->is_complete() ) {
				$this->cache->set( $key, $body );
			}
		}
		return $body;
	}

	/**
	 * A kept tile's body, or null (an early answer: only when the index is complete).
	 *
	 * @param string $key The tile's key (see key()).
	 */
	public function kept( string $key ): ?string {
		return $this->is_complete() ? $this->cache->get( $key ) : null;
	}

	/**
	 * Whether the index holds every place (no rebuild under way): only then is a tile kept, or
	 * sent as immutable. During a rebuild the stamps have not changed yet, so a tile built from a
	 * half-filled index must not be kept under them.
	 */
	public function is_complete(): bool {
		return $this->index->is_ready();
	}

	/**
	 * The marker groups' names by id (a search matches them).
	 *
	 * @return array<int, string>
	 */
	private static function group_names(): array {
		$names = get_terms(
			array(
				'taxonomy'   => Post_Type::TAXONOMY,
				'hide_empty' => false,
				'fields'     => 'id=>name',
			)
		);
		return is_array( $names ) ? $names : array();
	}
}
