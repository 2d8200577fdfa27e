<?php
/**
 * The clusters and points of one tile, from the place index.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Wpdb_Rows;
use Cairn\Maps\Support\Limits;

/**
 * Builds the GeoJSON of tile z/x/y for a filter: clusters and points exactly as the runtime's
 * engine.ts makes them, so the map's layers, popups and panel read them alike.
 *
 * Up to the cluster max zoom, places are counted per grid cell (Grid_Clusters::cell_depth()): from
 * the stored per-cell counts (`cairn_place_cells`) when the grid level is a stored one and only
 * groups filter, else by one GROUP BY over the tile's range of Morton codes in `cairn_places` (one
 * index range scan). Grid_Clusters merges the cells; a cluster of one place is drawn as that
 * place. Above the cluster max zoom every place of the tile is a point. At most
 * `tiles.maxFeatures` features: the fullest clusters, or the first points in code order.
 *
 * A search (Place_Filter::words()) keeps the places where every query word starts a word of the
 * title (`cairn_place_words`, `word LIKE 'w%'`, a range of the primary key) or of one of the
 * place's group names (their combinations, found in PHP from the group names): computed per
 * request over the tile's places, never stored.
 *
 * A circle (Place_Filter::circle(), since 0.8.0) keeps the places of its bounding box
 * (Place_Search::circle_boxes()) whose distance, on a plane tangent at their mean latitude, is
 * within the radius: arithmetic only (SQLite has no trigonometry in SQL), the cosine of the mean
 * latitude expanded around the circle's centre. Against the list's exact great-circle distance
 * (Place_Search) it errs by about (radius / 6,371 km)² of the radius: under 2 cm at 1 km, 8 m at
 * 25 km, about 0.6 % at 500 km. Not meant for circles over a pole.
 *
 * @since 0.6.0
 */
final class Tile_Builder {

	/**
	 * The place index.
	 *
	 * @var Place_Index
	 */
	private Place_Index $index;

	/**
	 * The group combinations, read once per tile.
	 *
	 * @var array<int, string[]>|null
	 */
	private ?array $combos = null;

	/**
	 * Reads rows.
	 *
	 * @var Wpdb_Rows
	 */
	private Wpdb_Rows $rows;

	/**
	 * Creates the builder.
	 *
	 * @param Place_Index $index The place index.
	 */
	public function __construct( Place_Index $index ) {
		$this->index = $index;
		$this->rows  = new Wpdb_Rows();
	}

	/**
	 * The tile's GeoJSON FeatureCollection.
	 *
	 * @param int          $z       Zoom (0–17).
	 * @param int          $x       Column.
	 * @param int          $y       Row.
	 * @param int          $radius  Cluster radius in pixels.
	 * @param int          $maxzoom The last zoom with clusters.
	 * @param Place_Filter $filter  Which places.
	 */
	public function build( int $z, int $x, int $y, int $radius, int $maxzoom, Place_Filter $filter ): string {
		$this->combos = null;
		$where        = $this->where( $filter );
		if ( null === $where ) {
			return self::collection( array() );
		}
		$range = Morton::tile_range( $z, $x, $y );
		if ( $z > $maxzoom ) {
			return self::collection( $this->points( array( $range ), $where, $this->max_features() ) );
		}
		$level    = min( Morton::LEVEL, $z + Grid_Clusters::cell_depth( $radius ) );
		$cells    = $this->cells( $range, $level, $filter, $where );
		$clusters = array_slice( Grid_Clusters::merge( $cells, $z, $level, $radius ), 0, $this->max_features() );
		$features = array();
		$singles  = array();
		$shift    = 2 * ( Morton::LEVEL - $level );
		foreach ( $clusters as $cluster ) {
			if ( 1 === $cluster['n'] ) {
				$first     = $cluster['cells'][0] << $shift;
				$singles[] = array( $first, $first + ( 1 << $shift ) - 1 );
				continue;
			}
			$features[] = self::cluster_json( $cluster, min( $z + 1, $maxzoom + 1 ) );
		}
		foreach ( array_chunk( $singles, 200 ) as $ranges ) {
			$features = array_merge( $features, $this->points( $ranges, $where, count( $ranges ) ) );
		}
		return self::collection( $features );
	}

	/**
	 * The group combinations (id => slugs), read once per tile.
	 *
	 * @return array<int, string[]>
	 */
	private function combos(): array {
		$this->combos = $this->combos ?? $this->index->combos();
		return $this->combos;
	}

	/**
	 * Most features a tile holds.
	 */
	private function max_features(): int {
		return (int) Limits::get( 'tiles.maxFeatures' );
	}

