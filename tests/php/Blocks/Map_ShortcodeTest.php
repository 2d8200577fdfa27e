<?php
/**
 * The `[cairn_map]` shortcode.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Blocks\Map_Block;
use Cairn\Maps\Blocks\Map_Shortcode;
use Cairn\Maps\Blocks\View_Script;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Plugin;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Tests\TestCase;

/**
 * `[cairn_map …]` rendered by WordPress' shortcode API: the block's HTML for the same attributes,
 * the alert alone for attributes that break their rules, a pattern's maps for `pattern="<id>"`.
 *
 * @since 0.8.0
 */
final class Map_ShortcodeTest extends TestCase {

	/**
	 * The loop's post before the test.
	 *
	 * @var mixed
	 */
	private $post = null;

	/**
	 * Calls of the probe shortcode (a shortcode inside the map's must never run).
	 *
	 * @var int
	 */
	private int $probe_calls = 0;

	/**
	 * A page as the loop's post (maps name their lists by it), nothing of the block enqueued yet.
	 */
	protected function set_up(): void {
		parent::set_up();
		$this->post      = $GLOBALS['post'] ?? null;
		$page            = get_post(
			(int) wp_insert_post(
				array(
					'post_type'   => 'page',
					'post_status' => 'publish',
					'post_title'  => 'Shortcode page',
				)
			)
		);
		$GLOBALS['post'] = $page; // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- the loop's post, as a theme sets it.
		setup_postdata( $page );
		$type = \WP_Block_Type_Registry::get_instance()->get_registered( 'cairn/map' );
		foreach ( $type->view_script_handles as $handle ) {
			wp_dequeue_script( $handle );
		}
		foreach ( $type->style_handles as $handle ) {
			wp_dequeue_style( $handle );
		}
		$this->probe_calls = 0;
		add_shortcode( 'cairn_test_probe', array( $this, 'probe' ) );
	}

	/**
	 * Puts the loop's post back.
	 */
	protected function tear_down(): void {
		remove_shortcode( 'cairn_test_probe' );
		$GLOBALS['post'] = $this->post; // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- putting back what the test replaced.
		wp_reset_postdata();
		parent::tear_down();
	}

	/**
	 * A shortcode that counts its calls.
	 */
	public function probe(): string {
		++$this->probe_calls;
		return '<b id="probe">PROBE RAN</b>';
	}

	/**
	 * The block, whose counters of the post's maps are reset between renders.
	 */
	private static function block(): Map_Block {
		$block = Plugin::instance()->get( 'map_block' );
		self::assertInstanceOf( Map_Block::class, $block );
		return $block;
	}

	/**
	 * Shortcodes as WordPress runs them, the post's maps counted afresh.
	 *
	 * @param string $content Content with shortcodes.
	 */
	private static function render( string $content ): string {
		self::block()->reset_hash_names( '' );
		return do_shortcode( $content );
	}

	/**
	 * Blocks as WordPress renders them, the post's maps counted afresh.
	 *
	 * @param string $content Block markup.
	 */
	private static function render_blocks( string $content ): string {
		self::block()->reset_hash_names( '' );
		return do_blocks( $content );
	}

	/**
	 * The wrappers of the maps in some HTML.
	 *
	 * @param string $html Rendered HTML.
	 * @return array<int, array{state: string, config: mixed}>
	 */
	private static function maps_in( string $html ): array {
		$maps = array();
		$tags = new \WP_HTML_Tag_Processor( $html );
		while ( $tags->next_tag( array( 'class_name' => 'wp-block-cairn-map' ) ) ) {
			$maps[] = array(
				'state'  => (string) $tags->get_attribute( 'data-cairn-state' ),
				'config' => json_decode( (string) $tags->get_attribute( 'data-cairn-config' ), true ),
			);
		}
		return $maps;
	}

