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
 * A marker is shown when it is published, not password-protected (its popup would be refused) and
 * has both coordinates stored.
 *
 * @since 0.1.0
 */
class Marker_Repository {

	public const BATCH = 2000;

	/**
	 * The markers version, which labels cached lists.
	 *
	 * @var Markers_Version
	 */
	private Markers_Version $version;

	/**
	 * Creates the repository.
	 *
	 * @param Markers_Version|null $version The markers version.
	 */
	public function __construct( ?Markers_Version $version = null ) {
		$this->version = $version ?? new Markers_Version();
	}

	/**
	 * Published markers matching the filters, in id order, one batch at a time.
	 *
	 * @param array{groups?: string[], ids?: int[], bbox?: float[]} $filters Group slugs, post ids and/or a
	 *        bounding box `[west, south, east, north]` (already validated; west > east crosses the
	 *        antimeridian).
	 * @return \Generator<int, array{id: int, title: string, lng: float, lat: float, groups: string[]}>
	 */
	public function each( array $filters = array() ): \Generator {
		$after = 0;
		do {
			$rows    = $this->batch( $filters, $after, self::BATCH );
			$fetched = count( $rows );
			$groups  = $this->groups_of( array_map( 'intval', array_column( $rows, 'id' ) ) );
			foreach ( $rows as $row ) {
				$after = (int) $row['id'];
				yield array(
					'id'     => $after,
					'title'  => (string) $row['title'],
					'lng'    => (float) $row['lng'],
					'lat'    => (float) $row['lat'],
					'groups' => $groups[ $after ] ?? array(),
				);
			}
		} while ( self::BATCH === $fetched );
	}

	/**
	 * The first markers for the server-rendered list, and how many match in all.
	 *
	 * Every page with a map block asks for this, and counting 100,000 markers takes about a second:
	 * the answer is cached (transient, one entry per selection) until the markers version changes.
	 *
	 * @param array{groups?: string[], ids?: int[], bbox?: float[]} $filters Filters.
	 * @param int                                                   $limit   How many to return.
	 * @return array{items: array<int, array{id: int, title: string, lng: float, lat: float}>, total: int}
	 */
	public function first( array $filters, int $limit ): array {
		$version = $this->version->get();
		$key     = 'cairn_maps_list_' . substr( hash( 'sha256', (string) wp_json_encode( array( Geojson_Feed::normalize( $filters ), $limit ) ) ), 0, 32 );
		$cached  = get_transient( $key );
		if ( is_array( $cached ) && ( $cached['version'] ?? null ) === $version && isset( $cached['list'] ) ) {
			return $cached['list'];
		}
		$list = $this->read_first( $filters, $limit );
		// Labelled with the version read before the rows: a change meanwhile makes it stale at once.
		set_transient(
			$key,
			array(
				'version' => $version,
				'list'    => $list,
			),
			DAY_IN_SECONDS
		);
		return $list;
	}

	/**
	 * Reads the first markers and the total from the database.
	 *
	 * @param array{groups?: string[], ids?: int[], bbox?: float[]} $filters Filters.
	 * @param int                                                   $limit   How many to return.
	 * @return array{items: array<int, array{id: int, title: string, lng: float, lat: float}>, total: int}
	 */
	private function read_first( array $filters, int $limit ): array {
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
		list( $from, $args ) = $this->from( $filters );
		// phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare -- $from holds only placeholders; values are in $args.
		$total = (int) $wpdb->get_var( $wpdb->prepare( "SELECT {$this->join_hint()}COUNT(*) {$from}", $args ) );
		return array(
			'items' => $items,
			'total' => $total,
		);
	}

