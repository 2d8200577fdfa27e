<?php
/**
 * The site-wide defaults, handed to the block editor.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Settings;

defined( 'ABSPATH' ) || exit;

/**
 * Prints `window.cairnMapsSiteDefaults` before the map block's editor script. The editor gives
 * newly inserted blocks these values as explicit attributes (src/blocks/map/site-defaults.ts), so
 * the block.json defaults — and with them every block already on a page — stay as they are.
 *
 * Editors without `manage_options` cannot read `/wp/v2/settings`; this is how they get the values.
 *
 * @since 0.1.0
 */
class Editor_Defaults {

	public const GLOBAL_NAME = 'cairnMapsSiteDefaults';

	/**
	 * Settings.
	 *
	 * @var Settings
	 */
	private Settings $settings;

	/**
	 * Creates the part.
	 *
	 * @param Settings $settings Settings.
	 */
	public function __construct( Settings $settings ) {
		$this->settings = $settings;
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'enqueue_block_editor_assets', array( $this, 'print_defaults' ) );
	}

	/**
	 * Attaches the defaults to the block's editor script.
	 */
	public function print_defaults(): void {
		$type   = \WP_Block_Type_Registry::get_instance()->get_registered( 'cairn/map' );
		$handle = $type && ! empty( $type->editor_script_handles ) ? (string) reset( $type->editor_script_handles ) : '';
		if ( '' === $handle ) {
			return;
		}
		wp_add_inline_script(
			$handle,
			'window.' . self::GLOBAL_NAME . ' = ' . wp_json_encode( $this->settings->defaults(), JSON_HEX_TAG | JSON_HEX_AMP ) . ';',
			'before'
		);
	}
}