	/**
	 * Places per cell of the tile: cell => [places, sum of latitudes, sum of longitudes].
	 *
	 * @param array{0: int, 1: int} $range  The tile's codes.
	 * @param int                   $level  The cells' level.
	 * @param Place_Filter          $filter The filter.
	 * @param string                $where  The filter's SQL over `p` (where()).
	 * @return array<int, array{0: int, 1: float, 2: float}>
	 */
	private function cells( array $range, int $level, Place_Filter $filter, string $where ): array {
		global $wpdb;
		$shift = 2 * ( Morton::LEVEL - $level );
		if ( $filter->by_groups_only() && in_array( $level, Place_Index::CELL_LEVELS, true ) ) {
			$table = Index_Schema::table( 'cairn_place_cells' );
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own tables; $where is built from integers only.
			$rows = $this->rows->rows( $wpdb->prepare( "SELECT p.cell AS cell, SUM(p.n) AS n, SUM(p.sum_lat) AS slat, SUM(p.sum_lng) AS slng FROM $table p WHERE p.level = %d AND p.cell BETWEEN %d AND %d $where GROUP BY p.cell", $level, $range[0] >> $shift, $range[1] >> $shift ) );
		} else {
			$table = Index_Schema::table( 'cairn_places' );
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- as above; the words are prepared in where().
			$rows = $this->rows->rows( $wpdb->prepare( "SELECT p.code >> %d AS cell, COUNT(*) AS n, SUM(p.lat) AS slat, SUM(p.lng) AS slng FROM $table p WHERE p.code BETWEEN %d AND %d $where GROUP BY 1", $shift, $range[0], $range[1] ) );
		}
		$cells = array();
		foreach ( (array) $rows as $row ) {
			if ( (int) $row[1] > 0 ) {
				$cells[ (int) $row[0] ] = array( (int) $row[1], (float) $row[2], (float) $row[3] );
			}
		}
		return $cells;
	}

	/**
	 * Point features of the places in these code ranges, in code order.
	 *
	 * @param array<int, array{0: int, 1: int}> $ranges Inclusive code ranges.
	 * @param string                            $where  The filter's SQL over `p`.
	 * @param int                               $limit  Most points.
	 * @return string[] Features as JSON.
	 */
	private function points( array $ranges, string $where, int $limit ): array {
		global $wpdb;
		$or = array();
		foreach ( $ranges as $range ) {
			$or[] = sprintf( '(p.code BETWEEN %d AND %d)', $range[0], $range[1] );
		}
		$table = Index_Schema::table( 'cairn_places' );
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.PreparedSQL.NotPrepared -- the plugin's own table; ranges and limit are integers, the words prepared in where().
		$rows   = $this->rows->rows( "SELECT p.post_id, p.lat, p.lng, p.combo, p.title FROM $table p WHERE (" . implode( ' OR ', $or ) . ") $where ORDER BY p.code, p.post_id LIMIT " . (int) $limit );
		$combos = $this->combos();
		$out    = array();
		foreach ( (array) $rows as $row ) {
			$out[] = self::point_json( (int) $row[0], (float) $row[1], (float) $row[2], $combos[ (int) $row[3] ] ?? array(), (string) $row[4] );
		}
		return $out;
	}

	/**
	 * The filter as SQL conditions over the places (`p`, with `p.combo`, and `p.post_id` when
	 * searching): '' for none, null when nothing can pass.
	 *
	 * @param Place_Filter $filter The filter.
	 */
	private function where( Place_Filter $filter ): ?string {
		$sql = '';
		if ( ! $filter->shows_every_combo() ) {
			$shown  = $filter->shows_ungrouped() ? array( 0 ) : array();
			$hidden = $filter->shows_ungrouped() ? array() : array( 0 );
			foreach ( $this->combos() as $id => $slugs ) {
				if ( $filter->shows_combo( $slugs ) ) {
					$shown[] = $id;
				} else {
					$hidden[] = $id;
				}
			}
			if ( array() === $shown ) {
				return null;
			}
			$sql .= count( $shown ) <= count( $hidden ) ? ' AND p.combo IN (' . implode( ',', array_map( 'intval', $shown ) ) . ')' : ' AND p.combo NOT IN (' . implode( ',', array_map( 'intval', $hidden ) ) . ')';
		}
		$circle = $filter->circle();
		if ( null !== $circle ) {
			$sql .= ' AND ' . self::circle_sql( $circle );
		}
		if ( $filter->by_groups_only() || array() === $filter->words() ) {
			return $sql;
		}
		global $wpdb;
		$words = Index_Schema::table( 'cairn_place_words' );
		$terms = new Search_Terms();
		foreach ( $filter->words() as $word ) {
			$named    = $terms->named( $word );
			$by_group = array() === $named ? '' : ' OR p.combo IN (' . implode( ',', array_map( 'intval', $named ) ) . ')';
			// phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
			$sql .= $wpdb->prepare( " AND (p.post_id IN (SELECT w.post_id FROM $words w WHERE w.word LIKE %s)$by_group)", $wpdb->esc_like( $word ) . '%' );
		}
		return $sql;
	}

