<?php
/**
 * The places panel's questions, answered from the place index.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Wpdb_Rows;
use Cairn\Maps\Support\Limits;

/**
 * Answers what the places panel of a tiled map asks (packages/map/src/places/engine.ts: load,
 * setFilter, list), over the index tables (Place_Index): the selection's totals per group, the
 * places passing a filter (hidden groups, a search) with their count and bounds, and one page of
 * them, in a box or not, by title or by distance.
 *
 * Search matches word prefixes: every query word must start a word of the title
 * (`cairn_place_words`) or of the name of one of the place's groups (Search_Terms), accents and
 * case folded, as on the whole-feed path of small maps (places/words.ts; Place_Words).
 *
 * A search's count stops at `search.maxCount` (10,000): beyond, the answer says that many and
 * `capped` (the panel shows "10,000+"), and its bounds are the selection's (from the aggregates),
 * so that a broad prefix reads at most about twice that many rows, not every place it starts.
 *
 * How it stays fast at a million places, each answer reading a bounded part of the index:
 * - counts without a search come from the grid's aggregates (Cell_Counts): totals, bounds, places
 *   in a box (reading only the places along its edge);
 * - a search is driven by its rarest title word (a range of `cairn_place_words`), the other words
 *   checked per candidate; a one-word search that also names groups adds those groups' places
 *   from the aggregates; only a search whose every word names a group reads all places;
 * - a page by title walks the `sort_key` index when matches are dense, sorts the candidates when
 *   they are few (the box's Morton ranges, or the driving word's places);
 * - distance order is exact (PHP) over at most 2 × NEAR_EXACT candidates: all of them, or those
 *   in a square around the origin grown until it holds the page; deeper or denser, a flat-earth
 *   order in SQL.
 *
 * A circle (`near` with `radius`, since 0.8.0) keeps the places within that great-circle
 * distance: served by the `code_combo` key of `cairn_places` — the circle's bounding box (exact:
 * every position within the angle, across the antimeridian and over a pole) read as the Morton
 * code ranges of a few tiles covering it, plus the box's test on `lat`/`lng` — then the exact
 * haversine distance of each candidate in PHP (SQLite, the embedded default, has no
 * trigonometry in SQL). Without a search word (since 0.9.0) the count and bounds come from the
 * grid's aggregates: the cells wholly within the circle count, only the places of the cells
 * across its edge are read (circle_matches()); a page is the nearest of the circle's box, from a
 * square grown around the centre until it holds the page (exact_page()), or, for a page too
 * deep, from every place within. So a radius answers in time proportional to the places along
 * its edge and before its page, whatever the index's size; the list is always in exact
 * distance order, and its count and bounds exact.
 *
 * Filters come validated and canonical (Rest\Search_Params): `groups`, `hidden`, `q`, `circle`
 * ([lng, lat, metres], optional); a list query `bbox`, `near`, `page` (1-based), `per_page`,
 * `include`.
 *
 * @since 0.6.0
 */
class Place_Search {

	/**
	 * Up to this many candidates, distance order is exact (computed in PHP); above, the database
	 * orders by a flat-earth approximation around the origin.
	 */
	public const NEAR_EXACT = 5000;

	/**
	 * Title words of a search word are counted up to this many when choosing the rarest word to
	 * drive a query (beyond, any of the common ones does: the others are looked up by id).
	 */
	public const SPARSE = 2000;

	/**
	 * Mean Earth radius in metres (as engine.ts).
	 */
	private const EARTH_RADIUS = 6371008.8;

	/**
	 * The filter's terms.
	 *
	 * @var Search_Terms
	 */
	private Search_Terms $terms;

	/**
	 * The grid's aggregates.
	 *
	 * @var Cell_Counts
	 */
	private Cell_Counts $cells;

	/**
	 * Candidates ordered exactly by distance (NEAR_EXACT; smaller in tests).
	 *
	 * @var int
	 */
	private int $near_exact;

	/**
	 * Title words a search word may start and still be read word by word in title order.
	 */
	private const SPELLINGS = 8;

	/**
	 * Creates the search.
	 *
	 * @param Search_Terms|null $terms      The filter's terms.
	 * @param Cell_Counts|null  $cells      The grid's aggregates.
	 * @param int               $near_exact Candidates ordered exactly by distance.
	 */
	public function __construct( ?Search_Terms $terms = null, ?Cell_Counts $cells = null, int $near_exact = self::NEAR_EXACT ) {
		$this->terms      = $terms ?? new Search_Terms();
		$this->cells      = $cells ?? new Cell_Counts();
		$this->near_exact = max( 1, $near_exact );
	}

	/**
	 * The selection's totals, the places passing the filter, their bounds.
	 *
	 * @param Place_Filter $filter The filter.
	 * @return array{total: int, groups: object, matches: int, capped: bool, bounds: float[]|null} `groups`: places per slug (an object, so that none is `{}` in JSON); `capped`: a search's `matches` stopped at cap().
	 */
	public function summary( Place_Filter $filter ): array {
		$this->terms->forget();
		$this->cells->forget();
		$selection = $this->terms->selection( $filter );
		$combos    = $this->terms->combos();
		$total     = 0;
		$groups    = array();
		foreach ( $this->cells->by_combo() as $combo => $n ) {
			if ( null !== $selection && ! in_array( $combo, $selection, true ) ) {
				continue;
			}
			$total += $n;
			foreach ( Place_Filter::groups_of( $combos[ $combo ] ?? array() ) as $slug ) {
				$groups[ $slug ] = ( $groups[ $slug ] ?? 0 ) + $n;
			}
		}
		ksort( $groups );
		$match  = $this->match( $filter );
		$circle = $filter->circle();
		if ( null !== $circle ) {
			list( $matches, $bounds ) = $this->circle_matches( $match, null, $circle );
			return array(
				'total'   => $total,
				'groups'  => (object) $groups,
				'matches' => $matches,
				'capped'  => false,
				'bounds'  => $bounds,
			);
		}
		list( $matches, $bounds ) = $this->matches( $match );
		$capped                   = null !== $match && array() !== $match->words && $matches > self::cap();
		if ( $capped ) {
			$matches = self::cap();
			$bounds  = $this->cells->bounds( $match->combos );
		}
		return array(
			'total'   => $total,
			'groups'  => (object) $groups,
			'matches' => $matches,
			'capped'  => $capped,
			'bounds'  => $bounds,
		);
	}

