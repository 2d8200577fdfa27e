<?php
/**
 * What the marker feed route accepts and answers.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Limits;
use WP_Error;

/**
 * The contract of `GET /cairn/v1/markers`: its query parameters (`group`, `include`, `bbox`) with
 * their REST args and validation, the repository filters they make, and the JSON schema of the
 * FeatureCollection it answers.
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
			'group'   => array(
				'description'       => __( 'Comma-separated marker group slugs; markers in any of them.', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => $validators['group'],
			),
			'include' => array(
				'description'       => __( 'Comma-separated marker ids.', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => $validators['include'],
			),
			'bbox'    => array(
				'description'       => __( 'Bounding box "west,south,east,north" in degrees. West greater than east selects a box across the antimeridian.', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => $validators['bbox'],
			),
		);
	}

	/**
	 * The validation of each of the feed's parameters, in the order they are checked.
	 *
	 * @return array{group: callable(mixed): (true|WP_Error), include: callable(mixed): (true|WP_Error), bbox: callable(mixed): (true|WP_Error)}
	 */
	private function validators(): array {
		return array(
			'group'   => array( $this, 'validate_slugs' ),
			'include' => array( $this, 'validate_ids' ),
			'bbox'    => array( $this, 'validate_bbox' ),
		);
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
	 * Parses a bounding box.
	 *
	 * @param string $value "west,south,east,north".
	 * @return float[]|null The four numbers, or null when invalid.
	 */
	public static function parse_bbox( string $value ): ?array {
		$parts = explode( ',', $value );
		if ( 4 !== count( $parts ) ) {
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
		return self::filters( $query );
	}

	/**
	 * Repository filters from validated parameters; absent or empty ones filter nothing.
	 *
	 * @param array<string, mixed> $params The feed's parameters (group, include, bbox).
	 * @return array{groups?: string[], ids?: int[], bbox?: float[]}
	 */
	public static function filters( array $params ): array {
		$filters = array();
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
		return array(
			'$schema'    => 'http://json-schema.org/draft-04/schema#',
			'title'      => 'cairn-markers-feature-collection',
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
							'type'       => array(
								'type' => 'string',
								'enum' => array( 'Feature' ),
							),
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
										'type'  => 'array',
										'items' => array( 'type' => 'string' ),
									),
								),
							),
						),
					),
				),
			),
		);
	}
}
