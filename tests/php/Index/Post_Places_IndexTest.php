<?php
/**
 * Posts with a place in the place index: their tiles, list, summary and addresses.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Blocks\Map_Block;
use Cairn\Maps\Index\Place_Filter;
use Cairn\Maps\Index\Place_Index;
use Cairn\Maps\Index\Tile_Service;
use Cairn\Maps\Plugin;
use Cairn\Maps\Support\Limits;
use Cairn\Maps\Support\Map_Schema;
use Cairn\Maps\Tests\TestCase;

/**
 * A posts map is tiled like a markers map (issue 33): the posts the posts feed shows (an enabled
 * type, published, no password, `geo_public` true, valid coordinates) are in the same index, kept
 * apart from the markers by their type, narrowed by their group terms, and switched off by their
 * group keys; their addresses carry a version that a post's change renews.
 *
 * @since 0.10.0
 */
final class Post_Places_IndexTest extends TestCase {

	/**
	 * The "Walks" category's term id.
	 *
	 * @var int
	 */
	private int $walks = 0;

	/**
	 * Two markers, three public posts (two in "Walks"), and posts the feed would not show.
	 */
	protected function set_up(): void {
		parent::set_up();
		$this->index()->rebuild_now();
		$this->walks = (int) wp_insert_term( 'Walks & Hikes', 'category', array( 'slug' => 'walks' ) )['term_id'];
		$this->create_marker(
			array(
				'post_title' => 'Marker hut',
				'lat'        => 46.5,
				'lng'        => 7.9,
			)
		);
		$this->create_marker(
			array(
				'post_title' => 'Marker lake',
				'lat'        => 46.6,
				'lng'        => 8.0,
			)
		);
		$this->post( 'Ridge walk report', 46.55, 7.95, array( $this->walks ) );
		$this->post( 'Valley walk report', 46.45, 7.85, array( $this->walks ) );
		$this->post( 'Market day', 46.52, 7.91 );
		$this->post( 'Hidden spot', 46.53, 7.92, array(), array( 'geo_public' => '0' ) );
		$this->post( 'Draft walk', 46.54, 7.93, array(), array(), array( 'post_status' => 'draft' ) );
		$this->post( 'Members walk', 46.56, 7.96, array(), array(), array( 'post_password' => 'secret' ) );
		$this->post( 'Off the globe', 95.0, 7.9 );
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
	 * Publishes a post with a place through WordPress' own APIs (the index's hooks see it).
	 *
	 * @param string               $title      Title.
	 * @param float                $lat        Latitude.
	 * @param float                $lng        Longitude.
	 * @param int[]                $categories Category ids.
	 * @param array<string, mixed> $meta       Meta beside the coordinates (geo_public '1' unless given).
	 * @param array<string, mixed> $post       Post fields.
	 */
	private function post( string $title, float $lat, float $lng, array $categories = array(), array $meta = array(), array $post = array() ): int {
		$id = (int) wp_insert_post(
			$post + array(
				'post_title'    => $title,
				'post_status'   => 'publish',
				'post_type'     => 'post',
				'post_category' => $categories,
				'meta_input'    => $meta + array(
					'geo_latitude'  => (string) $lat,
					'geo_longitude' => (string) $lng,
					'geo_public'    => '1',
				),
			),
			true
		);
		$this->assertGreaterThan( 0, $id );
		return $id;
	}

	/**
	 * The titles a tile of a selection shows, as points: tile 8/133/90 holds every place seeded,
	 * and above the max zoom (7) none is clustered.
	 *
	 * @param array<string, string> $query The selection.
	 * @return string[]
	 */
	private function tile_titles( array $query ): array {
		$titles = array_map( static fn( array $feature ): string => (string) ( $feature['properties']['title'] ?? '' ), $this->tile_features( $query ) );
		sort( $titles );
		return $titles;
	}

