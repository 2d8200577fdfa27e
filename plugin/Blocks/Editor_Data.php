<?php
/**
 * What the map block needs to know in the editor.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Location_Types;
use Cairn\Maps\Groups\Group_Styles;
use Cairn\Maps\Settings\Directions_Setting;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Settings\Style_Reference;
use Cairn\Maps\Support\Inline_Script;
use Cairn\Maps\Support\Rest_Routes;

/**
 * Prints `window.cairnMapsEditor` before the block's editor script: the public token (pages print it
 * anyway), why there is none, the site's basemap, and where things are. Never a secret token: `Settings::map_token()`
 * refuses those.
 *
 * @since 0.1.0
 */
class Editor_Data implements Inline_Script {

	public const SCRIPT_HANDLE = 'cairn-map-editor-script';

	/**
	 * Settings.
	 *
	 * @var Settings
	 */
	private Settings $settings;

	/**
	 * Looks of the marker groups (colour, icon), so the preview draws markers as visitors see them.
	 *
	 * @var Group_Styles|null
	 */
	private ?Group_Styles $group_styles;

	/**
	 * Creates the part.
	 *
	 * @param Settings          $settings     Settings.
	 * @param Group_Styles|null $group_styles Looks of the marker groups.
	 */
	public function __construct( Settings $settings, ?Group_Styles $group_styles = null ) {
		$this->settings     = $settings;
		$this->group_styles = $group_styles;
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'enqueue_block_editor_assets', array( $this, 'print_data' ) );
	}

	/**
	 * The data for the editor.
	 *
	 * @return array<string, mixed>
	 */
	public function data(): array {
		$token = $this->settings->map_token();
		return array(
			'accessToken'      => $token['token'],
			'tokenError'       => $token['error'],
			'canManageOptions' => current_user_can( 'manage_options' ),
			'settingsUrl'      => admin_url( 'options-general.php?page=cairn-maps' ),
			'markersUrl'       => Feed_Url::base(),
			'shapesUrl'        => Feed_Url::shapes_base(),
			'markerUrl'        => Rest_Routes::url( 'markers/' ),
			'markerEditUrl'    => admin_url( 'post.php?action=edit&post=' ),
			'groupStyles'      => null === $this->group_styles ? array() : $this->group_styles->styles(),
			'styleHosts'       => Map_Attributes::style_hosts(),
			// The hosts a block's `pmtiles://` archive may be on (home, site, uploads).
			'localHosts'       => Style_Reference::local_hosts(),
			'postTypes'        => self::post_types(),
			// What a block of block.json's default style draws: the site's basemap (Basemap).
			'siteStyle'        => Basemap::site_style(),
			'glyphsUrl'        => Basemap::glyphs_url(),
			'basemaps'         => self::basemaps(),
			// What the page's `config.units` is (Map_Block::units()): the preview lists as visitors read.
			'units'            => Map_Block::units(),
			// The site's app of the "Directions" links: a block's `site` previews it.
			'directions'       => Directions_Setting::chosen(),
		);
	}

	/**
	 * The config's `basemap` for the styles the editor offers (the site's basemap, the OpenFreeMap
	 * styles), as the server renders it, by style. For any other style the editor builds it by the
	 * same rule: provider from the style, `hosts` the style URL's host ([] for self-hosted and
	 * Mapbox), `glyphs` glyphsUrl for a `pmtiles://` style, `attribution` ''.
	 *
	 * @since 0.7.0
	 *
	 * @return array<string, array{provider: string, glyphs: string, hosts: string[], attribution: string}>
	 */
	public static function basemaps(): array {
		$basemaps = array();
		foreach ( array_merge( array( Basemap::site_style() ), array_values( Basemap::OPENFREEMAP_STYLES ) ) as $style ) {
			$basemaps[ $style ] = Basemap::describe( $style );
		}
		return $basemaps;
	}

	/**
	 * The post types a map can show (enabled for locations), each with its label and the
	 * taxonomies its posts can be narrowed by (public, shown in REST), for the "Posts on the map"
	 * panel.
	 *
	 * @since 0.3.0
	 *
	 * @return array<int, array{name: string, label: string, taxonomies: array<int, array{name: string, label: string, hierarchical: bool}>}>
	 */
	public static function post_types(): array {
		$types = array();
		foreach ( Location_Types::enabled() as $name ) {
			$object = get_post_type_object( $name );
			if ( null === $object ) {
				continue;
			}
			$taxonomies = array();
			foreach ( get_object_taxonomies( $name, 'objects' ) as $taxonomy ) {
				if ( $taxonomy->public && $taxonomy->show_in_rest ) {
					$taxonomies[] = array(
						'name'         => $taxonomy->name,
						'label'        => (string) $taxonomy->labels->name,
						'hierarchical' => (bool) $taxonomy->hierarchical,
					);
				}
			}
			$types[] = array(
				'name'       => $name,
				'label'      => (string) $object->labels->name,
				'taxonomies' => $taxonomies,
			);
		}
		return $types;
	}

	/**
	 * Prints the data before the block's editor script.
	 */
	public function print_data(): void {
		wp_add_inline_script( self::SCRIPT_HANDLE, $this->inline_script(), 'before' );
	}

	/**
	 * The script that sets `window.cairnMapsEditor`, for any editor script that reads it (the
	 * marker sidebar prints it before its own script too).
	 */
	public function inline_script(): string {
		return 'window.cairnMapsEditor = ' . wp_json_encode( $this->data(), JSON_HEX_TAG | JSON_HEX_AMP ) . ';';
	}
}
