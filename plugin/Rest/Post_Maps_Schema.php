<?php
/**
 * The JSON schemas of a post's maps.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Support\Map_Schema;

/**
 * What the maps of a post look like over REST, for discovery and for clients that generate types:
 * the answer of `GET /cairn/v1/posts/<id>/maps` and the list of maps it shares with the
 * `cairn_maps` field of core's post routes.
 *
 * @since 0.2.0
 */
final class Post_Maps_Schema {

	/**
	 * The JSON schema of the answer, for discovery (`OPTIONS /cairn/v1/posts/<id>/maps`).
	 *
	 * @since 0.2.0
	 *
	 * @return array<string, mixed>
	 */
	public static function get_item_schema(): array {
		return array(
			'$schema'    => 'http://json-schema.org/draft-04/schema#',
			'title'      => 'cairn-post-maps',
			'type'       => 'object',
			'properties' => array(
				'post'     => array(
					'description' => __( 'Unique identifier for the post.', 'cairn-maps' ),
					'type'        => 'integer',
					'readonly'    => true,
				),
				'modified' => array(
					'description' => __( 'When the post was last modified, in UTC (ISO 8601).', 'cairn-maps' ),
					'type'        => 'string',
					'format'      => 'date-time',
					'readonly'    => true,
				),
				'maps'     => array_merge(
					self::maps_schema(),
					array(
						'description' => __( 'The maps of the post in document order, nested ones and those of synced patterns included. Empty for a password-protected post without its password.', 'cairn-maps' ),
						'readonly'    => true,
					)
				),
			),
		);
	}

	/**
	 * The schema of a list of maps (the route's `maps`, the `cairn_maps` field).
	 *
	 * @since 0.2.0
	 *
	 * @return array<string, mixed>
	 */
	public static function maps_schema(): array {
		$number = array( 'type' => 'number' );
		$string = array( 'type' => 'string' );
		// What the block's attributes and the runtime's configuration share, under the same names:
		// each with its rule from map-schema.json (Support\Map_Schema), the one home of those rules.
		$view = Map_Schema::attributes();
		unset( $view['mapStyle'] );
		return array(
			'type'  => 'array',
			'items' => array(
				'type'       => 'object',
				'properties' => array(
					'id'         => array(
						'description' => __( 'The block\'s anchor when it has one, else map-<n> (from 1, over all maps of the post).', 'cairn-maps' ),
						'type'        => 'string',
					),
					'attributes' => array(
						'description'          => __( 'The block\'s attributes with every default filled in and invalid values replaced by the default.', 'cairn-maps' ),
						'type'                 => 'object',
						'properties'           => array_merge(
							$view,
							array(
								'mapStyle'  => $string,
								'anchor'    => $string,
								'className' => $string,
								'align'     => $string,
							)
						),
						'additionalProperties' => true,
					),
					'config'     => self::config_schema( $view ),
					'places'     => array(
						'description' => __( 'The first page of the places list the server renders without JavaScript: its places, how many in all, the page and the places a page holds.', 'cairn-maps' ),
						'type'        => 'object',
						'properties'  => array(
							'items'   => array(
								'type'  => 'array',
								'items' => array(
									'type'       => 'object',
									'properties' => array(
										'id'    => array( 'type' => 'integer' ),
										'title' => $string,
										'lng'   => $number,
										'lat'   => $number,
									),
								),
							),
							'total'   => array( 'type' => 'integer' ),
							'page'    => array( 'type' => 'integer' ),
							'perPage' => array( 'type' => 'integer' ),
						),
					),
					'error'      => array(
						'description' => __( 'Empty, or the error code the server render shows for the block.', 'cairn-maps' ),
						'type'        => 'string',
						'enum'        => array( '', 'missing-token', 'secret-token', 'invalid-token', 'zoom-range' ),
					),
				),
			),
		);
	}

