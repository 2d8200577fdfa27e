<?php
/**
 * The tables of the place index.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

/**
 * Creates and upgrades the five tables of the place index with dbDelta (MariaDB/MySQL, and SQLite
 * through its translating drop-in), and names them. Plain B-tree keys only: no spatial extension.
 *
 * - `cairn_places`: one row per published marker with valid coordinates (Morton code, position,
 *   group combination, plain title, folded title for ordering);
 * - `cairn_place_combos`: the distinct sets of group slugs of places;
 * - `cairn_place_words`: the folded words of each place's title, each row with its place's
 *   combination, position, Morton code and title key, so that a search counts, bounds, orders
 *   and clusters a word's places from the word's own rows (clustered by word) without reading a
 *   place; and with `prev`, the place's word before it in byte order ('' for the first): of a
 *   place's words that a prefix starts, the first is the one whose `prev` the prefix does not
 *   start (they are consecutive in that order), so a prefix reads one row a place; and a
 *   key by word and Morton code holding what a tile reads (`word_code`), so the places of a
 *   word in a tile are one range of it, read without touching a row;
 * - `cairn_place_cells`: places counted and summed per grid cell, combination and level;
 * - `cairn_tile_stamps`: when a cell's places last changed, for levels 0..17.
 *
 * @since 0.5.0
 */
final class Index_Schema {

	/**
	 * The version of the tables; another value in OPTION makes ensure() run dbDelta, and the
	 * index is rebuilt. 2: words and title keys folded by the shared rule (Place_Words, 0.7.0).
	 * 3: words carry their place's combination, position and title key (0.9.0). 4: the places of
	 * posts too (0.10.0: the tables are the same; the rebuild reads the posts). 5: words carry
	 * their place's Morton code and the place's word before them, with a key by word and code
	 * that holds what a tile reads (0.10.0: a search's tiles read one row a place from the words
	 * alone, and only the rows of their ground).
	 */
	public const VERSION = '5';

	/**
	 * The option holding the version the tables were last created at.
	 */
	public const OPTION = 'cairn_maps_index_schema';

	/**
	 * Table names without the site's prefix.
	 */
	public const TABLES = array( 'cairn_places', 'cairn_place_combos', 'cairn_place_words', 'cairn_place_cells', 'cairn_tile_stamps' );

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
		$places  = self::table( 'cairn_places' );
		$combos  = self::table( 'cairn_place_combos' );
		$words   = self::table( 'cairn_place_words' );
		$cells   = self::table( 'cairn_place_cells' );
		$stamps  = self::table( 'cairn_tile_stamps' );
		return array(
			"CREATE TABLE $places (
  post_id bigint(20) unsigned NOT NULL,
  code bigint(20) unsigned NOT NULL,
  lat double NOT NULL,
  lng double NOT NULL,
  combo int(10) unsigned NOT NULL DEFAULT 0,
  title varchar(200) NOT NULL DEFAULT '',
  sort_key varchar(191) NOT NULL DEFAULT '',
  PRIMARY KEY  (post_id),
  KEY code_combo (code,combo),
  KEY sort_key (sort_key)
) $collate;",
			"CREATE TABLE $combos (
  id int(10) unsigned NOT NULL AUTO_INCREMENT,
  slugs varchar(1000) NOT NULL DEFAULT '',
  hash char(32) NOT NULL DEFAULT '',
  PRIMARY KEY  (id),
  UNIQUE KEY hash (hash)
) $collate;",
			"CREATE TABLE $words (
  word varchar(32) NOT NULL,
  post_id bigint(20) unsigned NOT NULL,
  combo int(10) unsigned NOT NULL DEFAULT 0,
  lat double NOT NULL DEFAULT 0,
  lng double NOT NULL DEFAULT 0,
  code bigint(20) unsigned NOT NULL DEFAULT 0,
  prev varchar(32) NOT NULL DEFAULT '',
  sort_key varchar(191) NOT NULL DEFAULT '',
  PRIMARY KEY  (word,post_id),
  KEY post_id (post_id),
  KEY word_sort (word,sort_key),
  KEY word_code (word,code,prev,combo,lat,lng)
) $collate;",
			"CREATE TABLE $cells (
  level tinyint(3) unsigned NOT NULL,
  cell bigint(20) unsigned NOT NULL,
  combo int(10) unsigned NOT NULL DEFAULT 0,
  n int(10) unsigned NOT NULL DEFAULT 0,
  sum_lat double NOT NULL DEFAULT 0,
  sum_lng double NOT NULL DEFAULT 0,
  PRIMARY KEY  (level,cell,combo)
) $collate;",
			"CREATE TABLE $stamps (
  level tinyint(3) unsigned NOT NULL,
  cell bigint(20) unsigned NOT NULL,
  stamp bigint(20) unsigned NOT NULL DEFAULT 0,
  PRIMARY KEY  (level,cell)
) $collate;",
		);
	}
}
