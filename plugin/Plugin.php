<?php
/**
 * The plugin object, the composition root: creates each part once and lets it wire its own hooks.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Blocks\Editor_Data;
use Cairn\Maps\Blocks\Map_Block;
use Cairn\Maps\Blocks\Map_Shortcode;
use Cairn\Maps\Blocks\Mapbox_Gl;
use Cairn\Maps\Blocks\Patterns_Version;
use Cairn\Maps\Blocks\Post_Maps;
use Cairn\Maps\Blocks\Shape_Tile_Config;
use Cairn\Maps\Blocks\Shortcode_Button;
use Cairn\Maps\Blocks\Tile_Config;
use Cairn\Maps\Blocks\View_Script;
use Cairn\Maps\Content\Location_Editor;
use Cairn\Maps\Content\Location_Meta;
use Cairn\Maps\Content\Location_Privacy;
use Cairn\Maps\Content\Places_Version;
use Cairn\Maps\Content\Post_Places_Repository;
use Cairn\Maps\Feed\Feed_Cache;
use Cairn\Maps\Feed\Geojson_Feed;
use Cairn\Maps\Feed\Post_Places_Feed;
use Cairn\Maps\Feed\Shape_Tile_Index;
use Cairn\Maps\Feed\Shape_Tiles;
use Cairn\Maps\Feed\Shapes_Feed;
use Cairn\Maps\Geocoding\Geocoder;
use Cairn\Maps\Geocoding\Geocoding;
use Cairn\Maps\Groups\Group_Creation;
use Cairn\Maps\Groups\Group_Styles;
use Cairn\Maps\Groups\Group_Term_Screen;
use Cairn\Maps\I18n\Script_Translations;
use Cairn\Maps\Cli\Commands;
use Cairn\Maps\Index\Admin_Steps;
use Cairn\Maps\Index\Cron_Health;
use Cairn\Maps\Index\Index_Health;
use Cairn\Maps\Index\Place_Index;
use Cairn\Maps\Index\Tile_Service;
use Cairn\Maps\Import_Export\Geocode_Job;
use Cairn\Maps\Import_Export\Geocode_Queue;
use Cairn\Maps\Import_Export\Import_Export_Page;
use Cairn\Maps\Import_Export\Marker_Export;
use Cairn\Maps\Import_Export\Marker_Import;
use Cairn\Maps\Markers\Admin_Columns;
use Cairn\Maps\Markers\Marker_Editor;
use Cairn\Maps\Markers\Marker_Repository;
use Cairn\Maps\Markers\Marker_Validation;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Markers\Shape_Meta;
use Cairn\Maps\Rest\Basemap_Archive_Controller;
use Cairn\Maps\Rest\Basemap_Test_Controller;
use Cairn\Maps\Rest\Cdn_Purge;
use Cairn\Maps\Rest\Cors;
use Cairn\Maps\Rest\Early_Geocode_Answer;
use Cairn\Maps\Rest\Import_Export_Controller;
use Cairn\Maps\Rest\Import_Geocoding_Controller;
use Cairn\Maps\Rest\Markers_Controller;
use Cairn\Maps\Rest\Method_Override_Guard;
use Cairn\Maps\Rest\Post_Maps_Controller;
use Cairn\Maps\Rest\Post_Maps_Field;
use Cairn\Maps\Rest\Shape_Tiles_Controller;
use Cairn\Maps\Rest\Shapes_Controller;
use Cairn\Maps\Rest\Tiles_Controller;
use Cairn\Maps\Rest\Places_Controller;
use Cairn\Maps\Index\Place_Search;
use Cairn\Maps\Settings\Basemap_Uploads;
use Cairn\Maps\Settings\Editor_Defaults;
use Cairn\Maps\Settings\Directions_Setting;
use Cairn\Maps\Settings\Location_Setting;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Settings\Settings_Page;
use Cairn\Maps\Settings\Settings_Registration;
use Cairn\Maps\Upgrade\Site_Health;
use Cairn\Maps\Upgrade\Upgrade_Notice;
use Cairn\Maps\Upgrade\Upgrade_Steps;
use Cairn\Maps\Upgrade\Upgrader;

/**
 * Boots Cairn Maps. The one place that constructs the parts of every folder, hands each the parts
 * and values it needs, and calls their add_hooks(). The folders of plugin/ sit in layers
 * (bin/check-php-layers.php): what a lower folder needs from a higher one is given here, e.g. the
 * group meta keys Markers_Version watches, or the editor data the Location panels print.
 *
 * @since 0.1.0
 */
