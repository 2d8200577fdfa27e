<?php
/**
 * The background job that geocodes imported addresses.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Import_Export;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Geocoding\Geocoder;
use Cairn\Maps\Markers\Marker_Validation;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Markers\Post_Type;
use WP_Error;

/**
 * A WP-Cron event (HOOK) that works through Geocode_Queue for at most run_seconds() (20 s by
 * default, well inside PHP's usual 30 s limit), then schedules itself again while markers wait.
 *
 * Every request goes through the site's geocoder (Geocoder::search(): the owner's provider, its
 * cache) and waits its turn at the site-wide rate limiter it shares with editors' address
 * searches (Geocoder::limiter(): about one request a second to Nominatim), so the job never
 * sends a request over the limit; at that pace 1,000 rows take about 17 minutes. It runs on cron only: no admin
 * screen ever waits for it.
 *
 * Failures: a provider that answers 429/5xx/garbage or times out is tried again later (after
 * retry_delay() × the number of failed tries), up to MAX_TRIES times, then the row is reported.
 * Three such failures in a row end the run early: a provider that is down is asked again a
 * minute later, not once a second. An address the provider does not know is reported at once.
 *
 * One run at a time: a lock (an option row taken with a compare-and-set UPDATE, as the rate
 * limiter does, so MariaDB and SQLite behave alike) that expires by itself if a run dies. If the
 * scheduled event was lost (the plugin deactivated, a cron table reset), the first request that
 * sees a running job with nothing scheduled schedules it again (resume()).
 *
 * @since 0.3.0
 */
class Geocode_Job {

	/**
	 * The cron event.
	 */
	public const HOOK = 'cairn_maps_geocode_addresses';

	/**
	 * The lock's option row: the time (Unix seconds) until which a run holds it.
	 */
	public const LOCK_OPTION = 'cairn_maps_geocode_lock';

	/**
	 * Seconds a run works (filter `cairn_maps_geocode_run_seconds`).
	 */
	public const RUN_SECONDS = 20;

	/**
	 * Tries before a row whose requests keep failing is reported.
	 */
	public const MAX_TRIES = 3;

	/**
	 * Seconds before a failed row is tried again, times its failed tries (filter
	 * `cairn_maps_geocode_retry_delay`).
	 */
	public const RETRY_DELAY = 60;

	/**
	 * Provider failures in a row that end a run early.
	 */
	private const FAILURES_IN_A_ROW = 3;

	/**
	 * The queue.
	 *
	 * @var Geocode_Queue
	 */
	private Geocode_Queue $queue;

	/**
	 * The markers version (one change per run, not one per marker).
	 *
	 * @var Markers_Version
	 */
	private Markers_Version $version;

	/**
	 * The site's geocoder, made when first needed.
	 *
	 * @var Geocoder|null
	 */
	private ?Geocoder $geocoder;

	/**
	 * Whether a run changed published markers without the markers version being bumped yet.
	 *
	 * @var bool
	 */
	private bool $unsettled = false;

	/**
	 * Creates the job.
	 *
	 * @param Geocode_Queue   $queue    The queue.
	 * @param Markers_Version $version  The markers version.
	 * @param Geocoder|null   $geocoder The site's geocoder (default: made from the settings when
	 *                                  first needed, with the site-wide rate limiter).
	 */
	public function __construct( Geocode_Queue $queue, Markers_Version $version, ?Geocoder $geocoder = null ) {
		$this->queue    = $queue;
		$this->version  = $version;
		$this->geocoder = $geocoder;
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( self::HOOK, array( $this, 'run_from_cron' ) );
		add_action( 'init', array( $this, 'resume' ) );
	}

	/**
	 * Seconds a run works.
	 */
	public static function run_seconds(): float {
		/**
		 * Filters how long one run of the geocoding job works, in seconds. Keep it below PHP's
		 * max_execution_time minus one request's timeout.
		 *
		 * @since 0.3.0
		 * @param int $seconds Seconds (default 20).
		 */
		return (float) max( 1, min( 300, (int) apply_filters( 'cairn_maps_geocode_run_seconds', self::RUN_SECONDS ) ) );
	}

	/**
	 * Seconds before a failed row is tried again (times its failed tries).
	 */
	public static function retry_delay(): int {
		/**
		 * Filters how long a row waits after the provider failed (429, 5xx, timeout, garbage)
		 * before it is tried again, in seconds; multiplied by the number of failed tries.
		 *
		 * @since 0.3.0
		 * @param int $seconds Seconds (default 60).
		 */
		return max( 0, (int) apply_filters( 'cairn_maps_geocode_retry_delay', self::RETRY_DELAY ) );
	}

