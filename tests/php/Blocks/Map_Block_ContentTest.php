<?php
/**
 * Maps of posts: the block's `content` attribute in the render and in a post's maps.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Blocks\Map_Attributes;
use Cairn\Maps\Blocks\Map_Block;
use Cairn\Maps\Content\Location_Types;
use Cairn\Maps\Plugin;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Tests\TestCase;

/**
 * `<!-- wp:cairn/map {"content":…} /-->` rendered by core, with real posts and terms.
 *
 * @since 0.3.0
 */
final class Map_Block_ContentTest extends TestCase {

	/**
	 * The loop's post before the test.
	 *
	 * @var mixed
	 */
	private $post_before;

	/**
	 * A public token, and the post global kept.
	 */
	protected function set_up(): void {
		parent::set_up();
		update_option( Settings::TOKEN_OPTION, Map_BlockTest::public_token() );
		$this->post_before = $GLOBALS['post'] ?? null;
	}

	/**
	 * Puts the post global back.
	 */
	protected function tear_down(): void {
		$GLOBALS['post'] = $this->post_before; // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- putting back what the test replaced.
		wp_reset_postdata();
		parent::tear_down();
	}

	/**
	 * A post with a place.
	 *
	 * @param string               $title  Title.
	 * @param array<string, mixed> $fields Post fields over the defaults (published post).
	 * @param array<string, mixed> $meta   Meta over the defaults (a public place in Lyon).
	 * @param int[]                $cats   Category ids.
	 */
	private static function place( string $title, array $fields = array(), array $meta = array(), array $cats = array() ): int {
		$id   = (int) wp_insert_post(
			array_merge(
				array(
					'post_title'    => $title,
					'post_status'   => 'publish',
					'post_type'     => 'post',
					'post_category' => $cats,
				),
				$fields
			)
		);
		$meta = array_merge(
			array(
				Location_Types::META_LAT    => '45.76',
				Location_Types::META_LNG    => '4.83',
				Location_Types::META_PUBLIC => '1',
			),
			$meta
		);
		foreach ( $meta as $key => $value ) {
			if ( null !== $value ) {
				update_post_meta( $id, $key, $value );
			}
		}
		return $id;
	}

	/**
	 * The configuration and the list's ids of the first map in some HTML.
	 *
	 * @param string $html Rendered HTML.
	 * @return array{config: array<string, mixed>, ids: int[], html: string}
	 */
	private static function read( string $html ): array {
		$tags = new \WP_HTML_Tag_Processor( $html );
		$tags->next_tag( array( 'class_name' => 'wp-block-cairn-map' ) );
		$config = json_decode( (string) $tags->get_attribute( 'data-cairn-config' ), true );
		preg_match_all( '/<li data-cairn-marker-id="(\d+)"/', $html, $found );
		return array(
			'config' => is_array( $config ) ? $config : array(),
			'ids'    => array_map( 'intval', $found[1] ),
			'html'   => $html,
		);
	}

	/**
	 * Renders a map block as it stands in a post's content.
	 *
	 * @param array<string, mixed> $attributes Block attributes.
	 * @param int|null             $in_post    The post being shown (the loop's post), if any.
	 */
	private function render( array $attributes, ?int $in_post = null ): array {
		if ( null !== $in_post ) {
			$GLOBALS['post'] = get_post( $in_post ); // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- the loop's post, as a theme sets it.
			setup_postdata( $GLOBALS['post'] );
		} else {
			$GLOBALS['post'] = null; // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- no post: a page outside the loop.
		}
		// Each rendering is the post's first map (as a fresh page view: the list's page parameter).
		$block = Plugin::instance()->get( 'map_block' );
		$this->assertInstanceOf( Map_Block::class, $block );
		$block->reset_hash_names( '' );
		return self::read( do_blocks( '<!-- wp:cairn/map ' . wp_json_encode( $attributes ) . ' /-->' ) );
	}

