<?php
/**
 * Runs the place index's rebuild: one step, a run of steps, or all of them.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

/**
 * Every step of a rebuild (Index_Rebuild) goes through step(): the progress read from its row
 * (Rebuild_State), the step run, and its result stored only if the progress is still the one
 * read — so a rebuild started meanwhile is never overwritten, and the run stops. Runs of steps
 * (run_steps(): WP-Cron, admin page loads; rebuild_now(): WP-CLI) hold the lock (Rebuild_Lock),
 * so two steps never run at once, even from two servers; each run is bounded in time (its caller
 * says how long), in markers per step, and in memory (no step starts with less than
 * MEMORY_HEADROOM left under PHP's memory_limit).
 *
 * @since 0.8.0
 */
final class Rebuild_Runner {

	/**
	 * Markers per step of a WP-Cron run and of rebuild_now().
	 */
	public const BATCH = 5000;

	/**
	 * Seconds a run's lock outlives its time budget (one more step may take that long).
	 */
	public const LOCK_SLACK = 30;

	/**
	 * Seconds before WP-Cron tries again when another run holds the lock.
	 */
	public const LOCKED_RETRY = 30;

	/**
	 * Seconds before WP-Cron tries again after the database refused a step.
	 */
	public const REFUSED_RETRY = 60;

	/**
	 * Bytes a run keeps free under PHP's memory_limit: no step starts with less (a step of 1,000
	 * markers peaks at about 13 MB above WordPress' own use on Playground; 5,000 stay under 10 MB
	 * more at a million on MariaDB).
	 */
	public const MEMORY_HEADROOM = 32 * MB_IN_BYTES;

	/**
	 * Refusals of the same step in a row after which rebuild_now() gives up.
	 */
	public const MAX_REFUSALS = 3;

	/**
	 * Restarts (start_rebuild() while running) after which rebuild_now() gives up.
	 */
	private const MAX_RESTARTS = 3;

	/**
	 * The steps.
	 *
	 * @var Index_Rebuild
	 */
	private Index_Rebuild $rebuild;

	/**
	 * The progress.
	 *
	 * @var Rebuild_State
	 */
	private Rebuild_State $state;

	/**
	 * One run at a time.
	 *
	 * @var Rebuild_Lock
	 */
	private Rebuild_Lock $lock;

	/**
	 * Creates the runner.
	 *
	 * @param Index_Rebuild $rebuild The steps.
	 * @param Rebuild_State $state   The progress.
	 * @param Rebuild_Lock  $lock    One run at a time.
	 */
	public function __construct( Index_Rebuild $rebuild, Rebuild_State $state, Rebuild_Lock $lock ) {
		$this->rebuild = $rebuild;
		$this->state   = $state;
		$this->lock    = $lock;
	}

	/**
	 * One step of a full rebuild, without the lock: for callers that run alone (tests). Starts
	 * one when none is pending.
	 *
	 * @param int $batch Markers per batch.
	 * @return bool Whether the rebuild is done.
	 */
	public function rebuild( int $batch = self::BATCH ): bool {
		if ( null === $this->state->raw() ) {
			$this->state->start();
		}
		return 'done' === $this->step( $batch, 'request' );
	}

	/**
	 * A whole rebuild in this request (WP-CLI, benchmarks, tests), from the start: waits for a run
	 * in progress to end, then holds the lock until it is done.
	 *
	 * @param int    $batch Markers per batch.
	 * @param string $by    Who runs it (`cli`, `request`), for Site Health.
	 * @return bool Whether it ended (false: the database refused the same step three times, or
	 *              another run kept the lock; the rebuild stays pending for the next run).
	 */
	public function rebuild_now( int $batch = self::BATCH, string $by = 'request' ): bool {
		$lock = $this->lock->wait( self::LOCK_SLACK, Place_Index::CRON_SECONDS + self::LOCK_SLACK );
		if ( null === $lock ) {
			return false;
		}
		try {
			$this->state->start();
			$restarts = 0;
			do {
				$result = $this->step( $batch, $by );
				if ( 'done' === $result || 'idle' === $result ) {
					return true;
				}
				if ( 'restarted' === $result && ++$restarts > self::MAX_RESTARTS ) {
					return false;
				}
				if ( 'refused' === $result && $this->refusals() >= self::MAX_REFUSALS ) {
					return false;
				}
				$lock = $this->lock->renew( $lock, self::LOCK_SLACK );
			} while ( null !== $lock );
			return false;
		} finally {
			if ( null !== $lock ) {
				$this->lock->release( $lock );
			}
		}
	}

