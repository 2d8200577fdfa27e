<?php
/**
 * The `[cairn_map]` shortcode's flat attributes, as the block's.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Support\Limits;
use Cairn\Maps\Support\Map_Schema;
use WP_Block_Type;

/**
 * Turns a shortcode's attributes (flat strings: `center="48.85,2.35" zoom="5" groups="museums"`)
 * into the block's attributes (`center: { lng, lat }`, `markers: { source, groups, ids }`, …) and
 * names the first one that breaks its rule.
 *
 * Only the form is read here (a number, a list, `taxonomy:slug` pairs): text that does not have
 * the form is passed on as it is, and the block's own rules refuse it. Whether a value is allowed
 * is decided by the rules the block renders with, never here: Map_Attributes::refused() for the
 * map's attributes (map-schema.json, the style hosts, the post types with locations), and the
 * registered block type's schema for the block supports (`align`, `anchor`, `className`).
 *
 * The table of names is in docs/developers.md ("The [cairn_map] shortcode").
 *
 * @since 0.8.0
 */
final class Shortcode_Attributes {

	/**
	 * Longest value read, in bytes: a longer one is refused unread (no rule takes more: 500 ids).
	 */
	public const MAX_LENGTH = 8192;

	/**
	 * The flat attributes, in the documented order: each one's form and the block attribute (or
	 * `attribute.property`) it writes.
	 */
	private const NAMES = array(
		'center'               => array( 'center', 'center' ),
		'zoom'                 => array( 'number', 'zoom' ),
		'min_zoom'             => array( 'number', 'minZoom' ),
		'max_zoom'             => array( 'number', 'maxZoom' ),
		'bearing'              => array( 'number', 'bearing' ),
		'pitch'                => array( 'number', 'pitch' ),
		'style'                => array( 'text', 'mapStyle' ),
		'height'               => array( 'text', 'height' ),
		'controls'             => array( 'switches', 'controls' ),
		'language'             => array( 'text', 'language' ),
		'languages'            => array( 'list', 'languages' ),
		'markers'              => array( 'text', 'markers.source' ),
		'groups'               => array( 'list', 'markers.groups' ),
		'ids'                  => array( 'ids', 'markers.ids' ),
		'posts'                => array( 'list', 'content.postTypes' ),
		'terms'                => array( 'terms', 'content.terms' ),
		'current'              => array( 'boolean', 'content.current' ),
		'cluster'              => array( 'boolean', 'cluster.enabled' ),
		'cluster_radius'       => array( 'number', 'cluster.radius' ),
		'places'               => array( 'switches', 'places' ),
		'hash'                 => array( 'boolean', 'hash' ),
		'cooperative_gestures' => array( 'boolean', 'cooperativeGestures' ),
		'directions'           => array( 'text', 'directions' ),
		'anchor'               => array( 'support', 'anchor' ),
		'class'                => array( 'support', 'className' ),
		'align'                => array( 'support', 'align' ),
	);

	/**
	 * Words a boolean attribute takes, and what they mean.
	 */
	private const BOOLEANS = array(
		'true'  => true,
		'1'     => true,
		'yes'   => true,
		'on'    => true,
		'false' => false,
		'0'     => false,
		'no'    => false,
		'off'   => false,
	);

	/**
	 * The flat names of the map's attributes (`pattern` aside), in the documented order.
	 *
	 * @return string[]
	 */
	public static function names(): array {
		return array_keys( self::NAMES );
	}

	/**
	 * The shortcode's own attributes, by flat name, as WordPress parsed them
	 * (shortcode_parse_atts(): names in lower case, values as written). A value without a name
	 * that reads `name=…` with a known name (quotes that did not close, as when a value holds a
	 * `]`) is that attribute, broken: it is given as '' so that its rule refuses it rather than
	 * the map being drawn without it. Other unnamed values and unknown names are left out.
	 *
	 * @param mixed $atts The shortcode's attributes ('' when there are none).
	 * @return array<string, string>
	 */
	public static function given( $atts ): array {
		$given = array();
		foreach ( is_array( $atts ) ? $atts : array() as $name => $value ) {
			if ( is_int( $name ) ) {
				$name  = is_string( $value ) && 1 === preg_match( '/^([\w-]+)\s*=/', $value, $match ) ? strtolower( $match[1] ) : '';
				$value = '';
			}
			if ( ( isset( self::NAMES[ $name ] ) || 'pattern' === $name ) && ! isset( $given[ $name ] ) ) {
				$given[ $name ] = is_scalar( $value ) ? (string) $value : '';
			}
		}
		return $given;
	}