	/**
	 * Schedules a run at `$at` unless one is scheduled earlier.
	 *
	 * @param int $at Unix time.
	 */
	public static function schedule( int $at ): void {
		$next = wp_next_scheduled( self::HOOK );
		if ( false !== $next && $next <= $at ) {
			return;
		}
		wp_clear_scheduled_hook( self::HOOK );
		wp_schedule_single_event( $at, self::HOOK );
	}

	/**
	 * Schedules the job again when it runs with nothing scheduled (after a deactivation, a lost
	 * cron entry). Cheap: the job option and the cron array are autoloaded.
	 */
	public function resume(): void {
		if ( $this->queue->is_running() && false === wp_next_scheduled( self::HOOK ) ) {
			self::schedule( time() );
		}
	}

	/**
	 * The cron event's callback.
	 */
	public function run_from_cron(): void {
		$this->run( self::run_seconds() );
	}

	/**
	 * Geocodes queued markers for at most `$budget` seconds, then schedules the next run if any
	 * wait.
	 *
	 * @param float $budget Seconds.
	 * @return array{found: int, failed: int, retried: int, locked: bool} What this run did.
	 */
	public function run( float $budget ): array {
		$stats = array(
			'found'   => 0,
			'failed'  => 0,
			'retried' => 0,
			'locked'  => false,
		);
		if ( ! $this->queue->is_running() ) {
			return $stats;
		}
		$start = microtime( true );
		$lock  = $this->lock( (int) ceil( $start + $budget ) + 60 );
		if ( null === $lock ) {
			$stats['locked'] = true;
			return $stats;
		}
		register_shutdown_function( array( $this, 'settle' ) );
		$resume_at = time();
		try {
			$resume_at = $this->version->batch(
				function () use ( $start, $budget, &$stats ): int {
					return $this->work( $start, $budget, $stats );
				}
			);
		} finally {
			$this->unsettled = false;
			$this->unlock( $lock );
		}
		if ( $this->queue->finish_if_empty() ) {
			wp_clear_scheduled_hook( self::HOOK );
		} else {
			// The run decides when the next one may go (a provider's pause included): replaced,
			// not kept if earlier.
			wp_clear_scheduled_hook( self::HOOK );
			wp_schedule_single_event( max( $resume_at, (int) $this->queue->next_due() ), self::HOOK );
		}
		return $stats;
	}

	/**
	 * The loop of a run.
	 *
	 * @param float                                                      $start  When the run started (microtime).
	 * @param float                                                      $budget Seconds.
	 * @param array{found: int, failed: int, retried: int, locked: bool} $stats  Counts, updated.
	 * @return int Unix time from which the next run may go.
	 */
	private function work( float $start, float $budget, array &$stats ): int {
		$failures = 0;
		while ( microtime( true ) - $start < $budget ) {
			$ids = $this->queue->due( 20, time() );
			if ( array() === $ids ) {
				return time();
			}
			foreach ( $ids as $id ) {
				$address = $this->queue->queued_address( $id );
				if ( null === $address ) {
					continue; // Cancelled, deleted or done since the list was read.
				}
				if ( '' === $address ) {
					$this->queue->fail( $id, Geocode_Queue::REASON_INVALID );
					++$stats['failed'];
					continue;
				}
				$result = $this->lookup( $address, $start, $budget );
				if ( is_int( $result ) ) {
					return $result; // Out of time before the next free slot.
				}
				if ( is_array( $result ) ) {
					$failures = 0;
					if ( null === $result['lat'] || null === $result['lng'] ) {
						$this->queue->fail( $id, Geocode_Queue::REASON_NOT_FOUND );
						++$stats['failed'];
						continue;
					}
					$this->unsettled = true;
					$this->queue->found( $id, $result['lat'], $result['lng'] );
					$this->version->bump(); // Held by batch(): one change for the whole run.
					++$stats['found'];
					continue;
				}
				if ( 'cairn_geocode_invalid' === $result->get_error_code() ) {
					$this->queue->fail( $id, Geocode_Queue::REASON_INVALID );
					++$stats['failed'];
					continue;
				}
				// The provider failed (429, 5xx, timeout, garbage): later, or reported at last.
				$tries = $this->queue->retry_later( $id, time() + self::retry_delay() * ( 1 + (int) get_post_meta( $id, Geocode_Queue::META_TRIES, true ) ) );
				if ( $tries >= self::MAX_TRIES ) {
					$this->queue->fail( $id, Geocode_Queue::REASON_UNAVAILABLE );
					++$stats['failed'];
				} else {
					++$stats['retried'];
				}
				if ( ++$failures >= self::FAILURES_IN_A_ROW ) {
					return time() + self::retry_delay();
				}
				if ( microtime( true ) - $start >= $budget ) {
					break;
				}
			}
		}
		return time();
	}

