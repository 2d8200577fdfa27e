<?php
/**
 * What Site Health says about the place index.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Index\Admin_Steps;
use Cairn\Maps\Index\Cron_Health;
use Cairn\Maps\Index\Index_Health;
use Cairn\Maps\Index\Place_Index;
use Cairn\Maps\Index\Rebuild_State;
use Cairn\Maps\Plugin;
use Cairn\Maps\Tests\TestCase;

/**
 * The status test and the Info fields name what builds the index — WP-Cron, admin page loads
 * (and why WP-Cron does not), WP-CLI — its progress, and what to do when it is stuck; read
 * through core's own filters, as Tools → Site Health reads them.
 *
 * @since 0.8.0
 */
final class Index_HealthTest extends TestCase {

	use Index_Tables;

	/**
	 * The index.
	 *
	 * @var Place_Index
	 */
	private Place_Index $index;

	/**
	 * Five markers, indexed; no cron verdict remembered.
	 */
	protected function set_up(): void {
		parent::set_up();
		require_once ABSPATH . 'wp-admin/includes/admin.php';
		$this->index = self::the_index();
		for ( $i = 0; $i < 5; $i++ ) {
			$this->create_marker( array( 'post_title' => "Lochan $i" ) );
		}
		delete_option( Cron_Health::OPTION );
		delete_transient( 'doing_cron' );
		$this->assertTrue( $this->index->rebuild_now() );
		// No rebuild event left from an earlier test (the HTTP tests' sites commit theirs): a
		// rebuild started here is due now, as on a site whose index was complete.
		wp_clear_scheduled_hook( Place_Index::HOOK );
	}

