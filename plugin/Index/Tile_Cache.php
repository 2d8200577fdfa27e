<?php
/**
 * Built tiles, kept in a fixed number of slots.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Support\Slot_Cache;

/**
 * Built tiles in Support\Slot_Cache (the plugin's one bounded cache): SLOTS slots by default
 * (filter `cairn_maps_tile_cache_slots`), each holding one tile of at most MAX_BYTES, in the
 * persistent object cache when the site has one (group GROUP), else as transients. A tile's key
 * (its coordinates, parameters and the stamps of the places under it, see Tile_Service::key())
 * holds the stamps, so a changed place never serves an old tile.
 *
 * @since 0.6.0
 * @since 0.7.0 The slots are Slot_Cache's.
 */
final class Tile_Cache {

	/**
	 * Slots by default: with typical tiles of a few kB, a few MB in all.
	 */
	public const SLOTS = 1024;

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
		$body = self::slots_cache()->get( $key );
		return is_string( $body ) ? $body : null;
	}

	/**
	 * Stores a tile's body in its slot (not when it is too big).
	 *
	 * @param string $key  The tile's key (hex).
	 * @param string $body The tile.
	 */
	public function set( string $key, string $body ): void {
		if ( strlen( $body ) <= self::MAX_BYTES ) {
			self::slots_cache()->set( $key, $body );
		}
	}

	/**
	 * The slots (the filter may change their number from one request to the next).
	 */
	private static function slots_cache(): Slot_Cache {
		return new Slot_Cache( self::GROUP, self::slots(), true, self::TTL );
	}
}