	/**
	 * One page of the places passing the filter, in the box when given, by folded title then id or
	 * by distance from `near`.
	 *
	 * @param Place_Filter                                                                          $filter The filter.
	 * @param array{bbox: float[]|null, near: float[]|null, page: int, per_page: int, include: int} $query  The list query.
	 * @return array{total: int, capped: bool, page: int, pages: int, items: array<int, array<string, mixed>>}
	 */
	public function list( Place_Filter $filter, array $query ): array {
		$this->terms->forget();
		$this->cells->forget();
		if ( $query['include'] > 0 ) {
			return $this->one( $filter, $query['include'] );
		}
		$match  = $this->match( $filter );
		$circle = $filter->circle();
		if ( null !== $circle ) {
			return $this->circle_page( $match, $query, $circle );
		}
		$boxes    = null === $query['bbox'] ? null : Box_Cover::split( $query['bbox'] );
		$total    = null === $match ? 0 : $this->count( $match, $boxes );
		$capped   = null !== $match && array() !== $match->words && $total > self::cap();
		$total    = $capped ? self::cap() : $total;
		$per_page = $query['per_page'];
		$pages    = max( 1, (int) ceil( $total / $per_page ) );
		$items    = array();
		if ( null !== $match && $total > 0 && $query['page'] <= $pages ) {
			$offset = ( $query['page'] - 1 ) * $per_page;
			$items  = null === $query['near']
				? $this->by_title( $match, $boxes, $total, $offset, $per_page )
				: $this->by_distance( $match, $boxes, $total, $query['near'], $offset, $per_page );
		}
		return array(
			'total'  => $total,
			'capped' => $capped,
			'page'   => $query['page'],
			'pages'  => $pages,
			'items'  => $items,
		);
	}

	/**
	 * Where a search's count stops (`search.maxCount`): a count above it is reported as it.
	 */
	public static function cap(): int {
		return (int) Limits::get( 'search.maxCount' );
	}

	/**
	 * The list with one place (deep links): the place when it is in the selection, whatever the
	 * filter (the panel reveals it as the whole-feed engine does).
	 *
	 * @param Place_Filter $filter The filter.
	 * @param int          $id     Post id.
	 * @return array{total: int, capped: bool, page: int, pages: int, items: array<int, array<string, mixed>>}
	 */
	private function one( Place_Filter $filter, int $id ): array {
		$selection = $this->terms->selection( $filter );
		$items     = array();
		if ( array() !== $selection ) {
			$sql   = $this->from( new Place_Match( $selection, array(), array() ), null ) . sprintf( ' AND p.post_id = %d', $id );
			$items = $this->items( 'SELECT ' . self::COLUMNS . $sql );
		}
		return array(
			'total'  => count( $items ),
			'capped' => false,
			'page'   => 1,
			'pages'  => 1,
			'items'  => $items,
		);
	}

	/**
	 * Columns of a list item.
	 */
	private const COLUMNS = 'p.post_id, p.title, p.lng, p.lat, p.combo';

	/**
	 * The filter in the index's terms, or null when nothing can pass it.
	 *
	 * @param Place_Filter $filter The filter.
	 */
	private function match( Place_Filter $filter ): ?Place_Match {
		$combos = $this->terms->passing( $filter );
		$words  = $this->terms->words( $filter->words() );
		if ( array() === $combos ) {
			return null;
		}
		$match = new Place_Match( $combos, array(), $words );
		// The rarest word without group names drives (its places are the candidates); a lone word
		// naming groups drives the titles part of its split (Place_Match::split_named()).
		$best     = null;
		$eligible = array_filter(
			$words,
			static function ( array $word ) use ( $words ): bool {
				return array() === $word['named'] || 1 === count( $words );
			}
		);
		foreach ( $eligible as $index => $word ) {
			// One candidate word needs no estimate: its places are then counted exactly anyway.
			$estimate = count( $eligible ) > 1 ? $this->estimate( $word['like'] ) : null;
			if ( null === $match->driver || ( null !== $best && null !== $estimate && $estimate < $best ) ) {
				$best          = $estimate;
				$match->driver = array() === $word['named'] ? $index : null;
			}
		}
		$match->estimate = $best;
		return $match;
	}

	/**
	 * A search's places as rows of the words table alone, one a place (the tiles of a search,
	 * Tile_Builder): ` FROM … WHERE …` over `p` (word rows: `post_id`, `code`, `lat`, `lng`,
	 * `combo`) of the places whose titles pass, and the combinations that pass by a group's name
	 * instead (a one-word search naming groups: their places are not in `from`). Null when the
	 * filter has no search word, or no word to drive it (every word names groups).
	 *
	 * @param Place_Filter $filter The filter.
	 * @return array{from: string, named: int[]}|null
	 */
	public function word_rows( Place_Filter $filter ): ?array {
		if ( array() === $filter->words() ) {
			return null;
		}
		$match = $this->match( $filter );
		if ( null === $match ) {
			return null;
		}
		$split = $match->split_named();
		$named = array();
		if ( null !== $split ) {
			$match = $split['titles'];
			$named = (array) $split['named']->combos;
		}
		if ( null === $match->driver ) {
			return null;
		}
		$spellings = $this->spellings( $match->words[ $match->driver ]['like'] );
		if ( null !== $spellings ) {
			$match->words[ $match->driver ]['spellings'] = $spellings;
		}
		return array(
			'from'  => $this->from( $match, null, false, true ),
			'named' => $named,
		);
	}