	/**
	 * The features of tile 8/133/90 above the max zoom.
	 *
	 * @param array<string, string> $query The selection.
	 * @return array<int, array<string, mixed>>
	 */
	private function tile_features( array $query ): array {
		$answer = $this->rest( 'GET', '/cairn/v1/tiles/8/133/90', $query + array( 'maxzoom' => '7' ) );
		$this->assertSame( 200, $answer->get_status(), (string) wp_json_encode( $answer->get_data() ) );
		return $answer->get_data()['features'];
	}

	/**
	 * The list's titles of a selection.
	 *
	 * @param array<string, string> $query The selection and filter.
	 * @return string[]
	 */
	private function listed( array $query ): array {
		$answer = $this->rest( 'GET', '/cairn/v1/places', $query );
		$this->assertSame( 200, $answer->get_status(), (string) wp_json_encode( $answer->get_data() ) );
		return array_map( static fn( array $item ): string => (string) $item['title'], $answer->get_data()['items'] );
	}

	/**
	 * The index holds exactly the posts the posts feed shows, beside the markers, kept apart.
	 */
	public function test_the_index_holds_the_public_posts_apart_from_the_markers(): void {
		$posts = ( new Place_Filter() )->with_posts( false, array( 'post' ), array() );
		$this->assertSame( 5, $this->index()->count() );
		$this->assertSame( 2, $this->index()->count( new Place_Filter() ), 'a markers map counts its markers only' );
		$this->assertSame( 3, $this->index()->count( $posts ) );
		$this->assertSame( 2, $this->index()->count( $posts->with_posts( false, array( 'post' ), array( 'category:walks' ) ) ) );
		$this->assertSame( 5, $this->index()->count( $posts->with_posts( true, array( 'post' ), array() ) ) );
		$this->assertSame( 0, $this->index()->count( $posts->with_posts( false, array( 'page' ), array() ) ), 'a type not enabled holds nothing' );
	}

	/**
	 * A rebuild from scratch gives the same places.
	 */
	public function test_a_rebuild_reads_the_posts_too(): void {
		$before = $this->listed( array( 'post_type' => 'post' ) );
		$this->index()->start_rebuild();
		$this->assertTrue( $this->index()->rebuild_now( 2 ) );
		$this->assertSame( $before, $this->listed( array( 'post_type' => 'post' ) ) );
		$this->assertSame( array( 'Marker hut', 'Marker lake', 'Market day', 'Ridge walk report', 'Valley walk report' ), $before );
	}

	/**
	 * The tiles of a selection show its places only, with the posts' group keys.
	 */
	public function test_tiles_show_the_selection(): void {
		$this->assertSame( array( 'Marker hut', 'Marker lake' ), $this->tile_titles( array() ) );
		$this->assertSame(
			array( 'Market day', 'Ridge walk report', 'Valley walk report' ),
			$this->tile_titles(
				array(
					'post_type' => 'post',
					'markers'   => 'none',
				)
			)
		);
		$this->assertSame(
			array( 'Ridge walk report', 'Valley walk report' ),
			$this->tile_titles(
				array(
					'post_type' => 'post',
					'markers'   => 'none',
					'terms'     => 'category:walks',
				)
			)
		);
		$this->assertSame(
			array( 'Marker hut', 'Marker lake', 'Market day' ),
			$this->tile_titles(
				array(
					'post_type' => 'post',
					'hidden'    => 'category:walks',
				)
			)
		);
		$groups = array();
		foreach ( $this->tile_features(
			array(
				'post_type' => 'post',
				'markers'   => 'none',
			)
		) as $feature ) {
			$groups[ $feature['properties']['title'] ] = $feature['properties']['groups'];
		}
		ksort( $groups );
		$this->assertSame(
			array(
				'Market day'         => array( 'category:uncategorized' ),
				'Ridge walk report'  => array( 'category:walks' ),
				'Valley walk report' => array( 'category:walks' ),
			),
			$groups,
			'features carry the legend\'s group keys, never the type'
		);
	}

