<?php
/**
 * The tables of the shape tiles.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Feed;

defined( 'ABSPATH' ) || exit;

/**
 * Creates and upgrades the two tables the shape tiles are served from, with dbDelta (MariaDB/MySQL,
 * and SQLite through its translating drop-in), under a version of their own (the place index's
 * Index\Index_Schema has its own too):
 *
 * - `cairn_shape_boxes`: one row per marker with a shape, any status: its bounding box (what a
 *   tile meets), its positions as the feed serves them, and its facts as JSON text (the shapes
 *   feed's properties besides title and groups: `bbox`, `length_m`, `ascent_m`, `descent_m`);
 * - `cairn_shape_zooms`: the shape's GeoJSON geometry per zoom 0 … `shapeTiles.fullZoom`
 *   (Markers\Zoom_Simplifier; the last one is the feed's copy) and how many positions it has.
 *
 * Status, password, title and groups are read from WordPress when a tile is built, so they need
 * no copy here; a tile's key carries the markers version, which changes with them.
 *
 * @since 0.7.0
 */
final class Shape_Tile_Schema {

	/**
	 * The version of the tables and of the copies in them; another value in OPTION makes
	 * ensure() run dbDelta, and the copies are built again.
	 */
	public const VERSION = '1';

	/**
	 * The option holding the version the tables were last created at.
	 */
	public const OPTION = 'cairn_maps_shape_tiles_schema';

	/**
	 * Table names without the site's prefix.
	 */
	public const TABLES = array( 'cairn_shape_boxes', 'cairn_shape_zooms' );

	/**
	 * A table's full name.
	 *
	 * @param string $name One of TABLES.
	 */
	public static function table( string $name ): string {
		global $wpdb;
		return $wpdb->prefix . $name;
	}

	/**
	 * Whether the tables are at this version.
	 */
	public static function is_current(): bool {
		return self::VERSION === get_option( self::OPTION );
	}

	/**
	 * Creates or upgrades the tables when their version differs (or always, with $force).
	 *
	 * @param bool $force Run dbDelta even when the option says the tables are current.
	 * @return bool Whether dbDelta ran.
	 */
	public static function ensure( bool $force = false ): bool {
		if ( ! $force && self::is_current() ) {
			return false;
		}
		require_once ABSPATH . 'wp-admin/includes/upgrade.php';
		dbDelta( self::sql() );
		update_option( self::OPTION, self::VERSION, true );
		return true;
	}

	/**
	 * Drops the tables and forgets their version (the uninstaller).
	 */
	public static function drop(): void {
		global $wpdb;
		foreach ( self::TABLES as $name ) {
			$wpdb->query( 'DROP TABLE IF EXISTS ' . self::table( $name ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.NotPrepared -- the plugin's own table names.
		}
		delete_option( self::OPTION );
	}

	/**
	 * The CREATE TABLE statements, in dbDelta's format.
	 *
	 * @return string[]
	 */
	public static function sql(): array {
		global $wpdb;
		$collate = $wpdb->get_charset_collate();
		$boxes   = self::table( 'cairn_shape_boxes' );
		$zooms   = self::table( 'cairn_shape_zooms' );
		return array(
			"CREATE TABLE $boxes (
  post_id bigint(20) unsigned NOT NULL,
  west double NOT NULL,
  south double NOT NULL,
  east double NOT NULL,
  north double NOT NULL,
  positions int(10) unsigned NOT NULL DEFAULT 0,
  facts text NOT NULL,
  PRIMARY KEY  (post_id),
  KEY south_north (south,north)
) $collate;",
			"CREATE TABLE $zooms (
  post_id bigint(20) unsigned NOT NULL,
  zoom tinyint(3) unsigned NOT NULL,
  positions int(10) unsigned NOT NULL DEFAULT 0,
  geometry longtext NOT NULL,
  PRIMARY KEY  (post_id,zoom)
) $collate;",
		);
	}
}
