<?php
/**
 * Reads published markers in bounded batches.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

defined( 'ABSPATH' ) || exit;

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
	 * How many lists the list cache holds at most (see Marker_List).
	 *
	 * @since 0.2.0
	 */
	public const LIST_SLOTS = Marker_List::LIST_SLOTS;

	/**
	 * The server-rendered list's reads.
	 *
	 * @var Marker_List
	 */
	private Marker_List $list;

	/**
	 * Database reads.
	 *
	 * @var Wpdb_Rows
	 */
	private Wpdb_Rows $db;

	/**
	 * Creates the repository.
	 *
	 * @param Markers_Version|null $version The markers version.
	 */
	public function __construct( ?Markers_Version $version = null ) {
		$this->list = new Marker_List( $version ?? new Markers_Version() );
		$this->db   = new Wpdb_Rows();
	}

	/**
	 * Published markers matching the filters, in id order, one batch at a time.
	 *
	 * Each batch costs three indexed reads instead of one three-way join per marker: the posts by
	 * primary key from the last id read, the coordinates of that id range (postmeta's `post_id`
	 * index, pivoted to one row per post in SQL), and the group relationships of that id range
	 * (term_relationships' primary key), mapped to slugs with the group list read once. Half as many
	 * row lookups in postmeta as joining it twice, and no IN list of thousands of ids. Coordinates
	 * and the bounding box are checked here rather than in SQL.
	 *
	 * With $prefetch, on MySQL/MariaDB through core's wpdb, the next batch's coordinates are
	 * queried asynchronously while the caller works on the current batch, so the database and PHP
	 * work at the same time. The caller must then not query the database until the generator is
	 * done (or destroyed): the connection is busy meanwhile.
	 *
	 * @param array{groups?: string[], ids?: int[], bbox?: float[]} $filters  Group slugs, post ids and/or a
	 *        bounding box `[west, south, east, north]` (already validated; west > east crosses the
	 *        antimeridian).
	 * @param bool                                                  $prefetch Whether to overlap the next
	 *        batch's reading with the caller's work (see above).
	 * @return \Generator<int, array{id: int, title: string, lng: float, lat: float, groups: string[]}>
	 */
	public function each( array $filters = array(), bool $prefetch = false ): \Generator {
		$terms    = null;
		$box      = isset( $filters['bbox'] ) && 4 === count( $filters['bbox'] ) ? array_map( 'floatval', array_values( $filters['bbox'] ) ) : null;
		$prefetch = $prefetch && null !== Wpdb_Rows::native_connection();
		$pending  = false;
		$posts    = $this->post_batch( $filters, 0, self::BATCH );
		try {
			while ( array() !== $posts ) {
				$fetched = count( $posts );
				$ids     = Post_Batch::ids( $posts );
				$coords  = $pending ? $this->reap_coordinates() : null;
				$pending = false;
				$coords  = $coords ?? $this->coordinates_of( $ids );
				$groups  = $this->groups_in( $ids, $terms );
				$next    = self::BATCH === $fetched ? $this->post_batch( $filters, (int) $posts[ $fetched - 1 ][0], self::BATCH ) : array();
				if ( $prefetch && array() !== $next ) {
					$pending = $this->send_coordinates( Post_Batch::ids( $next ) );
				}
				foreach ( $posts as $post ) {
					$id    = (int) $post[0];
					$coord = $coords[ $id ] ?? null;
					if ( null === $coord || null === $coord[1] || null === $coord[2] || '' === $coord[1] || '' === $coord[2] ) {
						continue; // A coordinate is missing or empty: not on the map.
					}
					$lat = (float) $coord[1];
					$lng = (float) $coord[2];
					if ( null !== $box && ! Post_Batch::in_box( $lng, $lat, $box ) ) {
						continue;
					}
					yield array(
						'id'     => $id,
						'title'  => (string) $post[1],
						'lng'    => $lng,
						'lat'    => $lat,
						'groups' => $groups[ $id ] ?? array(),
					);
				}
				$posts = $next;
			}
		} finally {
			if ( $pending ) {
				$this->reap_coordinates(); // Abandoned early: free the connection.
			}
		}
	}

	/**
	 * The first markers for the server-rendered list, and how many match in all (cached; see
	 * Marker_List::first()).
	 *
	 * @param array{groups?: string[], ids?: int[], bbox?: float[]} $filters Filters.
	 * @param int                                                   $limit   How many to return.
	 * @return array{items: array<int, array{id: int, title: string, lng: float, lat: float}>, total: int}
	 */
	public function first( array $filters, int $limit ): array {
		return $this->list->first( $filters, $limit );
	}

	/**
	 * One page of the server-rendered list, and how many match in all (see Marker_List::page()).
	 *
	 * @since 0.2.0
	 *
	 * @param array{groups?: string[], ids?: int[], bbox?: float[]} $filters  Filters.
	 * @param int                                                   $page     Page number, from 1.
	 * @param int                                                   $per_page Markers a page (at least 1).
	 * @return array{items: array<int, array{id: int, title: string, lng: float, lat: float}>, total: int, page: int}
	 */
	public function page( array $filters, int $page, int $per_page ): array {
		return $this->list->page( $filters, $page, $per_page );
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
	 * Ids and titles of the next published, unprotected markers after a given id (coordinates are
	 * checked by the caller).
	 *
	 * @param array{groups?: string[], ids?: int[], bbox?: float[]} $filters Filters (the bounding box is
	 *        the caller's).
	 * @param int                                                   $after   Last id already read.
	 * @param int                                                   $limit   Batch size.
	 * @return array<int, array<int, string|null>> Rows `[ ID, post_title ]`, as the database gives them.
	 */
	private function post_batch( array $filters, int $after, int $limit ): array {
		global $wpdb;
		$sql                        = "SELECT p.ID, p.post_title FROM {$wpdb->posts} p
			WHERE p.post_type = %s AND p.post_status = %s AND p.post_password = '' AND p.ID > %d";
		$args                       = array( Post_Type::POST_TYPE, 'publish', $after );
		list( $where, $where_args ) = Marker_Filter_Sql::ids_and_groups( $filters );
		$sql                       .= $where . ' ORDER BY p.ID ASC LIMIT %d';
		$args                       = array_merge( $args, $where_args, array( $limit ) );
		// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare -- only placeholders are interpolated.
		return $this->db->rows( $wpdb->prepare( $sql, $args ) );
	}

	/**
	 * Stored coordinates of a batch of posts, one row per post: `[ id => [ id, lat, lng ] ]` (null
	 * where one is missing). Pivoted in SQL: the rows come in `post_id` index order, so the
	 * grouping streams, and PHP gets half as many rows.
	 *
	 * @param array{0: int, 1: int, 2: int[]|null} $ids The batch (see Post_Batch::ids()).
	 * @return array<int, array<int, string|null>> Rows `[ id, lat, lng ]` by id.
	 */
	private function coordinates_of( array $ids ): array {
		return Post_Batch::by_id( $this->db->rows( $this->coordinates_sql( $ids ) ) );
	}

	/**
	 * Sends the coordinates query of a batch without waiting for its rows (native connection).
	 *
	 * @param array{0: int, 1: int, 2: int[]|null} $ids The batch (see Post_Batch::ids()).
	 * @return bool Whether it was sent (else the caller reads synchronously).
	 */
	private function send_coordinates( array $ids ): bool {
		return $this->db->send( $this->coordinates_sql( $ids ) );
	}

	/**
	 * The rows of the coordinates query sent with send_coordinates(), or null when it failed.
	 *
	 * @return array<int, array<int, string|null>>|null Rows `[ id, lat, lng ]` by id.
	 */
	private function reap_coordinates(): ?array {
		$rows = $this->db->reap();
		return null === $rows ? null : Post_Batch::by_id( $rows );
	}

	/**
	 * The coordinates query of a batch.
	 *
	 * @param array{0: int, 1: int, 2: int[]|null} $ids The batch (see Post_Batch::ids()).
	 */
	private function coordinates_sql( array $ids ): string {
		global $wpdb;
		$sql = "SELECT post_id, MAX(CASE WHEN meta_key = %s THEN meta_value END), MAX(CASE WHEN meta_key = %s THEN meta_value END)
			FROM {$wpdb->postmeta} WHERE " . Post_Batch::condition( 'post_id', $ids ) . ' AND meta_key IN (%s, %s) GROUP BY post_id';
		return $wpdb->prepare(
			$sql, // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared -- the id condition holds integers only.
			Post_Type::META_LAT,
			Post_Type::META_LNG,
			Post_Type::META_LAT,
			Post_Type::META_LNG
		);
	}

	/**
	 * Group slugs (in name order) of a batch of posts.
	 *
	 * @param array{0: int, 1: int, 2: int[]|null}      $ids   The batch (see Post_Batch::ids()).
	 * @param array<int, array{0: int, 1: string}>|null $terms Groups by term_taxonomy_id as [rank, slug];
	 *        read on the first call and kept by the caller.
	 * @param-out array<int, array{0: int, 1: string}> $terms
	 * @return array<int, string[]>
	 */
	private function groups_in( array $ids, ?array &$terms ): array {
		global $wpdb;
		if ( null === $terms ) {
			$terms = array();
			$rows  = $this->db->rows(
				$wpdb->prepare(
					"SELECT tt.term_taxonomy_id, t.slug FROM {$wpdb->term_taxonomy} tt
					INNER JOIN {$wpdb->terms} t ON t.term_id = tt.term_id
					WHERE tt.taxonomy = %s ORDER BY t.name, t.slug",
					Post_Type::TAXONOMY
				)
			);
			foreach ( $rows as $rank => $row ) {
				$terms[ (int) $row[0] ] = array( $rank, (string) $row[1] );
			}
		}
		return Post_Batch::groups( $this->db, $ids, $terms );
	}
}
