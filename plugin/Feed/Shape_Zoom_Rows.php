<?php
/**
 * A shape's rows in the shape tiles' tables.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Feed;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Zoom_Simplifier;

/**
 * What Shape_Tile_Store keeps of one stored shape (`_cairn_shape`, read by Shape_Writer::parse()
 * as the shapes feed reads it): its box, its positions and its facts (the feed's properties
 * besides title, groups and the elevation profile, as JSON), and its geometry per zoom: the feed's
 * own text from the full zoom on, and below it Markers\Zoom_Simplifier's copies.
 *
 * The elevation profile (100 pairs: a kilobyte and more a route) stays out of the tiles: it would
 * be most of a low zoom tile's bytes, repeated in every tile a route meets, for the few popups a
 * visitor opens; the popup's answer carries it (Rest\Marker_Popup).
 *
 * @since 0.7.0
 */
final class Shape_Zoom_Rows {

	/**
	 * The facts copied into the tiles' properties, in the feed's order.
	 */
	public const FACTS = array( 'length_m', 'ascent_m', 'descent_m' );

	/**
	 * The rows of a stored shape, or null when the text is not a usable shape (the feed leaves
	 * such a row out too).
	 *
	 * @param string $text      Stored `_cairn_shape` text.
	 * @param int    $full_zoom The first zoom that serves the feed's copy itself.
	 * @return array{bbox: float[], positions: int, facts: string, zooms: array<int, array{positions: int, geometry: string}>}|null
	 */
	public static function of( string $text, int $full_zoom ): ?array {
		$shape    = Shape_Writer::parse( $text );
		$geometry = null === $shape ? null : json_decode( $shape['geometry'], true );
		if ( null === $shape || ! is_array( $geometry ) || ! is_string( $geometry['type'] ?? null ) || ! is_array( $geometry['coordinates'] ?? null ) ) {
			return null;
		}
		$geometry = array(
			'type'        => $geometry['type'],
			'coordinates' => $geometry['coordinates'],
		);
		$facts    = array( 'bbox' => $shape['bbox'] ) + array_intersect_key( $shape['measures'], array_flip( self::FACTS ) );
		$full     = Zoom_Simplifier::count( $geometry );
		$zooms    = array();
		foreach ( Zoom_Simplifier::levels( $geometry, $full_zoom ) as $zoom => $copy ) {
			$zooms[ $zoom ] = array(
				'positions' => Zoom_Simplifier::count( $copy ),
				'geometry'  => (string) wp_json_encode( $copy ),
			);
		}
		$zooms[ $full_zoom ] = array(
			'positions' => $full,
			'geometry'  => $shape['geometry'],
		);
		return array(
			'bbox'      => $shape['bbox'],
			'positions' => $full,
			'facts'     => (string) wp_json_encode( $facts ),
			'zooms'     => $zooms,
		);
	}

	/**
	 * A tile feature's JSON from a row (Shape_Tile_Store::rows()): the shapes feed's format
	 * (Shape_Writer::feature_json()), without the profile.
	 *
	 * @param int                                                   $id     Post id.
	 * @param array{title: string, facts: string, geometry: string} $row    The row.
	 * @param string[]                                              $groups Group slugs.
	 */
	public static function feature_json( int $id, array $row, array $groups ): string {
		$facts = json_decode( $row['facts'], true );
		$facts = is_array( $facts ) ? $facts : array();
		return Shape_Writer::feature_json(
			$id,
			$row['title'],
			$groups,
			array(
				'geometry' => $row['geometry'],
				'bbox'     => is_array( $facts['bbox'] ?? null ) ? array_map( 'floatval', $facts['bbox'] ) : array(),
				'measures' => array_intersect_key( $facts, array_flip( self::FACTS ) ),
			)
		);
	}
}