	/**
	 * The plugin's status test, run as Site Health runs direct tests.
	 *
	 * @return array<string, mixed>
	 */
	private function status(): array {
		$tests = apply_filters( 'site_status_tests', array( 'direct' => array() ) ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- core's filter.
		$this->assertArrayHasKey( Index_Health::TEST, $tests['direct'] );
		$result = call_user_func( $tests['direct'][ Index_Health::TEST ]['test'] );
		$this->assertIsArray( $result );
		$this->assertSame( Index_Health::TEST, $result['test'] );
		return $result;
	}

	/**
	 * The plugin's Info fields: [ field => [ value, debug ] ].
	 *
	 * @return array<string, array{0: string, 1: string}>
	 */
	private function info(): array {
		$info   = apply_filters( 'debug_information', array() ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- core's filter.
		$fields = array();
		foreach ( array( 'place_index', 'place_index_builder', 'place_index_step' ) as $key ) {
			$this->assertArrayHasKey( $key, $info['cairn-maps']['fields'] );
			$fields[ $key ] = array( (string) $info['cairn-maps']['fields'][ $key ]['value'], (string) $info['cairn-maps']['fields'][ $key ]['debug'] );
		}
		return $fields;
	}

	/**
	 * The rebuild's event, due some seconds ago.
	 *
	 * @param int $ago Seconds.
	 */
	private function due( int $ago ): void {
		wp_clear_scheduled_hook( Place_Index::HOOK );
		wp_schedule_single_event( time() - $ago, Place_Index::HOOK );
	}

	/**
	 * Complete: good, with the number of places and what built it last (WP-Cron here).
	 */
	public function test_a_complete_index_built_by_cron(): void {
		$this->index->start_rebuild();
		do_action( Place_Index::HOOK ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.DynamicHooknameFound -- the plugin's own event, cairn_maps_index_rebuild.
		$this->assertTrue( $this->index->is_ready() );
		$status = $this->status();
		$this->assertSame( 'good', $status['status'] );
		$this->assertSame( 'Cairn Maps’ place index is complete', $status['label'] );
		$this->assertStringContainsString( 'It holds 5 places.', $status['description'] );
		$this->assertStringContainsString( 'by WP-Cron.', $status['description'] );
		$info = $this->info();
		$this->assertSame( array( 'Complete: 5 places', 'complete, 5' ), $info['place_index'] );
		$this->assertSame( array( 'WP-Cron', 'cron' ), $info['place_index_builder'] );
	}

	/**
	 * Being built by a working WP-Cron: recommended, with its progress.
	 */
	public function test_being_built_by_cron(): void {
		$this->index->start_rebuild();
		$this->index->rebuild( 2 );
		$this->index->rebuild( 2 );
		$status = $this->status();
		$this->assertSame( 'recommended', $status['status'] );
		$this->assertSame( 'Cairn Maps is building its place index', $status['label'] );
		$this->assertStringContainsString( 'Progress: reading markers, 2 of 5 places written.', $status['description'] );
		$this->assertStringContainsString( 'Built by: WP-Cron (the scheduled event cairn_maps_index_rebuild).', $status['description'] );
		$this->assertStringContainsString( 'maps download their whole feed', $status['description'] );
		$info = $this->info();
		$this->assertSame( 'building, places 2/5', $info['place_index'][1] );
		$this->assertSame( 'Being built (reading markers, 2 of 5 places written); maps send their whole feed meanwhile', $info['place_index'][0] );
		$this->assertSame( 'cron', $info['place_index_builder'][1] );
	}

	/**
	 * Built by admin page loads because the loopback fails (WP-Cron on, as on Playground): says
	 * so, with the budget, and how to finish it at once.
	 */
	public function test_being_built_by_admin_page_loads_where_the_loopback_fails(): void {
		$cron   = new Cron_Health( false );
		$health = new Index_Health( $this->index, $cron );
		$this->index->start_rebuild();
		$this->due( 30 );
		set_transient( 'doing_cron', sprintf( '%.22F', time() - 20 ) );
		$this->act_as( 'editor' );
		set_current_screen( 'site-health' );
		$steps = new Admin_Steps( $this->index, $cron );
		add_filter(
			'cairn_maps_index_step_budget',
			static fn(): array => array(
				'seconds' => 0,
				'markers' => 2,
			)
		);
		$this->assertTrue( $steps->wanted() );
		$steps->run();
		$steps->run();
		$GLOBALS['current_screen'] = null; // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- leaving the admin screen.

		$status = $health->test();
		$this->assertSame( 'recommended', $status['status'] );
		$this->assertStringContainsString( 'Built by: admin page loads — up to 2 seconds of steps of 1,000 markers at the end of each admin page load by someone who can edit posts — because WordPress could not reach its own wp-cron.php (the loopback request failed).', $status['description'] );
		$this->assertStringContainsString( 'wp cairn index rebuild', $status['description'] );
		$this->assertStringContainsString( 'Last step 1 second ago.', $status['description'] );
		$info = $health->add_info( array( 'cairn-maps' => array( 'fields' => array() ) ) )['cairn-maps']['fields'];
		$this->assertSame( 'admin (loopback)', $info['place_index_builder']['debug'] );
		$this->assertSame( 'building, places 2/5', $info['place_index']['debug'] );
	}

	/**
	 * DISABLE_WP_CRON without a system cron (the test site's own constant): the plugin's Site
	 * Health names it once the event is over a minute late.
	 */
	public function test_being_built_where_wp_cron_is_switched_off(): void {
		$this->index->start_rebuild();
		$this->due( 30 );
		$this->assertSame( 'cron', $this->info()['place_index_builder'][1], 'half a minute: a system cron may still come' );
		$this->due( 120 );
		$this->assertSame( 'admin (disabled)', $this->info()['place_index_builder'][1] );
		$this->assertStringContainsString( 'WP-Cron is switched off (DISABLE_WP_CRON) and nothing else ran the rebuild within a minute', $this->status()['description'] );
	}

	/**
	 * While WP-CLI runs a rebuild, Site Health names WP-CLI; afterwards it names it as the last
	 * builder.
	 */
	public function test_being_built_by_wp_cli(): void {
		$seen = array();
		$spy  = function ( $sql ) use ( &$seen ) {
			if ( array() === $seen && 1 === preg_match( '/^\s*INSERT INTO \S*cairn_places\b/', (string) $sql ) ) {
				$seen = $this->info()['place_index_builder'];
			}
			return $sql;
		};
		add_filter( 'query', $spy );
		$this->assertTrue( $this->index->rebuild_now( 2, 'cli' ) );
		remove_filter( 'query', $spy );
		$this->assertSame( array( 'WP-CLI (wp cairn index rebuild)', 'cli' ), $seen, 'mid-rebuild' );
		$this->assertSame( array( 'WP-CLI (wp cairn index rebuild)', 'cli' ), $this->info()['place_index_builder'] );
		$this->assertStringContainsString( 'by WP-CLI (wp cairn index rebuild).', $this->status()['description'] );
	}

	/**
	 * Stuck: the database refused the same step three times, or nothing stepped for half an
	 * hour. The test says what to do.
	 */
	public function test_a_stuck_rebuild_says_what_to_do(): void {
		global $wpdb;
		$this->index->start_rebuild();
		$this->index->rebuild( 2 ); // Emptied.
		$refuse = static fn( $sql ) => preg_match( '/^\s*INSERT INTO \S*cairn_places\b/', (string) $sql ) ? 'INSERT INTO cairn_no_such_table VALUES (1)' : $sql;
		$errors = $wpdb->suppress_errors( true );
		add_filter( 'query', $refuse );
		for ( $i = 0; $i < 3; $i++ ) {
			$this->assertFalse( $this->index->rebuild( 2 ) );
		}
		remove_filter( 'query', $refuse );
		$wpdb->suppress_errors( $errors );
		$status = $this->status();
		$this->assertSame( 'recommended', $status['status'] );
		$this->assertSame( 'Cairn Maps’ place index is not being built', $status['label'] );
		$this->assertStringContainsString( 'The database refused the last step 3 times in a row.', $status['description'] );
		$this->assertStringContainsString( 'wp cairn index rebuild', $status['actions'] );
		$this->assertStringContainsString( 'DISABLE_WP_CRON', $status['actions'] );

		$this->assertFalse( $this->index->rebuild( 2 ) ); // The database takes it again.
		$this->assertSame( 'Cairn Maps is building its place index', $this->status()['label'] );
		$state = new Rebuild_State();
		$raw   = $state->raw();
		$old   = array_merge(
			(array) $state->get(),
			array(
				'at'      => time() - Index_Health::STUCK_SECONDS - 60,
				'started' => time() - Index_Health::STUCK_SECONDS - 60,
			)
		);
		$this->assertTrue( $state->replace( $raw, $old ) );
		$this->assertSame( 'Cairn Maps’ place index is not being built', $this->status()['label'], 'no step for over half an hour' );
		$this->assertMatchesRegularExpression( '/Last step 31 min(ute)?s ago\./', $this->status()['description'] );
	}
}
