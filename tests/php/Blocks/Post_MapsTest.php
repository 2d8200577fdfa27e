<?php
/**
 * Finding the maps of a post.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Blocks\Basemap;
use Cairn\Maps\Blocks\Map_Block;
use Cairn\Maps\Blocks\Post_Maps;
use Cairn\Maps\Plugin;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Tests\TestCase;

/**
 * Post_Maps against real posts and patterns: document order, nesting, synced patterns, ids,
 * normalised attributes and errors, and the same configuration as the server render.
 *
 * @since 0.2.0
 */
final class Post_MapsTest extends TestCase {

	/**
	 * The finder, on the plugin's own block.
	 *
	 * @var Post_Maps
	 */
	private Post_Maps $post_maps;

	/**
	 * Sets up the finder.
	 */
	protected function set_up(): void {
		parent::set_up();
		$block = Plugin::instance()->get( 'map_block' );
		$this->assertInstanceOf( Map_Block::class, $block );
		$this->post_maps = new Post_Maps( $block );
	}

	/**
	 * Creates a post.
	 *
	 * @param string $content Post content.
	 * @param string $type    Post type.
	 * @param string $status  Status.
	 */
	private function post( string $content, string $type = 'page', string $status = 'publish' ): \WP_Post {
		$id = wp_insert_post(
			array(
				'post_type'    => $type,
				'post_status'  => $status,
				'post_title'   => 'Maps',
				'post_content' => $content,
			),
			true
		);
		$this->assertIsInt( $id );
		return get_post( $id );
	}

	/**
	 * A map block comment.
	 *
	 * @param array<string, mixed> $attributes Attributes.
	 */
	private static function map( array $attributes = array() ): string {
		return '<!-- wp:cairn/map' . ( array() === $attributes ? '' : ' ' . wp_json_encode( $attributes ) ) . ' /-->';
	}

	/**
	 * A map's `zoom` attribute, to tell maps apart.
	 *
	 * @param array<int, array<string, mixed>> $maps Maps.
	 * @return float[]
	 */
	private static function zooms( array $maps ): array {
		return array_map(
			static function ( $map ) {
				return $map['attributes']['zoom'];
			},
			$maps
		);
	}

	/**
	 * A value as a client receives it over JSON (the REST server's and the attribute's encoding).
	 *
	 * @param mixed $value Value.
	 * @return mixed
	 */
	private static function as_json( $value ) {
		return json_decode( (string) wp_json_encode( $value ), true );
	}

	/**
	 * A block with no attributes: one map, `map-1`, every default of block.json; its style is the
	 * site's basemap, which without a token is OpenFreeMap on MapLibre (since 0.7.0: no longer the
	 * missing-token error).
	 */
	public function test_a_defaults_only_block_gets_every_default(): void {
		$maps = $this->post_maps->maps( $this->post( self::map() ) );

		$this->assertCount( 1, $maps );
		$this->assertSame( 'map-1', $maps[0]['id'] );
		$this->assertSame( '', $maps[0]['error'], 'no token is set: OpenFreeMap needs none' );
		$this->assertSame( '', $maps[0]['config']['accessToken'] );
		$this->assertSame( 'maplibre', $maps[0]['config']['engine'] );
		$this->assertSame( 'openfreemap', $maps[0]['config']['basemap']['provider'] );
		$defaults = Map_Block::defaults();
		$this->assertEquals(
			array(
				'center'              => $defaults['center'],
				'zoom'                => $defaults['zoom'],
				'bearing'             => $defaults['bearing'],
				'pitch'               => $defaults['pitch'],
				'minZoom'             => $defaults['minZoom'],
				'maxZoom'             => $defaults['maxZoom'],
				'mapStyle'            => Basemap::OPENFREEMAP_LIBERTY,
				'controls'            => $defaults['controls'],
				'language'            => $defaults['language'],
				'markers'             => $defaults['markers'],
				'cluster'             => $defaults['cluster'],
				'hash'                => $defaults['hash'],
				'height'              => $defaults['height'],
				'cooperativeGestures' => $defaults['cooperativeGestures'],
				'places'              => array(
					'search'      => true,
					'groupFilter' => true,
					'followMap'   => true,
				),
				'languages'           => array(),
				// `terms` is an object in JSON ({}), as block.json's default.
				'content'             => array(
					'postTypes' => array(),
					'terms'     => new \stdClass(),
					'current'   => false,
				),
				// The site's app for the "Directions" links (since 0.9.0).
				'directions'          => 'site',
			),
			array_intersect_key( $maps[0]['attributes'], $defaults )
		);
		foreach ( $defaults as $name => $default ) {
			if ( null !== $default ) {
				$this->assertArrayHasKey( $name, $maps[0]['attributes'], "{$name} is filled in" );
			}
		}
		$this->assertArrayNotHasKey( 'anchor', $maps[0]['attributes'], 'unset attributes without a default stay out' );
	}

