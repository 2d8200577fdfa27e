<?php
/**
 * The bounded set of stored filtered feeds.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Feed;

defined( 'ABSPATH' ) || exit;

/**
 * Decides which filtered copies of the feed (a `group` or `include` selection) are kept, and keeps
 * them within a bound, since anyone can ask for any selection: at most MAX_ENTRIES copies and
 * MAX_BYTES of gzip in all (limits(); the `cairn_maps_feed_cache_limits` filter changes both).
 *
 * Why these numbers: a site's maps ask for a few dozen selections at most (one per map block
 * showing a group or a list of markers), and 8 MiB is five times the whole feed at 100,000 markers
 * (1.6 MiB), room for every group of such a site; in the options table that is at most max_rows()
 * rows (162) and about 11 MB (base64), for any number of requests.
 *
 * An index (option INDEX_OPTION) lists the stored copies with their size and last use; storing
 * past the bound evicts the least valuable first: copies not asked for again since they were
 * stored, then the least recently used (recency is written at most once a TOUCH_INTERVAL per copy,
 * so a warm answer costs no write). A selection is stored only when it is asked for a second time
 * (the keys asked for once are remembered in SEEN_OPTION, the last SEEN_MAX of them), so a flood
 * of one-off selections stores nothing and evicts nothing. The index is only written under its own
 * lock, taken without waiting: a request that finds it busy simply does not store its copy. A copy
 * keeps no previous build.
 *
 * @since 0.2.0
 */
class Filtered_Copies {

	/**
	 * Most filtered copies stored at once.
	 */
	public const MAX_ENTRIES = 32;

	/**
	 * Most gzip bytes of all stored filtered copies together (8 MiB).
	 */
	public const MAX_BYTES = 8388608;

	/**
	 * Option listing the stored filtered copies: key => bytes, chunks, version, last use, when
	 * stored, and whether asked for again since (`hits` 2) or not (1).
	 */
	public const INDEX_OPTION = 'cairn_maps_feed_index';

	/**
	 * Option remembering the filtered selections asked for once (first 16 hex digits of the key
	 * => time), the last SEEN_MAX of them: the second request for one stores it.
	 */
	public const SEEN_OPTION = 'cairn_maps_feed_seen';

	/**
	 * How many selections asked for once are remembered.
	 */
	public const SEEN_MAX = 256;

	/**
	 * Least time, in seconds, between two writes of a stored copy's last use.
	 */
	public const TOUCH_INTERVAL = 60;

	/**
	 * Name of the index's lock (filter-set keys are 32 hex digits: no clash).
	 */
	private const INDEX_LOCK = 'index';

	/**
	 * Where the copies' manifests and chunks are.
	 *
	 * @var Chunk_Store
	 */
	private Chunk_Store $store;

	/**
	 * The index's lock.
	 *
	 * @var Feed_Lock
	 */
	private Feed_Lock $locks;

	/**
	 * Creates the bookkeeping.
	 *
	 * @param Chunk_Store $store Where the copies' manifests and chunks are.
	 * @param Feed_Lock   $locks Locks.
	 */
	public function __construct( Chunk_Store $store, Feed_Lock $locks ) {
		$this->store = $store;
		$this->locks = $locks;
	}

	/**
	 * The bound on stored filtered copies: how many, and how many gzip bytes in all.
	 *
	 * @return array{entries: int, bytes: int}
	 */
	public static function limits(): array {
		$defaults = array(
			'entries' => self::MAX_ENTRIES,
			'bytes'   => self::MAX_BYTES,
		);
		/**
		 * Filters the bound on the filtered copies of the marker feed kept in the cache: how many
		 * (`entries`) and how many gzip bytes in all (`bytes`). The whole feed is not counted: it
		 * is always kept.
		 *
		 * @since 0.2.0
		 *
		 * @param array{entries: int, bytes: int} $limits The bound.
		 */
		$limits = apply_filters( 'cairn_maps_feed_cache_limits', $defaults );
		$limits = is_array( $limits ) ? $limits : $defaults;
		return array(
			'entries' => max( 1, (int) ( $limits['entries'] ?? self::MAX_ENTRIES ) ),
			'bytes'   => max( 0, (int) ( $limits['bytes'] ?? self::MAX_BYTES ) ),
		);
	}

	/**
	 * Most option rows the filtered copies and their bookkeeping take (without a persistent object
	 * cache): per copy its manifest and its chunks, each a transient (a value row and a timeout
	 * row); a copy has ceil(bytes / CHUNK_BYTES) chunks, so all of them together at most one per
	 * copy plus one per CHUNK_BYTES of the byte bound; and the two bookkeeping options. 162 rows
	 * with the default bound.
	 */
	public static function max_rows(): int {
		$limits = self::limits();
		return 2 * $limits['entries'] + 2 * ( $limits['entries'] + intdiv( $limits['bytes'], Geojson_Writer::CHUNK_BYTES ) ) + 2;
	}