	/**
	 * The block attributes of a shortcode's map attributes, and the first flat name whose value
	 * the block's rules do not keep as given (null when every one keeps its rule).
	 *
	 * @param array<string, string> $given    Attributes by flat name (given()).
	 * @param WP_Block_Type         $type     The registered `cairn/map`.
	 * @param array<string, mixed>  $defaults Its block.json defaults (Map_Block::defaults()).
	 * @return array{attributes: array<string, mixed>, invalid: string|null}
	 */
	public static function parse( array $given, WP_Block_Type $type, array $defaults ): array {
		$attributes = array();
		$invalid    = null;
		foreach ( self::NAMES as $name => list( $form, $path ) ) {
			if ( ! isset( $given[ $name ] ) ) {
				continue;
			}
			if ( strlen( $given[ $name ] ) > self::MAX_LENGTH ) {
				$invalid = $invalid ?? $name;
				continue;
			}
			$parts     = explode( '.', $path, 2 );
			$attribute = $parts[0];
			$property  = $parts[1] ?? null;
			$value     = self::read( $form, trim( $given[ $name ] ), $attribute );
			if ( null === $property ) {
				$attributes[ $attribute ] = $value;
				continue;
			}
			$object                   = $attributes[ $attribute ] ?? $defaults[ $attribute ] ?? array();
			$object                   = is_array( $object ) ? $object : array();
			$object[ $property ]      = $value;
			$attributes[ $attribute ] = $object;
		}
		$source = self::source( $given, $attributes );
		if ( is_string( $source ) ) {
			$attributes['markers']['source'] = $source;
		} elseif ( false === $source ) {
			$invalid = $invalid ?? 'markers';
		}
		$invalid = $invalid ?? self::first_refused( $attributes, $type, $defaults );
		return array(
			'attributes' => $attributes,
			'invalid'    => $invalid,
		);
	}

	/**
	 * The markers a map shows when `markers` is not given: the groups when `groups` is, the ids
	 * when `ids` is; false when both are (say which with `markers`); null to keep what is given.
	 *
	 * @param array<string, string> $given      Attributes by flat name.
	 * @param array<string, mixed>  $attributes Block attributes so far.
	 * @return string|false|null
	 */
	private static function source( array $given, array $attributes ) {
		if ( isset( $given['markers'] ) || ! isset( $attributes['markers'] ) ) {
			return null;
		}
		if ( isset( $given['groups'] ) && isset( $given['ids'] ) ) {
			return false;
		}
		return isset( $given['groups'] ) ? 'groups' : 'ids';
	}

	/**
	 * The value a flat text stands for, by its form; text without the form, as it is.
	 *
	 * @param string $form      One of the forms of NAMES.
	 * @param string $text      The value, trimmed.
	 * @param string $attribute The block attribute it goes to.
	 * @return mixed
	 */
	private static function read( string $form, string $text, string $attribute ) {
		switch ( $form ) {
			case 'number':
				return self::number( $text );
			case 'boolean':
				return self::BOOLEANS[ strtolower( $text ) ] ?? $text;
			case 'list':
				return self::items( $text );
			case 'ids':
				return array_map( static fn( string $id ) => 1 === preg_match( '/^[0-9]{1,18}$/D', $id ) ? (int) $id : $id, self::items( $text ) );
			case 'center':
				return self::center( $text );
			case 'switches':
				return self::switches( $text, $attribute );
			case 'terms':
				return self::terms( $text );
			default:
				return $text;
		}
	}

	/**
	 * A number written as PHP and JavaScript read one (`5`, `-12.5`, `1e3`), else the text.
	 *
	 * @param string $text Text.
	 * @return float|string
	 */
	private static function number( string $text ) {
		return is_numeric( $text ) ? (float) $text : $text;
	}

	/**
	 * The items of a comma-separated list, trimmed, each once, empty ones left out.
	 *
	 * @param string $text Text.
	 * @return string[]
	 */
	private static function items( string $text ): array {
		$items = array_filter( array_map( 'trim', explode( ',', $text ) ), static fn( string $item ) => '' !== $item );
		return array_values( array_unique( $items ) );
	}

