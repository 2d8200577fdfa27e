<?php
/**
 * The KML inside a KMZ archive.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Import_Export;

defined( 'ABSPATH' ) || exit;

use WP_Error;
use ZipArchive;

/**
 * A KMZ is a zip archive holding `doc.kml` (or another `.kml`) and maybe images. Only that KML
 * is read, with PHP's zip extension, under caps a zip bomb cannot lie its way past: at most
 * MAX_ENTRIES entries, and the KML's size both as declared and as actually inflated at most the
 * import's size limit (Marker_Import::max_bytes()): reading stops at the first byte past it.
 *
 * Without the zip extension, the archive's directory is read with the PclZip that WordPress
 * ships (wp-admin/includes/class-pclzip.php), under the same caps: the entry count is read from
 * the end of the archive before PclZip lists anything, and the KML entry is inflated here, in
 * chunks, stopping at the first byte past the limit (PclZip itself would inflate it whole), then
 * checked against its declared size and CRC-32.
 *
 * @since 0.5.0
 */
final class Kmz_Archive {

	/**
	 * Most entries in an archive.
	 */
	public const MAX_ENTRIES = 1000;

	/**
	 * Bytes read at a time.
	 */
	private const CHUNK = 65536;

	/**
	 * Compressed bytes inflated at a time without the zip extension (at most ~4 MB out: deflate
	 * expands 1,032 times at most).
	 */
	private const INFLATE_CHUNK = 4096;

	/**
	 * Whether content is a zip archive (its local file header signature).
	 *
	 * @param string $content File content.
	 */
	public static function is_zip( string $content ): bool {
		return "PK\x03\x04" === substr( $content, 0, 4 ) || "PK\x05\x06" === substr( $content, 0, 4 );
	}

	/**
	 * The KML text of a KMZ archive.
	 *
	 * @param string $content Archive content.
	 * @return string|WP_Error The KML, or why it cannot be read.
	 */
	public static function kml( string $content ) {
		/**
		 * Filters whether KMZ archives are read with PHP's zip extension (ZipArchive); false reads
		 * them with WordPress's PclZip, as on servers without the extension.
		 *
		 * @since 0.7.0
		 * @param bool $zip_archive Whether ZipArchive is used; by default, whether it exists.
		 */
		if ( ! apply_filters( 'cairn_maps_kmz_zip_archive', class_exists( ZipArchive::class ) ) ) {
			return self::read_with_pclzip( $content );
		}
		$path = tempnam( get_temp_dir(), 'cairn-kmz' );
		if ( false === $path || false === file_put_contents( $path, $content ) ) { // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_file_put_contents -- a private temporary file for ZipArchive.
			return new WP_Error( 'cairn_maps_import_unreadable', __( 'The file could not be read.', 'cairn-maps' ), array( 'status' => 500 ) );
		}
		try {
			return self::read( $path );
		} finally {
			wp_delete_file( $path );
		}
	}

	/**
	 * Reads the KML entry of the archive at a path.
	 *
	 * @param string $path Archive path.
	 * @return string|WP_Error
	 */
	private static function read( string $path ) {
		$zip = new ZipArchive();
		if ( true !== $zip->open( $path, ZipArchive::RDONLY ) ) {
			return self::error( __( 'The KMZ file is not a readable zip archive. Export it again, or import the KML inside it.', 'cairn-maps' ) );
		}
		try {
			$entries = (int) $zip->count();
			if ( $entries > self::MAX_ENTRIES ) {
				return self::error(
					sprintf(
						/* translators: 1: entries in the archive, 2: most entries read. */
						__( 'The KMZ archive holds %1$s files; Cairn reads archives of at most %2$s. Import the KML inside it instead.', 'cairn-maps' ),
						number_format_i18n( $entries ),
						number_format_i18n( self::MAX_ENTRIES )
					)
				);
			}
			$index = $zip->locateName( 'doc.kml', ZipArchive::FL_NOCASE );
			for ( $i = 0; false === $index && $i < $entries; $i++ ) {
				if ( 1 === preg_match( '/\.kml$/i', (string) $zip->getNameIndex( $i ) ) ) {
					$index = $i;
				}
			}
			if ( false === $index ) {
				return self::error( __( 'The KMZ archive holds no .kml file.', 'cairn-maps' ) );
			}
			$stat = $zip->statIndex( $index );
			if ( ! is_array( $stat ) || (int) $stat['size'] > Marker_Import::max_bytes() ) {
				return self::too_large();
			}
			$kml = self::inflate( $zip, (string) $stat['name'] );
			if ( is_wp_error( $kml ) ) {
				return $kml;
			}
			if ( strlen( $kml ) !== (int) $stat['size'] ) {
				return self::damaged();
			}
			return $kml;
		} finally {
			$zip->close();
		}
	}

