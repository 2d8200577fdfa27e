<?php
/**
 * Brings a site's stored data up to the installed version, once, after an update.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Upgrade;

defined( 'ABSPATH' ) || exit;

use Throwable;
use WP_Error;

/**
 * Runs the upgrade steps of every version between the one that last wrote the site's data and
 * the installed one.
 *
 * Uploading a new zip over an installed plugin ("Replace current with uploaded") does not fire the
 * activation hook, so the check runs on `init` of every request: one autoloaded option compared
 * with the code's version, nothing more while they match. When they differ:
 *
 * - one request at a time runs the steps (a lock row, taken with an atomic insert, stale after
 *   LOCK_TTL seconds so a request that died does not block the upgrade for ever);
 * - each finished step is recorded, so an interrupted upgrade resumes with the step it did not
 *   finish; steps are written to be safe to run twice;
 * - a step that fails stops the run; the stored version stays where it was, the data the step did
 *   not finish is as before it, owners see a notice with the reason and a "Try again" button, and
 *   the upgrade retries by itself after RETRY_AFTER seconds;
 * - data written by a newer version (an older zip uploaded over a newer one) is never touched:
 *   owners see a notice naming both versions.
 *
 * @since 0.2.0
 */
final class Upgrader {

	/**
	 * The version of Cairn Maps whose upgrade steps the site's data has been through.
	 */
	public const VERSION_OPTION = 'cairn_maps_version';

	/**
	 * The running or failed upgrade: target version, finished steps, last error.
	 */
	public const STATE_OPTION = 'cairn_maps_upgrade';

	/**
	 * The lock row: the time it was taken.
	 */
	public const LOCK_OPTION = 'cairn_maps_upgrade_lock';

	/**
	 * Seconds after which a lock is taken to belong to a request that died.
	 */
	public const LOCK_TTL = 600;

	/**
	 * Seconds before a failed upgrade tries again by itself.
	 */
	public const RETRY_AFTER = HOUR_IN_SECONDS;

	/**
	 * The admin-post action of the "Try again" button.
	 */
	public const RETRY_ACTION = 'cairn_maps_retry_upgrade';

	/**
	 * The version of data without a stored version: the first release stored none.
	 */
	public const FIRST_VERSION = '0.1.0';

	/**
	 * Status: the data is at the installed version.
	 */
	public const STATUS_CURRENT = 'current';

	/**
	 * Status: the data was written by a newer version (an older zip went over it); left alone.
	 */
	public const STATUS_NEWER = 'newer';

	/**
	 * Status: the data is behind the code and the last upgrade failed.
	 */
	public const STATUS_FAILED = 'failed';

	/**
	 * Status: the data is behind the code and the upgrade has not run (or is running).
	 */
	public const STATUS_PENDING = 'pending';

	/**
	 * The installed code's version.
	 *
	 * @var string
	 */
	private string $code_version;

	/**
	 * Steps by the version that introduced them, each by name.
	 *
	 * @var array<string, array<string, callable(): (void|WP_Error)>>
	 */
	private array $steps;

	/**
	 * Sets up the upgrader.
	 *
	 * @param string                                                    $code_version The installed version.
	 * @param array<string, array<string, callable(): (void|WP_Error)>> $steps        Steps by version, then name.
	 */
	public function __construct( string $code_version, array $steps ) {
		$this->code_version = $code_version;
		$this->steps        = $steps;
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		// After the post type, taxonomy and settings are registered (init, 10).
		add_action( 'init', array( $this, 'maybe_upgrade' ), 20 );
		add_action( 'admin_post_' . self::RETRY_ACTION, array( $this, 'handle_retry' ) );
	}

	/**
	 * The installed code's version.
	 */
	public function code_version(): string {
		return $this->code_version;
	}

	/**
	 * The version the site's data was last brought to ('' when none was stored: the first release).
	 */
	public function data_version(): string {
		$stored = get_option( self::VERSION_OPTION, '' );
		return is_string( $stored ) ? $stored : '';
	}

	/**
	 * Whether the data was written by a newer version than the installed one.
	 */
	public function data_is_newer(): bool {
		$stored = $this->data_version();
		return '' !== $stored && version_compare( $stored, $this->code_version, '>' );
	}

