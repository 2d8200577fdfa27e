<?php
/**
 * Stores built feeds.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Feed;

defined( 'ABSPATH' ) || exit;

/**
 * Keeps built feed payloads in transients: the persistent object cache (Redis, Memcached) when the
 * site has one, the options table otherwise.
 *
 * One entry per filter set: a small manifest (version, chunk count, sizes) and the chunks, each
 * base64-encoded (the options table holds text) and under 1 MB (Memcached's item limit). Chunk
 * keys carry the markers version, so a reader never mixes chunks of two builds. A newer build
 * keeps the chunks of the one it replaces (a request may still be printing them, or serve them
 * while the next build is made) and deletes those of the build before, so entries do not pile up.
 * Chunks live a little longer than their manifest, so a manifest never outlives its chunks.
 *
 * Payloads come back lazily: a chunk is read when it is printed and dropped after, so serving the
 * feed from the options table holds one chunk in memory. (The builds kept and the chunks' longer
 * life make sure a chunk is there when its turn comes; with a persistent object cache, which may
 * evict any key, all chunks are checked for first.)
 *
 * A short lock per filter set (a row in the options table, taken with an atomic `INSERT IGNORE`,
 * with an expiry) lets one request rebuild while the others serve the previous build or wait.
 *
 * The whole (unfiltered) feed is one entry, always kept (set()). Filtered copies (a `group` or
 * `include` selection) go through set_filtered() and are bounded, since anyone can ask for any
 * selection: at most MAX_ENTRIES copies and MAX_BYTES of gzip in all (limits(); the
 * `cairn_maps_feed_cache_limits` filter changes both). Why these numbers: a site's maps ask for a
 * few dozen selections at most (one per map block showing a group or a list of markers), and
 * 8 MiB is five times the whole feed at 100,000 markers (1.6 MiB), room for every group of such a
 * site; in the options table that is at most max_rows() rows (162) and about 11 MB (base64), for
 * any number of requests. An index (option INDEX_OPTION) lists the stored copies with their size and
 * last use; storing past the bound evicts the least valuable first: copies not asked for again
 * since they were stored, then the least recently used (recency is written at most once a
 * TOUCH_INTERVAL per copy, so a warm answer costs no write). A selection is stored only when it is
 * asked for a second time (the keys asked for once are remembered in SEEN_OPTION, the last
 * SEEN_MAX of them), so a flood of one-off selections stores nothing and evicts nothing. The index
 * is only written under its own lock, taken without waiting: a request that finds it busy simply
 * does not store its copy. A filtered copy is read whole when it is served (get_filtered()), so
 * evicting it never cuts an answer short, and it keeps no previous build.
 *
 * @since 0.1.0
 * @since 0.2.0 Filtered copies are bounded.
 */
class Feed_Cache {

	public const PREFIX = 'cairn_maps_feed_';

	/**
	 * Option name prefix of the rebuild locks (removed on uninstall with the other options).
	 */
	public const LOCK_PREFIX = 'cairn_maps_feed_lock_';

	/**
	 * How long an unused entry lives.
	 */
	public const TTL = DAY_IN_SECONDS;

	/**
	 * How long a rebuild lock holds if its owner never releases it (a fatal error, a timeout).
	 */
	public const LOCK_TTL = 30;

	/**
	 * Most filtered copies stored at once (see the class comment).
	 *
	 * @since 0.2.0
	 */
	public const MAX_ENTRIES = 32;

	/**
	 * Most gzip bytes of all stored filtered copies together (8 MiB; see the class comment).
	 *
	 * @since 0.2.0
	 */
	public const MAX_BYTES = 8388608;

	/**
	 * Option listing the stored filtered copies: key => bytes, chunks, version, last use, when
	 * stored, and whether asked for again since (`hits` 2) or not (1).
	 *
	 * @since 0.2.0
	 */
	public const INDEX_OPTION = 'cairn_maps_feed_index';