	/**
	 * `latitude,longitude` as the block's `{ lng, lat }`, else the text.
	 *
	 * @param string $text Text.
	 * @return array{lng: float|string, lat: float|string}|string
	 */
	private static function center( string $text ) {
		$parts = array_map( 'trim', explode( ',', $text ) );
		if ( 2 !== count( $parts ) ) {
			return $text;
		}
		return array(
			'lng' => self::number( $parts[1] ),
			'lat' => self::number( $parts[0] ),
		);
	}

	/**
	 * A list of the switches to turn on (`zoom,scale`; `none` or nothing for none) as the block's
	 * object of booleans: every property of the attribute's rule off, those listed on. A listed
	 * name the rule does not have is kept, so the rule refuses it.
	 *
	 * @param string $text      Text.
	 * @param string $attribute `controls` or `places`.
	 * @return array<string, bool>
	 */
	private static function switches( string $text, string $attribute ): array {
		$object = array_fill_keys( Map_Schema::property_names( $attribute ), false );
		foreach ( 'none' === strtolower( $text ) ? array() : self::items( $text ) as $item ) {
			// `group_filter` is the property groupFilter.
			$object[ lcfirst( str_replace( '_', '', ucwords( $item, '_' ) ) ) ] = true;
		}
		return $object;
	}

	/**
	 * `taxonomy:slug,taxonomy:slug` as the block's `{ taxonomy: [ slugs ] }`. An item without a
	 * taxonomy is kept under '', so the rule refuses it.
	 *
	 * @param string $text Text.
	 * @return array<string, string[]>
	 */
	private static function terms( string $text ): array {
		$terms = array();
		foreach ( self::items( $text ) as $item ) {
			$pair     = array_map( 'trim', explode( ':', $item, 2 ) );
			$taxonomy = 2 === count( $pair ) ? $pair[0] : '';
			$slug     = 2 === count( $pair ) ? $pair[1] : $item;
			if ( ! in_array( $slug, $terms[ $taxonomy ] ?? array(), true ) ) {
				$terms[ $taxonomy ][] = $slug;
			}
		}
		return $terms;
	}

	/**
	 * The first flat name (in the documented order) whose value the block's rules refuse.
	 *
	 * @param array<string, mixed> $attributes Block attributes.
	 * @param WP_Block_Type        $type       The block type.
	 * @param array<string, mixed> $defaults   Its defaults.
	 */
	private static function first_refused( array $attributes, WP_Block_Type $type, array $defaults ): ?string {
		$supports = array_intersect_key( $attributes, array_flip( array( 'anchor', 'className', 'align' ) ) );
		$refused  = Map_Attributes::refused( array_diff_key( $attributes, $supports ), $defaults );
		foreach ( $supports as $name => $value ) {
			if ( ! self::is_valid_support( $name, $value, $type ) ) {
				$refused[] = $name;
			}
		}
		foreach ( self::NAMES as $flat => list( , $path ) ) {
			foreach ( $refused as $fault ) {
				// `center` owns `center.lat`; `controls` owns `controls.scale` (and a name it lacks).
				if ( $fault === $path || str_starts_with( $fault, $path . '.' ) ) {
					return $flat;
				}
			}
		}
		return null;
	}

	/**
	 * Whether a block support's value is one the block renders as given: valid for the block
	 * type's registered schema where it has one (what WP_Block_Type::prepare_attributes_for_render()
	 * checks, which drops the rest quietly), an alignment the block supports, an anchor a map can be named by
	 * (Map_Block::anchor()), class names that are CSS identifiers.
	 *
	 * @param string        $name  `anchor`, `className` or `align`.
	 * @param mixed         $value Value.
	 * @param WP_Block_Type $type  The block type.
	 */
	private static function is_valid_support( string $name, $value, WP_Block_Type $type ): bool {
		// `anchor` has no server-side schema (its support is the editor's): a string, as core keeps it.
		$schema = $type->attributes[ $name ] ?? array( 'type' => 'string' );
		if ( ! is_string( $value ) || ! is_array( $schema ) || true !== rest_validate_value_from_schema( $value, $schema, $name ) ) {
			return false;
		}
		switch ( $name ) {
			case 'align':
				return in_array( $value, (array) ( $type->supports['align'] ?? array() ), true );
			case 'anchor':
				return Map_Block::anchor( array( 'anchor' => $value ) ) === $value;
			default:
				return 1 === preg_match( '/^-?[A-Za-z_][\w-]*(?: +-?[A-Za-z_][\w-]*)*$/D', $value );
		}
	}

