<?php
/**
 * The plugin's WP-CLI commands.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Cli;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Import_Export\Marker_Export;
use Cairn\Maps\Import_Export\Marker_Import;
use Cairn\Maps\Index\Place_Index;

/**
 * Registers `wp cairn import`, `wp cairn export` and `wp cairn index status|rebuild`, only when
 * WP-CLI runs (Plugin::boot() asks WP_CLI).
 *
 * @since 0.7.0
 */
final class Commands {

	/**
	 * Registers the commands.
	 *
	 * @param Marker_Import $import The importer (the REST route's, with its version and queue).
	 * @param Marker_Export $export The exporter.
	 * @param Place_Index   $index  The place index.
	 */
	public static function register( Marker_Import $import, Marker_Export $export, Place_Index $index ): void {
		if ( ! defined( 'WP_CLI' ) || ! WP_CLI || ! class_exists( '\WP_CLI' ) ) {
			return;
		}
		\WP_CLI::add_command( 'cairn import', new Import_Command( $import ) );
		\WP_CLI::add_command( 'cairn export', new Export_Command( $export ) );
		\WP_CLI::add_command( 'cairn index', new Index_Command( $index ) );
	}
}
