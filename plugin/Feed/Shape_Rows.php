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
 * password-protected, matching the markers feed's filters (`groups`, `ids`; `bbox` against each
 * shape's bbox), in id order.
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
	 * Whether any published marker of a selection carries a shape: one read that walks the shapes
	 * (postmeta's `meta_key` index), each checked by primary keys, never the selection's markers.
	 *
	 * @param array{groups?: string[], ids?: int[]} $filters Filters (none: all markers).
	 */
	public function exists( array $filters ): bool {
		global $wpdb;
		list( $join, $join_args ) = self::groups_join( $filters['groups'] ?? array(), 'm.post_id' );
		$sql                      = 'SELECT ' . Marker_Filter_Sql::join_hint() . "m.post_id FROM {$wpdb->postmeta} m INNER JOIN {$wpdb->posts} p ON p.ID = m.post_id" . $join . "
			WHERE m.meta_key = %s AND p.post_type = %s AND p.post_status = 'publish' AND p.post_password = ''";
		$args                     = array_merge( $join_args, array( Shapes_Feed::META, Post_Type::POST_TYPE ) );
		if ( ! empty( $filters['ids'] ) ) {
			$sql .= ' AND m.post_id IN (' . implode( ',', array_fill( 0, count( $filters['ids'] ), '%d' ) ) . ')';
			$args = array_merge( $args, array_map( 'intval', $filters['ids'] ) );
		}
		// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare -- only placeholders are interpolated.
		return array() !== $this->db->rows( $wpdb->prepare( $sql . ' LIMIT 1', $args ) );
	}

	/**
	 * The join that keeps posts in any of these groups (none: nothing to join), from a post id
	 * column. Joined from the few posts at hand, by primary keys: Marker_Filter_Sql's `IN
	 * (subquery)` may be run as "every marker of the group" first, which costs a large group's
	 * size for each read (measured: 125 ms for 20,000 markers). The shape tiles join it too.
	 *
	 * @since 0.7.0 Public (Shape_Tile_Store).
	 *
	 * @param string[] $groups Group slugs.
	 * @param string   $column The post id column, e.g. `p.ID`.
	 * @return array{0: string, 1: array<int, string>} SQL (placeholders only) and its values.
	 */
	public static function groups_join( array $groups, string $column ): array {
		global $wpdb;
		if ( array() === $groups ) {
			return array( '', array() );
		}
		$sql = " INNER JOIN {$wpdb->term_relationships} tr ON tr.object_id = {$column}
			INNER JOIN {$wpdb->term_taxonomy} tt ON tt.term_taxonomy_id = tr.term_taxonomy_id AND tt.taxonomy = %s
			INNER JOIN {$wpdb->terms} t ON t.term_id = tt.term_id AND t.slug IN (" . implode( ',', array_fill( 0, count( $groups ), '%s' ) ) . ')';
		return array( $sql, array_merge( array( Post_Type::TAXONOMY ), array_map( 'strval', $groups ) ) );
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
		list( $join, $join_args ) = self::groups_join( $filters['groups'] ?? array(), 'p.ID' );
		$sql                      = 'SELECT DISTINCT ' . Marker_Filter_Sql::join_hint() . "p.ID, p.post_title FROM {$wpdb->posts} p" . $join . '
			WHERE p.ID IN (' . implode( ',', array_fill( 0, count( $ids ), '%d' ) ) . ") AND p.post_type = %s AND p.post_status = 'publish' AND p.post_password = '' ORDER BY p.ID";
		// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare -- only placeholders are interpolated.
		$rows   = $this->db->rows( $wpdb->prepare( $sql, array_merge( $join_args, $ids, array( Post_Type::POST_TYPE ) ) ) );
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
