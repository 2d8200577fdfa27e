<?php
/**
 * Counts and bounds of places from the grid's aggregates.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

/**
 * Answers "how many places" and "where are they" without reading every place: from
 * `cairn_place_cells` (places counted per cell of the grid and group combination, kept by
 * Place_Index for the levels Place_Index::CELL_LEVELS), reading places only along edges.
 *
 * - Totals per combination: the coarsest level's cells, summed.
 * - Places in a box: cells wholly inside the box count by their aggregate; only the places of the
 *   cells across its edge are read (one range scan per run of cells), about 32 cells across.
 * - Bounds: the outermost occupied column (row) of coarse cells, narrowed level by level to the
 *   finest, then the extreme position among the places of that thin line.
 *
 * Combination filters are lists of combination ids, or null for every place.
 *
 * @since 0.6.0
 */
class Cell_Counts {

	/**
	 * Cells along the longer side of a box when counting it.
	 */
	public const ACROSS = 32;

	/**
	 * Levels skipped at each step when narrowing bounds.
	 */
	private const STEP = 2;

	/**
	 * Levels a box's edge cells are refined by at each step (8 × 8 children).
	 */
	private const REFINE = 3;

	/**
	 * Edge cells past which counting a box refines no further (the places in them are read).
	 */
	private const REFINE_CELLS = 256;

	/**
	 * Places in edge cells few enough to read rather than refine.
	 */
	private const REFINE_PLACES = 2000;

	/**
	 * Places per combination, read once per answer (see forget()).
	 *
	 * @var array<int, int>|null
	 */
	private ?array $by_combo = null;

	/**
	 * Forgets what was read.
	 */
	public function forget(): void {
		$this->by_combo = null;
	}

	/**
	 * Places per combination (0 = no group).
	 *
	 * @return array<int, int>
	 */
	public function by_combo(): array {
		global $wpdb;
		if ( null !== $this->by_combo ) {
			return $this->by_combo;
		}
		$cells  = Index_Schema::table( 'cairn_place_cells' );
		$rows   = $wpdb->get_results( $wpdb->prepare( "SELECT combo, SUM(n) AS n FROM {$cells} WHERE level = %d GROUP BY combo", min( Place_Index::CELL_LEVELS ) ), ARRAY_N ); // phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.DirectDatabaseQuery -- a table name.
		$counts = array();
		foreach ( is_array( $rows ) ? $rows : array() as $row ) {
			if ( (int) $row[1] > 0 ) {
				$counts[ (int) $row[0] ] = (int) $row[1];
			}
		}
		$this->by_combo = $counts;
		return $counts;
	}

	/**
	 * Places of these combinations.
	 *
	 * @param int[]|null $combos Combination ids; null for all.
	 */
	public function total( ?array $combos ): int {
		$total = 0;
		foreach ( $this->by_combo() as $combo => $n ) {
			if ( null === $combos || in_array( $combo, $combos, true ) ) {
				$total += $n;
			}
		}
		return $total;
	}

	/**
	 * Places of these combinations in a box (inclusive edges): cells wholly inside counted from
	 * the aggregates; cells across its edge looked at again REFINE levels finer, down to the
	 * finest level kept, while there are few of them and many places in them; only the places
	 * of the last edge cells are read. A box over a dense city reads the places along its edge,
	 * never the city.
	 *
	 * @param float[]    $box    `[west, south, east, north]`, west ≤ east.
	 * @param int[]|null $combos Combination ids; null for all.
	 */
	public function in_box( array $box, ?array $combos ): int {
		global $wpdb;
		list( $level, $occupied ) = $this->occupied( $box, $combos );
		$finest                   = max( Place_Index::CELL_LEVELS );
		$total                    = 0;
		while ( true ) {
			$edges = array();
			foreach ( $occupied as $cell => $n ) {
				list( $x, $y ) = Morton::tile_of( $cell );
				$relation      = Box_Cover::relation( $x, $y, $level, $box );
				if ( 1 === $relation ) {
					$total += $n;
				} elseif ( 0 === $relation ) {
					$edges[ $cell ] = $n;
				}
			}
			if ( array() === $edges ) {
				return $total;
			}
			if ( $level >= $finest || count( $edges ) > self::REFINE_CELLS || array_sum( $edges ) <= self::REFINE_PLACES ) {
				break;
			}
			$finer    = min( $finest, $level + self::REFINE );
			$occupied = $this->within( array_keys( $edges ), $level, $finer, $combos );
			$level    = $finer;
		}
		$places = Index_Schema::table( 'cairn_places' );
		$sql    = "SELECT COUNT(*) FROM {$places} p WHERE " . self::ranges_sql( 'p.code', Box_Cover::merge( array_keys( $edges ), 2 * ( Morton::LEVEL - $level ) ) )
			. ' AND ' . self::box_sql( $box ) . self::combo_sql( $combos, 'p.combo' );
		return $total + (int) $wpdb->get_var( $sql ); // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.DirectDatabaseQuery -- numbers only.
	}

