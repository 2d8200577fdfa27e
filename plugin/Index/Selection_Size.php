<?php
/**
 * How many places a marker selection holds, cheaply.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

/**
 * The size of a selection (every marker, or the places in any of some groups) from the stored
 * per-cell counts at the coarsest stored level: a few hundred rows at most, whatever the number
 * of places, where counting `cairn_places` reads every row (about 0.1 s at a million). Every map
 * a page renders asks this (Blocks\Tile_Config), so it must cost next to nothing. The cells are
 * exact when the index is ready, the only time the answer is used.
 *
 * @since 0.6.0
 */
final class Selection_Size {

	/**
	 * The place index.
	 *
	 * @var Place_Index
	 */
	private Place_Index $index;

	/**
	 * Creates the counter.
	 *
	 * @param Place_Index $index The place index.
	 */
	public function __construct( Place_Index $index ) {
		$this->index = $index;
	}

	/**
	 * Places of a selection.
	 *
	 * @param string[] $groups Group slugs (places in any of them); none for every marker.
	 */
	public function count( array $groups = array() ): int {
		global $wpdb;
		$level = min( Place_Index::CELL_LEVELS );
		$table = Index_Schema::table( 'cairn_place_cells' );
		$where = '';
		if ( array() !== $groups ) {
			$ids = $this->index->combos_with( $groups );
			if ( array() === $ids ) {
				return 0;
			}
			$where = ' AND combo IN (' . implode( ',', array_map( 'intval', $ids ) ) . ')';
		}
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table; integers only.
		return (int) $wpdb->get_var( $wpdb->prepare( "SELECT COALESCE(SUM(n), 0) FROM $table WHERE level = %d$where", $level ) );
	}
}
