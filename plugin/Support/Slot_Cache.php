<?php
/**
 * A cache of a fixed number of slots.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Support;

defined( 'ABSPATH' ) || exit;

/**
 * The plugin's one bounded cache, for answers anyone can ask for in any number (tiles, the places
 * list and summary): a two-way set-associative cache. A key picks two of `slots` slots, each
 * holding one entry (key, value, when stored); a value goes into a free one of its two, or the
 * one already holding its key; when both are taken, the shortest chain of occupants that can each
 * move to their other slot until one reaches a free slot moves (cuckoo hashing, searched
 * breadth-first, a few steps at most). (Direct-mapped, 512 slots rebuilt 121 of a visitor's 475
 * tiles on the warm pass of bench:api:tiles: two tiles meeting in one slot threw each other out;
 * two slots without moves lost 30 of 475 in 1024 slots, a random walk of moves 3: Slot_CacheTest.)
 *
 * Storage is bounded by construction whatever is asked for: `slots` entries, in the persistent
 * object cache when the site has one (in `group`), else as transients (two option rows a slot,
 * not autoloaded) or, for answers cheap enough to recompute, nowhere beyond the request. A key is
 * a hash of everything the value depends on (its data version included), so an old value is never
 * read: its key differs, and its slot is taken over in time.
 *
 * @since 0.7.0 (from Index\Tile_Cache and Rest\Answer_Slots, which now use it)
 */
final class Slot_Cache {

	/**
	 * Entries moved at most to make room for one (cuckoo steps).
	 */
	private const MOVES = 8;

	/**
	 * Slots read at most looking for those moves.
	 */
	private const READS = 64;

	/**
	 * The object cache group (and transient prefix).
	 *
	 * @var string
	 */
	private string $group;

	/**
	 * How many slots.
	 *
	 * @var int
	 */
	private int $slots;

	/**
	 * Whether slots live in transients without a persistent object cache.
	 *
	 * @var bool
	 */
	private bool $transients;

	/**
	 * How long an entry is kept at most, in seconds.
	 *
	 * @var int
	 */
	private int $ttl;

	/**
	 * Creates the cache.
	 *
	 * @param string $group      Object cache group (and transient prefix).
	 * @param int    $slots      How many slots (1–65536).
	 * @param bool   $transients Keep slots in transients when there is no persistent object cache.
	 * @param int    $ttl        Seconds an entry is kept at most.
	 */
	public function __construct( string $group, int $slots, bool $transients, int $ttl = DAY_IN_SECONDS ) {
		$this->group      = $group;
		$this->slots      = max( 1, min( 65536, $slots ) );
		$this->transients = $transients;
		$this->ttl        = $ttl;
	}

	/**
	 * The value kept for a key, or null.
	 *
	 * @param string $key A hash of what the value depends on.
	 * @return mixed|null
	 */
	public function get( string $key ) {
		foreach ( $this->slots_of( $key ) as $slot ) {
			$entry = $this->read( $slot );
			if ( null !== $entry && $entry[0] === $key ) {
				return $entry[1];
			}
		}
		return null;
	}

	/**
	 * Keeps a value in one of its key's slots.
	 *
	 * @param string $key   A hash of what the value depends on.
	 * @param mixed  $value The value (not null).
	 */
	public function set( string $key, $value ): void {
		$entry     = array( $key, $value, time() );
		$occupants = array();
		foreach ( $this->slots_of( $key ) as $slot ) {
			$found = $this->read( $slot );
			if ( null === $found || $found[0] === $key ) {
				$this->write( $slot, $entry );
				return;
			}
			$occupants[ $slot ] = $found;
		}
		// Both taken: the shortest chain of moves that frees one of them, each occupant to its
		// other slot (cuckoo hashing, searched breadth-first, the older occupant's chains first);
		// without one within MOVES moves, the older occupant gives way.
		uasort( $occupants, static fn( array $a, array $b ): int => $a[2] <=> $b[2] );
		$chain = $this->chain_to_free( $occupants );
		if ( null === $chain ) {
			$this->write( (string) array_key_first( $occupants ), $entry );
			return;
		}
		list( $path, $free ) = $chain;
		for ( $step = count( $path ) - 1; $step >= 0; $step-- ) {
			$this->write( $free, $path[ $step ][1] );
			$free = $path[ $step ][0];
		}
		$this->write( $free, $entry );
	}

	/**
	 * Breadth-first, from the occupants of a key's two slots: the shortest chain of occupied slots
	 * whose occupants can each move one step on (to their other slot) into a free one, at most
	 * MOVES long and READS slots read.
	 *
	 * @param array<string, array{0: string, 1: mixed, 2: int}> $occupants Slot => occupant, in the order to try.
	 * @return array{0: list<array{0: string, 1: array{0: string, 1: mixed, 2: int}}>, 1: string}|null The chain (slot and occupant) and the free slot.
	 */
	private function chain_to_free( array $occupants ): ?array {
		$queue = array();
		$seen  = array();
		foreach ( $occupants as $slot => $occupant ) {
			$queue[]                = array( array( (string) $slot, $occupant ) );
			$seen[ (string) $slot ] = true;
		}
		$reads = 0;
		while ( array() !== $queue ) {
			$path                    = array_shift( $queue );
			list( $slot, $occupant ) = $path[ count( $path ) - 1 ];
			foreach ( $this->slots_of( $occupant[0] ) as $other ) {
				if ( isset( $seen[ $other ] ) ) {
					continue;
				}
				$seen[ $other ] = true;
				$next           = $this->read( $other );
				++$reads;
				if ( null === $next ) {
					return array( $path, $other );
				}
				if ( count( $path ) < self::MOVES && $reads < self::READS ) {
					$queue[] = array_merge( $path, array( array( $other, $next ) ) );
				}
			}
		}
		return null;
	}

	/**
	 * Stores an entry in a slot.
	 *
	 * @param string                             $slot  The slot.
	 * @param array{0: string, 1: mixed, 2: int} $entry Key, value and when it was stored.
	 */
	private function write( string $slot, array $entry ): void {
		if ( $this->in_transients() ) {
			set_transient( $this->group . '_' . $slot, $entry, $this->ttl );
			return;
		}
		wp_cache_set( $slot, $entry, $this->group, $this->ttl );
	}

	/**
	 * The two slots of a key (the same one once when there is a single slot).
	 *
	 * @param string $key The key.
	 * @return string[]
	 */
	public function slots_of( string $key ): array {
		$hash = md5( $key );
		return array_values( array_unique( array( (string) ( hexdec( substr( $hash, 0, 7 ) ) % $this->slots ), (string) ( hexdec( substr( $hash, 7, 7 ) ) % $this->slots ) ) ) );
	}

	/**
	 * What a slot holds: key, value and when it was stored; null when empty (or unreadable).
	 *
	 * @param string $slot The slot.
	 * @return array{0: string, 1: mixed, 2: int}|null
	 */
	private function read( string $slot ): ?array {
		$entry = $this->in_transients() ? get_transient( $this->group . '_' . $slot ) : wp_cache_get( $slot, $this->group );
		if ( ! is_array( $entry ) || ! is_string( $entry[0] ?? null ) || ! isset( $entry[1] ) ) {
			return null;
		}
		return array( $entry[0], $entry[1], (int) ( $entry[2] ?? 0 ) );
	}

	/**
	 * Whether the slots are transients (no persistent object cache, and asked for).
	 */
	private function in_transients(): bool {
		return $this->transients && ! wp_using_ext_object_cache();
	}
}
