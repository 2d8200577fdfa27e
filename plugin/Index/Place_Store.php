<?php
/**
 * Reads and writes of the place index's tables.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Wpdb_Rows;

/**
 * The SQL of the place index: rows of places, words, combinations of groups, cell aggregates and
 * tile stamps. Portable SQL only (MariaDB/MySQL and SQLite's translating drop-in): no ON DUPLICATE
 * KEY UPDATE (an UPDATE, then an INSERT when it changed nothing), no GROUP_CONCAT.
 *
 * @since 0.5.0
 */
final class Place_Store {

	/**
	 * The option of the stamp counter.
	 */
	public const STAMP_OPTION = 'cairn_maps_index_stamp';

	/**
	 * The stamp of cells with no row of their own (set when a rebuild ends).
	 */
	public const STAMP_BASE_OPTION = 'cairn_maps_index_stamp_base';

	/**
	 * Rows per multi-row INSERT.
	 */
	private const INSERT_ROWS = 500;

	/**
	 * The object-cache group and key of the combinations' rows: every tile's cache key names the
	 * combinations, so with a persistent object cache a kept tile is served with no index read.
	 * Deleted whenever a combination is added, renamed or cleared.
	 */
	private const CACHE_GROUP = 'cairn_maps_index';
	private const COMBOS_KEY  = 'combos';

	/**
	 * Combinations by id, once read (null: not yet).
	 *
	 * @var array<int, string[]>|null
	 */
	private ?array $combos = null;

	/**
	 * Combination ids by the md5 of their slugs.
	 *
	 * @var array<string, int>
	 */
	private array $combo_ids = array();

	/**
	 * How a transaction was opened (by begin()): '', 'transaction' or 'savepoint'.
	 *
	 * @var string
	 */
	private string $open = '';

	/**
	 * Whether a write failed since begin().
	 *
	 * @var bool
	 */
	private bool $failed = false;

	/**
	 * A table's full name.
	 *
	 * @param string $name Short name.
	 */
	public function table( string $name ): string {
		return Index_Schema::table( $name );
	}

	/**
	 * The stored rows of places, by post id.
	 *
	 * @param int[] $post_ids Post ids.
	 * @return array<int, array{code: int, lat: float, lng: float, combo: int, title: string}>
	 */
	public function rows( array $post_ids ): array {
		global $wpdb;
		if ( array() === $post_ids ) {
			return array();
		}
		$table = $this->table( 'cairn_places' );
		$rows  = array();
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.PreparedSQL.NotPrepared -- the plugin's own table; integers only.
		foreach ( ( new Wpdb_Rows() )->rows( "SELECT post_id, code, lat, lng, combo, title FROM $table WHERE post_id IN (" . implode( ',', array_map( 'intval', $post_ids ) ) . ')' ) as $row ) {
			$rows[ (int) $row[0] ] = array(
				'code'  => (int) $row[1],
				'lat'   => (float) $row[2],
				'lng'   => (float) $row[3],
				'combo' => (int) $row[4],
				'title' => (string) $row[5],
			);
		}
		return $rows;
	}

	/**
	 * Every combination of groups, by id.
	 *
	 * @return array<int, string[]>
	 */
	public function combos(): array {
		global $wpdb;
		if ( null === $this->combos ) {
			$this->combos    = array();
			$this->combo_ids = array();
			$cached          = wp_cache_get( self::COMBOS_KEY, self::CACHE_GROUP );
			$rows            = is_array( $cached ) ? $cached : null;
			if ( null === $rows ) {
				$table = $this->table( 'cairn_place_combos' );
				// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
				$rows = ( new Wpdb_Rows() )->rows( "SELECT id, slugs, hash FROM $table ORDER BY id" );
				wp_cache_set( self::COMBOS_KEY, $rows, self::CACHE_GROUP );
			}
			foreach ( $rows as $row ) {
				$this->combos[ (int) $row[0] ]       = explode( ',', (string) $row[1] );
				$this->combo_ids[ (string) $row[2] ] = (int) $row[0];
			}
		}
		return $this->combos;
	}

	/**
	 * Forgets the combinations read (another request may have added some).
	 */
	public function forget_combos(): void {
		$this->combos    = null;
		$this->combo_ids = array();
	}

