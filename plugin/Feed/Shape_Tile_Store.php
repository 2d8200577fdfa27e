<?php
/**
 * The SQL of the shape tiles' tables.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Feed;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Marker_Filter_Sql;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Markers\Wpdb_Rows;

/**
 * Reads and writes Shape_Tile_Schema's tables: a shape's rows replaced in one transaction (a tile
 * never sees some zooms of the new shape and some of the old), the published shapes whose box
 * meets a tile's (the `south_north` key, then the other sides, then the posts by primary key), their
 * geometry of one zoom, and the positions a selection holds.
 *
 * @since 0.7.0
 */
final class Shape_Tile_Store {

	/**
	 * Shapes whose geometry is read at a time (a full zoom's can be a hundred kilobytes each).
	 */
	public const BATCH = 50;

	/**
	 * Database reads.
	 *
	 * @var Wpdb_Rows
	 */
	private Wpdb_Rows $db;

	/**
	 * Whether a write failed since the transaction began.
	 *
	 * @var bool
	 */
	private bool $failed = false;

	/**
	 * How the open transaction began: 'transaction', 'savepoint' or '' when none is open.
	 *
	 * @var string
	 */
	private string $open = '';

	/**
	 * Creates the store.
	 */
	public function __construct() {
		$this->db = new Wpdb_Rows();
	}

	/**
	 * Replaces a shape's rows: its box and facts, and its geometry per zoom.
	 *
	 * @param int                                                                                                             $post_id Marker id.
	 * @param array{bbox: float[], positions: int, facts: string, zooms: array<int, array{positions: int, geometry: string}>} $shape   The rows' values.
	 * @return bool Whether they were written (false: the database refused, nothing changed).
	 */
	public function replace( int $post_id, array $shape ): bool {
		global $wpdb;
		$this->begin();
		$this->remove( $post_id );
		list( $west, $south, $east, $north ) = array_map( 'floatval', $shape['bbox'] );
		$boxes                               = Shape_Tile_Schema::table( 'cairn_shape_boxes' );
		$this->run(
			$wpdb->prepare(
				"INSERT INTO $boxes (post_id, west, south, east, north, positions, facts) VALUES (%d, %s, %s, %s, %s, %d, %s)", // phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
				$post_id,
				self::number( $west ),
				self::number( $south ),
				self::number( $east ),
				self::number( $north ),
				$shape['positions'],
				$shape['facts']
			)
		);
		$values = array();
		foreach ( $shape['zooms'] as $zoom => $level ) {
			$values[] = $wpdb->prepare( '(%d, %d, %d, %s)', $post_id, $zoom, $level['positions'], $level['geometry'] );
		}
		// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared -- the plugin's own table; prepared values.
		$this->run( 'INSERT INTO ' . Shape_Tile_Schema::table( 'cairn_shape_zooms' ) . ' (post_id, zoom, positions, geometry) VALUES ' . implode( ',', $values ) );
		return $this->end();
	}

	/**
	 * Deletes a shape's rows.
	 *
	 * @param int $post_id Marker id.
	 * @return bool Whether they are gone.
	 */
	public function delete( int $post_id ): bool {
		$this->begin();
		$this->remove( $post_id );
		return $this->end();
	}

