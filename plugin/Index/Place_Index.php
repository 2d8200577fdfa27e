<?php
/**
 * The place index: published markers in tables keyed for tiles, boxes and word search.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Location_Types;
use Cairn\Maps\Content\Post_Places_Repository;
use Cairn\Maps\Markers\Post_Type;
use WP_Post;

/**
 * Keeps the index's tables (Index_Schema) equal to the markers the feed serves (Place_Source):
 * one marker at a time as it changes (sync(), from WordPress' hooks), a list of them after an
 * import (sync_many()), or all of them in the background (a rebuild, started on activation, on a
 * schema change and when a group's slug changes). While a rebuild is pending is_ready() is false,
 * and maps use their whole feed.
 *
 * A rebuild runs in bounded steps (Index_Rebuild), one run of steps at a time (Rebuild_Lock), its
 * progress kept between requests (Rebuild_State). Runs come from WP-Cron (run_cron()), from admin
 * page loads where WP-Cron does not run (Admin_Steps, judged by Cron_Health), or from WP-CLI
 * (rebuild_now()); see docs/developers.md, "How the index gets built".
 *
 * Every change a visitor could see (position, title, groups, publishing) updates the place's row
 * and words, moves it between the aggregates of CELL_LEVELS (±1, never a rescan), and gives the
 * cells holding its old and new position at levels 0..STAMP_MAX_LEVEL a new stamp.
 *
 * @since 0.5.0
 */
class Place_Index {

	/**
	 * The levels (Morton::cell()) whose cells keep aggregates of their places.
	 */
	public const CELL_LEVELS = array( 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 );

	/**
	 * The deepest level of tile stamps (tiles go to zoom 17).
	 */
	public const STAMP_MAX_LEVEL = 17;

	/**
	 * The WP-Cron event of the background rebuild.
	 */
	public const HOOK = 'cairn_maps_index_rebuild';

	/**
	 * The option holding a pending rebuild's progress (absent: none pending).
	 */
	public const REBUILD_OPTION = Rebuild_State::OPTION;

	/**
	 * Seconds of rebuilding per WP-Cron run.
	 */
	public const CRON_SECONDS = 20;


	/**
	 * The markers as the index holds them.
	 *
	 * @var Place_Source
	 */
	private Place_Source $source;

	/**
	 * The index's tables.
	 *
	 * @var Place_Store
	 */
	private Place_Store $store;

	/**
	 * A pending rebuild's progress.
	 *
	 * @var Rebuild_State
	 */
	private Rebuild_State $state;

	/**
	 * Runs the rebuild's steps.
	 *
	 * @var Rebuild_Runner
	 */
	private Rebuild_Runner $runner;

	/**
	 * Whether WP-Cron runs the rebuild here.
	 *
	 * @var Cron_Health
	 */
	private Cron_Health $cron;

	/**
	 * Slugs of groups being edited, by term id (edit_terms → edited_{taxonomy}).
	 *
	 * @var array<int, string>
	 */
	private array $editing = array();

