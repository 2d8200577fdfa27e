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
use Cairn\Maps\Support\Map_Schema;

/**
 * Turns stored block attributes (which anyone with the code editor can write) into a clean view
 * configuration. Each attribute keeps its rule in map-schema.json (Map_Schema, the runtime's rules
 * too): out-of-range or wrongly typed values fall back to the block.json default; a minimum zoom
 * above the maximum is the `zoom-range` configuration error of the contract. What a JSON Schema
 * cannot say stays here: the style hosts, and which post types and taxonomies this site allows.
 *
 * @since 0.1.0
 */
final class Map_Attributes {

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

		$min_zoom = self::value( 'minZoom', $a, $defaults );
		$max_zoom = self::value( 'maxZoom', $a, $defaults );
		// Across fields, so not the schema's: the runtime's parseMapConfig() says the same.
		if ( $min_zoom > $max_zoom ) {
			$error = 'zoom-range';
		}
		$zoom = max( $min_zoom, min( $max_zoom, self::value( 'zoom', $a, $defaults ) ) );

		$config = array(
			'style'               => self::style( $a['mapStyle'], $defaults['mapStyle'] ),
			'center'              => self::value( 'center', $a, $defaults ),
			'zoom'                => $zoom,
			'bearing'             => self::value( 'bearing', $a, $defaults ),
			'pitch'               => self::value( 'pitch', $a, $defaults ),
			'minZoom'             => $min_zoom,
			'maxZoom'             => $max_zoom,
			'controls'            => self::value( 'controls', $a, $defaults ),
			'language'            => self::value( 'language', $a, $defaults ),
			'languages'           => self::value( 'languages', $a, $defaults ),
			'cluster'             => self::value( 'cluster', $a, $defaults ),
			'hash'                => self::value( 'hash', $a, $defaults ),
			'cooperativeGestures' => self::value( 'cooperativeGestures', $a, $defaults ),
			'height'              => self::value( 'height', $a, $defaults ),
			'markers'             => self::value( 'markers', $a, $defaults ),
			'places'              => self::value( 'places', $a, $defaults ),
			'content'             => self::content( $a['content'] ?? null ),
			// The block's choice (`site` or an app): Map_Block resolves `site` to the site's app.
			'directions'          => self::directions( $a, $defaults ),
		);
		return array(
			'config' => $config,
			'error'  => $error,
		);
	}

	/**
	 * What parse() would not keep as given, by path: for each attribute in `$attributes`, the
	 * attribute (`zoom`, `mapStyle`) or its property (`center.lat`, `markers.groups`,
	 * `content.postTypes`) whose value the rules replace or trim. The block falls back quietly (an
	 * author's stored attributes must never break a page); a caller that reports the fault to the
	 * author, such as the shortcode, asks here, so both follow the same rules. Lists compare as
	 * sets (parse() sorts some); a zoom outside minZoom…maxZoom is not refused (parse() brings it
	 * inside), and a minimum zoom above the maximum is parse()'s `zoom-range` error.
	 *
	 * @since 0.8.0
	 *
	 * @param array<string, mixed> $attributes Attributes as given; only these are checked.
	 * @param array<string, mixed> $defaults   The block.json defaults.
	 * @return string[] Paths, in the order of `$attributes`.
	 */
	public static function refused( array $attributes, array $defaults ): array {
		$refused = array();
		foreach ( $attributes as $name => $given ) {
			$name = (string) $name;
			if ( 'mapStyle' === $name ) {
				// block.json's default means "the site's basemap": kept, though style() swaps it.
				$kept = ( $defaults['mapStyle'] ?? null ) === $given ? $given : self::style( $given, (string) $defaults['mapStyle'] );
			} elseif ( 'content' === $name ) {
				$kept = self::content( $given );
			} else {
				$kept = self::value( $name, array( $name => $given ), $defaults );
			}
			$refused = array_merge( $refused, self::changed( $name, $given, $kept ) );
		}
		return $refused;
	}

	/**
	 * The paths where a kept value differs from the given one: an object's properties one by one
	 * (those given), anything else as a whole.
	 *
	 * @param string $path  Path of the value.
	 * @param mixed  $given Value as given.
	 * @param mixed  $kept  Value as the rules keep it.
	 * @return string[]
	 */
	private static function changed( string $path, $given, $kept ): array {
		if ( is_array( $given ) && ! array_is_list( $given ) && is_array( $kept ) && ! array_is_list( $kept ) && false === strpos( $path, '.' ) ) {
			$paths = array();
			foreach ( $given as $key => $value ) {
				if ( ! array_key_exists( $key, $kept ) || ! self::same( $value, $kept[ $key ] ) ) {
					$paths[] = $path . '.' . $key;
				}
			}
			return $paths;
		}
		return self::same( $given, $kept ) ? array() : array( $path );
	}

	/**
	 * Whether two values are the same: numbers by value (an integer and its float), lists as sets,
	 * objects key by key.
	 *
	 * @param mixed $a A value.
	 * @param mixed $b Another.
	 */
	private static function same( $a, $b ): bool {
		if ( ( is_int( $a ) || is_float( $a ) ) && ( is_int( $b ) || is_float( $b ) ) ) {
			return (float) $a === (float) $b;
		}
		if ( ! is_array( $a ) || ! is_array( $b ) ) {
			return $a === $b;
		}
		if ( count( $a ) !== count( $b ) ) {
			return false;
		}
		if ( array_is_list( $a ) && array_is_list( $b ) ) {
			sort( $a );
			sort( $b );
		} else {
			ksort( $a );
			ksort( $b );
		}
		foreach ( $a as $key => $value ) {
			if ( ! array_key_exists( $key, $b ) || ! self::same( $value, $b[ $key ] ) ) {
				return false;
			}
		}
		return true;
	}

	/**
	 * An attribute by its rule in map-schema.json (Map_Schema), or its default.
	 *
	 * @param string               $name       The attribute.
	 * @param array<string, mixed> $attributes Attributes, defaults merged in.
	 * @param array<string, mixed> $defaults   The defaults.
	 * @return mixed
	 */
	private static function value( string $name, array $attributes, array $defaults ) {
		return Map_Schema::sanitize( Map_Schema::rule( $name ), $attributes[ $name ] ?? null, $defaults[ $name ] ?? null );
	}

	/**
	 * The block's `directions`: `site` (the site's setting) or an app, by its rule in map-schema.json.
	 *
	 * @since 0.9.0
	 *
	 * @param array<string, mixed> $attributes Attributes.
	 * @param array<string, mixed> $defaults   The block.json defaults.
	 */
	public static function directions( array $attributes, array $defaults ): string {
		$value = self::value( 'directions', $attributes, $defaults );
		return is_string( $value ) ? $value : 'site';
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
		foreach ( array_keys( Map_Schema::attributes() ) as $name ) {
			$attributes[ $name ] = $config[ 'mapStyle' === $name ? 'style' : $name ] ?? null;
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
	 * The style a map draws: a `mapbox://styles/…` URL, an https style URL on an allowed host
	 * (style_hosts()), or `pmtiles://` and an archive on this site; else, and for block.json's
	 * default, the site's basemap (Basemap::site_style(): the owner's choice, or automatic).
	 *
	 * A contributor's style decides which host every visitor's browser contacts, and the privacy
	 * text names only the providers the owner chose: other hosts need the site owner's consent
	 * through the `cairn_maps_style_hosts` filter.
	 *
	 * @param mixed  $value    Value.
	 * @param string $fallback block.json's default (which means "the site's basemap").
	 */
	private static function style( $value, string $fallback ): string {
		if ( ! is_string( $value ) || $value === $fallback ) {
			return Basemap::site_style();
		}
		if ( 1 === preg_match( '#' . Limits::get( 'mapStyle.pattern' ) . '#D', $value ) ) {
			return $value;
		}
		if ( '' !== Basemap::archive_url( $value ) ) {
			return Basemap::is_acceptable( $value ) ? $value : Basemap::site_style();
		}
		// The rule's https form, narrowed to the allowed hosts: no JSON Schema keyword says that.
		return self::is_allowed_https_style( $value ) ? $value : Basemap::site_style();
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
		// https, and the attribute's rule (no spaces, quotes, angle brackets or backslashes).
		if ( 0 !== strpos( $url, 'https://' ) || null === Basemap::engine_for( $url ) || ! Map_Schema::is_valid( Map_Schema::rule( 'mapStyle' ), $url ) ) {
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
	 * OpenFreeMap, the host of the site's basemap when it is a style URL, plus those the site
	 * owner adds.
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
		 * @param string[] $hosts Host names (exact, no wildcard). Default `api.mapbox.com`,
		 *                        `tiles.openfreemap.org` (since 0.7.0) and the host of the site's
		 *                        basemap style URL (since 0.7.0).
		 */
		$hosts = apply_filters( 'cairn_maps_style_hosts', array_merge( (array) Limits::get( 'mapStyle.hosts' ), array( Basemap::OPENFREEMAP_HOST ), self::basemap_host() ) );
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
	 * The host of the site's chosen basemap when it is an https style URL.
	 *
	 * @return string[] None or one host name.
	 */
	private static function basemap_host(): array {
		$chosen = Basemap::chosen();
		$url    = 0 === strpos( $chosen, 'https://' ) ? Basemap::url_parts( $chosen ) : null;
		return null === $url ? array() : array( $url['host'] );
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
		$rules   = (array) ( Map_Schema::rule( 'content' )['properties'] ?? array() );
		$enabled = Location_Types::enabled();
		$types   = array();
		foreach ( is_array( $value['postTypes'] ?? null ) ? $value['postTypes'] : array() as $type ) {
			if ( Map_Schema::is_valid( $rules['postTypes']['items'], $type ) && in_array( $type, $enabled, true ) && ! in_array( $type, $types, true ) ) {
				$types[] = $type;
			}
		}
		// The schema's bounds (the feed's, Feed_Schema): as many types, and terms in all, as groups.
		$types = array_slice( $types, 0, (int) $rules['postTypes']['maxItems'] );
		sort( $types );
		$terms    = array();
		$taxonomy = (string) array_key_first( $rules['terms']['patternProperties'] );
		$slugs    = $rules['terms']['patternProperties'][ $taxonomy ];
		// A budget across taxonomies, which no JSON Schema keyword says.
		$left  = (int) Limits::get( 'markersQuery.maxGroups' );
		$given = is_array( $value['terms'] ?? null ) ? $value['terms'] : array();
		ksort( $given );
		foreach ( $given as $name => $list ) {
			if ( ! is_string( $name ) || ! is_array( $list ) || count( $terms ) >= (int) $rules['terms']['maxProperties'] || 1 !== preg_match( '#' . $taxonomy . '#D', $name ) || ! self::is_content_taxonomy( $name, $types ) ) {
				continue;
			}
			$clean = array();
			foreach ( $list as $slug ) {
				// Slugs as WordPress stores them (sanitize_title(): lower case, percent-encoded beyond ASCII).
				if ( $left > 0 && Map_Schema::is_valid( $slugs['items'], $slug ) && ! in_array( $slug, $clean, true ) ) {
					$clean[] = $slug;
					--$left;
				}
			}
			if ( array() !== $clean ) {
				sort( $clean );
				$terms[ $name ] = $clean;
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
