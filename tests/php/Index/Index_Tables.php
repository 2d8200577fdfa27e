<?php
/**
 * The place index's tables as tests compare them.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Index\Index_Schema;
use Cairn\Maps\Index\Morton;
use Cairn\Maps\Index\Place_Index;
use Cairn\Maps\Plugin;

// phpcs:disable WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- a test reads the plugin's own tables.

/**
 * The rows, words and cells of the index with combinations spelled out (their ids differ between
 * builds), and the cells as a recount of the places gives them: two builds of the same markers
 * compare equal, whatever built them.
 *
 * @since 0.8.0
 */
trait Index_Tables {

	/**
	 * The site's index.
	 *
	 * @throws \LogicException When the plugin has none.
	 */
	protected static function the_index(): Place_Index {
		$index = Plugin::instance()->get( 'place_index' );
		if ( ! $index instanceof Place_Index ) {
			throw new \LogicException( 'the plugin has no place index' );
		}
		return $index;
	}

	/**
	 * Rows of an index table.
	 *
	 * @param string $name  Table.
	 * @param string $order ORDER BY.
	 * @return array<int, array<string, string>>
	 */
	protected function rows( string $name, string $order ): array {
		global $wpdb;
		$rows = $wpdb->get_results( 'SELECT * FROM ' . Index_Schema::table( $name ) . " ORDER BY $order", ARRAY_A );
		return is_array( $rows ) ? $rows : array();
	}

	/**
	 * Indexed post ids.
	 *
	 * @return int[]
	 */
	protected function indexed(): array {
		return array_map( 'intval', array_column( $this->rows( 'cairn_places', 'post_id' ), 'post_id' ) );
	}

	/**
	 * The state of the index with combinations spelled out (their ids differ between builds).
	 *
	 * @return array{places: array<int, array<string, mixed>>, words: array<int, string>, cells: array<string, array{0: int, 1: float, 2: float}>}
	 */
	protected function state(): array {
		$combos = self::the_index()->combos();
		$name   = static fn( $id ): string => 0 === (int) $id ? '' : implode( ',', $combos[ (int) $id ] );
		$places = array();
		foreach ( $this->rows( 'cairn_places', 'post_id' ) as $row ) {
			$row['combo']                    = $name( $row['combo'] );
			$places[ (int) $row['post_id'] ] = $row;
		}
		// Each word with what it carries of its place: a word left behind by a change shows here.
		$words = array_map(
			static fn( $row ): string => sprintf( '%s@%d %s %.6F %.6F %s', $row['word'], $row['post_id'], $name( $row['combo'] ), $row['lat'], $row['lng'], $row['sort_key'] ),
			$this->rows( 'cairn_place_words', 'word, post_id' )
		);
		sort( $words );
		$cells = array();
		foreach ( $this->rows( 'cairn_place_cells', 'level, cell, combo' ) as $row ) {
			$cells[ $row['level'] . ':' . $row['cell'] . ':' . $name( $row['combo'] ) ] = array( (int) $row['n'], round( (float) $row['sum_lat'], 6 ), round( (float) $row['sum_lng'], 6 ) );
		}
		ksort( $cells );
		return array(
			'places' => $places,
			'words'  => $words,
			'cells'  => $cells,
		);
	}

	/**
	 * The cells as a full recount of the places would give them.
	 *
	 * @return array<string, array{0: int, 1: float, 2: float}>
	 */
	protected function recounted_cells(): array {
		$combos = self::the_index()->combos();
		$cells  = array();
		foreach ( $this->rows( 'cairn_places', 'post_id' ) as $row ) {
			foreach ( Place_Index::CELL_LEVELS as $level ) {
				$key = $level . ':' . Morton::cell( (int) $row['code'], $level ) . ':' . ( 0 === (int) $row['combo'] ? '' : implode( ',', $combos[ (int) $row['combo'] ] ) );
				if ( ! isset( $cells[ $key ] ) ) {
					$cells[ $key ] = array( 0, 0.0, 0.0 );
				}
				++$cells[ $key ][0];
				$cells[ $key ][1] += (float) $row['lat'];
				$cells[ $key ][2] += (float) $row['lng'];
			}
		}
		foreach ( $cells as $key => $cell ) {
			$cells[ $key ] = array( $cell[0], round( $cell[1], 6 ), round( $cell[2], 6 ) );
		}
		ksort( $cells );
		return $cells;
	}
}
