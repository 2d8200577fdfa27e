<?php
/**
 * What the places routes accept.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Index\Place_Filter;
use Cairn\Maps\Support\Limits;
use WP_Error;

/**
 * The parameters of `GET /cairn/v1/places` and `GET /cairn/v1/places/summary` (the places panel of
 * a tiled map), their REST args and validation, and the canonical form of a valid request (what
 * its ETag and cache key are made of).
 *
 * Selection and filter (both routes): `group`, `hidden`, `q`, `v`, validated as the tiles route
 * does (Places_Params), and `near` ("lng,lat") with `radius` (metres, min_radius()…max_radius():
 * only the places within that great-circle distance of `near`; `radius` without `near` is a
 * 400). The list (`/places` only): `bbox` (the feed's rule), `near` alone (places sorted by
 * distance), `page` (1-based), `per_page` (1…max_per_page()), `include` (one post id).
 *
 * @since 0.6.0
 */
final class Search_Params {

	/**
	 * Most places a page of the list holds (and the default): the panel's page, limits.json
	 * `markerList.maxItems`.
	 */
	public static function max_per_page(): int {
		return (int) Limits::get( 'markerList.maxItems' );
	}

	/**
	 * Highest page asked for (past the last page the list is empty anyway).
	 */
	public const MAX_PAGE = 1000000;

	/**
	 * The parameters of both routes.
	 */
	public const FILTER_PARAMS = array( 'group', 'post_type', 'terms', 'markers', 'hidden', 'q', 'v', 'near', 'radius' );

	/**
	 * The parameters of the list beside the filter.
	 */
	public const LIST_PARAMS = array( 'bbox', 'page', 'per_page', 'include' );

	/**
	 * Smallest radius around `near`, in metres (limits.json `near.minRadius`).
	 *
	 * @since 0.8.0
	 */
	public static function min_radius(): int {
		return (int) Limits::get( 'near.minRadius' );
	}

	/**
	 * Largest radius around `near`, in metres (limits.json `near.maxRadius`).
	 *
	 * @since 0.8.0
	 */
	public static function max_radius(): int {
		return (int) Limits::get( 'near.maxRadius' );
	}

	/**
	 * The markers feed's rules (bbox).
	 *
	 * @var Feed_Schema
	 */
	private Feed_Schema $feed;

	/**
	 * Creates the rules.
	 */
	public function __construct() {
		$this->feed = new Feed_Schema();
	}

