<?php
/**
 * The upgrade routine: once after an update, resumable, never over newer data.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Upgrade;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Feed\Feed_Cache;
use Cairn\Maps\Groups\Group_Styles;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Plugin;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Tests\TestCase;
use Cairn\Maps\Upgrade\Upgrade_Notice;
use Cairn\Maps\Upgrade\Upgrader;
use RuntimeException;
use WP_Error;

/**
 * Upgrader and Upgrade_Steps against real WordPress on MariaDB.
 *
 * @since 0.2.0
 */
final class UpgraderTest extends TestCase {

	/**
	 * Steps run by the test upgraders, in order.
	 *
	 * @var list<string>
	 */
	private array $ran = array();

	/**
	 * What step b does instead of succeeding, while set.
	 *
	 * @var \Throwable|WP_Error|null
	 */
	private $failure = null;

	/**
	 * The PHP error log of the test.
	 *
	 * @var string
	 */
	private string $log = '';

	/**
	 * PHP's error log setting before the test.
	 *
	 * @var string
	 */
	private string $ini_log = '';

	/**
	 * Starts each test on a site whose data is at 0.1.0 (no stored version) with no upgrade state.
	 */
	protected function set_up(): void {
		parent::set_up();
		delete_option( Upgrader::VERSION_OPTION );
		delete_option( Upgrader::STATE_OPTION );
		delete_option( Upgrader::LOCK_OPTION );
		$this->ran     = array();
		$this->failure = null;
		$this->log     = (string) tempnam( sys_get_temp_dir(), 'cairn-upgrade-log-' );
		$this->ini_log = (string) ini_set( 'error_log', $this->log ); // phpcs:ignore WordPress.PHP.IniSet.Risky -- the test reads what the upgrader logs.
	}

	/**
	 * Puts PHP's error log back.
	 */
	protected function tear_down(): void {
		ini_set( 'error_log', $this->ini_log ); // phpcs:ignore WordPress.PHP.IniSet.Risky
		if ( is_file( $this->log ) ) {
			unlink( $this->log ); // phpcs:ignore WordPress.WP.AlternativeFunctions.unlink_unlink
		}
		parent::tear_down();
	}

