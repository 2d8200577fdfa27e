<?php
/**
 * One request a second to the geocoding provider, for the whole site.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Geocoding;

defined( 'ABSPATH' ) || exit;

use WP_Error;

/**
 * A site-wide slot for requests to the provider, shared by every PHP process of the site.
 *
 * The time the next request may go is one option row. A request takes the slot with a
 * compare-and-set UPDATE (`… WHERE option_value = <the value it read>`): of two processes that
 * read the same value only one UPDATE matches a row, so two requests never start less than the
 * interval apart. Plain SQL on purpose: it works the same on MySQL/MariaDB and on SQLite
 * (Playground), and no lock can be left behind by a process that died. The row bypasses the
 * options API and its caches (a cached value would let two processes in); it is never autoloaded.
 *
 * A share of the slots is kept for background work (the CSV import's geocoding job, issue 30):
 * people searching (take( …, true )) get at most editor_slots() of every WINDOW_SLOTS slots, counted
 * in a second row (SHARE_OPTION, "window start|slots taken", the same compare-and-set), so a stream
 * of searches can delay the job but never starve it. Background callers are not counted.
 *
 * @since 0.3.0
 */
class Rate_Limiter {

	/**
	 * The option row holding the time (Unix seconds, 6 decimals) of the next free slot.
	 */
	public const OPTION = 'cairn_maps_geocoder_next_slot';

	/**
	 * Seconds between two requests: Nominatim's public instance allows one a second.
	 */
	public const INTERVAL = 1.0;

	/**
	 * Seconds added to each interval, so that a request delayed on its way (a busy machine, the
	 * network) still reaches the provider a full interval after the one before.
	 */
	public const MARGIN = 0.1;

	/**
	 * Longest pause a provider can impose (its Retry-After); a stored slot further away than this
	 * (a clock that went back, a hand edit) is ignored rather than blocking search for long.
	 */
	public const MAX_DEFER = 300.0;

	/**
	 * The option row counting the slots people took in the current window ("start|count").
	 *
	 * @since 0.7.0
	 */
	public const SHARE_OPTION = 'cairn_maps_geocoder_editor_slots';

	/**
	 * Slots in a window of the share: the window lasts WINDOW_SLOTS × (interval + margin).
	 *
	 * @since 0.7.0
	 */
	public const WINDOW_SLOTS = 8;

	/**
	 * The share of slots kept for background work, by default (filter `cairn_maps_geocode_job_share`).
	 *
	 * @since 0.7.0
	 */
	public const JOB_SHARE = 0.25;

	/**
	 * Seconds between two requests.
	 *
	 * @var float
	 */
	private float $interval;

	/**
	 * The current time in seconds.
	 *
	 * @var callable():float
	 */
	private $clock;

	/**
	 * Waits some seconds.
	 *
	 * @var callable(float):void
	 */
	private $sleep;

	/**
	 * Creates the limiter.
	 *
	 * @param float                     $interval Seconds between two requests (never less than one).
	 * @param callable():float|null     $clock    The current time in seconds (default: microtime;
	 *                                            tests pass a clock of their own), since 0.7.0.
	 * @param callable(float):void|null $sleep    Waits some seconds (default: usleep), since 0.7.0.
	 */
	public function __construct( float $interval = self::INTERVAL, ?callable $clock = null, ?callable $sleep = null ) {
		$this->interval = max( self::INTERVAL, $interval );
		$this->clock    = $clock ?? static fn(): float => microtime( true );
		$this->sleep    = $sleep ?? static function ( float $seconds ): void {
			usleep( (int) ceil( $seconds * 1e6 ) );
		};
	}

	/**
	 * The current time in seconds.
	 */
	private function now(): float {
		return ( $this->clock )();
	}

	/**
	 * Seconds until a request may go (0 when one may go now). Takes nothing: a background job
	 * uses it to schedule itself, then calls take().
	 */
	public function next_slot(): float {
		$stored = $this->read();
		return null === $stored ? 0.0 : max( 0.0, $this->usable( (float) $stored ) - $this->now() );
	}

	/**
	 * Slots of each window people searching may take (the rest is kept for background work).
	 *
	 * @since 0.7.0
	 */
	public static function editor_slots(): int {
		/**
		 * Filters the share of the geocoding provider's slots kept for background work (the CSV
		 * import's geocoding job): 0 keeps none, at most 0.875 (7 of every 8 slots).
		 *
		 * @since 0.7.0
		 *
		 * @param float $share Share of the slots, 0 to 0.875.
		 */
		$share = (float) apply_filters( 'cairn_maps_geocode_job_share', self::JOB_SHARE );
		$share = max( 0.0, min( 1.0 - 1.0 / self::WINDOW_SLOTS, $share ) );
		return max( 1, (int) floor( self::WINDOW_SLOTS * ( 1.0 - $share ) + 1e-9 ) );
	}

