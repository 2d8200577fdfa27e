<?php
/**
 * Stores built feeds.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

/**
 * Keeps built feed payloads in transients: the persistent object cache (Redis, Memcached) when the
 * site has one, the options table otherwise.
 *
 * One entry per filter set: a small manifest (version, chunk count, sizes) and the chunks, each
 * base64-encoded (the options table holds text) and under 1 MB (Memcached's item limit). Chunk
 * keys carry the markers version, so a reader never mixes chunks of two builds; a newer build
 * deletes the chunks of the one it replaces, so entries do not pile up.
 *
 * @since 0.1.0
 */
class Feed_Cache {

	public const PREFIX = 'cairn_maps_feed_';

	/**
	 * How long an unused entry lives.
	 */
	public const TTL = DAY_IN_SECONDS;

	/**
	 * The payload stored for a filter set at a version, or null.
	 *
	 * @param string $key     Filter-set key (hex).
	 * @param string $version Markers version.
	 */
	public function get( string $key, string $version ): ?Feed_Payload {
		$manifest = get_transient( self::PREFIX . $key );
		if ( ! is_array( $manifest ) || ( $manifest['version'] ?? null ) !== $version ) {
			return null;
		}
		$chunks = array();
		for ( $i = 0; $i < (int) $manifest['chunks']; $i++ ) {
			$chunk = get_transient( $this->chunk_key( $key, $version, $i ) );
			// phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_decode -- binary gzip data kept as text.
			$bytes = is_string( $chunk ) ? base64_decode( $chunk, true ) : false;
			if ( false === $bytes ) {
				return null; // Evicted or damaged: the caller rebuilds.
			}
			$chunks[] = $bytes;
		}
		return new Feed_Payload( $chunks, (int) $manifest['json_bytes'], (int) $manifest['count'] );
	}

	/**
	 * Stores a payload. Best effort: a store that refuses a chunk leaves no manifest behind.
	 *
	 * @param string       $key     Filter-set key (hex).
	 * @param string       $version Markers version.
	 * @param Feed_Payload $payload The payload.
	 */
	public function set( string $key, string $version, Feed_Payload $payload ): bool {
		$previous = get_transient( self::PREFIX . $key );
		$chunks   = $payload->gzip_chunks();
		foreach ( $chunks as $i => $chunk ) {
			// phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_encode -- binary gzip data kept as text.
			if ( ! set_transient( $this->chunk_key( $key, $version, $i ), base64_encode( $chunk ), self::TTL ) ) {
				$this->delete_chunks( $key, $version, $i );
				return false;
			}
		}
		set_transient(
			self::PREFIX . $key,
			array(
				'version'    => $version,
				'chunks'     => count( $chunks ),
				'json_bytes' => $payload->json_bytes(),
				'count'      => $payload->count(),
			),
			self::TTL
		);
		if ( is_array( $previous ) && isset( $previous['version'], $previous['chunks'] ) && $previous['version'] !== $version ) {
			$this->delete_chunks( $key, (string) $previous['version'], (int) $previous['chunks'] );
		}
		return true;
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
