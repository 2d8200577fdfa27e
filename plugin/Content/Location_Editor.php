<?php
/**
 * The block editor's "Location" panel for posts of enabled types.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Content;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Support\Inline_Script;

/**
 * Loads the "Location" document panel (build/locations/index.js) in the block editor of a post
 * whose type is enabled for locations, for users who may edit it, with `window.cairnMapsEditor`
 * (the public token and where things are) and the map library's addresses printed before it.
 *
 * @since 0.3.0
 */
class Location_Editor {

	public const SCRIPT_HANDLE = 'cairn-maps-location-editor';

	/**
	 * The editor data (Blocks\Editor_Data, given by Plugin).
	 *
	 * @var Inline_Script
	 */
	private Inline_Script $editor_data;

	/**
	 * Where mapbox-gl comes from (Blocks\Mapbox_Gl, given by Plugin).
	 *
	 * @var Inline_Script
	 */
	private Inline_Script $mapbox_gl;

	/**
	 * Creates the part.
	 *
	 * @since 0.4.0 Any Inline_Script (Plugin gives Blocks\Editor_Data and Blocks\Mapbox_Gl).
	 *
	 * @param Inline_Script $editor_data The editor data.
	 * @param Inline_Script $mapbox_gl   Where mapbox-gl comes from.
	 */
	public function __construct( Inline_Script $editor_data, Inline_Script $mapbox_gl ) {
		$this->editor_data = $editor_data;
		$this->mapbox_gl   = $mapbox_gl;
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'enqueue_block_editor_assets', array( $this, 'enqueue' ) );
	}

	/**
	 * The post type of the block editor screen being shown, when it is enabled for locations.
	 */
	public function enabled_screen_type(): string {
		$screen = function_exists( 'get_current_screen' ) ? get_current_screen() : null;
		if ( null === $screen || 'post' !== $screen->base || ! $screen->is_block_editor() ) {
			return '';
		}
		return Location_Types::is_enabled( (string) $screen->post_type ) ? (string) $screen->post_type : '';
	}

	/**
	 * Loads the panel's script and styles.
	 */
	public function enqueue(): void {
		if ( '' === $this->enabled_screen_type() ) {
			return;
		}
		$asset_file = CAIRN_MAPS_DIR . 'build/locations/index.asset.php';
		if ( ! is_readable( $asset_file ) ) {
			return;
		}
		$asset = require $asset_file;
		wp_enqueue_script(
			self::SCRIPT_HANDLE,
			plugins_url( 'build/locations/index.js', CAIRN_MAPS_FILE ),
			$asset['dependencies'] ?? array(),
			$asset['version'] ?? CAIRN_MAPS_VERSION,
			true
		);
		wp_add_inline_script( self::SCRIPT_HANDLE, $this->editor_data->inline_script() . $this->mapbox_gl->inline_script(), 'before' );
		if ( is_readable( CAIRN_MAPS_DIR . 'build/locations/index.css' ) ) {
			wp_enqueue_style(
				self::SCRIPT_HANDLE,
				plugins_url( 'build/locations/index.css', CAIRN_MAPS_FILE ),
				array( 'wp-components' ),
				$asset['version'] ?? CAIRN_MAPS_VERSION
			);
		}
	}
}