	/**
	 * What the rule of a flat attribute asks for, to finish "the “zoom” attribute must be …".
	 *
	 * @param string $name Flat name, or `pattern`.
	 */
	public static function expected( string $name ): string {
		$zoom = Limits::get( 'zoom' );
		switch ( $name ) {
			case 'center':
				return __( 'a latitude and a longitude in degrees, such as 48.85,2.35', 'cairn-maps' );
			case 'zoom':
			case 'min_zoom':
			case 'max_zoom':
				return self::range( (array) $zoom );
			case 'bearing':
				return self::range( (array) Limits::get( 'bearing' ) );
			case 'pitch':
				return self::range( (array) Limits::get( 'pitch' ) );
			case 'cluster_radius':
				/* translators: 1: smallest radius, 2: largest radius, in pixels. */
				return sprintf( __( 'a number of pixels from %1$s to %2$s', 'cairn-maps' ), number_format_i18n( (float) Limits::get( 'cluster.minRadius' ) ), number_format_i18n( (float) Limits::get( 'cluster.maxRadius' ) ) );
			case 'style':
				return __( 'a mapbox://styles/… address, an https style address on a host the site allows, or a pmtiles:// archive on this site', 'cairn-maps' );
			case 'height':
				return __( 'a CSS length such as 480px, 30rem or 60vh', 'cairn-maps' );
			case 'controls':
			case 'places':
				return self::switch_list( $name );
			case 'language':
				return __( 'auto or a language tag such as de or pt-BR', 'cairn-maps' );
			case 'languages':
				/* translators: %s: most languages. */
				return sprintf( __( 'a comma-separated list of at most %s language tags, such as de,fr', 'cairn-maps' ), number_format_i18n( (float) Limits::get( 'languages.maxItems' ) ) );
			case 'markers':
				return __( 'all, groups, ids or none (with both groups and ids, say which)', 'cairn-maps' );
			case 'groups':
				/* translators: %s: most groups. */
				return sprintf( __( 'a comma-separated list of at most %s marker group slugs, such as museums,city-parks', 'cairn-maps' ), number_format_i18n( (float) Limits::get( 'markersQuery.maxGroups' ) ) );
			case 'ids':
				/* translators: %s: most ids. */
				return sprintf( __( 'a comma-separated list of at most %s marker IDs', 'cairn-maps' ), number_format_i18n( (float) Limits::get( 'markersQuery.maxInclude' ) ) );
			case 'posts':
				return __( 'a comma-separated list of post types whose locations are enabled in Settings → Cairn Maps', 'cairn-maps' );
			case 'terms':
				return __( 'a comma-separated list of taxonomy:slug pairs of those post types, such as category:travel', 'cairn-maps' );
			case 'directions':
				return __( 'site, none, osm, google, apple or geo', 'cairn-maps' );
			case 'anchor':
				return __( 'a letter, then up to 63 letters, digits, _ or -', 'cairn-maps' );
			case 'class':
				return __( 'CSS class names separated by spaces', 'cairn-maps' );
			case 'align':
				return __( 'wide or full', 'cairn-maps' );
			case 'pattern':
				return __( 'the ID of a published pattern, a whole number from 1', 'cairn-maps' );
			default:
				return __( 'true or false', 'cairn-maps' );
		}
	}

	/**
	 * "a number from min to max".
	 *
	 * @param array<mixed> $range `min` and `max` of limits.json.
	 */
	private static function range( array $range ): string {
		/* translators: 1: smallest value, 2: largest value. */
		return sprintf( __( 'a number from %1$s to %2$s', 'cairn-maps' ), number_format_i18n( (float) $range['min'] ), number_format_i18n( (float) $range['max'] ) );
	}

	/**
	 * "a comma-separated list of zoom, compass, …, or none".
	 *
	 * @param string $attribute `controls` or `places`.
	 */
	private static function switch_list( string $attribute ): string {
		$names = array_map( static fn( string $name ) => strtolower( (string) preg_replace( '/([A-Z])/', '_$1', $name ) ), Map_Schema::property_names( $attribute ) );
		/* translators: %s: the names, separated by commas. */
		return sprintf( __( 'a comma-separated list of %s, or none', 'cairn-maps' ), implode( ', ', $names ) );
	}
}
