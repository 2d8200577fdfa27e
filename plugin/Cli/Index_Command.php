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
	 * Tells how many places the index holds, whether it is ready and, while a rebuild is pending,
	 * where it stands: its phase, places written of the published markers (`done`, `total`) and
	 * who ran its last step (`by`: cron, admin, cli).
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
		$info     = $this->index->info();
		$progress = $this->index->progress();
		$row      = array(
			'places' => $info['places'],
			'ready'  => $info['ready'] ? 'yes' : 'no',
			'phase'  => $progress['pending'] ? ( '' === $progress['phase'] ? 'start' : $progress['phase'] ) : 'complete',
			'done'   => $progress['done'],
			'total'  => $progress['total'],
			'by'     => $progress['pending'] ? $progress['by'] : ( $progress['built']['by'] ?? '' ),
		);
		\WP_CLI\Utils\format_items( 'json' === ( $assoc_args['format'] ?? 'table' ) ? 'json' : 'table', array( $row ), array_keys( $row ) );
	}

	/**
	 * Rebuilds the index now, in batches (instead of in the background through WP-Cron or admin
	 * page loads). Waits for a step another request is running to end.
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
		if ( ! $this->index->rebuild_now( $batch, 'cli' ) ) {
			\WP_CLI::error( __( 'The rebuild did not finish: the database refused a step three times, or another request kept running steps. It stays pending and goes on in the background.', 'cairn-maps' ) );
		}
		$info = $this->index->info();
		/* translators: %s: number of places. */
		\WP_CLI::success( sprintf( __( 'The place index was rebuilt: %s places.', 'cairn-maps' ), number_format_i18n( $info['places'] ) ) );
	}
}