	/**
	 * The schema of a map's `config`: what createMap() takes.
	 *
	 * @param array<string, mixed> $view The rules the attributes and the configuration share.
	 * @return array<string, mixed>
	 */
	private static function config_schema( array $view ): array {
		$boolean = array( 'type' => 'boolean' );
		$string  = array( 'type' => 'string' );
		return array(
			'description'          => __( 'What createMap() takes: exactly the data-cairn-config the server renders for the block. The access token is a public one.', 'cairn-maps' ),
			'type'                 => 'object',
			'properties'           => array_merge(
				$view,
				array(
					'engine'        => array(
						'description' => __( 'The map library the map draws with: mapbox (needs the public token) or maplibre (no token).', 'cairn-maps' ),
						'type'        => 'string',
						'enum'        => array( 'mapbox', 'maplibre' ),
					),
					'basemap'       => array(
						'description' => __( 'Who serves the basemap (mapbox, openfreemap, style-url or self-hosted), the glyph URL template of a self-hosted map, the hosts a MapLibre map may contact for it besides the page\'s and the config\'s own, and the attribution to show when the style carries none.', 'cairn-maps' ),
						'type'        => 'object',
						'properties'  => array(
							'provider'    => array(
								'type' => 'string',
								'enum' => array( 'mapbox', 'openfreemap', 'style-url', 'self-hosted' ),
							),
							'glyphs'      => $string,
							'hosts'       => array(
								'type'  => 'array',
								'items' => $string,
							),
							'attribution' => $string,
						),
					),
					'accessToken'   => array(
						'description' => __( 'The site\'s public Mapbox token for a mapbox map; empty for a maplibre map.', 'cairn-maps' ),
						'type'        => 'string',
					),
					'style'         => array(
						'description' => __( 'mapbox://styles/…, an https style URL, or pmtiles:// and the URL of an archive on the site.', 'cairn-maps' ),
						'type'        => 'string',
					),
					'hashName'      => $string,
					'markersUrl'    => $string,
					'shapesUrl'     => array(
						'description' => __( 'The shapes feed (GET /cairn/v1/shapes) of the map\'s marker selection: its lines and areas. Empty when the selection holds no shape: then there is nothing to ask for.', 'cairn-maps' ),
						'type'        => 'string',
					),
					'shapeTilesUrl' => array(
						'description' => __( 'For a map whose shapes hold many positions (at or above the shape tile threshold): the address of its shape tiles (GET /cairn/v1/shapes/tiles/{z}/{x}/{y}), each shape simplified for the zoom, with the literal {z}, {x} and {y} to fill in. Empty when the map downloads the whole shapes feed.', 'cairn-maps' ),
						'type'        => 'string',
					),
					'markerUrl'     => $string,
					'tilesUrl'      => array(
						'description' => __( 'For a map served as tiles (its selection at or above the tile threshold): the address of its tiles (GET /cairn/v1/tiles/{z}/{x}/{y}) with the literal {z}, {x} and {y} to fill in. Empty when the map ships its whole feed.', 'cairn-maps' ),
						'type'        => 'string',
					),
					'placesUrl'     => array(
						'description' => __( 'For a tiled map: the address of its places list (GET /cairn/v1/places). Empty otherwise.', 'cairn-maps' ),
						'type'        => 'string',
					),
					'summaryUrl'    => array(
						'description' => __( 'For a tiled map: the address of its places summary (GET /cairn/v1/places/summary). Empty otherwise.', 'cairn-maps' ),
						'type'        => 'string',
					),
					'consent'       => array(
						'description' => __( 'Whether the map waits for the visitor\'s consent before it contacts its map provider (never for a self-hosted map), and the WP Consent API category that counts as consent (empty without the API).', 'cairn-maps' ),
						'type'        => 'object',
						'properties'  => array(
							'required' => $boolean,
							'category' => $string,
						),
					),
					'units'         => array(
						'description' => __( 'The units of distances, lengths and heights: the site\'s (imperial where the site\'s language measures in miles), the same on the page, in the editor and here.', 'cairn-maps' ),
						'type'        => 'string',
						'enum'        => array( 'metric', 'imperial' ),
					),
					'directions'    => array(
						'description' => __( 'The map app each place\'s "Directions" link opens (none: no link): the block\'s choice, or the site\'s setting when the block follows the site.', 'cairn-maps' ),
						'type'        => 'string',
						'enum'        => array( 'none', 'osm', 'google', 'apple', 'geo' ),
					),
					'geocoder'      => array(
						'description' => __( 'How the places panel looks up an address a visitor typed ("near a place"): site (GET /cairn/v1/geocode/visitor, in geocodeUrl), mapbox (Mapbox temporary geocoding from the browser with the map\'s public token) or none (the map\'s own place names).', 'cairn-maps' ),
						'type'        => 'string',
						'enum'        => array( 'site', 'mapbox', 'none' ),
					),
					'geocodeUrl'    => array(
						'description' => __( 'The site\'s address lookup for visitors when geocoder is site; empty otherwise.', 'cairn-maps' ),
						'type'        => 'string',
					),
					'groupStyles'   => array(
						'type'  => 'array',
						'items' => array(
							'type'       => 'object',
							'properties' => array(
								'slug'        => $string,
								'name'        => $string,
								'color'       => $string,
								'icon'        => $string,
								'lineColor'   => $string,
								'lineWidth'   => array( 'type' => 'number' ),
								'fillOpacity' => array( 'type' => 'number' ),
							),
						),
					),
				)
			),
			'additionalProperties' => true,

		);
	}
}