	/**
	 * Creates the index.
	 *
	 * @param Cron_Health|null $cron Whether WP-Cron runs here (shared with Admin_Steps and
	 *                               Index_Health; made here when not given).
	 */
	public function __construct( ?Cron_Health $cron = null ) {
		$this->source = new Place_Source();
		$this->store  = new Place_Store();
		$this->state  = new Rebuild_State();
		$this->cron   = $cron ?? new Cron_Health();
		$this->runner = new Rebuild_Runner( new Index_Rebuild( $this->source, $this->store ), $this->state, new Rebuild_Lock() );
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'init', array( $this, 'ensure_schema' ), 5, 0 );
		if ( defined( 'CAIRN_MAPS_FILE' ) ) {
			register_activation_hook( CAIRN_MAPS_FILE, array( $this, 'activate' ) );
		}
		add_action( self::HOOK, array( $this, 'run_cron' ), 10, 0 );
		add_action( 'transition_post_status', array( $this, 'on_transition' ), 20, 3 );
		add_action( 'save_post', array( $this, 'on_save' ), 20, 2 );
		add_action( 'deleted_post', array( $this, 'on_deleted_post' ), 20, 2 );
		foreach ( array( 'added_post_meta', 'updated_post_meta', 'deleted_post_meta' ) as $hook ) {
			add_action( $hook, array( $this, 'on_meta_change' ), 20, 3 );
		}
		add_action( 'set_object_terms', array( $this, 'on_set_object_terms' ), 20, 4 );
		add_action( 'deleted_term_relationships', array( $this, 'on_deleted_term_relationships' ), 20, 3 );
		add_action( 'edit_terms', array( $this, 'on_edit_term' ), 20, 2 );
		add_action( 'edited_' . Post_Type::TAXONOMY, array( $this, 'on_edited_group' ), 20, 1 );
		add_action( 'edited_term', array( $this, 'on_edited_term' ), 20, 3 );
		// The post types enabled for locations decide which posts the index holds (since 0.10.0).
		foreach ( array( 'add_option_', 'update_option_', 'delete_option_' ) as $hook ) {
			add_action( $hook . Location_Types::OPTION, array( $this, 'start_rebuild' ), 10, 0 );
		}
		add_action( 'cairn_maps_markers_imported', array( $this, 'sync_many' ), 10, 1 );
		add_action( 'cairn_maps_markers_changed', array( $this, 'start_rebuild' ), 10, 0 );
	}

	/**
	 * Creates the tables when their version differs, and starts a rebuild then.
	 */
	public function ensure_schema(): void {
		if ( Index_Schema::ensure() ) {
			$this->start_rebuild();
		}
	}

	/**
	 * Plugin activation: the tables, and a rebuild (markers may have changed while inactive).
	 */
	public function activate(): void {
		Index_Schema::ensure( true );
		$this->start_rebuild();
	}

	/**
	 * A marker entered or left a status.
	 *
	 * @param string $new_status New status.
	 * @param string $old_status Old status.
	 * @param mixed  $post       The post.
	 */
	public function on_transition( $new_status, $old_status, $post ): void {
		if ( $post instanceof WP_Post && Place_Source::reads( $post->post_type ) && ( 'publish' === $new_status || 'publish' === $old_status ) ) {
			$this->sync( (int) $post->ID );
		}
	}

	/**
	 * A marker or a post was saved (its title or password may have changed).
	 *
	 * @param int   $post_id Post id.
	 * @param mixed $post    The post.
	 */
	public function on_save( $post_id, $post = null ): void {
		if ( ! $post instanceof WP_Post || Place_Source::reads( $post->post_type ) ) {
			$this->sync( (int) $post_id );
		}
	}

	/**
	 * A post was deleted.
	 *
	 * @param int          $post_id Post id.
	 * @param WP_Post|null $post    The deleted post.
	 */
	public function on_deleted_post( $post_id, $post = null ): void {
		if ( ! $post instanceof WP_Post || Place_Source::reads( $post->post_type ) ) {
			$this->sync( (int) $post_id );
		}
	}

	/**
	 * Coordinates of a post changed.
	 *
	 * @param int|int[] $meta_id   Meta id(s).
	 * @param int       $object_id Post id.
	 * @param string    $meta_key  Meta key.
	 */
	public function on_meta_change( $meta_id, $object_id, $meta_key ): void {
		if ( in_array( $meta_key, array( Post_Type::META_LAT, Post_Type::META_LNG, Location_Types::META_LAT, Location_Types::META_LNG, Location_Types::META_PUBLIC ), true ) ) {
			$this->sync( (int) $object_id );
		}
	}

	/**
	 * Groups of a post were set.
	 *
	 * @param int               $object_id Post id.
	 * @param array<int|string> $terms     Terms given.
	 * @param int[]             $tt_ids    New term taxonomy ids.
	 * @param string            $taxonomy  Taxonomy.
	 */
	public function on_set_object_terms( $object_id, $terms, $tt_ids, $taxonomy ): void {
		if ( $this->holds_terms( (int) $object_id, (string) $taxonomy ) ) {
			$this->sync( (int) $object_id );
		}
	}

	/**
	 * Groups of a post were removed (wp_remove_object_terms(), a group deleted).
	 *
	 * @param int    $object_id Post id.
	 * @param int[]  $tt_ids    Removed term taxonomy ids.
	 * @param string $taxonomy  Taxonomy.
	 */
	public function on_deleted_term_relationships( $object_id, $tt_ids, $taxonomy ): void {
		if ( $this->holds_terms( (int) $object_id, (string) $taxonomy ) ) {
			$this->sync( (int) $object_id );
		}
	}

	/**
	 * A term is about to be edited: remember a group's slug.
	 *
	 * @param int    $term_id  Term id.
	 * @param string $taxonomy Taxonomy.
	 */
	public function on_edit_term( $term_id, $taxonomy = '' ): void {
		if ( Post_Type::TAXONOMY === $taxonomy || $this->is_post_group( (string) $taxonomy ) ) {
			$this->editing[ (int) $term_id ] = $this->slug_of( (int) $term_id );
		}
	}

	/**
	 * A term of a posts' group taxonomy was edited: a new slug changes the posts' combinations
	 * (their keys `<taxonomy>:<slug>`), which a rebuild writes.
	 *
	 * @since 0.10.0
	 *
	 * @param int    $term_id  Term id.
	 * @param int    $tt_id    Term taxonomy id.
	 * @param string $taxonomy Taxonomy.
	 */
	public function on_edited_term( $term_id, $tt_id = 0, $taxonomy = '' ): void {
		if ( Post_Type::TAXONOMY === $taxonomy || ! isset( $this->editing[ (int) $term_id ] ) ) {
			return;
		}
		$before = $this->editing[ (int) $term_id ];
		unset( $this->editing[ (int) $term_id ] );
		if ( $before !== $this->slug_of( (int) $term_id ) && Index_Schema::is_current() ) {
			$this->start_rebuild();
		}
	}

	/**
	 * Whether a change of a post's terms in a taxonomy may change its place in the index: a
	 * marker's groups, or the terms of a post of a type enabled for locations.
	 *
	 * @param int    $object_id Post id.
	 * @param string $taxonomy  Taxonomy.
	 */
	private function holds_terms( int $object_id, string $taxonomy ): bool {
		if ( Post_Type::TAXONOMY === $taxonomy ) {
			return true;
		}
		$type = get_post_type( $object_id );
		return false !== $type && Location_Types::is_enabled( $type ) && $this->is_post_group( $taxonomy );
	}

	/**
	 * Whether a taxonomy groups the posts of some type enabled for locations.
	 *
	 * @param string $taxonomy Taxonomy.
	 */
	private function is_post_group( string $taxonomy ): bool {
		return '' !== $taxonomy && in_array( $taxonomy, Post_Places_Repository::group_taxonomies( Location_Types::enabled() ), true );
	}

	/**
	 * A group was edited: a new slug is written into the combinations holding the old one (the
	 * places keep their combination; the markers version, renewed by the edit, renews every tile
	 * URL). Should the new list of slugs be another combination's already, a rebuild merges them.
	 *
	 * @param int $term_id Term id.
	 */
	public function on_edited_group( $term_id ): void {
		$term_id = (int) $term_id;
		$before  = $this->editing[ $term_id ] ?? null;
		unset( $this->editing[ $term_id ] );
		$after = $this->slug_of( $term_id );
		if ( null === $before || '' === $after || $before === $after || ! Index_Schema::is_current() ) {
			return;
		}
		$changes = array();
		$combos  = $this->combos();
		$hashes  = array();
		foreach ( $combos as $id => $slugs ) {
			$hashes[ md5( implode( ',', $slugs ) ) ] = $id;
		}
		foreach ( $combos as $id => $slugs ) {
			if ( ! in_array( $before, $slugs, true ) ) {
				continue;
			}
			$renamed = array_values( array_unique( array_map( static fn( string $slug ): string => $slug === $before ? $after : $slug, $slugs ) ) );
			sort( $renamed, SORT_STRING );
			$hash = md5( implode( ',', $renamed ) );
			if ( isset( $hashes[ $hash ] ) || count( $renamed ) !== count( $slugs ) ) {
				$this->start_rebuild();
				return;
			}
			$changes[ $id ] = $renamed;
		}
		$this->store->rename_combos( $changes );
	}

	/**
	 * Upserts or removes one marker everywhere in the index.
	 *
	 * @param int $post_id Post id.
	 */
	public function sync( int $post_id ): void {
		$this->sync_many( array( $post_id ) );
	}

	/**
	 * Syncs a list of markers (importers): 500 at a time, each 500 with a few reads and a few
	 * multi-row writes in one transaction.
	 *
	 * @param int[] $ids Post ids.
	 */
	public function sync_many( array $ids ): void {
		if ( ! Index_Schema::is_current() ) {
			return;
		}
		$ids = array_values( array_unique( array_filter( array_map( 'intval', $ids ), static fn( int $id ): bool => $id > 0 ) ) );
		foreach ( array_chunk( $ids, 500 ) as $chunk ) {
			$places  = $this->source->of( $chunk );
			$stored  = $this->store->rows( $chunk );
			$changes = array();
			foreach ( $chunk as $post_id ) {
				$new = isset( $places[ $post_id ] ) ? $this->row_of( $places[ $post_id ] ) : null;
				$old = $stored[ $post_id ] ?? null;
				if ( $old !== $new ) {
					$changes[ $post_id ] = array( $old, $new );
				}
			}
			if ( array() !== $changes ) {
				$this->apply( $changes );
			}
		}
	}

	/**
	 * Whether the index matches the markers: tables current and no rebuild pending (read from
	 * the database itself, see Rebuild_State).
	 */
	public function is_ready(): bool {
		return Index_Schema::is_current() && null === $this->state->raw();
	}

	/**
	 * Whether a rebuild is pending (one primary-key read).
	 *
	 * @since 0.8.0
	 */
	public function is_pending(): bool {
		return null !== $this->state->raw();
	}

	/**
	 * How many places a selection holds. When the index is ready, from the cell counts at the
	 * coarsest level (a few hundred rows, whatever the number of places; maps ask on every page
	 * render); while a rebuild is pending, by counting the places (about 0.1 s at a million).
	 *
	 * @param Place_Filter|null $selection The selection (Place_Filter::selects()); null for every place the index holds.
	 */
	public function count( ?Place_Filter $selection = null ): int {
		global $wpdb;
		$where = '';
		if ( null !== $selection ) {
			$ids = ( new Search_Terms() )->selection( $selection );
			if ( array() === $ids ) {
				return 0;
			}
			$where = null === $ids ? '' : ' AND combo IN (' . implode( ',', array_map( 'intval', $ids ) ) . ')';
		}
		if ( $this->is_ready() ) {
			$cells = Index_Schema::table( 'cairn_place_cells' );
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table; integers only.
			return (int) $wpdb->get_var( $wpdb->prepare( "SELECT COALESCE(SUM(n), 0) FROM $cells WHERE level = %d$where", self::CELL_LEVELS[0] ) );
		}
		$places = Index_Schema::table( 'cairn_places' );
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.PreparedSQL.NotPrepared -- the plugin's own table; integers only.
		return (int) $wpdb->get_var( "SELECT COUNT(*) FROM $places WHERE 1 = 1$where" );
	}

	/**
	 * The combinations of groups, by id: each a sorted list of slugs.
	 *
	 * @return array<int, string[]>
	 */
	public function combos(): array {
		$this->store->forget_combos();
		return $this->store->combos();
	}

	/**
	 * The stamp of a cell at a level (0..STAMP_MAX_LEVEL): changes whenever a place in it does.
	 *
	 * @param int $level Level.
	 * @param int $cell  Cell (Morton::cell()).
	 */
	public function stamp( int $level, int $cell ): int {
		return $this->store->stamp( $level, $cell );
	}

	/**
	 * The newest stamp of tile z/x/y and its eight neighbours (a tile's clusters read its
	 * neighbours' places: Tile_Builder).
	 *
	 * @since 0.9.0
	 *
	 * @param int $z Zoom (0..STAMP_MAX_LEVEL).
	 * @param int $x Column.
	 * @param int $y Row.
	 */
	public function stamp_around( int $z, int $x, int $y ): int {
		$last  = ( 1 << $z ) - 1;
		$cells = array();
		$x_end = min( $last, $x + 1 );
		$y_end = min( $last, $y + 1 );
		for ( $tx = max( 0, $x - 1 ); $tx <= $x_end; $tx++ ) {
			for ( $ty = max( 0, $y - 1 ); $ty <= $y_end; $ty++ ) {
				$cells[] = Morton::interleave( $tx, $ty );
			}
		}
		return $this->store->newest_stamp( $z, $cells );
	}

	/**
	 * Starts a full rebuild in the background (is_ready() is false until it ends). A run between
	 * two steps notices and stops; the next run starts over.
	 */
	public function start_rebuild(): void {
		$this->state->start();
		if ( ! wp_next_scheduled( self::HOOK ) ) {
			wp_schedule_single_event( time(), self::HOOK );
		}
	}

	/**
	 * One step of a full rebuild, without the lock (Rebuild_Runner::rebuild()).
	 *
	 * @param int $batch Markers per batch.
	 * @return bool Whether the rebuild is done.
	 */
	public function rebuild( int $batch = Rebuild_Runner::BATCH ): bool {
		return $this->runner->rebuild( $batch );
	}

	/**
	 * A whole rebuild in this request (Rebuild_Runner::rebuild_now()).
	 *
	 * @param int    $batch Markers per batch.
	 * @param string $by    Who runs it (`cli`, `request`), for Site Health.
	 * @return bool Whether it ended (false: the database refused the same step three times, or
	 *              another run kept the lock; the rebuild stays pending for the next run).
	 */
	public function rebuild_now( int $batch = Rebuild_Runner::BATCH, string $by = 'request' ): bool {
		return $this->runner->rebuild_now( $batch, $by );
	}

	/**
	 * Rebuild steps for a while, if no other run does (Rebuild_Runner::run_steps()).
	 *
	 * @param float  $seconds Seconds to run steps for (at least one step runs).
	 * @param int    $batch   Markers per step.
	 * @param string $by      Who runs them (`cron`, `admin`), for Site Health.
	 * @return string See Rebuild_Runner::run_steps().
	 */
	public function run_steps( float $seconds, int $batch, string $by ): string {
		return $this->runner->run_steps( $seconds, $batch, $by );
	}

	/**
	 * The WP-Cron event: rebuild steps for a while, then come back for the rest.
	 */
	public function run_cron(): void {
		$this->cron->ran();
		$this->runner->run_cron( self::HOOK, self::CRON_SECONDS );
	}

	/**
	 * How many places the index holds, and whether it is ready (WP-CLI, Site Health).
	 *
	 * @return array{places: int, ready: bool}
	 */
	public function info(): array {
		return array(
			'places' => Index_Schema::is_current() ? $this->count() : 0,
			'ready'  => $this->is_ready(),
		);
	}

	/**
	 * Where a rebuild stands (Rebuild_Runner::progress()).
	 *
	 * @return array{pending: bool, phase: string, done: int, total: int, level: int, levels: int, by: string, at: int, started: int, refused: int, running: bool, due: int|false, built: array{by?: string, started?: int, at?: int, places?: int}}
	 */
	public function progress(): array {
		$progress            = $this->runner->progress();
		$progress['pending'] = $progress['pending'] || ! Index_Schema::is_current();
		$progress['due']     = wp_next_scheduled( self::HOOK );
		return $progress;
	}

	/**
	 * The stored row of a place read from the markers.
	 *
	 * @param array{lat: float, lng: float, title: string, slugs: string[]} $place Place.
	 * @return array{code: int, lat: float, lng: float, combo: int, title: string}
	 */
	private function row_of( array $place ): array {
		return array(
			'code'  => Morton::code( $place['lat'], $place['lng'] ),
			'lat'   => $place['lat'],
			'lng'   => $place['lng'],
			'combo' => $this->store->combo_id( $place['slugs'] ),
			'title' => $place['title'],
		);
	}

	/**
	 * Moves the index from places' stored rows to their new ones (either may be null): rows and
	 * words replaced, each cell aggregate changed once by the sum of its changes, the cells of the
	 * old and new positions at levels 0..STAMP_MAX_LEVEL stamped — in one transaction.
	 *
	 * @param array<int, array{0: array{code: int, lat: float, lng: float, combo: int, title: string}|null, 1: array{code: int, lat: float, lng: float, combo: int, title: string}|null}> $changes [old, new] by post id.
	 * @throws \Throwable A failed query's error, after the changes were rolled back.
	 */
	private function apply( array $changes ): void {
		$rows   = array();
		$deltas = array();
		$cells  = array();
		foreach ( $changes as $post_id => $change ) {
			foreach ( $change as $side => $row ) {
				if ( null === $row ) {
					continue;
				}
				$sign = 0 === $side ? -1 : 1;
				if ( 1 === $sign ) {
					$rows[ $post_id ] = $row;
				}
				foreach ( self::CELL_LEVELS as $level ) {
					$cell = Morton::cell( $row['code'], $level );
					$key  = "$level:$cell:{$row['combo']}";
					if ( ! isset( $deltas[ $key ] ) ) {
						$deltas[ $key ] = array( $level, $cell, $row['combo'], 0, 0.0, 0.0 );
					}
					$deltas[ $key ][3] += $sign;
					$deltas[ $key ][4] += $sign * $row['lat'];
					$deltas[ $key ][5] += $sign * $row['lng'];
				}
				for ( $level = 0; $level <= self::STAMP_MAX_LEVEL; $level++ ) {
					$cell                    = Morton::cell( $row['code'], $level );
					$cells[ "$level:$cell" ] = array( $level, $cell );
				}
			}
		}
		$this->store->begin();
		try {
			$this->store->delete_places( 'post_id IN (' . implode( ',', array_map( 'intval', array_keys( $changes ) ) ) . ')' );
			$this->store->insert_rows( $rows );
			$this->store->insert_words( $rows );
			$this->store->change_cells( $deltas );
			$this->store->stamp_cells( $cells, $this->store->next_stamp() );
			if ( $this->store->failed() ) {
				// The database refused a write: the index can no longer be trusted to match.
				$this->store->rollback();
				$this->start_rebuild();
				return;
			}
			$this->store->commit();
		} catch ( \Throwable $error ) {
			$this->store->rollback();
			throw $error;
		}
	}

	/**
	 * A group's slug, read from the database.
	 *
	 * @param int $term_id Term id.
	 */
	private function slug_of( int $term_id ): string {
		global $wpdb;
		return (string) $wpdb->get_var( $wpdb->prepare( "SELECT slug FROM {$wpdb->terms} WHERE term_id = %d", $term_id ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery -- the slug as stored now, not as cached.
	}
}
