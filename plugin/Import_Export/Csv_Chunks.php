<?php
/**
 * Splits a CSV file on disk into chunks of whole records.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Import_Export;

defined( 'ABSPATH' ) || exit;

use WP_Error;

/**
 * Streams a CSV file as chunks of at most N records, each chunk the header line followed by its
 * records, for Import_Reader to read as a small file of its own: the WP-CLI import of a file of
 * any size keeps one chunk in memory. A record ends at a line end outside double quotes (RFC
 * 4180: a quoted cell may hold line ends, and its quotes come in pairs), so a chunk never cuts a
 * record in two. Each chunk tells the file line its first record starts on.
 *
 * @since 0.7.0
 */
final class Csv_Chunks {

	/**
	 * File path.
	 *
	 * @var string
	 */
	private string $path;

	/**
	 * Records per chunk.
	 *
	 * @var int
	 */
	private int $size;

	/**
	 * The open file.
	 *
	 * @var resource
	 */
	private $handle;

	/**
	 * The header line (without its BOM).
	 *
	 * @var string
	 */
	private string $header = '';

	/**
	 * Lines the header took.
	 *
	 * @var int
	 */
	private int $header_lines = 1;

	/**
	 * Creates the splitter.
	 *
	 * @param string $path File path.
	 * @param int    $size Records per chunk.
	 */
	public function __construct( string $path, int $size ) {
		$this->path = $path;
		$this->size = max( 1, $size );
	}

	/**
	 * Opens the file and reads its header.
	 *
	 * @return true|WP_Error
	 */
	public function open() {
		$handle = is_readable( $this->path ) ? fopen( $this->path, 'rb' ) : false; // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_operations_fopen, WordPress.WP.AlternativeFunctions.file_system_read_fopen -- a local file named on the command line, streamed.
		if ( false === $handle ) {
			return new WP_Error( 'cairn_maps_import_unreadable', __( 'The file could not be read.', 'cairn-maps' ) );
		}
		$this->handle = $handle;
		$header       = $this->record();
		if ( null === $header ) {
			return new WP_Error( 'cairn_maps_import_empty', __( 'The file holds no markers.', 'cairn-maps' ) );
		}
		$this->header       = "\xEF\xBB\xBF" === substr( $header[0], 0, 3 ) ? substr( $header[0], 3 ) : $header[0];
		$this->header_lines = $header[1];
		return true;
	}

	/**
	 * The chunks: `content` (header and records), `first_line` (the file line of its first
	 * record) and `progress` (bytes of the file read so far).
	 *
	 * @return \Generator<int, array{content: string, first_line: int, progress: int|null}>
	 */
	public function chunks(): \Generator {
		$line  = 1 + $this->header_lines;
		$first = $line;
		$body  = '';
		$count = 0;
		while ( true ) {
			$record = $this->record();
			if ( null === $record ) {
				break;
			}
			$body .= $record[0];
			$line += $record[1];
			++$count;
			if ( $count >= $this->size ) {
				yield array(
					'content'    => $this->header . $body,
					'first_line' => $first,
					'progress'   => (int) ftell( $this->handle ),
				);
				$body  = '';
				$count = 0;
				$first = $line;
			}
		}
		if ( '' !== $body ) {
			yield array(
				'content'    => $this->header . $body,
				'first_line' => $first,
				'progress'   => (int) ftell( $this->handle ),
			);
		}
		fclose( $this->handle ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_operations_fclose, WordPress.WP.AlternativeFunctions.file_system_read_fclose -- as above.
	}

	/**
	 * The next whole record (its text with its line end, and how many lines it spans), or null
	 * at the end.
	 *
	 * @return array{0: string, 1: int}|null
	 */
	private function record(): ?array {
		$text   = '';
		$lines  = 0;
		$quotes = 0;
		while ( true ) {
			$line = fgets( $this->handle );
			if ( false === $line ) {
				break;
			}
			$text   .= $line;
			$quotes += substr_count( $line, '"' );
			++$lines;
			if ( 0 === $quotes % 2 ) {
				break;
			}
		}
		if ( '' === $text ) {
			return null;
		}
		if ( "\n" !== substr( $text, -1 ) ) {
			$text .= "\n";
		}
		return array( $text, $lines );
	}
}