	/**
	 * Where the data stands against the installed code: one of the STATUS_ constants.
	 */
	public function status(): string {
		if ( $this->data_version() === $this->code_version ) {
			return self::STATUS_CURRENT;
		}
		if ( $this->data_is_newer() ) {
			return self::STATUS_NEWER;
		}
		return null === $this->failure() ? self::STATUS_PENDING : self::STATUS_FAILED;
	}

	/**
	 * The last failure: the step and its message, or null.
	 *
	 * @return array{step: string, message: string, time: int}|null
	 */
	public function failure(): ?array {
		// A failure is only ever recorded while the data is behind the code: on an up-to-date site
		// (every request but the few after an update) no option beyond the autoloaded version is read.
		if ( $this->data_version() === $this->code_version ) {
			return null;
		}
		$state = $this->state();
		if ( ! isset( $state['error'] ) || $state['target'] !== $this->code_version ) {
			return null;
		}
		return $state['error'];
	}

	/**
	 * Runs the upgrade when the data is older than the code, unless a recent attempt failed.
	 */
	public function maybe_upgrade(): void {
		if ( $this->data_version() === $this->code_version || $this->data_is_newer() ) {
			return;
		}
		$failure = $this->failure();
		if ( null !== $failure && $failure['time'] > time() - self::RETRY_AFTER ) {
			return;
		}
		$this->run();
	}

	/**
	 * Runs the steps not yet done. Returns whether the data is now at the code's version.
	 */
	public function run(): bool {
		if ( $this->data_version() === $this->code_version ) {
			return true;
		}
		if ( $this->data_is_newer() || ! $this->lock() ) {
			return false;
		}
		$from  = '' === $this->data_version() ? self::FIRST_VERSION : $this->data_version();
		$state = $this->state();
		if ( $state['target'] !== $this->code_version ) {
			$state = array(
				'target' => $this->code_version,
				'done'   => array(),
			);
		}
		unset( $state['error'] );
		foreach ( $this->pending_steps( $from ) as $name => $step ) {
			if ( in_array( $name, $state['done'], true ) ) {
				continue;
			}
			$message = $this->run_step( $name, $step );
			if ( null !== $message ) {
				$state['error'] = array(
					'step'    => $name,
					'message' => $message,
					'time'    => time(),
				);
				update_option( self::STATE_OPTION, $state, false );
				$this->unlock();
				return false;
			}
			$state['done'][] = $name;
			update_option( self::STATE_OPTION, $state, false );
		}
		update_option( self::VERSION_OPTION, $this->code_version, true );
		delete_option( self::STATE_OPTION );
		$this->unlock();

		/**
		 * Fires once the site's Cairn Maps data has been brought to the installed version.
		 *
		 * @since 0.2.0
		 *
		 * @param string $from The version the data was at ('0.1.0' when none was stored).
		 * @param string $to   The installed version.
		 */
		do_action( 'cairn_maps_upgraded', $from, $this->code_version );
		return true;
	}

	/**
	 * "Try again" from the failure notice: runs the upgrade now and returns to the screen.
	 */
	public function handle_retry(): void {
		if ( ! current_user_can( 'manage_options' ) ) {
			wp_die( esc_html__( 'Sorry, you are not allowed to update Cairn Maps data.', 'cairn-maps' ), '', array( 'response' => 403 ) );
		}
		check_admin_referer( self::RETRY_ACTION );
		$done     = $this->run();
		$referer  = wp_get_referer();
		$location = is_string( $referer ) && '' !== $referer ? $referer : admin_url( 'plugins.php' );
		wp_safe_redirect( add_query_arg( Upgrade_Notice::RESULT_ARG, $done ? 'done' : 'failed', $location ) );
		exit;
	}

	/**
	 * The steps after $from up to the code's version, oldest version first.
	 *
	 * @param string $from The data's version.
	 * @return array<string, callable(): (void|WP_Error)>
	 */
	private function pending_steps( string $from ): array {
		$versions = array_keys( $this->steps );
		usort( $versions, static fn( string $a, string $b ): int => version_compare( $a, $b ) );
		$pending = array();
		foreach ( $versions as $version ) {
			if ( version_compare( $version, $from, '>' ) && version_compare( $version, $this->code_version, '<=' ) ) {
				$pending += $this->steps[ $version ];
			}
		}
		return $pending;
	}

