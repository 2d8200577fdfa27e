<?php
/**
 * The cluster radii and max zooms the site's maps are configured with.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Support\Limits;
use Cairn\Maps\Support\Map_Schema;

/**
 * Which `radius`/`maxzoom` pairs tiles may be kept for (Tile_Service::keeps()): the defaults, and
 * the pairs of the tiled maps the site has rendered (Blocks\Tile_Config writes each when it makes
 * a map's tile address). Any other in-range pair is still answered, built each time: a visitor's
 * invented radius must not take a slot from a real map's tile (issue 30). The list lives in one
 * small option (not autoloaded) of at most MAX pairs; it is written only by rendering maps, i.e.
 * by what editors saved, and only when a pair is new.
 *
 * @since 0.7.0
 */
final class Tile_Radii {

	/**
	 * The option.
	 */
	public const OPTION = 'cairn_maps_tile_radii';

	/**
	 * Most pairs remembered (a site with more distinct radii keeps tiles of the first ones).
	 */
	public const MAX = 32;

	/**
	 * The default pair: the block's default radius and the runtime's cluster max zoom.
	 *
	 * @return array{0: int, 1: int}
	 */
	public static function defaults(): array {
		return array( (int) Map_Schema::defaults()['cluster']['radius'], (int) Limits::get( 'cluster.maxZoom' ) );
	}

	/**
	 * Whether tiles of a pair may be kept.
	 *
	 * @param int $radius  Cluster radius.
	 * @param int $maxzoom Cluster max zoom.
	 */
	public function has( int $radius, int $maxzoom ): bool {
		return array( $radius, $maxzoom ) === self::defaults() || in_array( self::pair( $radius, $maxzoom ), $this->stored(), true );
	}

	/**
	 * Remembers a map's pair (nothing is written when it is known, a default, or the list is full).
	 *
	 * @param int $radius  Cluster radius.
	 * @param int $maxzoom Cluster max zoom.
	 */
	public function remember( int $radius, int $maxzoom ): void {
		if ( $this->has( $radius, $maxzoom ) ) {
			return;
		}
		$stored = $this->stored();
		if ( count( $stored ) >= self::MAX ) {
			return;
		}
		$stored[] = self::pair( $radius, $maxzoom );
		update_option( self::OPTION, $stored, false );
	}

	/**
	 * The stored pairs.
	 *
	 * @return string[]
	 */
	private function stored(): array {
		$stored = get_option( self::OPTION, array() );
		return is_array( $stored ) ? array_values( array_filter( $stored, 'is_string' ) ) : array();
	}

	/**
	 * A pair as stored.
	 *
	 * @param int $radius  Cluster radius.
	 * @param int $maxzoom Cluster max zoom.
	 */
	private static function pair( int $radius, int $maxzoom ): string {
		return $radius . '/' . $maxzoom;
	}
}
