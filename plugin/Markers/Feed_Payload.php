<?php
/**
 * A built GeoJSON feed, held gzip-compressed.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

/**
 * The feed's JSON as one gzip stream cut into chunks (each well under 1 MB, so each fits any object
 * cache). 100,000 markers take about 1.6 MB here instead of 15 MB of JSON or 150 MB of PHP arrays.
 *
 * @since 0.1.0
 */
final class Feed_Payload {

	/**
	 * Consecutive pieces of one gzip stream.
	 *
	 * @var string[]
	 */
	private array $chunks;

	/**
	 * Length of the uncompressed JSON, in bytes.
	 *
	 * @var int
	 */
	private int $json_bytes;

	/**
	 * Number of features.
	 *
	 * @var int
	 */
	private int $count;

	/**
	 * Creates the payload.
	 *
	 * @param string[] $chunks     Pieces of one gzip stream.
	 * @param int      $json_bytes Uncompressed length.
	 * @param int      $count      Feature count.
	 */
	public function __construct( array $chunks, int $json_bytes, int $count ) {
		$this->chunks     = array_values( $chunks );
		$this->json_bytes = $json_bytes;
		$this->count      = $count;
	}

	/**
	 * The gzip stream's pieces.
	 *
	 * @return string[]
	 */
	public function gzip_chunks(): array {
		return $this->chunks;
	}

	/**
	 * Size of the gzip stream, in bytes.
	 */
	public function gzip_bytes(): int {
		return array_sum( array_map( 'strlen', $this->chunks ) );
	}

	/**
	 * Size of the JSON, in bytes.
	 */
	public function json_bytes(): int {
		return $this->json_bytes;
	}

	/**
	 * Number of features.
	 */
	public function count(): int {
		return $this->count;
	}

	/**
	 * The whole JSON document (for internal REST callers; HTTP clients get it streamed).
	 */
	public function json(): string {
		$json = '';
		$this->inflate(
			static function ( string $piece ) use ( &$json ) {
				$json .= $piece;
			}
		);
		return $json;
	}

	/**
	 * Prints the uncompressed JSON, one chunk at a time.
	 */
	public function print_json(): void {
		$this->inflate(
			static function ( string $piece ) {
				echo $piece; // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- a JSON document served as application/json, built with json_encode.
			}
		);
	}

	/**
	 * Prints the gzip stream as it is (for `Content-Encoding: gzip`).
	 */
	public function print_gzip(): void {
		foreach ( $this->chunks as $chunk ) {
			echo $chunk; // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- gzip bytes of the JSON document.
		}
	}

	/**
	 * Inflates the stream chunk by chunk.
	 *
	 * @param callable(string): void $sink Receives each inflated piece.
	 * @throws \RuntimeException When the stored stream is corrupt.
	 */
	private function inflate( callable $sink ): void {
		$context = inflate_init( ZLIB_ENCODING_GZIP );
		foreach ( $this->chunks as $chunk ) {
			$piece = inflate_add( $context, $chunk, ZLIB_SYNC_FLUSH );
			if ( false === $piece ) {
				throw new \RuntimeException( 'Corrupt Cairn Maps feed payload.' );
			}
			$sink( $piece );
		}
		$rest = inflate_add( $context, '', ZLIB_FINISH );
		if ( is_string( $rest ) && '' !== $rest ) {
			$sink( $rest );
		}
	}
}