	/**
	 * Geocodes one address when a slot comes within the run's time.
	 *
	 * @param string $address Address.
	 * @param float  $start   When the run started (microtime).
	 * @param float  $budget  Seconds.
	 * @return array{lat: float|null, lng: float|null}|WP_Error|int The place (null coordinates:
	 *         not found), the provider's error, or the Unix time of the next slot when it comes
	 *         after the run's end.
	 */
	private function lookup( string $address, float $start, float $budget ) {
		// A few turns: an editor's search may take the slot this run waited for.
		for ( $turn = 0; $turn < 5; $turn++ ) {
			$wait = $this->geocoder()->limiter()->next_slot();
			if ( microtime( true ) - $start + $wait >= $budget ) {
				return time() + (int) ceil( $wait );
			}
			if ( $wait > 0 ) {
				usleep( (int) ceil( $wait * 1e6 ) );
			}
			// No wait inside: the slot was free a moment ago; if an editor took it, next turn.
			$results = $this->geocoder()->search( $address, 1, 0.0 );
			if ( ! is_wp_error( $results ) ) {
				return $this->first_place( $results );
			}
			if ( 'cairn_geocode_rate_limited' !== $results->get_error_code() ) {
				return $results;
			}
		}
		return time() + 1;
	}

	/**
	 * The first result's coordinates, checked as a marker's are; none when there is no result.
	 *
	 * @param mixed $results Results.
	 * @return array{lat: float|null, lng: float|null}|WP_Error
	 */
	private function first_place( $results ) {
		if ( ! is_array( $results ) || array() === $results ) {
			return array(
				'lat' => null,
				'lng' => null,
			);
		}
		$first = reset( $results );
		$lat   = Marker_Validation::coordinate( Post_Type::META_LAT, is_array( $first ) ? ( $first['lat'] ?? null ) : null );
		$lng   = Marker_Validation::coordinate( Post_Type::META_LNG, is_array( $first ) ? ( $first['lng'] ?? null ) : null );
		if ( is_wp_error( $lat ) || is_wp_error( $lng ) ) {
			return new WP_Error( 'cairn_geocode_unavailable' );
		}
		return array(
			'lat' => $lat,
			'lng' => $lng,
		);
	}

	/**
	 * The site's geocoder.
	 */
	private function geocoder(): Geocoder {
		if ( null === $this->geocoder ) {
			$this->geocoder = new Geocoder();
		}
		return $this->geocoder;
	}

	/**
	 * After a run that died half-way (a fatal error, a time limit), the markers it published still
	 * reach the feed: the version changes on shutdown.
	 */
	public function settle(): void {
		if ( $this->unsettled ) {
			$this->unsettled = false;
			$this->version->bump();
		}
	}

	/**
	 * Takes the run lock until `$until`.
	 *
	 * @param int $until Unix time.
	 * @return string|null The value that holds the lock, or null when another run holds it.
	 */
	private function lock( int $until ): ?string {
		global $wpdb;
		$mine = sprintf( '%010d.%s', $until, wp_generate_password( 8, false ) );
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- the lock must never come from a cache.
		$seen = $wpdb->get_var( $wpdb->prepare( "SELECT option_value FROM {$wpdb->options} WHERE option_name = %s", self::LOCK_OPTION ) );
		if ( null === $seen ) {
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- see above.
			$done = $wpdb->query( $wpdb->prepare( "INSERT IGNORE INTO {$wpdb->options} (option_name, option_value, autoload) VALUES (%s, %s, 'off')", self::LOCK_OPTION, $mine ) );
			return 1 === $done ? $mine : null;
		}
		if ( (int) $seen > time() ) {
			return null;
		}
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- compare-and-set: of two runs, one wins.
		$done = $wpdb->query( $wpdb->prepare( "UPDATE {$wpdb->options} SET option_value = %s WHERE option_name = %s AND option_value = %s", $mine, self::LOCK_OPTION, (string) $seen ) );
		return 1 === $done ? $mine : null;
	}

	/**
	 * Releases the lock if this run still holds it.
	 *
	 * @param string $mine The value that holds it.
	 */
	private function unlock( string $mine ): void {
		global $wpdb;
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- see lock().
		$wpdb->query( $wpdb->prepare( "UPDATE {$wpdb->options} SET option_value = %s WHERE option_name = %s AND option_value = %s", '0', self::LOCK_OPTION, $mine ) );
	}
}
