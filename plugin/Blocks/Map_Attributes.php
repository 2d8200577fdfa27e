<?php
/**
 * Validation of the map block's attributes.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Location_Types;
use Cairn\Maps\Support\Limits;
use Cairn\Maps\Support\Map_Controls;

/**
 * Turns stored block attributes (which anyone with the code editor can write) into a clean view
 * configuration. Out-of-range or wrongly typed values fall back to the block.json default; a minimum
 * zoom above the maximum is the `zoom-range` configuration error of the contract.
 *
 * @since 0.1.0
 */
final class Map_Attributes {

	public const CONTROLS = Map_Controls::NAMES;

	/**
	 * The switches of the visitors' places panel (`places` attribute).
	 *
	 * @since 0.2.0
	 */
	public const PLACES = array( 'search', 'groupFilter', 'followMap' );

	/**
	 * Parses attributes.
	 *
	 * @param array<string, mixed> $attributes Attributes as stored (defaults already merged by core).
	 * @param array<string, mixed> $defaults   The block.json defaults.
	 * @return array{config: array<string, mixed>, error: string}
	 */
	public static function parse( array $attributes, array $defaults ): array {
		$a     = array_merge( $defaults, $attributes );
		$error = '';

		$min_zoom = self::number( $a['minZoom'], Limits::get( 'zoom.min' ), Limits::get( 'zoom.max' ), $defaults['minZoom'] );
		$max_zoom = self::number( $a['maxZoom'], Limits::get( 'zoom.min' ), Limits::get( 'zoom.max' ), $defaults['maxZoom'] );
		if ( $min_zoom > $max_zoom ) {
			$error = 'zoom-range';
		}
		$zoom = self::number( $a['zoom'], Limits::get( 'zoom.min' ), Limits::get( 'zoom.max' ), $defaults['zoom'] );
		$zoom = max( $min_zoom, min( $max_zoom, $zoom ) );

		$center = is_array( $a['center'] ) ? $a['center'] : array();
		$config = array(
			'style'               => self::style( $a['mapStyle'], $defaults['mapStyle'] ),
			'center'              => array(
				'lng' => self::number( $center['lng'] ?? null, Limits::get( 'longitude.min' ), Limits::get( 'longitude.max' ), $defaults['center']['lng'] ),
				'lat' => self::number( $center['lat'] ?? null, Limits::get( 'latitude.min' ), Limits::get( 'latitude.max' ), $defaults['center']['lat'] ),
			),
			'zoom'                => $zoom,
			'bearing'             => self::number( $a['bearing'], Limits::get( 'bearing.min' ), Limits::get( 'bearing.max' ), $defaults['bearing'] ),
			'pitch'               => self::number( $a['pitch'], Limits::get( 'pitch.min' ), Limits::get( 'pitch.max' ), $defaults['pitch'] ),
			'minZoom'             => $min_zoom,
			'maxZoom'             => $max_zoom,
			'controls'            => self::switches( self::CONTROLS, $a['controls'], $defaults['controls'] ),
			'language'            => self::language( $a['language'], $defaults['language'] ),
			'languages'           => self::languages( $a['languages'], $defaults['languages'] ),
			'cluster'             => self::cluster( $a['cluster'], $defaults['cluster'] ),
			'hash'                => true === $a['hash'],
			'cooperativeGestures' => is_bool( $a['cooperativeGestures'] ) ? $a['cooperativeGestures'] : $defaults['cooperativeGestures'],
			'height'              => self::height( $a['height'], $defaults['height'] ),
			'markers'             => self::markers( $a['markers'], $defaults['markers'] ),
			'places'              => self::switches( self::PLACES, $a['places'], $defaults['places'] ),
			'content'             => self::content( $a['content'] ?? null ),
		);
		return array(
			'config' => $config,
			'error'  => $error,
		);
	}

