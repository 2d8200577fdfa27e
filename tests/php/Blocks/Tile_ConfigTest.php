<?php
/**
 * Which maps are served as tiles: `tilesUrl`, `placesUrl`, `summaryUrl` in a map's configuration.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Blocks\Map_Block;
use Cairn\Maps\Index\Place_Index;
use Cairn\Maps\Index\Place_Filter;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Plugin;
use Cairn\Maps\Support\Limits;
use Cairn\Maps\Tests\TestCase;

/**
 * The server's choice per map: tiles at or above the threshold, when the index is ready, for
 * marker selections of all or some groups with clusters and no posts; the whole feed otherwise,
 * with the three addresses empty and everything else unchanged.
 *
 * @since 0.6.0
 */
final class Tile_ConfigTest extends TestCase {

	/**
	 * Five markers, four of them cafés, one without a group; the threshold at five places.
	 */
	protected function set_up(): void {
		parent::set_up();
		$this->index()->rebuild_now();
		for ( $k = 0; $k < 5; $k++ ) {
			$this->create_marker(
				array(
					'post_title' => "Place $k",
					'lat'        => 10 + $k,
					'lng'        => 20 + $k,
					'groups'     => $k < 4 ? array( 'cafes' ) : array(),
				)
			);
		}
		add_filter( 'cairn_maps_tile_threshold', static fn() => 5 );
		$this->assertTrue( $this->index()->is_ready() );
	}

	/**
	 * The place index.
	 */
	private function index(): Place_Index {
		$index = Plugin::instance()->get( 'place_index' );
		$this->assertInstanceOf( Place_Index::class, $index );
		return $index;
	}

	/**
	 * A map's configuration.
	 *
	 * @param array<string, mixed> $attributes Block attributes.
	 * @return array<string, mixed>
	 */
	private function config( array $attributes = array() ): array {
		$block = Plugin::instance()->get( 'map_block' );
		$this->assertInstanceOf( Map_Block::class, $block );
		return $block->client_config( $attributes )['config'];
	}

	/**
	 * The three addresses of a configuration.
	 *
	 * @param array<string, mixed> $config A configuration.
	 * @return array<string, mixed>
	 */
	private static function urls( array $config ): array {
		return array_intersect_key( $config, array_flip( array( 'tilesUrl', 'placesUrl', 'summaryUrl' ) ) );
	}

	/**
	 * A map of every marker at the threshold is tiled: its tile template answers for real.
	 */
	public function test_a_map_at_the_threshold_gets_the_three_addresses(): void {
		$config  = $this->config();
		$version = ( new Markers_Version() )->get();
		$this->assertStringContainsString( 'cairn/v1/tiles/{z}/{x}/{y}', $config['tilesUrl'] );
		$query = array();
		wp_parse_str( (string) wp_parse_url( $config['tilesUrl'], PHP_URL_QUERY ), $query );
		$this->assertSame( $version, $query['v'] );
		$this->assertSame( '80', $query['radius'] );
		$this->assertSame( (string) Limits::get( 'cluster.maxZoom' ), $query['maxzoom'] );
		$this->assertArrayNotHasKey( 'group', $query );
		$this->assertStringContainsString( 'cairn/v1/places', $config['placesUrl'] );
		$this->assertStringContainsString( 'v=' . $version, $config['placesUrl'] );
		$this->assertStringContainsString( 'cairn/v1/places/summary', $config['summaryUrl'] );
		$this->assertStringContainsString( 'v=' . $version, $config['summaryUrl'] );
		$this->assertNotSame( '', $config['markersUrl'], 'the whole feed stays for headless users and the no-JS list' );

		unset( $query['rest_route'] );
		$response = $this->rest( 'GET', '/cairn/v1/tiles/0/0/0', $query );
		$this->assertSame( 200, $response->get_status() );
		$this->assertSame( 5, $response->get_data()['features'][0]['properties']['point_count'] ?? count( $response->get_data()['features'] ) );
		$this->assertSame( 'public, max-age=31536000, immutable', $response->get_headers()['Cache-Control'] );
	}

	/**
	 * A group selection is counted on its own places, and named in the addresses.
	 */
	public function test_a_group_selection_counts_its_own_places(): void {
		$groups = array(
			'markers' => array(
				'source' => 'groups',
				'groups' => array( 'cafes' ),
				'ids'    => array(),
			),
		);
		$this->assertSame( array( '', '', '' ), array_values( self::urls( $this->config( $groups ) ) ), 'four cafés: below five' );
		add_filter( 'cairn_maps_tile_threshold', static fn() => 4, 20 );
		$config = $this->config( $groups );
		$this->assertStringContainsString( 'group=cafes', $config['tilesUrl'] );
		$this->assertStringContainsString( 'group=cafes', $config['placesUrl'] );
		$this->assertStringContainsString( 'group=cafes', $config['summaryUrl'] );
	}

