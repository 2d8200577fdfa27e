<?php
/**
 * The shapes feed's GeoJSON text.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Feed;

defined( 'ABSPATH' ) || exit;

/**
 * One shape's feature as JSON, from its stored `_cairn_shape` text (see Shapes_Feed::META):
 * `{"type":"Feature","id":…,"geometry":…,"properties":{"title":…,"groups":[…],"bbox":[…],
 * "length_m"?,"ascent_m"?,"descent_m"?,"profile"?}}`, the measures absent when null.
 *
 * The geometry, the bulk of it (up to thousands of positions), is spliced in as stored, never
 * decoded: `_cairn_shape` text starts with it (`{"geometry":{…},"bbox":…`), and a geometry
 * holds only its type and numbers. What is spliced is checked first (parse()): a geometry type
 * the feed serves, then only numbers, commas and brackets, as many `[` as `]`. Text in another
 * member order, or with other members in its geometry, is decoded whole instead (slower, same
 * answer); text that is not a shape at all (a broken row) is left out of the feed.
 *
 * @since 0.5.0
 */
final class Shape_Writer {

	/**
	 * How the stored text starts: the geometry comes first.
	 */
	private const START = '{"geometry":';

	/**
	 * What follows the geometry in the stored text.
	 */
	private const AFTER_GEOMETRY = ',"bbox":';

	/**
	 * A geometry the feed serves, as stored: a line or area type and only numbers in brackets.
	 */
	private const GEOMETRY_PATTERN = '/\A\{"type":"(?:Multi)?(?:LineString|Polygon)","coordinates":\[[-+0-9.eE,\[\]]*\]\}\z/';

	/**
	 * Measures copied from the stored text into the feature's properties, in this order.
	 */
	private const MEASURES = array( 'length_m', 'ascent_m', 'descent_m', 'profile' );

	/**
	 * JSON flags of the strings and lists written.
	 */
	private const FLAGS = JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE;

	/**
	 * A stored shape's parts: its geometry as JSON text, its bbox `[w, s, e, n]` and its measures
	 * (those that are not null), or null when the text is not a usable shape.
	 *
	 * @param string $text Stored `_cairn_shape` text.
	 * @return array{geometry: string, bbox: float[], measures: array<string, mixed>}|null
	 */
	public static function parse( string $text ): ?array {
		$end = 0 === strncmp( $text, self::START, strlen( self::START ) ) ? strpos( $text, self::AFTER_GEOMETRY, strlen( self::START ) ) : false;
		if ( false !== $end && self::is_geometry( substr( $text, strlen( self::START ), $end - strlen( self::START ) ) ) ) {
			$geometry = substr( $text, strlen( self::START ), $end - strlen( self::START ) );
			$rest     = json_decode( '{' . substr( $text, $end + 1 ), true );
		} else {
			// Another member order, or members the feed does not splice (a geometry's own bbox):
			// decoded, and only its type and coordinates written again.
			$rest     = json_decode( $text, true );
			$geometry = is_array( $rest ) ? self::geometry_json( $rest['geometry'] ?? null ) : '';
		}
		if ( ! is_array( $rest ) || ! self::is_geometry( $geometry ) ) {
			return null;
		}
		$bbox = self::bbox( $rest['bbox'] ?? null );
		if ( null === $bbox ) {
			return null;
		}
		$measures = array();
		foreach ( self::MEASURES as $name ) {
			if ( isset( $rest[ $name ] ) && ( is_int( $rest[ $name ] ) || is_float( $rest[ $name ] ) || ( 'profile' === $name && is_array( $rest[ $name ] ) ) ) ) {
				$measures[ $name ] = $rest[ $name ];
			}
		}
		return array(
			'geometry' => $geometry,
			'bbox'     => $bbox,
			'measures' => $measures,
		);
	}

	/**
	 * One shape as a feature's JSON.
	 *
	 * @param int                                                                    $id     Post id.
	 * @param string                                                                 $title  Stored or filtered title.
	 * @param string[]                                                               $groups Group slugs.
	 * @param array{geometry: string, bbox: float[], measures: array<string, mixed>} $shape  What parse() gave.
	 */
	public static function feature_json( int $id, string $title, array $groups, array $shape ): string {
		$properties = array(
			'title'  => Geojson_Writer::plain_title( $title, Geojson_Writer::TITLE_MAX ),
			'groups' => array_values( $groups ),
			'bbox'   => $shape['bbox'],
		) + $shape['measures'];
		// phpcs:ignore WordPress.WP.AlternativeFunctions.json_encode_json_encode -- flags chosen for size; wp_json_encode adds nothing here.
		return '{"type":"Feature","id":' . $id . ',"geometry":' . $shape['geometry'] . ',"properties":' . json_encode( $properties, self::FLAGS ) . '}';
	}

	/**
	 * A decoded geometry's type and coordinates as JSON ('' when it has none).
	 *
	 * @param mixed $geometry Decoded geometry.
	 */
	private static function geometry_json( $geometry ): string {
		if ( ! is_array( $geometry ) || ! is_string( $geometry['type'] ?? null ) || ! is_array( $geometry['coordinates'] ?? null ) ) {
			return '';
		}
		return (string) wp_json_encode(
			array(
				'type'        => $geometry['type'],
				'coordinates' => $geometry['coordinates'],
			),
			self::FLAGS
		);
	}

	/**
	 * Whether stored geometry text may be spliced into the feed as it is.
	 *
	 * @param string $geometry Geometry JSON text.
	 */
	private static function is_geometry( string $geometry ): bool {
		return 1 === preg_match( self::GEOMETRY_PATTERN, $geometry ) && substr_count( $geometry, '[' ) === substr_count( $geometry, ']' );
	}

	/**
	 * A stored bbox as four finite numbers, or null.
	 *
	 * @param mixed $value Decoded bbox.
	 * @return float[]|null
	 */
	private static function bbox( $value ): ?array {
		if ( ! is_array( $value ) || 4 !== count( $value ) ) {
			return null;
		}
		$bbox = array();
		foreach ( array_values( $value ) as $number ) {
			if ( ! is_int( $number ) && ! is_float( $number ) ) {
				return null;
			}
			$bbox[] = (float) $number;
		}
		return $bbox;
	}

	/**
	 * Whether a shape's bbox meets a box `[west, south, east, north]` (west greater than east
	 * crosses the antimeridian).
	 *
	 * @param float[] $bbox Shape's bbox.
	 * @param float[] $box  The box asked for.
	 */
	public static function meets( array $bbox, array $box ): bool {
		if ( $bbox[1] > $box[3] || $bbox[3] < $box[1] ) {
			return false;
		}
		if ( $box[0] <= $box[2] ) {
			return $bbox[0] <= $box[2] && $bbox[2] >= $box[0];
		}
		return $bbox[2] >= $box[0] || $bbox[0] <= $box[2];
	}
}