	/**
	 * A map of posts lists exactly the published posts with a public, valid place: never a draft,
	 * a password-protected post, one whose place is not public, one without or with a broken
	 * coordinate, a scheduled or private one; its markers feed is off (`none`) and its posts feed
	 * names the type.
	 */
	public function test_a_map_of_posts_shows_only_public_places(): void {
		$shown  = array(
			self::place( 'Lyon walk' ),
			self::place( 'Annecy lake', array(), array( Location_Types::META_PUBLIC => 'true' ) ),
		);
		$hidden = array(
			self::place( 'Draft', array( 'post_status' => 'draft' ) ),
			self::place( 'Private', array( 'post_status' => 'private' ) ),
			self::place(
				'Future',
				array(
					'post_status' => 'future',
					'post_date'   => gmdate(
						'Y-m-d H:i:s',
						time() + DAY_IN_SECONDS
					),
				)
			),
			self::place( 'Locked', array( 'post_password' => 'secret' ) ),
			self::place( 'Not public', array(), array( Location_Types::META_PUBLIC => '0' ) ),
			self::place( 'No public flag', array(), array( Location_Types::META_PUBLIC => null ) ),
			self::place( 'No latitude', array(), array( Location_Types::META_LAT => null ) ),
			self::place( 'Broken latitude', array(), array( Location_Types::META_LAT => 'abc' ) ),
			self::place( 'Out of range', array(), array( Location_Types::META_LNG => '190' ) ),
			self::place( 'A page', array( 'post_type' => 'page' ) ),
		);
		$map    = $this->render(
			array(
				'content' => array( 'postTypes' => array( 'post' ) ),
				'markers' => array( 'source' => 'none' ),
			)
		);
		$listed = $map['ids'];
		$this->assertEqualsCanonicalizing( $shown, $listed );
		$this->assertSame( array(), array_intersect( $hidden, $listed ) );
		$this->assertStringContainsString( '2 places on this map', $map['html'] );
		$this->assertStringContainsString( 'href="' . esc_url( get_permalink( $shown[0] ) ) . '"', $map['html'], 'each post links to its page' );
		$this->assertSame( '', $map['config']['markersUrl'] );
		$query = array();
		wp_parse_str( (string) wp_parse_url( $map['config']['postsUrl'], PHP_URL_QUERY ), $query );
		$this->assertSame( 'post', $query['post_type'] ?? null );
	}

	/**
	 * Post types that are not enabled for locations, unknown ones, and taxonomies none of the
	 * chosen types uses are left out; term slugs are sorted into `taxonomy:slug` keys.
	 */
	public function test_disabled_types_and_foreign_taxonomies_are_left_out(): void {
		update_option( Location_Types::OPTION, array( 'post' ) );
		$map = $this->render(
			array(
				'content' => array(
					'postTypes' => array( 'page', 'nope', 'post', 'post' ),
					'terms'     => array(
						'category'           => array( 'travel', 'food', 'Bad Slug', 7 ),
						'cairn_marker_group' => array( 'huts' ),
						'nope'               => array( 'x' ),
					),
					'current'   => 'yes',
				),
			)
		);
		$this->assertSame(
			array(
				'postTypes' => array( 'post' ),
				'terms'     => array( 'category' => array( 'food', 'travel' ) ),
				'current'   => false,
			),
			$map['config']['content']
		);
		$query = array();
		wp_parse_str( (string) wp_parse_url( $map['config']['postsUrl'], PHP_URL_QUERY ), $query );
		$this->assertSame( 'post', $query['post_type'] ?? null );
		$this->assertSame( 'category:food,category:travel', $query['terms'] ?? null );

		update_option( Location_Types::OPTION, array() );
		$none = $this->render( array( 'content' => array( 'postTypes' => array( 'post' ) ) ) );
		$this->assertSame( '', $none['config']['postsUrl'], 'a type no longer enabled shows nothing' );
	}

	/**
	 * Terms narrow the list, and become legend entries (`category:slug`, the term's name, a
	 * palette colour, no icon); without named terms the legend holds the types' categories.
	 */
	public function test_terms_narrow_the_list_and_fill_the_legend(): void {
		$travel = (int) wp_insert_term( 'Travel & trips', 'category', array( 'slug' => 'travel' ) )['term_id'];
		$food   = (int) wp_insert_term( 'Food', 'category', array( 'slug' => 'food' ) )['term_id'];
		$trip   = self::place( 'Trip', array(), array(), array( $travel ) );
		$meal   = self::place( 'Meal', array(), array(), array( $food ) );

		$map = $this->render(
			array(
				'content' => array(
					'postTypes' => array( 'post' ),
					'terms'     => array( 'category' => array( 'travel' ) ),
				),
			)
		);
		$this->assertSame( array( $trip ), array_values( array_intersect( $map['ids'], array( $trip, $meal ) ) ) );
		$legend = array_column( $map['config']['groupStyles'], null, 'slug' );
		$this->assertArrayHasKey( 'category:travel', $legend );
		$this->assertArrayNotHasKey( 'category:food', $legend );
		$this->assertSame( 'Travel & trips', $legend['category:travel']['name'] );
		$this->assertMatchesRegularExpression( '/^#[0-9a-f]{6}$/', $legend['category:travel']['color'] );
		$this->assertSame( '', $legend['category:travel']['icon'] );

		$all    = $this->render( array( 'content' => array( 'postTypes' => array( 'post' ) ) ) );
		$legend = array_column( $all['config']['groupStyles'], 'slug' );
		$this->assertContains( 'category:travel', $legend );
		$this->assertContains( 'category:food', $legend );
		$this->assertNotContains( 'post_tag:anything', $legend );
	}

