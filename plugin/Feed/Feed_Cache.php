<?php
/**
 * Stores built feeds.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Feed;

defined( 'ABSPATH' ) || exit;

/**
 * The feed's cache: what Geojson_Feed asks for, in front of three collaborators: Chunk_Store (a
 * build as a manifest and chunks in transients), Filtered_Copies (the bounded set of filtered
 * copies) and Feed_Lock (a short lock per filter set, so that one request rebuilds while the others
 * serve the previous build or wait).
 *
 * The whole (unfiltered) feed is one entry, always kept (set()). A newer build keeps the chunks of
 * the one it replaces (a request may still be printing them, or serve them while the next build is
 * made) and deletes those of the build before, so entries do not pile up. It comes back lazily
 * (get()): a chunk is read when it is printed and dropped after, so serving the feed from the
 * options table holds one chunk in memory. (The builds kept and the chunks' longer life make sure
 * a chunk is there when its turn comes; with a persistent object cache, which may evict any key,
 * all chunks are checked for first.)
 *
 * Filtered copies (a `group` or `include` selection) go through set_filtered() and are bounded,
 * since anyone can ask for any selection (see Filtered_Copies). A filtered copy is read whole when
 * it is served (get_filtered()), so evicting it never cuts an answer short.
 *
 * @since 0.1.0
 * @since 0.2.0 Filtered copies are bounded.
 */
class Feed_Cache {

	public const PREFIX = Chunk_Store::PREFIX;

	/**
	 * Option name prefix of the rebuild locks (removed on uninstall with the other options).
	 */
	public const LOCK_PREFIX = Feed_Lock::PREFIX;

	/**
	 * How long an unused entry lives.
	 */
	public const TTL = Chunk_Store::TTL;

	/**
	 * How long a rebuild lock holds if its owner never releases it (a fatal error, a timeout).
	 */
	public const LOCK_TTL = Feed_Lock::TTL;

	/**
	 * Most filtered copies stored at once (see Filtered_Copies).
	 *
	 * @since 0.2.0
	 */
	public const MAX_ENTRIES = Filtered_Copies::MAX_ENTRIES;

	/**
	 * Most gzip bytes of all stored filtered copies together (8 MiB; see Filtered_Copies).
	 *
	 * @since 0.2.0
	 */
	public const MAX_BYTES = Filtered_Copies::MAX_BYTES;

	/**
	 * Option listing the stored filtered copies.
	 *
	 * @since 0.2.0
	 */
	public const INDEX_OPTION = Filtered_Copies::INDEX_OPTION;

	/**
	 * Option remembering the filtered selections asked for once.
	 *
	 * @since 0.2.0
	 */
	public const SEEN_OPTION = Filtered_Copies::SEEN_OPTION;

	/**
	 * How many selections asked for once are remembered.
	 *
	 * @since 0.2.0
	 */
	public const SEEN_MAX = Filtered_Copies::SEEN_MAX;

	/**
	 * Least time, in seconds, between two writes of a stored copy's last use.
	 *
	 * @since 0.2.0
	 */
	public const TOUCH_INTERVAL = Filtered_Copies::TOUCH_INTERVAL;

	/**
	 * Manifests and chunks.
	 *
	 * @var Chunk_Store
	 */
	private Chunk_Store $store;

	/**
	 * Rebuild locks.
	 *
	 * @var Feed_Lock
	 */
	private Feed_Lock $locks;

	/**
	 * The bounded filtered copies.
	 *
	 * @var Filtered_Copies
	 */
	private Filtered_Copies $filtered;

	/**
	 * Creates the cache.
	 *
	 * @since 0.2.0 Takes its collaborators (made here when not given).
	 *
	 * @param Chunk_Store|null $store Manifests and chunks.
	 * @param Feed_Lock|null   $locks Rebuild locks.
	 */
	public function __construct( ?Chunk_Store $store = null, ?Feed_Lock $locks = null ) {
		$this->store    = $store ?? new Chunk_Store();
		$this->locks    = $locks ?? new Feed_Lock();
		$this->filtered = new Filtered_Copies( $this->store, $this->locks );
	}

	/**
	 * The bound on stored filtered copies: how many, and how many gzip bytes in all.
	 *
	 * @since 0.2.0
	 *
	 * @return array{entries: int, bytes: int}
	 */
	public static function limits(): array {
		return Filtered_Copies::limits();
	}

	/**
	 * Most option rows the filtered copies and their bookkeeping take (162 with the default bound).
	 *
	 * @since 0.2.0
	 */
	public static function max_rows(): int {
		return Filtered_Copies::max_rows();
	}

