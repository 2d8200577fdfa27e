<?php
/**
 * Where a marker's shape is kept.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

defined( 'ABSPATH' ) || exit;

/**
 * A marker's shape lives in two post meta values:
 *
 * - `cairn_geometry`: the geometry as checked by Geometry_Rule, as JSON text (half the bytes of a
 *   serialised PHP array, and readable by SQL and by people);
 * - `_cairn_shape`: what maps need, derived from it (protected: not in REST, not in the Custom
 *   Fields box), as JSON text: `{"geometry": <simplified 2D geometry, ≤ 6 decimals>,
 *   "bbox": [w, s, e, n], "length_m": int|null, "ascent_m": int|null, "descent_m": int|null,
 *   "profile": [[distance_m, elevation_m], …]|null}`.
 *
 * Writing either on a published marker renews Markers_Version, as a coordinate change does.
 * Writing `cairn_geometry` any other way (update_post_meta) runs Geometry_Rule through the meta's
 * sanitize callback and derives `_cairn_shape` again (Shape_Meta).
 *
 * @since 0.5.0
 */
final class Shape_Store {

	public const META_GEOMETRY = 'cairn_geometry';
	public const META_SHAPE    = '_cairn_shape';

	/**
	 * The JSON text save() is writing, which the sanitize callback need not check again.
	 *
	 * @var string|null
	 */
	private static ?string $trusted = null;

	/**
	 * Stores a checked geometry and its derived copy, or deletes both for null.
	 *
	 * @param int                                                      $post_id  Marker id.
	 * @param array{type: string, coordinates: array<int, mixed>}|null $geometry A geometry from
	 *                                                                           Geometry_Rule::check(), or null.
	 */
	public static function save( int $post_id, ?array $geometry ): void {
		if ( null === $geometry ) {
			delete_post_meta( $post_id, self::META_GEOMETRY );
			delete_post_meta( $post_id, self::META_SHAPE );
			return;
		}
		$json          = self::encode( $geometry );
		self::$trusted = $json;
		try {
			// Slashed as update_post_meta() expects; JSON of numbers and type names has no backslashes.
			update_post_meta( $post_id, self::META_GEOMETRY, wp_slash( $json ) );
		} finally {
			self::$trusted = null;
		}
		update_post_meta( $post_id, self::META_SHAPE, wp_slash( self::derive( $geometry ) ) );
	}

	/**
	 * Whether save() is writing `cairn_geometry` now (and will write `_cairn_shape` itself).
	 */
	public static function is_saving(): bool {
		return null !== self::$trusted;
	}

	/**
	 * The `_cairn_shape` JSON text of a checked geometry (for writers that store meta in batches).
	 *
	 * @param array{type: string, coordinates: array<int, mixed>} $geometry A geometry from Geometry_Rule::check().
	 */
	public static function derive( array $geometry ): string {
		$length = Geometry_Measures::length_m( $geometry );
		$climb  = Geometry_Measures::climb( $geometry );
		$bbox   = Geometry_Measures::bbox( $geometry );
		$shape  = array(
			'geometry'  => Line_Simplifier::simplify( $geometry ),
			'bbox'      => array(
				floor( $bbox[0] * 1e6 ) / 1e6,
				floor( $bbox[1] * 1e6 ) / 1e6,
				ceil( $bbox[2] * 1e6 ) / 1e6,
				ceil( $bbox[3] * 1e6 ) / 1e6,
			),
			'length_m'  => null === $length ? null : (int) round( $length ),
			'ascent_m'  => null === $climb ? null : (int) round( $climb['ascent'] ),
			'descent_m' => null === $climb ? null : (int) round( $climb['descent'] ),
			'profile'   => Geometry_Measures::profile( $geometry ),
		);
		return (string) wp_json_encode( $shape );
	}

	/**
	 * A marker's stored geometry, or null when it has none.
	 *
	 * @param int $post_id Marker id.
	 * @return array{type: string, coordinates: array<int, mixed>}|null
	 */
	public static function geometry( int $post_id ): ?array {
		return self::decode_geometry( get_post_meta( $post_id, self::META_GEOMETRY, true ) );
	}

	/**
	 * A marker's derived shape (see the class), or null when it has none.
	 *
	 * @param int $post_id Marker id.
	 * @return array<string, mixed>|null
	 */
	public static function shape( int $post_id ): ?array {
		$text = get_post_meta( $post_id, self::META_SHAPE, true );
		$data = is_string( $text ) && '' !== $text ? json_decode( $text, true ) : null;
		return is_array( $data ) && isset( $data['geometry'] ) ? $data : null;
	}

	/**
	 * The stored text of a geometry: JSON, floats kept as floats.
	 *
	 * @param array{type: string, coordinates: array<int, mixed>} $geometry A checked geometry.
	 */
	public static function encode( array $geometry ): string {
		return (string) wp_json_encode(
			array(
				'type'        => $geometry['type'],
				'coordinates' => $geometry['coordinates'],
			),
			JSON_PRESERVE_ZERO_FRACTION
		);
	}

	/**
	 * A stored geometry's text decoded, or null when it is empty or not a geometry.
	 *
	 * @param mixed $text Stored value.
	 * @return array{type: string, coordinates: array<int, mixed>}|null
	 */
	public static function decode_geometry( mixed $text ): ?array {
		if ( ! is_string( $text ) || '' === $text ) {
			return null;
		}
		$data = json_decode( $text, true );
		if ( ! is_array( $data ) || ! isset( $data['type'], $data['coordinates'] ) || ! is_string( $data['type'] ) || ! is_array( $data['coordinates'] ) ) {
			return null;
		}
		return array(
			'type'        => $data['type'],
			'coordinates' => $data['coordinates'],
		);
	}

	/**
	 * The sanitize callback of `cairn_geometry`: the geometry's JSON text, checked by
	 * Geometry_Rule, or '' when it is not a valid shape (REST refuses those before they get here;
	 * other ways in, such as PHP or WP-CLI, cannot be refused here).
	 *
	 * @param mixed $value A geometry (array), or its JSON text.
	 */
	public static function sanitize( mixed $value ): string {
		if ( null !== self::$trusted && $value === self::$trusted ) {
			return self::$trusted;
		}
		if ( is_string( $value ) ) {
			$value = '' === $value ? null : json_decode( $value, true );
		}
		$checked = Geometry_Rule::check( $value );
		return is_array( $checked ) ? self::encode( $checked ) : '';
	}
}
