<?php
/**
 * What the batched post reads (markers, posts' places) share.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

defined( 'ABSPATH' ) || exit;

/**
 * A batch of posts as the later reads of Marker_Repository and Post_Places_Repository select it,
 * the rows those reads return, their groups and the bounding-box test.
 *
 * @since 0.2.0
 */
final class Post_Batch {

	/**
	 * The ids of a batch of posts (ascending) as the later reads select them: the id range
	 * `[ first, last ]` when the batch fills most of it (posts created one after another), else
	 * also the list itself (a filter picked posts scattered over the table), so that a read
	 * never sweeps through thousands of unrelated posts.
	 *
	 * @param array<int, array<int, string|null>> $posts Posts, id first.
	 * @return array{0: int, 1: int, 2: int[]|null}
	 */
	public static function ids( array $posts ): array {
		$count = count( $posts );
		$first = (int) $posts[0][0];
		$last  = (int) $posts[ $count - 1 ][0];
		return array( $first, $last, $last - $first + 1 > 4 * $count ? array_map( 'intval', array_column( $posts, 0 ) ) : null );
	}

	/**
	 * SQL condition on an id column selecting a batch (integers only).
	 *
	 * @param string                               $column Column.
	 * @param array{0: int, 1: int, 2: int[]|null} $ids    The batch (see ids()).
	 */
	public static function condition( string $column, array $ids ): string {
		return null === $ids[2]
			? sprintf( '%s BETWEEN %d AND %d', $column, $ids[0], $ids[1] )
			: sprintf( '%s IN (%s)', $column, implode( ',', array_map( 'intval', $ids[2] ) ) );
	}

	/**
	 * Rows keyed by their first column (an id).
	 *
	 * @param array<int, array<int, string|null>> $rows Rows.
	 * @return array<int, array<int, string|null>>
	 */
	public static function by_id( array $rows ): array {
		$keyed = array();
		foreach ( $rows as $row ) {
			$keyed[ (int) $row[0] ] = $row;
		}
		return $keyed;
	}

	/**
	 * Group keys (in rank order) of a batch of posts.
	 *
	 * @param Wpdb_Rows                            $db    Row reader.
	 * @param array{0: int, 1: int, 2: int[]|null} $ids   The batch (see ids()).
	 * @param array<int, array{0: int, 1: string}> $terms Groups by term_taxonomy_id as [rank, key].
	 * @return array<int, string[]>
	 */
	public static function groups( Wpdb_Rows $db, array $ids, array $terms ): array {
		global $wpdb;
		if ( array() === $terms ) {
			return array();
		}
		$sql = "SELECT object_id, term_taxonomy_id FROM {$wpdb->term_relationships} WHERE " . self::condition( 'object_id', $ids );
		if ( count( $terms ) <= 500 ) {
			$sql .= ' AND term_taxonomy_id IN (' . implode( ',', array_map( 'intval', array_keys( $terms ) ) ) . ')';
		}
		$ranks = array();
		foreach ( $db->rows( $sql ) as $row ) {
			$term = $terms[ (int) $row[1] ] ?? null;
			if ( null !== $term ) {
				$ranks[ (int) $row[0] ][ $term[0] ] = $term[1];
			}
		}
		$groups = array();
		foreach ( $ranks as $id => $keys ) {
			if ( count( $keys ) > 1 ) {
				ksort( $keys );
			}
			$groups[ $id ] = array_values( $keys );
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
	public static function in_box( float $lng, float $lat, array $box ): bool {
		list( $west, $south, $east, $north ) = $box;
		if ( $lat < $south || $lat > $north ) {
			return false;
		}
		return $west <= $east ? ( $lng >= $west && $lng <= $east ) : ( $lng >= $west || $lng <= $east );
	}
}