	/**
	 * Takes the next slot, waiting for it when it comes within `$max_wait` seconds.
	 *
	 * @param float $max_wait Longest wait, in seconds (0: take it only if it is free now).
	 * @param bool  $person   Whether a person asks (an editor's search, counted against their
	 *                        share of the slots) rather than background work (since 0.7.0).
	 * @return true|WP_Error True when the caller may send one request now; else the error
	 *                       `cairn_geocode_rate_limited` (status 429, data `retry_after` seconds).
	 */
	public function take( float $max_wait = 0.0, bool $person = false ) {
		if ( $person ) {
			$share = $this->take_share();
			if ( true !== $share ) {
				return $share;
			}
		}
		$deadline = $this->now() + max( 0.0, $max_wait );
		// Each failed compare-and-set means another process took a slot: a bounded number of turns.
		for ( $turn = 0; $turn < 20; $turn++ ) {
			$stored = $this->read();
			$now    = $this->now();
			$next   = null === $stored ? 0.0 : $this->usable( (float) $stored );
			if ( $next <= $now ) {
				if ( $this->claim( $stored, $now + $this->interval + self::MARGIN ) ) {
					return true;
				}
				continue;
			}
			if ( $next > $deadline ) {
				return self::limited( $next - $now );
			}
			( $this->sleep )( $next - $now );
		}
		return self::limited( max( $this->interval, $this->next_slot() ) );
	}

	/**
	 * Counts a person's slot in the current window of the share, or refuses it when the people's
	 * part of the window is used (a slot counted here and then not taken is lost to people, not
	 * to the job: the count errs on the job's side).
	 *
	 * @return true|WP_Error
	 */
	private function take_share() {
		$window = self::WINDOW_SLOTS * ( $this->interval + self::MARGIN );
		$slots  = self::editor_slots();
		for ( $turn = 0; $turn < 20; $turn++ ) {
			$stored = $this->read( self::SHARE_OPTION );
			$now    = $this->now();
			$parts  = null === $stored ? array() : explode( '|', $stored );
			$start  = 2 === count( $parts ) ? (float) $parts[0] : 0.0;
			$count  = 2 === count( $parts ) ? (int) $parts[1] : 0;
			if ( $start + $window <= $now || $start > $now ) {
				$start = $now;
				$count = 0;
			}
			if ( $count >= $slots ) {
				return self::limited( $start + $window - $now );
			}
			if ( $this->claim( $stored, sprintf( '%.6F|%d', $start, $count + 1 ), self::SHARE_OPTION ) ) {
				return true;
			}
		}
		return self::limited( $this->interval );
	}

	/**
	 * Keeps every process from asking for `$seconds` (the provider answered 429 with Retry-After).
	 *
	 * @param float $seconds Pause, in seconds (capped at MAX_DEFER).
	 */
	public function defer( float $seconds ): void {
		$until = $this->now() + min( self::MAX_DEFER, max( $this->interval, $seconds ) );
		for ( $turn = 0; $turn < 20; $turn++ ) {
			$stored = $this->read();
			if ( null !== $stored && $this->usable( (float) $stored ) >= $until ) {
				return;
			}
			if ( $this->claim( $stored, $until ) ) {
				return;
			}
		}
	}

	/**
	 * The error for a caller that must wait.
	 *
	 * @param float $wait Seconds until the next slot.
	 */
	public static function limited( float $wait ): WP_Error {
		$retry_after = max( 1, (int) ceil( $wait ) );
		return new WP_Error(
			'cairn_geocode_rate_limited',
			sprintf(
				/* translators: %d: number of seconds. */
				_n(
					'Too many address searches at once on this site. Try again in %d second.',
					'Too many address searches at once on this site. Try again in %d seconds.',
					$retry_after,
					'cairn-maps'
				),
				$retry_after
			),
			array(
				'status'      => 429,
				'retry_after' => $retry_after,
			)
		);
	}

	/**
	 * A stored slot time, or 0 (free) when it is implausibly far away.
	 *
	 * @param float $next Stored time.
	 */
	private function usable( float $next ): float {
		return $next > $this->now() + self::MAX_DEFER + $this->interval ? 0.0 : $next;
	}

	/**
	 * The stored value as a string (compared as is by claim()), or null when there is no row yet.
	 *
	 * @param string $option The row: OPTION (the next slot) or SHARE_OPTION.
	 */
	private function read( string $option = self::OPTION ): ?string {
		global $wpdb;
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- the shared slot must never come from a cache.
		$value = $wpdb->get_var( $wpdb->prepare( "SELECT option_value FROM {$wpdb->options} WHERE option_name = %s", $option ) );
		return null === $value ? null : (string) $value;
	}

	/**
	 * Compare-and-set: stores `$next` only if the row still holds `$seen` (or, for null, does not
	 * exist yet).
	 *
	 * @param string|null  $seen   The value read.
	 * @param float|string $next   The new value (a time, or the share's text).
	 * @param string       $option The row (since 0.7.0).
	 * @return bool Whether this process set it.
	 */
	private function claim( ?string $seen, $next, string $option = self::OPTION ): bool {
		global $wpdb;
		$value = is_float( $next ) ? sprintf( '%.6F', $next ) : (string) $next;
		if ( null === $seen ) {
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- see the class comment.
			$done = $wpdb->query( $wpdb->prepare( "INSERT IGNORE INTO {$wpdb->options} (option_name, option_value, autoload) VALUES (%s, %s, 'off')", $option, $value ) );
		} else {
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- see the class comment.
			$done = $wpdb->query( $wpdb->prepare( "UPDATE {$wpdb->options} SET option_value = %s WHERE option_name = %s AND option_value = %s", $value, $option, $seen ) );
		}
		return 1 === $done;
	}
}