	/**
	 * Values Map_Attributes refuses become the default; a minimum zoom above the maximum is the
	 * `zoom-range` error, as the render shows it.
	 */
	public function test_invalid_stored_attributes_are_normalised_and_reported(): void {
		update_option( Settings::TOKEN_OPTION, Map_BlockTest::public_token() );
		$post = $this->post(
			'<!-- wp:cairn/map {"zoom":"high","minZoom":12,"maxZoom":4,"pitch":90,"bearing":-400,"mapStyle":"javascript:alert(1)","controls":{"zoom":"yes","scale":true},"center":{"lng":500,"lat":10},"language":"not a tag!","cluster":{"enabled":"no","radius":-5},"hash":1,"height":"100%;color:red","cooperativeGestures":"off","markers":{"source":"everything","groups":["ok","Not OK"],"ids":[3,-1,"4"]},"places":{"search":"no","followMap":false},"languages":["fr","\u003cb\u003e","fr","de"],"anchor":"9-not-an-id","className":"wide-map","align":"full"} /-->'
		);
		$maps = $this->post_maps->maps( $post );

		$this->assertCount( 1, $maps );
		$map = $maps[0];
		$this->assertSame( 'zoom-range', $map['error'] );
		$this->assertSame( 'map-1', $map['id'], 'an invalid anchor is not an id' );
		$attributes = $map['attributes'];
		$this->assertEquals( 12, $attributes['minZoom'] );
		$this->assertEquals( 4, $attributes['maxZoom'] );
		$this->assertEquals( 0, $attributes['pitch'] );
		$this->assertEquals( 0, $attributes['bearing'] );
		$this->assertSame( 'mapbox://styles/mapbox/standard', $attributes['mapStyle'] );
		$this->assertSame(
			array(
				'zoom'       => true,
				'compass'    => true,
				'scale'      => true,
				'fullscreen' => true,
				'geolocate'  => false,
			),
			$attributes['controls']
		);
		$this->assertEquals(
			array(
				'lng' => 0,
				'lat' => 10,
			),
			$attributes['center']
		);
		$this->assertSame( 'auto', $attributes['language'] );
		$this->assertEquals(
			array(
				'enabled' => true,
				'radius'  => 80,
			),
			$attributes['cluster']
		);
		$this->assertFalse( $attributes['hash'] );
		$this->assertSame( '480px', $attributes['height'] );
		$this->assertTrue( $attributes['cooperativeGestures'] );
		$this->assertSame(
			array(
				'source' => 'all',
				'groups' => array( 'ok' ),
				'ids'    => array( 3 ),
			),
			$attributes['markers']
		);
		$this->assertSame(
			array(
				'search'      => true,
				'groupFilter' => true,
				'followMap'   => false,
			),
			$attributes['places']
		);
		$this->assertSame( array( 'fr', 'de' ), $attributes['languages'] );
		$this->assertSame( '9-not-an-id', $attributes['anchor'], 'anchor, className and align are kept' );
		$this->assertSame( 'wide-map', $attributes['className'] );
		$this->assertSame( 'full', $attributes['align'] );

		$this->assertSame( self::as_json( array( $map['config'] ) ), self::rendered_map_configs( $post ), 'the render uses the same configuration' );
	}

	/**
	 * Maps nested in a group, columns and a column come in document order with the others.
	 */
	public function test_nested_maps_in_document_order(): void {
		$content = self::map( array( 'zoom' => 1 ) )
			. '<!-- wp:group --><div class="wp-block-group"><!-- wp:columns --><div class="wp-block-columns">'
			. '<!-- wp:column --><div class="wp-block-column">' . self::map( array( 'zoom' => 2 ) ) . '</div><!-- /wp:column -->'
			. '<!-- wp:column --><div class="wp-block-column"><!-- wp:paragraph --><p>Text</p><!-- /wp:paragraph -->' . self::map(
				array(
					'zoom'   => 3,
					'anchor' => 'harbour',
				)
			) . '</div><!-- /wp:column -->'
			. '</div><!-- /wp:columns --></div><!-- /wp:group -->'
			. self::map( array( 'zoom' => 4 ) );
		$post    = $this->post( $content );
		$maps    = $this->post_maps->maps( $post );

		$this->assertEquals( array( 1, 2, 3, 4 ), self::zooms( $maps ) );
		$this->assertSame( array( 'map-1', 'map-2', 'harbour', 'map-4' ), array_column( $maps, 'id' ), 'map-<n> counts every map' );
		$this->assertSame( self::as_json( array_column( $maps, 'config' ) ), self::rendered_map_configs( $post ) );
	}

