<?php
/**
 * How many uncached address lookups one visitor may cause.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Geocoding;

defined( 'ABSPATH' ) || exit;

use WP_Error;

/**
 * A per-visitor quota of the lookups that reach the provider through the public "near a place"
 * route (Visitor_Geocode_Controller; answers from the cache are free): at most PER_MINUTE (5) in
 * a minute and PER_HOUR (30) in an hour, both filterable (`cairn_maps_geocode_visitor_quota`).
 * Past either, a 429 `cairn_geocode_quota_exceeded` with `retry_after`.
 *
 * A visitor is their IP address, never stored: the key is an HMAC of it with the site's
 * `wp_salt( 'nonce' )` (key()), so the stored rows cannot be turned back into addresses. The
 * counts are one transient a visitor, expiring an hour after its window started.
 *
 * Bounded storage: a row is written only when a lookup is counted, which happens only once the
 * site-wide Rate_Limiter has granted its slot (one lookup a second for the whole site, Nominatim's
 * policy). So at most 3,600 rows live at any time (an hour of slots), whatever the number of
 * visitors or of requests they send.
 *
 * @since 0.8.0
 */
final class Visitor_Quota {

	/**
	 * The transients' prefix (then 32 hex digits of the visitor's key).
	 */
	public const PREFIX = 'cairn_maps_vq_';

	/**
	 * Uncached lookups a visitor may cause in a minute, by default.
	 */
	public const PER_MINUTE = 5;

	/**
	 * Uncached lookups a visitor may cause in an hour, by default.
	 */
	public const PER_HOUR = 30;

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
	 * The key of a visitor: an HMAC of their IP address with the site's salt (32 hex digits).
	 *
	 * @param string $ip The visitor's IP address (REMOTE_ADDR).
	 */
	public static function key( string $ip ): string {
		return substr( hash_hmac( 'sha256', $ip, wp_salt( 'nonce' ) ), 0, 32 );
	}

	/**
	 * The limits.
	 *
	 * @return array{minute: int, hour: int}
	 */
	public static function limits(): array {
		/**
		 * Filters how many address lookups that reach the provider (not answered from the cache)
		 * one visitor of the site may cause through "near a place", per minute and per hour.
		 *
		 * @since 0.8.0
		 *
		 * @param array{minute: int, hour: int} $limits Lookups per minute and per hour.
		 */
		$limits = apply_filters(
			'cairn_maps_geocode_visitor_quota',
			array(
				'minute' => self::PER_MINUTE,
				'hour'   => self::PER_HOUR,
			)
		);
		$limits = is_array( $limits ) ? $limits : array();
		return array(
			'minute' => max( 0, (int) ( $limits['minute'] ?? self::PER_MINUTE ) ),
			'hour'   => max( 0, (int) ( $limits['hour'] ?? self::PER_HOUR ) ),
		);
	}

	/**
	 * Why the visitor may not cause one more lookup now, or null when they may.
	 *
	 * @param string $key The visitor's key (key()).
	 */
	public function refusal( string $key ): ?WP_Error {
		$now    = ( $this->clock )();
		$limits = self::limits();
		$wait   = Quota_Windows::wait( $this->counts( $key, $now ), $limits['minute'], $limits['hour'], HOUR_IN_SECONDS, $now );
		if ( null === $wait ) {
			return null;
		}
		$retry_after = max( 1, (int) ceil( $wait ) );
		return new WP_Error(
			'cairn_geocode_quota_exceeded',
			sprintf(
				/* translators: %d: number of seconds. */
				_n(
					'Many new places were looked up from here in a short time. Try again in %d second.',
					'Many new places were looked up from here in a short time. Try again in %d seconds.',
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
	 * Counts one lookup of the visitor.
	 *
	 * @param string $key The visitor's key.
	 */
	public function count( string $key ): void {
		$now    = ( $this->clock )();
		$counts = $this->counts( $key, $now );
		$ttl    = max( 1, (int) ceil( $counts[2] + HOUR_IN_SECONDS - $now ) );
		set_transient( self::PREFIX . $key, Quota_Windows::counted( $counts ), $ttl );
	}

	/**
	 * The visitor's windows as they stand now (Quota_Windows::current()).
	 *
	 * @param string $key The visitor's key.
	 * @param float  $now The time.
	 * @return array{0: float, 1: int, 2: float, 3: int}
	 */
	private function counts( string $key, float $now ): array {
		return Quota_Windows::current( get_transient( self::PREFIX . $key ), $now, HOUR_IN_SECONDS );
	}
}