	/**
	 * Option remembering the filtered selections asked for once (first 16 hex digits of the key
	 * => time), the last SEEN_MAX of them: the second request for one stores it.
	 *
	 * @since 0.2.0
	 */
	public const SEEN_OPTION = 'cairn_maps_feed_seen';

	/**
	 * How many selections asked for once are remembered.
	 *
	 * @since 0.2.0
	 */
	public const SEEN_MAX = 256;

	/**
	 * Least time, in seconds, between two writes of a stored copy's last use.
	 *
	 * @since 0.2.0
	 */
	public const TOUCH_INTERVAL = 60;

	/**
	 * Name of the index's lock (filter-set keys are 32 hex digits: no clash).
	 */
	private const INDEX_LOCK = 'index';

	/**
	 * The bound on stored filtered copies: how many, and how many gzip bytes in all.
	 *
	 * @since 0.2.0
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
	 *
	 * @since 0.2.0
	 */
	public static function max_rows(): int {
		$limits = self::limits();
		return 2 * $limits['entries'] + 2 * ( $limits['entries'] + intdiv( $limits['bytes'], Geojson_Feed::CHUNK_BYTES ) ) + 2;
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
		$manifest = $this->read( self::PREFIX . $key, $fresh );
		if ( ! is_array( $manifest ) || ! isset( $manifest['version'], $manifest['chunks'] ) || ! is_string( $manifest['version'] )
			|| ( null !== $version && $manifest['version'] !== $version ) ) {
			return null;
		}
		$built = $manifest['version'];
		if ( wp_using_ext_object_cache() ) {
			// A persistent object cache may evict any key on its own: check that every chunk is
			// still there before the answer is committed to (one round trip; the cache client keeps
			// what it fetched, so printing reads it from there).
			$names = array();
			for ( $i = 0; $i < (int) $manifest['chunks']; $i++ ) {
				$names[] = $this->chunk_key( $key, $built, $i );
			}
			foreach ( wp_cache_get_multiple( $names, 'transient' ) as $chunk ) {
				if ( ! is_string( $chunk ) ) {
					return null; // The caller rebuilds.
				}
			}
		}
		return Feed_Payload::lazy(
			(int) $manifest['chunks'],
			function ( int $index ) use ( $key, $built ): ?string {
				return $this->chunk( $key, $built, $index );
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
		$current = $this->read( self::PREFIX . $key, true );
		$count   = $this->write_chunks( $key, $version, $payload );
		if ( null === $count ) {
			return false;
		}
		$builds = array();
		foreach ( array( $current, is_array( $current ) ? ( $current['previous'] ?? null ) : null ) as $build ) {
			if ( is_array( $build ) && isset( $build['version'], $build['chunks'] ) && is_string( $build['version'] ) ) {
				$builds[] = array(
					'version' => $build['version'],
					'chunks'  => (int) $build['chunks'],
				);
			}
		}
		// Kept: the newest other build (the one being replaced). Deleted: any older one.
		$keep = null;
		$drop = array();
		foreach ( $builds as $build ) {
			if ( $build['version'] === $version ) {
				continue; // Its chunks are the ones just written.
			}
			if ( null === $keep ) {
				$keep = $build;
			} elseif ( $build['version'] !== $keep['version'] ) {
				$drop[] = $build;
			}
		}
		$this->write_manifest( $key, $version, $count, $payload, $keep );
		foreach ( $drop as $old ) {
			$this->delete_chunks( $key, $old['version'], $old['chunks'] );
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
		$manifest = $this->read( self::PREFIX . $key, false );
		if ( ! is_array( $manifest ) || ! isset( $manifest['version'], $manifest['chunks'] ) || ! is_string( $manifest['version'] ) ) {
			return null;
		}
		$chunks = array();
		for ( $i = 0; $i < (int) $manifest['chunks']; $i++ ) {
			$chunk = $this->chunk( $key, $manifest['version'], $i );
			if ( null === $chunk ) {
				return null; // Replaced or evicted meanwhile: the caller builds its own.
			}
			$chunks[] = $chunk;
		}
		return new Feed_Payload( $chunks, (int) ( $manifest['json_bytes'] ?? 0 ), (int) ( $manifest['count'] ?? 0 ), $manifest['version'] );
	}

	/**
	 * Whether a filtered selection would be stored now (it is stored, or was asked for before):
	 * worth compressing harder. Read from this request's copies; no lock.
	 *
	 * @since 0.2.0
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
	 * @since 0.2.0
	 *
	 * @param string $key Filter-set key (hex).
	 */
	public function touch( string $key ): void {
		$index = get_option( self::INDEX_OPTION, array() );
		$entry = is_array( $index ) ? ( $index[ $key ] ?? null ) : null;
		if ( ! is_array( $entry ) || ( (int) ( $entry['hits'] ?? 1 ) >= 2 && time() - (int) ( $entry['used'] ?? 0 ) < self::TOUCH_INTERVAL ) ) {
			return;
		}
		$lock = $this->lock( self::INDEX_LOCK );
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
			$this->unlock( self::INDEX_LOCK, $lock );
		}
	}

	/**
	 * Stores a filtered copy within the bound (see the class comment): only the second time its
	 * selection is asked for, evicting the least valuable copies to make room. Best effort: false
	 * when it was not stored (asked for the first time, larger than the whole bound, the index busy,
	 * the store refused a chunk).
	 *
	 * @since 0.2.0
	 *
	 * @param string       $key     Filter-set key (hex).
	 * @param string       $version Markers version.
	 * @param Feed_Payload $payload The payload.
	 */
	public function set_filtered( string $key, string $version, Feed_Payload $payload ): bool {
		$lock = $this->lock( self::INDEX_LOCK );
		if ( null === $lock ) {
			return false; // Another request is storing: this copy is served, not stored.
		}
		try {
			$now   = time();
			$index = $this->read_option( self::INDEX_OPTION );
			$old   = $index[ $key ] ?? null;
			if ( null === $old ) {
				$seen  = $this->read_option( self::SEEN_OPTION );
				$short = substr( $key, 0, 16 );
				$known = isset( $seen[ $short ] );
				unset( $seen[ $short ] );
				if ( ! $known ) {
					$seen[ $short ] = $now; // Newest last; the oldest are forgotten first.
				}
				$this->write_option( self::SEEN_OPTION, array_slice( $seen, -self::SEEN_MAX, null, true ) );
				if ( ! $known ) {
					return false; // Asked for once: remembered, not stored.
				}
			}
			$limits = self::limits();
			$bytes  = $payload->gzip_bytes();
			if ( $bytes > $limits['bytes'] ) {
				return false;
			}
			// Whatever may be stored under this key now: the manifest's build and the index's.
			$current = $this->read( self::PREFIX . $key, true );
			$builds  = array( array( $version, $payload->chunk_count() ) );
			foreach ( array( $current, $old ) as $build ) {
				if ( is_array( $build ) && isset( $build['version'], $build['chunks'] ) && is_string( $build['version'] ) && $build['version'] !== $version ) {
					$builds[] = array( $build['version'], (int) $build['chunks'] );
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
				$this->delete_filtered( $name, $entry );
			}
			foreach ( array_slice( $builds, 1 ) as $build ) {
				$this->delete_chunks( $key, $build[0], $build[1] );
			}
			$count = $this->write_chunks( $key, $version, $payload );
			if ( null !== $count ) {
				$this->write_manifest( $key, $version, $count, $payload, null );
			} else {
				delete_transient( self::PREFIX . $key );
				unset( $index[ $key ] );
			}
			$this->write_option( self::INDEX_OPTION, $index );
			return null !== $count;
		} finally {
			$this->unlock( self::INDEX_LOCK, $lock );
		}
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
			if ( $name !== $keep && (int) ( $entry['stored'] ?? 0 ) < $now - self::TTL - HOUR_IN_SECONDS ) {
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
	private function delete_filtered( string $key, array $entry ): void {
		delete_transient( self::PREFIX . $key );
		$builds = $entry['builds'] ?? array( array( $entry['version'] ?? '', (int) ( $entry['chunks'] ?? 0 ) ) );
		foreach ( $builds as $build ) {
			if ( is_array( $build ) && isset( $build[0], $build[1] ) && '' !== (string) $build[0] ) {
				$this->delete_chunks( $key, (string) $build[0], (int) $build[1] );
			}
		}
	}

	/**
	 * Writes a payload's chunks. On a refused chunk, deletes those written and returns null.
	 *
	 * @param string       $key     Filter-set key (hex).
	 * @param string       $version Markers version.
	 * @param Feed_Payload $payload The payload.
	 * @return int|null How many chunks were written.
	 */
	private function write_chunks( string $key, string $version, Feed_Payload $payload ): ?int {
		$count = 0;
		foreach ( $payload->each_chunk() as $i => $chunk ) {
			// phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_encode -- binary gzip data kept as text.
			if ( ! set_transient( $this->chunk_key( $key, $version, $i ), base64_encode( $chunk ), self::TTL + HOUR_IN_SECONDS ) ) {
				$this->delete_chunks( $key, $version, $i );
				return null;
			}
			$this->forget_local( $this->chunk_key( $key, $version, $i ) );
			++$count;
		}
		return $count;
	}

	/**
	 * Writes the manifest naming a build (and the previous build kept, if any).
	 *
	 * @param string                                   $key      Filter-set key (hex).
	 * @param string                                   $version  Markers version.
	 * @param int                                      $count    Chunks written.
	 * @param Feed_Payload                             $payload  The payload.
	 * @param array{version: string, chunks: int}|null $previous The build kept beside it.
	 */
	private function write_manifest( string $key, string $version, int $count, Feed_Payload $payload, ?array $previous ): void {
		set_transient(
			self::PREFIX . $key,
			array(
				'version'    => $version,
				'chunks'     => $count,
				'json_bytes' => $payload->json_bytes(),
				'gzip_bytes' => $payload->gzip_bytes(),
				'count'      => $payload->count(),
				'previous'   => $previous,
			),
			self::TTL
		);
	}

	/**
	 * An option of the index, read from the store itself (under the index lock).
	 *
	 * @param string $name Option name.
	 * @return array<string, mixed>
	 */
	private function read_option( string $name ): array {
		$this->forget_option( $name );
		$value = get_option( $name, array() );
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

	/**
	 * Takes the rebuild lock of a filter set, if nobody holds it. An expired lock is taken over.
	 *
	 * @param string $key Filter-set key (hex).
	 * @return string|null The lock's value, to release it with; null when someone else holds it.
	 */
	public function lock( string $key ): ?string {
		global $wpdb;
		$name = self::LOCK_PREFIX . $key;
		for ( $attempt = 0; $attempt < 3; $attempt++ ) {
			$value = ( time() + self::LOCK_TTL ) . ':' . bin2hex( random_bytes( 8 ) );
			// Atomic on MySQL/MariaDB and SQLite alike (option_name is unique); not autoloaded.
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- a lock must bypass every cache.
			$inserted = $wpdb->query( $wpdb->prepare( "INSERT IGNORE INTO {$wpdb->options} (option_name, option_value, autoload) VALUES (%s, %s, 'off')", $name, $value ) );
			if ( 1 === $inserted ) {
				return $value;
			}
			$held = $this->lock_value( $key );
			if ( null !== $held && (int) strtok( $held, ':' ) >= time() ) {
				return null;
			}
			if ( null !== $held ) {
				// Expired: remove exactly that lock (of two requests doing this, one succeeds).
				// phpcs:ignore WordPress.DB.DirectDatabaseQuery
				$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->options} WHERE option_name = %s AND option_value = %s", $name, $held ) );
			}
		}
		return null;
	}

	/**
	 * Releases a rebuild lock taken with lock() (only that one: an expired lock taken over by
	 * another request stays).
	 *
	 * @param string $key  Filter-set key (hex).
	 * @param string $lock What lock() returned.
	 */
	public function unlock( string $key, string $lock ): void {
		global $wpdb;
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery
		$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->options} WHERE option_name = %s AND option_value = %s", self::LOCK_PREFIX . $key, $lock ) );
	}

	/**
	 * Whether someone holds the (unexpired) rebuild lock of a filter set.
	 *
	 * @param string $key Filter-set key (hex).
	 */
	public function is_locked( string $key ): bool {
		$held = $this->lock_value( $key );
		return null !== $held && (int) strtok( $held, ':' ) >= time();
	}

	/**
	 * The stored lock, read from the database itself.
	 *
	 * @param string $key Filter-set key (hex).
	 */
	private function lock_value( string $key ): ?string {
		global $wpdb;
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery
		$value = $wpdb->get_var( $wpdb->prepare( "SELECT option_value FROM {$wpdb->options} WHERE option_name = %s", self::LOCK_PREFIX . $key ) );
		return is_string( $value ) ? $value : null;
	}

	/**
	 * One decoded chunk, or null when it is gone. Its text is not kept in this request's cache.
	 *
	 * @param string $key     Filter-set key.
	 * @param string $version Version of the build.
	 * @param int    $index   Chunk number.
	 */
	private function chunk( string $key, string $version, int $index ): ?string {
		$name  = $this->chunk_key( $key, $version, $index );
		$chunk = get_transient( $name );
		$this->forget_local( $name );
		// phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_decode -- binary gzip data kept as text.
		$bytes = is_string( $chunk ) ? base64_decode( $chunk, true ) : false;
		if ( false === $bytes ) {
			// Evicted or damaged: forget the build, so that the next request rebuilds it.
			$manifest = $this->read( self::PREFIX . $key, true );
			if ( is_array( $manifest ) && ( $manifest['version'] ?? null ) === $version ) {
				delete_transient( self::PREFIX . $key );
			}
			return null;
		}
		return $bytes;
	}

	/**
	 * A transient's value; with $fresh, past this request's local copies.
	 *
	 * @param string $name  Transient name.
	 * @param bool   $fresh Read from the store itself.
	 * @return mixed
	 */
	private function read( string $name, bool $fresh ) {
		if ( $fresh && wp_using_ext_object_cache() ) {
			return wp_cache_get( $name, 'transient', true );
		}
		if ( $fresh ) {
			$this->forget_local( $name );
		}
		return get_transient( $name );
	}

	/**
	 * Drops this request's copy of a transient kept in the options table (its value, expiry and
	 * "not found" note), so memory is returned and the next read asks the database. A persistent
	 * object cache is left alone: deleting there would delete for everyone.
	 *
	 * @param string $name Transient name.
	 */
	private function forget_local( string $name ): void {
		if ( wp_using_ext_object_cache() ) {
			return;
		}
		wp_cache_delete( '_transient_' . $name, 'options' );
		wp_cache_delete( '_transient_timeout_' . $name, 'options' );
		$notoptions = wp_cache_get( 'notoptions', 'options' );
		if ( is_array( $notoptions ) && ( isset( $notoptions[ '_transient_' . $name ] ) || isset( $notoptions[ '_transient_timeout_' . $name ] ) ) ) {
			unset( $notoptions[ '_transient_' . $name ], $notoptions[ '_transient_timeout_' . $name ] );
			wp_cache_set( 'notoptions', $notoptions, 'options' );
		}
	}

	/**
	 * Deletes chunks 0…$count-1 of a build.
	 *
	 * @param string $key     Filter-set key.
	 * @param string $version Version of that build.
	 * @param int    $count   How many chunks it had.
	 */
	private function delete_chunks( string $key, string $version, int $count ): void {
		for ( $i = 0; $i < $count; $i++ ) {
			delete_transient( $this->chunk_key( $key, $version, $i ) );
		}
	}

	/**
	 * Transient name of one chunk (well under the 172-character limit).
	 *
	 * @param string $key     Filter-set key.
	 * @param string $version Markers version.
	 * @param int    $index   Chunk number.
	 */
	private function chunk_key( string $key, string $version, int $index ): string {
		return self::PREFIX . $key . '_' . substr( $version, 0, 16 ) . '_' . $index;
	}
}
