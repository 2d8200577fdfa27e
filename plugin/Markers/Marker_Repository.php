<?php
/**
 * Reads published markers in bounded batches.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

/**
 * Marker reads for the GeoJSON feed and the block's server-rendered list.
 *
 * Reads go straight to posts/postmeta with prepared SQL in batches, so 100,000 markers never become
 * 100,000 WP_Post objects in one request.
 *
 * @since 0.1.0
 */
class Marker_Repository {

	public const BATCH = 2000;

	/**
	 * Published markers matching the filters, in id order, one batch at a time.
	 *
	 * @param array{groups?: string[], ids?: int[]} $filters Group slugs and/or post ids (already validated).
	 * @return \Generator<int, array{id: int, title: string, lng: float, lat: float}>
	 */
	public function each( array $filters = array() ): \Generator {
		$after = 0;
		do {
			$rows = $this->batch( $filters, $after, self::BATCH );
			foreach ( $rows as $row ) {
				$after = (int) $row['id'];
				yield array(
					'id'    => (int) $row['id'],
					'title' => (string) $row['title'],
					'lng'   => (float) $row['lng'],
					'lat'   => (float) $row['lat'],
				);
			}
		} while ( count( $rows ) === self::BATCH );
	}

	/**
	 * The first markers for the server-rendered list, and how many match in all.
	 *
	 * @param array{groups?: string[], ids?: int[]} $filters Filters.
	 * @param int                                   $limit   How many to return.
	 * @return array{items: array<int, array{id: int, title: string, lng: float, lat: float}>, total: int}
	 */
	public function first( array $filters, int $limit ): array {
		global $wpdb;
		$items = array();
		foreach ( $this->batch( $filters, 0, $limit ) as $row ) {
			$items[] = array(
				'id'    => (int) $row['id'],
				'title' => (string) $row['title'],
				'lng'   => (float) $row['lng'],
				'lat'   => (float) $row['lat'],
			);
		}
		list( $where, $args ) = $this->where( $filters );
		// phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.DirectDatabaseQuery -- $where holds only placeholders; values are in $args.
		$total = (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->posts} p {$where}", $args ) );
		return array(
			'items' => $items,
			'total' => $total,
		);
	}

	/**
	 * One batch of rows after a given id.
	 *
	 * @param array{groups?: string[], ids?: int[]} $filters Filters.
	 * @param int                                   $after   Last id already read.
	 * @param int                                   $limit   Batch size.
	 * @return array<int, array{id: string, title: string, lng: string, lat: string}>
	 */
	private function batch( array $filters, int $after, int $limit ): array {
		global $wpdb;
		list( $where, $args ) = $this->where( $filters );
		$args[]               = $after;
		$args[]               = $limit;
		$sql                  = "SELECT p.ID AS id, p.post_title AS title, lng.meta_value AS lng, lat.meta_value AS lat
			FROM {$wpdb->posts} p
			INNER JOIN {$wpdb->postmeta} lat ON lat.post_id = p.ID AND lat.meta_key = 'cairn_lat'
			INNER JOIN {$wpdb->postmeta} lng ON lng.post_id = p.ID AND lng.meta_key = 'cairn_lng'
			{$where} AND p.ID > %d ORDER BY p.ID ASC LIMIT %d";
		// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.DirectDatabaseQuery -- prepared here; $where holds only placeholders.
		$rows = $wpdb->get_results( $wpdb->prepare( $sql, $args ), ARRAY_A );
		return is_array( $rows ) ? $rows : array();
	}

	/**
	 * The WHERE clause (placeholders only) and its values.
	 *
	 * @param array{groups?: string[], ids?: int[]} $filters Filters.
	 * @return array{0: string, 1: array<int, int|string>}
	 */
	private function where( array $filters ): array {
		global $wpdb;
		$where = 'WHERE p.post_type = %s AND p.post_status = %s';
		$args  = array( Post_Type::POST_TYPE, 'publish' );
		if ( ! empty( $filters['ids'] ) ) {
			$where .= ' AND p.ID IN (' . implode( ',', array_fill( 0, count( $filters['ids'] ), '%d' ) ) . ')';
			$args   = array_merge( $args, array_map( 'intval', $filters['ids'] ) );
		}
		if ( ! empty( $filters['groups'] ) ) {
			$where .= " AND p.ID IN (SELECT tr.object_id FROM {$wpdb->term_relationships} tr
				INNER JOIN {$wpdb->term_taxonomy} tt ON tt.term_taxonomy_id = tr.term_taxonomy_id AND tt.taxonomy = %s
				INNER JOIN {$wpdb->terms} t ON t.term_id = tt.term_id
				WHERE t.slug IN (" . implode( ',', array_fill( 0, count( $filters['groups'] ), '%s' ) ) . '))';
			$args   = array_merge( $args, array( Post_Type::TAXONOMY ), $filters['groups'] );
		}
		return array( $where, $args );
	}
}