	/**
	 * Runs rebuild steps for a while, if no other run does: WP-Cron's and the admin page loads'.
	 *
	 * @param float  $seconds Seconds to run steps for (at least one step runs).
	 * @param int    $batch   Markers per step.
	 * @param string $by      Who runs them (`cron`, `admin`), for Site Health.
	 * @return string `done`, `more` (time or memory ran out), `idle` (nothing pending), `locked`
	 *                (another run holds the lock), `refused` (the database refused the step) or
	 *                `restarted` (a rebuild was started meanwhile).
	 */
	public function run_steps( float $seconds, int $batch, string $by ): string {
		if ( null === $this->state->raw() ) {
			return 'idle';
		}
		$until = microtime( true ) + max( 0.0, $seconds );
		$lock  = $this->lock->take( (int) ceil( $seconds ) + self::LOCK_SLACK );
		if ( null === $lock ) {
			return 'locked';
		}
		try {
			do {
				$result = $this->step( $batch, $by );
				if ( 'more' !== $result ) {
					return $result;
				}
				$lock = $this->lock->renew( $lock, (int) ceil( max( 0.0, $until - microtime( true ) ) ) + self::LOCK_SLACK );
				if ( null === $lock ) {
					return 'locked'; // Expired and taken over: that run goes on.
				}
			} while ( microtime( true ) < $until && self::memory_left() >= self::MEMORY_HEADROOM );
			return 'more';
		} finally {
			if ( null !== $lock ) {
				$this->lock->release( $lock );
			}
		}
	}

	/**
	 * A WP-Cron run: steps for a while, then the event again for the rest (later when another run
	 * holds the lock or the database refused the step).
	 *
	 * @param string $hook    The event.
	 * @param int    $seconds Seconds of steps.
	 */
	public function run_cron( string $hook, int $seconds ): void {
		$result = $this->run_steps( $seconds, self::BATCH, 'cron' );
		$retry  = array(
			'more'      => 0,
			'restarted' => 0,
			'locked'    => self::LOCKED_RETRY,
			'refused'   => self::REFUSED_RETRY,
		);
		if ( isset( $retry[ $result ] ) ) {
			wp_schedule_single_event( time() + $retry[ $result ], $hook );
		}
	}

	/**
	 * One step: the stored progress read, the step run, its result stored if the progress is
	 * still the one read.
	 *
	 * @param int    $batch Markers per batch.
	 * @param string $by    Who runs it.
	 * @return string `done`, `more`, `refused`, `restarted` or `idle` (nothing pending: another
	 *                run ended it just before this one took the lock).
	 */
	private function step( int $batch, string $by ): string {
		if ( ! Index_Schema::is_current() ) {
			Index_Schema::ensure();
		}
		$raw   = $this->state->raw();
		$state = Rebuild_State::decode( $raw );
		if ( null === $state ) {
			return 'idle';
		}
		$next = $this->rebuild->step( $state, max( 1, $batch ) );
		if ( null === $next ) {
			if ( ! $this->state->replace( $raw, null ) ) {
				return 'restarted';
			}
			$this->state->record_built( $by, (int) ( $state['started'] ?? time() ), (int) ( $state['done'] ?? 0 ) );
			return 'done';
		}
		$refused = Index_Rebuild::repeats( $state, $next ) ? (int) ( $state['refused'] ?? 0 ) + 1 : 0;
		$next   += array(
			'started' => (int) ( $state['started'] ?? time() ),
			'at'      => time(),
			'by'      => $by,
			'refused' => $refused,
		);
		if ( ! $this->state->replace( $raw, $next ) ) {
			return 'restarted';
		}
		return $refused > 0 ? 'refused' : 'more';
	}

	/**
	 * How many times in a row the database refused the pending step.
	 */
	private function refusals(): int {
		return (int) ( $this->state->get()['refused'] ?? 0 );
	}

	/**
	 * Bytes left under PHP's memory_limit (PHP_INT_MAX without a limit).
	 */
	private static function memory_left(): int {
		$limit = wp_convert_hr_to_bytes( (string) ini_get( 'memory_limit' ) );
		return $limit > 0 ? $limit - memory_get_usage( true ) : PHP_INT_MAX;
	}

	/**
	 * Where a rebuild stands (Site Health, WP-CLI): `pending`, `phase` (`start`, `places`,
	 * `cells`), `done` / `total` (places written / published markers when it started), `level` /
	 * `levels` (cell levels recounted), `by` and `at` (who ran the last step, when), `started`,
	 * `refused` (the database refused the step that many times in a row), `running` (a run
	 * holds the lock now) and `built` (the last finished rebuild, see
	 * Rebuild_State::built()).
	 *
	 * @return array{pending: bool, phase: string, done: int, total: int, level: int, levels: int, by: string, at: int, started: int, refused: int, running: bool, built: array{by?: string, started?: int, at?: int, places?: int}}
	 */
	public function progress(): array {
		$state = $this->state->get();
		return array(
			'pending' => null !== $state,
			'phase'   => null === $state ? '' : (string) ( $state['phase'] ?? 'start' ),
			'done'    => (int) ( $state['done'] ?? 0 ),
			'total'   => (int) ( $state['total'] ?? 0 ),
			'level'   => (int) ( $state['level'] ?? 0 ),
			'levels'  => count( Place_Index::CELL_LEVELS ),
			'by'      => (string) ( $state['by'] ?? '' ),
			'at'      => (int) ( $state['at'] ?? 0 ),
			'started' => (int) ( $state['started'] ?? 0 ),
			'refused' => (int) ( $state['refused'] ?? 0 ),
			'running' => $this->lock->is_held(),
			'built'   => $this->state->built(),
		);
	}
}
