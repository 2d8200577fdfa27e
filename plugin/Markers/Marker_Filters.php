<?php
/**
 * The canonical form of a marker selection.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

defined( 'ABSPATH' ) || exit;

/**
 * Marker filters (`groups`, `ids`, `bbox`) in one canonical form: order and repeats do not matter,
 * coordinates are rounded to 6 decimals. Equal selections share a cache key and an ETag, in the
 * feed (Feed\Geojson_Feed::normalize()) and in the server-rendered list (Marker_List).
 *
 * @since 0.4.0
 */
final class Marker_Filters {

	/**
	 * Filters in one canonical form, so equal selections share a key and an ETag.
	 *
	 * @param array{groups?: string[], ids?: int[], bbox?: float[]} $filters Validated filters.
	 * @return array{groups: string[], ids: int[], bbox: float[]}
	 */
	public static function normalize( array $filters ): array {
		$groups = array_values( array_unique( array_map( 'strval', $filters['groups'] ?? array() ) ) );
		$ids    = array_values( array_unique( array_map( 'intval', $filters['ids'] ?? array() ) ) );
		sort( $groups );
		sort( $ids );
		$bbox = isset( $filters['bbox'] ) ? array_map(
			static function ( $value ) {
				return round( (float) $value, 6 );
			},
			array_values( $filters['bbox'] )
		) : array();
		return array(
			'groups' => $groups,
			'ids'    => $ids,
			'bbox'   => $bbox,
		);
	}
}
