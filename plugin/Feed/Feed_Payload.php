<?php
/**
 * A built GeoJSON feed, held gzip-compressed.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Feed;

defined( 'ABSPATH' ) || exit;

/**
 * The feed's JSON as one gzip stream cut into chunks (each well under 1 MB, so each fits any object
 * cache). 100,000 markers take about 1.6 MB here instead of 15 MB of JSON or 150 MB of PHP arrays.
 *
 * A payload read from the feed cache loads its chunks one at a time as it is printed, so serving
 * it keeps one chunk in memory, not the whole stream; uncompressed output is inflated in small
 * slices for the same reason.
 *
 * @since 0.1.0
 */
final class Feed_Payload {

	/**
	 * Compressed bytes inflated at a time: about ten times as much JSON comes out of each slice.
	 */
	public const INFLATE_SLICE = 8 * 1024;

	/**
	 * Consecutive pieces of one gzip stream, when held in memory.
	 *
	 * @var string[]|null
	 */
	private ?array $chunks;

	/**
	 * Loads chunk $i (null when it is missing), when the chunks are not held.
	 *
	 * @var (callable(int): ?string)|null
	 */
	private $loader = null;

	/**
	 * Number of chunks.
	 *
	 * @var int
	 */
	private int $chunk_count;

	/**
	 * Size of the gzip stream, when known.
	 *
	 * @var int|null
	 */
	private ?int $gzip_bytes = null;

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
	 * The markers version this payload shows ('' when unknown).
	 *
	 * @var string
	 */
	private string $version;

	/**
	 * Creates the payload.
	 *
	 * @param string[] $chunks     Pieces of one gzip stream.
	 * @param int      $json_bytes Uncompressed length.
	 * @param int      $count      Feature count.
	 * @param string   $version    The markers version it shows.
	 */
	public function __construct( array $chunks, int $json_bytes, int $count, string $version = '' ) {
		$this->chunks      = array_values( $chunks );
		$this->chunk_count = count( $this->chunks );
		$this->json_bytes  = $json_bytes;
		$this->count       = $count;
		$this->version     = $version;
	}

	/**
	 * A payload whose chunks are loaded one by one when needed.
	 *
	 * @param int                    $chunk_count How many chunks.
	 * @param callable(int): ?string $loader      Loads chunk $i; null when it is missing.
	 * @param int                    $json_bytes  Uncompressed length.
	 * @param int                    $count       Feature count.
	 * @param string                 $version     The markers version it shows.
	 * @param int|null               $gzip_bytes  Size of the gzip stream, when known.
	 */
	public static function lazy( int $chunk_count, callable $loader, int $json_bytes, int $count, string $version, ?int $gzip_bytes = null ): self {
		$payload              = new self( array(), $json_bytes, $count, $version );
		$payload->chunks      = null;
		$payload->loader      = $loader;
		$payload->chunk_count = $chunk_count;
		$payload->gzip_bytes  = $gzip_bytes;
		return $payload;
	}

	/**
	 * The markers version this payload shows ('' when unknown).
	 */
	public function version(): string {
		return $this->version;
	}

	/**
	 * Number of chunks.
	 */
	public function chunk_count(): int {
		return $this->chunk_count;
	}

	/**
	 * The gzip stream's pieces, all in memory (the printing methods need only one at a time).
	 *
	 * @return string[]
	 */
	public function gzip_chunks(): array {
		return null !== $this->chunks ? $this->chunks : iterator_to_array( $this->each_chunk(), false );
	}

	/**
	 * The gzip stream's pieces, one at a time.
	 *
	 * @return \Generator<int, string>
	 * @throws \RuntimeException When a stored chunk is gone (evicted meanwhile).
	 */
	public function each_chunk(): \Generator {
		if ( null !== $this->chunks ) {
			yield from $this->chunks;
			return;
		}
		$loader = $this->loader; // Set whenever the chunks are not held.
		for ( $i = 0; $i < $this->chunk_count; $i++ ) {
			$chunk = null !== $loader ? $loader( $i ) : null;
			if ( ! is_string( $chunk ) ) {
				throw new \RuntimeException( 'A chunk of the Cairn Maps feed payload is missing.' );
			}
			yield $chunk;
		}
	}

	/**
	 * Size of the gzip stream, in bytes.
	 */
	public function gzip_bytes(): int {
		if ( null === $this->gzip_bytes ) {
			$bytes = 0;
			foreach ( $this->each_chunk() as $chunk ) {
				$bytes += strlen( $chunk );
			}
			$this->gzip_bytes = $bytes;
		}
		return $this->gzip_bytes;
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
		foreach ( $this->json_pieces() as $piece ) {
			$json .= $piece;
		}
		return $json;
	}

	/**
	 * Prints the uncompressed JSON, a slice at a time.
	 */
	public function print_json(): void {
		foreach ( $this->json_pieces() as $piece ) {
			echo $piece; // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- a JSON document served as application/json, built with json_encode.
		}
	}

	/**
	 * Prints the gzip stream as it is (for `Content-Encoding: gzip`), a chunk at a time.
	 */
	public function print_gzip(): void {
		foreach ( $this->each_chunk() as $chunk ) {
			echo $chunk; // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- gzip bytes of the JSON document.
		}
	}

	/**
	 * The uncompressed JSON in consecutive pieces: the stream inflated in slices of INFLATE_SLICE
	 * compressed bytes (or $slice), so no more than about ten times that is ever held uncompressed.
	 * The filtered feeds are cut from the whole feed this way (Geojson_Feed::derive()).
	 *
	 * @since 0.2.0
	 *
	 * @param int $slice Compressed bytes inflated at a time.
	 * @return \Generator<int, string>
	 * @throws \RuntimeException When the stored stream is corrupt, or a stored chunk is gone.
	 */
	public function json_pieces( int $slice = self::INFLATE_SLICE ): \Generator {
		$context = inflate_init( ZLIB_ENCODING_GZIP );
		if ( false === $context ) {
			throw new \RuntimeException( 'zlib could not start inflating the Cairn Maps feed payload.' );
		}
		foreach ( $this->each_chunk() as $chunk ) {
			$length = strlen( $chunk );
			for ( $offset = 0; $offset < $length; $offset += $slice ) {
				$piece = inflate_add( $context, substr( $chunk, $offset, $slice ), ZLIB_SYNC_FLUSH );
				if ( false === $piece ) {
					throw new \RuntimeException( 'Corrupt Cairn Maps feed payload.' );
				}
				if ( '' !== $piece ) {
					yield $piece;
				}
			}
			unset( $chunk );
		}
		$rest = inflate_add( $context, '', ZLIB_FINISH );
		if ( false === $rest ) {
			throw new \RuntimeException( 'Corrupt Cairn Maps feed payload.' );
		}
		if ( '' !== $rest ) {
			yield $rest;
		}
	}
}
