<?php
/**
 * Deactivating the plugin.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Settings\Settings;

/**
 * Deactivating deletes nothing, even when the owner opted in to "Delete all markers and settings
 * when the plugin is deleted": that choice is for deleting the plugin (uninstall.php), and a site
 * owner who deactivates to debug a conflict must get every marker back on reactivation.
 *
 * @since 0.1.0
 */
final class DeactivationTest extends TestCase {

	/**
	 * The plugin as WordPress names it in `active_plugins`.
	 */
	private const PLUGIN = 'cairn-maps/cairn-maps.php';

	/**
	 * Deactivating through WordPress (as the Plugins screen does) keeps markers, their meta, groups,
	 * group meta and every setting, with the delete-data opt-in on.
	 */
	public function test_deactivating_with_the_delete_data_opt_in_keeps_everything(): void {
		global $wpdb;
		require_once ABSPATH . 'wp-admin/includes/plugin.php';

		$settings = array(
			Settings::TOKEN_OPTION       => 'pk.eyJ1IjoiY2Fpcm4ifQ.c2lnbmF0dXJl',
			Settings::DEFAULTS_OPTION    => array( 'language' => 'de' ),
			Settings::CONSENT_OPTION     => true,
			Settings::DELETE_DATA_OPTION => true,
			Settings::ORIGINS_OPTION     => array( 'https://app.example.com' ),
		);
		foreach ( $settings as $name => $value ) {
			update_option( $name, $value );
			// As stored (sanitised on the way in).
			$settings[ $name ] = get_option( $name );
		}
		$markers = array(
			$this->create_marker(
				array(
					'groups' => array( 'huts' ),
					'lat'    => 56.1,
					'lng'    => -4.2,
				)
			),
			$this->create_marker( array( 'groups' => array( 'huts', 'peaks' ) ) ),
		);
		$group   = (int) get_term_by( 'slug', 'huts', Post_Type::TAXONOMY )->term_id;
		update_term_meta( $group, 'cairn_color', '#ff0000' );

		$this->assertTrue( is_plugin_active( self::PLUGIN ), 'the test site runs the plugin as an active plugin' );
		$active = get_option( 'active_plugins' );
		try {
			deactivate_plugins( self::PLUGIN );
			$this->assertSame( 1, did_action( 'deactivate_' . self::PLUGIN ), 'WordPress ran the plugin\'s deactivation' );
			$this->assertFalse( is_plugin_active( self::PLUGIN ) );
		} finally {
			update_option( 'active_plugins', $active );
		}

		wp_cache_flush();
		$this->assertSame( 2, $this->count_markers(), 'markers stay' );
		$this->assertSame( 'publish', get_post_status( $markers[0] ) );
		$this->assertEquals( 56.1, get_post_meta( $markers[0], Post_Type::META_LAT, true ), 'coordinates stay' );
		$this->assertEquals( -4.2, get_post_meta( $markers[0], Post_Type::META_LNG, true ) );
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- counts the rows themselves, past any cache.
		$this->assertSame( 2, (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->term_taxonomy} WHERE taxonomy = %s", Post_Type::TAXONOMY ) ), 'groups stay' );
		$this->assertSame( array( 'huts', 'peaks' ), wp_get_object_terms( $markers[1], Post_Type::TAXONOMY, array( 'fields' => 'slugs' ) ), 'group assignments stay' );
		$this->assertSame( '#ff0000', get_term_meta( $group, 'cairn_color', true ), 'group meta stays' );
		foreach ( $settings as $name => $value ) {
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- the row itself: a registered default would hide a deleted one.
			$this->assertSame( 1, (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->options} WHERE option_name = %s", $name ) ), "$name stays" );
			$this->assertEquals( $value, get_option( $name ), "$name keeps its value" );
		}
	}
}
