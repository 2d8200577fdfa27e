<?php
/**
 * Site-wide defaults for new map blocks.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Settings;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Support\Limits;
use Cairn\Maps\Support\Map_Schema;
use WP_Error;

/**
 * The `cairn_maps_defaults` option: the style, label language and controls that newly inserted map
 * blocks start with. The block editor writes them into the new block as explicit attributes, so
 * changing the defaults never changes a block that is already on a page.
 *
 * Its built-in value is the block's own defaults (map-schema.json, as block.json).
 *
 * @since 0.1.0
 */
final class Site_Defaults {

	/**
	 * The keys of the option, named after the block attributes they seed.
	 */
	public const KEYS = array( 'mapStyle', 'language', 'controls' );

	/**
	 * The built-in value, read once per request.
	 *
	 * @var array{mapStyle: string, language: string, controls: array<string, bool>}|null
	 */
	private static ?array $builtin = null;

	/**
	 * The block's defaults (map-schema.json's, which block.json repeats) of the keys the option holds.
	 *
	 * @return array{mapStyle: string, language: string, controls: array<string, bool>}
	 */
	public static function builtin(): array {
		if ( null === self::$builtin ) {
			$defaults = Map_Schema::defaults();
			$controls = array();
			foreach ( Map_Schema::property_names( 'controls' ) as $name ) {
				$controls[ $name ] = (bool) ( $defaults['controls'][ $name ] ?? false );
			}
			self::$builtin = array(
				'mapStyle' => (string) ( $defaults['mapStyle'] ?? '' ),
				'language' => (string) ( $defaults['language'] ?? 'auto' ),
				'controls' => $controls,
			);
		}
		return self::$builtin;
	}

	/**
	 * The REST schema of the option: the formal contract in `/wp/v2/settings`. Friendlier messages
	 * come from validate(), which the settings guard runs first.
	 *
	 * @return array<string, mixed>
	 */
	public static function schema(): array {
		$controls = array();
		foreach ( Map_Schema::property_names( 'controls' ) as $name ) {
			$controls[ $name ] = array( 'type' => 'boolean' );
		}
		return array(
			'type'                 => 'object',
			'properties'           => array(
				'mapStyle' => array(
					'type'        => 'string',
					'description' => __( 'Always mapbox://styles/mapbox/standard, which new maps take as "the site\'s basemap" (since 0.7.0 the style is the setting cairn_maps_basemap).', 'cairn-maps' ),
					'maxLength'   => 2048,
					'pattern'     => '^(?:' . trim( Limits::get( 'mapStyle.pattern' ), '^$' ) . '|https://\S+)$',
				),
				'language' => array(
					'type'        => 'string',
					'description' => __( 'Label language: auto (the visitor\'s language) or a language tag.', 'cairn-maps' ),
					'maxLength'   => 35,
					'pattern'     => '^(?:auto|' . trim( Limits::get( 'language.pattern' ), '^$' ) . ')$',
				),
				'controls' => array(
					'type'                 => 'object',
					'description'          => __( 'Which map controls are shown.', 'cairn-maps' ),
					'properties'           => $controls,
					'additionalProperties' => false,
				),
			),
			'additionalProperties' => false,
		);
	}

	/**
	 * Validates a submitted value. Missing keys take the built-in defaults.
	 *
	 * @param mixed $value The submitted value (an array from REST or a form).
	 * @return array{mapStyle: string, language: string, controls: array<string, bool>}|WP_Error The clean value, or why it is refused.
	 */
	public static function validate( $value ) {
		if ( ! is_array( $value ) ) {
			return self::error( __( 'The map defaults must be an object with mapStyle, language and controls.', 'cairn-maps' ) );
		}
		$unknown = array_diff( array_keys( $value ), self::KEYS );
		if ( array() !== $unknown ) {
			return self::error( __( 'The map defaults may only hold mapStyle, language and controls.', 'cairn-maps' ) );
		}
		$clean = self::builtin();
		// Since 0.7.0 new maps draw the site's basemap (setting cairn_maps_basemap): the defaults'
		// style stays block.json's, which means "the site's basemap". Clients that send the whole
		// object back unchanged keep working.
		if ( array_key_exists( 'mapStyle', $value ) && $value['mapStyle'] !== $clean['mapStyle'] ) {
			return self::error(
				sprintf(
					/* translators: %s: the built-in style, mapbox://styles/mapbox/standard. */
					__( 'New maps now use the site\'s basemap: choose it under Basemap in Settings → Cairn Maps (setting cairn_maps_basemap). The map defaults\' mapStyle can only be %s.', 'cairn-maps' ),
					$clean['mapStyle']
				)
			);
		}
		if ( array_key_exists( 'language', $value ) ) {
			if ( ! self::is_language( $value['language'] ) ) {
				return self::error( __( 'The default label language must be "auto" (the visitor\'s language) or a language tag such as fr, de or zh-Hans.', 'cairn-maps' ) );
			}
			$clean['language'] = $value['language'];
		}
		if ( array_key_exists( 'controls', $value ) ) {
			$controls = $value['controls'];
			$names    = Map_Schema::property_names( 'controls' );
			if ( ! is_array( $controls ) || array() !== array_diff( array_keys( $controls ), $names ) ) {
				/* translators: %s: comma-separated list of control names. */
				return self::error( sprintf( __( 'The default controls may only be %s.', 'cairn-maps' ), implode( ', ', $names ) ) );
			}
			foreach ( $controls as $name => $on ) {
				if ( ! is_bool( $on ) ) {
					return self::error( __( 'Each default control must be switched on (true) or off (false).', 'cairn-maps' ) );
				}
				$clean['controls'][ $name ] = $on;
			}
		}
		return $clean;
	}