	/**
	 * Runs one step. Returns null when it succeeded, else why it failed, in words fit for the
	 * owner's notice and Site Health (whose report is copied into support forums).
	 *
	 * A step's WP_Error message is written for owners; its `detail` data (a database's own error)
	 * and anything a step throws (whose message may hold SQL, paths or table names) go to the PHP
	 * error log only, and the owner reads that the details are there.
	 *
	 * @param string                      $name The step's name.
	 * @param callable(): (void|WP_Error) $step The step.
	 */
	private function run_step( string $name, callable $step ): ?string {
		try {
			$result = $step();
		} catch ( Throwable $error ) {
			self::log( $name, get_class( $error ) . ': ' . $error->getMessage() );
			return __( 'an unexpected error stopped it; the details are in the PHP error log', 'cairn-maps' );
		}
		if ( $result instanceof WP_Error ) {
			$data = $result->get_error_data();
			if ( is_array( $data ) && isset( $data['detail'] ) && is_string( $data['detail'] ) && '' !== $data['detail'] ) {
				self::log( $name, $data['detail'] );
			}
			return $result->get_error_message();
		}
		return null;
	}

	/**
	 * Writes why a step failed to the PHP error log (where only the server's owner reads it).
	 *
	 * @param string $name   The step's name.
	 * @param string $detail What happened.
	 */
	private static function log( string $name, string $detail ): void {
		// phpcs:ignore WordPress.PHP.DevelopmentFunctions.error_log_error_log -- the one place the detail is kept.
		error_log( sprintf( 'Cairn Maps: the upgrade step "%s" failed: %s', $name, $detail ) );
	}

	/**
	 * The stored state, normalised.
	 *
	 * @return array{target: string, done: list<string>, error?: array{step: string, message: string, time: int}}
	 */
	private function state(): array {
		$stored = get_option( self::STATE_OPTION, array() );
		$state  = array(
			'target' => is_array( $stored ) && isset( $stored['target'] ) && is_string( $stored['target'] ) ? $stored['target'] : '',
			'done'   => array(),
		);
		if ( is_array( $stored ) && isset( $stored['done'] ) && is_array( $stored['done'] ) ) {
			$state['done'] = array_values( array_filter( $stored['done'], 'is_string' ) );
		}
		if ( is_array( $stored ) && isset( $stored['error'] ) && is_array( $stored['error'] ) ) {
			$state['error'] = array(
				'step'    => (string) ( $stored['error']['step'] ?? '' ),
				'message' => (string) ( $stored['error']['message'] ?? '' ),
				'time'    => (int) ( $stored['error']['time'] ?? 0 ),
			);
		}
		return $state;
	}

	/**
	 * Takes the lock: an atomic insert of the lock row; a lock older than LOCK_TTL is taken over
	 * (deleted only if it still holds the value read, so two requests cannot both take it).
	 */
	private function lock(): bool {
		global $wpdb;
		$now = time();
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- an atomic insert is the lock; the options API cannot tell who won.
		if ( $wpdb->query( $wpdb->prepare( "INSERT IGNORE INTO {$wpdb->options} (option_name, option_value, autoload) VALUES (%s, %s, 'off')", self::LOCK_OPTION, (string) $now ) ) ) {
			return true;
		}
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- the lock row must be read past every cache.
		$held = $wpdb->get_var( $wpdb->prepare( "SELECT option_value FROM {$wpdb->options} WHERE option_name = %s", self::LOCK_OPTION ) );
		if ( ! is_string( $held ) || (int) $held > $now - self::LOCK_TTL ) {
			return false;
		}
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- conditional delete: only the stale value.
		$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->options} WHERE option_name = %s AND option_value = %s", self::LOCK_OPTION, $held ) );
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- see above.
		return (bool) $wpdb->query( $wpdb->prepare( "INSERT IGNORE INTO {$wpdb->options} (option_name, option_value, autoload) VALUES (%s, %s, 'off')", self::LOCK_OPTION, (string) $now ) );
	}

	/**
	 * Releases the lock.
	 */
	private function unlock(): void {
		global $wpdb;
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- the lock row never enters the options cache.
		$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->options} WHERE option_name = %s", self::LOCK_OPTION ) );
	}
}