	/**
	 * Whether a filtered selection would be stored now (it is stored, or was asked for before):
	 * worth compressing harder. Read from this request's copies; no lock.
	 *
	 * @param string $key Filter-set key (hex).
	 */
	public function admits( string $key ): bool {
		$index = get_option( self::INDEX_OPTION, array() );
		$seen  = get_option( self::SEEN_OPTION, array() );
		return ( is_array( $index ) && isset( $index[ $key ] ) ) || ( is_array( $seen ) && isset( $seen[ substr( $key, 0, 16 ) ] ) );
	}

	/**
	 * Notes that a stored filtered copy was served: the first time since it was stored it becomes
	 * one that is asked for again, later its last use is refreshed, at most once a TOUCH_INTERVAL.
	 * Skipped when another request holds the index.
	 *
	 * @param string $key Filter-set key (hex).
	 */
	public function touch( string $key ): void {
		$index = get_option( self::INDEX_OPTION, array() );
		$entry = is_array( $index ) ? ( $index[ $key ] ?? null ) : null;
		if ( ! is_array( $entry ) || ( (int) ( $entry['hits'] ?? 1 ) >= 2 && time() - (int) ( $entry['used'] ?? 0 ) < self::TOUCH_INTERVAL ) ) {
			return;
		}
		$lock = $this->locks->lock( self::INDEX_LOCK );
		if ( null === $lock ) {
			return;
		}
		try {
			$index = $this->read_option( self::INDEX_OPTION );
			if ( isset( $index[ $key ] ) ) {
				$index[ $key ]['hits'] = 2;
				$index[ $key ]['used'] = time();
				$this->write_option( self::INDEX_OPTION, $index );
			}
		} finally {
			$this->locks->unlock( self::INDEX_LOCK, $lock );
		}
	}

	/**
	 * Stores a filtered copy within the bound: only the second time its selection is asked for,
	 * evicting the least valuable copies to make room. Best effort: false when it was not stored
	 * (asked for the first time, larger than the whole bound, the index busy, the store refused a
	 * chunk).
	 *
	 * @param string       $key     Filter-set key (hex).
	 * @param string       $version Markers version.
	 * @param Feed_Payload $payload The payload.
	 */
	public function store( string $key, string $version, Feed_Payload $payload ): bool {
		$lock = $this->locks->lock( self::INDEX_LOCK );
		if ( null === $lock ) {
			return false; // Another request is storing: this copy is served, not stored.
		}
		try {
			$now   = time();
			$index = $this->read_option( self::INDEX_OPTION );
			$old   = $index[ $key ] ?? null;
			if ( null === $old && ! $this->seen_before( $key, $now ) ) {
				return false; // Asked for once: remembered, not stored.
			}
			$limits = self::limits();
			$bytes  = $payload->gzip_bytes();
			if ( $bytes > $limits['bytes'] ) {
				return false;
			}
			// Whatever may be stored under this key now: the manifest's build and the index's.
			$builds = array( array( $version, $payload->chunk_count() ) );
			foreach ( array( $this->store->manifest( $key, true ), $old ) as $build ) {
				$build = Chunk_Store::build_of( $build );
				if ( null !== $build && $build['version'] !== $version ) {
					$builds[] = array( $build['version'], $build['chunks'] );
				}
			}
			$index[ $key ] = array(
				'bytes'   => $bytes,
				'chunks'  => $payload->chunk_count(),
				'version' => $version,
				'used'    => $now,
				'stored'  => $now,
				'hits'    => is_array( $old ) ? (int) ( $old['hits'] ?? 1 ) : 1,
			);
			$evicted       = self::evict( $index, $key, $limits, $now );
			// Listed before it is written, delisted only once deleted: a request that dies half-way
			// leaves nothing the index does not know about.
			$this->write_option( self::INDEX_OPTION, array( $key => $index[ $key ] + array( 'builds' => $builds ) ) + $index + $evicted );
			// Room first, so that the bound holds at every moment (a copy is read whole: a reader
			// that finds its chunks gone builds its own answer).
			foreach ( $evicted as $name => $entry ) {
				$this->delete( $name, $entry );
			}
			foreach ( array_slice( $builds, 1 ) as $build ) {
				$this->store->delete_chunks( $key, $build[0], $build[1] );
			}
			$count = $this->store->write_chunks( $key, $version, $payload );
			if ( null !== $count ) {
				$this->store->write_manifest( $key, $version, $count, $payload, null );
			} else {
				$this->store->delete_manifest( $key );
				unset( $index[ $key ] );
			}
			$this->write_option( self::INDEX_OPTION, $index );
			return null !== $count;
		} finally {
			$this->locks->unlock( self::INDEX_LOCK, $lock );
		}
	}