	/**
	 * Below the threshold (the default one here), maps keep their whole feed.
	 */
	public function test_below_the_threshold_nothing_changes(): void {
		remove_all_filters( 'cairn_maps_tile_threshold' );
		$this->assertSame( 10000, Limits::tile_threshold() );
		$this->assertSame(
			array(
				'tilesUrl'   => '',
				'placesUrl'  => '',
				'summaryUrl' => '',
			),
			self::urls( $this->config() )
		);
	}

	/**
	 * Lists of ids, posts, maps without clusters and maps while the index is rebuilt keep their
	 * whole feed, whatever their size.
	 *
	 * @dataProvider whole_feed_maps
	 *
	 * @param array<string, mixed> $attributes Block attributes.
	 */
	public function test_maps_that_keep_their_whole_feed( array $attributes ): void {
		$this->assertSame( array( '', '', '' ), array_values( self::urls( $this->config( $attributes ) ) ) );
	}

	/**
	 * Maps that are never tiled.
	 *
	 * @return array<string, array{0: array<string, mixed>}>
	 */
	public function whole_feed_maps(): array {
		return array(
			'ids'          => array(
				array(
					'markers' => array(
						'source' => 'ids',
						'groups' => array(),
						'ids'    => array( 1, 2, 3, 4, 5, 6 ),
					),
				),
			),
			'no clusters'  => array(
				array(
					'cluster' => array(
						'enabled' => false,
						'radius'  => 80,
					),
				),
			),
			'posts by tag' => array(
				array(
					'content' => array(
						'postTypes' => array( 'post' ),
						'terms'     => array( 'post_tag' => array( 'walks' ) ),
						'current'   => false,
					),
				),
			),
			'no markers'   => array(
				array(
					'markers' => array(
						'source' => 'none',
						'groups' => array(),
						'ids'    => array(),
					),
				),
			),
		);
	}

	/**
	 * While a rebuild is pending the index does not match the markers: no tiles.
	 */
	public function test_no_tiles_while_the_index_is_rebuilt(): void {
		$this->assertNotSame( '', $this->config()['tilesUrl'] );
		$this->index()->start_rebuild();
		$this->assertFalse( $this->index()->is_ready() );
		$this->assertSame( '', $this->config()['tilesUrl'] );
	}

	/**
	 * A tiled map's rendered configuration and its headless one carry the same addresses.
	 */
	public function test_rendered_and_headless_configs_agree(): void {
		$post = self::factory_post( '<!-- wp:cairn/map /-->' );
		$this->assertSame( $this->config()['tilesUrl'], self::rendered_map_configs( $post )[0]['tilesUrl'] );
		$maps = $this->rest( 'GET', '/cairn/v1/posts/' . $post->ID . '/maps' )->get_data()['maps'];
		$this->assertSame( $this->config()['tilesUrl'], $maps[0]['config']['tilesUrl'] );
	}

	/**
	 * A published page with this content.
	 *
	 * @param string $content Block markup.
	 */
	private static function factory_post( string $content ): \WP_Post {
		$id = wp_insert_post(
			array(
				'post_type'    => 'page',
				'post_status'  => 'publish',
				'post_title'   => 'Map page',
				'post_content' => $content,
			)
		);
		return get_post( (int) $id );
	}

	/**
	 * A map's selection is sized from the stored cells, equal to counting the places, without
	 * reading the places table.
	 */
	public function test_the_selection_is_sized_without_reading_the_places(): void {
		$size    = $this->index();
		$queries = array();
		$log     = static function ( $sql ) use ( &$queries ) {
			$queries[] = $sql;
			return $sql;
		};
		add_filter( 'query', $log );
		$all   = $size->count();
		$cafes = $size->count( new Place_Filter( array( 'cafes' ) ) );
		$none  = $size->count( new Place_Filter( array( 'no-such-group' ) ) );
		remove_filter( 'query', $log );
		$this->assertSame( array( 5, 4, 0 ), array( $all, $cafes, $none ) );
		$this->assertSame( array( $this->index()->count(), $this->index()->count( new Place_Filter( array( 'cafes' ) ) ) ), array( $all, $cafes ) );
		$this->assertSame( array(), preg_grep( '/cairn_places\b/', $queries ) );
	}
}
