<?php
/**
 * Deleting the plugin.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Settings;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Blocks\Patterns_Version;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Rest\Post_Maps_Controller;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Tests\TestCase;
use Cairn\Maps\Uninstaller;

/**
 * Deleting the plugin (uninstall.php): settings always go; markers and groups only when the owner opted in.
 *
 * @since 0.1.0
 */
final class UninstallerTest extends TestCase {

	/**
	 * Sets every setting, creates markers in groups (with term meta and a revision), and content
	 * that is not the plugin's.
	 *
	 * @param bool $delete_data The owner's choice.
	 * @return array{markers: int[], revision: int, group: int, post: int, tag: int}
	 */
	private function site_with_data( bool $delete_data ): array {
		update_option( Settings::TOKEN_OPTION, 'pk.eyJ1IjoiY2Fpcm4ifQ.c2lnbmF0dXJl' );
		update_option( Settings::DEFAULTS_OPTION, array( 'language' => 'de' ) );
		update_option( Settings::CONSENT_OPTION, true );
		update_option( Settings::DELETE_DATA_OPTION, $delete_data );
		update_option( Settings::ORIGINS_OPTION, array( 'https://app.example.com' ) );
		update_option( 'cairn_maps_post_types', array( 'post', 'page' ) );
		update_option( 'cairn_maps_markers_version', 7 );
		update_option( Patterns_Version::OPTION, 'abc' );
		update_option( Post_Maps_Controller::EARLY_POST_TYPES_OPTION, array( 'page', 'post' ) );
		set_transient( 'cairn_maps_feed', 'cached' );
		update_option( 'blogname', 'Cairn test site' );

		$markers  = array(
			$this->create_marker( array( 'groups' => array( 'huts' ) ) ),
			$this->create_marker( array( 'groups' => array( 'huts', 'peaks' ) ) ),
		);
		$revision = wp_save_post_revision( $markers[0] );
		if ( ! $revision ) {
			// Revisions need a change; make one.
			wp_update_post(
				array(
					'ID'         => $markers[0],
					'post_title' => 'Changed title',
				)
			);
			$revision = (int) wp_save_post_revision( $markers[0] );
		}
		$group = (int) get_term_by( 'slug', 'huts', Post_Type::TAXONOMY )->term_id;
		add_term_meta( $group, 'cairn_colour', '#ff0000' );

		$post = wp_insert_post(
			array(
				'post_title'  => 'Not a marker',
				'post_status' => 'publish',
				'tags_input'  => array( 'mountains' ),
				'meta_input'  => array( 'cairn_lat' => 1 ),
			)
		);
		$tag  = (int) get_term_by( 'slug', 'mountains', 'post_tag' )->term_id;
		return compact( 'markers', 'revision', 'group', 'post', 'tag' );
	}

	/**
	 * Rows left in a table for some ids.
	 *
	 * @param string $table  Table name.
	 * @param string $column Id column.
	 * @param int[]  $ids    Ids.
	 */
	private function rows( string $table, string $column, array $ids ): int {
		global $wpdb;
		$ids = array_filter( array_map( 'intval', $ids ) );
		if ( array() === $ids ) {
			return 0;
		}
		// phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.PreparedSQL.NotPrepared -- table/column names from the test, ids are integers.
		return (int) $wpdb->get_var( "SELECT COUNT(*) FROM {$table} WHERE {$column} IN (" . implode( ',', $ids ) . ')' );
	}