	/**
	 * How many title words a LIKE pattern matches, counted up to SPARSE + 1.
	 *
	 * @param string $like LIKE pattern.
	 */
	private function estimate( string $like ): int {
		global $wpdb;
		$words = Index_Schema::table( 'cairn_place_words' );
		// phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.DirectDatabaseQuery -- a table name.
		return (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM (SELECT 1 FROM {$words} WHERE word LIKE %s LIMIT %d) t", $like, self::SPARSE + 1 ) );
	}

	/**
	 * How many places pass, in the boxes when given.
	 *
	 * @param Place_Match              $match The filter.
	 * @param array<int, float[]>|null $boxes Boxes (west ≤ east), or null.
	 */
	private function count( Place_Match $match, ?array $boxes ): int {
		if ( array() === $match->words ) {
			return $this->cell_count( $match->combos, $boxes );
		}
		$split = $match->split_named();
		if ( null !== $split ) {
			// A word naming groups: their places (aggregates) and the other titles it starts.
			return $this->cell_count( $split['named']->combos, $boxes ) + $this->sql_count( $split['titles'], $boxes );
		}
		return $this->sql_count( $match, $boxes );
	}

	/**
	 * Places of combinations from the aggregates.
	 *
	 * @param int[]|null               $combos Combination ids; null for all.
	 * @param array<int, float[]>|null $boxes  Boxes, or null.
	 */
	private function cell_count( ?array $combos, ?array $boxes ): int {
		if ( array() === $combos ) {
			return 0;
		}
		if ( null === $boxes ) {
			return $this->cells->total( $combos );
		}
		$count = 0;
		foreach ( $boxes as $box ) {
			$count += $this->cells->in_box( $box, $combos );
		}
		return $count;
	}

	/**
	 * Places passing, counted in SQL up to cap() + 1.
	 *
	 * @param Place_Match              $match The filter.
	 * @param array<int, float[]>|null $boxes Boxes, or null.
	 */
	private function sql_count( Place_Match $match, ?array $boxes ): int {
		return $this->capped( $match, $boxes )[0];
	}

	/**
	 * How many places pass, and their bounds (null when none).
	 *
	 * @param Place_Match|null $match The filter, or null when nothing passes.
	 * @return array{0: int, 1: float[]|null}
	 */
	private function matches( ?Place_Match $match ): array {
		if ( null === $match ) {
			return array( 0, null );
		}
		if ( array() === $match->words ) {
			return array( $this->cells->total( $match->combos ), $this->cells->bounds( $match->combos ) );
		}
		$split = $match->split_named();
		if ( null === $split ) {
			return $this->sql_matches( $match );
		}
		list( $count, $titles ) = $this->sql_matches( $split['titles'] );
		$named                  = $split['named']->combos;
		if ( array() === $named ) {
			return array( $count, $titles );
		}
		$bounds = $this->cells->bounds( $named );
		if ( null !== $bounds && null !== $titles ) {
			$bounds = array( min( $bounds[0], $titles[0] ), min( $bounds[1], $titles[1] ), max( $bounds[2], $titles[2] ), max( $bounds[3], $titles[3] ) );
		}
		return array( $count + $this->cells->total( $named ), $bounds ?? $titles );
	}

	/**
	 * How many places pass (up to cap() + 1), and their bounds.
	 *
	 * @param Place_Match $match The filter.
	 * @return array{0: int, 1: float[]|null}
	 */
	private function sql_matches( Place_Match $match ): array {
		return $this->capped( $match, null );
	}

	/**
	 * How many places pass, and their bounds, reading a bounded number of rows: the first rows of
	 * the driving word's join (streamed, no temporary table) up to a quarter more than cap(). When
	 * they run out first, the answer is exact; when they hold more than cap() places, the count
	 * is cap() + 1 (capped, and the caller gives the selection's bounds); only when duplicates
	 * (titles with several words the search word starts) leave it unsure is every row read.
	 *
	 * @param Place_Match              $match The filter.
	 * @param array<int, float[]>|null $boxes Boxes, or null.
	 * @return array{0: int, 1: float[]|null} Places (at most cap() + 1) and their bounds.
	 */
	private function capped( Place_Match $match, ?array $boxes ): array {
		if ( array() === $match->combos ) {
			return array( 0, null );
		}
		$cap  = self::cap();
		$rows = (int) ceil( 1.25 * ( $cap + 1 ) );
		$row  = $this->count_row( $this->from( $match, $boxes, false, true ), ' LIMIT ' . $rows );
		if ( (int) $row[1] >= $rows && (int) $row[0] <= $cap ) {
			$row = $this->count_row( $this->from( $match, $boxes ), '' );
		}
		$count = min( (int) $row[0], $cap + 1 );
		if ( 0 === $count ) {
			return array( 0, null );
		}
		return array( $count, array( (float) $row[2], (float) $row[3], (float) $row[4], (float) $row[5] ) );
	}

	/**
	 * Distinct places, rows, and their bounds, of ` FROM …` (from()) up to a limit.
	 *
	 * @param string $from  ` FROM … WHERE …`.
	 * @param string $limit ` LIMIT n`, or ''.
	 * @return array<int, mixed> [places, rows, west, south, east, north].
	 */
	private function count_row( string $from, string $limit ): array {
		global $wpdb;
		$row = $wpdb->get_row( 'SELECT COUNT(DISTINCT t.post_id), COUNT(*), MIN(t.lng), MIN(t.lat), MAX(t.lng), MAX(t.lat) FROM (SELECT p.post_id, p.lng, p.lat' . $from . $limit . ') t', ARRAY_N ); // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.DirectDatabaseQuery -- built by from().
		return is_array( $row ) ? $row : array( 0, 0, null, null, null, null );
	}

	/**
	 * One page by folded title, then id.
	 *
	 * @param Place_Match              $match  The filter.
	 * @param array<int, float[]>|null $boxes  Boxes, or null.
	 * @param int                      $total  How many pass.
	 * @param int                      $offset Places skipped.
	 * @param int                      $limit  Places a page.
	 * @return array<int, array<string, mixed>>
	 */
	private function by_title( Place_Match $match, ?array $boxes, int $total, int $offset, int $limit ): array {
		global $wpdb;
		$order = ' ORDER BY p.sort_key, p.post_id';
		$split = $match->split_named();
		$parts = null !== $split && array() !== $split['named']->combos ? array( $split['named'], $split['titles'] ) : array( $match );
		if ( 1 === count( $parts ) && null === $match->driver ) {
			$walk = $this->walks( $match, $boxes, $total, $offset + $limit );
			return $this->items( 'SELECT ' . self::COLUMNS . $this->from( $match, $boxes, $walk ) . $order . sprintf( ' LIMIT %d OFFSET %d', $limit, $offset ) );
		}
		// A word's rows hold a place once per word of its title the search word starts: rows up
		// to the page's end, fewer places after duplicates are dropped, more rows then.
		$needed = $offset + $limit;
		$fetch  = $needed;
		do {
			$window = sprintf( ' LIMIT %d', $fetch );
			if ( 1 === count( $parts ) ) {
				$sql = $this->title_run( $match, $boxes, $total, $needed, $window );
			} else {
				// Two sorted runs, each cut at the page's end, then merged by the database.
				$sql = 'SELECT p.post_id, p.sort_key FROM (SELECT * FROM (' . $this->title_run( $parts[0], $boxes, $total, $needed, $window ) . ') a UNION ALL SELECT * FROM (' . $this->title_run( $parts[1], $boxes, $total, $needed, $window ) . ') b) p' . $order . $window;
			}
			$rows   = array_map( 'intval', (array) $wpdb->get_col( $sql ) ); // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.DirectDatabaseQuery -- built by from().
			$ids    = array_values( array_unique( $rows ) );
			$more   = count( $ids ) < $needed && count( $rows ) >= $fetch;
			$fetch *= 2;
		} while ( $more );
		return $this->items_of( array_slice( $ids, $offset, $limit ) );
	}

	/**
	 * The SELECT of one sorted run of a page: ids and title keys. A run with a driving word sorts
	 * that word's own rows (clustered by word, so a word's places are read in one range and none
	 * is joined; a place may come more than once); a run without one sorts its candidates or walks
	 * the title index (walks()).
	 *
	 * @param Place_Match              $part   The run's filter.
	 * @param array<int, float[]>|null $boxes  Boxes, or null.
	 * @param int                      $total  How many pass the whole filter.
	 * @param int                      $needed Places up to the page's end.
	 * @param string                   $window ` LIMIT …`.
	 */
	private function title_run( Place_Match $part, ?array $boxes, int $total, int $needed, string $window ): string {
		$order = ' ORDER BY p.sort_key, p.post_id';
		if ( null === $part->driver ) {
			return 'SELECT p.post_id, p.sort_key' . $this->from( $part, $boxes, $this->walks( $part, $boxes, $total, $needed ) ) . $order . $window;
		}
		$words = $this->spellings( $part->words[ $part->driver ]['like'] );
		if ( null === $words ) {
			return 'SELECT p.post_id, p.sort_key' . $this->from( $part, $boxes, false, true ) . $order . $window;
		}
		// A few words start with it: each word's rows in title order (the words' word_sort key),
		// read until the run is full, then merged.
		$runs = array();
		foreach ( $words as $index => $word ) {
			$one                                   = clone $part;
			$one->words[ $part->driver ]['equals'] = $word;
			$runs[]                                = 'SELECT * FROM (SELECT p.post_id, p.sort_key' . $this->from( $one, $boxes, false, true ) . $order . $window . ") r{$index}";
		}
		return 1 === count( $runs ) ? $runs[0] : 'SELECT p.post_id, p.sort_key FROM (' . implode( ' UNION ALL ', $runs ) . ') p' . $order . $window;
	}

	/**
	 * The distinct title words a LIKE pattern matches, when there are at most SPELLINGS of them;
	 * null when there are more (or none).
	 *
	 * @param string $like LIKE pattern.
	 * @return string[]|null
	 */
	private function spellings( string $like ): ?array {
		global $wpdb;
		$table = Index_Schema::table( 'cairn_place_words' );
		// phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.DirectDatabaseQuery -- a table name.
		$words = array_map( 'strval', (array) $wpdb->get_col( $wpdb->prepare( "SELECT DISTINCT word FROM {$table} WHERE word LIKE %s LIMIT %d", $like, self::SPELLINGS + 1 ) ) );
		return array() === $words || count( $words ) > self::SPELLINGS ? null : $words;
	}

	/**
	 * List items of places by id, in the order of the ids (a place gone meanwhile is left out).
	 *
	 * @param int[] $ids Post ids.
	 * @return array<int, array<string, mixed>>
	 */
	private function items_of( array $ids ): array {
		if ( array() === $ids ) {
			return array();
		}
		$found = array();
		foreach ( $this->items( 'SELECT ' . self::COLUMNS . ' FROM ' . Index_Schema::table( 'cairn_places' ) . ' p WHERE p.post_id IN (' . implode( ',', array_map( 'intval', $ids ) ) . ')' ) as $item ) {
			$found[ $item['id'] ] = $item;
		}
		$items = array();
		foreach ( $ids as $id ) {
			if ( isset( $found[ $id ] ) ) {
				$items[] = $found[ $id ];
			}
		}
		return $items;
	}

	/**
	 * Whether a page without a driving word is found sooner walking the title index (skipping
	 * what does not pass) than sorting every candidate: the places walked to fill it (about
	 * $needed × all / passing) against the candidates (the box's). A search whose words all name
	 * groups has no narrower candidates: it walks.
	 *
	 * @param Place_Match              $match  The filter.
	 * @param array<int, float[]>|null $boxes  Boxes, or null.
	 * @param int                      $total  How many pass.
	 * @param int                      $needed Places up to the page's end.
	 */
	private function walks( Place_Match $match, ?array $boxes, int $total, int $needed ): bool {
		if ( array() !== $match->words ) {
			return true;
		}
		$walked = (float) $needed * max( 1, $this->cells->total( $match->combos ) ) / max( 1, $total );
		return null === $boxes || $walked < $total;
	}

	/**
	 * One page by distance from an origin, with the distance in metres.
	 *
	 * @param Place_Match              $match  The filter.
	 * @param array<int, float[]>|null $boxes  Boxes, or null.
	 * @param int                      $total  How many pass.
	 * @param float[]                  $near   The origin [lng, lat].
	 * @param int                      $offset Places skipped.
	 * @param int                      $limit  Places a page.
	 * @return array<int, array<string, mixed>>
	 */
	private function by_distance( Place_Match $match, ?array $boxes, int $total, array $near, int $offset, int $limit ): array {
		if ( $total <= $this->near_exact ) {
			return $this->nearest( $match, $boxes, $near, $offset, $limit );
		}
		// Many places: the nearest lie in a box around the origin, grown until it holds the page.
		return $this->exact_page( $match, $boxes ?? array( array( -180.0, -90.0, 180.0, 90.0 ) ), $total, $near, $offset, $limit )
			?? $this->roughly_nearest( $match, $boxes, $near, $offset, $limit );
	}

	/**
	 * The angle (degrees) of a box around the origin holding between $needed and twice the exact
	 * limit of places: doubled from 0.05°, then halved between too few and too many. Null when
	 * none is found (places piled at one distance).
	 *
	 * @param Place_Match              $match  The filter.
	 * @param array<int, float[]>|null $boxes  Boxes, or null.
	 * @param float[]                  $near   The origin [lng, lat].
	 * @param int                      $needed Places up to the page's end.
	 */
	private function reach( Place_Match $match, ?array $boxes, array $near, int $needed ): ?float {
		$low  = 0.0;
		$high = null;
		$half = 0.05;
		for ( $step = 0; $step < 32; $step++ ) {
			$square = self::around( $near, $half, $boxes );
			$count  = array() === $square ? 0 : $this->count( $match, $square );
			if ( $count >= $needed && $count <= 2 * $this->near_exact ) {
				return $half;
			}
			if ( $count < $needed ) {
				if ( $half >= 180.0 ) {
					return null;
				}
				$low  = $half;
				$half = null === $high ? min( 180.0, $half * 2 ) : ( $low + $high ) / 2;
			} else {
				$high = $half;
				$half = ( $low + $high ) / 2;
			}
			if ( null !== $high && $high - $low < 1e-6 ) {
				return null;
			}
		}
		return null;
	}

	/**
	 * Metres in a degree of latitude (on the mean sphere).
	 */
	public const METRES_PER_DEGREE = self::EARTH_RADIUS * M_PI / 180;

	/**
	 * The box holding every position within an angle of $half degrees (great circle) of the
	 * origin (J. P. Matuschek's bounds: the longitudes span asin(sin δ / cos φ), all of them when
	 * the circle reaches a pole), as boxes (west ≤ east), within the given boxes when there are
	 * some.
	 *
	 * @param float[]                  $near  The origin [lng, lat].
	 * @param float                    $half  The angle, in degrees.
	 * @param array<int, float[]>|null $boxes Boxes to stay within, or null.
	 * @return array<int, float[]>
	 */
	private static function around( array $near, float $half, ?array $boxes ): array {
		list( $lng, $lat ) = $near;
		$south             = max( -90.0, $lat - $half );
		$north             = min( 90.0, $lat + $half );
		$ratio             = sin( deg2rad( min( 90.0, $half ) ) ) / max( 1e-12, cos( deg2rad( $lat ) ) );
		$wide              = $south <= -90.0 || $north >= 90.0 || $ratio >= 1.0 ? 180.0 : rad2deg( asin( $ratio ) );
		$square            = $wide >= 180.0
			? array( array( -180.0, $south, 180.0, $north ) )
			: Box_Cover::split( array( fmod( $lng - $wide + 540.0, 360.0 ) - 180.0, $south, fmod( $lng + $wide + 540.0, 360.0 ) - 180.0, $north ) );
		if ( null === $boxes ) {
			return $square;
		}
		$within = array();
		foreach ( $square as $a ) {
			foreach ( $boxes as $b ) {
				$box = array( max( $a[0], $b[0] ), max( $a[1], $b[1] ), min( $a[2], $b[2] ), min( $a[3], $b[3] ) );
				if ( $box[0] <= $box[2] && $box[1] <= $box[3] ) {
					$within[] = $box;
				}
			}
		}
		return $within;
	}

	/**
	 * One page by exact distance, every candidate's distance computed here (a bounded number).
	 *
	 * @param Place_Match              $match  The filter.
	 * @param array<int, float[]>|null $boxes  Boxes, or null.
	 * @param float[]                  $near   The origin [lng, lat].
	 * @param int                      $offset Places skipped.
	 * @param int                      $limit  Places a page.
	 * @return array<int, array<string, mixed>>
	 */
	private function nearest( Place_Match $match, ?array $boxes, array $near, int $offset, int $limit ): array {
		global $wpdb;
		list( $lng, $lat ) = $near;
		// A word's own rows suffice for positions (a place twice is the same distance twice).
		$rows      = $wpdb->get_results( 'SELECT p.post_id, p.lat, p.lng' . $this->from( $match, $boxes, false, true ), ARRAY_N ); // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.DirectDatabaseQuery -- built by from().
		$distances = array();
		foreach ( is_array( $rows ) ? $rows : array() as $row ) {
			$distances[ (int) $row[0] ] = self::distance( $lng, $lat, (float) $row[2], (float) $row[1] );
		}
		unset( $rows );
		uksort(
			$distances,
			static function ( int $a, int $b ) use ( $distances ): int {
				$order = $distances[ $a ] <=> $distances[ $b ];
				return 0 !== $order ? $order : $a <=> $b;
			}
		);
		$items = $this->items_of( array_slice( array_keys( $distances ), $offset, $limit ) );
		foreach ( $items as $index => $item ) {
			$items[ $index ]['distance'] = round( $distances[ $item['id'] ], 1 );
		}
		return $items;
	}

	/**
	 * One page by a flat-earth distance around the origin, ordered by the database: for pages
	 * too deep or places too dense for nearest() (close enough to order a page of a large set).
	 *
	 * @param Place_Match              $match  The filter.
	 * @param array<int, float[]>|null $boxes  Boxes, or null.
	 * @param float[]                  $near   The origin [lng, lat].
	 * @param int                      $offset Places skipped.
	 * @param int                      $limit  Places a page.
	 * @return array<int, array<string, mixed>>
	 */
	private function roughly_nearest( Place_Match $match, ?array $boxes, array $near, int $offset, int $limit ): array {
		list( $lng, $lat ) = $near;
		$d_lat             = sprintf( '(p.lat - %.12F)', $lat );
		$d_lng             = sprintf( '(p.lng - %.12F)', $lng );
		$order             = sprintf( ' ORDER BY (%1$s * %1$s + %2$s * %2$s * %3$.12F), p.post_id', $d_lat, $d_lng, cos( deg2rad( $lat ) ) ** 2 );
		$items             = $this->items( 'SELECT ' . self::COLUMNS . $this->from( $match, $boxes ) . $order . sprintf( ' LIMIT %d OFFSET %d', $limit, $offset ) );
		foreach ( $items as $index => $item ) {
			$items[ $index ]['distance'] = round( self::distance( $lng, $lat, $item['lng'], $item['lat'] ), 1 );
		}
		return $items;
	}

	/**
	 * One page of the places within a circle, nearest first (then by id), with their distances;
	 * in the box too when the query has one.
	 *
	 * @since 0.8.0
	 *
	 * @param Place_Match|null                                                                      $match  The filter, or null when nothing passes.
	 * @param array{bbox: float[]|null, near: float[]|null, page: int, per_page: int, include: int} $query  The list query.
	 * @param array{0: float, 1: float, 2: int}                                                     $circle [lng, lat, metres].
	 * @return array{total: int, capped: bool, page: int, pages: int, items: array<int, array<string, mixed>>}
	 */
	private function circle_page( ?Place_Match $match, array $query, array $circle ): array {
		$boxes = null === $query['bbox'] ? null : Box_Cover::split( $query['bbox'] );
		if ( null !== $match && array() === $match->words ) {
			return $this->circle_page_from_cells( $match, $boxes, $query, $circle );
		}
		$within   = null === $match ? array() : $this->within( $match, $boxes, $circle );
		$total    = count( $within );
		$per_page = $query['per_page'];
		$pages    = max( 1, (int) ceil( $total / $per_page ) );
		$items    = null === $match ? array() : $this->circle_page_items( $match, $within, ( $query['page'] - 1 ) * $per_page, $per_page );
		return self::circle_answer( $total, $query['page'], $pages, $items );
	}

	/**
	 * A list answer of a circle (whose count is never capped).
	 *
	 * @param int                              $total Places within.
	 * @param int                              $page  The page asked for.
	 * @param int                              $pages Pages in all.
	 * @param array<int, array<string, mixed>> $items The page's places.
	 * @return array{total: int, capped: bool, page: int, pages: int, items: array<int, array<string, mixed>>}
	 */
	private static function circle_answer( int $total, int $page, int $pages, array $items ): array {
		return array(
			'total'  => $total,
			'capped' => false,
			'page'   => $page,
			'pages'  => $pages,
			'items'  => $items,
		);
	}

	/**
	 * A page of places within a circle (within()'s, in their order) as list items with their
	 * distances.
	 *
	 * @param Place_Match                                     $match  The filter.
	 * @param array<int, array{0: float, 1: float, 2: float}> $within Post id => [metres, lng, lat].
	 * @param int                                             $offset Places skipped.
	 * @param int                                             $limit  Places a page.
	 * @return array<int, array<string, mixed>>
	 */
	private function circle_page_items( Place_Match $match, array $within, int $offset, int $limit ): array {
		$slice = array_slice( $within, $offset, $limit, true );
		$items = array();
		if ( array() === $slice ) {
			return $items;
		}
		$found = array();
		foreach ( $this->items( 'SELECT ' . self::COLUMNS . $this->from( $match, null ) . ' AND p.post_id IN (' . implode( ',', array_keys( $slice ) ) . ')' ) as $item ) {
			$found[ $item['id'] ] = $item;
		}
		foreach ( $slice as $id => $place ) {
			if ( isset( $found[ $id ] ) ) {
				$items[] = $found[ $id ] + array( 'distance' => round( $place[0], 1 ) );
			}
		}
		return $items;
	}

	/**
	 * One page in exact distance order from the candidates in the boxes: all of them when they
	 * are few; else those of a square around the origin grown until it holds the page (the page
	 * is exact once its last place is within the circle the square surely holds); null when
	 * neither can be had with at most twice the exact limit of candidates.
	 *
	 * @param Place_Match         $match  The filter.
	 * @param array<int, float[]> $boxes  Boxes (west ≤ east).
	 * @param int                 $total  How many pass in the boxes (at least).
	 * @param float[]             $near   The origin [lng, lat].
	 * @param int                 $offset Places skipped.
	 * @param int                 $limit  Places a page.
	 * @return array<int, array<string, mixed>>|null
	 */
	private function exact_page( Place_Match $match, array $boxes, int $total, array $near, int $offset, int $limit ): ?array {
		if ( $total <= $this->near_exact ) {
			return $this->nearest( $match, $boxes, $near, $offset, $limit );
		}
		$needed = $offset + $limit;
		$half   = $needed <= $this->near_exact ? $this->reach( $match, $boxes, $near, $needed ) : null;
		if ( null === $half ) {
			return null;
		}
		$page = $this->nearest( $match, self::around( $near, $half, $boxes ), $near, $offset, $limit );
		$last = end( $page );
		if ( false === $last || $last['distance'] <= 0.999 * $half * self::METRES_PER_DEGREE ) {
			return $page;
		}
		$square = self::around( $near, $last['distance'] / ( 0.999 * self::METRES_PER_DEGREE ), $boxes );
		return $this->count( $match, $square ) <= 2 * $this->near_exact ? $this->nearest( $match, $square, $near, $offset, $limit ) : null;
	}

	/**
	 * One page of the places of a filter without words within a circle: counted by
	 * circle_matches(), then the page of the places nearest the centre in the circle's box
	 * (by_distance(): all of them ordered exactly when they are few, else those of a square grown
	 * around the centre until it holds the page), less those beyond the radius. The places within
	 * the circle are the nearest of its box, so the page is theirs.
	 *
	 * @since 0.9.0
	 *
	 * @param Place_Match                                                                           $match  The filter (no words).
	 * @param array<int, float[]>|null                                                              $boxes  Boxes (west ≤ east), or null.
	 * @param array{bbox: float[]|null, near: float[]|null, page: int, per_page: int, include: int} $query  The list query.
	 * @param array{0: float, 1: float, 2: int}                                                     $circle [lng, lat, metres].
	 * @return array{total: int, capped: bool, page: int, pages: int, items: array<int, array<string, mixed>>}
	 */
	private function circle_page_from_cells( Place_Match $match, ?array $boxes, array $query, array $circle ): array {
		$total    = $this->circle_matches( $match, $boxes, $circle )[0];
		$per_page = $query['per_page'];
		$pages    = max( 1, (int) ceil( $total / $per_page ) );
		$items    = array();
		if ( $total > 0 && $query['page'] <= $pages ) {
			$centre = array( $circle[0], $circle[1] );
			$offset = ( $query['page'] - 1 ) * $per_page;
			$square = self::around( $centre, $circle[2] / self::METRES_PER_DEGREE, $boxes );
			$page   = $this->exact_page( $match, $square, $total, $centre, $offset, $per_page );
			if ( null === $page ) {
				// A page too deep (or places piled at one distance): every place within, sorted.
				$page = $this->circle_page_items( $match, $this->within( $match, $boxes, $circle ), $offset, $per_page );
			}
			$items = array_values(
				array_filter(
					$page,
					static function ( array $item ) use ( $circle ): bool {
						return $item['distance'] <= $circle[2];
					}
				)
			);
		}
		return self::circle_answer( $total, $query['page'], $pages, $items );
	}

	/**
	 * How many places passing a filter lie within a circle (and the boxes, when given), and their
	 * bounds (null for none). Without words, from the grid's aggregates: over the circle's box,
	 * the occupied cells (Cell_Counts::occupied()) wholly within both the box and the circle
	 * (cell_against()) count by their aggregate; only the places of the cells across the
	 * circle's edge are read, each kept by its exact distance; the bounds are theirs and those of
	 * the outermost lines of the inner cells. With words, from within().
	 *
	 * @since 0.9.0
	 *
	 * @param Place_Match|null                  $match  The filter, or null when nothing passes.
	 * @param array<int, float[]>|null          $boxes  Boxes (west ≤ east), or null.
	 * @param array{0: float, 1: float, 2: int} $circle [lng, lat, metres].
	 * @return array{0: int, 1: float[]|null}
	 */
	private function circle_matches( ?Place_Match $match, ?array $boxes, array $circle ): array {
		global $wpdb;
		if ( null === $match || array() !== $match->words || $circle[2] > (int) Limits::get( 'near.maxRadius' ) ) {
			// Words have no aggregates; a circle wider than the routes take has cells too wide for
			// cell_against()'s rule.
			$within = null === $match ? array() : $this->within( $match, $boxes, $circle );
			return array( count( $within ), self::bounds_of( $within ) );
		}
		list( $lng, $lat, $metres ) = $circle;
		$square                     = self::around( array( $lng, $lat ), $metres / self::METRES_PER_DEGREE, $boxes );
		$places                     = Index_Schema::table( 'cairn_places' );
		$count                      = 0;
		$bounds                     = null;
		$inner                      = array();
		foreach ( array() === $match->combos ? array() : $square as $box ) {
			list( $level, $occupied ) = $this->cells->occupied( $box, $match->combos );
			$edges                    = array();
			foreach ( $occupied as $cell => $n ) {
				list( $x, $y ) = Morton::tile_of( $cell );
				$relation      = Box_Cover::relation( $x, $y, $level, $box );
				if ( -1 === $relation ) {
					continue;
				}
				$where = self::cell_against( Box_Cover::tile_box( $x, $y, $level ), $circle );
				if ( 1 === $relation && 1 === $where ) {
					$count                  += $n;
					$inner[ $level ][ $x ][] = $cell;
				} elseif ( -1 !== $where ) {
					$edges[] = $cell;
				}
			}
			if ( array() === $edges ) {
				continue;
			}
			$sql  = "SELECT p.lng, p.lat FROM {$places} p WHERE " . Cell_Counts::ranges_sql( 'p.code', Box_Cover::merge( $edges, 2 * ( Morton::LEVEL - $level ) ) )
				. ' AND ' . Cell_Counts::box_sql( $box ) . Cell_Counts::combo_sql( $match->combos, 'p.combo' );
			$rows = $wpdb->get_results( $sql, ARRAY_N ); // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.DirectDatabaseQuery -- numbers only.
			foreach ( is_array( $rows ) ? $rows : array() as $row ) {
				$at_lng = (float) $row[0];
				$at_lat = (float) $row[1];
				if ( self::distance( $lng, $lat, $at_lng, $at_lat ) <= $metres ) {
					++$count;
					$bounds = self::widen( $bounds, array( $at_lng, $at_lat, $at_lng, $at_lat ) );
				}
			}
		}
		foreach ( $inner as $level => $columns ) {
			// Every place of the inner cells is within: the extremes lie in their outermost lines.
			$line = array();
			foreach ( array( min( array_keys( $columns ) ), max( array_keys( $columns ) ) ) as $x ) {
				$line = array_merge( $line, $columns[ $x ] );
			}
			$rows = array();
			foreach ( $columns as $cells ) {
				foreach ( $cells as $cell ) {
					$rows[ Morton::tile_of( $cell )[1] ][] = $cell;
				}
			}
			$line = array_merge( $line, $rows[ min( array_keys( $rows ) ) ], $rows[ max( array_keys( $rows ) ) ] );
			$sql  = "SELECT MIN(p.lng), MIN(p.lat), MAX(p.lng), MAX(p.lat) FROM {$places} p WHERE " . Cell_Counts::ranges_sql( 'p.code', Box_Cover::merge( array_unique( $line ), 2 * ( Morton::LEVEL - $level ) ) )
				. Cell_Counts::combo_sql( $match->combos, 'p.combo' );
			$row  = $wpdb->get_row( $sql, ARRAY_N ); // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.DirectDatabaseQuery -- numbers only.
			if ( is_array( $row ) && null !== $row[0] ) {
				$bounds = self::widen( $bounds, array_map( 'floatval', $row ) );
			}
		}
		return array( $count, $bounds );
	}

	/**
	 * How a cell lies against a circle: 1 wholly within, -1 surely outside, 0 across its edge
	 * (or not sure).
	 *
	 * - Within: its four corners are, a centimetre to spare. Along a parallel the distance from
	 *   the centre grows with the difference of longitude up to the meridian opposite the centre,
	 *   and along a meridian it is convex over the cells of a circle of at most `near.maxRadius`
	 *   (500 km: a few degrees), so its greatest is at a corner. No such cell holds the opposite
	 *   meridian: a point on it is at least 180° − (the two latitudes) from the centre, more than
	 *   500 km except within 4.5° of a pole, where the top row of cells starts below 85.06°.
	 * - Outside: the cell's middle is farther from the centre than the radius plus the distance
	 *   from the middle to its farthest corner, a hundredth more (the triangle inequality).
	 *
	 * @param float[]                           $cell   `[west, south, east, north]`.
	 * @param array{0: float, 1: float, 2: int} $circle [lng, lat, metres].
	 */
	private static function cell_against( array $cell, array $circle ): int {
		list( $lng, $lat, $metres ) = $circle;
		$middle                     = array( ( $cell[0] + $cell[2] ) / 2, ( $cell[1] + $cell[3] ) / 2 );
		$farthest                   = 0.0;
		$within                     = true;
		foreach ( array( array( 0, 1 ), array( 0, 3 ), array( 2, 1 ), array( 2, 3 ) ) as list( $x, $y ) ) {
			$farthest = max( $farthest, self::distance( $middle[0], $middle[1], $cell[ $x ], $cell[ $y ] ) );
			$within   = $within && self::distance( $lng, $lat, $cell[ $x ], $cell[ $y ] ) <= $metres - 0.01;
		}
		if ( self::distance( $lng, $lat, $middle[0], $middle[1] ) > $metres + 1.01 * $farthest ) {
			return -1;
		}
		return $within ? 1 : 0;
	}

	/**
	 * Bounds grown to hold others.
	 *
	 * @param float[]|null $bounds `[west, south, east, north]`, or null for none yet.
	 * @param float[]      $more   The others.
	 * @return float[]
	 */
	private static function widen( ?array $bounds, array $more ): array {
		return null === $bounds ? $more : array( min( $bounds[0], $more[0] ), min( $bounds[1], $more[1] ), max( $bounds[2], $more[2] ), max( $bounds[3], $more[3] ) );
	}

	/**
	 * The places passing a filter within a circle (and the boxes, when given), nearest first then
	 * by id: post id => [metres, lng, lat]. The circle's bounding box (around()) reads the
	 * candidates over the `code_combo` key's Morton ranges; each is kept when its exact
	 * great-circle distance is within the radius.
	 *
	 * @since 0.8.0
	 *
	 * @param Place_Match                       $match  The filter.
	 * @param array<int, float[]>|null          $boxes  Boxes (west ≤ east), or null.
	 * @param array{0: float, 1: float, 2: int} $circle [lng, lat, metres].
	 * @return array<int, array{0: float, 1: float, 2: float}>
	 */
	private function within( Place_Match $match, ?array $boxes, array $circle ): array {
		global $wpdb;
		list( $lng, $lat, $metres ) = $circle;
		$square                     = self::around( array( $lng, $lat ), $metres / self::METRES_PER_DEGREE, $boxes );
		if ( array() === $square || array() === $match->combos ) {
			return array();
		}
		$rows   = $wpdb->get_results( 'SELECT p.post_id, p.lng, p.lat' . $this->from( $match, $square, false, true ), ARRAY_N ); // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.DirectDatabaseQuery -- built by from().
		$within = array();
		foreach ( is_array( $rows ) ? $rows : array() as $row ) {
			$distance = self::distance( $lng, $lat, (float) $row[1], (float) $row[2] );
			if ( $distance <= $metres ) {
				$within[ (int) $row[0] ] = array( $distance, (float) $row[1], (float) $row[2] );
			}
		}
		unset( $rows );
		uksort(
			$within,
			static function ( int $a, int $b ) use ( $within ): int {
				$order = $within[ $a ][0] <=> $within[ $b ][0];
				return 0 !== $order ? $order : $a <=> $b;
			}
		);
		return $within;
	}

	/**
	 * The boxes (west ≤ east) holding every position of a circle: its bounding box, split at the
	 * antimeridian, the whole width when it reaches a pole.
	 *
	 * @since 0.8.0
	 *
	 * @param array{0: float, 1: float, 2: int} $circle [lng, lat, metres].
	 * @return array<int, float[]>
	 */
	public static function circle_boxes( array $circle ): array {
		return self::around( array( $circle[0], $circle[1] ), $circle[2] / self::METRES_PER_DEGREE, null );
	}

	/**
	 * The bounding box [west, south, east, north] of places (within()), null for none.
	 *
	 * @since 0.8.0
	 *
	 * @param array<int, array{0: float, 1: float, 2: float}> $places Post id => [metres, lng, lat].
	 * @return float[]|null
	 */
	private static function bounds_of( array $places ): ?array {
		if ( array() === $places ) {
			return null;
		}
		$lngs = array_column( $places, 1 );
		$lats = array_column( $places, 2 );
		return array( (float) min( $lngs ), (float) min( $lats ), (float) max( $lngs ), (float) max( $lats ) );
	}

	/**
	 * Great-circle distance in metres (as engine.ts distance()).
	 *
	 * @param float $lng1 Longitude of the first position.
	 * @param float $lat1 Latitude of the first position.
	 * @param float $lng2 Longitude of the second position.
	 * @param float $lat2 Latitude of the second position.
	 */
	public static function distance( float $lng1, float $lat1, float $lng2, float $lat2 ): float {
		$d_lat = deg2rad( $lat2 - $lat1 );
		$d_lng = deg2rad( $lng2 - $lng1 );
		$h     = sin( $d_lat / 2 ) ** 2 + cos( deg2rad( $lat1 ) ) * cos( deg2rad( $lat2 ) ) * sin( $d_lng / 2 ) ** 2;
		return 2 * self::EARTH_RADIUS * asin( min( 1, sqrt( $h ) ) );
	}

	/**
	 * ` FROM … WHERE …` of the places passing a filter, in the boxes when given: driven by the
	 * rarest word's places, or walking the title index ($walk), or over the boxes' Morton ranges.
	 * Each place comes once, also with $alone: then the driving word's own rows are `p` (a word's
	 * row carries its place's combination, position, Morton code and title key, but not the
	 * title), read streamed in the word's primary-key range without touching a place, and of a
	 * place's words the prefix starts only the first (its `prev` is not one). (Should the
	 * column's collation find two folded spellings equal, a place may still come twice: counts
	 * that stop early see it, capped(); pages take DISTINCT rows.) Without a driving word $alone
	 * changes nothing.
	 *
	 * @param Place_Match              $match The filter.
	 * @param array<int, float[]>|null $boxes Boxes, or null.
	 * @param bool                     $walk  Walk the title index (MariaDB/MySQL is told to).
	 * @param bool                     $alone The driving word's rows alone.
	 */
	private function from( Place_Match $match, ?array $boxes, bool $walk = false, bool $alone = false ): string {
		global $wpdb;
		$places = Index_Schema::table( 'cairn_places' );
		$words  = Index_Schema::table( 'cairn_place_words' );
		$hint   = $walk && ! Wpdb_Rows::is_sqlite() ? ' FORCE INDEX (sort_key)' : '';
		$where  = array();
		$driver = $walk ? null : $match->driver;
		if ( null !== $driver ) {
			// The driving word's rows, narrowed by the other words' ids (each set materialized
			// once, then looked up: no place is read); a word naming groups passes a place by its
			// title or by its combination.
			$join = Wpdb_Rows::is_sqlite() ? 'JOIN' : 'STRAIGHT_JOIN';
			$row  = $alone ? 'p' : 'd';
			$also = '';
			foreach ( $match->words as $index => $word ) {
				if ( $index === $driver ) {
					continue;
				}
				$has   = (string) $wpdb->prepare( "{$row}.post_id IN (SELECT e{$index}.post_id FROM {$words} e{$index} WHERE e{$index}.word LIKE %s)", $word['like'] ); // phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- a table name and aliases.
				$also .= array() === $word['named'] ? " AND {$has}" : " AND ({$has} OR {$row}.combo IN (" . implode( ',', array_map( 'intval', $word['named'] ) ) . '))';
			}
			$lead = $match->words[ $driver ];
			$test = isset( $lead['equals'] ) && $alone ? $wpdb->prepare( 'p.word = %s', $lead['equals'] ) : $wpdb->prepare( "{$row}.word LIKE %s", $lead['like'] ); // phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- an alias.
			if ( isset( $lead['spellings'] ) && $alone && ! isset( $lead['equals'] ) ) {
				// Its few words by name: each a range of the key (word, code) that Morton ranges narrow.
				$test = 'p.word IN (' . implode( ',', array_map( static fn( string $word ): string => (string) $wpdb->prepare( '%s', $word ), $lead['spellings'] ) ) . ')';
			}
			if ( $alone && ! isset( $lead['equals'] ) ) {
				// One row a place: the first of its words the prefix starts (Index_Schema, `prev`).
				$test .= $wpdb->prepare( ' AND p.prev NOT LIKE %s', $lead['like'] );
			}
			$sql = $alone
				? " FROM {$words} p WHERE {$test}{$also}"
				: " FROM (SELECT DISTINCT d.post_id FROM {$words} d WHERE {$test}{$also}) m {$join} {$places} p ON p.post_id = m.post_id WHERE 1 = 1";
		} else {
			$sql = " FROM {$places} p{$hint} WHERE 1 = 1";
		}
		if ( null !== $match->combos ) {
			$where[] = 'p.combo IN (' . implode( ',', array_map( 'intval', $match->combos ) ) . ')';
		}
		if ( array() !== $match->excluded ) {
			$where[] = 'p.combo NOT IN (' . implode( ',', array_map( 'intval', $match->excluded ) ) . ')';
		}
		foreach ( $match->words as $word ) {
			if ( null !== $driver ) {
				break; // Checked in the driving word's rows.
			}
			$title   = self::title_has( 'p.post_id', $word['like'] );
			$where[] = array() === $word['named'] ? $title : "({$title} OR p.combo IN (" . implode( ',', array_map( 'intval', $word['named'] ) ) . '))';
		}
		if ( null !== $boxes ) {
			$where[] = $this->boxes_sql( $boxes, null === $driver && ! $walk );
		}
		return $sql . implode( '', array_map( static fn( string $part ): string => ' AND ' . $part, $where ) );
	}

	/**
	 * The test that a place's title has a word matching a LIKE pattern: a count per place over the
	 * words' `post_id` key (not EXISTS, which MariaDB turns into a join it may read first).
	 *
	 * @param string $column The place's id column.
	 * @param string $like   LIKE pattern.
	 */
	private static function title_has( string $column, string $like ): string {
		global $wpdb;
		$words = Index_Schema::table( 'cairn_place_words' );
		return (string) $wpdb->prepare( "(SELECT COUNT(*) FROM {$words} w WHERE w.post_id = {$column} AND w.word LIKE %s) > 0", $like ); // phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- a table and a column name.
	}

	/**
	 * The test of boxes; with $ranges, each also as the Morton ranges of a few tiles covering it,
	 * so the database reads only the box's places.
	 *
	 * @param array<int, float[]> $boxes  Boxes (west ≤ east).
	 * @param bool                $ranges Add the Morton ranges.
	 */
	private function boxes_sql( array $boxes, bool $ranges ): string {
		$parts = array();
		foreach ( $boxes as $box ) {
			$test = Cell_Counts::box_sql( $box );
			if ( $ranges ) {
				$zoom = Box_Cover::zoom_for( $box, 16, 0, Morton::LEVEL );
				$test = Cell_Counts::ranges_sql( 'p.code', Box_Cover::ranges( $box, $zoom ) ) . ' AND ' . $test;
			}
			$parts[] = '(' . $test . ')';
		}
		return '(' . implode( ' OR ', $parts ) . ')';
	}

	/**
	 * Places as list items.
	 *
	 * @param string $sql A SELECT of COLUMNS (built by from()).
	 * @return array<int, array{id: int, title: string, lng: float, lat: float, groups: string[]}>
	 */
	private function items( string $sql ): array {
		global $wpdb;
		$rows   = $wpdb->get_results( $sql, ARRAY_N ); // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.DirectDatabaseQuery -- built by from().
		$combos = $this->terms->combos();
		$items  = array();
		foreach ( is_array( $rows ) ? $rows : array() as $row ) {
			$items[] = array(
				'id'     => (int) $row[0],
				'title'  => (string) $row[1],
				'lng'    => (float) $row[2],
				'lat'    => (float) $row[3],
				'groups' => Place_Filter::groups_of( $combos[ (int) $row[4] ] ?? array() ),
			);
		}
		return $items;
	}
}
