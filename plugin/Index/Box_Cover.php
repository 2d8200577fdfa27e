<?php
/**
 * Boxes of longitude and latitude as tiles of the Morton grid.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

/**
 * Turns a box `[west, south, east, north]` into the grid's terms: the tiles of a zoom that cover
 * it, as ranges of Morton codes (one B-tree range scan each), and whether a tile lies wholly inside
 * it (then its places can be counted from `cairn_place_cells` without reading them).
 *
 * Boxes here never cross the antimeridian: split() cuts one that does into two.
 *
 * @since 0.6.0
 */
final class Box_Cover {

	/**
	 * Slack in degrees when deciding that a tile is inside a box: positions at a tile's very edge may
	 * round into the tile beside it.
	 */
	private const EPSILON = 1e-9;

	/**
	 * The boxes of a box that may cross the antimeridian (west > east): one or two, each west ≤ east.
	 *
	 * @param float[] $bbox `[west, south, east, north]`.
	 * @return array<int, float[]>
	 */
	public static function split( array $bbox ): array {
		list( $west, $south, $east, $north ) = $bbox;
		if ( $west <= $east ) {
			return array( array( $west, $south, $east, $north ) );
		}
		return array( array( $west, $south, 180.0, $north ), array( -180.0, $south, $east, $north ) );
	}

	/**
	 * The columns and rows of the tiles of zoom $z that a box touches.
	 *
	 * @param float[] $box `[west, south, east, north]`, west ≤ east.
	 * @param int     $z   Zoom (0…Morton::LEVEL).
	 * @return array{0: int, 1: int, 2: int, 3: int} x from, x to, y from (north), y to (south).
	 */
	public static function tiles( array $box, int $z ): array {
		list( $west, $south, $east, $north ) = $box;
		// Widened a little: a position on a tile's edge may round into the tile beside it.
		$slack = 1e-7;
		return array( self::column( $west - $slack, $z ), self::column( $east + $slack, $z ), self::row( $north + $slack, $z ), self::row( $south - $slack, $z ) );
	}

	/**
	 * The zoom at which a box spans about $across tiles along its longer side, within $min…$max.
	 *
	 * @param float[] $box    `[west, south, east, north]`, west ≤ east.
	 * @param int     $across Tiles wanted along the longer side.
	 * @param int     $min    Lowest zoom.
	 * @param int     $max    Highest zoom.
	 */
	public static function zoom_for( array $box, int $across, int $min, int $max ): int {
		$zoom = $min;
		for ( $z = $min; $z <= $max; $z++ ) {
			list( $x0, $x1, $y0, $y1 ) = self::tiles( $box, $z );
			if ( max( $x1 - $x0, $y1 - $y0 ) + 1 > $across ) {
				break;
			}
			$zoom = $z;
		}
		return $zoom;
	}

	/**
	 * The inclusive ranges of cells of level $level (Morton::cell()) covering a box with tiles of
	 * zoom $z ≤ $level, merged where they touch.
	 *
	 * @param float[] $box   `[west, south, east, north]`, west ≤ east.
	 * @param int     $z     Zoom of the covering tiles.
	 * @param int     $level Level of the cells (Morton::LEVEL for codes).
	 * @return array<int, array{0: int, 1: int}>
	 */
	public static function ranges( array $box, int $z, int $level = Morton::LEVEL ): array {
		list( $x0, $x1, $y0, $y1 ) = self::tiles( $box, $z );
		$starts                    = array();
		for ( $x = $x0; $x <= $x1; $x++ ) {
			for ( $y = $y0; $y <= $y1; $y++ ) {
				$starts[] = Morton::interleave( $x, $y );
			}
		}
		return self::merge( $starts, 2 * ( $level - $z ) );
	}

