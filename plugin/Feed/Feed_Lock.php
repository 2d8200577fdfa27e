<?php
/**
 * Short locks for rebuilding and bookkeeping the feed cache.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Feed;

defined( 'ABSPATH' ) || exit;

/**
 * One short lock per name (a filter-set key, or the index of filtered copies): a row in the
 * options table, taken with an atomic `INSERT IGNORE`, holding its expiry and a random value, so
 * that one request rebuilds while the others serve the previous build or wait. A lock whose owner
 * never released it (a fatal error, a timeout) is taken over once it expires.
 *
 * @since 0.1.0
 */
class Feed_Lock {

	/**
	 * Option name prefix of the locks (removed on uninstall with the other options).
	 */
	public const PREFIX = 'cairn_maps_feed_lock_';

	/**
	 * How long a lock holds if its owner never releases it.
	 */
	public const TTL = 30;

	/**
	 * Takes the lock of a name, if nobody holds it. An expired lock is taken over.
	 *
	 * @param string $key Filter-set key (hex), or another lock name.
	 * @return string|null The lock's value, to release it with; null when someone else holds it.
	 */
	public function lock( string $key ): ?string {
		global $wpdb;
		$name = self::PREFIX . $key;
		for ( $attempt = 0; $attempt < 3; $attempt++ ) {
			$value = ( time() + self::TTL ) . ':' . bin2hex( random_bytes( 8 ) );
			// Atomic on MySQL/MariaDB and SQLite alike (option_name is unique); not autoloaded.
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- a lock must bypass every cache.
			$inserted = $wpdb->query( $wpdb->prepare( "INSERT IGNORE INTO {$wpdb->options} (option_name, option_value, autoload) VALUES (%s, %s, 'off')", $name, $value ) );
			if ( 1 === $inserted ) {
				return $value;
			}
			$held = $this->value( $key );
			if ( null !== $held && (int) strtok( $held, ':' ) >= time() ) {
				return null;
			}
			if ( null !== $held ) {
				// Expired: remove exactly that lock (of two requests doing this, one succeeds).
				// phpcs:ignore WordPress.DB.DirectDatabaseQuery
				$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->options} WHERE option_name = %s AND option_value = %s", $name, $held ) );
			}
		}
		return null;
	}

	/**
	 * Releases a lock taken with lock() (only that one: an expired lock taken over by another
	 * request stays).
	 *
	 * @param string $key  Filter-set key (hex), or another lock name.
	 * @param string $lock What lock() returned.
	 */
	public function unlock( string $key, string $lock ): void {
		global $wpdb;
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery
		$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->options} WHERE option_name = %s AND option_value = %s", self::PREFIX . $key, $lock ) );
	}

	/**
	 * Whether someone holds the (unexpired) lock of a name.
	 *
	 * @param string $key Filter-set key (hex), or another lock name.
	 */
	public function is_locked( string $key ): bool {
		$held = $this->value( $key );
		return null !== $held && (int) strtok( $held, ':' ) >= time();
	}

	/**
	 * The stored lock, read from the database itself.
	 *
	 * @param string $key Filter-set key (hex), or another lock name.
	 */
	private function value( string $key ): ?string {
		global $wpdb;
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery
		$value = $wpdb->get_var( $wpdb->prepare( "SELECT option_value FROM {$wpdb->options} WHERE option_name = %s", self::PREFIX . $key ) );
		return is_string( $value ) ? $value : null;
	}
}
