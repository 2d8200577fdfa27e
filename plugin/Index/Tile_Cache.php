<?php
/**
 * Built tiles, kept in a fixed number of slots.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

/**
 * A direct-mapped cache of built tiles: a tile's key (its coordinates, parameters and the stamps
 * of the places under it, see Tile_Service::key()) picks one of slots() slots, which holds one
 * tile, key and body; a tile stored in a taken slot replaces what was there. Storage is bounded
 * by construction whatever anyone asks for: slots() entries of at most MAX_BYTES each, in the
 * persistent object cache when the site has one (group GROUP), else as transients (two option
 * rows a slot, not autoloaded). A key holds the stamps, so a changed place never serves an old
 * tile: its key changes, and the old entry is overwritten in time.
 *
 * @since 0.6.0
 */
final class Tile_Cache {

	/**
	 * Slots by default: with typical tiles of a few kB, a few MB in all.
	 */
	public const SLOTS = 512;

	/**
	 * Largest tile body kept, in bytes (bigger ones are built each time: points above the
	 * cluster max zoom, cheap to read).
	 */
	public const MAX_BYTES = 65536;

	/**
	 * Object cache group (and transient prefix).
	 */
	public const GROUP = 'cairn_maps_tiles';

	/**
	 * How long an entry is kept at most, in seconds.
	 */
	public const TTL = DAY_IN_SECONDS;

	/**
	 * How many slots (filter `cairn_maps_tile_cache_slots`), 1–65536.
	 */
	public static function slots(): int {
		/**
		 * Filters how many built tiles are kept (one per slot, each at most 64 kB).
		 *
		 * @since 0.6.0
		 *
		 * @param int $slots Slots.
		 */
		return max( 1, min( 65536, (int) apply_filters( 'cairn_maps_tile_cache_slots', self::SLOTS ) ) );
	}

	/**
	 * A stored tile's body, or null.
	 *
	 * @param string $key The tile's key (hex).
	 */
	public function get( string $key ): ?string {
		$entry = wp_using_ext_object_cache() ? wp_cache_get( self::slot( $key ), self::GROUP ) : get_transient( self::GROUP . '_' . self::slot( $key ) );
		return is_array( $entry ) && ( $entry[0] ?? null ) === $key && is_string( $entry[1] ?? null ) ? $entry[1] : null;
	}

	/**
	 * Stores a tile's body in its slot (not when it is too big).
	 *
	 * @param string $key  The tile's key (hex).
	 * @param string $body The tile.
	 */
	public function set( string $key, string $body ): void {
		if ( strlen( $body ) > self::MAX_BYTES ) {
			return;
		}
		$entry = array( $key, $body );
		if ( wp_using_ext_object_cache() ) {
			wp_cache_set( self::slot( $key ), $entry, self::GROUP, self::TTL );
			return;
		}
		set_transient( self::GROUP . '_' . self::slot( $key ), $entry, self::TTL );
	}

	/**
	 * The slot of a key.
	 *
	 * @param string $key The tile's key (hex).
	 */
	private static function slot( string $key ): string {
		return (string) ( hexdec( substr( md5( $key ), 0, 7 ) ) % self::slots() );
	}
}