final class Plugin {

	/**
	 * The single instance.
	 *
	 * @var Plugin|null
	 */
	private static ?Plugin $instance = null;

	/**
	 * Parts of the plugin, by name.
	 *
	 * @var array<string, object>
	 */
	private array $parts = array();

	/**
	 * The shared instance.
	 */
	public static function instance(): Plugin {
		if ( null === self::$instance ) {
			self::$instance = new Plugin();
		}
		return self::$instance;
	}

	/**
	 * Creates the parts and hooks them in. Safe to call twice.
	 */
	public function boot(): void {
		if ( array() !== $this->parts ) {
			return;
		}
		$settings        = new Settings();
		$post_type       = new Post_Type();
		$markers_version = new Markers_Version( Group_Styles::META_KEYS );
		$repository      = new Marker_Repository( $markers_version );
		$group_styles    = new Group_Styles( $markers_version );
		$editor_data     = new Editor_Data( $settings, $group_styles );
		$geocode_queue   = new Geocode_Queue();
		$marker_import   = new Marker_Import( $markers_version, $geocode_queue );
		$places_version  = new Places_Version();
		$mapbox_gl       = new Mapbox_Gl();
		$cron_health     = new Cron_Health();
		$place_index     = new Place_Index( $cron_health );
		$shape_tiles     = new Shape_Tile_Index( $markers_version );
		$upgrader        = new Upgrader( CAIRN_MAPS_VERSION, ( new Upgrade_Steps( $markers_version ) )->all() );
		$geocoding       = new Geocoding( new Geocoder( $settings ) );
		$this->parts     = array(
			'upgrader'           => $upgrader,
			'upgrade_notice'     => new Upgrade_Notice( $upgrader ),
			'site_health'        => new Site_Health( $upgrader, $settings ),
			'settings'           => $settings,
			'settings_register'  => new Settings_Registration( $settings ),
			'page'               => new Settings_Page( $settings ),
			'defaults'           => new Editor_Defaults( $settings ),
			'post_type'          => $post_type,
			'map_block'          => new Map_Block( $settings, $repository, $group_styles, null, new Tile_Config( $place_index, $markers_version ), new Shape_Tile_Config( $shape_tiles, $markers_version ) ),
			'editor'             => $editor_data,
			'markers_version'    => $markers_version,
			'places_version'     => $places_version,
			'marker_validation'  => new Marker_Validation(),
			'shape_meta'         => new Shape_Meta(),
			'admin_columns'      => new Admin_Columns(),
			'cors'               => new Cors(),
			'cdn_purge'          => new Cdn_Purge(),
			'markers'            => new Markers_Controller(
				new Geojson_Feed( $repository, $markers_version, new Feed_Cache() ),
				$repository,
				new Post_Places_Feed( new Post_Places_Repository(), $places_version, new Feed_Cache() )
			),
			'shapes'             => new Shapes_Controller( new Shapes_Feed( $markers_version, new Feed_Cache() ) ),
			'method_override'    => new Method_Override_Guard(),
			'group_styles'       => $group_styles,
			'group_term_screen'  => new Group_Term_Screen(),
			'group_creation'     => new Group_Creation(),
			'import_export'      => new Import_Export_Controller( $marker_import, new Marker_Export( $repository ) ),
			'import_export_page' => new Import_Export_Page( $marker_import, $geocode_queue, null, array( $editor_data, $mapbox_gl ) ),
			'import_geocoding'   => new Import_Geocoding_Controller( $geocode_queue ),
			'geocode_job'        => new Geocode_Job( $geocode_queue, $markers_version ),
			'marker_editor'      => new Marker_Editor( $editor_data ),
			'view_script'        => new View_Script(),
			'mapbox_gl'          => $mapbox_gl,
			'translations'       => new Script_Translations( array( Import_Export_Page::SCRIPT => true ) ),
			'geocoding'          => $geocoding,
		);
		// The maps of a post over REST: each map's configuration comes from the block itself.
		$this->parts['patterns_version'] = new Patterns_Version();
		$post_maps                       = new Post_Maps( $this->parts['map_block'] );
		$this->parts['post_maps_rest']   = new Post_Maps_Controller( $post_maps, $settings, $markers_version, $this->parts['patterns_version'], $places_version );
		$this->parts['post_maps_field']  = new Post_Maps_Field( $post_maps );
		// Where people already are (issue 34): [cairn_map …] and the classic editor's "Add map".
		$this->parts['map_shortcode']    = new Map_Shortcode( $post_maps );
		$this->parts['shortcode_button'] = new Shortcode_Button( $post_maps );
		// Directions (issue 34): the app each place's "Directions" link opens.
		$this->parts['directions_setting'] = new Directions_Setting();
		// Locations of posts (issue 24): the setting, the meta and its privacy, the editor panel.
		$this->parts['location_setting'] = new Location_Setting();
		$this->parts['location_meta']    = new Location_Meta();
		$this->parts['location_privacy'] = new Location_Privacy();
		$this->parts['location_editor']  = new Location_Editor( $editor_data, $mapbox_gl );
		// The place index (issue 22): markers in tables keyed for tiles, boxes and word search.
		$this->parts['place_index'] = $place_index;
		$this->parts['tiles']       = new Tiles_Controller( new Tile_Service( $place_index ), $markers_version );
		// Issue 33: where WP-Cron does not run, admin page loads build the index; Site Health says how.
		$this->parts['index_steps']  = new Admin_Steps( $place_index, $cron_health );
		$this->parts['index_health'] = new Index_Health( $place_index, $cron_health );
		// The places panel of tiled maps (issue 22): search and the list over the place index.
		$this->parts['places_rest'] = new Places_Controller( new Place_Search(), $markers_version, null, $place_index );
		// Routes and areas tile by tile (issue 33): each shape simplified per zoom, kept in tables.
		$this->parts['shape_tile_index'] = $shape_tiles;
		$this->parts['shape_tiles']      = new Shape_Tiles_Controller( new Shape_Tiles( $shape_tiles, $markers_version, $repository ) );
		// Near a place (issue 34): a visitor's kept address is answered before `init`.
		$this->parts['early_geocode'] = new Early_Geocode_Answer( $geocoding->visitors() );
		// Basemaps (issue 31): .pmtiles uploads for owners, and "Test basemap".
		$this->parts['basemap_uploads'] = new Basemap_Uploads();
		$this->parts['basemap_test']    = new Basemap_Test_Controller( $settings );
		// Self-hosted basemaps (issue 31): byte ranges of a PMTiles archive, for servers that answer none.
		$this->parts['basemap_archive'] = new Basemap_Archive_Controller();
		foreach ( $this->parts as $part ) {
			$part->add_hooks();
		}
		add_action( 'init', array( $this, 'load_textdomain' ) );
		// WP-CLI (issue 32): wp cairn import|export|index, registered only when WP-CLI runs.
		if ( defined( 'WP_CLI' ) && WP_CLI ) {
			Commands::register( $marker_import, new Marker_Export( $repository ), $place_index );
		}
	}

	/**
	 * A part of the plugin, for integrations and tests.
	 *
	 * @param string $name One of settings, post_type, map_block, markers, cors (and the other keys of boot()).
	 */
	public function get( string $name ): ?object {
		return $this->parts[ $name ] ?? null;
	}

	/**
	 * Loads translations shipped with the plugin (WordPress.org language packs load by themselves).
	 */
	public function load_textdomain(): void {
		load_plugin_textdomain( 'cairn-maps', false, dirname( plugin_basename( CAIRN_MAPS_FILE ) ) . '/languages' );
	}
}
