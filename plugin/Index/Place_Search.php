<?php
/**
 * The places panel's questions, answered from the place index.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Post_Type;

/**
 * Answers what the places panel of a tiled map asks (packages/map/src/places/engine.ts: load,
 * setFilter, list), over the index tables (Place_Index): the selection's totals per group, the
 * places passing a filter (hidden groups, a search) with their count and bounds, and one page of
 * them, in a box or not, by title or by distance.
 *
 * Search matches word prefixes: every query word must start a word of the title
 * (`cairn_place_words`) or of the name of one of the place's groups (through the group
 * combinations, `cairn_place_combos`), accents and case folded. The whole-feed path of small maps
 * matches substrings instead.
 *
 * Filters come validated and canonical (Rest\Search_Params): `groups` (the selection), `hidden`,
 * `q`; a list query `bbox`, `near`, `page` (1-based), `per_page`, `include`.
 *
 * @since 0.6.0
 */
class Place_Search {

	/**
	 * Most query words used (as the runtime's queryWords()).
	 */
	public const MAX_WORDS = 16;

	/**
	 * Up to this many places in the list's box, distance order is exact (computed in PHP); above,
	 * the database orders by a flat-earth approximation around the origin.
	 */
	public const NEAR_EXACT = 5000;

	/**
	 * Mean Earth radius in metres (as engine.ts).
	 */
	private const EARTH_RADIUS = 6371008.8;

	/**
	 * The group combinations, id => slugs, read once.
	 *
	 * @var array<int, string[]>|null
	 */
	private ?array $combos = null;

	/**
	 * The selection's totals, the places passing the filter, their bounds.
	 *
	 * @param array{groups: string[], hidden: string[], q: string} $filter The filter.
	 * @return array{total: int, groups: object, matches: int, bounds: float[]|null} `groups`: places per slug (an object, so that none is `{}` in JSON).
	 */
	public function summary( array $filter ): array {
		$selection = $this->selection_combos( $filter['groups'] );
		$total     = 0;
		$groups    = array();
		$combos    = $this->combos();
		foreach ( $this->counts_by_combo() as $combo => $n ) {
			if ( null !== $selection && ! in_array( $combo, $selection, true ) ) {
				continue;
			}
			$total += $n;
			foreach ( $combos[ $combo ] ?? array() as $slug ) {
				$groups[ $slug ] = ( $groups[ $slug ] ?? 0 ) + $n;
			}
		}
		ksort( $groups );
		list( $matches, $bounds ) = $this->matches( $filter );
		return array(
			'total'   => $total,
			'groups'  => (object) $groups,
			'matches' => $matches,
			'bounds'  => $bounds,
		);
	}

	/**
	 * One page of the places passing the filter, in the box when given, by folded title then id or
	 * by distance from `near`.
	 *
	 * @param array{groups: string[], hidden: string[], q: string}                                  $filter The filter.
	 * @param array{bbox: float[]|null, near: float[]|null, page: int, per_page: int, include: int} $query  The list query.
	 * @return array{total: int, page: int, pages: int, items: array<int, array<string, mixed>>}
	 */
	public function list( array $filter, array $query ): array {
		if ( $query['include'] > 0 ) {
			return $this->one( $filter, $query['include'] );
		}
		$where    = $this->where( $filter, $query['bbox'] );
		$total    = null === $where ? 0 : $this->count( $where );
		$per_page = $query['per_page'];
		$pages    = max( 1, (int) ceil( $total / $per_page ) );
		$page     = $query['page'];
		$items    = array();
		if ( null !== $where && $page <= $pages && $total > 0 ) {
			$offset = ( $page - 1 ) * $per_page;
			$items  = null === $query['near']
				? $this->by_title( $where, $offset, $per_page )
				: $this->by_distance( $where, $total, $query['near'], $offset, $per_page );
		}
		return array(
			'total' => $total,
			'page'  => $page,
			'pages' => $pages,
			'items' => $items,
		);
	}

	/**
	 * The list with one place (deep links): the place when it is in the selection, whatever the
	 * filter (the panel reveals it as the whole-feed engine does).
	 *
	 * @param array{groups: string[], hidden: string[], q: string} $filter The filter.
	 * @param int                                                  $id     Post id.
	 * @return array{total: int, page: int, pages: int, items: array<int, array<string, mixed>>}
	 */
	private function one( array $filter, int $id ): array {
		global $wpdb;
		$where = $this->where(
			array(
				'groups' => $filter['groups'],
				'hidden' => array(),
				'q'      => '',
			),
			null
		);
		$items = array();
		if ( null !== $where ) {
			$where[0][] = 'p.post_id = %d';
			$where[1][] = $id;
			$items      = $this->rows( $where, '', 1, 0 );
		}
		return array(
			'total' => count( $items ),
			'page'  => 1,
			'pages' => 1,
			'items' => $items,
		);
	}