	/**
	 * The REST args of the summary (`$list` false) or of the list (true).
	 *
	 * @param bool $with_list Whether the list's parameters are accepted.
	 * @return array<string, array<string, mixed>>
	 */
	public function args( bool $with_list ): array {
		// The selection and filter, as the tiles route has them, and the circle.
		$args = Places_Params::args() + array(
			'near'   => array(
				'description'       => $with_list
					? __( 'A position "longitude,latitude": places sorted by distance from it, with their distance in metres; with radius, only those within it.', 'cairn-maps' )
					: __( 'A position "longitude,latitude": with radius, only the places within that distance of it.', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => array( $this, 'validate_near' ),
			),
			'radius' => array(
				/* translators: 1: smallest radius, 2: largest radius, in metres. */
				'description'       => sprintf( __( 'With near: only the places within this many metres of it (%1$d to %2$d).', 'cairn-maps' ), self::min_radius(), self::max_radius() ),
				'type'              => 'integer',
				'validate_callback' => array( $this, 'validate_radius' ),
			),
		);
		if ( ! $with_list ) {
			return $args;
		}
		return $args + array(
			'bbox'     => array(
				'description'       => __( 'Bounding box "west,south,east,north" in degrees. West greater than east selects a box across the antimeridian.', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => array( $this->feed, 'validate_bbox' ),
			),
			'page'     => array(
				'description'       => __( 'The page of the list, from 1.', 'cairn-maps' ),
				'type'              => 'integer',
				'validate_callback' => array( $this, 'validate_page' ),
			),
			'per_page' => array(
				/* translators: %d: most places a page. */
				'description'       => sprintf( __( 'Places a page, 1 to %d.', 'cairn-maps' ), self::max_per_page() ),
				'type'              => 'integer',
				'validate_callback' => array( $this, 'validate_per_page' ),
			),
			'include'  => array(
				'description'       => __( 'One marker id: that place alone, when it is in the selection (deep links).', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => array( $this, 'validate_include' ),
			),
		);
	}

	/**
	 * Validates `near`: "longitude,latitude" within the feed's ranges.
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public function validate_near( $value ) {
		if ( ! is_string( $value ) || null === self::parse_near( $value ) ) {
			return self::error( __( 'near must be "longitude,latitude": a longitude between -180 and 180 and a latitude between -90 and 90.', 'cairn-maps' ) );
		}
		return true;
	}

	/**
	 * Validates `radius`: whole metres from min_radius() to max_radius(), and only with `near`.
	 *
	 * @since 0.8.0
	 *
	 * @param mixed                 $value   Parameter value.
	 * @param \WP_REST_Request|null $request The request (whether it has `near`).
	 * @return true|WP_Error
	 */
	public function validate_radius( $value, $request = null ) {
		return self::radius_error( $value, $request instanceof \WP_REST_Request ? $request->get_param( 'near' ) : null, 'near' ) ?? true;
	}

	/**
	 * Why a radius (metres) around a position is refused, or null: whole metres from
	 * min_radius() to max_radius(), and a position beside it. The tiles route shares it (its
	 * parameter is `near_radius`, `radius` being the cluster radius there).
	 *
	 * @since 0.8.0
	 *
	 * @param mixed  $value The radius.
	 * @param mixed  $near  The position parameter's value (null or '' when absent).
	 * @param string $name  The position parameter's name, for the message.
	 */
	public static function radius_error( $value, $near, string $name ): ?WP_Error {
		if ( null === self::whole( $value, self::min_radius(), self::max_radius() ) ) {
			/* translators: 1: smallest radius, 2: largest radius, in metres. */
			return self::error( sprintf( __( 'radius must be a whole number of metres from %1$d to %2$d.', 'cairn-maps' ), self::min_radius(), self::max_radius() ) );
		}
		if ( ! is_string( $near ) || '' === $near ) {
			/* translators: %s: the parameter's name, "near". */
			return self::error( sprintf( __( 'radius needs %s: the position "longitude,latitude" to measure from.', 'cairn-maps' ), $name ) );
		}
		return null;
	}

	/**
	 * The circle of validated parameters: [lng, lat, metres], or null without a radius.
	 *
	 * @since 0.8.0
	 *
	 * @param mixed $near   The `near` parameter.
	 * @param mixed $radius The radius parameter.
	 * @return array{0: float, 1: float, 2: int}|null
	 */
	public static function circle( $near, $radius ): ?array {
		$point  = is_string( $near ) && '' !== $near ? self::parse_near( $near ) : null;
		$metres = self::whole( $radius, self::min_radius(), self::max_radius() );
		return null === $point || null === $metres ? null : array( $point[0], $point[1], $metres );
	}

	/**
	 * Validates `page`: a whole number from 1.
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public function validate_page( $value ) {
		if ( null === self::whole( $value, 1, self::MAX_PAGE ) ) {
			/* translators: %d: highest page. */
			return self::error( sprintf( __( 'page must be a whole number from 1 to %d.', 'cairn-maps' ), self::MAX_PAGE ) );
		}
		return true;
	}

	/**
	 * Validates `per_page`: a whole number from 1 to MAX_PER_PAGE.
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public function validate_per_page( $value ) {
		if ( null === self::whole( $value, 1, self::max_per_page() ) ) {
			/* translators: %d: most places a page. */
			return self::error( sprintf( __( 'per_page must be a whole number from 1 to %d.', 'cairn-maps' ), self::max_per_page() ) );
		}
		return true;
	}

	/**
	 * Validates `include`: one post id.
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public function validate_include( $value ) {
		if ( ! is_string( $value ) || 1 !== preg_match( '/^[1-9][0-9]{0,18}$/', $value ) ) {
			return self::error( __( 'include must be one marker id.', 'cairn-maps' ) );
		}
		return true;
	}

	/**
	 * A whole number within a range given as an integer or digits, else null.
	 *
	 * @param mixed $value The value.
	 * @param int   $min   Lowest.
	 * @param int   $max   Highest.
	 */
	private static function whole( $value, int $min, int $max ): ?int {
		if ( is_int( $value ) ) {
			$number = $value;
		} elseif ( is_string( $value ) && 1 === preg_match( '/^[0-9]{1,9}$/', $value ) ) {
			$number = (int) $value;
		} else {
			return null;
		}
		return $number >= $min && $number <= $max ? $number : null;
	}

	/**
	 * Parses "lng,lat".
	 *
	 * @param string $value The parameter.
	 * @return array{0: float, 1: float}|null
	 */
	public static function parse_near( string $value ): ?array {
		$numbers = Feed_Schema::parse_degrees( $value, 2 );
		if ( null === $numbers || abs( $numbers[0] ) > 180 || abs( $numbers[1] ) > 90 ) {
			return null;
		}
		return array( $numbers[0], $numbers[1] );
	}

	/**
	 * The search filter of validated parameters, in canonical form: `groups` (selection, sorted),
	 * `hidden` (sorted, unique), `q` (trimmed).
	 *
	 * @param array<string, mixed> $params Validated parameters.
	 */
	public static function filter( array $params ): Place_Filter {
		return Places_Params::filter( $params )->with_circle( self::circle( $params['near'] ?? null, $params['radius'] ?? null ) );
	}

	/**
	 * The list query of validated parameters, in canonical form.
	 *
	 * @param array<string, mixed> $params Validated parameters.
	 * @return array{bbox: float[]|null, near: float[]|null, page: int, per_page: int, include: int}
	 */
	public static function list_query( array $params ): array {
		$bbox = is_string( $params['bbox'] ?? null ) && '' !== $params['bbox'] ? Feed_Schema::parse_bbox( $params['bbox'] ) : null;
		$near = is_string( $params['near'] ?? null ) && '' !== $params['near'] ? self::parse_near( $params['near'] ) : null;
		return array(
			'bbox'     => $bbox,
			'near'     => $near,
			'page'     => self::whole( $params['page'] ?? null, 1, self::MAX_PAGE ) ?? 1,
			'per_page' => self::whole( $params['per_page'] ?? null, 1, self::max_per_page() ) ?? self::max_per_page(),
			'include'  => is_string( $params['include'] ?? null ) && '' !== $params['include'] ? (int) $params['include'] : 0,
		);
	}

	/**
	 * A 400 with this message.
	 *
	 * @param string $message Translated message.
	 */
	private static function error( string $message ): WP_Error {
		return new WP_Error( 'rest_invalid_param', $message, array( 'status' => 400 ) );
	}
}
