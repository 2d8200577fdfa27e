<?php
/**
 * The markers of the server-rendered list, a page at a time.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

defined( 'ABSPATH' ) || exit;

/**
 * Pages of the block's server-rendered list (id order) and how many markers match in all: the
 * first page and the total cached by markers version in a bounded set of slots, later pages one
 * keyset read each. Marker_Repository answers with it (first(), page()).
 *
 * @since 0.2.0
 */
class Marker_List {

	/**
	 * How many lists (first page and total of a selection) the list cache holds at most: entries
	 * live in this many fixed slots (transients `cairn_maps_list_<slot>`), each selection in one
	 * of two of them, so stored block attributes, however many, never add more rows than this.
	 *
	 * @since 0.2.0
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
	 * Creates the list.
	 *
	 * @param Markers_Version $version The markers version.
	 */
	public function __construct( Markers_Version $version ) {
		$this->version = $version;
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
		$hash    = hash( 'sha256', (string) wp_json_encode( array( Marker_Filters::normalize( $filters ), $limit ) ) );
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
	 * @since 0.2.0
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
			$hint                = Marker_Filter_Sql::join_hint();
			// phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare -- $from holds only placeholders; values are in $args.
			$total = (int) $wpdb->get_var( $wpdb->prepare( "SELECT {$hint}COUNT(*) {$from}", $args ) );
		}
		return array(
			'items' => $items,
			'total' => $total,
		);
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
		$hint                = Marker_Filter_Sql::join_hint();
		// STRAIGHT_JOIN keeps the plan that makes keyset paging cheap whatever the table statistics
		// say: walk posts by primary key from $after, then look up each marker's two meta rows by
		// post_id. Stale statistics (after a bulk import) otherwise lead MariaDB to a full scan of
		// postmeta per batch.
		$sql = "SELECT {$hint}p.ID AS id, p.post_title AS title, lng.meta_value AS lng, lat.meta_value AS lat
			{$from} AND p.ID > %d ORDER BY p.ID ASC LIMIT %d OFFSET %d";
		// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.DirectDatabaseQuery -- prepared here; $from holds only placeholders.
		$rows = $wpdb->get_results( $wpdb->prepare( $sql, $args ), ARRAY_A );
		return is_array( $rows ) ? $rows : array();
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
		list( $where, $where_args ) = Marker_Filter_Sql::ids_and_groups( $filters );
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
}
