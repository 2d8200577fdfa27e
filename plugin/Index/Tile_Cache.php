<?php
/**
 * Built tiles, kept in a fixed number of slots.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

/**
 * A two-way set-associative cache of built tiles: a tile's key (its coordinates, parameters and
 * the stamps of the places under it, see Tile_Service::key()) picks two of slots() slots, each
 * holding one tile (key, body, when stored); a tile goes into a free one of its two, else
 * replaces the older of them. (Direct-mapped, 512 slots rebuilt 121 of a visitor's 475 tiles on
 * the warm pass of bench:api:tiles: two tiles meeting in one slot threw each other out.) Storage is bounded
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
		foreach ( self::slots_of( $key ) as $slot ) {
			$entry = self::read( $slot );
			if ( null !== $entry && $entry[0] === $key ) {
				return $entry[1];
			}
		}
		return null;
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
		$chosen = null;
		$oldest = PHP_INT_MAX;
		foreach ( self::slots_of( $key ) as $slot ) {
			$entry = self::read( $slot );
			if ( null === $entry || $entry[0] === $key ) {
				$chosen = $slot;
				break;
			}
			if ( $entry[2] < $oldest ) {
				$oldest = $entry[2];
				$chosen = $slot;
			}
		}
		$entry = array( $key, $body, time() );
		if ( wp_using_ext_object_cache() ) {
			wp_cache_set( (string) $chosen, $entry, self::GROUP, self::TTL );
			return;
		}
		set_transient( self::GROUP . '_' . $chosen, $entry, self::TTL );
	}

	/**
	 * What a slot holds: key, body and when it was stored; null when empty (or unreadable).
	 *
	 * @param string $slot The slot.
	 * @return array{0: string, 1: string, 2: int}|null
	 */
	private static function read( string $slot ): ?array {
		$entry = wp_using_ext_object_cache() ? wp_cache_get( $slot, self::GROUP ) : get_transient( self::GROUP . '_' . $slot );
		if ( ! is_array( $entry ) || ! is_string( $entry[0] ?? null ) || ! is_string( $entry[1] ?? null ) ) {
			return null;
		}
		return array( $entry[0], $entry[1], (int) ( $entry[2] ?? 0 ) );
	}

	/**
	 * The two slots of a key (the same one twice when there is a single slot).
	 *
	 * @param string $key The tile's key (hex).
	 * @return string[]
	 */
	private static function slots_of( string $key ): array {
		$hash  = md5( $key );
		$slots = self::slots();
		return array_values( array_unique( array( (string) ( hexdec( substr( $hash, 0, 7 ) ) % $slots ), (string) ( hexdec( substr( $hash, 7, 7 ) ) % $slots ) ) ) );
	}
}