	/**
	 * The number of places passing a filter, and their bounds `[west, south, east, north]` (null
	 * when none).
	 *
	 * @param array{groups: string[], hidden: string[], q: string} $filter The filter.
	 * @return array{0: int, 1: float[]|null}
	 */
	private function matches( array $filter ): array {
		global $wpdb;
		$where = $this->where( $filter, null );
		if ( null === $where ) {
			return array( 0, null );
		}
		$table = $this->table( 'cairn_places' );
		$sql   = "SELECT COUNT(*) AS n, MIN(p.lng) AS w, MIN(p.lat) AS s, MAX(p.lng) AS e, MAX(p.lat) AS nn FROM {$table} p" . $this->where_sql( $where );
		$row   = $wpdb->get_row( $sql, ARRAY_A ); // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.DirectDatabaseQuery -- prepared in where_sql(); the index has no object cache of its own.
		$n     = is_array( $row ) ? (int) $row['n'] : 0;
		if ( 0 === $n ) {
			return array( 0, null );
		}
		return array( $n, array( (float) $row['w'], (float) $row['s'], (float) $row['e'], (float) $row['nn'] ) );
	}

	/**
	 * The conditions of a filter and a box: SQL fragments with `%` placeholders and their values,
	 * or null when nothing can pass (no combination of the selection left, a search without words).
	 *
	 * @param array{groups: string[], hidden: string[], q: string} $filter The filter.
	 * @param float[]|null                                         $bbox   The box, or null.
	 * @return array{0: string[], 1: array<int, int|float|string>}|null
	 */
	private function where( array $filter, ?array $bbox ): ?array {
		$parts  = array();
		$values = array();
		$combos = $this->passing_combos( $filter['groups'], $filter['hidden'] );
		if ( null !== $combos ) {
			if ( array() === $combos ) {
				return null;
			}
			$parts[] = 'p.combo IN (' . implode( ',', array_map( 'intval', $combos ) ) . ')';
		}
		if ( '' !== $filter['q'] ) {
			$words = $this->query_words( $filter['q'] );
			if ( array() === $words ) {
				return null;
			}
			foreach ( $words as $word ) {
				list( $part, $value ) = $this->word_condition( $word );
				$parts[]              = $part;
				$values[]             = $value;
			}
		}
		if ( null !== $bbox ) {
			list( $west, $south, $east, $north ) = $bbox;
			$parts[]                             = 'p.lat BETWEEN ' . self::number( $south ) . ' AND ' . self::number( $north );
			$parts[]                             = $west <= $east
				? 'p.lng BETWEEN ' . self::number( $west ) . ' AND ' . self::number( $east )
				: '(p.lng >= ' . self::number( $west ) . ' OR p.lng <= ' . self::number( $east ) . ')';
		}
		return array( $parts, $values );
	}

	/**
	 * The condition that one query word starts a word of the title or of a group name.
	 *
	 * @param string $word A folded query word.
	 * @return array{0: string, 1: string}
	 */
	private function word_condition( string $word ): array {
		global $wpdb;
		$words   = $this->table( 'cairn_place_words' );
		$title   = "p.post_id IN (SELECT w.post_id FROM {$words} w WHERE w.word LIKE %s)";
		$by_name = $this->combos_named( $word );
		$like    = $wpdb->esc_like( $word ) . '%';
		if ( array() === $by_name ) {
			return array( $title, $like );
		}
		return array( "({$title} OR p.combo IN (" . implode( ',', array_map( 'intval', $by_name ) ) . '))', $like );
	}

	/**
	 * The combinations holding a group one of whose name's words starts with this word.
	 *
	 * @param string $word A folded query word.
	 * @return int[]
	 */
	private function combos_named( string $word ): array {
		$named = array();
		foreach ( $this->group_names() as $slug => $name ) {
			foreach ( Place_Words::words( $name ) as $name_word ) {
				if ( 0 === strpos( $name_word, $word ) ) {
					$named[ $slug ] = true;
					break;
				}
			}
		}
		if ( array() === $named ) {
			return array();
		}
		$ids = array();
		foreach ( $this->combos() as $id => $slugs ) {
			foreach ( $slugs as $slug ) {
				if ( isset( $named[ $slug ] ) ) {
					$ids[] = $id;
					break;
				}
			}
		}
		return $ids;
	}