	/**
	 * "This post's place" shows the post from block context, only when its place is public;
	 * outside a post it shows nothing.
	 */
	public function test_current_shows_the_post_from_context_when_public(): void {
		$public  = self::place( 'Here' );
		$private = self::place( 'Hidden', array(), array( Location_Types::META_PUBLIC => '0' ) );
		$block   = array( 'content' => array( 'current' => true ) );

		$here  = $this->render( $block, $public );
		$query = array();
		wp_parse_str( (string) wp_parse_url( $here['config']['postsUrl'], PHP_URL_QUERY ), $query );
		$this->assertSame( array( 'post', (string) $public ), array( $query['post_type'] ?? null, $query['include'] ?? null ) );
		$this->assertContains( $public, $here['ids'] );

		$hidden = $this->render( $block, $private );
		$this->assertSame( '', $hidden['config']['postsUrl'] );
		$this->assertNotContains( $private, $hidden['ids'] );

		$nowhere = $this->render( $block );
		$this->assertSame( '', $nowhere['config']['postsUrl'] );
	}

	/**
	 * `/cairn/v1/posts/<id>/maps` reads "this post" as the post whose maps they are, with the
	 * same configuration as the render, and its ETag changes when the post's place does.
	 */
	public function test_a_posts_maps_resolve_current_to_that_post(): void {
		$id = self::place( 'With a map' );
		wp_update_post(
			array(
				'ID'           => $id,
				'post_content' => '<!-- wp:cairn/map {"content":{"current":true},"markers":{"source":"none"}} /-->',
			)
		);
		$request  = new \WP_REST_Request( 'GET', '/cairn/v1/posts/' . $id . '/maps' );
		$response = rest_do_request( $request );
		$this->assertSame( 200, $response->get_status() );
		$data = $response->get_data();
		$map  = $data['maps'][0];
		$this->assertStringContainsString( 'include=' . $id, $map['config']['postsUrl'] );
		$this->assertSame( '', $map['config']['markersUrl'] );
		$this->assertSame( array( $id ), array_column( $map['places']['items'], 'id' ) );
		$this->assertTrue( $map['attributes']['content']['current'] );
		$etag = $response->get_headers()['ETag'];

		update_post_meta( $id, Location_Types::META_PUBLIC, '0' );
		$after = rest_do_request( $request );
		$this->assertNotSame( $etag, $after->get_headers()['ETag'], 'the ETag follows the place' );
		$this->assertSame( '', $after->get_data()['maps'][0]['config']['postsUrl'] );
	}

	/**
	 * The posts list pages after the markers: every place reachable, 50 a page.
	 */
	public function test_posts_page_after_the_markers(): void {
		$ids = array();
		for ( $i = 0; $i < 53; $i++ ) {
			$ids[] = self::place( sprintf( 'Post %02d', $i ) );
		}
		$block = Plugin::instance()->get( 'map_block' );
		$this->assertInstanceOf( Map_Block::class, $block );
		$built = $block->client_config(
			array(
				'content' => array( 'postTypes' => array( 'post' ) ),
				'markers' => array( 'source' => 'none' ),
			)
		);
		$page  = $block->places_page( $built['config'] );
		$this->assertSame( 53, $page['total'] );
		$this->assertCount( 50, $page['items'] );
		$this->assertSame( 'Post 00', $page['items'][0]['title'] );

		$_GET['cairn-places'] = '2';
		$second               = $this->render(
			array(
				'content' => array( 'postTypes' => array( 'post' ) ),
				'markers' => array( 'source' => 'none' ),
			)
		);
		unset( $_GET['cairn-places'] ); // phpcs:ignore WordPress.Security.NonceVerification.Recommended -- the page address the test set.
		$this->assertSame( array_slice( $ids, 50 ), $second['ids'] );
	}

	/**
	 * Attributes for a headless front end keep `content`, with `terms` an object in JSON.
	 */
	public function test_attributes_carry_content_with_terms_as_an_object(): void {
		$attributes = Map_Attributes::attributes( Map_Attributes::parse( array(), Map_Block::defaults() )['config'] );
		$this->assertSame( '{"postTypes":[],"terms":{},"current":false}', wp_json_encode( $attributes['content'] ) );
	}
}