	/**
	 * Rendered HTML without the maps' keys (new on every render).
	 *
	 * @param string $html Rendered HTML.
	 */
	private static function without_key( string $html ): string {
		$html = (string) preg_replace( '#<script type="application/json" class="wp-block-cairn-map__key">"[0-9a-f]{32}"</script>#', '', $html );
		return trim( (string) preg_replace( '# data-cairn-key="[0-9a-f]{32}"#', '', $html ) );
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
	 * A published marker.
	 *
	 * @param string   $title  Title.
	 * @param string[] $groups Group slugs.
	 */
	private static function marker( string $title, array $groups = array() ): int {
		$id = (int) wp_insert_post(
			array(
				'post_type'   => Post_Type::POST_TYPE,
				'post_status' => 'publish',
				'post_title'  => $title,
				'meta_input'  => array(
					'cairn_lat' => 48.85,
					'cairn_lng' => 2.35,
				),
			)
		);
		if ( array() !== $groups ) {
			wp_set_object_terms( $id, $groups, Post_Type::TAXONOMY );
		}
		return $id;
	}

	/**
	 * A post of a type and status.
	 *
	 * @param string               $content Content.
	 * @param string               $type    Post type.
	 * @param string               $status  Status.
	 * @param array<string, mixed> $more    More fields.
	 */
	private static function post( string $content, string $type = 'wp_block', string $status = 'publish', array $more = array() ): int {
		$id = wp_insert_post(
			array_merge(
				array(
					'post_type'    => $type,
					'post_status'  => $status,
					'post_title'   => 'A pattern',
					'post_content' => $content,
				),
				$more
			),
			true
		);
		self::assertIsInt( $id );
		return $id;
	}

	/**
	 * The single alert of a rendered error box: its code and text; asserts there is no map.
	 *
	 * @param string $html Rendered HTML.
	 * @return array{code: string, text: string}
	 */
	private function alert_of( string $html ): array {
		$this->assertSame( 1, substr_count( $html, 'class="wp-block-cairn-map"' ), 'one wrapper' );
		$tags = new \WP_HTML_Tag_Processor( $html );
		$this->assertTrue( $tags->next_tag( array( 'class_name' => 'wp-block-cairn-map' ) ) );
		$this->assertSame( 'error', $tags->get_attribute( 'data-cairn-state' ) );
		$this->assertMatchesRegularExpression( '/^[0-9a-f]{32}$/', (string) $tags->get_attribute( 'data-cairn-key' ), 'keyed, so the loader announces it' );
		$this->assertNull( $tags->get_attribute( 'data-cairn-config' ), 'nothing to start' );
		$this->assertStringNotContainsString( 'wp-block-cairn-map__places', $html, 'no guess at the places meant' );
		$this->assertSame( 1, substr_count( $html, 'role="alert"' ) );
		$this->assertSame( 1, preg_match( '#<div class="wp-block-cairn-map__error" role="alert" data-cairn-error="([^"]*)">([^<]*)</div>#', $html, $alert ), 'the alert' );
		return array(
			'code' => $alert[1],
			'text' => html_entity_decode( $alert[2], ENT_QUOTES, 'UTF-8' ),
		);
	}

	/**
	 * Registered on init, by a named method.
	 */
	public function test_the_shortcode_is_registered(): void {
		$this->assertTrue( shortcode_exists( Map_Shortcode::TAG ) );
		$this->assertSame( 10, has_action( 'init', array( Plugin::instance()->get( 'map_shortcode' ), 'register' ) ) );
	}

	/**
	 * Shortcodes and the block attributes they mean.
	 *
	 * @return array<string, array{0: string, 1: array<string, mixed>}>
	 */
	public static function equivalents(): array {
		return array(
			'no attributes'       => array( '[cairn_map]', array() ),
			'the view'            => array(
				'[cairn_map center="48.85,2.35" zoom="5" min_zoom="3" max_zoom="12" bearing="-20" pitch="30.5" height="400px"]',
				array(
					'center'  => array(
						'lng' => 2.35,
						'lat' => 48.85,
					),
					'zoom'    => 5,
					'minZoom' => 3,
					'maxZoom' => 12,
					'bearing' => -20,
					'pitch'   => 30.5,
					'height'  => '400px',
				),
			),
			'switches'            => array(
				'[cairn_map controls="zoom, scale" places="search,follow_map" cluster="false" cluster_radius="40" hash="yes" cooperative_gestures="off"]',
				array(
					'controls'            => array(
						'zoom'       => true,
						'compass'    => false,
						'scale'      => true,
						'fullscreen' => false,
						'geolocate'  => false,
					),
					'places'              => array(
						'search'      => true,
						'groupFilter' => false,
						'followMap'   => true,
					),
					'cluster'             => array(
						'enabled' => false,
						'radius'  => 40,
					),
					'hash'                => true,
					'cooperativeGestures' => false,
				),
			),
			'no controls'         => array(
				'[cairn_map controls="none"]',
				array(
					'controls' => array(
						'zoom'       => false,
						'compass'    => false,
						'scale'      => false,
						'fullscreen' => false,
						'geolocate'  => false,
					),
				),
			),
			'languages'           => array(
				'[cairn_map language="fr" languages="de,fr"]',
				array(
					'language'  => 'fr',
					'languages' => array( 'de', 'fr' ),
				),
			),
			'groups'              => array(
				'[cairn_map groups="museums,parks"]',
				array(
					'markers' => array(
						'source' => 'groups',
						'groups' => array( 'museums', 'parks' ),
						'ids'    => array(),
					),
				),
			),
			'posts only'          => array(
				'[cairn_map markers="none" posts="post" terms="category:travel,category:food" current="true"]',
				array(
					'markers' => array(
						'source' => 'none',
						'groups' => array(),
						'ids'    => array(),
					),
					'content' => array(
						'postTypes' => array( 'post' ),
						'terms'     => array( 'category' => array( 'travel', 'food' ) ),
						'current'   => true,
					),
				),
			),
			'a Mapbox style'      => array(
				'[cairn_map style="mapbox://styles/mapbox/outdoors-v12"]',
				array( 'mapStyle' => 'mapbox://styles/mapbox/outdoors-v12' ),
			),
			'block supports'      => array(
				'[cairn_map anchor="harbour" class="walks is-wide" align="wide" hash="true"]',
				array(
					'anchor'    => 'harbour',
					'className' => 'walks is-wide',
					'align'     => 'wide',
					'hash'      => true,
				),
			),
			'zoom range reversed' => array(
				'[cairn_map min_zoom="12" max_zoom="4"]',
				array(
					'minZoom' => 12,
					'maxZoom' => 4,
				),
			),
		);
	}

	/**
	 * The shortcode renders exactly what the block renders for the same attributes (the keys
	 * aside, new on every render), and enqueues the block's view script and stylesheet.
	 *
	 * @dataProvider equivalents
	 *
	 * @param string               $shortcode  The shortcode.
	 * @param array<string, mixed> $attributes The block's attributes.
	 */
	public function test_the_shortcode_renders_what_the_block_renders( string $shortcode, array $attributes ): void {
		update_option( Settings::TOKEN_OPTION, Map_BlockTest::public_token() );
		$museum = self::marker( 'Louvre', array( 'museums' ) );
		self::marker( 'Tuileries', array( 'parks' ) );

		$from_shortcode = self::render( $shortcode );
		$type           = \WP_Block_Type_Registry::get_instance()->get_registered( 'cairn/map' );
		$this->assertTrue( wp_script_is( View_Script::handle(), 'enqueued' ), 'the loader is enqueued' );
		foreach ( $type->style_handles as $handle ) {
			$this->assertTrue( wp_style_is( $handle, 'enqueued' ), "the block's stylesheet $handle is enqueued" );
		}
		$from_block = self::render_blocks( self::map( $attributes ) );

		$this->assertStringContainsString( 'data-cairn-config=', $from_shortcode );
		$this->assertSame( self::without_key( $from_block ), self::without_key( $from_shortcode ) );
		$this->assertStringContainsString( 'wp-block-cairn-map__places', $from_shortcode, 'the places list is rendered' );
		if ( 'none' !== ( $attributes['markers']['source'] ?? 'all' ) ) {
			$this->assertStringContainsString( 'data-cairn-marker-id="' . $museum . '"', $from_shortcode, 'the places list is rendered' );
		}
	}

	/**
	 * In a classic post, through the_content: the map where the shortcode stands, not inside a
	 * paragraph, the text around it in its paragraphs.
	 */
	public function test_a_classic_post_renders_the_map_outside_paragraphs(): void {
		self::block()->reset_hash_names( '' );
		$html = (string) apply_filters( 'the_content', "Our walks start here.\n\n[cairn_map zoom=\"3\" center=\"48.85,2.35\"]\n\nSee you there." ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- core's filter.

		$this->assertStringContainsString( '<p>Our walks start here.</p>', $html );
		$this->assertStringContainsString( '<p>See you there.</p>', $html );
		$this->assertSame( array( 'loading' ), array_column( self::maps_in( $html ), 'state' ) );
		$this->assertStringNotContainsString( '<p><div', $html );
		$this->assertStringNotContainsString( '[cairn_map', $html );
	}

	/**
	 * A widget's text renders the map too (widgets run shortcodes), with the loader enqueued.
	 */
	public function test_a_text_widget_renders_the_map(): void {
		ob_start();
		the_widget(
			'WP_Widget_Text',
			array(
				'title'  => 'Find us',
				'text'   => '[cairn_map zoom="6" center="48.85,2.35"]',
				'filter' => true,
				'visual' => true,
			)
		);
		$html = (string) ob_get_clean();

		$tags = new \WP_HTML_Tag_Processor( $html );
		$this->assertTrue( $tags->next_tag( array( 'class_name' => 'wp-block-cairn-map' ) ) );
		$this->assertSame( 'loading', $tags->get_attribute( 'data-cairn-state' ) );
		$config = json_decode( (string) $tags->get_attribute( 'data-cairn-config' ), true );
		$this->assertEquals( 6, $config['zoom'] );
		$this->assertTrue( wp_script_is( View_Script::handle(), 'enqueued' ) );
	}

	/**
	 * Shortcodes whose attributes break their rules, and the attribute named.
	 *
	 * @return array<string, array{0: string, 1: string}>
	 */
	public static function invalid_shortcodes(): array {
		return array(
			'zoom not a number'          => array( '[cairn_map zoom="abc"]', 'zoom' ),
			'zoom 1e308'                 => array( '[cairn_map zoom=1e308]', 'zoom' ),
			'zoom beyond a float'        => array( '[cairn_map zoom="1e999"]', 'zoom' ),
			'zoom NaN'                   => array( '[cairn_map zoom="NaN"]', 'zoom' ),
			'zoom hex'                   => array( '[cairn_map zoom="0x10"]', 'zoom' ),
			'min zoom below 0'           => array( '[cairn_map min_zoom="-1"]', 'min_zoom' ),
			'bearing beyond 180'         => array( '[cairn_map bearing="181"]', 'bearing' ),
			'pitch beyond 60'            => array( '[cairn_map pitch="61"]', 'pitch' ),
			'latitude beyond mercator'   => array( '[cairn_map center="86,10"]', 'center' ),
			'longitude beyond 180'       => array( '[cairn_map center="10,181"]', 'center' ),
			'one coordinate'             => array( '[cairn_map center="48.85"]', 'center' ),
			'three coordinates'          => array( '[cairn_map center="1,2,3"]', 'center' ),
			'words for coordinates'      => array( '[cairn_map center="north,east"]', 'center' ),
			'height a script'            => array( '[cairn_map height="<script>alert(1)</script>"]', 'height' ),
			'height without a unit'      => array( '[cairn_map height="400"]', 'height' ),
			'a javascript style'         => array( '[cairn_map style="javascript:alert(1)"]', 'style' ),
			'a style on another host'    => array( '[cairn_map style="https://evil.example/style.json"]', 'style' ),
			'an unknown control'         => array( '[cairn_map controls="zoom,bogus"]', 'controls' ),
			'an unknown places switch'   => array( '[cairn_map places="search,nope"]', 'places' ),
			'a language in capitals'     => array( '[cairn_map language="EN"]', 'language' ),
			'a language with markup'     => array( '[cairn_map languages="de,<b>fr</b>"]', 'languages' ),
			'an unknown marker source'   => array( '[cairn_map markers="some"]', 'markers' ),
			'both groups and ids'        => array( '[cairn_map groups="parks" ids="4"]', 'markers' ),
			'a group name, not a slug'   => array( '[cairn_map groups="City Parks"]', 'groups' ),
			'a negative id'              => array( '[cairn_map ids="1,-2"]', 'ids' ),
			'an id in words'             => array( '[cairn_map ids="seven"]', 'ids' ),
			'a type without locations'   => array( '[cairn_map posts="page"]', 'posts' ),
			'a term without taxonomy'    => array( '[cairn_map posts="post" terms="travel"]', 'terms' ),
			'an unknown taxonomy'        => array( '[cairn_map posts="post" terms="nope:travel"]', 'terms' ),
			'current maybe'              => array( '[cairn_map current="maybe"]', 'current' ),
			'cluster perhaps'            => array( '[cairn_map cluster="perhaps"]', 'cluster' ),
			'cluster radius too small'   => array( '[cairn_map cluster_radius="5"]', 'cluster_radius' ),
			'hash 2'                     => array( '[cairn_map hash="2"]', 'hash' ),
			'gestures empty'             => array( '[cairn_map cooperative_gestures=""]', 'cooperative_gestures' ),
			'an anchor from a digit'     => array( '[cairn_map anchor="1abc"]', 'anchor' ),
			'a class with markup'        => array( '[cairn_map class="<b>x</b>"]', 'class' ),
			'an alignment not offered'   => array( '[cairn_map align="left"]', 'align' ),
			'a shortcode in a value'     => array( '[cairn_map height="[cairn_test_probe]"]', 'height' ),
			'the first of two, in order' => array( '[cairn_map pitch="99" zoom="99"]', 'zoom' ),
			'10,000 characters'          => array( '[cairn_map height="' . str_repeat( 'a', 10000 ) . '"]', 'height' ),
			'10,000 characters of ids'   => array( '[cairn_map ids="' . str_repeat( '1', 10000 ) . '"]', 'ids' ),
			'501 ids'                    => array( '[cairn_map ids="' . implode( ',', range( 1, 501 ) ) . '"]', 'ids' ),
		);
	}

	/**
	 * Attributes that break their rules give the map's alert alone, naming the attribute and what
	 * it must be; the value itself is never printed; no PHP notice (the suite fails on any).
	 *
	 * @dataProvider invalid_shortcodes
	 *
	 * @param string $shortcode The shortcode.
	 * @param string $name      The attribute the alert names.
	 */
	public function test_invalid_attributes_give_the_alert( string $shortcode, string $name ): void {
		$html  = self::render( $shortcode );
		$alert = $this->alert_of( $html );

		$this->assertSame( Map_Shortcode::ATTRIBUTE_ERROR, $alert['code'] );
		$this->assertSame( Map_Shortcode::attribute_message( $name ), $alert['text'] );
		$this->assertStringContainsString( '“' . $name . '” attribute must be', $alert['text'] );
		$this->assertStringNotContainsString( '<script>alert', $html );
		$this->assertStringNotContainsString( '<b>', $html );
		$this->assertStringNotContainsString( 'PROBE RAN', $html );
		$this->assertStringNotContainsString( 'aaaaaaaaaa', $html );
		$this->assertSame( 0, $this->probe_calls, 'a shortcode inside a value never runs' );
		$this->assertTrue( wp_script_is( View_Script::handle(), 'enqueued' ), 'the loader announces the error (cairn:map-error)' );
	}

	/**
	 * What the alert says for a few attributes, word for word.
	 */
	public function test_the_alert_says_what_the_attribute_must_be(): void {
		$this->assertSame(
			'This map cannot be shown because of a configuration error: the shortcode’s “zoom” attribute must be a number from 0 to 22.',
			$this->alert_of( self::render( '[cairn_map zoom="23"]' ) )['text']
		);
		$this->assertSame(
			'This map cannot be shown because of a configuration error: the shortcode’s “center” attribute must be a latitude and a longitude in degrees, such as 48.85,2.35.',
			$this->alert_of( self::render( '[cairn_map center="2.35"]' ) )['text']
		);
		$this->assertSame(
			'This map cannot be shown because of a configuration error: the shortcode’s “controls” attribute must be a comma-separated list of zoom, compass, scale, fullscreen, geolocate, or none.',
			$this->alert_of( self::render( '[cairn_map controls="everything"]' ) )['text']
		);
	}

	/**
	 * Unknown attributes and unnamed values are ignored: the map is the one without them, and
	 * none of their text reaches the page.
	 */
	public function test_unknown_attributes_are_ignored(): void {
		$plain   = self::render( '[cairn_map zoom="4"]' );
		$unknown = self::render( '[cairn_map zoom="4" onload="alert(1)" data-x="<script>bad()</script>" stray MinZoom="30"]' );

		$this->assertSame( self::without_key( $plain ), self::without_key( $unknown ) );
		$this->assertStringNotContainsString( 'alert(1)', $unknown );
		$this->assertStringNotContainsString( 'bad()', $unknown );
	}

	/**
	 * What the shortcode encloses is neither printed nor run.
	 */
	public function test_enclosed_content_is_ignored(): void {
		$html = self::render( '[cairn_map zoom="3"]<em>Hello</em> [cairn_test_probe][/cairn_map]' );

		$this->assertStringContainsString( 'data-cairn-config=', $html );
		$this->assertStringNotContainsString( 'Hello', $html );
		$this->assertStringNotContainsString( 'PROBE RAN', $html );
		$this->assertSame( 0, $this->probe_calls );
	}

	/**
	 * A value WordPress could not read as one (a quote left open by a `]` in it) is that
	 * attribute, broken: the alert, not a map drawn without it.
	 */
	public function test_a_broken_value_is_refused_not_dropped(): void {
		$html = self::render( '[cairn_map zoom="[cairn_test_probe"]' );

		$this->assertSame( Map_Shortcode::attribute_message( 'zoom' ), $this->alert_of( $html )['text'] );
		$this->assertSame( 0, $this->probe_calls );
	}

	/**
	 * `pattern="<id>"` renders the pattern as a reference to it renders: its maps and the rest of
	 * what it holds, in order.
	 */
	public function test_a_pattern_renders_its_maps_and_the_rest(): void {
		update_option( Settings::TOKEN_OPTION, Map_BlockTest::public_token() );
		$id = self::post(
			'<!-- wp:heading --><h2 class="wp-block-heading">Walks by the river</h2><!-- /wp:heading -->'
			. self::map( array( 'zoom' => 5 ) )
			. '<!-- wp:group --><div class="wp-block-group">' . self::map( array( 'zoom' => 9 ) ) . '</div><!-- /wp:group -->'
		);

		$html = self::render( '[cairn_map pattern="' . $id . '"]' );

		$this->assertSame( self::without_key( self::render_blocks( '<!-- wp:block {"ref":' . $id . '} /-->' ) ), self::without_key( $html ) );
		$this->assertStringContainsString( 'Walks by the river', $html );
		$this->assertEquals( array( 5, 9 ), array_map( static fn( array $map ) => $map['config']['zoom'], self::maps_in( $html ) ) );
		$this->assertTrue( wp_script_is( View_Script::handle(), 'enqueued' ) );
	}

	/**
	 * Patterns (and ids) that cannot be shown: the alert, one message for all that are not
	 * published patterns, and nothing of their content.
	 */
	public function test_patterns_that_cannot_be_shown_give_the_alert_without_their_content(): void {
		$secret = self::map() . '<!-- wp:paragraph --><p>Secret walk</p><!-- /wp:paragraph -->';
		$cases  = array(
			'draft'    => self::post( $secret, 'wp_block', 'draft' ),
			'pending'  => self::post( $secret, 'wp_block', 'pending' ),
			'private'  => self::post( $secret, 'wp_block', 'private' ),
			'trashed'  => self::post( $secret, 'wp_block', 'trash' ),
			'password' => self::post( $secret, 'wp_block', 'publish', array( 'post_password' => 'walks' ) ),
			'a page'   => self::post( $secret, 'page' ),
			'a marker' => self::post( $secret, Post_Type::POST_TYPE ),
			'no post'  => 987654321,
			'largest'  => 0,
		);
		$this->act_as( 'administrator' );
		foreach ( $cases as $case => $id ) {
			$html  = self::render( '[cairn_map pattern="' . ( 0 === $id ? '9223372036854775807' : $id ) . '"]' );
			$alert = $this->alert_of( $html );
			$this->assertSame( Map_Shortcode::PATTERN_ERROR, $alert['code'], $case );
			$this->assertSame( 'This map cannot be shown: there is no published pattern with the ID ' . ( 0 === $id ? PHP_INT_MAX : $id ) . '.', $alert['text'], $case );
			$this->assertStringNotContainsString( 'Secret walk', $html, $case );
		}
	}

	/**
	 * Ids that are no whole number from 1, and attributes beside `pattern`: the attribute's alert.
	 */
	public function test_pattern_ids_must_be_positive_whole_numbers(): void {
		$id = self::post( self::map() );
		foreach ( array( '0', '-3', 'abc', '12abc', '1e3', ' ', '', '012', '99999999999999999999', '<script>' ) as $value ) {
			$html  = self::render( '[cairn_map pattern="' . $value . '"]' );
			$alert = $this->alert_of( $html );
			$this->assertSame( Map_Shortcode::ATTRIBUTE_ERROR, $alert['code'], $value );
			$this->assertSame( Map_Shortcode::attribute_message( 'pattern' ), $alert['text'], $value );
		}
		$alert = $this->alert_of( self::render( '[cairn_map pattern="' . $id . '" zoom="5"]' ) );
		$this->assertSame( 'This map cannot be shown because of a configuration error: the shortcode’s “zoom” attribute cannot be used with “pattern” (change the map in its pattern instead).', $alert['text'] );
	}

	/**
	 * A published pattern without a map, and a pattern that would show itself.
	 */
	public function test_a_pattern_without_a_map_or_showing_itself(): void {
		$plain = self::post( '<!-- wp:paragraph --><p>Just words</p><!-- /wp:paragraph -->' );
		$alert = $this->alert_of( self::render( '[cairn_map pattern="' . $plain . '"]' ) );
		$this->assertSame( Map_Shortcode::PATTERN_ERROR, $alert['code'] );
		$this->assertSame( "This map cannot be shown: pattern $plain holds no Cairn map.", $alert['text'] );

		$this->act_as( 'administrator' );
		$loop = self::post( self::map( array( 'zoom' => 4 ) ) );
		wp_update_post(
			array(
				'ID'           => $loop,
				'post_content' => self::map( array( 'zoom' => 4 ) ) . "<!-- wp:shortcode -->[cairn_map pattern=\"$loop\"]<!-- /wp:shortcode -->",
			)
		);
		$html = self::render( '[cairn_map pattern="' . $loop . '"]' );
		$this->assertSame( array( 'loading', 'error' ), array_column( self::maps_in( $html ), 'state' ), 'the map, then the alert where the pattern would repeat' );
		$this->assertStringContainsString( "This map cannot be shown: pattern $loop would show itself.", $html );
	}
}
