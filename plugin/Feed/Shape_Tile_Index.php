<?php
/**
 * The shape tiles' tables, kept equal to the markers' shapes.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Feed;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Markers\Shape_Store;
use Cairn\Maps\Support\Limits;
use WP_Post;

/**
 * Keeps Shape_Tile_Schema's tables equal to the markers' derived shapes (`_cairn_shape`): a
 * shape's rows are made again whenever that meta is written (Shape_Store::save(), a plain
 * update_post_meta(), WP-CLI) and go when it is deleted or its post is; an import's are made
 * after each of its batches (`cairn_maps_markers_imported`, which writes meta in bulk); all of
 * them in the background (rebuild(), WP-Cron) on activation, when the tables' version changes and
 * on `cairn_maps_markers_changed`. While a rebuild is pending is_ready() is false: maps draw their
 * shapes from the whole feed, and no tile is kept or sent as immutable.
 *
 * A shape's rows are written in one transaction, then the markers version is renewed (when the
 * marker is published), so a tile built meanwhile is kept under the version before, never under
 * the one a map asks with once the rows are in.
 *
 * @since 0.7.0
 */
class Shape_Tile_Index {

	/**
	 * The WP-Cron event of the background rebuild.
	 */
	public const HOOK = 'cairn_maps_shape_tiles_rebuild';

	/**
	 * The option holding a pending rebuild's progress (absent: none pending).
	 */
	public const REBUILD_OPTION = 'cairn_maps_shape_tiles_rebuild';

	/**
	 * Seconds of rebuilding per WP-Cron run.
	 */
	public const CRON_SECONDS = 20;

	/**
	 * Shapes made per rebuild step (each a few to a few hundred milliseconds).
	 */
	public const BATCH = 20;

	/**
	 * The tables.
	 *
	 * @var Shape_Tile_Store
	 */
	private Shape_Tile_Store $store;

	/**
	 * The markers version, renewed once rows changed.
	 *
	 * @var Markers_Version
	 */
	private Markers_Version $version;

	/**
	 * Creates the index.
	 *
	 * @param Markers_Version|null $version The markers version.
	 */
	public function __construct( ?Markers_Version $version = null ) {
		$this->version = $version ?? new Markers_Version();
		$this->store   = new Shape_Tile_Store();
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
		add_action( 'added_post_meta', array( $this, 'on_meta_written' ), 20, 3 );
		add_action( 'updated_post_meta', array( $this, 'on_meta_written' ), 20, 3 );
		add_action( 'deleted_post_meta', array( $this, 'on_meta_written' ), 20, 3 );
		add_action( 'deleted_post', array( $this, 'on_deleted_post' ), 20, 2 );
		add_action( 'cairn_maps_markers_imported', array( $this, 'sync_many' ), 20, 1 );
		add_action( 'cairn_maps_markers_changed', array( $this, 'start_rebuild' ), 10, 0 );
	}

	/**
	 * Creates the tables when their version differs, and starts a rebuild then.
	 */
	public function ensure_schema(): void {
		if ( Shape_Tile_Schema::ensure() ) {
			$this->start_rebuild();
		}
	}

	/**
	 * Plugin activation: the tables, and a rebuild (shapes may have changed while inactive).
	 */
	public function activate(): void {
		Shape_Tile_Schema::ensure( true );
		$this->start_rebuild();
	}