	/**
	 * The ranges of cells of level $level holding these cells of a coarser level, merged.
	 *
	 * @param int[] $cells Cells of level $level - $shift / 2.
	 * @param int   $shift Twice the levels between.
	 * @return array<int, array{0: int, 1: int}>
	 */
	public static function merge( array $cells, int $shift ): array {
		sort( $cells );
		$ranges = array();
		$from   = null;
		$to     = 0;
		foreach ( $cells as $cell ) {
			$first = $cell << $shift;
			if ( null !== $from && $to + 1 === $first ) {
				$to = $first + ( 1 << $shift ) - 1;
				continue;
			}
			if ( null !== $from ) {
				$ranges[] = array( $from, $to );
			}
			$from = $first;
			$to   = $first + ( 1 << $shift ) - 1;
		}
		if ( null !== $from ) {
			$ranges[] = array( $from, $to );
		}
		return $ranges;
	}

	/**
	 * How a tile of zoom $z lies against a box: 1 wholly inside, 0 across its edge, -1 outside.
	 * The top and bottom rows reach the poles (positions beyond the Mercator limit are kept there).
	 *
	 * @param int     $x   Column.
	 * @param int     $y   Row.
	 * @param int     $z   Zoom.
	 * @param float[] $box `[west, south, east, north]`, west ≤ east.
	 */
	public static function relation( int $x, int $y, int $z, array $box ): int {
		list( $west, $south, $east, $north )         = $box;
		list( $lng0, $lat_south, $lng1, $lat_north ) = self::tile_box( $x, $y, $z );
		if ( $lng0 > $east || $lng1 < $west || $lat_south > $north || $lat_north < $south ) {
			return -1;
		}
		$inside = $lng0 - self::EPSILON >= $west && $lng1 + self::EPSILON <= $east
			&& $lat_south - self::EPSILON >= $south && $lat_north + self::EPSILON <= $north;
		return $inside ? 1 : 0;
	}

	/**
	 * The positions a tile of zoom $z holds, `[west, south, east, north]`: the top and bottom rows
	 * reach the poles (positions beyond the Mercator limit are kept there).
	 *
	 * @since 0.9.0
	 *
	 * @param int $x Column.
	 * @param int $y Row.
	 * @param int $z Zoom.
	 * @return float[]
	 */
	public static function tile_box( int $x, int $y, int $z ): array {
		$size = 1 << $z;
		return array(
			$x / $size * 360.0 - 180.0,
			$size - 1 === $y ? -90.0 : self::latitude( $y + 1, $z ),
			( $x + 1 ) / $size * 360.0 - 180.0,
			0 === $y ? 90.0 : self::latitude( $y, $z ),
		);
	}

	/**
	 * The latitude of the top edge of row $y at zoom $z.
	 *
	 * @param int $y Row.
	 * @param int $z Zoom.
	 */
	private static function latitude( int $y, int $z ): float {
		$n = M_PI - 2.0 * M_PI * $y / ( 1 << $z );
		return rad2deg( atan( sinh( $n ) ) );
	}

	/**
	 * The column of a longitude at zoom $z (as Morton::code()).
	 *
	 * @param float $lng Longitude.
	 * @param int   $z   Zoom.
	 */
	private static function column( float $lng, int $z ): int {
		$size = 1 << $z;
		return max( 0, min( $size - 1, (int) floor( ( max( -180.0, min( 180.0, $lng ) ) + 180.0 ) / 360.0 * $size ) ) );
	}

	/**
	 * The row of a latitude at zoom $z (as Morton::code(), clamped to the Mercator limit).
	 *
	 * @param float $lat Latitude.
	 * @param int   $z   Zoom.
	 */
	private static function row( float $lat, int $z ): int {
		$size = 1 << $z;
		$rad  = deg2rad( max( -Morton::MAX_LAT, min( Morton::MAX_LAT, $lat ) ) );
		return max( 0, min( $size - 1, (int) floor( ( 1.0 - log( tan( $rad ) + 1.0 / cos( $rad ) ) / M_PI ) / 2.0 * $size ) ) );
	}
}
