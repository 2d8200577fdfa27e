<?php
/**
 * The shape tiles at scale (slow: bash bin/test-php.sh --group slow --filter Shape_Tiles_Scale).
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Feed;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Feed\Feed_Cache;
use Cairn\Maps\Feed\Shape_Tile_Index;
use Cairn\Maps\Feed\Shape_Tile_Schema;
use Cairn\Maps\Feed\Shapes_Feed;
use Cairn\Maps\Markers\Geometry_Rule;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Markers\Shape_Store;
use Cairn\Maps\Plugin;
use Cairn\Maps\Tests\TestCase;

// phpcs:disable WordPress.WP.AlternativeFunctions.rand_mt_rand, WordPress.WP.AlternativeFunctions.rand_seeding_mt_srand, WordPress.WP.AlternativeFunctions.file_system_read_fwrite -- seeded data; the measurements go to STDERR.

require_once dirname( __DIR__, 3 ) . '/bench/api/trails.php';

/**
 * Seeds CAIRN_SHAPE_TILES_ROUTES routes (default 500) of CAIRN_SHAPE_TILES_VERTICES positions each
 * (default 5,000: recorded hikes of about 50 km, bench/api/trails.php) across the Alps, saved as
 * an editor's REST write saves them (Shape_Store::save()), and measures what a visitor's map of
 * them downloads: the whole shapes feed (what every map downloads without tiles) against the
 * shape tiles of a first view at zoom 5 (the world's tile and the view's, as the runtime asks
 * them), and each tile's PHP build time cold and kept (warm), through the REST server. Prints the
 * numbers and the load average to STDERR, and checks only what must hold at any load.
 *
 * @group slow
 */
class Shape_Tiles_ScaleTest extends TestCase {

	/**
	 * A map of 1,000 × 480 pixels (the block's default height) over the Alps at zoom 5.
	 */
	private const VIEW = array(
		'lng'    => 9.0,
		'lat'    => 46.0,
		'zoom'   => 5,
		'width'  => 1000,
		'height' => 480,
	);

	/**
	 * The seeded routes.
	 *
	 * @var int[]
	 */
	private array $routes = array();

	/**
	 * Seconds the seed's saves took, each.
	 *
	 * @var float[]
	 */
	private array $saves = array();

	/**
	 * Seeds the routes.
	 */
	protected function set_up(): void {
		parent::set_up();
		$index = Plugin::instance()->get( 'shape_tile_index' );
		$this->assertInstanceOf( Shape_Tile_Index::class, $index );
		$this->assertTrue( $index->rebuild_now() );
		$count    = (int) ( getenv( 'CAIRN_SHAPE_TILES_ROUTES' ) ? getenv( 'CAIRN_SHAPE_TILES_ROUTES' ) : 500 );
		$vertices = (int) ( getenv( 'CAIRN_SHAPE_TILES_VERTICES' ) ? getenv( 'CAIRN_SHAPE_TILES_VERTICES' ) : 5000 );
		mt_srand( 33 );
		for ( $i = 0; $i < $count; $i++ ) {
			$lng      = 5.5 + mt_rand( 0, 6500 ) / 1000;
			$lat      = 44.3 + mt_rand( 0, 3500 ) / 1000;
			$geometry = Geometry_Rule::check(
				array(
					'type'        => 'LineString',
					'coordinates' => cairn_bench_trail( $lng, $lat, $vertices, 10.0, 1000 + $i ),
				)
			);
			$this->assertIsArray( $geometry );
			$id    = $this->create_marker(
				array(
					'post_title' => "Trail $i",
					'lat'        => $lat,
					'lng'        => $lng,
					'groups'     => array( 'trails' ),
				)
			);
			$start = microtime( true );
			Shape_Store::save( $id, $geometry );
			$this->saves[]  = microtime( true ) - $start;
			$this->routes[] = $id;
		}
	}

	/**
	 * The tiles of zoom z covering a view of $width × $height pixels around a centre (512-pixel
	 * tiles, no rotation), as the runtime's tilesCovering() of its bounds gives them.
	 *
	 * @return array<int, array{0: int, 1: int, 2: int}>
	 */
	private static function first_view(): array {
		$z     = self::VIEW['zoom'];
		$world = 512 * 2 ** $z;
		$cx    = ( self::VIEW['lng'] + 180 ) / 360 * $world;
		$rad   = deg2rad( self::VIEW['lat'] );
		$cy    = ( 1 - log( tan( M_PI / 4 + $rad / 2 ) ) / M_PI ) / 2 * $world;
		$tiles = array();
		$x0    = (int) floor( ( $cx - self::VIEW['width'] / 2 ) / 512 );
		$x1    = (int) floor( ( $cx + self::VIEW['width'] / 2 ) / 512 );
		$y0    = (int) floor( ( $cy - self::VIEW['height'] / 2 ) / 512 );
		$y1    = (int) floor( ( $cy + self::VIEW['height'] / 2 ) / 512 );
		for ( $x = $x0; $x <= $x1; $x++ ) {
			for ( $y = $y0; $y <= $y1; $y++ ) {
				$tiles[] = array( $z, $x, $y );
			}
		}
		return $tiles;
	}