	/**
	 * Group names by slug.
	 *
	 * @return array<string, string>
	 */
	private function group_names(): array {
		$terms = get_terms(
			array(
				'taxonomy'   => Post_Type::TAXONOMY,
				'hide_empty' => false,
				'fields'     => 'id=>slug',
			)
		);
		if ( ! is_array( $terms ) ) {
			return array();
		}
		$names = array();
		foreach ( array_keys( $terms ) as $term_id ) {
			$term = get_term( (int) $term_id, Post_Type::TAXONOMY );
			if ( $term instanceof \WP_Term ) {
				$names[ $term->slug ] = $term->name;
			}
		}
		return $names;
	}

	/**
	 * The folded words of a search (at most MAX_WORDS, as Place_Words cuts them).
	 *
	 * @param string $search The search.
	 * @return string[]
	 */
	private function query_words( string $search ): array {
		return array_slice( Place_Words::words( $search ), 0, self::MAX_WORDS );
	}

	/**
	 * The combinations of a selection and hidden groups: null when every place passes, else the
	 * ids of the passing ones (0 = no group).
	 *
	 * @param string[] $groups The selection's slugs ([] = every place).
	 * @param string[] $hidden Slugs switched off.
	 * @return int[]|null
	 */
	private function passing_combos( array $groups, array $hidden ): ?array {
		$selection = $this->selection_combos( $groups );
		if ( array() === $hidden ) {
			return $selection;
		}
		$passing = null === $selection ? array( 0 ) : array();
		foreach ( $this->combos() as $id => $slugs ) {
			if ( null !== $selection && ! in_array( $id, $selection, true ) ) {
				continue;
			}
			if ( array() !== array_diff( $slugs, $hidden ) ) {
				$passing[] = $id;
			}
		}
		return $passing;
	}

	/**
	 * The combinations of a selection: null for every place, else the ids holding one of the slugs.
	 *
	 * @param string[] $groups The selection's slugs.
	 * @return int[]|null
	 */
	private function selection_combos( array $groups ): ?array {
		if ( array() === $groups ) {
			return null;
		}
		$ids = array();
		foreach ( $this->combos() as $id => $slugs ) {
			if ( array() !== array_intersect( $slugs, $groups ) ) {
				$ids[] = $id;
			}
		}
		return $ids;
	}

	/**
	 * The group combinations: id => sorted slugs.
	 *
	 * @return array<int, string[]>
	 */
	private function combos(): array {
		global $wpdb;
		if ( null === $this->combos ) {
			$table        = $this->table( 'cairn_place_combos' );
			$rows         = $wpdb->get_results( "SELECT id, slugs FROM {$table}", ARRAY_A ); // phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.DirectDatabaseQuery -- a table name; the index has no object cache of its own.
			$this->combos = array();
			foreach ( is_array( $rows ) ? $rows : array() as $row ) {
				$this->combos[ (int) $row['id'] ] = explode( ',', (string) $row['slugs'] );
			}
		}
		return $this->combos;
	}

	/**
	 * Places per combination (0 = no group).
	 *
	 * @return array<int, int>
	 */
	private function counts_by_combo(): array {
		global $wpdb;
		$table  = $this->table( 'cairn_places' );
		$rows   = $wpdb->get_results( "SELECT combo, COUNT(*) AS n FROM {$table} GROUP BY combo", ARRAY_A ); // phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.DirectDatabaseQuery -- a table name.
		$counts = array();
		foreach ( is_array( $rows ) ? $rows : array() as $row ) {
			$counts[ (int) $row['combo'] ] = (int) $row['n'];
		}
		return $counts;
	}

	/**
	 * How many places pass these conditions.
	 *
	 * @param array{0: string[], 1: array<int, int|float|string>} $where Conditions.
	 */
	private function count( array $where ): int {
		global $wpdb;
		$table = $this->table( 'cairn_places' );
		return (int) $wpdb->get_var( "SELECT COUNT(*) FROM {$table} p" . $this->where_sql( $where ) ); // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.DirectDatabaseQuery -- a table name; prepared in where_sql().
	}

	/**
	 * One page of places by folded title, then id.
	 *
	 * @param array{0: string[], 1: array<int, int|float|string>} $where  Conditions.
	 * @param int                                                 $offset Places skipped.
	 * @param int                                                 $limit  Places a page.
	 * @return array<int, array<string, mixed>>
	 */
	private function by_title( array $where, int $offset, int $limit ): array {
		return $this->rows( $where, ' ORDER BY p.sort_key, p.post_id', $limit, $offset );
	}

