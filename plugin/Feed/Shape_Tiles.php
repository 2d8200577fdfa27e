<?php
/**
 * The shape tiles: built, kept and named.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Feed;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Marker_Repository;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Support\Limits;
use Cairn\Maps\Support\Slot_Cache;

/**
 * One tile of a selection's shapes (`GET /cairn/v1/shapes/tiles/<z>/<x>/<y>`): a FeatureCollection
 * in the shapes feed's format of the published shapes whose bounding box meets the tile, grown by
 * `shapeTiles.bufferPixels` on each side (a line's width drawn past its box), each whole (not cut
 * at the tile's edge: a shape is the same in every tile of a zoom, so a map keeps one copy by id)
 * and simplified for the zoom (Markers\Zoom_Simplifier; from `shapeTiles.fullZoom` on, the feed's
 * own copy). Properties are the feed's, of the whole shape (title, groups, bbox, length, ascent,
 * descent), the elevation profile aside (Shape_Zoom_Rows).
 *
 * A tile's key names its content: coordinates, filters, the tables' version and the markers
 * version (renewed by every change of a published marker: its shape, status, title, groups).
 * Built tiles are kept in Support\Slot_Cache (SLOTS slots, each a tile's gzip stream of at most
 * MAX_BYTES; object cache or transients), so a flood of tile URLs overwrites slots and never
 * grows storage; only tiles asked with the current version of a complete index are kept (the
 * maps' own URLs).
 *
 * @since 0.7.0
 */
final class Shape_Tiles {

	/**
	 * Slots of built tiles: at most 32 MB of gzip in all (a first view's tiles of 500 long routes
	 * are about 100 kB together; a tile of a few full routes at zoom 12, 50–200 kB).
	 */
	public const SLOTS = 128;

	/**
	 * Largest tile kept, in gzip bytes (bigger ones are built each time; browsers and CDNs keep
	 * them, immutable under the current version).
	 */
	public const MAX_BYTES = 262144;

	/**
	 * Object cache group (and transient prefix) of the kept tiles.
	 */
	public const GROUP = 'cairn_maps_shape_tiles';

	/**
	 * The gzip level of a tile (Shapes_Feed::GZIP_LEVEL_MAX: numbers compress no better above it).
	 */
	private const GZIP_LEVEL = Shapes_Feed::GZIP_LEVEL_MAX;

	/**
	 * Web Mercator's latitude limit: the first and last rows of tiles reach to the poles.
	 */
	private const MAX_LATITUDE = 85.0511287798;

	/**
	 * The tables.
	 *
	 * @var Shape_Tile_Index
	 */
	private Shape_Tile_Index $index;

	/**
	 * The markers version.
	 *
	 * @var Markers_Version
	 */
	private Markers_Version $version;

	/**
	 * Group reads.
	 *
	 * @var Marker_Repository
	 */
	private Marker_Repository $markers;

	/**
	 * Creates the tiles.
	 *
	 * @param Shape_Tile_Index       $index   The tables.
	 * @param Markers_Version        $version The markers version.
	 * @param Marker_Repository|null $markers Group reads.
	 */
	public function __construct( Shape_Tile_Index $index, Markers_Version $version, ?Marker_Repository $markers = null ) {
		$this->index   = $index;
		$this->version = $version;
		$this->markers = $markers ?? new Marker_Repository();
	}

	/**
	 * The key of a tile's content (32 hex digits), its ETag.
	 *
	 * @param int                                   $z       Zoom.
	 * @param int                                   $x       Column.
	 * @param int                                   $y       Row.
	 * @param array{groups?: string[], ids?: int[]} $filters Canonical filters.
	 */
	public function key( int $z, int $x, int $y, array $filters ): string {
		return md5(
			implode(
				"\n",
				array(
					'shape-tile-1',
					Shape_Tile_Schema::VERSION,
					(string) wp_json_encode( Limits::get( 'shapeTiles' ) ),
					"$z/$x/$y",
					(string) wp_json_encode( $filters ),
					$this->version->get(),
				)
			)
		);
	}

