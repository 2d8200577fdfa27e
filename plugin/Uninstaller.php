<?php
/**
 * What deleting the plugin removes.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Location_Types;
use Cairn\Maps\Feed\Shape_Tile_Index;
use Cairn\Maps\Feed\Shape_Tile_Schema;
use Cairn\Maps\Import_Export\Geocode_Job;
use Cairn\Maps\Import_Export\Geocode_Queue;
use Cairn\Maps\Index\Index_Schema;
use Cairn\Maps\Index\Place_Index;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Settings\Settings;

/**
 * Run by uninstall.php when the plugin is deleted (never on deactivation). On every site of the
 * network it removes the plugin's settings, and — only when the owner switched on "Delete all
 * markers and settings when the plugin is deleted" on that site — its markers, their revisions,
 * meta and group assignments, and the marker groups.
 *
 * The plugin is not loaded while it is being uninstalled, so its post type and taxonomy are not
 * registered and the post/term APIs refuse them. Rows are removed with bounded SQL batches instead
 * (one request must cope with 100,000 markers), and the caches are invalidated afterwards.
 *
 * @since 0.1.0
 */
final class Uninstaller {

	/**
	 * Rows per batch.
	 */
	public const BATCH = 500;

	/**
	 * Every option of the plugin shares this prefix.
	 */
	public const OPTION_PREFIX = 'cairn_maps_';

	/**
	 * Uninstalls on the current site, or on every site of a multisite installation.
	 */
	public function run(): void {
		if ( ! is_multisite() ) {
			$this->uninstall_site();
			return;
		}
		$offset = 0;
		do {
			$site_ids = get_sites(
				array(
					'fields'                 => 'ids',
					'number'                 => 100,
					'offset'                 => $offset,
					'network_id'             => 0, // Every network.
					'update_site_meta_cache' => false,
				)
			);
			foreach ( $site_ids as $site_id ) {
				switch_to_blog( (int) $site_id );
				$this->uninstall_site();
				restore_current_blog();
			}
			$offset += 100;
			$fetched = count( $site_ids );
		} while ( 100 === $fetched );
		$this->delete_network_options();
	}

	/**
	 * Uninstalls on the current site.
	 */
	public function uninstall_site(): void {
		// Read the choice before the options go.
		$delete_data = (bool) get_option( Settings::DELETE_DATA_OPTION, false );
		if ( $delete_data ) {
			$this->delete_markers();
			$this->delete_groups();
		}
		$this->delete_geocoding_queue();
		// The place index is derived from the markers: its tables go in any case.
		Index_Schema::drop();
		wp_clear_scheduled_hook( Place_Index::HOOK );
		// So are the shape tiles' (each shape's copies per zoom).
		Shape_Tile_Schema::drop();
		wp_clear_scheduled_hook( Shape_Tile_Index::HOOK );
		$this->delete_options();
	}

	/**
	 * Deletes markers with their revisions/autosaves, meta and term relationships, in batches.
	 */
	private function delete_markers(): void {
		global $wpdb;
		$after = 0;
		do {
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- uninstall: the post type is not registered, so the post APIs cannot be used.
			$ids = array_map( 'intval', $wpdb->get_col( $wpdb->prepare( "SELECT ID FROM {$wpdb->posts} WHERE post_type = %s AND ID > %d ORDER BY ID LIMIT %d", Post_Type::POST_TYPE, $after, self::BATCH ) ) );
			if ( array() === $ids ) {
				break;
			}
			$after = max( $ids );
			$in    = implode( ',', $ids );
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- $in is a list of integers.
			$children = array_map( 'intval', $wpdb->get_col( "SELECT ID FROM {$wpdb->posts} WHERE post_type = 'revision' AND post_parent IN ($in)" ) );
			$all      = implode( ',', array_merge( $ids, $children ) );
			// phpcs:disable WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- $all is a list of integers.
			$wpdb->query( "DELETE FROM {$wpdb->postmeta} WHERE post_id IN ($all)" );
			$wpdb->query( "DELETE FROM {$wpdb->term_relationships} WHERE object_id IN ($all)" );
			$wpdb->query( "DELETE FROM {$wpdb->posts} WHERE ID IN ($all)" );
			// phpcs:enable
			foreach ( array_merge( $ids, $children ) as $id ) {
				clean_post_cache( $id );
			}
			$fetched = count( $ids );
		} while ( self::BATCH === $fetched );
		wp_cache_set_posts_last_changed();
	}