	/**
	 * Forgets the combinations everywhere: in this request and in the object cache (they changed).
	 */
	private function combos_changed(): void {
		wp_cache_delete( self::COMBOS_KEY, self::CACHE_GROUP );
		$this->forget_combos();
	}

	/**
	 * The id of a combination of group slugs (created when new); 0 for no group.
	 *
	 * @param string[] $slugs Sorted slugs.
	 */
	public function combo_id( array $slugs ): int {
		global $wpdb;
		if ( array() === $slugs ) {
			return 0;
		}
		$this->combos();
		$joined = implode( ',', $slugs );
		$hash   = md5( $joined );
		if ( isset( $this->combo_ids[ $hash ] ) ) {
			return $this->combo_ids[ $hash ];
		}
		$table    = $this->table( 'cairn_place_combos' );
		$suppress = $wpdb->suppress_errors( true );
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- the plugin's own table; a concurrent insert of the same hash fails on the unique key and is read back below.
		$inserted = $wpdb->insert(
			$table,
			array(
				'slugs' => $joined,
				'hash'  => $hash,
			),
			array( '%s', '%s' )
		);
		$wpdb->suppress_errors( $suppress );
		$id = $inserted ? (int) $wpdb->insert_id : 0;
		wp_cache_delete( self::COMBOS_KEY, self::CACHE_GROUP );
		if ( $id <= 0 ) {
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
			$id = (int) $wpdb->get_var( $wpdb->prepare( "SELECT id FROM $table WHERE hash = %s", $hash ) );
		}
		$this->combos[ $id ]      = $slugs;
		$this->combo_ids[ $hash ] = $id;
		return $id;
	}

	/**
	 * Gives combinations new lists of slugs (a group's slug changed).
	 *
	 * @param array<int, string[]> $changes Sorted slugs by combination id.
	 */
	public function rename_combos( array $changes ): void {
		global $wpdb;
		foreach ( $changes as $id => $slugs ) {
			$joined = implode( ',', $slugs );
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- the plugin's own table.
			$wpdb->update(
				$this->table( 'cairn_place_combos' ),
				array(
					'slugs' => $joined,
					'hash'  => md5( $joined ),
				),
				array( 'id' => $id ),
				array( '%s', '%s' ),
				array( '%d' )
			);
		}
		$this->combos_changed();
	}

	/**
	 * Removes places' rows and words.
	 *
	 * @param string $condition SQL condition on post_id (integers only), e.g. `post_id = 5`.
	 */
	public function delete_places( string $condition ): void {
		global $wpdb;
		// phpcs:disable WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.PreparedSQL.NotPrepared -- the plugin's own tables; the condition holds integers only.
		$this->run( 'DELETE FROM ' . $this->table( 'cairn_places' ) . " WHERE $condition" );
		$this->run( 'DELETE FROM ' . $this->table( 'cairn_place_words' ) . " WHERE $condition" );
		// phpcs:enable
	}

	/**
	 * Inserts the words of places (which have none stored), each with its place's combination,
	 * position, Morton code and title key (what a search reads from the words alone), and the
	 * place's word before it in byte order (`prev`, Index_Schema).
	 *
	 * @param array<int, array{code: int, lat: float, lng: float, combo: int, title: string}> $rows Rows of places by post id.
	 */
	public function insert_words( array $rows ): void {
		global $wpdb;
		$values = array();
		foreach ( $rows as $post_id => $row ) {
			$place = $wpdb->prepare( '%d,%s,%s,%d,%s', $row['combo'], self::number( $row['lat'] ), self::number( $row['lng'] ), $row['code'], self::sort_key( $row['title'] ) );
			$words = Place_Words::words( $row['title'] );
			sort( $words, SORT_STRING );
			$prev = '';
			foreach ( $words as $word ) {
				$values[] = $wpdb->prepare( '(%s,%d,%s,', $word, $post_id, $prev ) . $place . ')';
				$prev     = $word;
			}
		}
		foreach ( array_chunk( $values, 2 * self::INSERT_ROWS ) as $chunk ) {
			// Folded words may still be equal for the column's collation (ß, ss): the first stays.
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.NotPrepared -- prepared values.
			$this->run( 'INSERT IGNORE INTO ' . $this->table( 'cairn_place_words' ) . ' (word, post_id, prev, combo, lat, lng, code, sort_key) VALUES ' . implode( ',', $chunk ) );
		}
	}

