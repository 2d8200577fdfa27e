<?php
/**
 * The setting `cairn_maps_geocoder`.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Geocoding;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Settings\Settings;

/**
 * Which service answers address searches: `nominatim` (default) or `mapbox-permanent`. In
 * `/wp/v2/settings`; anything else answers 400 there and is never stored by any way in.
 *
 * @since 0.3.0
 */
class Geocoder_Setting {

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'init', array( $this, 'register' ) );
	}

	/**
	 * Registers the setting with its schema.
	 */
	public function register(): void {
		register_setting(
			Settings::GROUP,
			Geocoder::OPTION,
			array(
				'type'              => 'string',
				'description'       => __( 'The service that finds addresses for places: nominatim (OpenStreetMap) or mapbox-permanent (Mapbox permanent geocoding, billed to the token’s account).', 'cairn-maps' ),
				'default'           => Nominatim::ID,
				'sanitize_callback' => array( $this, 'sanitize' ),
				'show_in_rest'      => array(
					'name'   => Geocoder::OPTION,
					'schema' => array(
						'type' => 'string',
						'enum' => Geocoder::PROVIDERS,
					),
				),
			)
		);
	}

	/**
	 * Keeps the stored choice when another way in (options.php, update_option) sends something else.
	 *
	 * @param mixed $value The submitted value.
	 */
	public function sanitize( $value ): string {
		return in_array( $value, Geocoder::PROVIDERS, true ) ? $value : Geocoder::chosen();
	}
}