	/**
	 * Group slugs of markers, by marker id.
	 *
	 * @param int[] $ids Marker ids.
	 * @return array<int, string[]> Slugs in name order.
	 */
	public function groups_of( array $ids ): array {
		global $wpdb;
		if ( array() === $ids ) {
			return array();
		}
		$sql = "SELECT tr.object_id AS id, t.slug AS slug
			FROM {$wpdb->term_relationships} tr
			INNER JOIN {$wpdb->term_taxonomy} tt ON tt.term_taxonomy_id = tr.term_taxonomy_id AND tt.taxonomy = %s
			INNER JOIN {$wpdb->terms} t ON t.term_id = tt.term_id
			WHERE tr.object_id IN (" . implode( ',', array_fill( 0, count( $ids ), '%d' ) ) . ')
			ORDER BY tr.object_id, t.name, t.slug';
		// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare -- prepared here; only placeholders are interpolated.
		$rows   = $wpdb->get_results( $wpdb->prepare( $sql, array_merge( array( Post_Type::TAXONOMY ), $ids ) ), ARRAY_A );
		$groups = array();
		foreach ( is_array( $rows ) ? $rows : array() as $row ) {
			$groups[ (int) $row['id'] ][] = (string) $row['slug'];
		}
		return $groups;
	}

	/**
	 * One batch of rows after a given id.
	 *
	 * @param array{groups?: string[], ids?: int[], bbox?: float[]} $filters Filters.
	 * @param int                                                   $after   Last id already read.
	 * @param int                                                   $limit   Batch size.
	 * @return array<int, array{id: string, title: string, lng: string, lat: string}>
	 */
	private function batch( array $filters, int $after, int $limit ): array {
		global $wpdb;
		list( $from, $args ) = $this->from( $filters );
		$args[]              = $after;
		$args[]              = $limit;
		// STRAIGHT_JOIN keeps the plan that makes keyset paging cheap whatever the table statistics
		// say: walk posts by primary key from $after, then look up each marker's two meta rows by
		// post_id. Stale statistics (after a bulk import) otherwise lead MariaDB to a full scan of
		// postmeta per batch.
		$sql = "SELECT {$this->join_hint()}p.ID AS id, p.post_title AS title, lng.meta_value AS lng, lat.meta_value AS lat
			{$from} AND p.ID > %d ORDER BY p.ID ASC LIMIT %d";
		// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.DirectDatabaseQuery -- prepared here; $from holds only placeholders.
		$rows = $wpdb->get_results( $wpdb->prepare( $sql, $args ), ARRAY_A );
		return is_array( $rows ) ? $rows : array();
	}

	/**
	 * MySQL/MariaDB's STRAIGHT_JOIN hint, or nothing on SQLite (WordPress Playground and the SQLite
	 * Database Integration), whose query translator does not know the hint.
	 */
	private function join_hint(): string {
		global $wpdb;
		$sqlite = ( defined( 'DB_ENGINE' ) && 'sqlite' === DB_ENGINE ) || ( is_object( $wpdb ) && false !== stripos( get_class( $wpdb ), 'sqlite' ) );
		return $sqlite ? '' : 'STRAIGHT_JOIN ';
	}

	/**
	 * The FROM … WHERE clause (placeholders only) and its values.
	 *
	 * @param array{groups?: string[], ids?: int[], bbox?: float[]} $filters Filters.
	 * @return array{0: string, 1: array<int, int|float|string>}
	 */
	private function from( array $filters ): array {
		global $wpdb;
		$sql  = "FROM {$wpdb->posts} p
			INNER JOIN {$wpdb->postmeta} lat ON lat.post_id = p.ID AND lat.meta_key = %s
			INNER JOIN {$wpdb->postmeta} lng ON lng.post_id = p.ID AND lng.meta_key = %s
			WHERE p.post_type = %s AND p.post_status = %s AND p.post_password = ''
			AND lat.meta_value <> '' AND lng.meta_value <> ''";
		$args = array( Post_Type::META_LAT, Post_Type::META_LNG, Post_Type::POST_TYPE, 'publish' );
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
		if ( isset( $filters['bbox'] ) && 4 === count( $filters['bbox'] ) ) {
			list( $west, $south, $east, $north ) = array_map( 'floatval', $filters['bbox'] );
			// `+ 0` reads the stored decimal text as a number (portable across MySQL and MariaDB).
			$sql .= ' AND (lat.meta_value + 0) BETWEEN %f AND %f';
			$args = array_merge( $args, array( $south, $north ) );
			// West above east: the box crosses the antimeridian (e.g. 170,-20,-170,20 around Fiji).
			$sql .= $west <= $east
				? ' AND (lng.meta_value + 0) BETWEEN %f AND %f'
				: ' AND ((lng.meta_value + 0) >= %f OR (lng.meta_value + 0) <= %f)';
			$args = array_merge( $args, array( $west, $east ) );
		}
		return array( $sql, $args );
	}
}