	/**
	 * Block attributes as the map uses them: a configuration from parse() under the attribute
	 * names of block.json (`style` is stored as `mapStyle`), every value valid, every default
	 * filled in.
	 *
	 * @since 0.2.0
	 *
	 * @param array<string, mixed> $config The `config` of parse() (or a client configuration
	 *                                     built from it: other keys are ignored).
	 * @return array<string, mixed>
	 */
	public static function attributes( array $config ): array {
		$attributes = array();
		foreach ( array( 'center', 'zoom', 'bearing', 'pitch', 'minZoom', 'maxZoom', 'style', 'controls', 'language', 'markers', 'cluster', 'hash', 'height', 'cooperativeGestures', 'places', 'languages', 'content' ) as $key ) {
			$attributes[ 'style' === $key ? 'mapStyle' : $key ] = $config[ $key ] ?? null;
		}
		$content = $config['content'] ?? null;
		if ( is_array( $content ) && array() === ( $content['terms'] ?? null ) ) {
			// `{}` in JSON, as block.json's default: an object keyed by taxonomy.
			$content['terms']      = new \stdClass();
			$attributes['content'] = $content;
		}
		return $attributes;
	}

	/**
	 * A finite number inside a range, or the default.
	 *
	 * @param mixed     $value    Value.
	 * @param int|float $min      Minimum.
	 * @param int|float $max      Maximum.
	 * @param int|float $fallback Default.
	 */
	private static function number( $value, $min, $max, $fallback ): float {
		if ( ( ! is_int( $value ) && ! is_float( $value ) ) || ! is_finite( (float) $value ) || $value < $min || $value > $max ) {
			return (float) $fallback;
		}
		return (float) $value;
	}

	/**
	 * A `mapbox://styles/…` URL, or an https style URL on an allowed host (style_hosts()); the
	 * default (block.json's, or the site owner's default style) as it is.
	 *
	 * A contributor's style decides which host every visitor's browser contacts, and the privacy
	 * text names only Mapbox: other hosts need the site owner's consent through the
	 * `cairn_maps_style_hosts` filter.
	 *
	 * @param mixed  $value    Value.
	 * @param string $fallback Default.
	 */
	private static function style( $value, string $fallback ): string {
		if ( ! is_string( $value ) || $value === $fallback ) {
			return $fallback;
		}
		if ( 1 === preg_match( '#' . Limits::get( 'mapStyle.pattern' ) . '#D', $value ) ) {
			return $value;
		}
		return self::is_allowed_https_style( $value ) ? $value : $fallback;
	}

	/**
	 * Whether a URL is an https address on one of the allowed style hosts, without credentials or
	 * another port. A syntactic check only: a DNS lookup (wp_http_validate_url) on every render
	 * would be slow, and would refuse every style while the server is offline.
	 *
	 * @since 0.2.0
	 *
	 * @param string $url URL.
	 */
	public static function is_allowed_https_style( string $url ): bool {
		if ( 0 !== strpos( $url, 'https://' ) || false !== strpbrk( $url, " \t\n\r\"'<>\\" ) ) {
			return false;
		}
		$parts = wp_parse_url( $url );
		if ( ! is_array( $parts ) || ! isset( $parts['host'] ) || isset( $parts['user'] ) || isset( $parts['pass'] ) || ( isset( $parts['port'] ) && 443 !== $parts['port'] ) ) {
			return false;
		}
		return in_array( strtolower( $parts['host'] ), self::style_hosts(), true );
	}

	/**
	 * The hosts an https style URL may point to: Mapbox's API (limits.json `mapStyle.hosts`),
	 * plus those the site owner adds.
	 *
	 * @since 0.2.0
	 *
	 * @return string[] Host names, lower case.
	 */
	public static function style_hosts(): array {
		/**
		 * Filters the hosts a map's https style URL may point to. Each host added is contacted by
		 * every visitor's browser on pages with such a map: name it in the site's privacy policy.
		 *
		 * @since 0.2.0
		 *
		 * @param string[] $hosts Host names (exact, no wildcard). Default `array( 'api.mapbox.com' )`.
		 */
		$hosts = apply_filters( 'cairn_maps_style_hosts', (array) Limits::get( 'mapStyle.hosts' ) );
		$clean = array();
		foreach ( is_array( $hosts ) ? $hosts : array() as $host ) {
			$host = is_string( $host ) ? strtolower( trim( $host ) ) : '';
			if ( 1 === preg_match( '/^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?$/D', $host ) && ! in_array( $host, $clean, true ) ) {
				$clean[] = $host;
			}
		}
		return $clean;
	}