	/**
	 * Removes what the import's background geocoding leaves on markers that stay (the queue meta
	 * of drafts not geocoded; at most a few per imported row) and its scheduled run.
	 */
	private function delete_geocoding_queue(): void {
		global $wpdb;
		$keys = array( Geocode_Queue::META_PENDING, Geocode_Queue::META_TRIES, Geocode_Queue::META_LINE, Geocode_Queue::META_FAILED );
		// phpcs:disable WordPress.DB.DirectDatabaseQuery, WordPress.DB.SlowDBQuery.slow_db_query_meta_key, WordPress.DB.PreparedSQLPlaceholders.ReplacementsWrongNumber -- uninstall: the plugin's own meta keys (one array of four).
		$ids = $wpdb->get_col( $wpdb->prepare( "SELECT DISTINCT post_id FROM {$wpdb->postmeta} WHERE meta_key IN (%s, %s, %s, %s)", $keys ) );
		$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->postmeta} WHERE meta_key IN (%s, %s, %s, %s)", $keys ) );
		// phpcs:enable
		foreach ( $ids as $id ) {
			wp_cache_delete( (int) $id, 'post_meta' );
		}
		wp_clear_scheduled_hook( Geocode_Job::HOOK );
	}

	/**
	 * Deletes the marker groups with their term meta.
	 */
	private function delete_groups(): void {
		global $wpdb;
		$after = 0;
		do {
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- uninstall: the taxonomy is not registered, so wp_delete_term() refuses it.
			$rows = $wpdb->get_results( $wpdb->prepare( "SELECT term_id, term_taxonomy_id FROM {$wpdb->term_taxonomy} WHERE taxonomy = %s AND term_taxonomy_id > %d ORDER BY term_taxonomy_id LIMIT %d", Post_Type::TAXONOMY, $after, self::BATCH ) );
			if ( ! is_array( $rows ) || array() === $rows ) {
				break;
			}
			$after    = max( array_map( static fn( $row ) => (int) $row->term_taxonomy_id, $rows ) );
			$term_ids = implode( ',', array_map( static fn( $row ) => (int) $row->term_id, $rows ) );
			$tt_ids   = implode( ',', array_map( static fn( $row ) => (int) $row->term_taxonomy_id, $rows ) );
			// phpcs:disable WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- lists of integers.
			$wpdb->query( "DELETE FROM {$wpdb->term_relationships} WHERE term_taxonomy_id IN ($tt_ids)" );
			$wpdb->query( "DELETE FROM {$wpdb->term_taxonomy} WHERE term_taxonomy_id IN ($tt_ids)" );
			// A term row may still be shared with another taxonomy on very old sites: keep those.
			$wpdb->query( "DELETE FROM {$wpdb->termmeta} WHERE term_id IN ($term_ids) AND term_id NOT IN (SELECT term_id FROM {$wpdb->term_taxonomy})" );
			$wpdb->query( "DELETE FROM {$wpdb->terms} WHERE term_id IN ($term_ids) AND term_id NOT IN (SELECT term_id FROM {$wpdb->term_taxonomy})" );
			// phpcs:enable
			foreach ( $rows as $row ) {
				wp_cache_delete( (int) $row->term_id, 'terms' );
				wp_cache_delete( (int) $row->term_id, 'term_meta' );
			}
			$fetched = count( $rows );
		} while ( self::BATCH === $fetched );
		wp_cache_delete( 'all_ids', Post_Type::TAXONOMY );
		wp_cache_delete( 'get', Post_Type::TAXONOMY );
		delete_option( Post_Type::TAXONOMY . '_children' );
		wp_cache_set_terms_last_changed();
	}

	/**
	 * Deletes every option (and transient) of the plugin on the current site.
	 */
	private function delete_options(): void {
		global $wpdb;
		$like = $wpdb->esc_like( self::OPTION_PREFIX ) . '%';
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- finds the names; delete_option() then clears each from the cache too.
		$names = $wpdb->get_col(
			$wpdb->prepare(
				"SELECT option_name FROM {$wpdb->options} WHERE option_name LIKE %s OR option_name LIKE %s OR option_name LIKE %s",
				$like,
				$wpdb->esc_like( '_transient_' . self::OPTION_PREFIX ) . '%',
				$wpdb->esc_like( '_transient_timeout_' . self::OPTION_PREFIX ) . '%'
			)
		);
		foreach ( $names as $name ) {
			delete_option( $name );
		}
		// Registered defaults would hide a missing row; make sure the known ones are gone too.
		foreach ( array( Settings::TOKEN_OPTION, Settings::DEFAULTS_OPTION, Settings::CONSENT_OPTION, Settings::CATEGORY_OPTION, Settings::DELETE_DATA_OPTION, Settings::ORIGINS_OPTION, Settings::BASEMAP_OPTION, Location_Types::OPTION ) as $name ) {
			delete_option( $name );
		}
	}

	/**
	 * Deletes network-wide options of the plugin (multisite).
	 */
	private function delete_network_options(): void {
		global $wpdb;
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- finds the names; delete_network_option() clears the cache.
		$rows = $wpdb->get_results( $wpdb->prepare( "SELECT site_id, meta_key FROM {$wpdb->sitemeta} WHERE meta_key LIKE %s OR meta_key LIKE %s", $wpdb->esc_like( self::OPTION_PREFIX ) . '%', $wpdb->esc_like( '_site_transient_' . self::OPTION_PREFIX ) . '%' ) );
		foreach ( is_array( $rows ) ? $rows : array() as $row ) {
			delete_network_option( (int) $row->site_id, $row->meta_key );
		}
	}
}