	/**
	 * The list and the summary answer for posts: search by title and by category name, switch a
	 * category off, count by group key.
	 */
	public function test_list_and_summary_answer_for_posts(): void {
		$posts = array(
			'post_type' => 'post',
			'markers'   => 'none',
		);
		$this->assertSame( array( 'Ridge walk report', 'Valley walk report' ), $this->listed( $posts + array( 'q' => 'report' ) ) );
		$this->assertSame( array( 'Ridge walk report', 'Valley walk report' ), $this->listed( $posts + array( 'q' => 'hikes' ) ), 'a category\'s name finds its posts' );
		$this->assertSame( array(), $this->listed( $posts + array( 'q' => 'marker' ) ) );
		$this->assertSame( array( 'Market day' ), $this->listed( $posts + array( 'hidden' => 'category:walks' ) ) );
		$summary = $this->rest( 'GET', '/cairn/v1/places/summary', $posts )->get_data();
		$this->assertSame( 3, $summary['total'] );
		$this->assertEquals(
			(object) array(
				'category:uncategorized' => 1,
				'category:walks'         => 2,
			),
			$summary['groups']
		);
	}

	/**
	 * A post leaves the index when the posts feed would stop showing it, and comes back.
	 */
	public function test_a_post_follows_the_posts_feed_rule(): void {
		$id    = $this->post( 'Summit post', 46.51, 7.9 );
		$posts = ( new Place_Filter() )->with_posts( false, array( 'post' ), array() );
		$this->assertSame( 4, $this->index()->count( $posts ) );
		update_post_meta( $id, 'geo_public', '0' );
		$this->assertSame( 3, $this->index()->count( $posts ), 'geo_public off' );
		update_post_meta( $id, 'geo_public', '1' );
		$this->assertSame( 4, $this->index()->count( $posts ) );
		wp_update_post(
			array(
				'ID'            => $id,
				'post_password' => 'x',
			)
		);
		$this->assertSame( 3, $this->index()->count( $posts ), 'a password' );
		wp_update_post(
			array(
				'ID'            => $id,
				'post_password' => '',
			)
		);
		wp_set_post_categories( $id, array( $this->walks ) );
		$this->assertSame( 3, $this->index()->count( $posts->with_posts( false, array( 'post' ), array( 'category:walks' ) ) ), 'a new category' );
		wp_trash_post( $id );
		$this->assertSame( 3, $this->index()->count( $posts ), 'trashed' );
	}

	/**
	 * Post types and terms no place has never make a tile of their own (a flood of invented
	 * `post_type=` values stores nothing), while the real selection's tiles are kept.
	 */
	public function test_unknown_post_types_and_terms_are_never_kept(): void {
		$service = new Tile_Service( $this->index() );
		$posts   = ( new Place_Filter() )->with_posts( false, array( 'post' ), array() );
		$radius  = (int) Map_Schema::defaults()['cluster']['radius'];
		$maxzoom = (int) Limits::get( 'cluster.maxZoom' );
		$this->assertTrue( $service->keeps( $radius, $maxzoom, $service->known( $posts ), true ) );
		foreach ( array(
			$posts->with_posts( false, array( 'post', 'nosuch' ), array() ),
			$posts->with_posts( false, array( 'nosuch' ), array() ),
			$posts->with_posts( false, array( 'post' ), array( 'category:nosuch' ) ),
		) as $invented ) {
			$known = $service->known( $invented );
			$this->assertTrue( $known->key() === $service->known( $posts )->key() || ! $service->keeps( $radius, $maxzoom, $known, true ), $invented->key() );
		}
		$this->assertSame( array( 'post' ), $service->known( $posts->with_posts( false, array( 'post', 'nosuch' ), array() ) )->types(), 'an unknown type beside a known one is dropped from the key' );
		$this->assertFalse( $service->keeps( $radius, $maxzoom, $service->known( $posts->with_posts( false, array( 'nosuch' ), array() ) ), true ), 'a selection of unknown types only is never kept' );
	}

