<?php
/**
 * The one rule for a latitude or longitude, wherever it is stored.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Support\Limits;
use WP_Error;

/**
 * What a coordinate must be (a finite number within the ranges of Limits) and how its post meta
 * is registered, for markers (`cairn_lat`, `cairn_lng`) and posts' places (`geo_latitude`,
 * `geo_longitude`) alike. Markers may sit at any real latitude: the map's ±85.0511 limit applies
 * to the camera only.
 *
 * @since 0.3.0
 */
final class Coordinate_Rule {

	/**
	 * The coordinate fields under their meta keys: key => [label, minimum, maximum].
	 *
	 * @param string $lat_key Latitude meta key.
	 * @param string $lng_key Longitude meta key.
	 * @return array<string, array{0: string, 1: float, 2: float}>
	 */
	public static function fields( string $lat_key, string $lng_key ): array {
		return array(
			$lat_key => array( __( 'Latitude', 'cairn-maps' ), (float) Limits::get( 'markerLatitude.min' ), (float) Limits::get( 'markerLatitude.max' ) ),
			$lng_key => array( __( 'Longitude', 'cairn-maps' ), (float) Limits::get( 'longitude.min' ), (float) Limits::get( 'longitude.max' ) ),
		);
	}

	/**
	 * Checks one coordinate value.
	 *
	 * @param array<string, array{0: string, 1: float, 2: float}> $fields See fields().
	 * @param string                                              $key    One of its keys.
	 * @param mixed                                               $value  Submitted or stored value.
	 * @return float|WP_Error The number, or why it is refused (a 400 naming the field).
	 */
	public static function check( array $fields, string $key, $value ) {
		list( $label, $min, $max ) = $fields[ $key ];
		$number                    = null;
		if ( is_int( $value ) || is_float( $value ) ) {
			$number = (float) $value;
		} elseif ( is_string( $value ) && is_numeric( trim( $value ) ) ) {
			$number = (float) trim( $value );
		}
		if ( null === $number || ! is_finite( $number ) || $number < $min || $number > $max ) {
			return new WP_Error(
				'rest_invalid_param',
				/* translators: 1: Latitude or Longitude, 2: field name, 3: minimum, 4: maximum. */
				sprintf( __( '%1$s (%2$s) must be a number between %3$s and %4$s.', 'cairn-maps' ), $label, $key, $min, $max ),
				array(
					'status' => 400,
					'field'  => $key,
				)
			);
		}
		return $number;
	}

	/**
	 * The arguments of register_post_meta() for a coordinate: a single number, shown in REST with
	 * its range.
	 *
	 * @param string    $description Description.
	 * @param int|float $min         Minimum (as Limits holds it).
	 * @param int|float $max         Maximum (as Limits holds it).
	 * @param callable  $sanitize    Sanitize callback.
	 * @param callable  $auth        Auth callback.
	 * @return array<string, mixed>
	 */
	public static function meta_args( string $description, $min, $max, callable $sanitize, callable $auth ): array {
		return array(
			'type'              => 'number',
			'description'       => $description,
			'single'            => true,
			'show_in_rest'      => array(
				'schema' => array(
					'type'    => 'number',
					'minimum' => $min,
					'maximum' => $max,
				),
			),
			'sanitize_callback' => $sanitize,
			'auth_callback'     => $auth,
		);
	}
}
