<?php
/**
 * Markers with a shape, for the shapes feed's tests.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Feed;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Feed\Shapes_Feed;

/**
 * Gives a marker a shape as the geo model stores it: the derived `_cairn_shape` JSON text
 * (`{"geometry":…,"bbox":…,"length_m":…,…}`), and the markers version bumped as a shape change
 * bumps it.
 *
 * @since 0.5.0
 */
trait Shape_Fixtures {

	/**
	 * A line from (lng, lat) going east in `$steps` steps of 0.01°.
	 *
	 * @param float $lng   Start longitude.
	 * @param float $lat   Start latitude.
	 * @param int   $steps Segments.
	 * @return array{type: string, coordinates: array<int, array{0: float, 1: float}>}
	 */
	protected static function line( float $lng, float $lat, int $steps = 2 ): array {
		$coordinates = array();
		for ( $i = 0; $i <= $steps; $i++ ) {
			$coordinates[] = array( round( $lng + $i * 0.01, 6 ), $lat );
		}
		return array(
			'type'        => 'LineString',
			'coordinates' => $coordinates,
		);
	}

	/**
	 * A square area with its south-west corner at (lng, lat).
	 *
	 * @param float $lng  West longitude.
	 * @param float $lat  South latitude.
	 * @param float $size Side in degrees.
	 * @return array{type: string, coordinates: array<int, array<int, array{0: float, 1: float}>>}
	 */
	protected static function square( float $lng, float $lat, float $size = 0.5 ): array {
		return array(
			'type'        => 'Polygon',
			'coordinates' => array(
				array(
					array( $lng, $lat ),
					array( $lng + $size, $lat ),
					array( $lng + $size, $lat + $size ),
					array( $lng, $lat + $size ),
					array( $lng, $lat ),
				),
			),
		);
	}

	/**
	 * Stores a shape on a marker as `_cairn_shape` text (geometry first) and bumps the markers
	 * version.
	 *
	 * @param int                  $id       Marker id.
	 * @param array<string, mixed> $geometry GeoJSON geometry.
	 * @param array<string, mixed> $measures `length_m`, `ascent_m`, `descent_m`, `profile` (null when unknown).
	 * @return string The stored text.
	 */
	protected function store_shape( int $id, array $geometry, array $measures = array() ): string {
		$positions = array();
		array_walk_recursive(
			$geometry['coordinates'],
			static function ( $value ) use ( &$positions ) {
				$positions[] = $value;
			}
		);
		$lngs = array();
		$lats = array();
		foreach ( array_chunk( $positions, 2 ) as $pair ) {
			$lngs[] = $pair[0];
			$lats[] = $pair[1];
		}
		$text = (string) wp_json_encode(
			array_merge(
				array(
					'geometry'  => $geometry,
					'bbox'      => array( min( $lngs ), min( $lats ), max( $lngs ), max( $lats ) ),
					'length_m'  => null,
					'ascent_m'  => null,
					'descent_m' => null,
					'profile'   => null,
				),
				$measures
			)
		);
		$this->store_shape_text( $id, $text );
		return $text;
	}

	/**
	 * Stores `_cairn_shape` text as it is, and bumps the markers version.
	 *
	 * @param int    $id   Marker id.
	 * @param string $text The text.
	 */
	protected function store_shape_text( int $id, string $text ): void {
		update_post_meta( $id, Shapes_Feed::META, wp_slash( $text ) );
		do_action( 'cairn_maps_markers_changed' ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- the plugin's own hook.
	}

	/**
	 * Creates a published marker with a shape.
	 *
	 * @param array<string, mixed> $geometry GeoJSON geometry.
	 * @param array<string, mixed> $args     create_marker() arguments.
	 * @param array<string, mixed> $measures Measures (see store_shape()).
	 * @return int Marker id.
	 */
	protected function create_shape( array $geometry, array $args = array(), array $measures = array() ): int {
		$id = $this->create_marker( $args );
		$this->store_shape( $id, $geometry, $measures );
		return $id;
	}
}
