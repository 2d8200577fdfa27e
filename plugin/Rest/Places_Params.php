<?php
/**
 * The selection and filter parameters of the tiled routes.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Index\Place_Filter;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Support\Limits;
use WP_Error;

/**
 * The parameters `/cairn/v1/tiles/<z>/<x>/<y>`, `/cairn/v1/places` and `/cairn/v1/places/summary`
 * share, in one place so the three routes validate them alike: `group` (the map's selection,
 * slugs, as the markers feed), `hidden` (slugs the visitor switched off), `q` (a search) and `v`
 * (the markers version the URL was made for). Since 0.10.0 a selection may hold posts too:
 * `post_type` and `terms` as the posts feed takes them, and `markers=none` for posts alone; a
 * post's groups are switched off by their keys (`category:news`). Each bad value answers 400
 * `rest_invalid_param` with a message naming it.
 *
 * @since 0.6.0
 */
final class Places_Params {

	/**
	 * The route arguments of the four parameters, to merge into a route's `args`.
	 *
	 * @return array<string, array<string, mixed>>
	 */
	public static function args(): array {
		return array(
			'group'     => array(
				'description'       => __( 'The map\'s selection: comma-separated marker group slugs (as the markers feed); places of any of them.', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => array( self::class, 'validate_group' ),
			),
			'hidden'    => array(
				'description'       => __( 'Comma-separated group slugs switched off: a place is shown when it has no group or any group not switched off.', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => array( self::class, 'validate_hidden' ),
			),
			'post_type' => array(
				'description'       => __( 'Posts in the selection: comma-separated post types enabled for locations (as the posts feed).', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => array( self::class, 'validate_post_types' ),
			),
			'terms'     => array(
				'description'       => __( 'With post_type: comma-separated "taxonomy:slug" group terms; posts with any of them.', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => array( self::class, 'validate_terms' ),
			),
			'markers'   => array(
				'description'       => __( '"none": the selection holds no markers (posts only, with post_type).', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => array( self::class, 'validate_markers' ),
			),
			'q'         => array(
				'description'       => __( 'Search: every word must start a word of the place\'s title or of one of its group names (accents and case ignored).', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => array( self::class, 'validate_search' ),
			),
			'v'         => array(
				'description'       => __( 'The markers version the address was made for: answers for the current version may be cached for good.', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => array( self::class, 'validate_version' ),
			),
		);
	}

	/**
	 * Validates `group`.
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public static function validate_group( $value ) {
		if ( self::is_slug_list( $value ) ) {
			return true;
		}
		/* translators: %d: most groups per request. */
		return self::error( sprintf( __( 'group must be a comma-separated list of at most %d marker group slugs.', 'cairn-maps' ), self::max_groups() ) );
	}

	/**
	 * Validates `hidden` (empty: nothing switched off).
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public static function validate_hidden( $value ) {
		if ( '' === $value || self::is_slug_list( $value, true ) ) {
			return true;
		}
		/* translators: %d: most groups per request. */
		return self::error( sprintf( __( 'hidden must be a comma-separated list of at most %d group slugs or "taxonomy:slug" keys.', 'cairn-maps' ), self::max_groups() ) );
	}

	/**
	 * Validates `post_type` (as the posts feed does: no markers among them).
	 *
	 * @since 0.10.0
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public static function validate_post_types( $value ) {
		$valid = ( new Feed_Schema() )->validate_post_types( $value );
		if ( true === $valid && in_array( Post_Type::POST_TYPE, explode( ',', (string) $value ), true ) ) {
			return self::error( __( 'post_type names posts: markers are selected by group (or markers=none for none).', 'cairn-maps' ) );
		}
		return $valid;
	}

	/**
	 * Validates `terms` (as the posts feed does).
	 *
	 * @since 0.10.0
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public static function validate_terms( $value ) {
		return ( new Feed_Schema() )->validate_terms( $value );
	}

	/**
	 * Validates `markers`: only `none`.
	 *
	 * @since 0.10.0
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public static function validate_markers( $value ) {
		return 'none' === $value ? true : self::error( __( 'markers must be "none" (a selection of posts alone) or absent.', 'cairn-maps' ) );
	}

	/**
	 * The error of parameters valid one by one but not together, or null.
	 *
	 * @since 0.10.0
	 *
	 * @param array<string, mixed> $params The route's parameters.
	 */
	public static function combination_error( array $params ): ?WP_Error {
		$types = self::slugs( $params['post_type'] ?? null );
		if ( array() === $types && ( '' !== (string) ( $params['terms'] ?? '' ) || isset( $params['markers'] ) ) ) {
			return self::error( __( 'terms and markers=none describe posts: they need post_type.', 'cairn-maps' ) );
		}
		if ( isset( $params['markers'] ) && '' !== (string) ( $params['group'] ?? '' ) ) {
			return self::error( __( 'group narrows markers: it cannot go with markers=none.', 'cairn-maps' ) );
		}
		return null;
	}

	/**
	 * Validates `q`: text of at most `search.maxLength` characters once trimmed.
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public static function validate_search( $value ) {
		$max = (int) Limits::get( 'search.maxLength' );
		if ( is_string( $value ) && 1 === preg_match( '//u', $value ) && mb_strlen( trim( $value ), 'UTF-8' ) <= $max ) {
			return true;
		}
		/* translators: %d: most characters of a search. */
		return self::error( sprintf( __( 'q must be text of at most %d characters.', 'cairn-maps' ), $max ) );
	}

	/**
	 * Validates `v`.
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public static function validate_version( $value ) {
		if ( is_string( $value ) && 1 === preg_match( '/^[A-Za-z0-9._-]{1,64}$/', $value ) ) {
			return true;
		}
		return self::error( __( 'v must be a version token: 1 to 64 letters, digits, dots, dashes or underscores.', 'cairn-maps' ) );
	}

	/**
	 * The filter of validated parameters (absent or empty ones filter nothing).
	 *
	 * @param array<string, mixed> $params The route's parameters (group, hidden, q).
	 */
	public static function filter( array $params ): Place_Filter {
		$filter = new Place_Filter(
			self::slugs( $params['group'] ?? null ),
			self::slugs( $params['hidden'] ?? null ),
			is_string( $params['q'] ?? null ) ? trim( $params['q'] ) : ''
		);
		$types  = self::slugs( $params['post_type'] ?? null );
		return array() === $types ? $filter : $filter->with_posts( 'none' !== ( $params['markers'] ?? '' ), $types, self::slugs( $params['terms'] ?? null ) );
	}

	/**
	 * The version a validated `v` names, '' when absent.
	 *
	 * @param mixed $value The parameter.
	 */
	public static function version( $value ): string {
		return is_string( $value ) ? $value : '';
	}

	/**
	 * Slugs of a validated list (`group`, `hidden`), sorted and unique; none for '' or absent.
	 *
	 * @param mixed $value The parameter.
	 * @return string[]
	 */
	public static function slugs( $value ): array {
		if ( ! is_string( $value ) || '' === $value ) {
			return array();
		}
		$slugs = array_values( array_unique( explode( ',', $value ) ) );
		sort( $slugs );
		return $slugs;
	}

	/**
	 * Whether a value is a list of group slugs, within the feed's bound.
	 *
	 * @param mixed $value Parameter value.
	 * @param bool  $keys  Whether posts' group keys (`taxonomy:slug`) may be among them.
	 */
	private static function is_slug_list( $value, bool $keys = false ): bool {
		$slug = $keys ? '(?:[a-z0-9_-]{1,32}:[a-z0-9_%-]{1,200}|[a-z0-9_-]{1,200})' : '[a-z0-9_-]{1,200}';
		return is_string( $value ) && 1 === preg_match( '/^' . $slug . '(,' . $slug . ')*$/', $value ) && count( explode( ',', $value ) ) <= self::max_groups();
	}

	/**
	 * Most groups a list may name (the markers feed's).
	 */
	private static function max_groups(): int {
		return (int) Limits::get( 'markersQuery.maxGroups' );
	}

	/**
	 * A 400.
	 *
	 * @param string $message Translated message.
	 */
	private static function error( string $message ): WP_Error {
		return new WP_Error( 'rest_invalid_param', $message, array( 'status' => 400 ) );
	}
}