	/**
	 * Inserts rows of places (which have none stored).
	 *
	 * @param array<int, array{code: int, lat: float, lng: float, combo: int, title: string}> $rows Rows by post id.
	 */
	public function insert_rows( array $rows ): void {
		global $wpdb;
		$values = array();
		foreach ( $rows as $post_id => $row ) {
			$values[] = $wpdb->prepare( '(%d,%d,%s,%s,%d,%s,%s)', $post_id, $row['code'], self::number( $row['lat'] ), self::number( $row['lng'] ), $row['combo'], $row['title'], self::sort_key( $row['title'] ) );
		}
		foreach ( array_chunk( $values, self::INSERT_ROWS ) as $chunk ) {
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.NotPrepared -- prepared values.
			$this->run( 'INSERT INTO ' . $this->table( 'cairn_places' ) . ' (post_id, code, lat, lng, combo, title, sort_key) VALUES ' . implode( ',', $chunk ) );
		}
	}

	/**
	 * Changes cell aggregates by sums of changes: places added (n > 0) in one multi-row INSERT …
	 * ON DUPLICATE KEY UPDATE per 500 cells on MySQL/MariaDB (atomic: two requests adding the
	 * first place of a cell at once both count), elsewhere an UPDATE, then an INSERT when there was
	 * no row; places removed (n < 0) by an UPDATE, and the cell's row deleted once it is empty;
	 * places moved within a cell (n = 0) by an UPDATE of the sums.
	 *
	 * @param array<string, array{0: int, 1: int, 2: int, 3: int, 4: float, 5: float}> $deltas [level, cell, combo, places, latitudes, longitudes] to add (negative to remove).
	 */
	public function change_cells( array $deltas ): void {
		global $wpdb;
		$table  = $this->table( 'cairn_place_cells' );
		$insert = array();
		$native = ! Wpdb_Rows::is_sqlite();
		// phpcs:disable WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.PreparedSQL.NotPrepared -- the plugin's own table; prepared parts.
		foreach ( $deltas as $delta ) {
			list( $level, $cell, $combo, $n, $lat, $lng ) = $delta;
			if ( 0 === $n && 0.0 === $lat && 0.0 === $lng ) {
				continue; // Out and back in: a new title only.
			}
			if ( $n > 0 && $native ) {
				$insert[] = $wpdb->prepare( '(%d,%d,%d,%d,%s,%s)', $level, $cell, $combo, $n, self::number( $lat ), self::number( $lng ) );
				continue;
			}
			$key     = $wpdb->prepare( 'level = %d AND cell = %d AND combo = %d', $level, $cell, $combo );
			$changed = $this->run( $wpdb->prepare( "UPDATE $table SET n = n + %d, sum_lat = sum_lat + %s, sum_lng = sum_lng + %s WHERE $key", $n, self::number( $lat ), self::number( $lng ) ) );
			if ( $n > 0 && ! $changed ) {
				$this->run( $wpdb->prepare( "INSERT INTO $table (level, cell, combo, n, sum_lat, sum_lng) VALUES (%d, %d, %d, %d, %s, %s)", $level, $cell, $combo, $n, self::number( $lat ), self::number( $lng ) ) );
			} elseif ( $n < 0 ) {
				$this->run( "DELETE FROM $table WHERE $key AND n = 0" );
			}
		}
		foreach ( array_chunk( $insert, self::INSERT_ROWS ) as $chunk ) {
			$this->run( "INSERT INTO $table (level, cell, combo, n, sum_lat, sum_lng) VALUES " . implode( ',', $chunk ) . ' ON DUPLICATE KEY UPDATE n = n + VALUES(n), sum_lat = sum_lat + VALUES(sum_lat), sum_lng = sum_lng + VALUES(sum_lng)' );
		}
		// phpcs:enable
	}

