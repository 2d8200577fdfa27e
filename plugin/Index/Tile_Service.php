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
 * therefore changes the key of the tiles per zoom that hold it or border on it, and no other: every other
 * tile stays warm, in Tile_Cache and in the browsers and CDNs that keep it by its ETag.
 *
 * A tile's clusters are made over the tile and a margin (Tile_Builder), so up to the cluster max
 * zoom its key holds the newest stamp of the tile and its eight neighbours: a changed place
 * changes the tiles whose margin reaches it too (one to four per zoom, one far from an edge).
 * Above the max zoom (points only) the tile's own stamp is enough.
 *
 * What is kept is bounded in kind as well as in number (issue 30): group slugs no place has are
 * dropped from a filter before its key is made (known()), so invented ones name the same tile as
 * none; and only tiles of a radius/max zoom some map uses (Tile_Radii), asked for with the current
 * markers version, are stored (keeps()). Anything else is built and answered, never stored, so a
 * stream of invented requests cannot evict the tiles real maps ask for.
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
	 * The radii maps use.
	 *
	 * @var Tile_Radii
	 */
	private Tile_Radii $radii;

	/**
	 * Creates the service.
	 *
	 * @param Place_Index       $index   The place index.
	 * @param Tile_Builder|null $builder The builder.
	 * @param Tile_Cache|null   $cache   Built tiles.
	 * @param Tile_Radii|null   $radii   The radii maps use (since 0.7.0).
	 */
	public function __construct( Place_Index $index, ?Tile_Builder $builder = null, ?Tile_Cache $cache = null, ?Tile_Radii $radii = null ) {
		$this->index   = $index;
		$this->builder = $builder ?? new Tile_Builder( $index );
		$this->cache   = $cache ?? new Tile_Cache();
		$this->radii   = $radii ?? new Tile_Radii();
	}

	/**
	 * A filter without the group slugs no place has (in no group combination of the index): they
	 * change nothing a tile shows, so they must not change its key. A selection naming only
	 * unknown groups is kept as it is (it shows nothing; dropping them would show everything), and
	 * keeps() never stores its tiles.
	 *
	 * @since 0.7.0
	 *
	 * @param Place_Filter $filter The filter asked for.
	 */
	public function known( Place_Filter $filter ): Place_Filter {
		$known  = $this->known_slugs();
		$groups = self::known_of( $filter->groups(), $known );
		$hidden = array_values( array_filter( $filter->hidden(), static fn( $slug ) => isset( $known[ $slug ] ) ) );
		$copy   = $groups === $filter->groups() && $hidden === $filter->hidden() ? $filter : $filter->with_groups( $groups, $hidden );
		if ( array() === $filter->types() ) {
			return $copy;
		}
		$types = array_map( static fn( string $slug ): string => substr( $slug, strlen( Place_Source::TYPE_PREFIX ) ), self::known_of( self::type_slugs( $filter->types() ), $known ) );
		$terms = self::known_of( $filter->terms(), $known );
		return $types === $filter->types() && $terms === $filter->terms() ? $copy : $copy->with_posts( $filter->shows_markers(), $types, $terms );
	}

	/**
	 * Post types as the combinations hold them (`@post`).
	 *
	 * @param string[] $types Post types.
	 * @return string[]
	 */
	private static function type_slugs( array $types ): array {
		return array_map( static fn( string $type ): string => Place_Source::TYPE_PREFIX . $type, $types );
	}

	/**
	 * The slugs of a selection some place has; all of them when none is (such a selection shows
	 * nothing, and dropping them would show everything).
	 *
	 * @param string[]            $slugs The selection's slugs.
	 * @param array<string, true> $known Known slugs.
	 * @return string[]
	 */
	private static function known_of( array $slugs, array $known ): array {
		$kept = array_values( array_filter( $slugs, static fn( $slug ) => isset( $known[ $slug ] ) ) );
		return array() !== $slugs && array() === $kept ? $slugs : $kept;
	}

	/**
	 * Whether a tile may be stored: the index is complete, the address names the current markers
	 * version, the radius/max zoom is one a map uses, and every group of the selection is known.
	 *
	 * @since 0.7.0
	 *
	 * @param int          $radius  Cluster radius.
	 * @param int          $maxzoom Cluster max zoom.
	 * @param Place_Filter $filter  The filter, as known() gives it.
	 * @param bool         $current Whether the address names the current markers version.
	 */
	public function keeps( int $radius, int $maxzoom, Place_Filter $filter, bool $current ): bool {
		// A visitor's circle (since 0.8.0) is never kept: there are as many as positions.
		if ( ! $current || null !== $filter->circle() || ! $this->is_complete() || ! $this->radii->has( $radius, $maxzoom ) ) {
			return false;
		}
		$known = $this->known_slugs();
		return array() === array_filter( array_merge( $filter->groups(), self::type_slugs( $filter->types() ), $filter->terms() ), static fn( $slug ) => ! isset( $known[ $slug ] ) );
	}

	/**
	 * The group slugs some place has, as keys.
	 *
	 * @return array<string, true>
	 */
	private function known_slugs(): array {
		$known = array();
		foreach ( $this->index->combos() as $slugs ) {
			foreach ( $slugs as $slug ) {
				$known[ (string) $slug ] = true;
			}
		}
		return $known;
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
			'tile-2',
			"$z/$x/$y",
			$radius,
			$maxzoom,
			$filter->key(),
			$z > $maxzoom ? $this->index->stamp( $z, Morton::interleave( $x, $y ) ) : $this->index->stamp_around( $z, $x, $y ),
			md5( (string) wp_json_encode( $this->index->combos() ) ),
		);
		if ( ! $filter->by_groups_only() ) {
			$parts[] = md5( (string) wp_json_encode( self::group_names() ) );
		}
		return md5( implode( "\n", $parts ) );
	}

	/**
	 * A tile's body: the kept one for this key, else built (and kept when $keep: see keeps()).
	 *
	 * @param string       $key     Its key (key()).
	 * @param int          $z       Zoom.
	 * @param int          $x       Column.
	 * @param int          $y       Row.
	 * @param int          $radius  Cluster radius.
	 * @param int          $maxzoom Cluster max zoom.
	 * @param Place_Filter $filter  Which places.
	 * @param bool         $keep    Whether a built tile is stored (keeps()).
	 */
	public function body( string $key, int $z, int $x, int $y, int $radius, int $maxzoom, Place_Filter $filter, bool $keep = true ): string {
		$body = $this->cache->get( $key );
		if ( null === $body ) {
			$body = $this->builder->build( $z, $x, $y, $radius, $maxzoom, $filter );
			if ( $keep && $this->is_complete() ) {
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
