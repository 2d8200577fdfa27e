<?php
/**
 * Which post types can carry a place (a Location), and the meta keys that hold it.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Content;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Post_Type;

/**
 * The post types the owner enabled for locations (setting `cairn_maps_post_types`, default
 * `["post"]`), kept to public post types shown in REST. Markers are never listed: they always
 * have places, in their own meta (`cairn_lat`/`cairn_lng`).
 *
 * Locations use WordPress's long-standing geodata keys, so other plugins and themes that read
 * them interoperate.
 *
 * @since 0.3.0
 */
class Location_Types {

	/**
	 * The option that lists the enabled post types.
	 */
	public const OPTION = 'cairn_maps_post_types';

	/**
	 * The default: posts.
	 */
	public const DEFAULT_TYPES = array( 'post' );

	public const META_LAT     = 'geo_latitude';
	public const META_LNG     = 'geo_longitude';
	public const META_ADDRESS = Post_Type::META_ADDRESS;
	public const META_PUBLIC  = 'geo_public';

	/**
	 * Post types that may be enabled: public, shown in REST, not markers, not attachments.
	 *
	 * @return string[]
	 */
	public static function candidates(): array {
		$types = get_post_types(
			array(
				'public'       => true,
				'show_in_rest' => true,
			),
			'names'
		);
		unset( $types[ Post_Type::POST_TYPE ], $types['attachment'] );
		return array_values( array_map( 'strval', $types ) );
	}

	/**
	 * The candidates with their names, for the settings screen: post type name => plural label.
	 *
	 * @return array<string, string>
	 */
	public static function labels(): array {
		$labels = array();
		foreach ( self::candidates() as $type ) {
			$object          = get_post_type_object( $type );
			$labels[ $type ] = $object ? (string) $object->labels->name : $type;
		}
		return $labels;
	}

	/**
	 * The enabled post types, as stored, kept to the candidates that exist now.
	 *
	 * @return string[]
	 */
	public static function enabled(): array {
		$stored = get_option( self::OPTION, self::DEFAULT_TYPES );
		if ( ! is_array( $stored ) ) {
			return array();
		}
		$candidates = self::candidates();
		return array_values(
			array_intersect( array_unique( array_map( 'strval', $stored ) ), $candidates )
		);
	}

	/**
	 * Whether a post type can carry a location now.
	 *
	 * @param string $post_type A post type name.
	 * @return bool
	 */
	public static function is_enabled( string $post_type ): bool {
		return in_array( $post_type, self::enabled(), true );
	}
}
