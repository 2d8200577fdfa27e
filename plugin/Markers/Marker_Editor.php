<?php
/**
 * The marker edit screen's "Location" panel.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Support\Inline_Script;

/**
 * Loads the "Location" sidebar panel (build/markers/index.js) in the block editor, on the marker
 * edit screen only, with `window.cairnMapsEditor` (the public token and where things are) printed
 * before it.
 *
 * @since 0.1.0
 */
class Marker_Editor {

	public const SCRIPT_HANDLE = 'cairn-maps-marker-editor';

	/**
	 * The editor data (Blocks\Editor_Data, given by Plugin).
	 *
	 * @var Inline_Script
	 */
	private Inline_Script $editor_data;

	/**
	 * Creates the part.
	 *
	 * @since 0.4.0 Any Inline_Script (Plugin gives Blocks\Editor_Data).
	 *
	 * @param Inline_Script $editor_data The editor data.
	 */
	public function __construct( Inline_Script $editor_data ) {
		$this->editor_data = $editor_data;
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'enqueue_block_editor_assets', array( $this, 'enqueue' ) );
	}

	/**
	 * Whether the current screen is the block editor of a marker.
	 */
	public function is_marker_screen(): bool {
		$screen = function_exists( 'get_current_screen' ) ? get_current_screen() : null;
		return null !== $screen && 'post' === $screen->base && Post_Type::POST_TYPE === $screen->post_type && $screen->is_block_editor();
	}

	/**
	 * Loads the panel's script and styles on the marker edit screen.
	 */
	public function enqueue(): void {
		if ( ! $this->is_marker_screen() ) {
			return;
		}
		$asset_file = CAIRN_MAPS_DIR . 'build/markers/index.asset.php';
		if ( ! is_readable( $asset_file ) ) {
			return;
		}
		$asset = require $asset_file;
		wp_enqueue_script(
			self::SCRIPT_HANDLE,
			plugins_url( 'build/markers/index.js', CAIRN_MAPS_FILE ),
			$asset['dependencies'] ?? array(),
			$asset['version'] ?? CAIRN_MAPS_VERSION,
			true
		);
		wp_add_inline_script( self::SCRIPT_HANDLE, $this->editor_data->inline_script(), 'before' );
		if ( is_readable( CAIRN_MAPS_DIR . 'build/markers/index.css' ) ) {
			wp_enqueue_style(
				self::SCRIPT_HANDLE,
				plugins_url( 'build/markers/index.css', CAIRN_MAPS_FILE ),
				array( 'wp-components' ),
				$asset['version'] ?? CAIRN_MAPS_VERSION
			);
		}
	}
}
