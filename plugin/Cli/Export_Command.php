<?php
/**
 * `wp cairn export`.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Cli;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Import_Export\Marker_Export;

/**
 * Writes the markers to a file or to standard output, as the Tools page's download does
 * (Marker_Export, in batches).
 *
 * @since 0.7.0
 */
final class Export_Command {

	/**
	 * The exporter.
	 *
	 * @var Marker_Export
	 */
	private Marker_Export $export;

	/**
	 * Creates the command.
	 *
	 * @param Marker_Export $export The exporter.
	 */
	public function __construct( Marker_Export $export ) {
		$this->export = $export;
	}

	/**
	 * Exports the markers.
	 *
	 * ## OPTIONS
	 *
	 * [--format=<format>]
	 * : File format.
	 * ---
	 * default: csv
	 * options:
	 *   - csv
	 *   - geojson
	 * ---
	 *
	 * [--output=<file>]
	 * : Where to write; standard output when left out.
	 *
	 * ## EXAMPLES
	 *
	 *     wp cairn export --format=geojson --output=markers.geojson
	 *
	 * @param array<int, string>         $args       Positional arguments.
	 * @param array<string, string|bool> $assoc_args Options.
	 */
	public function __invoke( array $args, array $assoc_args ): void {
		$format = 'geojson' === ( $assoc_args['format'] ?? 'csv' ) ? 'geojson' : 'csv';
		$output = isset( $assoc_args['output'] ) ? (string) $assoc_args['output'] : '';
		$handle = '' === $output ? fopen( 'php://output', 'wb' ) : fopen( $output, 'wb' ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_operations_fopen, WordPress.WP.AlternativeFunctions.file_system_read_fopen -- the file named on the command line, written in pieces.
		if ( false === $handle ) {
			/* translators: %s: file path. */
			\WP_CLI::error( sprintf( __( 'Cannot write the file "%s".', 'cairn-maps' ), $output ) );
		}
		$this->export->write(
			$format,
			static function ( string $piece ) use ( $handle ): void {
				fwrite( $handle, $piece ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_operations_fwrite, WordPress.WP.AlternativeFunctions.file_system_read_fwrite -- as above.
			}
		);
		fclose( $handle ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_operations_fclose, WordPress.WP.AlternativeFunctions.file_system_read_fclose -- as above.
		if ( '' !== $output ) {
			/* translators: %s: file path. */
			\WP_CLI::success( sprintf( __( 'Markers written to %s.', 'cairn-maps' ), $output ) );
		}
	}
}