	/**
	 * The stored defaults, each invalid or missing part replaced by its built-in value (a database
	 * edit must not break the editor).
	 *
	 * @param mixed $stored The stored option value.
	 * @return array{mapStyle: string, language: string, controls: array<string, bool>}
	 */
	public static function normalize( $stored ): array {
		$clean = self::builtin();
		if ( ! is_array( $stored ) ) {
			return $clean;
		}
		// The stored mapStyle of 0.6 and before is the site's basemap now (legacy_style()).
		if ( isset( $stored['language'] ) && self::is_language( $stored['language'] ) ) {
			$clean['language'] = $stored['language'];
		}
		foreach ( Map_Schema::property_names( 'controls' ) as $name ) {
			if ( isset( $stored['controls'][ $name ] ) && is_bool( $stored['controls'][ $name ] ) ) {
				$clean['controls'][ $name ] = $stored['controls'][ $name ];
			}
		}
		return $clean;
	}

	/**
	 * The default style an owner chose before 0.7.0 (the stored defaults' mapStyle when it is not
	 * block.json's), which is the site's basemap until the upgrade step moves it into
	 * cairn_maps_basemap; '' when there is none.
	 *
	 * @since 0.7.0
	 *
	 * @param mixed $stored The stored option value; the option when null.
	 */
	public static function legacy_style( $stored = null ): string {
		$stored = null === $stored ? get_option( Settings::DEFAULTS_OPTION ) : $stored;
		$style  = is_array( $stored ) ? ( $stored['mapStyle'] ?? '' ) : '';
		return self::is_style( $style ) && self::builtin()['mapStyle'] !== $style ? $style : '';
	}

	/**
	 * Drops a default style of 0.6 and before from the stored defaults (the rest is kept).
	 *
	 * @since 0.7.0
	 */
	public static function retire_legacy_style(): void {
		$stored = get_option( Settings::DEFAULTS_OPTION );
		if ( is_array( $stored ) && array_key_exists( 'mapStyle', $stored ) && self::builtin()['mapStyle'] !== $stored['mapStyle'] ) {
			update_option( Settings::DEFAULTS_OPTION, self::normalize( $stored ) );
		}
	}

	/**
	 * Whether a value is a `mapbox://styles/owner/id` URL or an https URL. No DNS look-up: the
	 * owner may point at a host this server cannot resolve but visitors can.
	 *
	 * @param mixed $value Value.
	 */
	public static function is_style( $value ): bool {
		if ( ! is_string( $value ) || strlen( $value ) > 2048 ) {
			return false;
		}
		if ( 1 === preg_match( '#' . Limits::get( 'mapStyle.pattern' ) . '#D', $value ) ) {
			return true;
		}
		$parts = wp_parse_url( $value );
		return 1 !== preg_match( '/\s/', $value ) && is_array( $parts ) && 'https' === ( $parts['scheme'] ?? '' ) && '' !== ( $parts['host'] ?? '' );
	}

	/**
	 * Whether a value is `auto` or a language tag the map accepts.
	 *
	 * @param mixed $value Value.
	 */
	public static function is_language( $value ): bool {
		return Map_Schema::is_valid( Map_Schema::rule( 'language' ), $value );
	}

	/**
	 * A refusal of the defaults, as a REST error.
	 *
	 * @param string $message Why.
	 */
	private static function error( string $message ): WP_Error {
		return new WP_Error(
			'cairn_maps_invalid_defaults',
			$message,
			array(
				'status' => 400,
				'params' => array( Settings::DEFAULTS_OPTION => $message ),
			)
		);
	}
}
