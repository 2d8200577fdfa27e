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
 * Up to the cluster max zoom a tile is clustered as supercluster clusters the whole map
 * (Cluster_Tree), over the tile and a margin around it (zone(): 3 × radius pixels, at most one
 * tile), and keeps the clusters whose position lies in the tile and the places of the tile that
 * no cluster took. Two neighbours cluster their common ground alike, so no two marks come
 * closer across a tile's edge than inside one, no cluster is in two tiles and no place is lost
 * between them. The margin means a tile depends on its neighbours' places too (Tile_Service's
 * key reads their stamps: a changed place touches the tiles whose zone holds it, one to four per
 * zoom).
 *
 * - Up to EXACT_PLACES places in the zone: the places themselves, in post-id order, clustered
 *   from the cluster max zoom down: supercluster's clusters, positions, counts and
 *   expansion zooms (tests/fixtures/cluster-vectors.json holds them).
 * - More: the zone's places counted per grid cell of level z + STAGES + cell depth (stored
 *   `cairn_place_cells` when only groups filter, else one GROUP BY over the zone's Morton
 *   ranges), the cells clustered from zoom z + STAGES down: marks as far apart, in about as
 *   many, and an expansion zoom no later than the cluster splits.
 *
 * Above the cluster max zoom every place of the tile is a point. At most `tiles.maxFeatures`
 * features: the fullest clusters, then points.
 *
 * A search (Place_Filter::words()) keeps the places where every query word starts a word of the
 * title (`cairn_place_words`, `word LIKE 'w%'`, a range of the primary key) or of one of the
 * place's group names (their combinations, found in PHP from the group names): computed per
 * request, never stored. Its clusters are counted from the driving word's rows alone
 * (Place_Search::word_rows(): one row a place, carrying its Morton code, position and
 * combination), so a broad prefix reads the rows of the places it matches, not every place of
 * the zone; the places of the groups a one-word search names come from the aggregates.
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
	 * Most places of a tile and its margin clustered from the places themselves, exactly as
	 * supercluster would; beyond, from grid cells (see the class comment).
	 */
	public const EXACT_PLACES = 12000;

	/**
	 * Zooms clustered above the tile's when the leaves are grid cells.
	 */
	public const STAGES = 2;

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
	 * The filter's terms, read once per tile.
	 *
	 * @var Search_Terms
	 */
	private Search_Terms $terms;

	/**
	 * A search's places as word rows (Place_Search::word_rows(), with the circle), for this tile.
	 *
	 * @var array{from: string, named: int[]}|null
	 */
	private ?array $words = null;

	/**
	 * Creates the builder.
	 *
	 * @param Place_Index $index The place index.
	 */
	public function __construct( Place_Index $index ) {
		$this->index = $index;
		$this->rows  = new Wpdb_Rows();
		$this->terms = new Search_Terms();
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
		$this->terms->forget();
		$where = $this->where( $filter );
		if ( null === $where ) {
			return self::collection( array() );
		}
		$range = Morton::tile_range( $z, $x, $y );
		if ( $z > $maxzoom ) {
			return self::collection( $this->points( array( $range ), $where, $this->max_features() ) );
		}
		$this->words = $this->word_rows( $filter );
		$stages      = min( $maxzoom, $z + self::STAGES );
		$level       = min( Morton::LEVEL, $stages + Grid_Clusters::cell_depth( $radius ) );
		$zone        = self::zone( $z, $x, $y, $radius );
		$cells       = $this->cells( $zone, $level, $filter, $where );
		$places      = 0;
		foreach ( $cells as $sums ) {
			$places += $sums[0];
		}
		if ( $places <= self::EXACT_PLACES ) {
			$nodes = Cluster_Tree::cluster( $this->leaves( $zone, $filter, $where ), $maxzoom, $z, $radius, Grid_Clusters::TILE_SIZE );
			$base  = Grid_Clusters::ID_BASE;
		} else {
			$nodes = array();
			foreach ( $cells as $cell => $sums ) {
				$nodes[] = array( Cluster_Tree::x( $sums[2] / $sums[0] ), Cluster_Tree::y( $sums[1] / $sums[0] ), $sums[0], $cell, $stages );
			}
			$nodes = Cluster_Tree::cluster( $nodes, $stages, $z, $radius, Grid_Clusters::TILE_SIZE );
			$base  = 2 * Grid_Clusters::ID_BASE;
		}
		return self::collection( $this->features( $nodes, $z, $x, $y, $maxzoom, $base, $places <= self::EXACT_PLACES ? null : $level, $where ) );
	}

	/**
	 * The tile's features from the clustered nodes: the clusters whose position lies in the tile
	 * (the fullest first), then its places.
	 *
	 * @param list<array{0: int, 1: int, 2: int, 3: int, 4: int}> $nodes   Nodes at zoom $z (Cluster_Tree).
	 * @param int                                                 $z       Zoom.
	 * @param int                                                 $x       Column.
	 * @param int                                                 $y       Row.
	 * @param int                                                 $maxzoom The last zoom with clusters.
	 * @param int                                                 $base    The clusters' first id.
	 * @param int|null                                            $level   The level of the leaf cells (null: the leaves are places).
	 * @param string                                              $where   The filter's SQL.
	 * @return string[]
	 */
	private function features( array $nodes, int $z, int $x, int $y, int $maxzoom, int $base, ?int $level, string $where ): array {
		$tile     = Morton::interleave( $x, $y );
		$clusters = array();
		$singles  = array();
		foreach ( $nodes as $node ) {
			if ( 1 === $node[2] ) {
				$singles[] = $node[3];
				continue;
			}
			$lat = round( Cluster_Tree::lat( $node[1] ), 5 );
			$lng = round( Cluster_Tree::lng( $node[0] ), 5 );
			if ( Morton::cell( Morton::code( $lat, $lng ), $z ) === $tile ) {
				$clusters[] = array(
					'id'        => $base + $node[3] * 32 + ( $node[4] & 31 ),
					'n'         => $node[2],
					'lat'       => $lat,
					'lng'       => $lng,
					'expansion' => min( $node[4] + 1, $maxzoom + 1 ),
				);
			}
		}
		usort(
			$clusters,
			static function ( array $a, array $b ): int {
				$by_size = $b['n'] <=> $a['n'];
				return 0 !== $by_size ? $by_size : $a['id'] <=> $b['id'];
			}
		);
		$features = array();
		foreach ( array_slice( $clusters, 0, $this->max_features() ) as $cluster ) {
			$features[] = self::cluster_json( $cluster, $cluster['expansion'] );
		}
		$room  = $this->max_features() - count( $features );
		$range = Morton::tile_range( $z, $x, $y );
		if ( null === $level ) {
			foreach ( array_chunk( $singles, 1000 ) as $chunk ) {
				if ( $room <= 0 ) {
					break;
				}
				$points   = $this->points( array( $range ), $where . ' AND p.post_id IN (' . implode( ',', array_map( 'intval', $chunk ) ) . ')', $room );
				$room    -= count( $points );
				$features = array_merge( $features, $points );
			}
			return $features;
		}
		$shift  = 2 * ( Morton::LEVEL - $level );
		$ranges = array();
		foreach ( $singles as $cell ) {
			$first = $cell << $shift;
			if ( $first >= $range[0] && $first <= $range[1] ) {
				$ranges[] = array( $first, $first + ( 1 << $shift ) - 1 );
			}
		}
		foreach ( array_chunk( array_slice( $ranges, 0, max( 0, $room ) ), 200 ) as $chunk ) {
			$features = array_merge( $features, $this->points( $chunk, $where, count( $chunk ) ) );
		}
		return $features;
	}

	/**
	 * The code ranges (at Morton::LEVEL) of the tile and its margin: `min(3 × radius, 512)`
	 * pixels of zoom $z on every side, as tiles of zoom $z + 2, clipped to the world.
	 *
	 * @param int $z      Zoom.
	 * @param int $x      Column.
	 * @param int $y      Row.
	 * @param int $radius Radius in pixels.
	 * @return array{0: int, 1: list<int>} The zoom of the covering tiles and their codes.
	 */
	private static function zone( int $z, int $x, int $y, int $radius ): array {
		$zoom   = min( Morton::LEVEL, $z + 2 );
		$scale  = 1 << ( $zoom - $z );
		$margin = min( 3 * $radius, Grid_Clusters::TILE_SIZE ) / Grid_Clusters::TILE_SIZE;
		$last   = ( 1 << $zoom ) - 1;
		$starts = array();
		$x_end  = min( $last, (int) floor( ( $x + 1 + $margin ) * $scale ) );
		$y_end  = min( $last, (int) floor( ( $y + 1 + $margin ) * $scale ) );
		for ( $tx = max( 0, (int) floor( ( $x - $margin ) * $scale ) ); $tx <= $x_end; $tx++ ) {
			for ( $ty = max( 0, (int) floor( ( $y - $margin ) * $scale ) ); $ty <= $y_end; $ty++ ) {
				$starts[] = Morton::interleave( $tx, $ty );
			}
		}
		sort( $starts );
		return array( $zoom, $starts );
	}

	/**
	 * The SQL test that `p.code` lies in a zone (its covering tiles merged into ranges).
	 *
	 * @param array{0: int, 1: list<int>} $zone The zone (zone()).
	 */
	private static function zone_sql( array $zone ): string {
		return Cell_Counts::ranges_sql( 'p.code', Box_Cover::merge( $zone[1], 2 * ( Morton::LEVEL - $zone[0] ) ) );
	}

	/**
	 * The places of a zone as Cluster_Tree leaves, in post-id order (the order supercluster is
	 * given the feed in).
	 *
	 * @param array{0: int, 1: list<int>} $zone   The zone (zone()).
	 * @param Place_Filter                $filter The filter.
	 * @param string                      $where  The filter's SQL.
	 * @return list<array{0: int, 1: int, 2: int, 3: int, 4: int}>
	 */
	private function leaves( array $zone, Place_Filter $filter, string $where ): array {
		$table = Index_Schema::table( 'cairn_places' );
		$sql   = self::zone_sql( $zone );
		if ( null === $this->words ) {
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.PreparedSQL.NotPrepared -- the plugin's own table; integers, the words prepared in where().
			$rows = (array) $this->rows->rows( "SELECT p.post_id, p.lat, p.lng FROM $table p WHERE $sql $where ORDER BY p.post_id" );
		} else {
			// A search: its titles' word rows, and the places of the groups it names.
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.NotPrepared -- built by Place_Search::from() (prepared) and of integers.
			$rows = (array) $this->rows->rows( 'SELECT p.post_id, p.lat, p.lng' . $this->words['from'] . " AND $sql" );
			if ( array() !== $this->words['named'] ) {
				// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.PreparedSQL.NotPrepared -- as above.
				$rows = array_merge( $rows, (array) $this->rows->rows( "SELECT p.post_id, p.lat, p.lng FROM $table p WHERE $sql" . $this->named_where( $filter ) ) );
			}
			usort( $rows, static fn( array $a, array $b ): int => (int) $a[0] <=> (int) $b[0] );
		}
		$nodes = array();
		foreach ( $rows as $row ) {
			$nodes[] = array( Cluster_Tree::x( (float) $row[2] ), Cluster_Tree::y( (float) $row[1] ), 1, (int) $row[0], -1 );
		}
		return $nodes;
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
	 * @param array{0: int, 1: list<int>} $zone   The zone (zone()).
	 * @param int                         $level  The cells' level (at least the zone's zoom).
	 * @param Place_Filter                $filter The filter.
	 * @param string                      $where  The filter's SQL over `p` (where()).
	 * @return array<int, array{0: int, 1: float, 2: float}>
	 */
	private function cells( array $zone, int $level, Place_Filter $filter, string $where ): array {
		if ( null === $this->words ) {
			return $this->cell_sums( $zone, $level, $filter->by_groups_only(), $where );
		}
		// A search: its titles' places from their word rows, one a place (no place is read), and
		// the places of groups its word names from the aggregates.
		global $wpdb;
		$ranges = self::zone_sql( $zone );
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.PreparedSQL.NotPrepared -- built by Place_Search::from() (prepared) and of integers.
		$rows  = $this->rows->rows( $wpdb->prepare( 'SELECT p.code >> %d AS cell, COUNT(*) AS n, SUM(p.lat) AS slat, SUM(p.lng) AS slng' . $this->words['from'] . " AND $ranges GROUP BY 1", 2 * ( Morton::LEVEL - $level ) ) );
		$cells = self::sums( $rows );
		if ( array() !== $this->words['named'] ) {
			$named = $this->cell_sums( $zone, $level, null === $filter->circle(), $this->named_where( $filter ) );
			foreach ( $named as $cell => $sums ) {
				$cells[ $cell ] = isset( $cells[ $cell ] ) ? array( $cells[ $cell ][0] + $sums[0], $cells[ $cell ][1] + $sums[1], $cells[ $cell ][2] + $sums[2] ) : $sums;
			}
		}
		return $cells;
	}

	/**
	 * Places per cell of the tile, over the places (or the stored aggregates when $aggregates
	 * and the level has them) passing SQL conditions.
	 *
	 * @param array{0: int, 1: list<int>} $zone       The zone (zone()).
	 * @param int                         $level      The cells' level.
	 * @param bool                        $aggregates Whether `cairn_place_cells` can answer ($where tests `p.combo` only).
	 * @param string                      $where      SQL conditions over `p`.
	 * @return array<int, array{0: int, 1: float, 2: float}>
	 */
	private function cell_sums( array $zone, int $level, bool $aggregates, string $where ): array {
		global $wpdb;
		$shift = 2 * ( Morton::LEVEL - $level );
		if ( $aggregates && in_array( $level, Place_Index::CELL_LEVELS, true ) ) {
			$table = Index_Schema::table( 'cairn_place_cells' );
			$sql   = Cell_Counts::ranges_sql( 'p.cell', Box_Cover::merge( $zone[1], 2 * ( $level - $zone[0] ) ) );
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own tables; $sql and $where are built from integers only.
			$rows = $this->rows->rows( $wpdb->prepare( "SELECT p.cell AS cell, SUM(p.n) AS n, SUM(p.sum_lat) AS slat, SUM(p.sum_lng) AS slng FROM $table p WHERE p.level = %d AND $sql $where GROUP BY p.cell", $level ) );
		} else {
			$table = Index_Schema::table( 'cairn_places' );
			$sql   = self::zone_sql( $zone );
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- as above; the words are prepared in where().
			$rows = $this->rows->rows( $wpdb->prepare( "SELECT p.code >> %d AS cell, COUNT(*) AS n, SUM(p.lat) AS slat, SUM(p.lng) AS slng FROM $table p WHERE $sql $where GROUP BY 1", $shift ) );
		}
		return self::sums( $rows );
	}

	/**
	 * Rows of cell, places, sum of latitudes, sum of longitudes as cell => [places, sums].
	 *
	 * @param array<int, array<int, mixed>>|null $rows Rows.
	 * @return array<int, array{0: int, 1: float, 2: float}>
	 */
	private static function sums( ?array $rows ): array {
		$cells = array();
		foreach ( (array) $rows as $row ) {
			if ( (int) $row[1] > 0 ) {
				$cells[ (int) $row[0] ] = array( (int) $row[1], (float) $row[2], (float) $row[3] );
			}
		}
		return $cells;
	}

	/**
	 * A search's places as word rows (Place_Search::word_rows()), the circle's test added; null
	 * when the search cannot be read from the words alone (or there is none).
	 *
	 * @param Place_Filter $filter The filter.
	 * @return array{from: string, named: int[]}|null
	 */
	private function word_rows( Place_Filter $filter ): ?array {
		$rows = ( new Place_Search( $this->terms ) )->word_rows( $filter );
		if ( null === $rows ) {
			return null;
		}
		$circle = $filter->circle();
		if ( null !== $circle ) {
			$rows['from'] .= ' AND ' . self::circle_sql( $circle );
		}
		return $rows;
	}

	/**
	 * The SQL conditions over `p` of the places a search passes by their groups' names (the
	 * circle's test included).
	 *
	 * @param Place_Filter $filter The filter.
	 */
	private function named_where( Place_Filter $filter ): string {
		$circle = $filter->circle();
		$named  = null === $this->words ? array() : $this->words['named'];
		return ' AND p.combo IN (' . implode( ',', array_map( 'intval', $named ) ) . ')' . ( null === $circle ? '' : ' AND ' . self::circle_sql( $circle ) );
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
		$sql   = '';
		$terms = $this->terms;
		$shown = $terms->passing( $filter );
		if ( array() === $shown ) {
			return null;
		}
		if ( null !== $shown ) {
			$hidden = array_diff( array_merge( array( 0 ), array_keys( $terms->combos() ) ), $shown );
			$sql   .= count( $shown ) <= count( $hidden ) ? ' AND p.combo IN (' . implode( ',', array_map( 'intval', $shown ) ) . ')' : ' AND p.combo NOT IN (' . implode( ',', array_map( 'intval', $hidden ) ) . ')';
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
	 * @param array{id: int, n: int, lat: float, lng: float, expansion: int} $cluster   The cluster.
	 * @param int                                                            $expansion Its expansion zoom.
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
			. ',"properties":{"groups":' . wp_json_encode( Place_Filter::groups_of( $groups ), JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE ) . ',"title":' . wp_json_encode( $title, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE ) . '}}';
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
