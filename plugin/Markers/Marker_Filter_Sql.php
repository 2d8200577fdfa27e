<?php
/**
 * SQL of the marker filters.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

defined( 'ABSPATH' ) || exit;

/**
 * The SQL every marker read shares: the `ids` and `groups` conditions on posts `p` (placeholders
 * only, with their values) and the join hint.
 *
 * @since 0.2.0
 */
class Marker_Filter_Sql {

	/**
	 * The `ids` and `groups` conditions on posts `p` (placeholders only) and their values.
	 *
	 * @param array{groups?: string[], ids?: int[]} $filters Filters.
	 * @return array{0: string, 1: array<int, int|string>}
	 */
	public static function ids_and_groups( array $filters ): array {
		global $wpdb;
		$sql  = '';
		$args = array();
		if ( ! empty( $filters['ids'] ) ) {
			$sql .= ' AND p.ID IN (' . implode( ',', array_fill( 0, count( $filters['ids'] ), '%d' ) ) . ')';
			$args = array_merge( $args, array_map( 'intval', $filters['ids'] ) );
		}
		if ( ! empty( $filters['groups'] ) ) {
			$sql .= " AND p.ID IN (SELECT tr.object_id FROM {$wpdb->term_relationships} tr
				INNER JOIN {$wpdb->term_taxonomy} tt ON tt.term_taxonomy_id = tr.term_taxonomy_id AND tt.taxonomy = %s
				INNER JOIN {$wpdb->terms} t ON t.term_id = tt.term_id
				WHERE t.slug IN (" . implode( ',', array_fill( 0, count( $filters['groups'] ), '%s' ) ) . '))';
			$args = array_merge( $args, array( Post_Type::TAXONOMY ), $filters['groups'] );
		}
		return array( $sql, $args );
	}

	/**
	 * MySQL/MariaDB's STRAIGHT_JOIN hint, or nothing on SQLite (WordPress Playground and the SQLite
	 * Database Integration), whose query translator does not know the hint.
	 */
	public static function join_hint(): string {
		return Wpdb_Rows::is_sqlite() ? '' : 'STRAIGHT_JOIN ';
	}
}
