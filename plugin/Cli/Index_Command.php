<?php
/**
 * `wp cairn index status|rebuild`.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Cli;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Index\Place_Index;

/**
 * The place index (tiles, boxes, word search): its state, and a whole rebuild now.
 *
 * @since 0.7.0
 */
final class Index_Command {

	/**
	 * The index.
	 *
	 * @var Place_Index
	 */
	private Place_Index $index;

	/**
	 * Creates the command.
	 *
	 * @param Place_Index $index The index.
	 */
	public function __construct( Place_Index $index ) {
		$this->index = $index;
	}

	/**
	 * Tells how many places the index holds and whether it is ready.
	 *
	 * ## OPTIONS
	 *
	 * [--format=<format>]
	 * : Output format.
	 * ---
	 * default: table
	 * options:
	 *   - table
	 *   - json
	 * ---
	 *
	 * @param array<int, string>         $args       Positional arguments.
	 * @param array<string, string|bool> $assoc_args Options.
	 */
	public function status( array $args, array $assoc_args ): void {
		$info = $this->index->info();
		$row  = array(
			'places' => $info['places'],
			'ready'  => $info['ready'] ? 'yes' : 'no',
		);
		\WP_CLI\Utils\format_items( 'json' === ( $assoc_args['format'] ?? 'table' ) ? 'json' : 'table', array( $row ), array( 'places', 'ready' ) );
	}

	/**
	 * Rebuilds the index now, in batches (instead of in the background through WP-Cron).
	 *
	 * ## OPTIONS
	 *
	 * [--batch=<markers>]
	 * : Markers per batch.
	 * ---
	 * default: 5000
	 * ---
	 *
	 * @param array<int, string>         $args       Positional arguments.
	 * @param array<string, string|bool> $assoc_args Options.
	 */
	public function rebuild( array $args, array $assoc_args ): void {
		$batch = max( 1, (int) ( $assoc_args['batch'] ?? 5000 ) );
		if ( ! $this->index->rebuild_now( $batch ) ) {
			\WP_CLI::error( __( 'The database refused a step of the rebuild three times; it stays pending and WP-Cron will go on with it.', 'cairn-maps' ) );
		}
		$info = $this->index->info();
		/* translators: %s: number of places. */
		\WP_CLI::success( sprintf( __( 'The place index was rebuilt: %s places.', 'cairn-maps' ), number_format_i18n( $info['places'] ) ) );
	}
}