	/**
	 * A tile: the kept one for this key, else built (and kept when $keep and the index is complete).
	 *
	 * @param string                                $key     Its key (key()).
	 * @param int                                   $z       Zoom.
	 * @param int                                   $x       Column.
	 * @param int                                   $y       Row.
	 * @param array{groups?: string[], ids?: int[]} $filters Canonical filters.
	 * @param bool                                  $keep    Whether a built tile may be kept.
	 */
	public function payload( string $key, int $z, int $x, int $y, array $filters, bool $keep ): Feed_Payload {
		$version = $this->version->get(); // Read before the rows: a change meanwhile renews it again.
		$kept    = self::slots()->get( $key );
		if ( is_array( $kept ) && is_string( $kept[0] ?? null ) ) {
			$gzip = base64_decode( $kept[0], true ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_decode -- binary gzip data kept as text.
			if ( is_string( $gzip ) ) {
				return new Feed_Payload( array( $gzip ), (int) ( $kept[1] ?? 0 ), (int) ( $kept[2] ?? 0 ), $version );
			}
		}
		$payload = $this->build( $z, $x, $y, $filters, $version );
		if ( $keep && $payload->gzip_bytes() <= self::MAX_BYTES && $this->is_complete() ) {
			// phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_encode -- binary gzip data kept as text (transients are text).
			self::slots()->set( $key, array( base64_encode( implode( '', $payload->gzip_chunks() ) ), $payload->json_bytes(), $payload->count() ) );
		}
		return $payload;
	}

	/**
	 * Builds a tile: the ids of the shapes meeting it, then their rows BATCH at a time, written into
	 * one gzip stream as they are read.
	 *
	 * @param int                                   $z       Zoom.
	 * @param int                                   $x       Column.
	 * @param int                                   $y       Row.
	 * @param array{groups?: string[], ids?: int[]} $filters Canonical filters.
	 * @param string                                $version The markers version read before the rows.
	 */
	public function build( int $z, int $x, int $y, array $filters, string $version = '' ): Feed_Payload {
		$store    = $this->index->store();
		$ids      = $store->ids_meeting( self::box( $z, $x, $y ), $filters );
		$zoom     = min( $z, (int) Limits::get( 'shapeTiles.fullZoom' ) );
		$features = function () use ( $store, $ids, $zoom ): \Generator {
			foreach ( array_chunk( $ids, Shape_Tile_Store::BATCH ) as $batch ) {
				$groups = $this->markers->groups_of( $batch );
				foreach ( $store->rows( $batch, $zoom ) as $id => $row ) {
					yield Shape_Zoom_Rows::feature_json( $id, $row, $groups[ $id ] ?? array() );
				}
			}
		};
		return Geojson_Writer::compress( $features(), self::GZIP_LEVEL, '' !== $version ? $version : $this->version->get() );
	}

	/**
	 * Whether the tables hold every shape: only then is a tile kept, or sent as immutable.
	 */
	public function is_complete(): bool {
		return $this->index->is_ready();
	}

	/**
	 * Whether a `v` names the current markers version.
	 *
	 * @param string $asked The `v` asked for ('' when none).
	 */
	public function is_current( string $asked ): bool {
		return '' !== $asked && hash_equals( $this->version->get(), $asked );
	}

	/**
	 * The markers version.
	 */
	public function version(): string {
		return $this->version->get();
	}

	/**
	 * A tile's box in degrees `[west, south, east, north]`, grown by the buffer; the first and last
	 * rows reach to the poles (places may lie beyond Web Mercator's limit), and no box crosses the
	 * antimeridian (shapes' boxes do not either: Geometry_Measures::bbox()).
	 *
	 * @param int $z Zoom.
	 * @param int $x Column.
	 * @param int $y Row.
	 * @return float[]
	 */
	public static function box( int $z, int $x, int $y ): array {
		$n      = 2 ** $z;
		$buffer = (float) Limits::get( 'shapeTiles.bufferPixels' ) / (float) Limits::get( 'tileSize' );
		$lng    = static fn( float $column ): float => max( -180.0, min( 180.0, $column / $n * 360 - 180 ) );
		$lat    = static fn( float $row ): float => rad2deg( atan( sinh( M_PI * ( 1 - 2 * $row / $n ) ) ) );
		return array(
			$lng( $x - $buffer ),
			$y + 1 >= $n ? -90.0 : max( -self::MAX_LATITUDE, $lat( $y + 1 + $buffer ) ),
			$lng( $x + 1 + $buffer ),
			0 === $y ? 90.0 : min( self::MAX_LATITUDE, $lat( $y - $buffer ) ),
		);
	}

	/**
	 * The slots of kept tiles.
	 */
	private static function slots(): Slot_Cache {
		return new Slot_Cache( self::GROUP, self::SLOTS, true, DAY_IN_SECONDS );
	}
}
