<?php
/**
 * Limits and fixed defaults shared with the TypeScript runtime.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Support;

defined( 'ABSPATH' ) || exit;

/**
 * Reads limits.json, the one home of the map's numbers, so PHP and TypeScript never disagree. Its
 * source is packages/map/src/limits.json (the runtime's); the build copies it to build/limits.json,
 * which is what a release ships.
 *
 * @since 0.1.0
 */
final class Limits {

	/**
	 * Parsed limits, read once per request.
	 *
	 * @var array<string, mixed>|null
	 */
	private static ?array $limits = null;

	/**
	 * A value by dotted path, e.g. `zoom.max` or `token.pattern`.
	 *
	 * @param string $path Dotted path into limits.json.
	 * @return mixed The value.
	 * @throws \OutOfBoundsException When the path does not exist: a programming error, not user input.
	 */
	public static function get( string $path ) {
		$value = self::all();
		foreach ( explode( '.', $path ) as $key ) {
			if ( ! is_array( $value ) || ! array_key_exists( $key, $value ) ) {
				throw new \OutOfBoundsException( esc_html( "Unknown Cairn Maps limit: $path" ) );
			}
			$value = $value[ $key ];
		}
		return $value;
	}

	/**
	 * How many places a map's marker selection must hold for the map to be served as tiles
	 * (`tiles.threshold`, through the `cairn_maps_tile_threshold` filter); at least 1.
	 *
	 * @since 0.6.0
	 */
	public static function tile_threshold(): int {
		/**
		 * Filters how many places a map's selection must hold (at least) for the map to be served
		 * as server-clustered tiles instead of its whole feed.
		 *
		 * @since 0.6.0
		 *
		 * @param int $threshold Places; limits.json `tiles.threshold` by default.
		 */
		return max( 1, (int) apply_filters( 'cairn_maps_tile_threshold', (int) self::get( 'tiles.threshold' ) ) );
	}

	/**
	 * How many positions the shapes of a map's marker selection must hold in all (as the shapes
	 * feed serves them) for the map to draw them from the shape tiles instead of the whole shapes
	 * feed (`shapeTiles.threshold`, through the `cairn_maps_shape_tile_threshold` filter); at
	 * least 1.
	 *
	 * @since 0.7.0
	 */
	public static function shape_tile_threshold(): int {
		/**
		 * Filters how many positions the shapes of a map's selection must hold (at least) for the
		 * map to draw them from tiles, each simplified for its zoom, instead of the whole shapes feed.
		 *
		 * @since 0.7.0
		 *
		 * @param int $threshold Positions; limits.json `shapeTiles.threshold` by default.
		 */
		return max( 1, (int) apply_filters( 'cairn_maps_shape_tile_threshold', (int) self::get( 'shapeTiles.threshold' ) ) );
	}

	/**
	 * All limits.
	 *
	 * @return array<string, mixed>
	 */
	public static function all(): array {
		if ( null === self::$limits ) {
			// A local file shipped with the plugin, not a remote URL.
			$json         = file_get_contents( CAIRN_MAPS_DIR . 'build/limits.json' ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents
			$decoded      = is_string( $json ) ? json_decode( $json, true ) : null;
			self::$limits = is_array( $decoded ) ? $decoded : array();
		}
		return self::$limits;
	}
}
