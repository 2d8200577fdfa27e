<?php
/**
 * Whether WP-Cron runs the place index's rebuild on this site.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

/**
 * Judges, from what WordPress already records, whether WP-Cron runs the rebuild's event
 * (Place_Index::HOOK), the way core's Site Health judges scheduled events (an event late by more
 * than five minutes has been missed: WP_Site_Health::has_missed_cron()) and loopbacks
 * (can_perform_loopback(): a request to wp-cron.php that does not get through). Three signs, each
 * free to read (the cron array and the `doing_cron` transient are autoloaded):
 *
 * - `disabled`: DISABLE_WP_CRON is set and nothing ran the event within a minute of it being due
 *   (a system cron calling wp-cron.php every minute would have);
 * - `loopback`: WordPress spawned WP-Cron after the event was due (spawn_cron() writes the time in
 *   `doing_cron`) and LOOPBACK_SECONDS later the event still waits: the request to wp-cron.php
 *   never arrived (WordPress Playground, a host that blocks requests to itself, basic auth). A
 *   working wp-cron.php takes the event off the schedule before it runs it;
 * - `late`: the event is more than LATE_SECONDS late, whatever the reason.
 *
 * Once seen, a verdict is remembered for a day (option OPTION), so the next rebuild does not wait
 * to find it again; the event running from WP-Cron (ran()) forgets it at once.
 *
 * @since 0.8.0
 */
final class Cron_Health {

	/**
	 * WP-Cron runs the event.
	 */
	public const RUNS = 'runs';

	/**
	 * DISABLE_WP_CRON, and nothing else runs the event.
	 */
	public const DISABLED = 'disabled';

	/**
	 * The request to wp-cron.php does not get through.
	 */
	public const LOOPBACK = 'loopback';

	/**
	 * The event is long overdue.
	 */
	public const LATE = 'late';

	/**
	 * The remembered verdict: `verdict`, `at` (Unix time).
	 */
	public const OPTION = 'cairn_maps_index_cron';

	/**
	 * Seconds after a spawn of WP-Cron by which wp-cron.php has taken a due event (core's
	 * loopback test gives up after 10).
	 */
	public const LOOPBACK_SECONDS = 15;

	/**
	 * Seconds late, with DISABLE_WP_CRON, by which a system cron would have run the event.
	 */
	public const DISABLED_SECONDS = 60;

	/**
	 * Seconds late after which an event has been missed (core's Site Health: five minutes).
	 */
	public const LATE_SECONDS = 300;

	/**
	 * How long a verdict is remembered.
	 */
	public const REMEMBER_SECONDS = DAY_IN_SECONDS;

	/**
	 * Whether WP-Cron is switched off (DISABLE_WP_CRON).
	 *
	 * @var bool
	 */
	private bool $disabled;

	/**
	 * Creates the judge.
	 *
	 * @param bool|null $disabled Whether WP-Cron is switched off; null: DISABLE_WP_CRON says.
	 */
	public function __construct( ?bool $disabled = null ) {
		$this->disabled = $disabled ?? ( defined( 'DISABLE_WP_CRON' ) && DISABLE_WP_CRON );
	}

	/**
	 * Whether DISABLE_WP_CRON is set.
	 */
	public function disabled(): bool {
		return $this->disabled;
	}

	/**
	 * Whether WP-Cron runs the rebuild's event, and if not, why: RUNS, DISABLED, LOOPBACK, LATE.
	 *
	 * @param int|false $due When the event is due (wp_next_scheduled()); false: not scheduled.
	 */
	public function verdict( $due ): string {
		$now        = time();
		$remembered = get_option( self::OPTION );
		if ( is_array( $remembered ) && (int) ( $remembered['at'] ?? 0 ) > $now - self::REMEMBER_SECONDS && in_array( $remembered['verdict'] ?? '', array( self::DISABLED, self::LOOPBACK, self::LATE ), true ) ) {
			return (string) $remembered['verdict'];
		}
		if ( false === $due || (int) $due > $now ) {
			return self::RUNS;
		}
		$late    = $now - (int) $due;
		$spawned = (float) get_transient( 'doing_cron' );
		$verdict = self::RUNS;
		if ( $this->disabled && $late > self::DISABLED_SECONDS ) {
			$verdict = self::DISABLED;
		} elseif ( ! $this->disabled && $spawned >= (int) $due && $now - $spawned > self::LOOPBACK_SECONDS ) {
			$verdict = self::LOOPBACK;
		} elseif ( $late > self::LATE_SECONDS ) {
			$verdict = self::LATE;
		}
		if ( self::RUNS !== $verdict ) {
			update_option(
				self::OPTION,
				array(
					'verdict' => $verdict,
					'at'      => $now,
				),
				false
			);
		}
		return $verdict;
	}

	/**
	 * The rebuild's event ran from WP-Cron: WP-Cron works here (the verdict is forgotten).
	 */
	public function ran(): void {
		if ( false !== get_option( self::OPTION ) ) {
			delete_option( self::OPTION );
		}
	}
}