	/**
	 * A tile through the REST server: its gzip bytes (as served), features, seconds and PHP's peak.
	 *
	 * @param array{0: int, 1: int, 2: int} $tile    z, x, y.
	 * @param string                        $version `v`.
	 * @return array{bytes: int, features: int, seconds: float, peak: int}
	 */
	private function fetch( array $tile, string $version ): array {
		memory_reset_peak_usage();
		$base  = memory_get_usage();
		$start = microtime( true );
		$data  = $this->rest( 'GET', "/cairn/v1/shapes/tiles/{$tile[0]}/{$tile[1]}/{$tile[2]}", array( 'v' => $version ) );
		$took  = microtime( true ) - $start;
		$this->assertSame( 200, $data->get_status() );
		$this->assertInstanceOf( \Cairn\Maps\Rest\Geojson_Response::class, $data );
		$payload = $data->get_payload();
		return array(
			'bytes'    => $payload->gzip_bytes(),
			'features' => $payload->count(),
			'seconds'  => $took,
			'peak'     => memory_get_peak_usage() - $base,
		);
	}

	/**
	 * The 50th and 95th percentiles of some seconds, in milliseconds.
	 *
	 * @param float[] $seconds Seconds.
	 */
	private static function p50_p95( array $seconds ): string {
		sort( $seconds );
		$at = static fn( float $share ): float => $seconds[ (int) min( count( $seconds ) - 1, floor( $share * count( $seconds ) ) ) ] * 1000;
		return sprintf( 'p50 %.1f ms, p95 %.1f ms', $at( 0.5 ), $at( 0.95 ) );
	}

	/**
	 * The first view's bytes against the whole feed's, and each tile's build cold and warm.
	 */
	public function test_first_view_and_tile_builds(): void {
		$load = sys_getloadavg();
		$feed = ( new Shapes_Feed( new Markers_Version(), new Feed_Cache() ) )->build( array() );
		$this->assertSame( count( $this->routes ), $feed->count() );

		$version = ( new Markers_Version() )->get();
		$view    = array_merge( array( array( 0, 0, 0 ) ), self::first_view() );
		$cold    = array();
		$warm    = array();
		$bytes   = 0;
		$peak    = 0;
		$seen    = 0;
		foreach ( $view as $tile ) {
			$first  = $this->fetch( $tile, $version );
			$cold[] = $first['seconds'];
			$bytes += $first['bytes'];
			$peak   = max( $peak, $first['peak'] );
			$seen  += $first['features'];
			$again  = $this->fetch( $tile, $version );
			$warm[] = $again['seconds'];
			$this->assertSame( $first['bytes'], $again['bytes'], 'kept as built' );
		}
		$this->assertSame( count( $this->routes ), $this->fetch( array( 0, 0, 0 ), $version )['features'], 'the world\'s tile holds every route' );
		$this->assertLessThan( $feed->gzip_bytes() / 4, $bytes, 'the first view downloads a fraction of the whole feed' );

		// Deeper tiles along one route, cold and warm.
		$deep      = array();
		$warm_deep = array();
		foreach ( array( 8, 10, 12, 14 ) as $z ) {
			$id          = $this->routes[0];
			$start       = json_decode( (string) get_post_meta( $id, Shape_Store::META_SHAPE, true ), true )['geometry']['coordinates'][0];
			$n           = 2 ** $z;
			$tile        = array( $z, (int) floor( ( $start[0] + 180 ) / 360 * $n ), (int) floor( ( 1 - log( tan( deg2rad( $start[1] ) ) + 1 / cos( deg2rad( $start[1] ) ) ) / M_PI ) / 2 * $n ) );
			$deep[]      = $this->fetch( $tile, $version )['seconds'];
			$warm_deep[] = $this->fetch( $tile, $version )['seconds'];
		}

		global $wpdb;
		$stored = (int) $wpdb->get_var( 'SELECT SUM(LENGTH(geometry)) FROM ' . Shape_Tile_Schema::table( 'cairn_shape_zooms' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.NotPrepared -- measuring the plugin's own table.
		$copies = (int) $wpdb->get_var( $wpdb->prepare( "SELECT SUM(LENGTH(meta_value)) FROM {$wpdb->postmeta} WHERE meta_key = %s", Shape_Store::META_SHAPE ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery -- measuring.

		fwrite(
			STDERR,
			sprintf(
				"\n[shape tiles] %d routes of %s positions (load %.2f %.2f %.2f)\n"
				. "  save (derive + zoom copies): %s\n"
				. "  whole shapes feed: %.2f MB gzip (%.1f MB JSON)\n"
				. "  first view at zoom %d (%d×%d px): %d tiles (the world's + %d), %.0f kB gzip, %d features\n"
				. "  its tiles built (REST): cold %s, kept %s; PHP peak +%.1f MB\n"
				. "  one route's tiles at zoom 8/10/12/14: cold %s, kept %s\n"
				. "  stored: zoom copies %.1f MB beside the feed's copies %.1f MB\n",
				count( $this->routes ),
				number_format( count( json_decode( (string) get_post_meta( $this->routes[0], Shape_Store::META_GEOMETRY, true ), true )['coordinates'] ) ),
				$load[0],
				$load[1],
				$load[2],
				self::p50_p95( $this->saves ),
				$feed->gzip_bytes() / 1e6,
				$feed->json_bytes() / 1e6,
				self::VIEW['zoom'],
				self::VIEW['width'],
				self::VIEW['height'],
				count( $view ),
				count( $view ) - 1,
				$bytes / 1e3,
				$seen,
				self::p50_p95( $cold ),
				self::p50_p95( $warm ),
				$peak / 1048576,
				self::p50_p95( $deep ),
				self::p50_p95( $warm_deep ),
				$stored / 1e6,
				$copies / 1e6
			)
		);
	}
}