	/**
	 * Bad selections answer 400 with a message.
	 */
	public function test_bad_selections_answer_400(): void {
		foreach ( array(
			array( 'post_type' => 'cairn_marker' ),
			array( 'post_type' => 'Post!' ),
			array( 'terms' => 'category:walks' ),
			array( 'markers' => 'none' ),
			array(
				'post_type' => 'post',
				'markers'   => 'all',
			),
			array(
				'post_type' => 'post',
				'markers'   => 'none',
				'group'     => 'huts',
			),
			array(
				'post_type' => 'post',
				'terms'     => 'walks',
			),
		) as $query ) {
			foreach ( array( '/cairn/v1/tiles/0/0/0', '/cairn/v1/places', '/cairn/v1/places/summary' ) as $route ) {
				$answer = $this->rest( 'GET', $route, $query );
				$this->assertSame( 400, $answer->get_status(), $route . ' ' . wp_json_encode( $query ) );
				$this->assertNotSame( '', (string) ( $answer->get_data()['message'] ?? '' ) );
			}
		}
	}

	/**
	 * A big posts map is tiled; its addresses carry a version that a post's move renews, and
	 * only the current one is cached for good.
	 */
	public function test_a_posts_map_is_tiled_and_its_version_follows_the_posts(): void {
		add_filter( 'cairn_maps_tile_threshold', static fn() => 3 );
		$block      = Plugin::instance()->get( 'map_block' );
		$attributes = array(
			'markers' => array(
				'source' => 'none',
				'groups' => array(),
				'ids'    => array(),
			),
			'content' => array(
				'postTypes' => array( 'post' ),
				'terms'     => array( 'category' => array( 'walks' ) ),
				'current'   => false,
			),
		);
		$this->assertInstanceOf( Map_Block::class, $block );
		$this->assertSame( '', $block->client_config( $attributes )['config']['tilesUrl'], 'two walks: under the threshold' );
		$attributes['content']['terms'] = array();
		$config                         = $block->client_config( $attributes )['config'];
		$this->assertStringContainsString( '/cairn/v1/tiles/{z}/{x}/{y}', $config['tilesUrl'] );
		parse_str( (string) wp_parse_url( str_replace( array( '{z}', '{x}', '{y}' ), '0', $config['tilesUrl'] ), PHP_URL_QUERY ), $query );
		$this->assertSame( 'none', $query['markers'] );
		$this->assertSame( 'post', $query['post_type'] );
		$this->assertStringContainsString( 'post_type=post', $config['placesUrl'] );
		$this->assertStringContainsString( 'post_type=post', $config['summaryUrl'] );
		$tile = $this->rest( 'GET', '/cairn/v1/tiles/0/0/0', array_map( 'strval', $query ) );
		$this->assertStringContainsString( 'immutable', (string) $tile->get_headers()['Cache-Control'] );
		$first = $this->posts_of( $query['post_type'] );
		update_post_meta( $first, 'geo_latitude', '46.58' );
		$renewed = $block->client_config( $attributes )['config']['tilesUrl'];
		$this->assertNotSame( $config['tilesUrl'], $renewed, 'a post moved: new addresses' );
		$stale = $this->rest( 'GET', '/cairn/v1/tiles/0/0/0', array_map( 'strval', $query ) );
		$this->assertStringNotContainsString( 'immutable', (string) $stale->get_headers()['Cache-Control'] );
	}

	/**
	 * The id of one public post of a type.
	 *
	 * @param string $type Post type.
	 */
	private function posts_of( string $type ): int {
		$ids = get_posts(
			array(
				'post_type'   => $type,
				'post_status' => 'publish',
				'title'       => 'Market day',
				'fields'      => 'ids',
			)
		);
		$this->assertNotEmpty( $ids );
		return (int) $ids[0];
	}
}