	/**
	 * A set of named switches (`controls`, `places`): each a boolean, else its default.
	 *
	 * @param string[]            $names    The switches.
	 * @param mixed               $value    Value.
	 * @param array<string, bool> $fallback Default.
	 * @return array<string, bool>
	 */
	private static function switches( array $names, $value, array $fallback ): array {
		$switches = array();
		foreach ( $names as $name ) {
			$switches[ $name ] = is_array( $value ) && isset( $value[ $name ] ) && is_bool( $value[ $name ] ) ? $value[ $name ] : (bool) ( $fallback[ $name ] ?? false );
		}
		return $switches;
	}

	/**
	 * `auto` or a BCP 47 language tag.
	 *
	 * @param mixed  $value    Value.
	 * @param string $fallback Default.
	 */
	private static function language( $value, string $fallback ): string {
		return is_string( $value ) && ( 'auto' === $value || 1 === preg_match( '/' . Limits::get( 'language.pattern' ) . '/D', $value ) ) ? $value : $fallback;
	}

	/**
	 * The label languages visitors may switch between: language tags (no `auto`), each once, at
	 * most `languages.maxItems`. Anything else in the list is left out; a value that is not a list
	 * is the default.
	 *
	 * @param mixed         $value    Value.
	 * @param array<string> $fallback Default.
	 * @return string[]
	 */
	private static function languages( $value, array $fallback ): array {
		if ( ! is_array( $value ) || ! array_is_list( $value ) ) {
			return array_values( $fallback );
		}
		$pattern   = '/' . Limits::get( 'language.pattern' ) . '/D';
		$languages = array();
		foreach ( $value as $tag ) {
			if ( is_string( $tag ) && 1 === preg_match( $pattern, $tag ) && ! in_array( $tag, $languages, true ) ) {
				$languages[] = $tag;
			}
		}
		return array_slice( $languages, 0, (int) Limits::get( 'languages.maxItems' ) );
	}

	/**
	 * Clustering switch and radius.
	 *
	 * @param mixed                $value    Value.
	 * @param array<string, mixed> $fallback Default.
	 * @return array{enabled: bool, radius: float}
	 */
	private static function cluster( $value, array $fallback ): array {
		$value = is_array( $value ) ? $value : array();
		return array(
			'enabled' => isset( $value['enabled'] ) && is_bool( $value['enabled'] ) ? $value['enabled'] : (bool) $fallback['enabled'],
			'radius'  => self::number( $value['radius'] ?? null, Limits::get( 'cluster.minRadius' ), Limits::get( 'cluster.maxRadius' ), $fallback['radius'] ),
		);
	}

	/**
	 * A CSS length for the map's height.
	 *
	 * @param mixed  $value    Value.
	 * @param string $fallback Default.
	 */
	private static function height( $value, string $fallback ): string {
		return is_string( $value ) && 1 === preg_match( '/^(?:[1-9]\d{0,3}|\d{1,4}\.\d{1,3})(px|em|rem|vh|svh|dvh)$/', $value ) ? $value : $fallback;
	}

