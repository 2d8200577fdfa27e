<?php
/**
 * The setting `cairn_maps_directions`.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Settings;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Support\Map_Schema;

/**
 * Which map app the places' "Directions" links open: `osm` (OpenStreetMap, the default), `google`
 * (Google Maps), `apple` (Apple Maps), `geo` (the `geo:` address, which phones hand to their own
 * map app) or `none` (no links). In `/wp/v2/settings`; anything else answers 400 there and is never
 * stored by any way in. A map block's `directions` attribute may choose another app; its default
 * `site` follows this setting.
 *
 * The links are plain links: no API, no key, and nothing is sent to the app before the visitor
 * follows one. OpenStreetMap is the default because it works in every browser on every device
 * without an account, and asks nothing of the owner: the same open data the keyless basemaps draw.
 *
 * @since 0.9.0
 */
final class Directions_Setting {

	public const OPTION = 'cairn_maps_directions';

	/**
	 * What a site has until its owner chooses.
	 */
	public const DEFAULT_APP = 'osm';

	/**
	 * What a block's `directions` attribute says to follow the site.
	 */
	public const SITE = 'site';

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'init', array( $this, 'register' ) );
	}

	/**
	 * The apps the setting takes (`none` included): the block attribute's (map-schema.json) but `site`.
	 *
	 * @return string[]
	 */
	public static function apps(): array {
		$enum = Map_Schema::rule( 'directions' )['enum'] ?? array();
		return array_values( array_diff( is_array( $enum ) ? $enum : array(), array( self::SITE ) ) );
	}

	/**
	 * Registers the setting with its schema.
	 */
	public function register(): void {
		register_setting(
			Settings::GROUP,
			self::OPTION,
			array(
				'type'              => 'string',
				'description'       => __( 'The map app that the “Directions” link of each place opens: osm (OpenStreetMap), google (Google Maps), apple (Apple Maps), geo (the phone’s own map app) or none (no link).', 'cairn-maps' ),
				'default'           => self::DEFAULT_APP,
				'sanitize_callback' => array( $this, 'sanitize' ),
				'show_in_rest'      => array(
					'name'   => self::OPTION,
					'schema' => array(
						'type' => 'string',
						'enum' => self::apps(),
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
		return is_string( $value ) && in_array( $value, self::apps(), true ) ? $value : self::chosen();
	}

	/**
	 * The site's app: the stored one, or the default when none (or a stored value no app) is.
	 */
	public static function chosen(): string {
		$stored = get_option( self::OPTION, self::DEFAULT_APP );
		return is_string( $stored ) && in_array( $stored, self::apps(), true ) ? $stored : self::DEFAULT_APP;
	}

	/**
	 * The app a map's links open: the block's own choice, or the site's for `site`.
	 *
	 * @param string $attribute The block's `directions`, as Map_Attributes kept it.
	 */
	public static function resolve( string $attribute ): string {
		return in_array( $attribute, self::apps(), true ) ? $attribute : self::chosen();
	}
}
