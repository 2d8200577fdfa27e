<?php
/**
 * The place index built by admin page loads where WP-Cron does not run.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Index\Admin_Steps;
use Cairn\Maps\Index\Cron_Health;
use Cairn\Maps\Index\Place_Index;
use Cairn\Maps\Index\Rebuild_Lock;
use Cairn\Maps\Index\Rebuild_State;
use Cairn\Maps\Plugin;
use Cairn\Maps\Tests\TestCase;

/**
 * An admin page load runs rebuild steps at its end (`shutdown`) when a rebuild is pending and
 * WP-Cron does not run it, within its budget, one run at a time; nothing else does. The page
 * loads here go through the plugin's own callbacks (`admin_init` plans, the `shutdown` callback
 * runs), with an admin screen set as wp-admin sets it. The test site sets DISABLE_WP_CRON and has
 * no system cron: the plugin's own admin steps see exactly that; a site whose loopback fails
 * (Playground) is judged by admin steps with WP-Cron switched on.
 *
 * @since 0.8.0
 */
final class Admin_StepsTest extends TestCase {

	use Index_Tables;

	/**
	 * The index.
	 *
	 * @var Place_Index
	 */
	private Place_Index $index;

	/**
	 * The admin steps the plugin wired.
	 *
	 * @var Admin_Steps
	 */
	private Admin_Steps $steps;

	/**
	 * Seven markers in two groups, indexed from scratch; one step of two markers per page load.
	 */
	protected function set_up(): void {
		parent::set_up();
		require_once ABSPATH . 'wp-admin/includes/admin.php';
		$this->index = self::the_index();
		$steps       = Plugin::instance()->get( 'index_steps' );
		$this->assertInstanceOf( Admin_Steps::class, $steps );
		$this->steps = $steps;
		for ( $i = 0; $i < 7; $i++ ) {
			$this->create_marker(
				array(
					'post_title' => "Shieling $i",
					'lat'        => 57 + $i / 10,
					'lng'        => -4 - $i / 10,
					'groups'     => array( 0 === $i % 2 ? 'glens' : 'bens' ),
				)
			);
		}
		delete_option( Cron_Health::OPTION );
		$this->assertTrue( $this->index->rebuild_now() );
		add_filter( 'cairn_maps_index_step_budget', array( $this, 'one_small_step' ) );
	}

	/**
	 * Leaves the admin screen.
	 */
	protected function tear_down(): void {
		$GLOBALS['current_screen'] = null; // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- leaving the admin screen the test opened.
		parent::tear_down();
	}

	/**
	 * The budget of these tests: exactly one step of two markers.
	 *
	 * @return array{seconds: float, markers: int}
	 */
	public function one_small_step(): array {
		return array(
			'seconds' => 0.0,
			'markers' => 2,
		);
	}

	/**
	 * A rebuild is pending and its event was due 90 s ago: with DISABLE_WP_CRON (the test site's)
	 * and no system cron, nothing ran it.
	 */
	private function start_without_cron(): void {
		$this->index->start_rebuild();
		$this->schedule_at( time() - 90 );
	}

	/**
	 * Admin steps on a site where WP-Cron is switched on.
	 */
	private function steps_with_cron_on(): Admin_Steps {
		return new Admin_Steps( $this->index, new Cron_Health( false ) );
	}

	/**
	 * Moves the rebuild's event to a time.
	 *
	 * @param int $at Unix time.
	 */
	private function schedule_at( int $at ): void {
		wp_clear_scheduled_hook( Place_Index::HOOK );
		$this->assertTrue( wp_schedule_single_event( $at, Place_Index::HOOK ) );
	}

	/**
	 * One admin page load: the plugin's admin_init callback plans, then its shutdown callback (if
	 * planned) runs. Core's own admin_init callbacks (update checks, …) are left out.
	 *
	 * @param string           $screen The admin screen.
	 * @param Admin_Steps|null $steps  Admin steps (default: the plugin's, hooked to admin_init).
	 * @return string What the steps said, or `none` when the page load planned none.
	 */
	private function admin_page_load( string $screen = 'dashboard', ?Admin_Steps $steps = null ): string {
		set_current_screen( $screen );
		remove_all_actions( 'shutdown' );
		if ( null === $steps ) {
			$steps = $this->steps;
			$this->assertSame( 10, has_action( 'admin_init', array( $steps, 'plan' ) ) );
		}
		$steps->plan();
		$planned = has_action( 'shutdown', array( $steps, 'run' ) );
		remove_all_actions( 'shutdown' );
		return false === $planned ? 'none' : $steps->run();
	}