	/**
	 * Recounts one level of cells from the places (a rebuild).
	 *
	 * @param int $level Level.
	 */
	public function recount_level( int $level ): void {
		global $wpdb;
		$cells  = $this->table( 'cairn_place_cells' );
		$places = $this->table( 'cairn_places' );
		$div    = 1 << ( 2 * ( Morton::LEVEL - $level ) );
		// Integer division rather than `>>`, which not every SQL dialect translates: codes are
		// non-negative, so FLOOR(code / 4^k) is the shifted code.
		// phpcs:disable WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own tables.
		$this->run( $wpdb->prepare( "DELETE FROM $cells WHERE level = %d", $level ) );
		$this->run( $wpdb->prepare( "INSERT INTO $cells (level, cell, combo, n, sum_lat, sum_lng) SELECT %d, FLOOR(code / %d), combo, COUNT(*), SUM(lat), SUM(lng) FROM $places GROUP BY FLOOR(code / %d), combo", $level, $div, $div ) );
		// phpcs:enable
	}

	/**
	 * Gives cells (level, cell) a stamp.
	 *
	 * @param array<string, array{0: int, 1: int}> $cells Cells as [level, cell], keyed "level:cell".
	 * @param int                                  $stamp Stamp.
	 */
	public function stamp_cells( array $cells, int $stamp ): void {
		global $wpdb;
		if ( array() === $cells ) {
			return;
		}
		$table  = $this->table( 'cairn_tile_stamps' );
		$values = array();
		foreach ( $cells as $cell ) {
			$values[] = $wpdb->prepare( '(%d,%d,%d)', $cell[0], $cell[1], $stamp );
		}
		// REPLACE: one statement in MySQL and SQLite alike, never a duplicate key when two requests
		// stamp the same coarse cells at once.
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.PreparedSQL.NotPrepared -- the plugin's own table; prepared parts.
		$this->run( "REPLACE INTO $table (level, cell, stamp) VALUES " . implode( ',', $values ) );
	}

	/**
	 * The stamp of a cell.
	 *
	 * @param int $level Level.
	 * @param int $cell  Cell.
	 */
	public function stamp( int $level, int $cell ): int {
		global $wpdb;
		$table = $this->table( 'cairn_tile_stamps' );
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
		$stamp = $wpdb->get_var( $wpdb->prepare( "SELECT stamp FROM $table WHERE level = %d AND cell = %d", $level, $cell ) );
		return null === $stamp ? (int) get_option( self::STAMP_BASE_OPTION, 0 ) : (int) $stamp;
	}

	/**
	 * The newest stamp of some cells of one level (the base stamp when none has one).
	 *
	 * @since 0.9.0
	 *
	 * @param int   $level Level.
	 * @param int[] $cells Cells.
	 */
	public function newest_stamp( int $level, array $cells ): int {
		global $wpdb;
		$table = $this->table( 'cairn_tile_stamps' );
		$base  = (int) get_option( self::STAMP_BASE_OPTION, 0 );
		if ( array() === $cells ) {
			return $base;
		}
		$cells = array_map( 'intval', $cells );
		$marks = implode( ',', array_fill( 0, count( $cells ), '%d' ) );
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare, WordPress.DB.PreparedSQLPlaceholders.ReplacementsWrongNumber -- the plugin's own table; one %d per cell.
		$stamp = $wpdb->get_var( $wpdb->prepare( "SELECT MAX(stamp) FROM $table WHERE level = %d AND cell IN ($marks)", $level, ...$cells ) );
		return max( $base, (int) $stamp );
	}

