<?php
/**
 * A map's shapesUrl.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Blocks\Feed_Url;
use Cairn\Maps\Blocks\Map_Block;
use Cairn\Maps\Feed\Shape_Presence;
use Cairn\Maps\Plugin;
use Cairn\Maps\Tests\Feed\Shape_Fixtures;
use Cairn\Maps\Tests\TestCase;

/**
 * `config.shapesUrl`: the shapes feed of the map's marker selection, '' when the selection holds no
 * shape (the map then asks for nothing and loads no shapes code), answered without a query once
 * known.
 *
 * @since 0.5.0
 */
final class Map_Block_ShapesTest extends TestCase {

	use Shape_Fixtures;

	/**
	 * A map's `config.shapesUrl` for a marker selection.
	 *
	 * @param string $source `all`, `groups`, `ids` or `none`.
	 * @param array  $list   Group slugs or ids.
	 * @phpstan-param array<int, string|int> $list
	 */
	private function shapes_url( string $source, array $list = array() ): string {
		$block = Plugin::instance()->get( 'map_block' );
		$this->assertInstanceOf( Map_Block::class, $block );
		$config = $block->client_config(
			array(
				'markers' => array(
					'source' => $source,
					'groups' => 'groups' === $source ? $list : array(),
					'ids'    => 'ids' === $source ? $list : array(),
				),
			)
		)['config'];
		$this->assertArrayHasKey( 'shapesUrl', $config );
		$keys = array_keys( $config );
		$this->assertSame( 'shapesUrl', $keys[ array_search( 'markersUrl', $keys, true ) + 1 ], 'right after markersUrl' );
		return $config['shapesUrl'];
	}

	/**
	 * Queries that look for shapes while $run runs.
	 *
	 * @param callable $run What to run.
	 */
	private static function shape_queries( callable $run ): int {
		$count   = 0;
		$counter = static function ( $sql ) use ( &$count ) {
			if ( false !== strpos( (string) $sql, '_cairn_shape' ) ) {
				++$count;
			}
			return $sql;
		};
		add_filter( 'query', $counter );
		try {
			$run();
		} finally {
			remove_filter( 'query', $counter );
		}
		return $count;
	}

	/**
	 * A site with points only: '' for every selection, one indexed read per markers change, none
	 * after.
	 */
	public function test_points_only_site(): void {
		$point = $this->create_marker( array( 'groups' => array( 'huts' ) ) );
		$this->assertSame( 1, self::shape_queries( fn() => $this->assertSame( '', $this->shapes_url( 'all' ) ) ), 'one read' );
		$none = self::shape_queries(
			function () use ( $point ) {
				$this->assertSame( '', $this->shapes_url( 'all' ) );
				$this->assertSame( '', $this->shapes_url( 'groups', array( 'huts' ) ) );
				$this->assertSame( '', $this->shapes_url( 'ids', array( $point ) ) );
				$this->assertSame( '', $this->shapes_url( 'none' ) );
			}
		);
		$this->assertSame( 0, $none, 'known for every selection' );
	}

	/**
	 * With shapes: the feed of the selection when it holds one, else ''.
	 */
	public function test_selections_with_and_without_shapes(): void {
		$trail = $this->create_shape( self::line( 7, 46 ), array( 'groups' => array( 'trails' ) ) );
		$hut   = $this->create_marker( array( 'groups' => array( 'huts' ) ) );
		$this->create_shape(
			self::line( 8, 46 ),
			array(
				'groups'      => array( 'huts' ),
				'post_status' => 'draft',
			)
		);

		$this->assertSame( Feed_Url::shapes_base(), $this->shapes_url( 'all' ) );
		$this->assertSame( add_query_arg( 'group', 'trails', Feed_Url::shapes_base() ), $this->shapes_url( 'groups', array( 'trails' ) ) );
		$this->assertSame( add_query_arg( 'group', 'huts,trails', Feed_Url::shapes_base() ), $this->shapes_url( 'groups', array( 'huts', 'trails' ) ) );
		$this->assertSame( '', $this->shapes_url( 'groups', array( 'huts' ) ), 'a draft shape is not a shape' );
		$this->assertSame( '', $this->shapes_url( 'groups', array() ) );
		$this->assertSame( add_query_arg( 'include', "{$hut},{$trail}", Feed_Url::shapes_base() ), $this->shapes_url( 'ids', array( $hut, $trail ) ) );
		$this->assertSame( '', $this->shapes_url( 'ids', array( $hut ) ) );
		$this->assertSame( '', $this->shapes_url( 'none' ) );

		$this->assertSame( 0, self::shape_queries( fn() => $this->shapes_url( 'groups', array( 'trails' ) ) ), 'remembered' );
	}

	/**
	 * A shape added to a selection shows at once (the markers version changed).
	 */
	public function test_follows_the_markers_version(): void {
		$hut = $this->create_marker( array( 'groups' => array( 'huts' ) ) );
		$this->assertSame( '', $this->shapes_url( 'groups', array( 'huts' ) ) );
		$this->store_shape( $hut, self::square( 7, 46 ) );
		$this->assertSame( add_query_arg( 'group', 'huts', Feed_Url::shapes_base() ), $this->shapes_url( 'groups', array( 'huts' ) ) );
		wp_update_post(
			array(
				'ID'          => $hut,
				'post_status' => 'draft',
			)
		);
		$this->assertSame( '', $this->shapes_url( 'groups', array( 'huts' ) ), 'unpublished' );
	}

	/**
	 * The remembered answers stay bounded.
	 */
	public function test_answers_are_bounded(): void {
		$this->create_shape( self::line( 7, 46 ), array( 'groups' => array( 'trails' ) ) );
		for ( $i = 1; $i <= Shape_Presence::MAX_ANSWERS + 10; $i++ ) {
			$this->shapes_url( 'ids', array( $i ) );
		}
		$stored = get_option( Shape_Presence::OPTION );
		$this->assertIsArray( $stored );
		$this->assertCount( Shape_Presence::MAX_ANSWERS, $stored['answers'] );
	}

	/**
	 * The maps of a post over REST carry shapesUrl, documented in the route's schema.
	 */
	public function test_post_maps_carry_shapes_url(): void {
		$this->create_shape( self::line( 7, 46 ), array( 'groups' => array( 'trails' ) ) );
		$post = (int) wp_insert_post(
			array(
				'post_type'    => 'post',
				'post_status'  => 'publish',
				'post_title'   => 'Trails',
				'post_content' => '<!-- wp:cairn/map {"markers":{"source":"groups","groups":["trails"],"ids":[]}} /--><!-- wp:cairn/map {"markers":{"source":"groups","groups":["huts"],"ids":[]}} /-->',
			)
		);
		$maps = $this->rest( 'GET', "/cairn/v1/posts/{$post}/maps" )->get_data()['maps'];
		$this->assertSame( array( add_query_arg( 'group', 'trails', Feed_Url::shapes_base() ), '' ), array_map( static fn( $map ) => $map['config']['shapesUrl'], $maps ) );

		$schema = $this->rest( 'OPTIONS', "/cairn/v1/posts/{$post}/maps" )->get_data()['schema'];
		$config = $schema['properties']['maps']['items']['properties']['config']['properties'];
		$this->assertSame( 'string', $config['shapesUrl']['type'] );
	}
}