	/**
	 * The stored progress, as stored.
	 */
	private function stored(): ?string {
		return ( new Rebuild_State() )->raw();
	}

	/**
	 * Where WP-Cron does not run, an editor's admin page loads build the whole index, one bounded
	 * step each (a place batch never holds more than the budget's markers), and the result is the
	 * index a rebuild in one go gives.
	 */
	public function test_admin_page_loads_build_the_index_where_cron_does_not_run(): void {
		$expected = $this->state();
		$this->start_without_cron();
		$this->act_as( 'editor' );
		$this->assertFalse( $this->index->is_ready() );

		$loads   = 0;
		$written = array();
		while ( ! $this->index->is_ready() ) {
			$before = $this->index->progress();
			$this->assertContains( $this->admin_page_load(), array( 'more', 'done' ) );
			$after = $this->index->progress();
			if ( $after['pending'] ) {
				$this->assertSame( 'admin', $after['by'] );
				if ( 'places' === $after['phase'] && 'places' === $before['phase'] ) {
					$this->assertLessThanOrEqual( 2, $after['done'] - $before['done'], 'at most the budget\'s markers per step' );
				}
				$written[] = $after['done'];
			}
			$this->assertLessThan( 40, ++$loads );
		}
		$this->assertSame( 19, $loads, 'one step per page load: emptying, 5 batches of places (the last finds none), 12 cell levels, the stamps' );
		$this->assertSame( 7, max( $written ), 'the progress counted every place' );
		$this->assertSame( $written, self::sorted( $written ), 'the progress only grows' );
		$this->assertSame( $expected, $this->state() );
		$this->assertSame( $this->recounted_cells(), $this->state()['cells'] );
		$this->assertSame( 'admin', $this->index->progress()['built']['by'] ?? '' );
		$this->assertSame( 'none', $this->admin_page_load(), 'nothing to do once complete' );
	}

	/**
	 * A list sorted ascending.
	 *
	 * @param int[] $list Numbers.
	 * @return int[]
	 */
	private static function sorted( array $list ): array {
		sort( $list );
		return $list;
	}

	/**
	 * Where WP-Cron runs, admin page loads leave the rebuild to it: its event just due, late by two
	 * minutes with no spawn seen, or spawned a moment ago. Five minutes late (core's "missed"),
	 * they take over.
	 */
	public function test_admin_page_loads_leave_the_rebuild_to_a_working_cron(): void {
		$steps = $this->steps_with_cron_on();
		$this->act_as( 'administrator' );
		$this->index->start_rebuild();
		$stored = $this->stored();
		$this->assertSame( 'none', $this->admin_page_load( 'dashboard', $steps ), 'the event is due now: WP-Cron runs it' );
		$this->schedule_at( time() - 120 );
		$this->assertSame( 'none', $this->admin_page_load( 'dashboard', $steps ), 'two minutes late, no spawn seen: still WP-Cron\'s' );
		set_transient( 'doing_cron', sprintf( '%.22F', time() - 5 ) );
		$this->assertSame( 'none', $this->admin_page_load( 'dashboard', $steps ), 'WP-Cron spawned 5 s ago: wp-cron.php is on its way' );
		$this->assertSame( $stored, $this->stored(), 'no step ran' );

		delete_transient( 'doing_cron' );
		$this->schedule_at( time() - Cron_Health::LATE_SECONDS - 60 );
		$this->assertSame( 'more', $this->admin_page_load( 'dashboard', $steps ) );
		$this->assertSame( 'places', $this->index->progress()['phase'] );
		$this->assertSame( Cron_Health::LATE, get_option( Cron_Health::OPTION )['verdict'] ?? '' );
	}

	/**
	 * Where the loopback fails (WordPress Playground): WordPress spawned WP-Cron after the event
	 * was due and wp-cron.php never took it; 15 s later admin page loads take over.
	 */
	public function test_a_failing_loopback(): void {
		$steps = $this->steps_with_cron_on();
		$this->act_as( 'editor' );
		$this->index->start_rebuild();
		$this->schedule_at( time() - 30 );
		set_transient( 'doing_cron', sprintf( '%.22F', time() - 20 ) );
		$this->assertSame( 'more', $this->admin_page_load( 'edit-cairn_marker', $steps ) );
		$this->assertSame( Cron_Health::LOOPBACK, get_option( Cron_Health::OPTION )['verdict'] ?? '' );
		$this->assertSame( 'admin', $this->index->progress()['by'] );
	}