	/**
	 * Deletes the rows of the shapes in an id range, except some (a rebuild's step: shapes gone).
	 *
	 * @param int   $after Ids above this one.
	 * @param int   $last  Ids up to this one (0: no upper end).
	 * @param int[] $keep  Ids whose rows stay.
	 */
	public function delete_range( int $after, int $last, array $keep ): void {
		global $wpdb;
		$where = $wpdb->prepare( 'post_id > %d', $after ) . ( $last > 0 ? $wpdb->prepare( ' AND post_id <= %d', $last ) : '' );
		if ( array() !== $keep ) {
			$where .= ' AND post_id NOT IN (' . implode( ',', array_map( 'intval', $keep ) ) . ')';
		}
		foreach ( Shape_Tile_Schema::TABLES as $name ) {
			$wpdb->query( 'DELETE FROM ' . Shape_Tile_Schema::table( $name ) . ' WHERE ' . $where ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.NotPrepared -- the plugin's own table; prepared parts and integers.
		}
	}

	/**
	 * Ids of the published shapes matching the filters whose box meets a box, in id order.
	 *
	 * @param float[]                               $box     `[west, south, east, north]`, west ≤ east.
	 * @param array{groups?: string[], ids?: int[]} $filters Canonical filters.
	 * @return int[]
	 */
	public function ids_meeting( array $box, array $filters ): array {
		global $wpdb;
		list( $west, $south, $east, $north ) = $box;
		list( $from, $args )                 = $this->published( $filters );
		$sql                                 = 'SELECT DISTINCT ' . Marker_Filter_Sql::join_hint() . 'b.post_id' . $from . ' AND b.south <= %s AND b.north >= %s AND b.west <= %s AND b.east >= %s ORDER BY b.post_id';
		$args                                = array_merge( $args, array_map( array( self::class, 'number' ), array( $north, $south, $east, $west ) ) );
		// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare -- only placeholders are interpolated.
		return array_map( 'intval', array_column( $this->db->rows( $wpdb->prepare( $sql, $args ) ), 0 ) );
	}

	/**
	 * Titles, facts and the geometry of one zoom of some shapes, by id.
	 *
	 * @param int[] $ids  Marker ids.
	 * @param int   $zoom Zoom of the copies.
	 * @return array<int, array{title: string, facts: string, geometry: string}>
	 */
	public function rows( array $ids, int $zoom ): array {
		global $wpdb;
		if ( array() === $ids ) {
			return array();
		}
		$sql  = 'SELECT b.post_id, p.post_title, b.facts, z.geometry FROM ' . Shape_Tile_Schema::table( 'cairn_shape_boxes' ) . ' b'
			. ' INNER JOIN ' . Shape_Tile_Schema::table( 'cairn_shape_zooms' ) . ' z ON z.post_id = b.post_id AND z.zoom = %d'
			. " INNER JOIN {$wpdb->posts} p ON p.ID = b.post_id"
			. ' WHERE b.post_id IN (' . implode( ',', array_fill( 0, count( $ids ), '%d' ) ) . ') ORDER BY b.post_id';
		$rows = array();
		// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare -- only placeholders are interpolated.
		foreach ( $this->db->rows( $wpdb->prepare( $sql, array_merge( array( $zoom ), $ids ) ) ) as $row ) {
			$rows[ (int) $row[0] ] = array(
				'title'    => (string) $row[1],
				'facts'    => (string) $row[2],
				'geometry' => (string) $row[3],
			);
		}
		return $rows;
	}

	/**
	 * Positions of the published shapes matching the filters, by id.
	 *
	 * @param array{groups?: string[], ids?: int[]} $filters Canonical filters.
	 * @return array<int, int>
	 */
	public function positions( array $filters ): array {
		global $wpdb;
		list( $from, $args ) = $this->published( $filters );
		$positions           = array();
		// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare -- only placeholders are interpolated.
		foreach ( $this->db->rows( $wpdb->prepare( 'SELECT DISTINCT b.post_id, b.positions' . $from, $args ) ) as $row ) {
			$positions[ (int) $row[0] ] = (int) $row[1];
		}
		return $positions;
	}

	/**
	 * Which of some posts have rows.
	 *
	 * @param int[] $ids Post ids.
	 * @return int[]
	 */
	public function held( array $ids ): array {
		global $wpdb;
		if ( array() === $ids ) {
			return array();
		}
		$sql = 'SELECT post_id FROM ' . Shape_Tile_Schema::table( 'cairn_shape_boxes' ) . ' WHERE post_id IN (' . implode( ',', array_map( 'intval', $ids ) ) . ')';
		return array_map( 'intval', array_column( $this->db->rows( $sql ), 0 ) );
	}

	/**
	 * `FROM … WHERE …` of the published, unprotected markers of a selection that have rows (their
	 * box as `b`), and its values: boxes first, then the posts and groups by primary keys.
	 *
	 * @param array{groups?: string[], ids?: int[]} $filters Canonical filters.
	 * @return array{0: string, 1: array<int, int|string>}
	 */
	private function published( array $filters ): array {
		global $wpdb;
		list( $join, $args ) = Shape_Rows::groups_join( $filters['groups'] ?? array(), 'b.post_id' );
		$sql                 = ' FROM ' . Shape_Tile_Schema::table( 'cairn_shape_boxes' ) . " b INNER JOIN {$wpdb->posts} p ON p.ID = b.post_id" . $join
			. " WHERE p.post_type = %s AND p.post_status = 'publish' AND p.post_password = ''";
		$args[]              = Post_Type::POST_TYPE;
		if ( ! empty( $filters['ids'] ) ) {
			$sql .= ' AND b.post_id IN (' . implode( ',', array_fill( 0, count( $filters['ids'] ), '%d' ) ) . ')';
			$args = array_merge( $args, array_map( 'intval', $filters['ids'] ) );
		}
		return array( $sql, $args );
	}

	/**
	 * Deletes a shape's rows (inside a transaction).
	 *
	 * @param int $post_id Marker id.
	 */
	private function remove( int $post_id ): void {
		global $wpdb;
		foreach ( Shape_Tile_Schema::TABLES as $name ) {
			$this->run( $wpdb->prepare( 'DELETE FROM ' . Shape_Tile_Schema::table( $name ) . ' WHERE post_id = %d', $post_id ) ); // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared -- the plugin's own table.
		}
	}

	/**
	 * Opens a transaction (a savepoint inside one already open: MySQL would commit it instead;
	 * SQLite's drop-in nests START TRANSACTION itself).
	 */
	private function begin(): void {
		global $wpdb;
		$this->failed = false;
		if ( ! Wpdb_Rows::is_sqlite() && '0' === (string) $wpdb->get_var( 'SELECT @@autocommit' ) ) { // phpcs:ignore WordPress.DB.DirectDatabaseQuery -- session state.
			$this->open = 'savepoint';
			$wpdb->query( 'SAVEPOINT cairn_maps_shape_tiles' ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery -- transaction control.
			return;
		}
		$this->open = 'transaction';
		$wpdb->query( 'START TRANSACTION' ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery -- transaction control.
	}

	/**
	 * Commits the transaction, or rolls it back when a write failed.
	 *
	 * @return bool Whether it was committed.
	 */
	private function end(): bool {
		global $wpdb;
		$savepoint = 'savepoint' === $this->open;
		// phpcs:disable WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.NotPrepared -- transaction control, fixed statements.
		if ( $this->failed ) {
			$wpdb->query( $savepoint ? 'ROLLBACK TO SAVEPOINT cairn_maps_shape_tiles' : 'ROLLBACK' );
		} else {
			$wpdb->query( $savepoint ? 'RELEASE SAVEPOINT cairn_maps_shape_tiles' : 'COMMIT' );
		}
		// phpcs:enable
		$this->open = '';
		return ! $this->failed;
	}

	/**
	 * Runs a write, noting a failure.
	 *
	 * @param string $sql Prepared SQL.
	 */
	private function run( string $sql ): void {
		global $wpdb;
		if ( false === $wpdb->query( $sql ) ) { // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.NotPrepared -- prepared by the callers.
			$this->failed = true;
		}
	}

	/**
	 * A float as SQL text: the shortest exact one.
	 *
	 * @param float $value Degrees.
	 */
	private static function number( float $value ): string {
		return is_finite( $value ) ? var_export( $value, true ) : '0'; // phpcs:ignore WordPress.PHP.DevelopmentFunctions.error_log_var_export -- the shortest exact text of a float.
	}
}