	/**
	 * The payload stored for a filter set, or null.
	 *
	 * @param string      $key     Filter-set key (hex).
	 * @param string|null $version Markers version wanted; null for whichever build is stored.
	 * @param bool        $fresh   Read past this request's local copies (another request may have
	 *                             stored a build since they were read).
	 */
	public function get( string $key, ?string $version = null, bool $fresh = false ): ?Feed_Payload {
		$manifest = $this->store->manifest( $key, $fresh );
		$build    = Chunk_Store::build_of( $manifest );
		if ( null === $build || ! is_array( $manifest ) || ( null !== $version && $build['version'] !== $version ) ) {
			return null;
		}
		$built = $build['version'];
		if ( ! $this->store->has_chunks( $key, $built, $build['chunks'] ) ) {
			return null; // Evicted by a persistent object cache: the caller rebuilds.
		}
		return Feed_Payload::lazy(
			$build['chunks'],
			function ( int $index ) use ( $key, $built ): ?string {
				return $this->store->chunk( $key, $built, $index );
			},
			(int) ( $manifest['json_bytes'] ?? 0 ),
			(int) ( $manifest['count'] ?? 0 ),
			$built,
			isset( $manifest['gzip_bytes'] ) ? (int) $manifest['gzip_bytes'] : null
		);
	}

	/**
	 * Stores a payload. Best effort: a store that refuses a chunk leaves no manifest behind.
	 *
	 * @param string       $key     Filter-set key (hex).
	 * @param string       $version Markers version.
	 * @param Feed_Payload $payload The payload.
	 */
	public function set( string $key, string $version, Feed_Payload $payload ): bool {
		$current = $this->store->manifest( $key, true );
		$count   = $this->store->write_chunks( $key, $version, $payload );
		if ( null === $count ) {
			return false;
		}
		// Kept: the newest other build (the one being replaced). Deleted: any older one.
		$keep = null;
		$drop = array();
		foreach ( array( $current, is_array( $current ) ? ( $current['previous'] ?? null ) : null ) as $build ) {
			$build = Chunk_Store::build_of( $build );
			if ( null === $build || $build['version'] === $version ) {
				continue; // None, or its chunks are the ones just written.
			}
			if ( null === $keep ) {
				$keep = $build;
			} elseif ( $build['version'] !== $keep['version'] ) {
				$drop[] = $build;
			}
		}
		$this->store->write_manifest( $key, $version, $count, $payload, $keep );
		foreach ( $drop as $old ) {
			$this->store->delete_chunks( $key, $old['version'], $old['chunks'] );
		}
		return true;
	}

	/**
	 * A stored filtered copy, read whole (so that evicting it meanwhile cannot cut the answer
	 * short), or null when none is stored or a chunk is gone.
	 *
	 * @since 0.2.0
	 *
	 * @param string $key Filter-set key (hex).
	 */
	public function get_filtered( string $key ): ?Feed_Payload {
		$manifest = $this->store->manifest( $key, false );
		$build    = Chunk_Store::build_of( $manifest );
		if ( null === $build || ! is_array( $manifest ) ) {
			return null;
		}
		$chunks = array();
		for ( $i = 0; $i < $build['chunks']; $i++ ) {
			$chunk = $this->store->chunk( $key, $build['version'], $i );
			if ( null === $chunk ) {
				return null; // Replaced or evicted meanwhile: the caller builds its own.
			}
			$chunks[] = $chunk;
		}
		return new Feed_Payload( $chunks, (int) ( $manifest['json_bytes'] ?? 0 ), (int) ( $manifest['count'] ?? 0 ), $build['version'] );
	}

	/**
	 * Whether a filtered selection would be stored now: worth compressing harder.
	 *
	 * @since 0.2.0
	 *
	 * @param string $key Filter-set key (hex).
	 */
	public function admits( string $key ): bool {
		return $this->filtered->admits( $key );
	}

	/**
	 * Notes that a stored filtered copy was served (see Filtered_Copies::touch()).
	 *
	 * @since 0.2.0
	 *
	 * @param string $key Filter-set key (hex).
	 */
	public function touch( string $key ): void {
		$this->filtered->touch( $key );
	}

	/**
	 * Stores a filtered copy within the bound (see Filtered_Copies::store()). Best effort: false
	 * when it was not stored.
	 *
	 * @since 0.2.0
	 *
	 * @param string       $key     Filter-set key (hex).
	 * @param string       $version Markers version.
	 * @param Feed_Payload $payload The payload.
	 */
	public function set_filtered( string $key, string $version, Feed_Payload $payload ): bool {
		return $this->filtered->store( $key, $version, $payload );
	}

	/**
	 * Takes the rebuild lock of a filter set, if nobody holds it. An expired lock is taken over.
	 *
	 * @param string $key Filter-set key (hex).
	 * @return string|null The lock's value, to release it with; null when someone else holds it.
	 */
	public function lock( string $key ): ?string {
		return $this->locks->lock( $key );
	}

	/**
	 * Releases a rebuild lock taken with lock() (only that one).
	 *
	 * @param string $key  Filter-set key (hex).
	 * @param string $lock What lock() returned.
	 */
	public function unlock( string $key, string $lock ): void {
		$this->locks->unlock( $key, $lock );
	}

	/**
	 * Whether someone holds the (unexpired) rebuild lock of a filter set.
	 *
	 * @param string $key Filter-set key (hex).
	 */
	public function is_locked( string $key ): bool {
		return $this->locks->is_locked( $key );
	}
}