	/**
	 * A post's `_cairn_shape` was written or deleted.
	 *
	 * @param int|int[] $meta_id   Meta id(s).
	 * @param int       $object_id Post id.
	 * @param string    $meta_key  Meta key.
	 */
	public function on_meta_written( $meta_id, $object_id, $meta_key ): void {
		if ( Shape_Store::META_SHAPE === $meta_key ) {
			$this->sync( (int) $object_id );
		}
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
	 * Makes one marker's rows again from its stored shape (or deletes them when it has none).
	 *
	 * @param int $post_id Post id.
	 */
	public function sync( int $post_id ): void {
		$this->sync_many( array( $post_id ) );
	}

	/**
	 * Makes the rows of some markers again (an import's batch), then renews the markers version
	 * once when any of them is published.
	 *
	 * @param mixed $ids Post ids (an action's argument).
	 */
	public function sync_many( $ids ): void {
		if ( ! is_array( $ids ) || ! Shape_Tile_Schema::is_current() ) {
			return;
		}
		$visible = false;
		// Only those with a shape or rows: an import of points (or of posts) writes none.
		foreach ( array_chunk( array_map( 'intval', $ids ), 500 ) as $chunk ) {
			$texts = self::stored_among( $chunk );
			foreach ( array_unique( array_merge( array_keys( $texts ), $this->store->held( $chunk ) ) ) as $post_id ) {
				if ( ! $this->write( $post_id, $texts[ $post_id ] ?? null ) ) {
					$this->start_rebuild(); // The database refused: nothing changed; all made again.
				}
				$visible = $visible || ( Post_Type::POST_TYPE === get_post_type( $post_id ) && 'publish' === get_post_status( $post_id ) );
			}
		}
		if ( $visible ) {
			$this->version->bump();
		}
	}

	/**
	 * Whether the tables match the shapes: current and no rebuild pending.
	 */
	public function is_ready(): bool {
		return Shape_Tile_Schema::is_current() && false === $this->rebuild_state();
	}

	/**
	 * Positions of the published shapes of a selection in all, as the feed serves them.
	 *
	 * @param array{groups?: string[], ids?: int[]} $filters Canonical filters.
	 */
	public function positions( array $filters ): int {
		return (int) array_sum( $this->store->positions( $filters ) );
	}

	/**
	 * The tables.
	 */
	public function store(): Shape_Tile_Store {
		return $this->store;
	}

	/**
	 * Starts a full rebuild in the background (is_ready() is false until it ends), under a new
	 * markers version: what was decided under the old one (which maps draw tiles, kept tiles) is
	 * decided again.
	 */
	public function start_rebuild(): void {
		update_option( self::REBUILD_OPTION, array( 'after' => 0 ), false );
		$this->version->bump();
		if ( ! wp_next_scheduled( self::HOOK ) ) {
			wp_schedule_single_event( time(), self::HOOK );
		}
	}

	/**
	 * One step of a rebuild: the next BATCH shapes made, and the rows of shapes gone in their id
	 * range deleted. Starts one when none is pending.
	 *
	 * @return bool Whether the rebuild is done.
	 */
	public function rebuild(): bool {
		Shape_Tile_Schema::ensure();
		$state = $this->rebuild_state();
		$after = is_array( $state ) ? (int) ( $state['after'] ?? 0 ) : 0;
		$texts = self::stored_after( $after, self::BATCH );
		if ( array() === $texts ) {
			$this->store->delete_range( $after, 0, array() );
			delete_option( self::REBUILD_OPTION );
			// Maps that drew the whole feed meanwhile may use the tiles now: new configurations.
			$this->version->bump();
			return true;
		}
		foreach ( $texts as $post_id => $text ) {
			if ( ! $this->write( $post_id, $text ) ) {
				return false; // Tried again on the next step.
			}
		}
		$last = (int) max( array_keys( $texts ) );
		$this->store->delete_range( $after, $last, array_keys( $texts ) );
		update_option( self::REBUILD_OPTION, array( 'after' => $last ), false );
		return false;
	}

	/**
	 * A whole rebuild in this request (benchmarks, tests, the e2e site's fixture).
	 *
	 * @return bool Whether it ended (false: the database refused the same step three times).
	 */
	public function rebuild_now(): bool {
		update_option( self::REBUILD_OPTION, array( 'after' => 0 ), false );
		$this->version->bump();
		$refused = 0;
		while ( $refused < 3 ) {
			$before = $this->rebuild_state();
			if ( $this->rebuild() ) {
				return true;
			}
			$refused = $this->rebuild_state() === $before ? $refused + 1 : 0;
		}
		return false;
	}

	/**
	 * The WP-Cron event: rebuild steps for a while, then come back for the rest.
	 */
	public function run_cron(): void {
		if ( false === $this->rebuild_state() ) {
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
	 * Writes (or deletes) one marker's rows from its stored shape text.
	 *
	 * @param int         $post_id Post id.
	 * @param string|null $text    Its `_cairn_shape`, null when it has none.
	 * @return bool Whether the database took it.
	 */
	private function write( int $post_id, ?string $text ): bool {
		$rows = null === $text ? null : Shape_Zoom_Rows::of( $text, (int) Limits::get( 'shapeTiles.fullZoom' ) );
		return null === $rows ? $this->store->delete( $post_id ) : $this->store->replace( $post_id, $rows );
	}

	/**
	 * The stored `_cairn_shape` text of those of some posts that have one, by id, read from the
	 * database (an import writes it by SQL, past the object cache).
	 *
	 * @param int[] $ids Post ids.
	 * @return array<int, string>
	 */
	private static function stored_among( array $ids ): array {
		global $wpdb;
		if ( array() === $ids ) {
			return array();
		}
		$sql   = "SELECT post_id, meta_value FROM {$wpdb->postmeta} WHERE meta_key = %s AND post_id IN (" . implode( ',', array_fill( 0, count( $ids ), '%d' ) ) . ') ORDER BY meta_id';
		$texts = array();
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare -- only placeholders are interpolated; the rows as the database holds them now.
		foreach ( (array) $wpdb->get_results( $wpdb->prepare( $sql, array_merge( array( Shape_Store::META_SHAPE ), $ids ) ), ARRAY_N ) as $row ) {
			if ( is_string( $row[1] ) && '' !== $row[1] ) {
				$texts[ (int) $row[0] ] ??= $row[1];
			}
		}
		return $texts;
	}

	/**
	 * The next stored shapes after a post id, by id.
	 *
	 * @param int $after Post ids above this one.
	 * @param int $limit How many.
	 * @return array<int, string>
	 */
	private static function stored_after( int $after, int $limit ): array {
		global $wpdb;
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- a batch of the rebuild.
		$ids = array_map( 'intval', $wpdb->get_col( $wpdb->prepare( "SELECT DISTINCT post_id FROM {$wpdb->postmeta} WHERE meta_key = %s AND post_id > %d ORDER BY post_id LIMIT %d", Shape_Store::META_SHAPE, $after, $limit ) ) );
		return self::stored_among( $ids );
	}

	/**
	 * A pending rebuild's progress, or false. Read from the database, not get_option(): with a
	 * persistent object cache, a cached "no such option" would make a pending rebuild look done
	 * (Index\Place_Index reads its own the same way).
	 *
	 * @return mixed
	 */
	private function rebuild_state() {
		global $wpdb;
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- must bypass the object cache's notoptions (see above).
		$raw = $wpdb->get_var( $wpdb->prepare( "SELECT option_value FROM {$wpdb->options} WHERE option_name = %s LIMIT 1", self::REBUILD_OPTION ) );
		return is_string( $raw ) ? maybe_unserialize( $raw ) : false;
	}
}
