<?php
/**
 * A full rebuild of the place index, one step at a time.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

/**
 * The steps of a rebuild, each bounded (a few seconds and a few MB at a million markers), with
 * its progress in a small array the caller stores between requests:
 *
 * 1. `start`: the tables of places, words, combinations and cells emptied;
 * 2. `places`: the next batch of markers read (Place_Source::after(), three indexed reads) and
 *    written with one multi-row INSERT per 500 rows (places) and per 1,000 (words); a row a
 *    sync() wrote meanwhile in that id range is replaced;
 * 3. `cells`: one level of Place_Index::CELL_LEVELS recounted per step with one INSERT … SELECT
 *    … GROUP BY (what syncs meanwhile did to the cells is replaced; to the places, kept);
 * 4. the stamps of every cell renewed (one epoch), and the rebuild done.
 *
 * The progress carries `done` (places written so far) and `total` (published markers counted
 * when it started), for Site Health and `wp cairn index status`.
 *
 * @since 0.5.0
 */
final class Index_Rebuild {

	/**
	 * The markers.
	 *
	 * @var Place_Source
	 */
	private Place_Source $source;

	/**
	 * The tables.
	 *
	 * @var Place_Store
	 */
	private Place_Store $store;

	/**
	 * Creates a rebuild.
	 *
	 * @param Place_Source $source The markers.
	 * @param Place_Store  $store  The tables.
	 */
	public function __construct( Place_Source $source, Place_Store $store ) {
		$this->source = $source;
		$this->store  = $store;
	}

	/**
	 * Runs one step.
	 *
	 * @param array<string, mixed> $state Progress (`phase`, `after`, `level`, `done`, `total`).
	 * @param int                  $batch Markers per batch.
	 * @return array<string, mixed>|null The progress after it, or null when the rebuild is done.
	 */
	public function step( array $state, int $batch ): ?array {
		$phase = (string) ( $state['phase'] ?? 'start' );
		if ( 'places' === $phase ) {
			return $this->places( (int) ( $state['after'] ?? 0 ), $batch, (int) ( $state['done'] ?? 0 ) ) + array( 'total' => (int) ( $state['total'] ?? 0 ) );
		}
		if ( 'cells' === $phase ) {
			$next = $this->cells( $state );
			return null === $next ? null : $next + array(
				'done'  => (int) ( $state['done'] ?? 0 ),
				'total' => (int) ( $state['total'] ?? 0 ),
			);
		}
		$this->store->clear();
		return array(
			'phase' => 'places',
			'after' => 0,
			'done'  => 0,
			'total' => $this->source->count(),
		);
	}

	/**
	 * Whether a step gave back the progress it was given (the database refused it).
	 *
	 * @param array<string, mixed> $before Progress before the step.
	 * @param array<string, mixed> $after  Progress after it.
	 */
	public static function repeats( array $before, array $after ): bool {
		foreach ( array( 'phase', 'after', 'level' ) as $key ) {
			if ( ( $before[ $key ] ?? null ) !== ( $after[ $key ] ?? null ) ) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Recounts the next level of cells, or renews the stamps after the last one.
	 *
	 * @param array<string, mixed> $state Progress (`level`).
	 * @return array<string, mixed>|null
	 */
	private function cells( array $state ): ?array {
		$index = (int) ( $state['level'] ?? 0 );
		if ( $index >= count( Place_Index::CELL_LEVELS ) ) {
			$this->store->restamp_all();
			return null;
		}
		$this->store->begin();
		$this->store->recount_level( Place_Index::CELL_LEVELS[ $index ] );
		if ( $this->store->failed() ) {
			$this->store->rollback();
			return array(
				'phase' => 'cells',
				'level' => $index,
			); // Tried again on the next step.
		}
		$this->store->commit();
		return array(
			'phase' => 'cells',
			'level' => $index + 1,
		);
	}

	/**
	 * Writes the next batch of places.
	 *
	 * @param int $after Last post id read.
	 * @param int $batch Markers per batch.
	 * @param int $done  Places written so far.
	 * @return array<string, mixed>
	 */
	private function places( int $after, int $batch, int $done ): array {
		list( $places, $last ) = $this->source->after( $after, $batch );
		if ( 0 === $last ) {
			return array(
				'phase' => 'cells',
				'level' => 0,
				'done'  => $done,
			);
		}
		$rows = array();
		foreach ( $places as $post_id => $place ) {
			$rows[ $post_id ] = array(
				'code'  => Morton::code( $place['lat'], $place['lng'] ),
				'lat'   => $place['lat'],
				'lng'   => $place['lng'],
				'combo' => $this->store->combo_id( $place['slugs'] ),
				'title' => $place['title'],
			);
		}
		$this->store->begin();
		$this->store->delete_places( sprintf( 'post_id > %d AND post_id <= %d', $after, $last ) );
		$this->store->insert_rows( $rows );
		$this->store->insert_words( $rows );
		if ( $this->store->failed() ) {
			$this->store->rollback();
			return array(
				'phase' => 'places',
				'after' => $after,
				'done'  => $done,
			); // Tried again on the next step.
		}
		$this->store->commit();
		return array(
			'phase' => 'places',
			'after' => $last,
			'done'  => $done + count( $rows ),
		);
	}
}
