<?php
/**
 * The map block's attribute schema, as the runtime has it.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Support;

defined( 'ABSPATH' ) || exit;


/**
 * Reads map-schema.json, the one home of the map block's attribute rules and defaults (its source
 * is the npm package's packages/map/src/map-schema.json; the build copies it to
 * build/map-schema.json, which a release ships), and applies them: the same rules the runtime's
 * map-schema.ts applies, so the server and the browser never disagree about an attribute.
 *
 * Each attribute's rule is a JSON Schema in the subset core's rest_validate_value_from_schema()
 * understands, once its `"$a.b"` values are filled in from limits.json.
 *
 * @since 0.4.0
 */
final class Map_Schema {

	/**
	 * The rules by attribute, read once per request.
	 *
	 * @var array<string, array<string, mixed>>|null
	 */
	private static ?array $attributes = null;

	/**
	 * Every attribute's rule, by its block.json name.
	 *
	 * @return array<string, array<string, mixed>>
	 */
	public static function attributes(): array {
		if ( null === self::$attributes ) {
			// A local file shipped with the plugin, not a remote URL.
			$json    = file_get_contents( CAIRN_MAPS_DIR . 'build/map-schema.json' ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents
			$decoded = is_string( $json ) ? json_decode( $json, true ) : null;
			$decoded = is_array( $decoded ) ? $decoded : array();
			unset( $decoded['$comment'] );
			self::$attributes = self::resolve( $decoded );
		}
		return self::$attributes;
	}

	/**
	 * One attribute's rule; none (anything goes) for an unknown name.
	 *
	 * @param string $name The attribute's block.json name.
	 * @return array<string, mixed>
	 */
	public static function rule( string $name ): array {
		return self::attributes()[ $name ] ?? array();
	}

	/**
	 * The property names of an object attribute (`controls`, `places`, …), in the schema's order.
	 *
	 * @param string $name The attribute's block.json name.
	 * @return string[]
	 */
	public static function property_names( string $name ): array {
		return array_map( 'strval', array_keys( (array) ( self::rule( $name )['properties'] ?? array() ) ) );
	}

	/**
	 * The attributes' defaults, by name.
	 *
	 * @return array<string, mixed>
	 */
	public static function defaults(): array {
		return array_map( static fn( array $rule ) => $rule['default'] ?? null, self::attributes() );
	}

	/**
	 * A schema with its `"$a.b"` values filled in from limits.json, and the parent's type given to
	 * each `anyOf` form (core wants a type in every schema it checks).
	 *
	 * @param array<mixed> $schema Part of the schema as written.
	 * @param string       $type   The parent's type, for `anyOf` forms.
	 * @return array<mixed>
	 */
	private static function resolve( array $schema, string $type = '' ): array {
		foreach ( $schema as $key => $value ) {
			if ( is_string( $value ) && str_starts_with( $value, '$' ) ) {
				$schema[ $key ] = Limits::get( substr( $value, 1 ) );
			} elseif ( is_array( $value ) ) {
				$schema[ $key ] = self::resolve( $value, 'anyOf' === $key ? (string) ( $schema['type'] ?? '' ) : '' );
			}
		}
		if ( '' !== $type ) {
			foreach ( $schema as $key => $form ) {
				$schema[ $key ] = is_array( $form ) ? $form + array( 'type' => $type ) : $form;
			}
		}
		return $schema;
	}

	/**
	 * Whether a single value keeps its rule as it is: type, enum, range, pattern, anyOf.
	 *
	 * @param array<string, mixed> $schema The rule.
	 * @param mixed                $value  Untrusted input.
	 */
	public static function is_valid( array $schema, $value ): bool {
		$type = (string) ( $schema['type'] ?? '' );
		// Types strictly, as the runtime checks them: core's own check takes "5" for a number and
		// "1" for a boolean, which a stored attribute never meant; a number must be finite.
		$typed = match ( $type ) {
			'number'  => ( is_int( $value ) || is_float( $value ) ) && is_finite( (float) $value ),
			'integer' => is_int( $value ),
			'string'  => is_string( $value ),
			'boolean' => is_bool( $value ),
			default   => true,
		};
		if ( ! $typed ) {
			return false;
		}
		// Patterns as JavaScript reads them, `$` the very end: core's check (no D modifier) would
		// also take a newline before it.
		if ( isset( $schema['pattern'] ) && 1 !== preg_match( '#' . str_replace( '#', '\\#', (string) $schema['pattern'] ) . '#D', (string) $value ) ) {
			return false;
		}
		// Enums and ranges: core's rules, the REST API's.
		$core = array_intersect_key( $schema, array_flip( array( 'type', 'enum', 'minimum', 'maximum' ) ) );
		if ( '' !== $type && true !== rest_validate_value_from_schema( $value, $core ) ) {
			return false;
		}
		if ( isset( $schema['anyOf'] ) ) {
			foreach ( (array) $schema['anyOf'] as $form ) {
				if ( is_array( $form ) && self::is_valid( $form, $value ) ) {
					return true;
				}
			}
			return false;
		}
		return true;
	}

	/**
	 * A value made to keep its rule. A single value: as it is (a number as a float), else
	 * `$fallback`. A list: its valid items, each once with `uniqueItems`, at most `maxItems`;
	 * `$fallback` when it is no list. An object: each property by its rule, the fallback's value as
	 * its own.
	 *
	 * @param array<string, mixed> $schema   The rule.
	 * @param mixed                $value    Untrusted input.
	 * @param mixed                $fallback What replaces a value that breaks the rule.
	 * @return mixed
	 */
	public static function sanitize( array $schema, $value, $fallback ) {
		$type = $schema['type'] ?? '';
		if ( 'array' === $type ) {
			if ( ! is_array( $value ) || ! array_is_list( $value ) ) {
				return is_array( $fallback ) ? array_values( $fallback ) : $fallback;
			}
			$items = array();
			foreach ( $value as $item ) {
				if ( self::is_valid( (array) ( $schema['items'] ?? array() ), $item ) && ! ( ! empty( $schema['uniqueItems'] ) && in_array( $item, $items, true ) ) ) {
					$items[] = $item;
				}
			}
			return isset( $schema['maxItems'] ) ? array_slice( $items, 0, (int) $schema['maxItems'] ) : $items;
		}
		if ( 'object' === $type ) {
			$value    = is_array( $value ) ? $value : array();
			$fallback = is_array( $fallback ) ? $fallback : array();
			$object   = array();
			foreach ( (array) ( $schema['properties'] ?? array() ) as $name => $rule ) {
				$object[ $name ] = self::sanitize( (array) $rule, $value[ $name ] ?? null, $fallback[ $name ] ?? null );
			}
			return $object;
		}
		$valid = self::is_valid( $schema, $value );
		if ( 'number' === $type ) {
			return (float) ( $valid ? $value : $fallback );
		}
		return $valid ? $value : $fallback;
	}
}