	/**
	 * A map inside a published synced pattern is found where the pattern is used; draft and
	 * password-protected patterns are not shown by the render, and not here.
	 */
	public function test_maps_of_synced_patterns(): void {
		$pattern   = $this->post( self::map( array( 'zoom' => 5 ) ), 'wp_block' );
		$draft     = $this->post( self::map( array( 'zoom' => 6 ) ), 'wp_block', 'draft' );
		$protected = $this->post( self::map( array( 'zoom' => 7 ) ), 'wp_block' );
		wp_update_post(
			array(
				'ID'            => $protected->ID,
				'post_password' => 'secret',
			)
		);
		$post = $this->post(
			self::map( array( 'zoom' => 1 ) )
			. "<!-- wp:block {\"ref\":{$pattern->ID}} /-->"
			. "<!-- wp:block {\"ref\":{$draft->ID}} /-->"
			. "<!-- wp:block {\"ref\":{$protected->ID}} /-->"
			. '<!-- wp:block {"ref":999999999} /-->'
			. "<!-- wp:block {\"ref\":{$pattern->ID}} /-->"
		);
		$maps = $this->post_maps->maps( $post );

		$this->assertEquals( array( 1, 5, 5 ), self::zooms( $maps ), 'a pattern used twice shows its map twice' );
		$this->assertSame( array( 'map-1', 'map-2', 'map-3' ), array_column( $maps, 'id' ) );
		$this->assertSame( self::as_json( array_column( $maps, 'config' ) ), self::rendered_map_configs( $post ) );
	}

	/**
	 * Patterns that refer to each other are expanded once per chain, as core's render does.
	 */
	public function test_a_cycle_of_patterns_ends(): void {
		$first  = $this->post( '', 'wp_block' );
		$second = $this->post( self::map( array( 'zoom' => 2 ) ) . "<!-- wp:block {\"ref\":{$first->ID}} /-->", 'wp_block' );
		wp_update_post(
			array(
				'ID'           => $first->ID,
				'post_content' => self::map( array( 'zoom' => 1 ) ) . "<!-- wp:block {\"ref\":{$second->ID}} /-->",
			)
		);
		$post = $this->post( "<!-- wp:block {\"ref\":{$first->ID}} /-->" . self::map( array( 'zoom' => 3 ) ) );
		$maps = $this->post_maps->maps( $post );

		$this->assertEquals( array( 1, 2, 3 ), self::zooms( $maps ) );
		$this->assertSame( self::as_json( array_column( $maps, 'config' ) ), self::rendered_map_configs( $post ) );
	}

	/**
	 * A pattern that refers to itself.
	 */
	public function test_a_pattern_referring_to_itself(): void {
		$pattern = $this->post( '', 'wp_block' );
		wp_update_post(
			array(
				'ID'           => $pattern->ID,
				'post_content' => self::map( array( 'zoom' => 4 ) ) . "<!-- wp:block {\"ref\":{$pattern->ID}} /-->",
			)
		);
		$post = $this->post( "<!-- wp:block {\"ref\":{$pattern->ID}} /-->" );

		$this->assertEquals( array( 4 ), self::zooms( $this->post_maps->maps( $post ) ) );
	}

	/**
	 * A chain of patterns deeper than the limit is cut there.
	 */
	public function test_pattern_depth_is_bounded(): void {
		$ref = 0;
		for ( $i = 0; $i <= Post_Maps::MAX_PATTERN_DEPTH; $i++ ) {
			$content = self::map( array( 'zoom' => 1 ) ) . ( $ref > 0 ? "<!-- wp:block {\"ref\":{$ref}} /-->" : '' );
			$ref     = $this->post( $content, 'wp_block' )->ID;
		}
		$post = $this->post( "<!-- wp:block {\"ref\":{$ref}} /-->" );

		$this->assertCount( Post_Maps::MAX_PATTERN_DEPTH, $this->post_maps->maps( $post ) );
	}

	/**
	 * Hash names are counted over hashed maps as the render counts them, and ids over all maps.
	 */
	public function test_hash_names_and_ids_match_the_render(): void {
		update_option( Settings::TOKEN_OPTION, Map_BlockTest::public_token() );
		$post = $this->post(
			self::map( array( 'hash' => true ) )
			. self::map( array( 'anchor' => 'lake' ) )
			. self::map( array( 'hash' => true ) )
			. self::map(
				array(
					'hash'   => true,
					'anchor' => 'harbour',
				)
			)
		);
		$maps = $this->post_maps->maps( $post );

		$this->assertSame( array( 'map-1', 'lake', 'map-3', 'harbour' ), array_column( $maps, 'id' ) );
		$this->assertSame( array( '', '', 'map-2', 'harbour' ), array_column( array_column( $maps, 'config' ), 'hashName' ) );
		$this->assertSame( array( '', '', '', '' ), array_column( $maps, 'error' ) );
		$rendered = self::rendered_map_configs( $post );
		$this->assertSame( self::as_json( array_column( $maps, 'config' ) ), $rendered );
		$this->assertSame( $rendered, self::rendered_map_configs( $post ), 'rendering the content again names the maps the same' );
	}

	/**
	 * Posts without a map, and map-like text that is not a block.
	 */
	public function test_posts_without_maps(): void {
		$this->assertSame( array(), $this->post_maps->maps( $this->post( '<!-- wp:paragraph --><p>No map</p><!-- /wp:paragraph -->' ) ) );
		$this->assertSame( array(), $this->post_maps->maps( $this->post( '<p>wp:cairn/map in the text</p>' ) ) );
		$this->assertSame( array(), $this->post_maps->maps( $this->post( '' ) ) );
	}
}
