<?php
/**
 * The two windows of a lookup quota.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Geocoding;

defined( 'ABSPATH' ) || exit;

/**
 * A quota's counts in two windows, a minute and a longer one (a day for people, an hour for
 * visitors), as one stored row [minute start, count, long start, count]: what is left of them now,
 * and how long until a lookup is allowed again. Shared by User_Quota and Visitor_Quota.
 *
 * Each window starts with the first lookup in it; an ended window, or one that starts in the
 * future (a clock that went back), starts again at now, empty.
 *
 * @since 0.8.0
 */
final class Quota_Windows {

	/**
	 * The windows of a stored row as they stand now.
	 *
	 * @param mixed $stored What was stored (anything else than a row of four: no lookups yet).
	 * @param float $now    The time.
	 * @param int   $long   The longer window, in seconds.
	 * @return array{0: float, 1: int, 2: float, 3: int}
	 */
	public static function current( $stored, float $now, int $long ): array {
		$stored = is_array( $stored ) && 4 === count( $stored ) ? array_values( $stored ) : array( $now, 0, $now, 0 );
		$minute = array( (float) $stored[0], (int) $stored[1] );
		$window = array( (float) $stored[2], (int) $stored[3] );
		if ( $minute[0] + MINUTE_IN_SECONDS <= $now || $minute[0] > $now ) {
			$minute = array( $now, 0 );
		}
		if ( $window[0] + $long <= $now || $window[0] > $now ) {
			$window = array( $now, 0 );
		}
		return array( $minute[0], $minute[1], $window[0], $window[1] );
	}

	/**
	 * Seconds until one more lookup is allowed (0: now), and whether one is refused at all.
	 *
	 * @param array{0: float, 1: int, 2: float, 3: int} $counts    The windows (current()).
	 * @param int                                       $per_min   Lookups a minute.
	 * @param int                                       $per_long  Lookups in the longer window.
	 * @param int                                       $long      The longer window, in seconds.
	 * @param float                                     $now       The time.
	 * @return float|null Seconds to wait; null when a lookup is allowed.
	 */
	public static function wait( array $counts, int $per_min, int $per_long, int $long, float $now ): ?float {
		if ( $counts[1] < $per_min && $counts[3] < $per_long ) {
			return null;
		}
		$wait = 0.0;
		if ( $counts[1] >= $per_min ) {
			$wait = max( $wait, $counts[0] + MINUTE_IN_SECONDS - $now );
		}
		if ( $counts[3] >= $per_long ) {
			$wait = max( $wait, $counts[2] + $long - $now );
		}
		return $wait;
	}

	/**
	 * The row after one more lookup.
	 *
	 * @param array{0: float, 1: int, 2: float, 3: int} $counts The windows (current()).
	 * @return array{0: float, 1: int, 2: float, 3: int}
	 */
	public static function counted( array $counts ): array {
		return array( $counts[0], $counts[1] + 1, $counts[2], $counts[3] + 1 );
	}
}
