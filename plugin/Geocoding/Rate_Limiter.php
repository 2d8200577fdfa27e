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
	 * Seconds between two requests.
	 *
	 * @var float
	 */
	private float $interval;

	/**
	 * Creates the limiter.
	 *
	 * @param float $interval Seconds between two requests (never less than one).
	 */
	public function __construct( float $interval = self::INTERVAL ) {
		$this->interval = max( self::INTERVAL, $interval );
	}

	/**
	 * Seconds until a request may go (0 when one may go now). Takes nothing: a background job
	 * uses it to schedule itself, then calls take().
	 */
	public function next_slot(): float {
		$stored = $this->read();
		return null === $stored ? 0.0 : max( 0.0, $this->usable( (float) $stored ) - microtime( true ) );
	}

	/**
	 * Takes the next slot, waiting for it when it comes within `$max_wait` seconds.
	 *
	 * @param float $max_wait Longest wait, in seconds (0: take it only if it is free now).
	 * @return true|WP_Error True when the caller may send one request now; else the error
	 *                       `cairn_geocode_rate_limited` (status 429, data `retry_after` seconds).
	 */
	public function take( float $max_wait = 0.0 ) {
		$deadline = microtime( true ) + max( 0.0, $max_wait );
		// Each failed compare-and-set means another process took a slot: a bounded number of turns.
		for ( $turn = 0; $turn < 20; $turn++ ) {
			$stored = $this->read();
			$now    = microtime( true );
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
			usleep( (int) ceil( ( $next - $now ) * 1e6 ) );
		}
		return self::limited( max( $this->interval, $this->next_slot() ) );
	}

	/**
	 * Keeps every process from asking for `$seconds` (the provider answered 429 with Retry-After).
	 *
	 * @param float $seconds Pause, in seconds (capped at MAX_DEFER).
	 */
	public function defer( float $seconds ): void {
		$until = microtime( true ) + min( self::MAX_DEFER, max( $this->interval, $seconds ) );
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
		return $next > microtime( true ) + self::MAX_DEFER + $this->interval ? 0.0 : $next;
	}

	/**
	 * The stored value as a string (compared as is by claim()), or null when there is no row yet.
	 */
	private function read(): ?string {
		global $wpdb;
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- the shared slot must never come from a cache.
		$value = $wpdb->get_var( $wpdb->prepare( "SELECT option_value FROM {$wpdb->options} WHERE option_name = %s", self::OPTION ) );
		return null === $value ? null : (string) $value;
	}

	/**
	 * Compare-and-set: stores `$next` only if the row still holds `$seen` (or, for null, does not
	 * exist yet).
	 *
	 * @param string|null $seen The value read.
	 * @param float       $next The new value.
	 * @return bool Whether this process set it.
	 */
	private function claim( ?string $seen, float $next ): bool {
		global $wpdb;
		$value = sprintf( '%.6F', $next );
		if ( null === $seen ) {
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- see the class comment.
			$done = $wpdb->query( $wpdb->prepare( "INSERT IGNORE INTO {$wpdb->options} (option_name, option_value, autoload) VALUES (%s, %s, 'off')", self::OPTION, $value ) );
		} else {
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- see the class comment.
			$done = $wpdb->query( $wpdb->prepare( "UPDATE {$wpdb->options} SET option_value = %s WHERE option_name = %s AND option_value = %s", $value, self::OPTION, $seen ) );
		}
		return 1 === $done;
	}
}
