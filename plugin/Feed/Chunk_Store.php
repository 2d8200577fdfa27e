<?php
/**
 * Built feeds in transients, cut into chunks.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Feed;

defined( 'ABSPATH' ) || exit;

/**
 * Stores a built payload in transients: the persistent object cache (Redis, Memcached) when the
 * site has one, the options table otherwise. One entry per filter-set key: a small manifest
 * (version, chunk count, sizes, and the previous build kept, if any) and the chunks, each
 * base64-encoded (the options table holds text) and under 1 MB (Memcached's item limit).
 *
 * Chunk names carry the markers version, so a reader never mixes chunks of two builds, and chunks
 * live a little longer than their manifest, so a manifest never outlives its chunks. A chunk read
 * is not kept in this request's cache: printing a feed from the options table holds one chunk in
 * memory at a time. What to keep and what to delete is the caller's choice (Feed_Cache,
 * Filtered_Copies).
 *
 * @since 0.2.0
 */
class Chunk_Store {

	/**
	 * Name prefix of the manifests and chunks.
	 */
	public const PREFIX = 'cairn_maps_feed_';

	/**
	 * How long an unused manifest lives (its chunks an hour more).
	 */
	public const TTL = DAY_IN_SECONDS;

	/**
	 * The manifest stored for a filter set (an array when there is one).
	 *
	 * @param string $key   Filter-set key (hex).
	 * @param bool   $fresh Read past this request's local copies (another request may have stored
	 *                      a build since they were read).
	 * @return mixed
	 */
	public function manifest( string $key, bool $fresh ) {
		return $this->read( self::PREFIX . $key, $fresh );
	}

	/**
	 * The build a manifest (or a build it keeps) names: its version and chunk count, or null.
	 *
	 * @param mixed $build A manifest, or its `previous` member.
	 * @return array{version: string, chunks: int}|null
	 */
	public static function build_of( $build ): ?array {
		if ( ! is_array( $build ) || ! isset( $build['version'], $build['chunks'] ) || ! is_string( $build['version'] ) ) {
			return null;
		}
		return array(
			'version' => $build['version'],
			'chunks'  => (int) $build['chunks'],
		);
	}

	/**
	 * Whether every chunk of a build is there. Only a persistent object cache, which may evict any
	 * key on its own, is asked (one round trip; the cache client keeps what it fetched, so printing
	 * reads it from there); in the options table chunks outlive their manifest.
	 *
	 * @param string $key     Filter-set key (hex).
	 * @param string $version Version of the build.
	 * @param int    $count   How many chunks it has.
	 */
	public function has_chunks( string $key, string $version, int $count ): bool {
		if ( ! wp_using_ext_object_cache() ) {
			return true;
		}
		$names = array();
		for ( $i = 0; $i < $count; $i++ ) {
			$names[] = $this->chunk_key( $key, $version, $i );
		}
		foreach ( wp_cache_get_multiple( $names, 'transient' ) as $chunk ) {
			if ( ! is_string( $chunk ) ) {
				return false;
			}
		}
		return true;
	}

	/**
	 * One decoded chunk, or null when it is gone. Its text is not kept in this request's cache.
	 *
	 * @param string $key     Filter-set key.
	 * @param string $version Version of the build.
	 * @param int    $index   Chunk number.
	 */
	public function chunk( string $key, string $version, int $index ): ?string {
		$name  = $this->chunk_key( $key, $version, $index );
		$chunk = get_transient( $name );
		$this->forget_local( $name );
		// phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_decode -- binary gzip data kept as text.
		$bytes = is_string( $chunk ) ? base64_decode( $chunk, true ) : false;
		if ( false === $bytes ) {
			// Evicted or damaged: forget the build, so that the next request rebuilds it.
			$manifest = $this->manifest( $key, true );
			if ( is_array( $manifest ) && ( $manifest['version'] ?? null ) === $version ) {
				$this->delete_manifest( $key );
			}
			return null;
		}
		return $bytes;
	}

	/**
	 * Writes a payload's chunks. On a refused chunk, deletes those written and returns null.
	 *
	 * @param string       $key     Filter-set key (hex).
	 * @param string       $version Markers version.
	 * @param Feed_Payload $payload The payload.
	 * @return int|null How many chunks were written.
	 */
	public function write_chunks( string $key, string $version, Feed_Payload $payload ): ?int {
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
	public function write_manifest( string $key, string $version, int $count, Feed_Payload $payload, ?array $previous ): void {
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
	 * Deletes the manifest of a filter set (its chunks stay until deleted or expired).
	 *
	 * @param string $key Filter-set key.
	 */
	public function delete_manifest( string $key ): void {
		delete_transient( self::PREFIX . $key );
	}

	/**
	 * Deletes chunks 0…$count-1 of a build.
	 *
	 * @param string $key     Filter-set key.
	 * @param string $version Version of that build.
	 * @param int    $count   How many chunks it had.
	 */
	public function delete_chunks( string $key, string $version, int $count ): void {
		for ( $i = 0; $i < $count; $i++ ) {
			delete_transient( $this->chunk_key( $key, $version, $i ) );
		}
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
