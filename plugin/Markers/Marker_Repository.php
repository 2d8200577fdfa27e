<?php
/**
 * Reads published markers in bounded batches.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Feed\Geojson_Feed;

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
	 * How many lists (first page and total of a selection) the list cache holds at most: entries
	 * live in this many fixed slots (transients `cairn_maps_list_<slot>`), each selection in one
	 * of two of them, so stored block attributes, however many, never add more rows than this.
	 *
	 * @since 0.3.0
	 */
	public const LIST_SLOTS = 64;

	private const LIST_PREFIX = 'cairn_maps_list_';

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
		$prefetch = $prefetch && null !== $this->native_connection();
		$pending  = false;
		$posts    = $this->post_batch( $filters, 0, self::BATCH );
		try {
			while ( array() !== $posts ) {
				$fetched = count( $posts );
				$ids     = self::batch_ids( $posts );
				$coords  = $pending ? $this->reap_coordinates() : null;
				$pending = false;
				$coords  = $coords ?? $this->coordinates_of( $ids );
				$groups  = $this->groups_in( $ids, $terms );
				$next    = self::BATCH === $fetched ? $this->post_batch( $filters, (int) $posts[ $fetched - 1 ][0], self::BATCH ) : array();
				if ( $prefetch && array() !== $next ) {
					$pending = $this->send_coordinates( self::batch_ids( $next ) );
				}
				foreach ( $posts as $post ) {
					$id    = (int) $post[0];
					$coord = $coords[ $id ] ?? null;
					if ( null === $coord || null === $coord[1] || null === $coord[2] || '' === $coord[1] || '' === $coord[2] ) {
						continue; // A coordinate is missing or empty: not on the map.
					}
					$lat = (float) $coord[1];
					$lng = (float) $coord[2];
					if ( null !== $box && ! self::in_box( $lng, $lat, $box ) ) {
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
	 * The first markers for the server-rendered list, and how many match in all.
	 *
	 * Every page with a map block asks for this, and counting 100,000 markers takes about a second:
	 * the answer is cached until the markers version changes. The cache is bounded: anyone who may
	 * preview a block (core's block renderer) can ask for any selection, so entries live in
	 * LIST_SLOTS fixed slots. A selection (filters normalised: order and repeats do not matter) may
	 * use either of two slots picked by its hash; a new one takes the emptier or older of the two.
	 *
	 * @param array{groups?: string[], ids?: int[], bbox?: float[]} $filters Filters.
	 * @param int                                                   $limit   How many to return.
	 * @return array{items: array<int, array{id: int, title: string, lng: float, lat: float}>, total: int}
	 */
	public function first( array $filters, int $limit ): array {
		$version = $this->version->get();
		$hash    = hash( 'sha256', (string) wp_json_encode( array( Geojson_Feed::normalize( $filters ), $limit ) ) );
		$slots   = self::list_slots( $hash );
		$target  = null;
		$oldest  = PHP_INT_MAX;
		foreach ( $slots as $slot ) {
			$cached = get_transient( $slot );
			if ( ! is_array( $cached ) || ( $cached['key'] ?? null ) === $hash ) {
				if ( is_array( $cached ) && ( $cached['version'] ?? null ) === $version && isset( $cached['list'] ) && is_array( $cached['list'] ) ) {
					/**
					 * As this method stored it, from read_page().
					 *
					 * @var array{items: array<int, array{id: int, title: string, lng: float, lat: float}>, total: int} $list
					 */
					$list = $cached['list'];
					return $list;
				}
				if ( -1 !== $oldest ) { // Empty, or this selection's own stale entry: the place to write.
					$target = $slot;
					$oldest = -1;
				}
			} elseif ( (int) ( $cached['time'] ?? 0 ) < $oldest ) {
				$target = $slot;
				$oldest = (int) ( $cached['time'] ?? 0 );
			}
		}
		$list = $this->read_page( $filters, 0, $limit, true );
		// Labelled with the version read before the rows: a change meanwhile makes it stale at once.
		set_transient(
			(string) $target,
			array(
				'key'     => $hash,
				'version' => $version,
				'time'    => time(),
				'list'    => $list,
			),
			DAY_IN_SECONDS
		);
		return $list;
	}

	/**
	 * One page of the server-rendered list: the markers of that page (id order, the order of
	 * first()) and how many match in all. A page past the last is the last; below 1 is the first.
	 *
	 * The first page and the total come from first() (cached); a later page is one bounded read.
	 *
	 * @since 0.3.0
	 *
	 * @param array{groups?: string[], ids?: int[], bbox?: float[]} $filters  Filters.
	 * @param int                                                   $page     Page number, from 1.
	 * @param int                                                   $per_page Markers a page (at least 1).
	 * @return array{items: array<int, array{id: int, title: string, lng: float, lat: float}>, total: int, page: int}
	 */
	public function page( array $filters, int $page, int $per_page ): array {
		$per_page = max( 1, $per_page );
		$first    = $this->first( $filters, $per_page );
		$page     = max( 1, min( $page, (int) ceil( $first['total'] / $per_page ) ) );
		$list     = 1 === $page ? $first : $this->read_page( $filters, ( $page - 1 ) * $per_page, $per_page, false );
		return array(
			'items' => $list['items'],
			'total' => $first['total'],
			'page'  => $page,
		);
	}

	/**
	 * The names of the two cache slots a selection may use.
	 *
	 * @param string $hash The selection's hash (hex).
	 * @return string[]
	 */
	private static function list_slots( string $hash ): array {
		$first  = hexdec( substr( $hash, 0, 6 ) ) % self::LIST_SLOTS;
		$second = hexdec( substr( $hash, 6, 6 ) ) % self::LIST_SLOTS;
		if ( $second === $first ) {
			$second = ( $first + 1 ) % self::LIST_SLOTS;
		}
		return array( self::LIST_PREFIX . $first, self::LIST_PREFIX . $second );
	}

	/**
	 * Reads markers from an offset (id order) and, when asked, the total from the database.
	 *
	 * @param array{groups?: string[], ids?: int[], bbox?: float[]} $filters Filters.
	 * @param int                                                   $offset  How many to skip.
	 * @param int                                                   $limit   How many to return.
	 * @param bool                                                  $count   Whether to count them all (else total is 0).
	 * @return array{items: array<int, array{id: int, title: string, lng: float, lat: float}>, total: int}
	 */
	private function read_page( array $filters, int $offset, int $limit, bool $count ): array {
		global $wpdb;
		$items = array();
		foreach ( $this->batch( $filters, 0, $limit, $offset ) as $row ) {
			$items[] = array(
				'id'    => (int) $row['id'],
				'title' => (string) $row['title'],
				'lng'   => (float) $row['lng'],
				'lat'   => (float) $row['lat'],
			);
		}
		$total = 0;
		if ( $count ) {
			list( $from, $args ) = $this->from( $filters );
			// phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare -- $from holds only placeholders; values are in $args.
			$total = (int) $wpdb->get_var( $wpdb->prepare( "SELECT {$this->join_hint()}COUNT(*) {$from}", $args ) );
		}
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
		list( $where, $where_args ) = $this->id_and_group_filters( $filters );
		$sql                       .= $where . ' ORDER BY p.ID ASC LIMIT %d';
		$args                       = array_merge( $args, $where_args, array( $limit ) );
		// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare -- only placeholders are interpolated.
		return $this->rows( $wpdb->prepare( $sql, $args ) );
	}

	/**
	 * The ids of a batch of posts (ascending) as the later reads select them: the id range
	 * `[ first, last ]` when the batch fills most of it (markers created one after another), else
	 * also the list itself (a filter picked markers scattered over the table), so that a read
	 * never sweeps through thousands of unrelated posts.
	 *
	 * @param array<int, array<int, string|null>> $posts Posts, id first.
	 * @return array{0: int, 1: int, 2: int[]|null}
	 */
	private static function batch_ids( array $posts ): array {
		$count = count( $posts );
		$first = (int) $posts[0][0];
		$last  = (int) $posts[ $count - 1 ][0];
		return array( $first, $last, $last - $first + 1 > 4 * $count ? array_map( 'intval', array_column( $posts, 0 ) ) : null );
	}

	/**
	 * SQL condition on an id column selecting a batch (see batch_ids()).
	 *
	 * @param string                               $column Column.
	 * @param array{0: int, 1: int, 2: int[]|null} $ids    The batch.
	 */
	private static function ids_condition( string $column, array $ids ): string {
		return null === $ids[2]
			? sprintf( '%s BETWEEN %d AND %d', $column, $ids[0], $ids[1] )
			: sprintf( '%s IN (%s)', $column, implode( ',', array_map( 'intval', $ids[2] ) ) );
	}

	/**
	 * Stored coordinates of a batch of posts, one row per post: `[ id => [ id, lat, lng ] ]` (null
	 * where one is missing). Pivoted in SQL: the rows come in `post_id` index order, so the
	 * grouping streams, and PHP gets half as many rows.
	 *
	 * @param array{0: int, 1: int, 2: int[]|null} $ids The batch (see batch_ids()).
	 * @return array<int, array<int, string|null>> Rows `[ id, lat, lng ]` by id.
	 */
	private function coordinates_of( array $ids ): array {
		return self::by_id( $this->rows( $this->coordinates_sql( $ids ) ) );
	}

	/**
	 * Sends the coordinates query of a batch without waiting for its rows (native connection).
	 *
	 * @param array{0: int, 1: int, 2: int[]|null} $ids The batch (see batch_ids()).
	 * @return bool Whether it was sent (else the caller reads synchronously).
	 */
	private function send_coordinates( array $ids ): bool {
		$dbh = $this->native_connection();
		if ( null === $dbh ) {
			return false;
		}
		$sql = (string) apply_filters( 'query', $this->coordinates_sql( $ids ) ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- core's filter, applied as wpdb::query() does.
		return false !== mysqli_query( $dbh, $sql, MYSQLI_ASYNC ); // phpcs:ignore WordPress.DB.RestrictedFunctions -- wpdb's own connection, asynchronously (see each()).
	}

	/**
	 * The rows of the coordinates query sent with send_coordinates(), or null when it failed.
	 *
	 * @return array<int, array<int, string|null>>|null Rows `[ id, lat, lng ]` by id.
	 */
	private function reap_coordinates(): ?array {
		global $wpdb;
		$dbh    = $this->native_connection();
		$result = null === $dbh ? false : mysqli_reap_async_query( $dbh ); // phpcs:ignore WordPress.DB.RestrictedFunctions -- the query sent by send_coordinates().
		if ( ! $result instanceof \mysqli_result ) {
			return null;
		}
		$rows = $result->fetch_all( MYSQLI_NUM );
		$result->free();
		++$wpdb->num_queries;
		return self::by_id( $rows );
	}

	/**
	 * The coordinates query of a batch.
	 *
	 * @param array{0: int, 1: int, 2: int[]|null} $ids The batch (see batch_ids()).
	 */
	private function coordinates_sql( array $ids ): string {
		global $wpdb;
		$sql = "SELECT post_id, MAX(CASE WHEN meta_key = %s THEN meta_value END), MAX(CASE WHEN meta_key = %s THEN meta_value END)
			FROM {$wpdb->postmeta} WHERE " . self::ids_condition( 'post_id', $ids ) . ' AND meta_key IN (%s, %s) GROUP BY post_id';
		return $wpdb->prepare(
			$sql, // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared -- the id condition holds integers only.
			Post_Type::META_LAT,
			Post_Type::META_LNG,
			Post_Type::META_LAT,
			Post_Type::META_LNG
		);
	}

	/**
	 * Rows keyed by their first column (an id).
	 *
	 * @param array<int, array<int, string|null>> $rows Rows.
	 * @return array<int, array<int, string|null>>
	 */
	private static function by_id( array $rows ): array {
		$keyed = array();
		foreach ( $rows as $row ) {
			$keyed[ (int) $row[0] ] = $row;
		}
		return $keyed;
	}

	/**
	 * Group slugs (in name order) of a batch of posts.
	 *
	 * @param array{0: int, 1: int, 2: int[]|null}      $ids   The batch (see batch_ids()).
	 * @param array<int, array{0: int, 1: string}>|null $terms Groups by term_taxonomy_id as [rank, slug];
	 *        read on the first call and kept by the caller.
	 * @param-out array<int, array{0: int, 1: string}> $terms
	 * @return array<int, string[]>
	 */
	private function groups_in( array $ids, ?array &$terms ): array {
		global $wpdb;
		if ( null === $terms ) {
			$terms = array();
			$rows  = $this->rows(
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
		if ( array() === $terms ) {
			return array();
		}
		$sql = "SELECT object_id, term_taxonomy_id FROM {$wpdb->term_relationships} WHERE " . self::ids_condition( 'object_id', $ids );
		if ( count( $terms ) <= 500 ) {
			$sql .= ' AND term_taxonomy_id IN (' . implode( ',', array_map( 'intval', array_keys( $terms ) ) ) . ')';
		}
		$rows  = $this->rows( $sql );
		$ranks = array();
		foreach ( $rows as $row ) {
			$term = $terms[ (int) $row[1] ] ?? null;
			if ( null !== $term ) {
				$ranks[ (int) $row[0] ][ $term[0] ] = $term[1];
			}
		}
		$groups = array();
		foreach ( $ranks as $id => $slugs ) {
			if ( count( $slugs ) > 1 ) {
				ksort( $slugs );
			}
			$groups[ $id ] = array_values( $slugs );
		}
		return $groups;
	}

	/**
	 * Whether a point lies in a bounding box (west above east: across the antimeridian).
	 *
	 * @param float   $lng Longitude.
	 * @param float   $lat Latitude.
	 * @param float[] $box [west, south, east, north].
	 */
	private static function in_box( float $lng, float $lat, array $box ): bool {
		list( $west, $south, $east, $north ) = $box;
		if ( $lat < $south || $lat > $north ) {
			return false;
		}
		return $west <= $east ? ( $lng >= $west && $lng <= $east ) : ( $lng >= $west || $lng <= $east );
	}

	/**
	 * Rows of a prepared SELECT as lists of values.
	 *
	 * On MySQL/MariaDB through core's own `wpdb`, the rows are read straight from its mysqli
	 * connection, unbuffered (`MYSQLI_USE_RESULT`): about twice as fast as `wpdb::get_results()`,
	 * which copies each row into an object first. The `query` filter still sees the SQL, as with
	 * any `wpdb` query. Anywhere else (SQLite, database drop-ins, SAVEQUERIES, an error) it is a
	 * plain `get_results()`.
	 *
	 * @param string $sql Prepared SQL.
	 * @return array<int, array<int, string|null>>
	 */
	private function rows( string $sql ): array {
		global $wpdb;
		$dbh = $this->native_connection();
		if ( null !== $dbh ) {
			$sql    = (string) apply_filters( 'query', $sql ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- core's filter, applied as wpdb::query() does.
			$result = mysqli_query( $dbh, $sql, MYSQLI_USE_RESULT ); // phpcs:ignore WordPress.DB.RestrictedFunctions -- wpdb's own connection, unbuffered (see above).
			if ( $result instanceof \mysqli_result ) {
				$rows = $result->fetch_all( MYSQLI_NUM );
				$result->free();
				++$wpdb->num_queries;
				return $rows;
			}
		}
		$rows = $wpdb->get_results( $sql, ARRAY_N ); // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.DirectDatabaseQuery -- prepared by the caller.
		return is_array( $rows ) ? $rows : array();
	}

	/**
	 * Core wpdb's mysqli connection, when reading from it directly is safe.
	 */
	private function native_connection(): ?\mysqli {
		global $wpdb;
		if ( ! is_object( $wpdb ) || 'wpdb' !== get_class( $wpdb ) || $this->is_sqlite() || ( defined( 'SAVEQUERIES' ) && SAVEQUERIES ) ) {
			return null;
		}
		$dbh = $wpdb->__get( 'dbh' ); // Protected: read through wpdb's own magic getter.
		return $dbh instanceof \mysqli ? $dbh : null;
	}

	/**
	 * Whether the database is SQLite (WordPress Playground and the SQLite Database Integration).
	 */
	private function is_sqlite(): bool {
		global $wpdb;
		return ( defined( 'DB_ENGINE' ) && 'sqlite' === DB_ENGINE ) || ( is_object( $wpdb ) && false !== stripos( get_class( $wpdb ), 'sqlite' ) );
	}

	/**
	 * One batch of rows after a given id.
	 *
	 * @param array{groups?: string[], ids?: int[], bbox?: float[]} $filters Filters.
	 * @param int                                                   $after   Last id already read.
	 * @param int                                                   $limit   Batch size.
	 * @param int                                                   $offset  Rows to skip after $after.
	 * @return array<int, array{id: string, title: string, lng: string, lat: string}>
	 */
	private function batch( array $filters, int $after, int $limit, int $offset = 0 ): array {
		global $wpdb;
		list( $from, $args ) = $this->from( $filters );
		$args[]              = $after;
		$args[]              = $limit;
		$args[]              = max( 0, $offset );
		// STRAIGHT_JOIN keeps the plan that makes keyset paging cheap whatever the table statistics
		// say: walk posts by primary key from $after, then look up each marker's two meta rows by
		// post_id. Stale statistics (after a bulk import) otherwise lead MariaDB to a full scan of
		// postmeta per batch.
		$sql = "SELECT {$this->join_hint()}p.ID AS id, p.post_title AS title, lng.meta_value AS lng, lat.meta_value AS lat
			{$from} AND p.ID > %d ORDER BY p.ID ASC LIMIT %d OFFSET %d";
		// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.DirectDatabaseQuery -- prepared here; $from holds only placeholders.
		$rows = $wpdb->get_results( $wpdb->prepare( $sql, $args ), ARRAY_A );
		return is_array( $rows ) ? $rows : array();
	}

	/**
	 * MySQL/MariaDB's STRAIGHT_JOIN hint, or nothing on SQLite (WordPress Playground and the SQLite
	 * Database Integration), whose query translator does not know the hint.
	 */
	private function join_hint(): string {
		return $this->is_sqlite() ? '' : 'STRAIGHT_JOIN ';
	}

	/**
	 * The FROM … WHERE clause (placeholders only) and its values.
	 *
	 * @param array{groups?: string[], ids?: int[], bbox?: float[]} $filters Filters.
	 * @return array{0: string, 1: array<int, int|float|string>}
	 */
	private function from( array $filters ): array {
		global $wpdb;
		$sql                        = "FROM {$wpdb->posts} p
			INNER JOIN {$wpdb->postmeta} lat ON lat.post_id = p.ID AND lat.meta_key = %s
			INNER JOIN {$wpdb->postmeta} lng ON lng.post_id = p.ID AND lng.meta_key = %s
			WHERE p.post_type = %s AND p.post_status = %s AND p.post_password = ''
			AND lat.meta_value <> '' AND lng.meta_value <> ''";
		$args                       = array( Post_Type::META_LAT, Post_Type::META_LNG, Post_Type::POST_TYPE, 'publish' );
		list( $where, $where_args ) = $this->id_and_group_filters( $filters );
		$sql                       .= $where;
		$args                       = array_merge( $args, $where_args );
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

	/**
	 * The `ids` and `groups` conditions on posts `p` (placeholders only) and their values.
	 *
	 * @param array{groups?: string[], ids?: int[]} $filters Filters.
	 * @return array{0: string, 1: array<int, int|string>}
	 */
	private function id_and_group_filters( array $filters ): array {
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
}
