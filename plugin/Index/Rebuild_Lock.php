<?php
/**
 * One run of the place index's rebuild at a time.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

/**
 * A row in the options table holding the lock's expiry and a random token ('0': free), taken with
 * a compare-and-set UPDATE from the value just read (of two requests, one changes the row), as
 * the geocoding job's lock is: MariaDB and SQLite alike, and no deadlock — an INSERT and DELETE of
 * the row for every run would meet InnoDB's gap locks when two requests race. Whoever holds it may
 * run rebuild steps: WP-Cron, an admin page load, WP-CLI. A run renews it after each step, so a
 * long run (WP-CLI at a million markers) keeps it; a run that died (a fatal error, a time limit)
 * loses it once it expires, and the next run takes it over. Never cached: every read goes to the
 * database.
 *
 * @since 0.8.0
 */
final class Rebuild_Lock {

	/**
	 * The lock's option row (removed on uninstall with the other options).
	 */
	public const OPTION = 'cairn_maps_index_lock';

	/**
	 * Takes the lock for some seconds, if nobody holds it (an expired lock is taken over).
	 *
	 * @param int $seconds How long it holds without a renewal.
	 * @return string|null What holds it (for renew() and release()); null when another run does.
	 */
	public function take( int $seconds ): ?string {
		global $wpdb;
		$mine = $this->value( $seconds );
		$held = $this->held();
		if ( null === $held ) {
			// The first run on this site: the row is created (option_name is unique: one wins).
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- a lock must bypass every cache.
			if ( 1 === $wpdb->query( $wpdb->prepare( "INSERT IGNORE INTO {$wpdb->options} (option_name, option_value, autoload) VALUES (%s, %s, 'off')", self::OPTION, $mine ) ) ) {
				return $mine;
			}
			$held = $this->held();
		}
		if ( null === $held || self::expiry( $held ) >= time() ) {
			return null;
		}
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- compare-and-set: of two runs, one changes the row.
		$done = $wpdb->query( $wpdb->prepare( "UPDATE {$wpdb->options} SET option_value = %s WHERE option_name = %s AND option_value = %s", $mine, self::OPTION, $held ) );
		return 1 === $done ? $mine : null;
	}

	/**
	 * Waits up to some seconds for the lock (WP-CLI, which should not give up because a page
	 * load is running a step).
	 *
	 * @param int $seconds How long it holds without a renewal.
	 * @param int $wait    Seconds to wait at most.
	 * @return string|null What holds it; null when another run kept it all along.
	 */
	public function wait( int $seconds, int $wait ): ?string {
		$until = time() + $wait;
		do {
			$mine = $this->take( $seconds );
			if ( null !== $mine || time() >= $until ) {
				return $mine;
			}
			sleep( 1 );
		} while ( true );
	}

	/**
	 * Extends a lock this run holds.
	 *
	 * @param string $mine    What holds it.
	 * @param int    $seconds How long it holds from now.
	 * @return string|null What holds it now; null when it was lost (expired and taken over).
	 */
	public function renew( string $mine, int $seconds ): ?string {
		global $wpdb;
		$next = $this->value( $seconds );
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- compare-and-set: only the holder renews.
		$done = $wpdb->query( $wpdb->prepare( "UPDATE {$wpdb->options} SET option_value = %s WHERE option_name = %s AND option_value = %s", $next, self::OPTION, $mine ) );
		return 1 === $done ? $next : null;
	}

	/**
	 * Releases a lock this run holds (only that one: a lock taken over stays).
	 *
	 * @param string $mine What holds it.
	 */
	public function release( string $mine ): void {
		global $wpdb;
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- see take().
		$wpdb->query( $wpdb->prepare( "UPDATE {$wpdb->options} SET option_value = '0' WHERE option_name = %s AND option_value = %s", self::OPTION, $mine ) );
	}

	/**
	 * Whether a run holds the lock now (Site Health: a step is running).
	 */
	public function is_held(): bool {
		$held = $this->held();
		return null !== $held && self::expiry( $held ) >= time();
	}

	/**
	 * The stored lock, from the database itself.
	 */
	private function held(): ?string {
		global $wpdb;
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- see take().
		$held = $wpdb->get_var( $wpdb->prepare( "SELECT option_value FROM {$wpdb->options} WHERE option_name = %s", self::OPTION ) );
		return is_string( $held ) ? $held : null;
	}

	/**
	 * A new lock value: expiry and a random token, so that every value is another.
	 *
	 * @param int $seconds How long it holds.
	 */
	private function value( int $seconds ): string {
		return ( time() + max( 1, $seconds ) ) . ':' . bin2hex( random_bytes( 8 ) );
	}

	/**
	 * The expiry of a lock value (Unix time; 0 for a free lock).
	 *
	 * @param string $value A lock value.
	 */
	private static function expiry( string $value ): int {
		return (int) strtok( $value, ':' );
	}
}
