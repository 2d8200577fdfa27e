<?php
/**
 * A pending rebuild's progress, and the last finished one.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

/**
 * The progress of a pending rebuild lives in one option row (absent: none pending, the index is
 * complete), read from the database itself and written with compare-and-set, so that:
 *
 * - a request that looked before the rebuild started never takes it for done: get_option() keeps
 *   "no such option" in `notoptions`, which a persistent object cache shares with every request;
 * - a rebuild started while a run is between two steps (start_rebuild() takes no lock: it is
 *   called from WordPress' hooks) is never overwritten by that run's next progress: the run's
 *   write finds another value, and the run stops; the next run starts over.
 *
 * Progress: `phase` (`start`, `places`, `cells`), `after` (the last post id read), `level` (the
 * cell levels recounted), `done` (places written), `total` (published markers when it started),
 * `started`, `at` (Unix times: started, last step), `by` (who ran the last step: `cron`, `admin`,
 * `cli`, `request`) and `refused` (how many times in a row the database refused that step).
 *
 * @since 0.8.0
 */
final class Rebuild_State {

	/**
	 * The pending rebuild's option row.
	 */
	public const OPTION = 'cairn_maps_index_rebuild';

	/**
	 * The last finished rebuild: `by`, `started`, `at`, `places`.
	 */
	public const BUILT_OPTION = 'cairn_maps_index_built';

	/**
	 * The stored progress as stored (serialized), or null when no rebuild is pending.
	 */
	public function raw(): ?string {
		global $wpdb;
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- must bypass the object cache (see the class comment).
		$raw = $wpdb->get_var( $wpdb->prepare( "SELECT option_value FROM {$wpdb->options} WHERE option_name = %s LIMIT 1", self::OPTION ) );
		return is_string( $raw ) ? $raw : null;
	}

	/**
	 * The pending rebuild's progress, or null when none is pending.
	 *
	 * @return array<string, mixed>|null
	 */
	public function get(): ?array {
		return self::decode( $this->raw() );
	}

	/**
	 * Progress from its stored form (anything that is not an array counts as a fresh start).
	 *
	 * @param string|null $raw As stored.
	 * @return array<string, mixed>|null
	 */
	public static function decode( ?string $raw ): ?array {
		if ( null === $raw ) {
			return null;
		}
		$state = maybe_unserialize( $raw );
		return is_array( $state ) ? $state : array( 'phase' => 'start' );
	}

	/**
	 * Marks a rebuild pending from its first step (whatever was pending before).
	 */
	public function start(): void {
		global $wpdb;
		$value = maybe_serialize(
			array(
				'phase'   => 'start',
				'started' => time(),
			)
		);
		// As add_option() writes: one statement whether the row exists or not.
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- see the class comment.
		$wpdb->query( $wpdb->prepare( "INSERT INTO {$wpdb->options} (option_name, option_value, autoload) VALUES (%s, %s, 'off') ON DUPLICATE KEY UPDATE option_value = VALUES(option_value)", self::OPTION, $value ) );
		$this->forget_cached();
	}

	/**
	 * Replaces the progress if it is still what the caller read.
	 *
	 * @param string|null               $expected What raw() gave (null: nothing was pending).
	 * @param array<string, mixed>|null $next     The new progress; null: the rebuild is done.
	 * @return bool Whether it was replaced (false: someone started a rebuild meanwhile).
	 */
	public function replace( ?string $expected, ?array $next ): bool {
		global $wpdb;
		$value = null === $next ? null : maybe_serialize( $next );
		// phpcs:disable WordPress.DB.DirectDatabaseQuery -- compare-and-set, see the class comment.
		if ( null === $expected ) {
			$done = null === $value || 1 === $wpdb->query( $wpdb->prepare( "INSERT IGNORE INTO {$wpdb->options} (option_name, option_value, autoload) VALUES (%s, %s, 'off')", self::OPTION, $value ) );
		} elseif ( null === $value ) {
			$done = 1 === $wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->options} WHERE option_name = %s AND option_value = %s", self::OPTION, $expected ) );
		} else {
			$done = 1 === $wpdb->query( $wpdb->prepare( "UPDATE {$wpdb->options} SET option_value = %s WHERE option_name = %s AND option_value = %s", $value, self::OPTION, $expected ) )
				|| $this->raw() === $value; // MySQL counts an UPDATE to the same value as no row changed.
		}
		// phpcs:enable
		$this->forget_cached();
		return $done;
	}

	/**
	 * The last finished rebuild (empty when none finished since 0.8.0).
	 *
	 * @return array{by?: string, started?: int, at?: int, places?: int}
	 */
	public function built(): array {
		$built = get_option( self::BUILT_OPTION, array() );
		if ( ! is_array( $built ) ) {
			return array();
		}
		$out = array();
		if ( isset( $built['by'] ) && is_string( $built['by'] ) ) {
			$out['by'] = $built['by'];
		}
		foreach ( array( 'started', 'at', 'places' ) as $key ) {
			if ( isset( $built[ $key ] ) && is_numeric( $built[ $key ] ) ) {
				$out[ $key ] = (int) $built[ $key ];
			}
		}
		return $out;
	}

	/**
	 * Notes a finished rebuild.
	 *
	 * @param string $by      Who ran its last step.
	 * @param int    $started When it started (Unix time).
	 * @param int    $places  Places it wrote.
	 */
	public function record_built( string $by, int $started, int $places ): void {
		update_option(
			self::BUILT_OPTION,
			array(
				'by'      => $by,
				'started' => $started,
				'at'      => time(),
				'places'  => $places,
			),
			false
		);
	}

	/**
	 * Drops what the object cache may hold of the row, so get_option() (older callers, tests)
	 * reads it again.
	 */
	private function forget_cached(): void {
		wp_cache_delete( self::OPTION, 'options' );
		$missing = wp_cache_get( 'notoptions', 'options' );
		if ( is_array( $missing ) && isset( $missing[ self::OPTION ] ) ) {
			unset( $missing[ self::OPTION ] );
			wp_cache_set( 'notoptions', $missing, 'options' );
		}
	}
}