	/**
	 * A new stamp: the counter, increased.
	 */
	public function next_stamp(): int {
		global $wpdb;
		if ( ! Wpdb_Rows::is_sqlite() ) {
			// Atomic on MySQL/MariaDB: two requests never get the same stamp.
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- a counter incremented in place (LAST_INSERT_ID(expr) gives this connection the new value).
			$changed = $wpdb->query( $wpdb->prepare( "UPDATE {$wpdb->options} SET option_value = LAST_INSERT_ID(CAST(option_value AS UNSIGNED) + 1) WHERE option_name = %s", self::STAMP_OPTION ) );
			if ( $changed ) {
				wp_cache_delete( self::STAMP_OPTION, 'options' );
				return (int) $wpdb->get_var( 'SELECT LAST_INSERT_ID()' ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery -- this connection's value.
			}
		}
		$stamp = (int) get_option( self::STAMP_OPTION, 0 ) + 1;
		update_option( self::STAMP_OPTION, $stamp, false );
		return $stamp;
	}

	/**
	 * Empties the tables of places, words, combinations and cells (a rebuild's start).
	 */
	public function clear(): void {
		global $wpdb;
		foreach ( array( 'cairn_places', 'cairn_place_words', 'cairn_place_cells', 'cairn_place_combos' ) as $name ) {
			$this->run( 'DELETE FROM ' . $this->table( $name ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.NotPrepared -- the plugin's own tables.
		}
		$this->combos_changed();
	}

	/**
	 * Starts a stamp epoch: every cell's stamp becomes a new one (a rebuild's end).
	 */
	public function restamp_all(): void {
		global $wpdb;
		$this->run( 'DELETE FROM ' . $this->table( 'cairn_tile_stamps' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.NotPrepared -- the plugin's own table.
		update_option( self::STAMP_BASE_OPTION, $this->next_stamp(), false );
	}

	/**
	 * Runs a write, noting a failure (see failed()).
	 *
	 * @param string $sql Prepared SQL.
	 * @return int|bool Rows affected, or false.
	 */
	private function run( string $sql ) {
		global $wpdb;
		$result = $wpdb->query( $sql ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.NotPrepared -- prepared by the callers.
		if ( false === $result ) {
			$this->failed = true;
		}
		return $result;
	}

	/**
	 * Whether a write failed since begin() (the caller rolls back).
	 */
	public function failed(): bool {
		return $this->failed;
	}

	/**
	 * Opens a transaction where the database has them (a savepoint inside one already open).
	 */
	public function begin(): void {
		global $wpdb;
		$this->failed = false;
		$this->open   = 'transaction';
		// SQLite's drop-in nests START TRANSACTION itself (savepoints); MySQL would commit an open
		// transaction instead, so inside one (autocommit off) a savepoint is used.
		if ( ! Wpdb_Rows::is_sqlite() && '0' === (string) $wpdb->get_var( 'SELECT @@autocommit' ) ) { // phpcs:ignore WordPress.DB.DirectDatabaseQuery -- session state.
			$this->open = 'savepoint';
			$wpdb->query( 'SAVEPOINT cairn_maps_index' ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery -- transaction control.
			return;
		}
		$wpdb->query( 'START TRANSACTION' ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery -- transaction control.
	}

	/**
	 * Commits what begin() opened.
	 */
	public function commit(): void {
		global $wpdb;
		// phpcs:disable WordPress.DB.DirectDatabaseQuery -- transaction control.
		if ( 'savepoint' === $this->open ) {
			$wpdb->query( 'RELEASE SAVEPOINT cairn_maps_index' );
		} elseif ( 'transaction' === $this->open ) {
			$wpdb->query( 'COMMIT' );
		}
		// phpcs:enable
		$this->open = '';
	}

	/**
	 * Undoes what happened since begin().
	 */
	public function rollback(): void {
		global $wpdb;
		// phpcs:disable WordPress.DB.DirectDatabaseQuery -- transaction control.
		if ( 'savepoint' === $this->open ) {
			$wpdb->query( 'ROLLBACK TO SAVEPOINT cairn_maps_index' );
		} elseif ( 'transaction' === $this->open ) {
			$wpdb->query( 'ROLLBACK' );
		}
		// phpcs:enable
		$this->open = '';
	}

	/**
	 * The ordering key of a title: folded, at most 191 characters.
	 *
	 * @param string $title Plain title.
	 */
	public static function sort_key( string $title ): string {
		return mb_substr( Place_Words::fold( $title ), 0, 191, 'UTF-8' );
	}

	/**
	 * A float as SQL text without loss (wpdb's %f keeps 6 decimals only).
	 *
	 * @param float $value Value.
	 */
	private static function number( float $value ): string {
		return is_finite( $value ) ? var_export( $value, true ) : '0'; // phpcs:ignore WordPress.PHP.DevelopmentFunctions.error_log_var_export -- the shortest exact text of a float.
	}
}
