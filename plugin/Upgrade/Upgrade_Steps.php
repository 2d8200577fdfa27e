<?php
/**
 * What each version changes in a site's stored data.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Upgrade;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Feed\Feed_Cache;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Settings\Site_Defaults;
use Cairn\Maps\Settings\Style_Reference;
use WP_Error;

/**
 * The upgrade steps, by the version that needs them. Every step can run twice without harm (an
 * interrupted upgrade runs the unfinished step again) and never touches markers, groups, their
 * looks or posts: only what the plugin derives from them and can rebuild, and settings whose home
 * moved (the default style, into the site's basemap).
 *
 * @since 0.2.0
 */
final class Upgrade_Steps {

	/**
	 * The group looks' cache of 0.1.0 (0.2.0 keeps a different shape under another name).
	 */
	private const GROUP_STYLES_CACHE_0_1 = 'cairn_maps_group_styles';

	/**
	 * Changes the markers version: every cached feed, ETag and posts-maps answer is rebuilt.
	 *
	 * @var Markers_Version
	 */
	private Markers_Version $markers_version;

	/**
	 * Sets up the steps.
	 *
	 * @param Markers_Version $markers_version The markers version.
	 */
	public function __construct( Markers_Version $markers_version ) {
		$this->markers_version = $markers_version;
	}

	/**
	 * Every step, by version then name, for the Upgrader.
	 *
	 * @return array<string, array<string, callable(): (void|WP_Error)>>
	 */
	public function all(): array {
		return array(
			'0.2.0' => array(
				'feed-cache-0.1'        => array( $this, 'drop_unbounded_feed_cache' ),
				'group-styles-0.1'      => array( $this, 'drop_group_styles_cache' ),
				'markers-version'       => array( $this, 'renew_markers_version' ),
				// Under the code's own version (CAIRN_MAPS_VERSION), so a site coming from a release
				// runs it: a step above the code's version never runs (Upgrader::pending()).
				'basemap-from-defaults' => array( $this, 'move_default_style_to_basemap' ),
			),
		);
	}

	/**
	 * 0.1.0 kept one feed copy per distinct query, with no bound: a flood of made-up filters could
	 * fill the options table. 0.2.0's cache knows its copies through an index and keeps at most a
	 * few; copies it does not index would stay until they expire. They are deleted: the feed
	 * rebuilds what visitors ask for.
	 *
	 * With a persistent object cache the copies are not in the database; the new markers version
	 * (the next step) makes sure none of them is read again, and the cache expires them.
	 *
	 * @return void|WP_Error
	 */
	public function drop_unbounded_feed_cache() {
		global $wpdb;
		$like = array(
			$wpdb->esc_like( '_transient_' . Feed_Cache::PREFIX ) . '%',
			$wpdb->esc_like( '_transient_timeout_' . Feed_Cache::PREFIX ) . '%',
		);
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- a bulk delete of derived rows; the options API deletes one name at a time.
		$deleted = $wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->options} WHERE option_name LIKE %s OR option_name LIKE %s", $like[0], $like[1] ) );
		if ( false === $deleted ) {
			// The database's own words go to the error log (Upgrader), never to a screen.
			return new WP_Error( 'cairn_maps_upgrade_sql', __( 'the database refused to delete the old feed cache; the details are in the PHP error log', 'cairn-maps' ), array( 'detail' => $wpdb->last_error ) );
		}
		delete_option( Feed_Cache::INDEX_OPTION );
		delete_option( Feed_Cache::SEEN_OPTION );
		wp_cache_delete( 'alloptions', 'options' );
	}

	/**
	 * A new markers version: browsers and CDNs revalidate once and get answers the new code built.
	 */
	public function renew_markers_version(): void {
		$this->markers_version->bump();
	}

	/**
	 * The 0.1.0 group looks cache is never read again: delete it rather than wait for it to expire.
	 */
	public function drop_group_styles_cache(): void {
		delete_transient( self::GROUP_STYLES_CACHE_0_1 );
	}

	/**
	 * Before 0.7.0 the owner's style lived in the defaults for new maps (cairn_maps_defaults'
	 * mapStyle, written into each new block). It is the site's basemap now (cairn_maps_basemap),
	 * which every map of block.json's default style draws: a default style the owner chose moves
	 * there, unless the owner already chose a basemap, and the defaults keep block.json's style.
	 * Blocks keep their own attributes. Safe to run twice: the second run finds nothing to move.
	 */
	public function move_default_style_to_basemap(): void {
		$stored = get_option( Settings::DEFAULTS_OPTION );
		$legacy = Site_Defaults::legacy_style( $stored );
		if ( '' !== $legacy && null === get_option( Settings::BASEMAP_OPTION, null ) && Style_Reference::is_acceptable( $legacy ) ) {
			update_option( Settings::BASEMAP_OPTION, $legacy );
		}
		Site_Defaults::retire_legacy_style();
	}
}
