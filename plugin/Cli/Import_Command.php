<?php
/**
 * `wp cairn import`.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Cli;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Import_Export\Import_Export_Page;
use Cairn\Maps\Import_Export\Import_Reader;
use Cairn\Maps\Import_Export\Marker_Import;

/**
 * Imports a marker file with the readers, rules and writer of the REST import: a partial import
 * whose report lists every refused row and every notice, as the Tools page does. A CSV file is
 * streamed (Marker_Import::import_file()), so a file of a million rows imports in bounded memory;
 * the REST import's row and size limits do not apply.
 *
 * @since 0.7.0
 */
final class Import_Command {

	/**
	 * The importer.
	 *
	 * @var Marker_Import
	 */
	private Marker_Import $import;

	/**
	 * Creates the command.
	 *
	 * @param Marker_Import $import The importer.
	 */
	public function __construct( Marker_Import $import ) {
		$this->import = $import;
	}

	/**
	 * Imports markers (and places of post types enabled for places) from a file.
	 *
	 * Valid rows are imported; every other row is reported with its line and why.
	 *
	 * ## OPTIONS
	 *
	 * <file>
	 * : A CSV, GeoJSON, GPX, KML or KMZ file.
	 *
	 * [--format=<format>]
	 * : The file's format; guessed from its name and content when left out.
	 * ---
	 * options:
	 *   - csv
	 *   - geojson
	 *   - gpx
	 *   - kml
	 *   - kmz
	 * ---
	 *
	 * [--group=<group>]
	 * : Put every imported marker in this group (name or slug; created if missing).
	 *
	 * [--folder-groups]
	 * : One group per KML folder.
	 *
	 * [--title-property=<property>]
	 * : GeoJSON: the feature property to take titles from.
	 *
	 * [--dry-run]
	 * : Check the file and print the report; write nothing.
	 *
	 * ## EXAMPLES
	 *
	 *     wp cairn import huts.csv --group=Huts
	 *     wp cairn import trip.kml --folder-groups --dry-run
	 *
	 * @param array<int, string>         $args       Positional arguments.
	 * @param array<string, string|bool> $assoc_args Options.
	 */
	public function __invoke( array $args, array $assoc_args ): void {
		$path = (string) ( $args[0] ?? '' );
		if ( '' === $path || ! is_file( $path ) || ! is_readable( $path ) ) {
			/* translators: %s: file path. */
			\WP_CLI::error( sprintf( __( 'Cannot read the file "%s".', 'cairn-maps' ), $path ) );
		}
		$format = isset( $assoc_args['format'] ) ? (string) $assoc_args['format'] : '';
		if ( '' === $format ) {
			$handle = fopen( $path, 'rb' ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_operations_fopen, WordPress.WP.AlternativeFunctions.file_system_read_fopen -- a local file named on the command line: its first bytes guess its format.
			$start  = false !== $handle ? (string) fread( $handle, 4096 ) : ''; // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_operations_fread, WordPress.WP.AlternativeFunctions.file_system_read_fread -- as above.
			if ( false !== $handle ) {
				fclose( $handle ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_operations_fclose, WordPress.WP.AlternativeFunctions.file_system_read_fclose -- as above.
			}
			$format = Import_Reader::detect_format( $start, basename( $path ) );
		}
		if ( ! in_array( $format, Import_Reader::FORMATS, true ) ) {
			/* translators: %s: format. */
			\WP_CLI::error( sprintf( __( 'Unknown format "%s".', 'cairn-maps' ), $format ) );
		}
		$options = array(
			'dry_run'        => ! empty( $assoc_args['dry-run'] ),
			'folder_groups'  => ! empty( $assoc_args['folder-groups'] ),
			'group'          => isset( $assoc_args['group'] ) ? (string) $assoc_args['group'] : '',
			'title_property' => isset( $assoc_args['title-property'] ) ? (string) $assoc_args['title-property'] : '',
		);
		$size    = max( 1, (int) filesize( $path ) );
		$bar     = \WP_CLI\Utils\make_progress_bar( $options['dry_run'] ? __( 'Checking', 'cairn-maps' ) : __( 'Importing', 'cairn-maps' ), $size );
		$done    = 0;
		$result  = $this->import->import_file(
			$path,
			$format,
			$options,
			static function ( int $bytes ) use ( $bar, &$done ): void {
				if ( $bytes > $done ) {
					$bar->tick( $bytes - $done );
					$done = $bytes;
				}
			}
		);
		$bar->finish();
		$report = Import_Export_Page::report( $result, PHP_INT_MAX );
		foreach ( $report['problems'] as $problem ) {
			\WP_CLI::warning( $problem );
		}
		foreach ( $report['notices'] as $notice ) {
			\WP_CLI::log( $notice );
		}
		if ( is_wp_error( $result ) ) {
			\WP_CLI::error( $report['message'] );
		}
		$message = $report['message'];
		if ( ! empty( $result['dry_run'] ) ) {
			/* translators: %s: the report, e.g. "3 markers would be imported." */
			$message = sprintf( __( 'Dry run, nothing was written: %s', 'cairn-maps' ), $message );
		}
		\WP_CLI::success( $message );
	}
}