	/**
	 * The test that a place (`p`) lies within a circle: its bounding box, then the distance on the
	 * plane tangent at the mean latitude (see the class comment), in arithmetic only.
	 *
	 * @since 0.8.0
	 *
	 * @param array{0: float, 1: float, 2: int} $circle [lng, lat, metres].
	 */
	private static function circle_sql( array $circle ): string {
		list( $lng, $lat, $metres ) = $circle;
		$boxes                      = array();
		foreach ( Place_Search::circle_boxes( $circle ) as $box ) {
			$boxes[] = '(' . Cell_Counts::box_sql( $box ) . ')';
		}
		$d_lat = sprintf( '(p.lat - %.12F)', $lat );
		$raw   = sprintf( '(p.lng - %.12F)', $lng );
		$d_lng = "(CASE WHEN {$raw} > 180 THEN {$raw} - 360 WHEN {$raw} < -180 THEN {$raw} + 360 ELSE {$raw} END)";
		// cos(lat + h) ≈ cos(lat)(1 − h²/2) − sin(lat)·h, h the half difference in radians.
		$half   = sprintf( '(%s * %.15F)', $d_lat, M_PI / 360 );
		$cosine = sprintf( '(%1$.15F - %2$.15F * %3$s * %3$s - %4$.15F * %3$s)', cos( deg2rad( $lat ) ), cos( deg2rad( $lat ) ) / 2, $half, sin( deg2rad( $lat ) ) );
		$angle  = $metres / Place_Search::METRES_PER_DEGREE;
		return sprintf( '(%1$s) AND (%2$s * %2$s + %3$s * %3$s * %4$s * %4$s <= %5$.15F)', implode( ' OR ', $boxes ), $d_lat, $d_lng, $cosine, $angle * $angle );
	}

	/**
	 * A FeatureCollection of features given as JSON.
	 *
	 * @param string[] $features Features.
	 */
	private static function collection( array $features ): string {
		return '{"type":"FeatureCollection","features":[' . implode( ',', $features ) . ']}';
	}

	/**
	 * A cluster as engine.ts makes one (with its expansion zoom).
	 *
	 * @param array{id: int, n: int, lat: float, lng: float} $cluster   The cluster.
	 * @param int                                            $expansion Its expansion zoom.
	 */
	private static function cluster_json( array $cluster, int $expansion ): string {
		$count = $cluster['n'];
		return '{"type":"Feature","id":' . $cluster['id']
			. ',"geometry":{"type":"Point","coordinates":[' . self::number( $cluster['lng'] ) . ',' . self::number( $cluster['lat'] ) . ']}'
			. ',"properties":{"cluster":true,"cluster_id":' . $cluster['id'] . ',"point_count":' . $count
			. ',"point_count_abbreviated":' . wp_json_encode( self::abbreviate( $count ) ) . ',"expansion_zoom":' . $expansion . '}}';
	}

	/**
	 * A place as the markers feed gives it.
	 *
	 * @param int      $id     Post id.
	 * @param float    $lat    Latitude.
	 * @param float    $lng    Longitude.
	 * @param string[] $groups Group slugs.
	 * @param string   $title  Plain title.
	 */
	private static function point_json( int $id, float $lat, float $lng, array $groups, string $title ): string {
		return '{"type":"Feature","id":' . $id
			. ',"geometry":{"type":"Point","coordinates":[' . self::number( $lng ) . ',' . self::number( $lat ) . ']}'
			. ',"properties":{"groups":' . wp_json_encode( array_values( $groups ), JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE ) . ',"title":' . wp_json_encode( $title, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE ) . '}}';
	}

	/**
	 * A count as engine.ts abbreviate() shows it: 1234 → "1.2k", 12345 → "12k".
	 *
	 * @param int $count Places.
	 * @return int|string
	 */
	public static function abbreviate( int $count ) {
		if ( $count >= 10000 ) {
			return round( $count / 1000 ) . 'k';
		}
		if ( $count >= 1000 ) {
			$tenths = round( $count / 100 ) / 10;
			return ( floor( $tenths ) === $tenths ? (string) (int) $tenths : (string) $tenths ) . 'k';
		}
		return $count;
	}

	/**
	 * A coordinate at the feed's precision (5 decimals), shortest form.
	 *
	 * @param float $value Degrees.
	 */
	private static function number( float $value ): string {
		$text = rtrim( rtrim( number_format( $value, 5, '.', '' ), '0' ), '.' );
		return '-0' === $text || '' === $text ? '0' : $text;
	}
}