	/**
	 * What was written to PHP's error log during the test.
	 */
	private function error_log(): string {
		return (string) file_get_contents( $this->log ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents
	}

	/**
	 * A step that records its name.
	 *
	 * @param string $name The step's name.
	 * @return callable(): void
	 */
	private function step( string $name ): callable {
		return function () use ( $name ): void {
			$this->ran[] = $name;
		};
	}

	/**
	 * An upgrader for version 0.2.0 with three recording steps, the second of which can fail.
	 *
	 * @param \Throwable|WP_Error|null $failure What step b does instead of succeeding.
	 */
	private function upgrader( $failure = null ): Upgrader {
		$this->failure = $failure;
		return new Upgrader(
			'0.2.0',
			array(
				'0.2.0' => array(
					'a' => $this->step( 'a' ),
					'b' => function () {
						if ( $this->failure instanceof \Throwable ) {
							throw $this->failure;
						}
						if ( $this->failure instanceof WP_Error ) {
							return $this->failure;
						}
						$this->ran[] = 'b';
					},
					'c' => $this->step( 'c' ),
				),
			)
		);
	}

	/**
	 * The notice the upgrader prints on an admin screen for the current user.
	 *
	 * @param Upgrader $upgrader The upgrader.
	 */
	private function notice( Upgrader $upgrader ): string {
		ob_start();
		( new Upgrade_Notice( $upgrader ) )->render();
		return (string) ob_get_clean();
	}

	/**
	 * The plugin's own notice is on admin screens: data written by a newer version is announced to
	 * administrators through `admin_notices`, and to nobody else.
	 */
	public function test_the_plugin_shows_the_notice_on_admin_screens(): void {
		update_option( Upgrader::VERSION_OPTION, '99.0.0' );
		$this->act_as( 'editor' );
		ob_start();
		do_action( 'admin_notices' ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- core's hook, fired as an admin screen does.
		$this->assertStringNotContainsString( 'newer than the installed version', (string) ob_get_clean() );
		$this->act_as( 'administrator' );
		ob_start();
		do_action( 'admin_notices' ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- core's hook, fired as an admin screen does.
		$this->assertStringContainsString( 'was last updated by version 99.0.0, which is newer than the installed version ' . CAIRN_MAPS_VERSION, (string) ob_get_clean() );
	}

	/**
	 * Option rows whose name starts with the given text, read from the database.
	 *
	 * @param string $prefix Name prefix.
	 */
	private function option_rows( string $prefix ): int {
		global $wpdb;
		return (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->options} WHERE option_name LIKE %s", $wpdb->esc_like( $prefix ) . '%' ) );
	}

	/**
	 * The plugin checks on init, after the post type (init 10).
	 */
	public function test_the_check_runs_on_every_request_after_the_post_type(): void {
		$this->assertSame( 20, has_action( 'init', array( Plugin::instance()->get( 'upgrader' ), 'maybe_upgrade' ) ) );
		$this->assertSame( CAIRN_MAPS_VERSION, Plugin::instance()->get( 'upgrader' )->code_version() );
	}

	/**
	 * A 0.1.0 site: its derived caches go, its markers, groups, looks, settings and pages stay,
	 * the version is stored, and the next request does nothing.
	 */
	public function test_a_0_1_0_site_is_upgraded_once_and_keeps_its_data(): void {
		$group  = $this->create_group( 'huts', 'Huts' );
		$marker = $this->create_marker(
			array(
				'post_title' => 'Refuge',
				'lat'        => 45.8326,
				'lng'        => 6.8652,
				'groups'     => array( 'huts' ),
			)
		);
		update_term_meta( $group, Group_Styles::META_COLOR, '#c0392b' );
		update_option( Settings::TOKEN_OPTION, 'pk.eyJ1IjoiY2Fpcm4ifQ.c2lnbmF0dXJl' );
		update_option( Settings::CONSENT_OPTION, true );
		update_option( Settings::ORIGINS_OPTION, array( 'https://app.example.com' ) );
		$page = self::factory_page( '<!-- wp:cairn/map {"zoom":7} /-->' );
		// What 0.1.0 left behind: feed copies outside any index, and the old group looks cache.
		set_transient( Feed_Cache::PREFIX . 'bbox_1_2_3_4', 'manifest', DAY_IN_SECONDS );
		set_transient( Feed_Cache::PREFIX . 'bbox_1_2_3_4_0123456789abcdef_0', 'chunk', DAY_IN_SECONDS );
		set_transient( 'cairn_maps_group_styles', array( 'version' => 'x' ), DAY_IN_SECONDS );
		update_option( Feed_Cache::LOCK_PREFIX . 'other', 'not a transient' );
		$markers_version = get_option( Markers_Version::OPTION );
		$upgraded        = array();
		add_action(
			'cairn_maps_upgraded',
			static function ( $from, $to ) use ( &$upgraded ) {
				$upgraded[] = array( $from, $to );
			},
			10,
			2
		);

		$upgrader = Plugin::instance()->get( 'upgrader' );
		$upgrader->maybe_upgrade();

		$this->assertSame( CAIRN_MAPS_VERSION, get_option( Upgrader::VERSION_OPTION ) );
		$this->assertSame( array( array( '0.1.0', CAIRN_MAPS_VERSION ) ), $upgraded );
		$this->assertSame( 0, $this->option_rows( '_transient_' . Feed_Cache::PREFIX ), 'the unbounded feed copies are gone' );
		$this->assertSame( 0, $this->option_rows( '_transient_timeout_' . Feed_Cache::PREFIX ) );
		$this->assertSame( 0, $this->option_rows( '_transient_cairn_maps_group_styles' ) );
		$this->assertSame( 'not a transient', get_option( Feed_Cache::LOCK_PREFIX . 'other' ), 'only cache rows are deleted' );
		$this->assertNotSame( $markers_version, get_option( Markers_Version::OPTION ), 'cached answers are rebuilt' );
		$this->assertFalse( get_option( Upgrader::STATE_OPTION ) );
		$this->assertSame( 0, $this->option_rows( Upgrader::LOCK_OPTION ), 'the lock is released' );

		$this->assertSame( 'Refuge', get_the_title( $marker ) );
		$this->assertSame( '45.8326', get_post_meta( $marker, 'cairn_lat', true ) );
		$this->assertSame( array( 'huts' ), wp_get_object_terms( $marker, 'cairn_marker_group', array( 'fields' => 'slugs' ) ) );
		$this->assertSame( '#c0392b', get_term_meta( $group, Group_Styles::META_COLOR, true ) );
		$this->assertSame( 'pk.eyJ1IjoiY2Fpcm4ifQ.c2lnbmF0dXJl', get_option( Settings::TOKEN_OPTION ) );
		$this->assertTrue( (bool) get_option( Settings::CONSENT_OPTION ) );
		$this->assertSame( array( 'https://app.example.com' ), get_option( Settings::ORIGINS_OPTION ) );
		$this->assertStringContainsString( 'wp:cairn/map {"zoom":7}', get_post( $page )->post_content );

		// The next request: nothing to do.
		$upgrader->maybe_upgrade();
		$this->assertCount( 1, $upgraded );
	}

	/**
	 * An upgrade interrupted after step a (the request died holding the lock) resumes with b.
	 */
	public function test_an_interrupted_upgrade_resumes_with_the_unfinished_step(): void {
		update_option(
			Upgrader::STATE_OPTION,
			array(
				'target' => '0.2.0',
				'done'   => array( 'a' ),
			)
		);
		add_option( Upgrader::LOCK_OPTION, (string) ( time() - Upgrader::LOCK_TTL - 5 ) );
		wp_cache_delete( Upgrader::LOCK_OPTION, 'options' );

		$this->assertTrue( $this->upgrader()->run() );

		$this->assertSame( array( 'b', 'c' ), $this->ran );
		$this->assertSame( '0.2.0', get_option( Upgrader::VERSION_OPTION ) );
		$this->assertSame( 0, $this->option_rows( Upgrader::LOCK_OPTION ) );
	}

	/**
	 * While another request runs the upgrade (a fresh lock), this one leaves it alone.
	 */
	public function test_a_running_upgrade_is_not_run_twice(): void {
		add_option( Upgrader::LOCK_OPTION, (string) time() );

		$this->assertFalse( $this->upgrader()->run() );

		$this->assertSame( array(), $this->ran );
		$this->assertFalse( get_option( Upgrader::VERSION_OPTION ) );
	}

	/**
	 * A step that throws: the version stays, the finished steps are remembered, owners see why and
	 * can try again; automatic retries wait; a retry that succeeds does not redo step a.
	 */
	public function test_a_failed_step_keeps_the_version_and_tells_the_owner(): void {
		$upgrader = $this->upgrader( new RuntimeException( 'disk full' ) );

		$this->assertFalse( $upgrader->run() );
		$this->assertSame( array( 'a' ), $this->ran );
		$this->assertFalse( get_option( Upgrader::VERSION_OPTION ), 'the data is not claimed to be upgraded' );
		$this->assertSame( 0, $this->option_rows( Upgrader::LOCK_OPTION ), 'the lock is released' );
		$this->assertSame( 'b', $upgrader->failure()['step'] );

		$this->act_as( 'administrator' );
		$notice = $this->notice( $upgrader );
		$this->assertStringContainsString( 'notice-error', $notice );
		$this->assertStringContainsString( 'step “b”: an unexpected error stopped it; the details are in the PHP error log', $notice );
		$this->assertStringNotContainsString( 'disk full', $notice, 'what a step throws stays in the error log' );
		$this->assertStringContainsString( 'Cairn Maps: the upgrade step "b" failed: RuntimeException: disk full', $this->error_log() );
		$this->assertStringContainsString( 'Your markers, groups and settings are unchanged', $notice );
		$this->assertMatchesRegularExpression( '~href="[^"]*admin-post\.php\?action=cairn_maps_retry_upgrade&#038;_wpnonce=[0-9a-f]{10}"~', $notice );
		$this->act_as( 'editor' );
		$this->assertSame( '', $this->notice( $upgrader ), 'only owners see it' );

		// Within the hour, requests do not try again by themselves.
		$upgrader->maybe_upgrade();
		$this->assertSame( array( 'a' ), $this->ran );

		// The cause is gone; "Try again now".
		$this->failure = null;
		$this->act_as( 'administrator' );
		$this->assertSame( 'done', $this->retry( $upgrader ) );
		$this->assertSame( array( 'a', 'b', 'c' ), $this->ran );
		$this->assertSame( '0.2.0', get_option( Upgrader::VERSION_OPTION ) );
		$this->assertNull( $upgrader->failure() );
		$this->assertStringNotContainsString( 'notice-error', $this->notice( $upgrader ) );
	}

	/**
	 * Once the data is at the code's version, a failure left in the stored state is history: no
	 * failure, no error notice, status current.
	 */
	public function test_a_failure_left_behind_is_ignored_once_the_data_is_current(): void {
		update_option( Upgrader::VERSION_OPTION, '0.2.0' );
		update_option(
			Upgrader::STATE_OPTION,
			array(
				'target' => '0.2.0',
				'done'   => array( 'a' ),
				'error'  => array(
					'step'    => 'b',
					'message' => 'disk full',
					'time'    => time(),
				),
			)
		);
		$upgrader = $this->upgrader();

		$this->assertNull( $upgrader->failure() );
		$this->assertSame( Upgrader::STATUS_CURRENT, $upgrader->status() );
		$this->act_as( 'administrator' );
		$this->assertStringNotContainsString( 'notice-error', $this->notice( $upgrader ) );
	}

	/**
	 * A step that returns a WP_Error fails the same way.
	 */
	public function test_a_step_returning_an_error_fails_the_upgrade(): void {
		$upgrader = $this->upgrader( new WP_Error( 'nope', 'The table is read-only.' ) );

		$this->assertFalse( $upgrader->run() );
		$this->assertSame( array( 'b', 'The table is read-only.' ), array( $upgrader->failure()['step'], $upgrader->failure()['message'] ) );
		$this->assertFalse( get_option( Upgrader::VERSION_OPTION ) );
	}

	/**
	 * The retry button checks the user's capability.
	 */
	public function test_only_owners_may_retry(): void {
		$upgrader = $this->upgrader( new RuntimeException( 'disk full' ) );
		$upgrader->run();
		$this->act_as( 'editor' );

		$this->assertSame( 'refused 403', $this->retry( $upgrader ) );
		$this->assertSame( array( 'a' ), $this->ran );
	}

	/**
	 * A failed upgrade tries again by itself once RETRY_AFTER has passed since the failure (on
	 * `init` of any request), and finishes without redoing the steps already done.
	 */
	public function test_a_failed_upgrade_retries_by_itself_after_the_wait(): void {
		$upgrader = $this->upgrader( new RuntimeException( 'disk full' ) );
		$this->assertFalse( $upgrader->run() );
		$this->failure = null; // The cause is gone.

		$upgrader->maybe_upgrade();
		$this->assertSame( array( 'a' ), $this->ran, 'not within the wait' );

		$state                  = get_option( Upgrader::STATE_OPTION );
		$state['error']['time'] = time() - Upgrader::RETRY_AFTER + 5;
		update_option( Upgrader::STATE_OPTION, $state );
		$upgrader->maybe_upgrade();
		$this->assertSame( array( 'a' ), $this->ran, 'not a few seconds before the wait is over' );

		$state['error']['time'] = time() - Upgrader::RETRY_AFTER - 1;
		update_option( Upgrader::STATE_OPTION, $state );
		$upgrader->maybe_upgrade();
		$this->assertSame( array( 'a', 'b', 'c' ), $this->ran, 'retried by itself, step a not redone' );
		$this->assertSame( '0.2.0', get_option( Upgrader::VERSION_OPTION ) );
		$this->assertSame( Upgrader::STATUS_CURRENT, $upgrader->status() );
	}

	/**
	 * "Try again now" without a valid nonce (none, a wrong one, another action's) is refused with
	 * core's 403 and runs nothing, even for an administrator.
	 */
	public function test_try_again_needs_a_valid_nonce(): void {
		$upgrader = $this->upgrader( new RuntimeException( 'disk full' ) );
		$upgrader->run();
		$this->failure = null;
		$this->act_as( 'administrator' );

		foreach ( array(
			'none'           => '',
			'wrong'          => '0123456789',
			'another action' => wp_create_nonce( 'cairn_maps_other_action' ),
		) as $case => $nonce ) {
			$this->assertSame( 'refused 403', $this->retry( $upgrader, $nonce ), $case );
			$this->assertSame( array( 'a' ), $this->ran, $case );
			$this->assertFalse( get_option( Upgrader::VERSION_OPTION ), $case );
		}
		$this->assertSame( 'done', $this->retry( $upgrader ), 'with the notice\'s nonce' );
	}

	/**
	 * A database error in a real step: the owner's notice, Site Health's test and the Info tab
	 * (copied into support forums) say that the database refused, never the database's own words;
	 * those are in the PHP error log.
	 */
	public function test_a_database_error_is_not_shown_to_the_owner(): void {
		set_transient( Feed_Cache::PREFIX . 'bbox_1_2_3_4', 'manifest', DAY_IN_SECONDS );
		$break = static function ( $query ) {
			// The step's bulk delete of the old feed copies, sent to a table that does not exist.
			return is_string( $query ) && 0 === strpos( $query, 'DELETE FROM' ) && false !== strpos( $query, 'OR option_name LIKE' ) ? str_replace( 'DELETE FROM ', 'DELETE FROM cairn_no_such_table_', $query ) : $query;
		};
		add_filter( 'query', $break );
		global $wpdb;
		$wpdb->suppress_errors( true );
		$upgrader = new Upgrader( CAIRN_MAPS_VERSION, ( new \Cairn\Maps\Upgrade\Upgrade_Steps( new Markers_Version() ) )->all() );
		$this->assertFalse( $upgrader->run() );
		remove_filter( 'query', $break );
		// The database's own words (MariaDB names the missing table) are in the error log.
		$this->assertMatchesRegularExpression( '/the upgrade step "feed-cache-0.1" failed: .*cairn_no_such_table_\w+options.* doesn\'t exist/', $this->error_log() );

		$this->act_as( 'administrator' );
		$health = new \Cairn\Maps\Upgrade\Site_Health( $upgrader, new Settings() );
		$shown  = array(
			'notice'      => $this->notice( $upgrader ),
			'status test' => $health->test()['description'],
			'info'        => (string) wp_json_encode( $health->add_section( array() ) ),
		);
		foreach ( $shown as $where => $text ) {
			$this->assertStringContainsString( 'the database refused to delete the old feed cache; the details are in the PHP error log', $text, $where );
			$this->assertStringNotContainsString( 'cairn_no_such_table_', $text, $where );
			$this->assertStringNotContainsString( 'exist', $text, $where );
		}
	}

	/**
	 * Data written by a newer version (an older zip uploaded over it) is never touched.
	 */
	public function test_data_of_a_newer_version_is_left_alone(): void {
		update_option( Upgrader::VERSION_OPTION, '9.1.0' );
		$upgrader = $this->upgrader();

		$upgrader->maybe_upgrade();
		$this->assertFalse( $upgrader->run() );

		$this->assertSame( array(), $this->ran );
		$this->assertSame( '9.1.0', get_option( Upgrader::VERSION_OPTION ) );
		$this->act_as( 'administrator' );
		$notice = $this->notice( $upgrader );
		$this->assertStringContainsString( 'notice-warning', $notice );
		$this->assertStringContainsString( 'last updated by version 9.1.0, which is newer than the installed version 0.2.0', $notice );
	}

	/**
	 * Only the steps of versions after the data's, up to the code's, run, oldest first.
	 */
	public function test_only_the_steps_between_the_two_versions_run(): void {
		update_option( Upgrader::VERSION_OPTION, '0.2.0' );
		$upgrader = new Upgrader(
			'0.10.0',
			array(
				'0.11.0' => array( 'later' => $this->step( 'later' ) ),
				'0.10.0' => array( 'ten' => $this->step( 'ten' ) ),
				'0.2.0'  => array( 'two' => $this->step( 'two' ) ),
				'0.3.0'  => array( 'three' => $this->step( 'three' ) ),
			)
		);

		$this->assertTrue( $upgrader->run() );

		$this->assertSame( array( 'three', 'ten' ), $this->ran );
		$this->assertSame( '0.10.0', get_option( Upgrader::VERSION_OPTION ) );
	}

	/**
	 * Presses "Try again now": returns `done`/`failed` (where it redirects) or `refused <status>`.
	 *
	 * @param Upgrader    $upgrader The upgrader.
	 * @param string|null $nonce    The nonce sent; the notice's own when null.
	 */
	private function retry( Upgrader $upgrader, ?string $nonce = null ): string {
		$nonce                = $nonce ?? wp_create_nonce( Upgrader::RETRY_ACTION );
		$_REQUEST['_wpnonce'] = $nonce;
		$_GET['_wpnonce']     = $nonce;
		add_filter(
			'wp_die_handler',
			static fn() => static function ( $message, $title, $args ) {
				throw new RuntimeException( 'refused ' . (int) ( $args['response'] ?? 0 ) );
			}
		);
		add_filter(
			'wp_redirect',
			static function ( $location ) {
				throw new RuntimeException( 'redirected ' . $location );
			}
		);
		try {
			$upgrader->handle_retry();
		} catch ( RuntimeException $ended ) {
			unset( $_REQUEST['_wpnonce'], $_GET['_wpnonce'] ); // phpcs:ignore WordPress.Security.NonceVerification.Recommended -- the test's own request.
			if ( preg_match( '/' . Upgrade_Notice::RESULT_ARG . '=(\w+)/', $ended->getMessage(), $match ) ) {
				return $match[1];
			}
			return $ended->getMessage();
		}
		return 'returned';
	}

	/**
	 * A published page with the given content.
	 *
	 * @param string $content Block markup.
	 */
	private static function factory_page( string $content ): int {
		return (int) wp_insert_post(
			array(
				'post_type'    => 'page',
				'post_status'  => 'publish',
				'post_title'   => 'Map page',
				'post_content' => $content,
			)
		);
	}
}
