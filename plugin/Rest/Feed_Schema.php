<?php
/**
 * What the marker feed route accepts and answers.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Support\Limits;
use WP_Error;

/**
 * The contract of `GET /cairn/v1/markers`: its query parameters (`group`, `include`, `bbox`, and
 * since 0.3.0 `post_type` and `terms`) with their REST args and validation, the repository filters
 * they make, and the JSON schema of the FeatureCollection it answers.
 *
 * With `post_type` the route serves the posts feed (posts with a public place, Post_Places_Feed)
 * instead of the markers: `types` and `terms` filters. `post_type=cairn_marker` alone is the
 * markers feed itself; markers mixed with other types, `terms` without `post_type`, or `group`
 * with it answer 400 (a map asks for its markers and its posts with two URLs).
 *
 * Validation happens here, once, for both ways in: the REST server (through args()) and the
 * early 304 (through query_filters()); what passes is turned into filters without checking again.
 *
 * @since 0.2.0
 */
class Feed_Schema {

	/**
	 * The route's args: each parameter's description, type and validation.
	 *
	 * @return array<string, array<string, mixed>>
	 */
	public function args(): array {
		$validators = $this->validators();
		return array(
			'group'     => array(
				'description'       => __( 'Comma-separated marker group slugs; markers in any of them.', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => $validators['group'],
			),
			'include'   => array(
				'description'       => __( 'Comma-separated marker ids (post ids with post_type).', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => $validators['include'],
			),
			'bbox'      => array(
				'description'       => __( 'Bounding box "west,south,east,north" in degrees. West greater than east selects a box across the antimeridian.', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => $validators['bbox'],
			),
			'post_type' => array(
				'description'       => __( 'Comma-separated post types: serves their published posts with a public place instead of the markers. Types not enabled for places are ignored.', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => $validators['post_type'],
			),
			'terms'     => array(
				'description'       => __( 'With post_type: comma-separated "taxonomy:slug" terms; posts with any of them. Unknown terms are ignored.', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => $validators['terms'],
			),
		);
	}

	/**
	 * The validation of each of the feed's parameters, in the order they are checked.
	 *
	 * @return array{group: callable(mixed): (true|WP_Error), include: callable(mixed): (true|WP_Error), bbox: callable(mixed): (true|WP_Error), post_type: callable(mixed): (true|WP_Error), terms: callable(mixed): (true|WP_Error)}
	 */
	private function validators(): array {
		return array(
			'group'     => array( $this, 'validate_slugs' ),
			'include'   => array( $this, 'validate_ids' ),
			'bbox'      => array( $this, 'validate_bbox' ),
			'post_type' => array( $this, 'validate_post_types' ),
			'terms'     => array( $this, 'validate_terms' ),
		);
	}

	/**
	 * Validates a comma-separated list of post type names.
	 *
	 * @since 0.3.0
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public function validate_post_types( $value ) {
		$max = (int) Limits::get( 'markersQuery.maxGroups' );
		if ( ! is_string( $value ) || 1 !== preg_match( '/^[a-z0-9_-]{1,20}(,[a-z0-9_-]{1,20})*$/', $value ) || count( explode( ',', $value ) ) > $max ) {
			/* translators: %d: most post types per request. */
			return new WP_Error( 'rest_invalid_param', sprintf( __( 'post_type must be a comma-separated list of at most %d post type names.', 'cairn-maps' ), $max ), array( 'status' => 400 ) );
		}
		$types = explode( ',', $value );
		if ( in_array( Post_Type::POST_TYPE, $types, true ) && array() !== array_diff( $types, array( Post_Type::POST_TYPE ) ) ) {
			return new WP_Error( 'rest_invalid_param', __( 'post_type cannot mix markers with other post types: ask for the markers and for the posts separately.', 'cairn-maps' ), array( 'status' => 400 ) );
		}
		return true;
	}

	/**
	 * Validates a comma-separated list of "taxonomy:slug" terms.
	 *
	 * @since 0.3.0
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public function validate_terms( $value ) {
		$max  = (int) Limits::get( 'markersQuery.maxGroups' );
		$term = '[a-z0-9_-]{1,32}:[a-z0-9_%-]{1,200}';
		if ( ! is_string( $value ) || 1 !== preg_match( '/^' . $term . '(,' . $term . ')*$/', $value ) || count( explode( ',', $value ) ) > $max ) {
			/* translators: %d: most terms per request. */
			return new WP_Error( 'rest_invalid_param', sprintf( __( 'terms must be a comma-separated list of at most %d "taxonomy:slug" terms.', 'cairn-maps' ), $max ), array( 'status' => 400 ) );
		}
		return true;
	}

	/**
	 * The error of parameters that are valid one by one but not together: `terms` without a post
	 * type, `group` with one (markers' groups; posts are narrowed by `terms`). Null when they go
	 * together.
	 *
	 * @since 0.3.0
	 *
	 * @param array<string, mixed> $params The feed's parameters.
	 */
	public static function combination_error( array $params ): ?WP_Error {
		$posts = self::post_types( $params['post_type'] ?? null );
		if ( array() === $posts && is_string( $params['terms'] ?? null ) && '' !== $params['terms'] ) {
			return new WP_Error( 'rest_invalid_param', __( 'terms narrows posts: it needs post_type (markers are narrowed by group).', 'cairn-maps' ), array( 'status' => 400 ) );
		}
		if ( array() !== $posts && is_string( $params['group'] ?? null ) && '' !== $params['group'] ) {
			return new WP_Error( 'rest_invalid_param', __( 'group narrows markers: posts are narrowed by terms.', 'cairn-maps' ), array( 'status' => 400 ) );
		}
		return null;
	}

	/**
	 * The post types a validated `post_type` asks for, markers aside (`cairn_marker` alone is the
	 * markers feed).
	 *
	 * @param mixed $value The parameter.
	 * @return string[]
	 */
	private static function post_types( $value ): array {
		if ( ! is_string( $value ) || '' === $value ) {
			return array();
		}
		return array_values( array_diff( explode( ',', $value ), array( Post_Type::POST_TYPE ) ) );
	}

	/**
	 * Validates a comma-separated slug list.
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public function validate_slugs( $value ) {
		$max = (int) Limits::get( 'markersQuery.maxGroups' );
		if ( ! is_string( $value ) || 1 !== preg_match( '/^[a-z0-9_-]+(,[a-z0-9_-]+)*$/', $value ) || count( explode( ',', $value ) ) > $max ) {
			/* translators: %d: most groups per request. */
			return new WP_Error( 'rest_invalid_param', sprintf( __( 'group must be a comma-separated list of at most %d marker group slugs.', 'cairn-maps' ), $max ), array( 'status' => 400 ) );
		}
		return true;
	}

	/**
	 * Validates a comma-separated id list.
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public function validate_ids( $value ) {
		$max = (int) Limits::get( 'markersQuery.maxInclude' );
		if ( ! is_string( $value ) || 1 !== preg_match( '/^[1-9][0-9]{0,18}(,[1-9][0-9]{0,18})*$/', $value ) || count( explode( ',', $value ) ) > $max ) {
			/* translators: %d: most ids per request. */
			return new WP_Error( 'rest_invalid_param', sprintf( __( 'include must be a comma-separated list of at most %d marker ids.', 'cairn-maps' ), $max ), array( 'status' => 400 ) );
		}
		return true;
	}

	/**
	 * Validates a bounding box: four finite numbers, longitudes within −180…180, latitudes within
	 * −90…90 and south ≤ north. West may exceed east: the box then crosses the antimeridian.
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public function validate_bbox( $value ) {
		$bbox = is_string( $value ) ? self::parse_bbox( $value ) : null;
		if ( null === $bbox ) {
			return new WP_Error(
				'rest_invalid_param',
				__( 'bbox must be "west,south,east,north": longitudes between -180 and 180, latitudes between -90 and 90, south not above north.', 'cairn-maps' ),
				array( 'status' => 400 )
			);
		}
		return true;
	}

	/**
	 * Parses a comma-separated list of plain decimal numbers of degrees (at most three integer
	 * and fifteen fractional digits, an optional minus: no exponent, no spaces inside a number).
	 *
	 * @since 0.6.0
	 *
	 * @param string $value The parameter.
	 * @param int    $count How many numbers it must hold.
	 * @return float[]|null The numbers, or null when invalid.
	 */
	public static function parse_degrees( string $value, int $count ): ?array {
		$parts = explode( ',', $value );
		if ( count( $parts ) !== $count ) {
			return null;
		}
		$numbers = array();
		foreach ( $parts as $part ) {
			$part = trim( $part );
			if ( 1 !== preg_match( '/^-?(\d{1,3}(\.\d{1,15})?|\.\d{1,15})$/', $part ) ) {
				return null;
			}
			$numbers[] = (float) $part;
		}
		return $numbers;
	}

	/**
	 * Parses a bounding box.
	 *
	 * @param string $value "west,south,east,north".
	 * @return float[]|null The four numbers, or null when invalid.
	 */
	public static function parse_bbox( string $value ): ?array {
		$numbers = self::parse_degrees( $value, 4 );
		if ( null === $numbers ) {
			return null;
		}
		list( $west, $south, $east, $north ) = $numbers;
		$lng_min                             = (float) Limits::get( 'longitude.min' );
		$lng_max                             = (float) Limits::get( 'longitude.max' );
		$lat_min                             = (float) Limits::get( 'markerLatitude.min' );
		$lat_max                             = (float) Limits::get( 'markerLatitude.max' );
		foreach ( array( $west, $east ) as $lng ) {
			if ( $lng < $lng_min || $lng > $lng_max ) {
				return null;
			}
		}
		foreach ( array( $south, $north ) as $lat ) {
			if ( $lat < $lat_min || $lat > $lat_max ) {
				return null;
			}
		}
		return $south <= $north ? $numbers : null;
	}

	/**
	 * Repository filters from raw query parameters (the early 304, before the REST server), or
	 * null when one of the feed's parameters is invalid: the REST server then answers 400.
	 *
	 * @param array<string, mixed> $query Query parameters (unslashed).
	 * @return array{groups?: string[], ids?: int[], bbox?: float[]}|null
	 */
	public function query_filters( array $query ): ?array {
		foreach ( $this->validators() as $name => $validate ) {
			if ( isset( $query[ $name ] ) && true !== $validate( $query[ $name ] ) ) {
				return null;
			}
		}
		if ( null !== self::combination_error( $query ) ) {
			return null;
		}
		return self::filters( $query );
	}

	/**
	 * Repository filters from validated parameters; absent or empty ones filter nothing. With post
	 * types (markers aside), the posts feed's: `types` and `terms` beside `ids` and `bbox`.
	 *
	 * @since 0.3.0 `types` and `terms`.
	 *
	 * @param array<string, mixed> $params The feed's parameters (group, include, bbox, post_type, terms).
	 * @return array{groups?: string[], ids?: int[], bbox?: float[], types?: string[], terms?: string[]}
	 */
	public static function filters( array $params ): array {
		$filters = array();
		$types   = self::post_types( $params['post_type'] ?? null );
		if ( array() !== $types ) {
			$filters['types'] = $types;
			$terms            = $params['terms'] ?? null;
			if ( is_string( $terms ) && '' !== $terms ) {
				$filters['terms'] = explode( ',', $terms );
			}
		}
		$group   = $params['group'] ?? null;
		$include = $params['include'] ?? null;
		$box     = $params['bbox'] ?? null;
		if ( is_string( $group ) && '' !== $group ) {
			$filters['groups'] = explode( ',', $group );
		}
		if ( is_string( $include ) && '' !== $include ) {
			$filters['ids'] = array_map( 'intval', explode( ',', $include ) );
		}
		if ( is_string( $box ) && '' !== $box ) {
			$bbox = self::parse_bbox( $box );
			if ( null !== $bbox ) {
				$filters['bbox'] = $bbox;
			}
		}
		return $filters;
	}

	/**
	 * The JSON schema of the feed, for discovery (`OPTIONS /cairn/v1/markers`).
	 *
	 * @return array<string, mixed>
	 */
	public function get_feed_schema(): array {
		return self::feature_collection(
			'cairn-markers-feature-collection',
			array(
				'id'         => array( 'type' => 'integer' ),
				'geometry'   => array(
					'type'       => 'object',
					'properties' => array(
						'type'        => array(
							'type' => 'string',
							'enum' => array( 'Point' ),
						),
						'coordinates' => array(
							'description' => __( '[longitude, latitude] in degrees, 5 decimals.', 'cairn-maps' ),
							'type'        => 'array',
							'items'       => array( 'type' => 'number' ),
						),
					),
				),
				'properties' => array(
					'type'       => 'object',
					'properties' => array(
						'title'  => array(
							'description' => __( 'Title as plain text.', 'cairn-maps' ),
							'type'        => 'string',
						),
						'groups' => array(
							'description' => __( 'Marker group slugs; for posts, "taxonomy:slug" of their terms in public hierarchical taxonomies (categories).', 'cairn-maps' ),
							'type'        => 'array',
							'items'       => array( 'type' => 'string' ),
						),
						'type'   => array(
							'description' => __( 'The post type, for posts (absent for markers).', 'cairn-maps' ),
							'type'        => 'string',
						),
						'thumb'  => array(
							'description' => __( 'For posts with a featured image: its URL at thumbnail size.', 'cairn-maps' ),
							'type'        => 'string',
							'format'      => 'uri',
						),
					),
				),
			)
		);
	}

	/**
	 * The JSON schema of the shapes feed, for discovery (`OPTIONS /cairn/v1/shapes`).
	 *
	 * @since 0.5.0
	 *
	 * @return array<string, mixed>
	 */
	public function get_shapes_schema(): array {
		$number  = array( 'type' => 'number' );
		$integer = array( 'type' => 'integer' );
		return self::feature_collection(
			'cairn-shapes-feature-collection',
			array(
				'id'         => array(
					'description' => __( 'The marker\'s post id.', 'cairn-maps' ),
					'type'        => 'integer',
				),
				'geometry'   => array(
					'description' => __( 'The shape simplified for the map: positions [longitude, latitude], at most 6 decimals.', 'cairn-maps' ),
					'type'        => 'object',
					'properties'  => array(
						'type'        => array(
							'type' => 'string',
							'enum' => array( 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon' ),
						),
						'coordinates' => array( 'type' => 'array' ),
					),
				),
				'properties' => array(
					'type'       => 'object',
					'properties' => array(
						'title'     => array(
							'description' => __( 'Title as plain text.', 'cairn-maps' ),
							'type'        => 'string',
						),
						'groups'    => array(
							'description' => __( 'Marker group slugs.', 'cairn-maps' ),
							'type'        => 'array',
							'items'       => array( 'type' => 'string' ),
						),
						'bbox'      => array(
							'description' => __( 'The shape\'s bounding box [west, south, east, north] in degrees.', 'cairn-maps' ),
							'type'        => 'array',
							'items'       => $number,
						),
						'length_m'  => array(
							'description' => __( 'For lines: length in metres.', 'cairn-maps' ),
							'type'        => 'integer',
						),
						'ascent_m'  => array(
							'description' => __( 'Total ascent in metres, when every position has an elevation.', 'cairn-maps' ),
							'type'        => 'integer',
						),
						'descent_m' => array(
							'description' => __( 'Total descent in metres, when every position has an elevation.', 'cairn-maps' ),
							'type'        => 'integer',
						),
						'profile'   => array(
							'description' => __( 'Elevation profile: at most 100 [distance in metres, elevation in metres] pairs.', 'cairn-maps' ),
							'type'        => 'array',
							'items'       => array(
								'type'  => 'array',
								'items' => $integer,
							),
						),
					),
				),
			)
		);
	}

	/**
	 * A GeoJSON FeatureCollection's schema whose features have these members besides `type`.
	 *
	 * @param string               $title   The schema's title.
	 * @param array<string, mixed> $members The features' members (id, geometry, properties).
	 * @return array<string, mixed>
	 */
	private static function feature_collection( string $title, array $members ): array {
		return array(
			'$schema'    => 'http://json-schema.org/draft-04/schema#',
			'title'      => $title,
			'type'       => 'object',
			'properties' => array(
				'type'     => array(
					'type' => 'string',
					'enum' => array( 'FeatureCollection' ),
				),
				'features' => array(
					'type'  => 'array',
					'items' => array(
						'type'       => 'object',
						'properties' => array(
							'type' => array(
								'type' => 'string',
								'enum' => array( 'Feature' ),
							),
						) + $members,
					),
				),
			),
		);
	}
}
