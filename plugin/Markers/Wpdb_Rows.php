<?php
/**
 * Rows of marker reads, the fast way where it is safe.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

defined( 'ABSPATH' ) || exit;

/**
 * Runs prepared SELECTs and returns their rows as lists of values. On MySQL/MariaDB through core's
 * own `wpdb` it reads from wpdb's mysqli connection directly (unbuffered, or asynchronously with
 * send() and reap()); anywhere else (SQLite, database drop-ins, SAVEQUERIES) through `wpdb`. Either
 * way the `query` filter sees the SQL and the query is counted.
 *
 * @since 0.2.0
 */
class Wpdb_Rows {

	/**
	 * Rows of a prepared SELECT as lists of values.
	 *
	 * On MySQL/MariaDB through core's own `wpdb`, the rows are read straight from its mysqli
	 * connection, unbuffered (`MYSQLI_USE_RESULT`): about twice as fast as `wpdb::get_results()`,
	 * which copies each row into an object first. The `query` filter still sees the SQL, as with
	 * any `wpdb` query. Anywhere else (SQLite, database drop-ins, SAVEQUERIES, an error) it is a
	 * plain `get_results()`.
	 *
	 * @param string $sql Prepared SQL.
	 * @return array<int, array<int, string|null>>
	 */
	public function rows( string $sql ): array {
		global $wpdb;
		$dbh = self::native_connection();
		if ( null !== $dbh ) {
			$sql    = (string) apply_filters( 'query', $sql ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- core's filter, applied as wpdb::query() does.
			$result = mysqli_query( $dbh, $sql, MYSQLI_USE_RESULT ); // phpcs:ignore WordPress.DB.RestrictedFunctions -- wpdb's own connection, unbuffered (see above).
			if ( $result instanceof \mysqli_result ) {
				$rows = $result->fetch_all( MYSQLI_NUM );
				$result->free();
				++$wpdb->num_queries;
				return $rows;
			}
		}
		$rows = $wpdb->get_results( $sql, ARRAY_N ); // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.DirectDatabaseQuery -- prepared by the caller.
		return is_array( $rows ) ? $rows : array();
	}

	/**
	 * Sends a prepared SELECT without waiting for its rows (native connection only), so that the
	 * database works while PHP does. Until reap() the connection is busy: no other query may run.
	 *
	 * @param string $sql Prepared SQL.
	 * @return bool Whether it was sent (else the caller reads synchronously).
	 */
	public function send( string $sql ): bool {
		$dbh = self::native_connection();
		if ( null === $dbh ) {
			return false;
		}
		$sql = (string) apply_filters( 'query', $sql ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- core's filter, applied as wpdb::query() does.
		return false !== mysqli_query( $dbh, $sql, MYSQLI_ASYNC ); // phpcs:ignore WordPress.DB.RestrictedFunctions -- wpdb's own connection, asynchronously (see Marker_Repository::each()).
	}

	/**
	 * The rows of the query sent with send(), or null when it failed.
	 *
	 * @return array<int, array<int, string|null>>|null
	 */
	public function reap(): ?array {
		global $wpdb;
		$dbh    = self::native_connection();
		$result = null === $dbh ? false : mysqli_reap_async_query( $dbh ); // phpcs:ignore WordPress.DB.RestrictedFunctions -- the query sent by send().
		if ( ! $result instanceof \mysqli_result ) {
			return null;
		}
		$rows = $result->fetch_all( MYSQLI_NUM );
		$result->free();
		++$wpdb->num_queries;
		return $rows;
	}

	/**
	 * Core wpdb's mysqli connection, when reading from it directly is safe.
	 */
	public static function native_connection(): ?\mysqli {
		global $wpdb;
		if ( ! is_object( $wpdb ) || 'wpdb' !== get_class( $wpdb ) || self::is_sqlite() || ( defined( 'SAVEQUERIES' ) && SAVEQUERIES ) ) {
			return null;
		}
		$dbh = $wpdb->__get( 'dbh' ); // Protected: read through wpdb's own magic getter.
		return $dbh instanceof \mysqli ? $dbh : null;
	}

	/**
	 * Whether the database is SQLite (WordPress Playground and the SQLite Database Integration).
	 */
	public static function is_sqlite(): bool {
		global $wpdb;
		return ( defined( 'DB_ENGINE' ) && 'sqlite' === DB_ENGINE ) || ( is_object( $wpdb ) && false !== stripos( get_class( $wpdb ), 'sqlite' ) );
	}
}