	/**
	 * One page of places by distance from an origin, with their distance in metres.
	 *
	 * @param array{0: string[], 1: array<int, int|float|string>} $where  Conditions.
	 * @param int                                                 $total  How many pass them.
	 * @param float[]                                             $near   The origin [lng, lat].
	 * @param int                                                 $offset Places skipped.
	 * @param int                                                 $limit  Places a page.
	 * @return array<int, array<string, mixed>>
	 */
	private function by_distance( array $where, int $total, array $near, int $offset, int $limit ): array {
		global $wpdb;
		list( $lng, $lat ) = $near;
		$table             = $this->table( 'cairn_places' );
		if ( $total <= self::NEAR_EXACT ) {
			$rows      = $wpdb->get_results( "SELECT p.post_id, p.lat, p.lng FROM {$table} p" . $this->where_sql( $where ), ARRAY_N ); // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.DirectDatabaseQuery -- a table name; prepared in where_sql().
			$distances = array();
			foreach ( is_array( $rows ) ? $rows : array() as $row ) {
				$distances[ (int) $row[0] ] = self::distance( $lng, $lat, (float) $row[2], (float) $row[1] );
			}
			uksort(
				$distances,
				static function ( int $a, int $b ) use ( $distances ): int {
					$order = $distances[ $a ] <=> $distances[ $b ];
					return 0 !== $order ? $order : $a <=> $b;
				}
			);
			$ids = array_slice( array_keys( $distances ), $offset, $limit );
			if ( array() === $ids ) {
				return array();
			}
			$where[0][] = 'p.post_id IN (' . implode( ',', $ids ) . ')';
			$found      = array();
			foreach ( $this->rows( $where, '', $limit, 0 ) as $item ) {
				$found[ $item['id'] ] = $item;
			}
			$items = array();
			foreach ( $ids as $id ) {
				if ( isset( $found[ $id ] ) ) {
					$items[] = $found[ $id ] + array( 'distance' => round( $distances[ $id ], 1 ) );
				}
			}
			return $items;
		}
		// Flat-earth distance around the origin: close enough to order a page of a large set.
		$scale = cos( deg2rad( $lat ) ) ** 2;
		$d_lat = '(p.lat - ' . self::number( $lat ) . ')';
		$d_lng = '(p.lng - ' . self::number( $lng ) . ')';
		$order = " ORDER BY ({$d_lat} * {$d_lat} + {$d_lng} * {$d_lng} * " . self::number( $scale ) . '), p.post_id';
		$items = $this->rows( $where, $order, $limit, $offset );
		foreach ( $items as $index => $item ) {
			$items[ $index ]['distance'] = round( self::distance( $lng, $lat, $item['lng'], $item['lat'] ), 1 );
		}
		return $items;
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
	 * Places passing the conditions, as list items.
	 *
	 * @param array{0: string[], 1: array<int, int|float|string>} $where  Conditions.
	 * @param string                                              $order  ORDER BY clause (prepared) or ''.
	 * @param int                                                 $limit  Most rows.
	 * @param int                                                 $offset Rows skipped.
	 * @return array<int, array{id: int, title: string, lng: float, lat: float, groups: string[]}>
	 */
	private function rows( array $where, string $order, int $limit, int $offset ): array {
		global $wpdb;
		$table  = $this->table( 'cairn_places' );
		$sql    = "SELECT p.post_id, p.title, p.lng, p.lat, p.combo FROM {$table} p" . $this->where_sql( $where ) . $order . sprintf( ' LIMIT %d OFFSET %d', $limit, $offset );
		$rows   = $wpdb->get_results( $sql, ARRAY_A ); // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.DirectDatabaseQuery -- prepared in where_sql(); ORDER BY prepared by the caller.
		$combos = $this->combos();
		$items  = array();
		foreach ( is_array( $rows ) ? $rows : array() as $row ) {
			$items[] = array(
				'id'     => (int) $row['post_id'],
				'title'  => (string) $row['title'],
				'lng'    => (float) $row['lng'],
				'lat'    => (float) $row['lat'],
				'groups' => $combos[ (int) $row['combo'] ] ?? array(),
			);
		}
		return $items;
	}

	/**
	 * The WHERE clause of conditions, prepared ('' without conditions).
	 *
	 * @param array{0: string[], 1: array<int, int|float|string>} $where Conditions.
	 */
	private function where_sql( array $where ): string {
		global $wpdb;
		if ( array() === $where[0] ) {
			return '';
		}
		$sql = ' WHERE ' . implode( ' AND ', $where[0] );
		return array() === $where[1] ? $sql : (string) $wpdb->prepare( $sql, $where[1] ); // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared -- the fragments hold placeholders only.
	}

	/**
	 * A number written into SQL (never user text: a float parsed by the validation).
	 *
	 * @param float $value The number.
	 */
	private static function number( float $value ): string {
		return sprintf( '%.12F', $value );
	}

	/**
	 * A table's full name.
	 *
	 * @param string $name Name without prefix.
	 */
	private function table( string $name ): string {
		return Index_Schema::table( $name );
	}
}
