<?php
/**
 * The place index's rebuild on admin page loads, where WP-Cron does not run.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

/**
 * Where WP-Cron does not run the rebuild (Cron_Health: DISABLE_WP_CRON without a system cron, a
 * loopback that never reaches wp-cron.php — WordPress Playground — or an event long overdue), the
 * admin page loads of people who can edit posts carry it on: a few bounded steps at the end of
 * the request (`shutdown`), after the page was handed to the browser where PHP can do that
 * (fastcgi_finish_request() under PHP-FPM, litespeed_finish_request()).
 *
 * Bounds: at most SECONDS of steps (SECONDS_AFTER_RESPONSE once the page has been sent), BATCH
 * markers a step, no step once less than Rebuild_Runner::MEMORY_HEADROOM is left under PHP's
 * memory_limit, none when PHP's time limit would come first; one run at a time across requests
 * (Rebuild_Lock: a page load that finds WP-Cron or another page load running steps does nothing).
 * Never on the front end, never for visitors: only admin requests (wp-admin pages, and their
 * admin-ajax calls such as the Heartbeat) by a logged-in user with CAPABILITY.
 *
 * @since 0.8.0
 */
final class Admin_Steps {

	/**
	 * Seconds of steps per admin page load (filter `cairn_maps_index_step_budget`).
	 */
	public const SECONDS = 2.0;

	/**
	 * Seconds of steps once the page has been sent to the browser.
	 */
	public const SECONDS_AFTER_RESPONSE = 5.0;

	/**
	 * Markers per step (filter `cairn_maps_index_step_budget`).
	 */
	public const BATCH = 1000;

	/**
	 * Who may carry the rebuild on with their admin page loads.
	 */
	public const CAPABILITY = 'edit_posts';

	/**
	 * Seconds kept in hand before PHP's max_execution_time.
	 */
	private const TIME_LIMIT_MARGIN = 5.0;

	/**
	 * The index.
	 *
	 * @var Place_Index
	 */
	private Place_Index $index;

	/**
	 * Whether WP-Cron runs the rebuild.
	 *
	 * @var Cron_Health
	 */
	private Cron_Health $cron;

	/**
	 * Creates the admin steps.
	 *
	 * @param Place_Index $index The index.
	 * @param Cron_Health $cron  Whether WP-Cron runs the rebuild.
	 */
	public function __construct( Place_Index $index, Cron_Health $cron ) {
		$this->index = $index;
		$this->cron  = $cron;
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'admin_init', array( $this, 'plan' ), 10, 0 );
	}

	/**
	 * Early in an admin request: when this request should carry the rebuild on, its end will.
	 */
	public function plan(): void {
		if ( $this->wanted() ) {
			add_action( 'shutdown', array( $this, 'run' ), PHP_INT_MAX, 0 );
		}
	}

	/**
	 * Whether this request carries the rebuild on: an admin request by someone who may, a rebuild
	 * pending, and WP-Cron not running it. Costs one primary-key read when a rebuild may be
	 * pending; nothing for visitors.
	 */
	public function wanted(): bool {
		if ( ! is_admin() || wp_doing_cron() || wp_installing() || ( defined( 'WP_CLI' ) && WP_CLI ) ) {
			return false;
		}
		if ( ! is_user_logged_in() || ! current_user_can( self::CAPABILITY ) ) {
			return false;
		}
		if ( ! $this->index->is_pending() ) {
			return false;
		}
		$due = wp_next_scheduled( Place_Index::HOOK );
		if ( false === $due ) {
			// The event was lost (a cron array reset): WP-Cron gets its chance again first.
			wp_schedule_single_event( time(), Place_Index::HOOK );
			return false;
		}
		return Cron_Health::RUNS !== $this->cron->verdict( $due );
	}

	/**
	 * At the end of the request: the page sent first where PHP can, then steps within the budget.
	 *
	 * @return string What Place_Index::run_steps() said, or `skipped` (no time left).
	 */
	public function run(): string {
		$sent = false;
		if ( function_exists( 'fastcgi_finish_request' ) ) {
			$sent = fastcgi_finish_request();
		} elseif ( function_exists( 'litespeed_finish_request' ) ) {
			$sent = (bool) litespeed_finish_request();
		}
		$budget = $this->budget( $sent );
		if ( $budget['seconds'] < 0 ) {
			return 'skipped';
		}
		ignore_user_abort( true ); // A step is a transaction either way; let it end.
		return $this->index->run_steps( $budget['seconds'], $budget['markers'], 'admin' );
	}

	/**
	 * This request's budget: seconds (negative: none left under max_execution_time) and markers
	 * per step.
	 *
	 * @param bool $sent Whether the page was already sent to the browser.
	 * @return array{seconds: float, markers: int}
	 */
	public function budget( bool $sent ): array {
		/**
		 * Filters the rebuild steps an admin page load runs where WP-Cron does not run: seconds
		 * of steps (at least one step runs; 0: exactly one) and markers per step.
		 *
		 * @since 0.8.0
		 * @param array{seconds: float, markers: int} $budget Default 2 seconds (5 once the page
		 *                                                    has been sent) and 1,000 markers.
		 * @param bool                                $sent   Whether the page has been sent.
		 */
		$budget  = apply_filters(
			'cairn_maps_index_step_budget',
			array(
				'seconds' => $sent ? self::SECONDS_AFTER_RESPONSE : self::SECONDS,
				'markers' => self::BATCH,
			),
			$sent
		);
		$seconds = is_array( $budget ) && is_numeric( $budget['seconds'] ?? null ) ? (float) $budget['seconds'] : self::SECONDS;
		$markers = is_array( $budget ) && is_numeric( $budget['markers'] ?? null ) ? (int) $budget['markers'] : self::BATCH;
		$seconds = min( 30.0, max( 0.0, $seconds ) );
		$limit   = (float) ini_get( 'max_execution_time' );
		if ( $limit > 0 ) {
			$seconds = min( $seconds, $limit - timer_float() - self::TIME_LIMIT_MARGIN );
		}
		return array(
			'seconds' => $seconds,
			'markers' => min( Rebuild_Runner::BATCH, max( 1, $markers ) ),
		);
	}
}
