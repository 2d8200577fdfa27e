<?php
/**
 * The place index: published markers in tables keyed for tiles, boxes and word search.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Post_Type;
use WP_Post;

/**
 * Keeps the index's tables (Index_Schema) equal to the markers the feed serves (Place_Source):
 * one marker at a time as it changes (sync(), from WordPress' hooks), a list of them after an
 * import (sync_many()), or all of them in the background (rebuild(), batch by batch from WP-Cron,
 * started on activation, on a schema change and when a group's slug changes). While a rebuild is
 * pending is_ready() is false, and maps use their whole feed.
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
	public const REBUILD_OPTION = 'cairn_maps_index_rebuild';

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
	 * Slugs of groups being edited, by term id (edit_terms → edited_{taxonomy}).
	 *
	 * @var array<int, string>
	 */
	private array $editing = array();

	/**
	 * Creates the index.
	 */
	public function __construct() {
		$this->source = new Place_Source();
		$this->store  = new Place_Store();
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
		add_action( 'save_post_' . Post_Type::POST_TYPE, array( $this, 'on_save' ), 20, 1 );
		add_action( 'deleted_post', array( $this, 'on_deleted_post' ), 20, 2 );
		foreach ( array( 'added_post_meta', 'updated_post_meta', 'deleted_post_meta' ) as $hook ) {
			add_action( $hook, array( $this, 'on_meta_change' ), 20, 3 );
		}
		add_action( 'set_object_terms', array( $this, 'on_set_object_terms' ), 20, 4 );
		add_action( 'deleted_term_relationships', array( $this, 'on_deleted_term_relationships' ), 20, 3 );
		add_action( 'edit_terms', array( $this, 'on_edit_term' ), 20, 2 );
		add_action( 'edited_' . Post_Type::TAXONOMY, array( $this, 'on_edited_group' ), 20, 1 );
		add_action( 'cairn_maps_markers_imported', array( $this, 'sync_many' ), 10, 1 );
		add_action( 'cairn_maps_markers_changed', array( $this, 'start_rebuild' ), 10, 0 );
		add_filter( 'debug_information', array( $this, 'add_site_health_info' ), 20 );
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
		if ( $post instanceof WP_Post && Post_Type::POST_TYPE === $post->post_type && ( 'publish' === $new_status || 'publish' === $old_status ) ) {
			$this->sync( (int) $post->ID );
		}
	}

	/**
	 * A marker was saved (its title or password may have changed).
	 *
	 * @param int $post_id Post id.
	 */
	public function on_save( $post_id ): void {
		$this->sync( (int) $post_id );
	}

	/**
	 * A post was deleted.
	 *
	 * @param int          $post_id Post id.
	 * @param WP_Post|null $post    The deleted post.
	 */
	public function on_deleted_post( $post_id, $post = null ): void {
		if ( ! $post instanceof WP_Post || Post_Type::POST_TYPE === $post->post_type ) {
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
		if ( Post_Type::META_LAT === $meta_key || Post_Type::META_LNG === $meta_key ) {
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
		if ( Post_Type::TAXONOMY === $taxonomy ) {
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
		if ( Post_Type::TAXONOMY === $taxonomy ) {
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
		if ( Post_Type::TAXONOMY === $taxonomy ) {
			$this->editing[ (int) $term_id ] = $this->slug_of( (int) $term_id );
		}
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
	 * Whether the index matches the markers: tables current and no rebuild pending.
	 */
	public function is_ready(): bool {
		return Index_Schema::is_current() && false === get_option( self::REBUILD_OPTION, false );
	}

	/**
	 * How many places a selection holds.
	 *
	 * @param string[] $group_slugs Group slugs (places in any of them); none for all places.
	 */
	public function count( array $group_slugs = array() ): int {
		global $wpdb;
		$table = Index_Schema::table( 'cairn_places' );
		if ( array() === $group_slugs ) {
			return (int) $wpdb->get_var( "SELECT COUNT(*) FROM $table" ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
		}
		$ids = $this->combos_with( $group_slugs );
		if ( array() === $ids ) {
			return 0;
		}
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.PreparedSQL.NotPrepared -- integers only.
		return (int) $wpdb->get_var( "SELECT COUNT(*) FROM $table WHERE combo IN (" . implode( ',', $ids ) . ')' );
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
	 * The ids of the combinations holding any of some groups.
	 *
	 * @param string[] $group_slugs Group slugs.
	 * @return int[]
	 */
	public function combos_with( array $group_slugs ): array {
		$wanted = array_fill_keys( array_map( 'strval', $group_slugs ), true );
		$ids    = array();
		foreach ( $this->combos() as $id => $slugs ) {
			foreach ( $slugs as $slug ) {
				if ( isset( $wanted[ $slug ] ) ) {
					$ids[] = (int) $id;
					break;
				}
			}
		}
		return $ids;
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
	 * Starts a full rebuild in the background (is_ready() is false until it ends).
	 */
	public function start_rebuild(): void {
		update_option( self::REBUILD_OPTION, array( 'phase' => 'start' ), false );
		if ( ! wp_next_scheduled( self::HOOK ) ) {
			wp_schedule_single_event( time(), self::HOOK );
		}
	}

	/**
	 * One batch of a full rebuild (see Index_Rebuild). Starts one when none is pending.
	 *
	 * @param int $batch Markers per batch.
	 * @return bool Whether the rebuild is done.
	 */
	public function rebuild( int $batch = 5000 ): bool {
		if ( ! Index_Schema::is_current() ) {
			Index_Schema::ensure();
		}
		$state = get_option( self::REBUILD_OPTION, false );
		if ( ! is_array( $state ) ) {
			$state = array( 'phase' => 'start' );
		}
		$state = ( new Index_Rebuild( $this->source, $this->store ) )->step( $state, max( 1, $batch ) );
		if ( null === $state ) {
			delete_option( self::REBUILD_OPTION );
			return true;
		}
		update_option( self::REBUILD_OPTION, $state, false );
		return false;
	}

	/**
	 * A whole rebuild in this request (benchmarks, admins, tests).
	 *
	 * @param int $batch Markers per batch.
	 */
	public function rebuild_now( int $batch = 5000 ): void {
		update_option( self::REBUILD_OPTION, array( 'phase' => 'start' ), false );
		while ( ! $this->rebuild( $batch ) ) {
			continue;
		}
	}

	/**
	 * The WP-Cron event: rebuild batches for a while, then come back for the rest.
	 */
	public function run_cron(): void {
		if ( false === get_option( self::REBUILD_OPTION, false ) ) {
			return;
		}
		$until = microtime( true ) + self::CRON_SECONDS;
		do {
			if ( $this->rebuild() ) {
				return;
			}
		} while ( microtime( true ) < $until );
		wp_schedule_single_event( time(), self::HOOK );
	}

	/**
	 * How many places the index holds, and whether it is ready (Site Health).
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
	 * Adds the index's state to the "Cairn Maps" section of Site Health's Info tab.
	 *
	 * @param mixed $info Site Health's sections.
	 * @return mixed
	 */
	public function add_site_health_info( $info ) {
		if ( ! is_array( $info ) || ! isset( $info['cairn-maps']['fields'] ) || ! is_array( $info['cairn-maps']['fields'] ) ) {
			return $info;
		}
		$state                                       = $this->info();
		$info['cairn-maps']['fields']['place_index'] = array(
			'label' => __( 'Place index', 'cairn-maps' ),
			'value' => $state['ready']
				/* translators: %s: number of places. */
				? sprintf( _n( 'Ready: %s place', 'Ready: %s places', $state['places'], 'cairn-maps' ), number_format_i18n( $state['places'] ) )
				/* translators: %s: number of places. */
				: sprintf( _n( 'Being rebuilt in the background (%s place so far); maps send their whole feed meanwhile', 'Being rebuilt in the background (%s places so far); maps send their whole feed meanwhile', $state['places'], 'cairn-maps' ), number_format_i18n( $state['places'] ) ),
			'debug' => ( $state['ready'] ? 'ready' : 'rebuilding' ) . ', ' . $state['places'],
		);
		return $info;
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
		$titles = array();
		$deltas = array();
		$cells  = array();
		foreach ( $changes as $post_id => $change ) {
			foreach ( $change as $side => $row ) {
				if ( null === $row ) {
					continue;
				}
				$sign = 0 === $side ? -1 : 1;
				if ( 1 === $sign ) {
					$rows[ $post_id ]   = $row;
					$titles[ $post_id ] = $row['title'];
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
			$this->store->insert_words( $titles );
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
