<?php
/**
 * Positions and distances on the mean sphere, for tests that check the plugin's own.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests;

defined( 'ABSPATH' ) || exit;

/**
 * A position at a distance and bearing from another, and the great-circle distance by the vector
 * (cross and dot product) formula: not the haversine the plugin uses, so a mistake there is not
 * repeated in the tests that compare with it.
 *
 * @since 0.9.0
 */
final class Sphere {

	/**
	 * Mean Earth radius in metres (as the plugin's).
	 */
	public const RADIUS = 6371008.8;

	/**
	 * The position at a distance and bearing from another, longitude within -180…180.
	 *
	 * @param float[] $from    [lng, lat].
	 * @param float   $metres  Distance.
	 * @param float   $bearing Radians from north.
	 * @return float[] [lng, lat].
	 */
	public static function destination( array $from, float $metres, float $bearing ): array {
		$delta = $metres / self::RADIUS;
		$phi   = deg2rad( $from[1] );
		$lat   = asin( sin( $phi ) * cos( $delta ) + cos( $phi ) * sin( $delta ) * cos( $bearing ) );
		$lng   = deg2rad( $from[0] ) + atan2( sin( $bearing ) * sin( $delta ) * cos( $phi ), cos( $delta ) - sin( $phi ) * sin( $lat ) );
		return array( fmod( rad2deg( $lng ) + 540.0, 360.0 ) - 180.0, rad2deg( $lat ) );
	}

	/**
	 * Great-circle distance in metres.
	 *
	 * @param float[] $a [lng, lat].
	 * @param float[] $b [lng, lat].
	 */
	public static function distance( array $a, array $b ): float {
		$va    = array( cos( deg2rad( $a[1] ) ) * cos( deg2rad( $a[0] ) ), cos( deg2rad( $a[1] ) ) * sin( deg2rad( $a[0] ) ), sin( deg2rad( $a[1] ) ) );
		$vb    = array( cos( deg2rad( $b[1] ) ) * cos( deg2rad( $b[0] ) ), cos( deg2rad( $b[1] ) ) * sin( deg2rad( $b[0] ) ), sin( deg2rad( $b[1] ) ) );
		$cross = array( $va[1] * $vb[2] - $va[2] * $vb[1], $va[2] * $vb[0] - $va[0] * $vb[2], $va[0] * $vb[1] - $va[1] * $vb[0] );
		$dot   = $va[0] * $vb[0] + $va[1] * $vb[1] + $va[2] * $vb[2];
		return self::RADIUS * atan2( sqrt( $cross[0] ** 2 + $cross[1] ** 2 + $cross[2] ** 2 ), $dot );
	}
}