	/**
	 * With DISABLE_WP_CRON (the test site's) a minute is enough: a system cron calling
	 * wp-cron.php every minute would have run the event.
	 */
	public function test_disable_wp_cron_without_a_system_cron(): void {
		$this->assertTrue( defined( 'DISABLE_WP_CRON' ) && DISABLE_WP_CRON, 'the test site switches WP-Cron off' );
		$this->act_as( 'editor' );
		$this->index->start_rebuild();
		$this->schedule_at( time() - 30 );
		$stored = $this->stored();
		$this->assertSame( 'none', $this->admin_page_load( 'edit-cairn_marker' ), 'half a minute: the system cron may still come' );
		$this->assertSame( $stored, $this->stored() );
		$this->schedule_at( time() - Cron_Health::DISABLED_SECONDS - 30 );
		$this->assertSame( 'more', $this->admin_page_load( 'edit-cairn_marker' ) );
		$this->assertSame( Cron_Health::DISABLED, get_option( Cron_Health::OPTION )['verdict'] ?? '' );
	}

	/**
	 * Only admin requests of people who can edit posts run steps: not a visitor on an admin
	 * address (admin-ajax.php answers visitors too), not a subscriber, and never the front end
	 * (no admin screen), even for an administrator.
	 *
	 * @dataProvider provide_people_who_never_run_a_step
	 *
	 * @param string      $role   Who loads the page (`anonymous`: nobody logged in).
	 * @param string|null $screen The admin screen, null for a front-end page.
	 */
	public function test_nobody_else_runs_a_step( string $role, ?string $screen ): void {
		$this->start_without_cron();
		$stored = $this->stored();
		$this->act_as( $role );
		if ( null === $screen ) {
			$GLOBALS['current_screen'] = null; // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- a front-end request has no admin screen.
			$this->assertFalse( is_admin() );
			remove_all_actions( 'shutdown' );
			$this->steps->plan(); // As if a plugin fired admin_init on the front end.
			$this->assertFalse( has_action( 'shutdown', array( $this->steps, 'run' ) ), 'nothing planned for the end of a front-end request' );
		} else {
			$this->assertSame( 'none', $this->admin_page_load( $screen ) );
		}
		$this->assertSame( $stored, $this->stored(), 'the rebuild did not move' );
	}

	/**
	 * People and requests that must never run a step.
	 *
	 * @return array<string, array{0: string, 1: string|null}>
	 */
	public static function provide_people_who_never_run_a_step(): array {
		return array(
			'a visitor on an admin address' => array( 'anonymous', 'dashboard' ),
			'a subscriber in wp-admin'      => array( 'subscriber', 'profile' ),
			'an administrator on the site'  => array( 'administrator', null ),
			'a visitor on the site'         => array( 'anonymous', null ),
		);
	}