	/**
	 * The occupied cells of a finer level within some cells: cell => places of these combinations.
	 *
	 * @param int[]      $cells  Cells of level $level.
	 * @param int        $level  Their level.
	 * @param int        $finer  The finer level (a level of Place_Index::CELL_LEVELS).
	 * @param int[]|null $combos Combination ids; null for all.
	 * @return array<int, int>
	 */
	private function within( array $cells, int $level, int $finer, ?array $combos ): array {
		global $wpdb;
		$table = Index_Schema::table( 'cairn_place_cells' );
		$sql   = $wpdb->prepare( "SELECT cell, SUM(n) FROM {$table} WHERE level = %d AND ", $finer ) // phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- a table name.
			. self::ranges_sql( 'cell', Box_Cover::merge( $cells, 2 * ( $finer - $level ) ) ) . self::combo_sql( $combos ) . ' GROUP BY cell';
		$found = array();
		foreach ( (array) $wpdb->get_results( $sql, ARRAY_N ) as $row ) { // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.DirectDatabaseQuery -- integers only.
			$found[ (int) $row[0] ] = (int) $row[1];
		}
		return $found;
	}

	/**
	 * The occupied cells over a box, at the level where about ACROSS of them span its longer side:
	 * the level, and cell => places of these combinations (cells of the covering tiles, some of
	 * them outside the box).
	 *
	 * @since 0.9.0
	 *
	 * @param float[]    $box    `[west, south, east, north]`, west ≤ east.
	 * @param int[]|null $combos Combination ids; null for all.
	 * @return array{0: int, 1: array<int, int>}
	 */
	public function occupied( array $box, ?array $combos ): array {
		global $wpdb;
		$level = Box_Cover::zoom_for( $box, self::ACROSS, min( Place_Index::CELL_LEVELS ), max( Place_Index::CELL_LEVELS ) );
		$cells = Index_Schema::table( 'cairn_place_cells' );
		$sql   = $wpdb->prepare( "SELECT cell, SUM(n) FROM {$cells} WHERE level = %d AND ", $level ) // phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- a table name.
			. self::ranges_sql( 'cell', Box_Cover::ranges( $box, max( 0, $level - 3 ), $level ) )
			. self::combo_sql( $combos ) . ' GROUP BY cell';
		$rows  = $wpdb->get_results( $sql, ARRAY_N ); // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.DirectDatabaseQuery -- integers only.
		$found = array();
		foreach ( is_array( $rows ) ? $rows : array() as $row ) {
			$found[ (int) $row[0] ] = (int) $row[1];
		}
		return array( $level, $found );
	}

	/**
	 * The bounds `[west, south, east, north]` of the places of these combinations, or null when
	 * there are none.
	 *
	 * @param int[]|null $combos Combination ids; null for all.
	 * @return float[]|null
	 */
	public function bounds( ?array $combos ): ?array {
		global $wpdb;
		$level = self::level_near( 6 );
		$table = Index_Schema::table( 'cairn_place_cells' );
		$sql   = $wpdb->prepare( "SELECT DISTINCT cell FROM {$table} WHERE level = %d", $level ) . self::combo_sql( $combos ); // phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- a table name.
		$cells = array_map( 'intval', (array) $wpdb->get_col( $sql ) ); // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.DirectDatabaseQuery -- integers only.
		if ( array() === $cells ) {
			return null;
		}
		return array(
			$this->extreme( $cells, $level, $combos, 0, false ),
			$this->extreme( $cells, $level, $combos, 1, true ),
			$this->extreme( $cells, $level, $combos, 0, true ),
			$this->extreme( $cells, $level, $combos, 1, false ),
		);
	}

