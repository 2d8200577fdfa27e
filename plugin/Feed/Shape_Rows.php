<?php
/**
 * Reads the published shapes in bounded batches.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Feed;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Marker_Filter_Sql;
use Cairn\Maps\Markers\Marker_Repository;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Markers\Wpdb_Rows;

/**
 * The shapes feed's reads: the markers that carry a shape (`_cairn_shape`), published and not
 * password-protected, matching the markers feed's filters (`groups`, `ids` through
 * Marker_Filter_Sql; `bbox` against each shape's bbox), in id order.
 *
 * Starts from the shapes (postmeta's `meta_key` index: a site has far fewer shapes than
 * markers), then reads their posts and stored text by id, BATCH at a time, so a few thousand
 * big geometries never sit in memory together. Also answers whether a selection holds any shape
 * at all (exists()), for a map's `shapesUrl`.
 *
 * @since 0.5.0
 */
class Shape_Rows {

	/**
	 * Shapes read at a time (their stored text can be tens of kilobytes each).
	 */
	public const BATCH = 50;

	/**
	 * Database reads.
	 *
	 * @var Wpdb_Rows
	 */
	private Wpdb_Rows $db;

	/**
	 * Group reads.
	 *
	 * @var Marker_Repository
	 */
	private Marker_Repository $markers;

	/**
	 * Creates the reader.
	 *
	 * @param Marker_Repository|null $markers Group reads.
	 */
	public function __construct( ?Marker_Repository $markers = null ) {
		$this->db      = new Wpdb_Rows();
		$this->markers = $markers ?? new Marker_Repository();
	}

	/**
	 * The published shapes matching the filters, in id order, parsed (Shape_Writer::parse()).
	 *
	 * @param array<string, mixed> $filters Canonical filters (`groups`, `ids`, `bbox`; others ignored).
	 * @return \Generator<int, array{id: int, title: string, groups: string[], shape: array{geometry: string, bbox: float[], measures: array<string, mixed>}}>
	 */
	public function each( array $filters ): \Generator {
		$box = isset( $filters['bbox'] ) && 4 === count( $filters['bbox'] ) ? array_map( 'floatval', array_values( $filters['bbox'] ) ) : null;
		foreach ( array_chunk( $this->shape_ids( $filters ), self::BATCH ) as $batch ) {
			$posts = $this->published( $batch, $filters );
			if ( array() === $posts ) {
				continue;
			}
			$texts  = $this->texts( array_keys( $posts ) );
			$groups = $this->markers->groups_of( array_keys( $posts ) );
			foreach ( $posts as $id => $title ) {
				$shape = isset( $texts[ $id ] ) ? Shape_Writer::parse( $texts[ $id ] ) : null;
				if ( null === $shape || ( null !== $box && ! Shape_Writer::meets( $shape['bbox'], $box ) ) ) {
					continue;
				}
				yield array(
					'id'     => $id,
					'title'  => $title,
					'groups' => $groups[ $id ] ?? array(),
					'shape'  => $shape,
				);
			}
		}
	}

	/**
	 * Whether any published marker of a selection carries a shape: one indexed EXISTS-like read.
	 *
	 * @param array{groups?: string[], ids?: int[]} $filters Filters (none: all markers).
	 */
	public function exists( array $filters ): bool {
		global $wpdb;
		list( $where, $args ) = Marker_Filter_Sql::ids_and_groups( $filters );
		$sql                  = "SELECT m.post_id FROM {$wpdb->postmeta} m INNER JOIN {$wpdb->posts} p ON p.ID = m.post_id
			WHERE m.meta_key = %s AND p.post_type = %s AND p.post_status = 'publish' AND p.post_password = ''" . $where . ' LIMIT 1';
		// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare -- only placeholders are interpolated.
		return array() !== $this->db->rows( $wpdb->prepare( $sql, array_merge( array( Shapes_Feed::META, Post_Type::POST_TYPE ), $args ) ) );
	}

	/**
	 * Ids of the posts that carry a shape (any status), in order; only those asked for when the
	 * filters name ids.
	 *
	 * @param array<string, mixed> $filters Filters.
	 * @return int[]
	 */
	private function shape_ids( array $filters ): array {
		global $wpdb;
		$sql  = "SELECT DISTINCT post_id FROM {$wpdb->postmeta} WHERE meta_key = %s";
		$args = array( Shapes_Feed::META );
		if ( ! empty( $filters['ids'] ) ) {
			$sql .= ' AND post_id IN (' . implode( ',', array_fill( 0, count( $filters['ids'] ), '%d' ) ) . ')';
			$args = array_merge( $args, array_map( 'intval', $filters['ids'] ) );
		}
		// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare -- only placeholders are interpolated.
		$ids = array_map( 'intval', array_column( $this->db->rows( $wpdb->prepare( $sql . ' ORDER BY post_id', $args ) ), 0 ) );
		return $ids;
	}

	/**
	 * Titles of the published, unprotected markers among these ids that match the filters.
	 *
	 * @param int[]                $ids     Post ids.
	 * @param array<string, mixed> $filters Filters.
	 * @return array<int, string> Titles by id, in id order.
	 */
	private function published( array $ids, array $filters ): array {
		global $wpdb;
		list( $where, $where_args ) = Marker_Filter_Sql::ids_and_groups( array( 'groups' => $filters['groups'] ?? array() ) );
		$sql                        = "SELECT p.ID, p.post_title FROM {$wpdb->posts} p
			WHERE p.ID IN (" . implode( ',', array_fill( 0, count( $ids ), '%d' ) ) . ") AND p.post_type = %s AND p.post_status = 'publish' AND p.post_password = ''" . $where . ' ORDER BY p.ID';
		// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare -- only placeholders are interpolated.
		$rows   = $this->db->rows( $wpdb->prepare( $sql, array_merge( $ids, array( Post_Type::POST_TYPE ), $where_args ) ) );
		$titles = array();
		foreach ( $rows as $row ) {
			$titles[ (int) $row[0] ] = (string) $row[1];
		}
		return $titles;
	}

	/**
	 * Stored shape text of these posts, by id (the first row when a post has more).
	 *
	 * @param int[] $ids Post ids.
	 * @return array<int, string>
	 */
	private function texts( array $ids ): array {
		global $wpdb;
		$sql = "SELECT post_id, meta_value FROM {$wpdb->postmeta} WHERE meta_key = %s AND post_id IN (" . implode( ',', array_fill( 0, count( $ids ), '%d' ) ) . ') ORDER BY meta_id';
		// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare -- only placeholders are interpolated.
		$rows  = $this->db->rows( $wpdb->prepare( $sql, array_merge( array( Shapes_Feed::META ), $ids ) ) );
		$texts = array();
		foreach ( $rows as $row ) {
			$texts[ (int) $row[0] ] ??= (string) $row[1];
		}
		return $texts;
	}
}
