<?php
/**
 * How many uncached address lookups one person may cause.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Geocoding;

defined( 'ABSPATH' ) || exit;

use WP_Error;

/**
 * A per-user quota of lookups that reach the provider (answers from the cache are free): at most
 * PER_MINUTE in a minute and PER_DAY in a day, both filterable (`cairn_maps_geocode_user_quota`).
 * Past either, a 429 `cairn_geocode_quota_exceeded` with `retry_after` (the seconds until that
 * window ends). Without it one contributor's stream of distinct queries is a stream of real
 * provider requests: billed on Mapbox, against Nominatim's policy, and every other editor and
 * the import job waiting behind it (issue 30).
 *
 * Each window starts with the first lookup in it; the counts are one user meta row. Two
 * requests of the same user at the same moment may both pass the last free place: the quota is
 * a bound on a person's pace, not an exact count (the site-wide Rate_Limiter is exact).
 *
 * @since 0.7.0
 */
final class User_Quota {

	/**
	 * The user meta holding the windows: [minute start, count, day start, count].
	 */
	public const META = 'cairn_maps_geocode_quota';

	/**
	 * Uncached lookups a user may cause in a minute, by default.
	 */
	public const PER_MINUTE = 10;

	/**
	 * Uncached lookups a user may cause in a day, by default.
	 */
	public const PER_DAY = 200;

	/**
	 * The current time in seconds.
	 *
	 * @var callable():float
	 */
	private $clock;

	/**
	 * Creates the quota.
	 *
	 * @param callable():float|null $clock The current time in seconds (default: microtime).
	 */
	public function __construct( ?callable $clock = null ) {
		$this->clock = $clock ?? static fn(): float => microtime( true );
	}

	/**
	 * A user's limits.
	 *
	 * @param int $user_id The user.
	 * @return array{minute: int, day: int}
	 */
	public static function limits( int $user_id ): array {
		/**
		 * Filters how many address lookups that reach the provider (not answered from the
		 * cache) one user may cause, per minute and per day.
		 *
		 * @since 0.7.0
		 *
		 * @param array{minute: int, day: int} $limits  Lookups per minute and per day.
		 * @param int                          $user_id The user.
		 */
		$limits = apply_filters(
			'cairn_maps_geocode_user_quota',
			array(
				'minute' => self::PER_MINUTE,
				'day'    => self::PER_DAY,
			),
			$user_id
		);
		$limits = is_array( $limits ) ? $limits : array();
		return array(
			'minute' => max( 0, (int) ( $limits['minute'] ?? self::PER_MINUTE ) ),
			'day'    => max( 0, (int) ( $limits['day'] ?? self::PER_DAY ) ),
		);
	}

	/**
	 * Why the user may not cause one more lookup now, or null when they may.
	 *
	 * @param int $user_id The user.
	 */
	public function refusal( int $user_id ): ?WP_Error {
		$now    = ( $this->clock )();
		$limits = self::limits( $user_id );
		$wait   = Quota_Windows::wait( $this->counts( $user_id, $now ), $limits['minute'], $limits['day'], DAY_IN_SECONDS, $now );
		return null === $wait ? null : self::exceeded( $wait );
	}

	/**
	 * Counts one lookup of the user.
	 *
	 * @param int $user_id The user.
	 */
	public function count( int $user_id ): void {
		update_user_meta( $user_id, self::META, Quota_Windows::counted( $this->counts( $user_id, ( $this->clock )() ) ) );
	}

	/**
	 * The user's windows as they stand now (Quota_Windows::current()).
	 *
	 * @param int   $user_id The user.
	 * @param float $now     The time.
	 * @return array{0: float, 1: int, 2: float, 3: int}
	 */
	private function counts( int $user_id, float $now ): array {
		return Quota_Windows::current( get_user_meta( $user_id, self::META, true ), $now, DAY_IN_SECONDS );
	}

	/**
	 * The error for a user past their quota.
	 *
	 * @param float $wait Seconds until a lookup is allowed again.
	 */
	private static function exceeded( float $wait ): WP_Error {
		$retry_after = max( 1, (int) ceil( $wait ) );
		return new WP_Error(
			'cairn_geocode_quota_exceeded',
			sprintf(
				/* translators: %d: number of seconds. */
				_n(
					'You have searched for many new addresses in a short time. Try again in %d second.',
					'You have searched for many new addresses in a short time. Try again in %d seconds.',
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
}