	/**
	 * One side of the bounds: the outermost line of cells, narrowed to the finest level, then the
	 * extreme position among its places.
	 *
	 * @param int[]      $cells  Occupied cells of $level.
	 * @param int        $level  Their level.
	 * @param int[]|null $combos Combination ids; null for all.
	 * @param int        $axis   0: columns (longitude), 1: rows (latitude).
	 * @param bool       $high   Highest column / row (east, south) rather than lowest (west, north).
	 */
	private function extreme( array $cells, int $level, ?array $combos, int $axis, bool $high ): float {
		global $wpdb;
		$table = Index_Schema::table( 'cairn_place_cells' );
		$line  = self::outermost( $cells, $axis, $high );
		$max   = max( Place_Index::CELL_LEVELS );
		while ( $level < $max ) {
			$next  = self::level_near( min( $max, $level + self::STEP ) );
			$sql   = $wpdb->prepare( "SELECT DISTINCT cell FROM {$table} WHERE level = %d AND ", $next ) // phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- a table name.
				. self::ranges_sql( 'cell', Box_Cover::merge( $line, 2 * ( $next - $level ) ) ) . self::combo_sql( $combos );
			$found = array_map( 'intval', (array) $wpdb->get_col( $sql ) ); // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.DirectDatabaseQuery -- integers only.
			if ( array() === $found ) {
				break; // The aggregates lag behind (a rebuild): read the places of the line as it is.
			}
			$line  = self::outermost( $found, $axis, $high );
			$level = $next;
		}
		$column = 0 === $axis ? 'p.lng' : 'p.lat';
		// Rows run from north to south: the highest row holds the lowest latitude.
		$function = ( 0 === $axis ) === $high ? 'MAX' : 'MIN';
		$places   = Index_Schema::table( 'cairn_places' );
		$sql      = "SELECT {$function}({$column}) FROM {$places} p WHERE " . self::ranges_sql( 'p.code', Box_Cover::merge( $line, 2 * ( Morton::LEVEL - $level ) ) ) . self::combo_sql( $combos, 'p.combo' );
		return (float) $wpdb->get_var( $sql ); // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.DirectDatabaseQuery -- integers only.
	}

	/**
	 * The cells of the lowest or highest column (axis 0) or row (axis 1).
	 *
	 * @param int[] $cells Cells of one level (at least one).
	 * @param int   $axis  0 or 1.
	 * @param bool  $high  Highest rather than lowest.
	 * @return int[]
	 */
	private static function outermost( array $cells, int $axis, bool $high ): array {
		$by   = array();
		$edge = null;
		foreach ( $cells as $cell ) {
			$at          = Morton::tile_of( $cell )[ $axis ];
			$by[ $at ][] = $cell;
			$edge        = null === $edge || ( $high ? $at > $edge : $at < $edge ) ? $at : $edge;
		}
		return null === $edge ? array() : $by[ $edge ];
	}

	/**
	 * The kept level closest to $level.
	 *
	 * @param int $level A level.
	 */
	private static function level_near( int $level ): int {
		$best = min( Place_Index::CELL_LEVELS );
		foreach ( Place_Index::CELL_LEVELS as $kept ) {
			if ( abs( $kept - $level ) < abs( $best - $level ) ) {
				$best = $kept;
			}
		}
		return $best;
	}

	/**
	 * `(column BETWEEN a AND b OR …)` for inclusive integer ranges.
	 *
	 * @param string                            $column Column.
	 * @param array<int, array{0: int, 1: int}> $ranges Ranges.
	 */
	public static function ranges_sql( string $column, array $ranges ): string {
		if ( array() === $ranges ) {
			return '0 = 1';
		}
		$parts = array();
		foreach ( $ranges as list( $first, $last ) ) {
			$parts[] = $first === $last ? sprintf( '%s = %d', $column, $first ) : sprintf( '%s BETWEEN %d AND %d', $column, $first, $last );
		}
		return '(' . implode( ' OR ', $parts ) . ')';
	}

	/**
	 * ` AND column IN (…)` for a combination filter ('' for none).
	 *
	 * @param int[]|null $combos Combination ids; null for all.
	 * @param string     $column Column.
	 */
	public static function combo_sql( ?array $combos, string $column = 'combo' ): string {
		if ( null === $combos ) {
			return '';
		}
		return array() === $combos ? ' AND 0 = 1' : " AND {$column} IN (" . implode( ',', array_map( 'intval', $combos ) ) . ')';
	}

	/**
	 * The exact test of a box (west ≤ east) on `p.lat` and `p.lng`.
	 *
	 * @param float[] $box `[west, south, east, north]`.
	 */
	public static function box_sql( array $box ): string {
		return sprintf( 'p.lat BETWEEN %.12F AND %.12F AND p.lng BETWEEN %.12F AND %.12F', $box[1], $box[3], $box[0], $box[2] );
	}
}