	/**
	 * While another request holds the lock (WP-Cron, another admin page, WP-CLI), an admin page
	 * load runs nothing and the cron event comes back later; once released, the next page load
	 * steps on.
	 */
	public function test_a_run_in_progress_elsewhere_is_left_alone(): void {
		$this->start_without_cron();
		$this->act_as( 'editor' );
		$lock  = new Rebuild_Lock();
		$other = $lock->take( 60 );
		$this->assertIsString( $other );
		$stored = $this->stored();
		$this->assertSame( 'locked', $this->admin_page_load() );
		wp_clear_scheduled_hook( Place_Index::HOOK );
		do_action( Place_Index::HOOK ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.DynamicHooknameFound -- the plugin's own event, cairn_maps_index_rebuild.
		$this->assertSame( $stored, $this->stored(), 'neither the page load nor WP-Cron stepped' );
		$this->assertGreaterThanOrEqual( time() + 20, (int) wp_next_scheduled( Place_Index::HOOK ), 'WP-Cron comes back once the run may be over' );
		$this->assertTrue( $this->index->progress()['running'] );

		$lock->release( $other );
		$this->schedule_at( time() - 90 );
		$this->assertSame( 'more', $this->admin_page_load() );
		$this->assertNotSame( $stored, $this->stored() );
		$this->assertFalse( $this->index->progress()['running'], 'the page load released the lock' );
	}

	/**
	 * Two runs at once: a second admin page load that comes while the first one's step is writing
	 * its places does nothing, and the first one's result stands.
	 */
	public function test_two_steps_at_once_do_not_both_run(): void {
		$expected = $this->state();
		$this->start_without_cron();
		$this->act_as( 'editor' );
		$this->admin_page_load(); // The tables emptied; the next step writes places.
		$inner = array();
		$spy   = function ( $sql ) use ( &$inner ) {
			if ( array() === $inner && 1 === preg_match( '/^\s*INSERT INTO \S*cairn_places\b/', (string) $sql ) ) {
				$inner[] = $this->steps->run(); // Another page load's shutdown, mid-step.
			}
			return $sql;
		};
		add_filter( 'query', $spy );
		$this->assertSame( 'more', $this->admin_page_load() );
		remove_filter( 'query', $spy );
		$this->assertSame( array( 'locked' ), $inner );
		$this->assertSame( 2, $this->index->progress()['done'], 'one batch was written, once' );
		while ( ! $this->index->is_ready() ) {
			$this->assertContains( $this->admin_page_load(), array( 'more', 'done' ) );
		}
		$this->assertSame( $expected, $this->state() );
	}

	/**
	 * A rebuild started while a page load's step runs (markers changed behind WordPress' back) is
	 * kept: that step's progress is not written over it, and the rebuild starts over.
	 */
	public function test_a_rebuild_started_meanwhile_starts_over(): void {
		$this->start_without_cron();
		$this->act_as( 'editor' );
		$this->admin_page_load();
		$this->admin_page_load();
		$this->assertSame( 2, $this->index->progress()['done'] );
		$restart = function ( $sql ) {
			if ( 1 === preg_match( '/^\s*INSERT INTO \S*cairn_places\b/', (string) $sql ) ) {
				$this->index->start_rebuild();
			}
			return $sql;
		};
		add_filter( 'query', $restart );
		$this->assertSame( 'restarted', $this->admin_page_load() );
		remove_filter( 'query', $restart );
		$this->assertSame( 'start', $this->index->progress()['phase'], 'the new rebuild stands' );
		$this->schedule_at( time() - 90 );
		while ( ! $this->index->is_ready() ) {
			$this->assertContains( $this->admin_page_load(), array( 'more', 'done' ) );
		}
		$this->assertSame( $this->recounted_cells(), $this->state()['cells'] );
		$this->assertCount( 7, $this->indexed() );
	}

	/**
	 * The budget: the filter's numbers bounded (30 s, 1–5,000 markers), and no step at all when
	 * PHP's time limit would come first.
	 */
	public function test_the_budget_is_bounded(): void {
		remove_filter( 'cairn_maps_index_step_budget', array( $this, 'one_small_step' ) );
		set_time_limit( 0 );
		$this->assertSame(
			array(
				'seconds' => Admin_Steps::SECONDS,
				'markers' => Admin_Steps::BATCH,
			),
			$this->steps->budget( false )
		);
		$this->assertSame( Admin_Steps::SECONDS_AFTER_RESPONSE, $this->steps->budget( true )['seconds'], 'more once the page has been sent' );
		$greedy = static fn(): array => array(
			'seconds' => 600,
			'markers' => 1000000,
		);
		add_filter( 'cairn_maps_index_step_budget', $greedy );
		$this->assertSame(
			array(
				'seconds' => 30.0,
				'markers' => 5000,
			),
			$this->steps->budget( false )
		);
		remove_filter( 'cairn_maps_index_step_budget', $greedy );

		// WordPress' clock (timer_float()) started with the test run: three seconds left by it.
		set_time_limit( (int) ceil( timer_float() + 3 ) );
		$this->start_without_cron();
		$stored = $this->stored();
		$this->act_as( 'editor' );
		$this->assertSame( 'skipped', $this->admin_page_load(), 'three seconds left under the time limit: no step' );
		$this->assertSame( $stored, $this->stored() );
		set_time_limit( 0 ); // As PHP's command line runs.
	}

	/**
	 * No step starts with less than the memory headroom left: a run with time to spare stops
	 * after its first step.
	 */
	public function test_no_step_starts_short_of_memory(): void {
		$this->start_without_cron();
		$limit = ini_get( 'memory_limit' );
		$this->assertSame( 'more', $this->index->run_steps( 0.0, 2, 'admin' ), 'the first step (emptying the tables)' );
		$this->assertSame( 'places', $this->index->progress()['phase'] );
		ini_set( 'memory_limit', (string) ( memory_get_usage( true ) + 20 * MB_IN_BYTES ) ); // phpcs:ignore WordPress.PHP.IniSet.memory_limit_Blacklisted -- a lower limit is the point; put back below.
		$this->assertSame( 'more', $this->index->run_steps( 10.0, 2, 'admin' ) );
		ini_set( 'memory_limit', (string) $limit ); // phpcs:ignore WordPress.PHP.IniSet.memory_limit_Blacklisted -- put back.
		$this->assertSame( 2, $this->index->progress()['done'], 'one step of two markers, then it stopped' );
	}
}
