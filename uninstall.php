<?php
/**
 * Runs when the plugin is deleted from the Plugins screen (not on deactivation): removes the
 * settings, and the markers and marker groups only if the owner opted in. See Cairn\Maps\Uninstaller.
 *
 * @package Cairn\Maps
 */

defined( 'WP_UNINSTALL_PLUGIN' ) || exit;

// The plugin itself is not loaded during uninstall: load just the classes the uninstaller uses.
foreach ( array(
	'Cairn\\Maps\\Settings\\Settings'           => 'plugin/Settings/Settings.php',
	'Cairn\\Maps\\Markers\\Post_Type'           => 'plugin/Markers/Post_Type.php',
	'Cairn\\Maps\\Content\\Location_Types'      => 'plugin/Content/Location_Types.php',
	'Cairn\\Maps\\Import_Export\\Geocode_Queue' => 'plugin/Import_Export/Geocode_Queue.php',
	'Cairn\\Maps\\Import_Export\\Geocode_Job'   => 'plugin/Import_Export/Geocode_Job.php',
	'Cairn\\Maps\\Index\\Index_Schema'          => 'plugin/Index/Index_Schema.php',
	'Cairn\\Maps\\Index\\Place_Index'           => 'plugin/Index/Place_Index.php',
	'Cairn\\Maps\\Feed\\Shape_Tile_Schema'      => 'plugin/Feed/Shape_Tile_Schema.php',
	'Cairn\\Maps\\Feed\\Shape_Tile_Index'       => 'plugin/Feed/Shape_Tile_Index.php',
	'Cairn\\Maps\\Uninstaller'                  => 'plugin/Uninstaller.php',
) as $cairn_maps_class => $cairn_maps_file ) {
	if ( ! class_exists( $cairn_maps_class, false ) ) {
		require_once __DIR__ . '/' . $cairn_maps_file;
	}
}

( new Cairn\Maps\Uninstaller() )->run();