	/**
	 * Whether a selection not stored yet was asked for before; notes that it is asked for now (the
	 * newest last, so the oldest are forgotten first). Under the index lock.
	 *
	 * @param string $key Filter-set key (hex).
	 * @param int    $now Current time.
	 */
	private function seen_before( string $key, int $now ): bool {
		$seen  = $this->read_option( self::SEEN_OPTION );
		$short = substr( $key, 0, 16 );
		$known = isset( $seen[ $short ] );
		unset( $seen[ $short ] );
		if ( ! $known ) {
			$seen[ $short ] = $now;
		}
		$this->write_option( self::SEEN_OPTION, array_slice( $seen, -self::SEEN_MAX, null, true ) );
		return $known;
	}

	/**
	 * Removes copies from the index until it is within the bound, the least valuable first: gone by
	 * themselves (their chunks expired), then those not asked for again since they were stored,
	 * then the least recently used. The copy being stored ($keep) stays.
	 *
	 * @param array<string, array<string, mixed>> $index  The index, without the removed copies after.
	 * @param string                              $keep   Key of the copy being stored.
	 * @param array{entries: int, bytes: int}     $limits The bound.
	 * @param int                                 $now    Current time.
	 * @return array<string, array<string, mixed>> The removed copies.
	 */
	private static function evict( array &$index, string $keep, array $limits, int $now ): array {
		$evicted = array();
		foreach ( $index as $name => $entry ) {
			if ( $name !== $keep && (int) ( $entry['stored'] ?? 0 ) < $now - Chunk_Store::TTL - HOUR_IN_SECONDS ) {
				$evicted[ $name ] = $entry;
				unset( $index[ $name ] );
			}
		}
		$order = array_keys( $index );
		usort(
			$order,
			static function ( $a, $b ) use ( $index ) {
				return array( (int) ( $index[ $a ]['hits'] ?? 1 ) >= 2, (int) ( $index[ $a ]['used'] ?? 0 ) ) <=> array( (int) ( $index[ $b ]['hits'] ?? 1 ) >= 2, (int) ( $index[ $b ]['used'] ?? 0 ) );
			}
		);
		$bytes = (int) array_sum( array_column( $index, 'bytes' ) );
		foreach ( $order as $name ) {
			if ( count( $index ) <= $limits['entries'] && $bytes <= $limits['bytes'] ) {
				break;
			}
			if ( $name === $keep ) {
				continue;
			}
			$bytes           -= (int) ( $index[ $name ]['bytes'] ?? 0 );
			$evicted[ $name ] = $index[ $name ];
			unset( $index[ $name ] );
		}
		return $evicted;
	}

	/**
	 * Deletes a filtered copy: its manifest and the chunks of every build the index knows of.
	 *
	 * @param string               $key   Filter-set key.
	 * @param array<string, mixed> $entry Its index entry.
	 */
	private function delete( string $key, array $entry ): void {
		$this->store->delete_manifest( $key );
		$builds = $entry['builds'] ?? array( array( $entry['version'] ?? '', (int) ( $entry['chunks'] ?? 0 ) ) );
		foreach ( $builds as $build ) {
			if ( is_array( $build ) && isset( $build[0], $build[1] ) && '' !== (string) $build[0] ) {
				$this->store->delete_chunks( $key, (string) $build[0], (int) $build[1] );
			}
		}
	}

	/**
	 * An option of the index, read from the database itself (under the index lock).
	 *
	 * Not through get_option(): with a persistent object cache, a request that looked for the
	 * option before another one created it keeps "no such option" in its `notoptions`, and core
	 * writes that list back to the shared cache when the request saves any option. Read that
	 * way, the index would seem empty and be rewritten without the copies it lists, which then
	 * stay stored, unbounded, until they expire.
	 *
	 * @param string $name Option name.
	 * @return array<string, mixed>
	 */
	private function read_option( string $name ): array {
		global $wpdb;
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- the lock's own state must bypass every cache (as Feed_Lock).
		$raw   = $wpdb->get_var( $wpdb->prepare( "SELECT option_value FROM {$wpdb->options} WHERE option_name = %s LIMIT 1", $name ) );
		$value = is_string( $raw ) ? maybe_unserialize( $raw ) : array();
		return is_array( $value ) ? $value : array();
	}

	/**
	 * Writes an option of the index (never autoloaded) past this request's stale copy.
	 *
	 * @param string               $name  Option name.
	 * @param array<string, mixed> $value Value.
	 */
	private function write_option( string $name, array $value ): void {
		$this->forget_option( $name );
		update_option( $name, $value, false );
	}

	/**
	 * Drops this request's copy of an option (and its "not found" note), so that the next read asks
	 * the store.
	 *
	 * @param string $name Option name.
	 */
	private function forget_option( string $name ): void {
		if ( wp_using_ext_object_cache() ) {
			wp_cache_get( $name, 'options', true ); // Refreshes the local copy from the shared cache.
			return;
		}
		wp_cache_delete( $name, 'options' );
		$notoptions = wp_cache_get( 'notoptions', 'options' );
		if ( is_array( $notoptions ) && isset( $notoptions[ $name ] ) ) {
			unset( $notoptions[ $name ] );
			wp_cache_set( 'notoptions', $notoptions, 'options' );
		}
	}
}