	/**
	 * Which markers the map shows.
	 *
	 * @param mixed                $value    Value.
	 * @param array<string, mixed> $fallback Default.
	 * @return array{source: string, groups: string[], ids: int[]}
	 */
	private static function markers( $value, array $fallback ): array {
		$value  = is_array( $value ) ? $value : array();
		$source = isset( $value['source'] ) && in_array( $value['source'], array( 'all', 'groups', 'ids', 'none' ), true ) ? $value['source'] : $fallback['source'];
		$groups = array_values( array_filter( is_array( $value['groups'] ?? null ) ? $value['groups'] : array(), static fn( $slug ) => is_string( $slug ) && 1 === preg_match( '/^[a-z0-9_-]+$/', $slug ) ) );
		$ids    = array_values( array_filter( is_array( $value['ids'] ?? null ) ? $value['ids'] : array(), static fn( $id ) => is_int( $id ) && $id > 0 ) );
		return array(
			'source' => $source,
			'groups' => array_slice( $groups, 0, Limits::get( 'markersQuery.maxGroups' ) ),
			'ids'    => array_slice( $ids, 0, Limits::get( 'markersQuery.maxInclude' ) ),
		);
	}

	/**
	 * Which posts the map shows (`content`): post types enabled for locations (Location_Types),
	 * terms of public taxonomies shown in REST that those types use, and whether the post from
	 * block context is shown. Like the marker selection, what is not valid is left out quietly
	 * (an unknown or disabled post type, a taxonomy none of the types uses, a malformed slug):
	 * the map then shows fewer posts, never another site's idea of them, and never an error.
	 *
	 * @since 0.3.0
	 *
	 * @param mixed $value Value.
	 * @return array{postTypes: string[], terms: array<string, string[]>, current: bool}
	 */
	private static function content( $value ): array {
		$value   = is_array( $value ) ? $value : array();
		$enabled = Location_Types::enabled();
		$types   = array();
		foreach ( is_array( $value['postTypes'] ?? null ) ? $value['postTypes'] : array() as $type ) {
			if ( is_string( $type ) && in_array( $type, $enabled, true ) && ! in_array( $type, $types, true ) ) {
				$types[] = $type;
			}
		}
		// The feed's bounds (Feed_Schema): as many types, and terms in all, as groups.
		$types = array_slice( $types, 0, (int) Limits::get( 'markersQuery.maxGroups' ) );
		sort( $types );
		$terms = array();
		$left  = (int) Limits::get( 'markersQuery.maxGroups' );
		$given = is_array( $value['terms'] ?? null ) ? $value['terms'] : array();
		ksort( $given );
		foreach ( $given as $taxonomy => $slugs ) {
			if ( ! is_string( $taxonomy ) || ! is_array( $slugs ) || count( $terms ) >= (int) Limits::get( 'content.maxTaxonomies' ) || ! self::is_content_taxonomy( $taxonomy, $types ) ) {
				continue;
			}
			$clean = array();
			foreach ( $slugs as $slug ) {
				// Slugs as WordPress stores them (sanitize_title(): lower case, percent-encoded beyond ASCII).
				if ( $left > 0 && is_string( $slug ) && 1 === preg_match( '/^[a-z0-9_%-]{1,200}$/D', $slug ) && ! in_array( $slug, $clean, true ) ) {
					$clean[] = $slug;
					--$left;
				}
			}
			if ( array() !== $clean ) {
				sort( $clean );
				$terms[ $taxonomy ] = $clean;
			}
		}
		return array(
			'postTypes' => $types,
			'terms'     => $terms,
			'current'   => true === ( $value['current'] ?? null ),
		);
	}

	/**
	 * Whether a taxonomy can narrow a map's posts: public, shown in REST, and used by one of its
	 * post types.
	 *
	 * @since 0.3.0
	 *
	 * @param string   $taxonomy Taxonomy name.
	 * @param string[] $types    The map's post types.
	 */
	public static function is_content_taxonomy( string $taxonomy, array $types ): bool {
		$object = get_taxonomy( $taxonomy );
		if ( ! $object instanceof \WP_Taxonomy || ! $object->public || ! $object->show_in_rest ) {
			return false;
		}
		return array() !== array_intersect( $types, (array) $object->object_type );
	}
}
