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
		if ( ! class_exists( ZipArchive::class ) ) {
			return self::error( __( 'Reading KMZ files needs PHP\'s zip extension, which this server does not have. Unzip the KMZ and import the doc.kml inside it.', 'cairn-maps' ) );
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
			$stream = $zip->getStream( (string) $stat['name'] );
			if ( false === $stream ) {
				return self::error( __( 'The KML inside the KMZ archive could not be read.', 'cairn-maps' ) );
			}
			$kml = '';
			// The declared size may lie: stop at the first byte past the limit, whatever it says.
			while ( ! feof( $stream ) ) {
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
			if ( strlen( $kml ) !== (int) $stat['size'] ) {
				return self::error( __( 'The KML inside the KMZ archive is damaged (its size is not the one the archive declares).', 'cairn-maps' ) );
			}
			return $kml;
		} finally {
			$zip->close();
		}
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