	/**
	 * An entry's content, read up to the size limit. The zip extension reports damaged data (a
	 * zlib or CRC error) as PHP warnings: they are caught here and answered as a damaged archive.
	 *
	 * @param ZipArchive $zip  The archive.
	 * @param string     $name The entry.
	 * @return string|WP_Error
	 */
	private static function inflate( ZipArchive $zip, string $name ) {
		$damaged = false;
		// phpcs:ignore WordPress.PHP.DevelopmentFunctions.error_log_set_error_handler -- the zip stream's warnings are this method's errors.
		set_error_handler(
			static function () use ( &$damaged ): bool {
				$damaged = true;
				return true;
			}
		);
		try {
			$stream = $zip->getStream( $name );
			if ( false === $stream ) {
				return self::error( __( 'The KML inside the KMZ archive could not be read.', 'cairn-maps' ) );
			}
			$kml = '';
			// The declared size may lie: stop at the first byte past the limit, whatever it says.
			while ( ! $damaged && ! feof( $stream ) ) {
				$chunk = fread( $stream, self::CHUNK ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fread -- an entry of a zip archive.
				if ( false === $chunk || '' === $chunk ) {
					break;
				}
				$kml .= $chunk;
				if ( strlen( $kml ) > Marker_Import::max_bytes() ) {
					fclose( $stream ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fclose -- as above.
					return self::too_large();
				}
			}
			fclose( $stream ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fclose -- as above.
		} finally {
			restore_error_handler();
		}
		return $damaged ? self::damaged() : $kml;
	}

	/**
	 * The KML of an archive read with PclZip, under the same caps as ZipArchive's.
	 *
	 * @param string $content Archive content.
	 * @return string|WP_Error
	 */
	private static function read_with_pclzip( string $content ) {
		$entries = self::declared_entries( $content );
		if ( null === $entries ) {
			return self::error( __( 'The KMZ file is not a readable zip archive. Export it again, or import the KML inside it.', 'cairn-maps' ) );
		}
		if ( $entries > self::MAX_ENTRIES ) {
			return self::too_many_entries( $entries );
		}
		if ( ! function_exists( 'inflate_init' ) ) {
			return self::error( __( 'Reading KMZ files needs PHP\'s zip or zlib extension, which this server does not have. Unzip the KMZ and import the doc.kml inside it.', 'cairn-maps' ) );
		}
		if ( ! class_exists( 'PclZip', false ) ) {
			require_once ABSPATH . 'wp-admin/includes/class-pclzip.php';
		}
		$path = tempnam( get_temp_dir(), 'cairn-kmz' );
		if ( false === $path || false === file_put_contents( $path, $content ) ) { // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_file_put_contents -- a private temporary file for PclZip.
			return new WP_Error( 'cairn_maps_import_unreadable', __( 'The file could not be read.', 'cairn-maps' ), array( 'status' => 500 ) );
		}
		try {
			$list = ( new \PclZip( $path ) )->listContent();
		} finally {
			wp_delete_file( $path );
		}
		if ( ! is_array( $list ) ) {
			return self::error( __( 'The KMZ file is not a readable zip archive. Export it again, or import the KML inside it.', 'cairn-maps' ) );
		}
		if ( count( $list ) > self::MAX_ENTRIES ) {
			return self::too_many_entries( count( $list ) );
		}
		$entry = null;
		foreach ( $list as $candidate ) {
			if ( empty( $candidate['folder'] ) && 0 === strcasecmp( (string) $candidate['stored_filename'], 'doc.kml' ) ) {
				$entry = $candidate;
				break;
			}
		}
		foreach ( null === $entry ? $list : array() as $candidate ) {
			if ( empty( $candidate['folder'] ) && 1 === preg_match( '/\.kml$/i', (string) $candidate['stored_filename'] ) ) {
				$entry = $candidate;
				break;
			}
		}
		if ( null === $entry ) {
			return self::error( __( 'The KMZ archive holds no .kml file.', 'cairn-maps' ) );
		}
		if ( (int) $entry['size'] > Marker_Import::max_bytes() ) {
			return self::too_large();
		}
		$kml = self::inflate_entry( $content, (string) $entry['stored_filename'], (int) $entry['compressed_size'] );
		if ( is_wp_error( $kml ) ) {
			return $kml;
		}
		if ( strlen( $kml ) !== (int) $entry['size'] || ( isset( $entry['crc'] ) && crc32( $kml ) !== (int) $entry['crc'] ) ) {
			return self::damaged();
		}
		return $kml;
	}

	/**
	 * The number of entries the archive's end record declares (read before any listing), or
	 * null when there is no end record.
	 *
	 * @param string $content Archive content.
	 */
	private static function declared_entries( string $content ): ?int {
		$tail = substr( $content, -65557 ); // The end record (22 bytes) and the longest comment.
		$at   = strrpos( $tail, "PK\x05\x06" );
		if ( false === $at || strlen( $tail ) < $at + 22 ) {
			return null;
		}
		$record = unpack( 'vdisk/vstart/vhere/vtotal', substr( $tail, $at + 4, 8 ) );
		return is_array( $record ) ? (int) $record['total'] : null;
	}

	/**
	 * An entry's data inflated, stopping at the first byte past the size limit. The entry is
	 * found by its local header (the signature, then the name at byte 30).
	 *
	 * @param string $content    Archive content.
	 * @param string $name       The entry's name.
	 * @param int    $compressed Its compressed size, from the central directory.
	 * @return string|WP_Error
	 */
	private static function inflate_entry( string $content, string $name, int $compressed ) {
		$at = 0;
		while ( true ) {
			$at = strpos( $content, $name, $at );
			if ( false === $at ) {
				return self::damaged();
			}
			$start  = $at - 30;
			$header = $start >= 0 ? unpack( 'Vsignature/vversion/vflags/vmethod/vtime/vdate/Vcrc/Vcompressed/Vsize/vname/vextra', substr( $content, $start, 30 ) ) : false;
			if ( is_array( $header ) && 0x04034b50 === $header['signature'] && strlen( $name ) === $header['name'] ) {
				break;
			}
			++$at;
		}
		$data = substr( $content, $start + 30 + $header['name'] + $header['extra'], $compressed );
		if ( 0 === $header['method'] ) {
			return strlen( $data ) > Marker_Import::max_bytes() ? self::too_large() : $data;
		}
		$inflate = 8 === $header['method'] ? inflate_init( ZLIB_ENCODING_RAW ) : false;
		if ( false === $inflate ) {
			return self::damaged();
		}
		$kml    = '';
		$length = strlen( $data );
		for ( $offset = 0; $offset < $length; $offset += self::INFLATE_CHUNK ) {
			$chunk = @inflate_add( $inflate, substr( $data, $offset, self::INFLATE_CHUNK ), ZLIB_SYNC_FLUSH ); // phpcs:ignore WordPress.PHP.NoSilencedErrors.Discouraged -- damaged data is answered as a damaged archive.
			if ( false === $chunk ) {
				return self::damaged();
			}
			$kml .= $chunk;
			if ( strlen( $kml ) > Marker_Import::max_bytes() ) {
				return self::too_large();
			}
		}
		return $kml;
	}

	/**
	 * The error for an archive of too many entries.
	 *
	 * @param int $entries Entries in the archive.
	 */
	private static function too_many_entries( int $entries ): WP_Error {
		return self::error(
			sprintf(
				/* translators: 1: entries in the archive, 2: most entries read. */
				__( 'The KMZ archive holds %1$s files; Cairn reads archives of at most %2$s. Import the KML inside it instead.', 'cairn-maps' ),
				number_format_i18n( $entries ),
				number_format_i18n( self::MAX_ENTRIES )
			)
		);
	}

	/**
	 * The error for a damaged archive.
	 */
	private static function damaged(): WP_Error {
		return self::error( __( 'The KML inside the KMZ archive is damaged, so nothing was imported. Export the KMZ again, or import the KML inside it.', 'cairn-maps' ) );
	}

	/**
	 * The error for a KML that inflates past the size limit.
	 */
	private static function too_large(): WP_Error {
		return new WP_Error(
			'cairn_maps_import_too_large',
			sprintf(
				/* translators: %s: largest file size, e.g. "8 MB". */
				__( 'The KML inside the KMZ archive is larger than %s once unzipped, so nothing was imported.', 'cairn-maps' ),
				size_format( Marker_Import::max_bytes() )
			),
			array( 'status' => 413 )
		);
	}

	/**
	 * A 400 about the archive.
	 *
	 * @param string $message Message.
	 */
	private static function error( string $message ): WP_Error {
		return new WP_Error( 'cairn_maps_import_kmz', $message, array( 'status' => 400 ) );
	}
}
