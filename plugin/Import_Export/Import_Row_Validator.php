<?php
/**
 * The rules one imported record must follow.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Import_Export;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Geometry_Measures;
use Cairn\Maps\Markers\Geometry_Rule;
use Cairn\Maps\Markers\Marker_Validation;
use Cairn\Maps\Markers\Post_Type;

/**
 * Checks one record of an import file and turns it into a clean row, or says why it is refused:
 * - `title` is required: plain text (tags removed), at most TITLE_MAX characters;
 * - `lat` and `lng` follow Marker_Validation::coordinate(), the rules of the REST API;
 * - `address` is optional plain text (tags and control characters removed, spaces collapsed),
 *   cut at ADDRESS_MAX characters. A row with an address and neither `lat` nor `lng` is kept
 *   without coordinates (`lat`/`lng` null): it is imported as a draft and geocoded later
 *   (Geocode_Queue). A row with neither coordinates nor an address is refused as before;
 * - `description` is optional; HTML is kept as far as posts allow it (wp_kses_post);
 * - groups are slugs or names, resolved by Import_Groups; at most GROUPS_MAX per marker;
 * - text must be valid UTF-8;
 * - `geometry` (a line or an area, when given) follows Geometry_Rule::check(); without `lat` and
 *   `lng` the marker's point is Geometry_Measures::anchor() of it.
 *
 * @since 0.2.0
 */
class Import_Row_Validator {

	/**
	 * Longest title, in characters (stricter than REST writes, which the database column bounds).
	 */
	public const TITLE_MAX = 500;

	/**
	 * Most groups per marker.
	 */
	public const GROUPS_MAX = 20;

	/**
	 * Longest address kept, in characters (what the geocoding route accepts as a query).
	 *
	 * @since 0.3.0
	 */
	public const ADDRESS_MAX = 200;

	/**
	 * Shortest address worth geocoding, in characters.
	 *
	 * @since 0.3.0
	 */
	public const ADDRESS_MIN = 2;

	/**
	 * Checks one record.
	 *
	 * @param array{title: mixed, lat: mixed, lng: mixed, groups: string[], description: mixed, address?: mixed, geometry?: mixed} $fields Raw fields.
	 * @param Import_Groups                                                                                                        $groups Groups seen so far.
	 * @return array{title: string, lat: float|null, lng: float|null, groups: string[], description: string, address: string, geometry?: array{type: string, coordinates: array<int, mixed>}}|string The clean row, or why it is refused.
	 */
	public static function check( array $fields, Import_Groups $groups ) {
		$address = $fields['address'] ?? '';
		foreach ( array( $fields['title'], $fields['description'], $address, ...$fields['groups'] ) as $text ) {
			if ( is_string( $text ) && 1 !== preg_match( '//u', $text ) ) {
				return __( 'This row is not valid UTF-8 text. Save the file as CSV UTF-8 and import it again.', 'cairn-maps' );
			}
		}
		$title = trim( wp_strip_all_tags( (string) $fields['title'], true ) );
		if ( '' === $title ) {
			return __( 'A title is required.', 'cairn-maps' );
		}
		if ( mb_strlen( $title, 'UTF-8' ) > self::TITLE_MAX ) {
			/* translators: %d: most characters. */
			return sprintf( __( 'The title is longer than %d characters.', 'cairn-maps' ), self::TITLE_MAX );
		}
		$address     = is_scalar( $address ) ? self::clean_address( (string) $address ) : '';
		$coordinates = array(
			Post_Type::META_LAT => null,
			Post_Type::META_LNG => null,
		);
		$shape       = null;
		if ( array_key_exists( 'geometry', $fields ) ) {
			$shape = Geometry_Rule::check( $fields['geometry'] );
			if ( is_wp_error( $shape ) ) {
				return $shape->get_error_message();
			}
			if ( self::is_blank( $fields['lat'] ) && self::is_blank( $fields['lng'] ) ) {
				$anchor        = Geometry_Measures::anchor( $shape );
				$fields['lat'] = $anchor['lat'];
				$fields['lng'] = $anchor['lng'];
				$address       = ''; // A shape is placed by its geometry, never geocoded.
			}
		}
		$to_geocode = '' !== $address && self::is_blank( $fields['lat'] ) && self::is_blank( $fields['lng'] );
		foreach ( $to_geocode ? array() : array( Post_Type::META_LAT, Post_Type::META_LNG ) as $key ) {
			$checked = Marker_Validation::coordinate( $key, Post_Type::META_LAT === $key ? $fields['lat'] : $fields['lng'] );
			if ( is_wp_error( $checked ) ) {
				return $checked->get_error_message();
			}
			$coordinates[ $key ] = $checked;
		}
		if ( count( $fields['groups'] ) > self::GROUPS_MAX ) {
			/* translators: %d: most groups per marker. */
			return sprintf( __( 'A marker may be in at most %d groups.', 'cairn-maps' ), self::GROUPS_MAX );
		}
		$slugs = array();
		foreach ( $fields['groups'] as $name ) {
			$slug = $groups->resolve( $name );
			if ( is_wp_error( $slug ) ) {
				return $slug->get_error_message();
			}
			$slugs[] = $slug;
		}
		$row = array(
			'title'       => $title,
			'lat'         => $coordinates[ Post_Type::META_LAT ],
			'lng'         => $coordinates[ Post_Type::META_LNG ],
			'groups'      => array_values( array_unique( $slugs ) ),
			'description' => trim( wp_kses_post( (string) $fields['description'] ) ),
			'address'     => $address,
		);
		return null === $shape ? $row : $row + array( 'geometry' => $shape );
	}

	/**
	 * What a row's report should say although it was imported: a line without an elevation at
	 * every vertex gets no ascent and no elevation profile.
	 *
	 * @since 0.5.0
	 * @param array<string, mixed> $row A clean row.
	 * @return string The notice, or ''.
	 */
	public static function notice( array $row ): string {
		$geometry = $row['geometry'] ?? null;
		if ( ! isset( $geometry['type'], $geometry['coordinates'] ) || ! Geometry_Measures::is_line( $geometry ) || Geometry_Measures::has_elevation( $geometry ) ) {
			return '';
		}
		return __( 'This line has no elevation (or not at every point), so it shows no ascent and no elevation profile. It was imported.', 'cairn-maps' );
	}

	/**
	 * An address as stored: plain text on one line, at most ADDRESS_MAX characters; empty when
	 * shorter than ADDRESS_MIN (nothing a geocoder could find).
	 *
	 * @since 0.3.0
	 * @param string $address Raw address (valid UTF-8).
	 */
	public static function clean_address( string $address ): string {
		$address = wp_strip_all_tags( $address, true );
		$address = trim( (string) preg_replace( '/[\p{Cc}\p{Z}]+/u', ' ', $address ) );
		if ( mb_strlen( $address, 'UTF-8' ) > self::ADDRESS_MAX ) {
			$address = rtrim( mb_substr( $address, 0, self::ADDRESS_MAX, 'UTF-8' ) );
		}
		return mb_strlen( $address, 'UTF-8' ) < self::ADDRESS_MIN ? '' : $address;
	}

	/**
	 * Whether a coordinate cell is empty.
	 *
	 * @param mixed $value Cell.
	 */
	private static function is_blank( $value ): bool {
		return null === $value || ( is_string( $value ) && '' === trim( $value ) );
	}
}
