<?php
/**
 * Stores built feeds.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

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
 * @since 0.1.0
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
		$count   = 0;
		$bytes   = 0;
		foreach ( $payload->each_chunk() as $i => $chunk ) {
			// phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_encode -- binary gzip data kept as text.
			if ( ! set_transient( $this->chunk_key( $key, $version, $i ), base64_encode( $chunk ), self::TTL + HOUR_IN_SECONDS ) ) {
				$this->delete_chunks( $key, $version, $i );
				return false;
			}
			$this->forget_local( $this->chunk_key( $key, $version, $i ) );
			++$count;
			$bytes += strlen( $chunk );
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
		set_transient(
			self::PREFIX . $key,
			array(
				'version'    => $version,
				'chunks'     => $count,
				'json_bytes' => $payload->json_bytes(),
				'gzip_bytes' => $bytes,
				'count'      => $payload->count(),
				'previous'   => $keep,
			),
			self::TTL
		);
		foreach ( $drop as $old ) {
			$this->delete_chunks( $key, $old['version'], $old['chunks'] );
		}
		return true;
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