	/**
	 * The plugin's options are gone; other options stay.
	 */
	private function assert_settings_removed(): void {
		global $wpdb;
		wp_cache_flush();
		foreach ( array( Settings::TOKEN_OPTION, Settings::DEFAULTS_OPTION, Settings::CONSENT_OPTION, Settings::DELETE_DATA_OPTION, Settings::ORIGINS_OPTION, 'cairn_maps_post_types', 'cairn_maps_markers_version', Patterns_Version::OPTION, Post_Maps_Controller::EARLY_POST_TYPES_OPTION, '_transient_cairn_maps_feed' ) as $name ) {
			$this->assertSame( 0, (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->options} WHERE option_name = %s", $name ) ), "$name is removed" );
		}
		$this->assertSame( 'Cairn test site', get_option( 'blogname' ) );
	}

	/**
	 * By default only the settings go; markers and groups stay.
	 */
	public function test_by_default_only_the_settings_go(): void {
		$data = $this->site_with_data( false );
		( new Uninstaller() )->run();

		$this->assert_settings_removed();
		global $wpdb;
		$this->assertSame( 2, $this->count_markers() );
		$this->assertSame( 2, $this->rows( $wpdb->postmeta, 'post_id', $data['markers'] ) / 2, 'coordinates stay' );
		$this->assertSame( 1, $this->rows( $wpdb->posts, 'ID', array( $data['revision'] ) ) );
		$this->assertSame( 1, $this->rows( $wpdb->terms, 'term_id', array( $data['group'] ) ) );
		$this->assertSame( 1, $this->rows( $wpdb->termmeta, 'term_id', array( $data['group'] ) ) );
	}

	/**
	 * When the owner opted in, markers and groups go too — and nothing else.
	 */
	public function test_when_the_owner_opted_in_markers_and_groups_go_too(): void {
		global $wpdb;
		$data    = $this->site_with_data( true );
		$tt_huts = (int) get_term_by( 'slug', 'huts', Post_Type::TAXONOMY )->term_taxonomy_id;
		( new Uninstaller() )->run();

		$this->assert_settings_removed();
		$this->assertSame( 0, $this->count_markers() );
		$this->assertSame( 0, $this->rows( $wpdb->posts, 'ID', array( $data['revision'] ) ), 'revisions go' );
		$this->assertSame( 0, $this->rows( $wpdb->postmeta, 'post_id', $data['markers'] ), 'meta goes' );
		$this->assertSame( 0, $this->rows( $wpdb->term_relationships, 'object_id', $data['markers'] ), 'group assignments go' );
		$this->assertSame( 0, $this->rows( $wpdb->term_relationships, 'term_taxonomy_id', array( $tt_huts ) ) );
		$this->assertSame( 0, (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->term_taxonomy} WHERE taxonomy = %s", Post_Type::TAXONOMY ) ), 'groups go' );
		$this->assertSame( 0, $this->rows( $wpdb->terms, 'term_id', array( $data['group'] ) ) );
		$this->assertSame( 0, $this->rows( $wpdb->termmeta, 'term_id', array( $data['group'] ) ), 'group meta goes' );

		$this->assertSame( 1, $this->rows( $wpdb->posts, 'ID', array( $data['post'] ) ), 'other posts stay' );
		$this->assertSame( '1', get_post_meta( $data['post'], 'cairn_lat', true ), 'their meta stays, even with the same key' );
		$this->assertSame( 1, $this->rows( $wpdb->terms, 'term_id', array( $data['tag'] ) ), 'other terms stay' );
		$this->assertTrue( has_term( 'mountains', 'post_tag', $data['post'] ), 'their tags stay' );
		$this->assertNull( get_post( $data['markers'][0] ), 'no stale cache' );
	}

	/**
	 * Many markers are removed in bounded batches.
	 */
	public function test_many_markers_are_removed_in_batches(): void {
		global $wpdb;
		update_option( Settings::DELETE_DATA_OPTION, true );
		$count = Uninstaller::BATCH * 2 + 7;
		$now   = current_time( 'mysql', true );
		$rows  = array();
		for ( $i = 0; $i < $count; $i++ ) {
			$rows[] = $wpdb->prepare( '(%s, %s, %s, %s, %s, %s, %s, %s, %s)', 'Marker ' . $i, '', '', '', Post_Type::POST_TYPE, 'publish', $now, $now, '' );
		}
		// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared -- each row was prepared above.
		$wpdb->query( "INSERT INTO {$wpdb->posts} (post_title, post_content, post_excerpt, to_ping, post_type, post_status, post_date_gmt, post_modified_gmt, pinged) VALUES " . implode( ',', $rows ) );
		$this->assertSame( $count, $this->count_markers() );

		$limits = array();
		add_filter(
			'query',
			static function ( $query ) use ( &$limits ) {
				if ( preg_match( '/post_type = \'cairn_marker\'.*LIMIT (\d+)/s', $query, $match ) ) {
					$limits[] = (int) $match[1];
				}
				return $query;
			}
		);
		( new Uninstaller() )->run();

		$this->assertSame( 0, $this->count_markers() );
		$this->assertSame( array( Uninstaller::BATCH ), array_values( array_unique( $limits ) ), 'every read is bounded' );
		$this->assertGreaterThanOrEqual( 3, count( $limits ) );
	}

	/**
	 * The uninstall.php file runs the uninstaller when WordPress uninstalls the plugin.
	 */
	public function test_uninstall_php_runs_the_uninstaller(): void {
		update_option( Settings::TOKEN_OPTION, 'pk.eyJ1IjoiY2Fpcm4ifQ.c2lnbmF0dXJl' );
		// WordPress defines this before it includes uninstall.php; it stays defined for the rest of the run.
		if ( ! defined( 'WP_UNINSTALL_PLUGIN' ) ) {
			define( 'WP_UNINSTALL_PLUGIN', plugin_basename( CAIRN_MAPS_FILE ) ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedConstantFound -- WordPress' own constant.
		}
		include CAIRN_MAPS_DIR . 'uninstall.php';
		wp_cache_flush();
		$this->assertSame( '', get_option( Settings::TOKEN_OPTION ), 'the registered default: the row is gone' );
		global $wpdb;
		$this->assertSame( 0, (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->options} WHERE option_name = %s", Settings::TOKEN_OPTION ) ) );
	}

	/**
	 * WordPress includes uninstall.php of a deactivated plugin: the plugin's autoloader is not
	 * registered, so uninstall.php must load every class of the plugin the uninstaller names
	 * (otherwise deleting the plugin stops with "Class not found" and its files stay).
	 */
	public function test_uninstall_php_loads_every_class_the_uninstaller_names(): void {
		// phpcs:disable WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- the plugin's own source files.
		$uninstaller = (string) file_get_contents( CAIRN_MAPS_DIR . 'plugin/Uninstaller.php' );
		$loader      = (string) file_get_contents( CAIRN_MAPS_DIR . 'uninstall.php' );
		// phpcs:enable
		preg_match_all( '/^use (Cairn\\\\Maps\\\\[\w\\\\]+);/m', $uninstaller, $uses );
		$this->assertNotEmpty( $uses[1] );
		foreach ( $uses[1] as $class ) {
			$file = 'plugin/' . str_replace( '\\', '/', substr( $class, strlen( 'Cairn\\Maps\\' ) ) ) . '.php';
			$this->assertFileExists( CAIRN_MAPS_DIR . $file );
			$this->assertStringContainsString( "'" . str_replace( '\\', '\\\\', $class ) . "'", $loader, "uninstall.php loads $class" );
			$this->assertStringContainsString( "'$file'", $loader, "uninstall.php loads $file" );
		}
	}

	/**
	 * Deactivating deletes nothing: no deactivation hook.
	 */
	public function test_deactivating_deletes_nothing(): void {
		$this->assertFalse( has_action( 'deactivate_' . plugin_basename( CAIRN_MAPS_FILE ) ) );
	}
}
