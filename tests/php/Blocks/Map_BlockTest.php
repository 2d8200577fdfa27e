<?php
/**
 * Server rendering of the map block.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Tests\Feed\Geojson_FeedTest;
use Cairn\Maps\Tests\TestCase;

/**
 * `<!-- wp:cairn/map /-->` rendered by WordPress' block renderer.
 *
 * @since 0.1.0
 */
final class Map_BlockTest extends TestCase {

	/**
	 * A well-formed public token.
	 */
	public static function public_token(): string {
		return 'pk.' . rtrim( strtr( base64_encode( '{"u":"cairn","a":"test"}' ), '+/', '-_' ), '=' ) . '.c2lnbmF0dXJl'; // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_encode
	}

	/**
	 * The request globals render_post() sets, to put back.
	 *
	 * @var array<string, mixed>
	 */
	private array $request = array();

	/**
	 * Keeps the request globals as they were.
	 */
	protected function set_up(): void {
		parent::set_up();
		$this->request = array(
			'get'  => $_GET, // phpcs:ignore WordPress.Security.NonceVerification.Recommended -- kept to be put back.
			'uri'  => $_SERVER['REQUEST_URI'] ?? null, // phpcs:ignore WordPress.Security.ValidatedSanitizedInput -- kept as is, to be put back as is.
			'post' => $GLOBALS['post'] ?? null,
		);
	}

	/**
	 * Puts the request globals back: a later test (core's list tables run wp()) must not see this
	 * test's page address.
	 */
	protected function tear_down(): void {
		$_GET = $this->request['get'];
		if ( null === $this->request['uri'] ) {
			unset( $_SERVER['REQUEST_URI'] );
		} else {
			$_SERVER['REQUEST_URI'] = $this->request['uri'];
		}
		$GLOBALS['post'] = $this->request['post']; // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- putting back what the test replaced.
		wp_reset_postdata();
		parent::tear_down();
	}

	/**
	 * Renders a block comment through core's parser and renderer.
	 *
	 * @param array<string, mixed> $attributes Block attributes.
	 */
	private function render( array $attributes = array() ): string {
		$json = array() === $attributes ? '' : ' ' . wp_json_encode( $attributes );
		return do_blocks( "<!-- wp:cairn/map{$json} /-->" );
	}

	/**
	 * Rendered HTML without the maps' keys (new on every render) and their scripts.
	 *
	 * @param string $html Rendered HTML.
	 */
	private static function without_key( string $html ): string {
		$html = (string) preg_replace( '#<script type="application/json" class="wp-block-cairn-map__key">"[0-9a-f]{32}"</script>#', '', $html );
		return (string) preg_replace( '# data-cairn-key="[0-9a-f]{32}"#', '', $html );
	}

	/**
	 * The wrapper element as a tag processor positioned on it.
	 *
	 * @param string $html Rendered HTML.
	 */
	private function wrapper( string $html ): \WP_HTML_Tag_Processor {
		$tags = new \WP_HTML_Tag_Processor( $html );
		$this->assertTrue( $tags->next_tag( array( 'class_name' => 'wp-block-cairn-map' ) ), 'the wrapper has class wp-block-cairn-map' );
		return $tags;
	}

	/**
	 * Block is registered from the build folder.
	 */
	public function test_block_is_registered_from_the_build_folder(): void {
		$type = \WP_Block_Type_Registry::get_instance()->get_registered( 'cairn/map' );
		$this->assertNotNull( $type );
		$this->assertTrue( $type->is_dynamic() );
		$this->assertSame( 'mapbox://styles/mapbox/standard', $type->attributes['mapStyle']['default'] );
	}

	/**
	 * Without a token a block that names a Mapbox style shows the missing token alert (since
	 * 0.7.0 only such a block: one of block.json's default style draws OpenFreeMap).
	 */
	public function test_without_a_token_the_block_shows_the_missing_token_alert(): void {
		$html    = $this->render( array( 'mapStyle' => 'mapbox://styles/mapbox/outdoors-v12' ) );
		$wrapper = $this->wrapper( $html );
		$this->assertSame( 'error', $wrapper->get_attribute( 'data-cairn-state' ) );

		$alerts = new \WP_HTML_Tag_Processor( $html );
		$this->assertTrue( $alerts->next_tag( array( 'class_name' => 'wp-block-cairn-map__error' ) ) );
		$this->assertSame( 'alert', $alerts->get_attribute( 'role' ) );
		$this->assertSame( 'missing-token', $alerts->get_attribute( 'data-cairn-error' ) );
		$this->assertStringContainsString( 'public Mapbox access token must be provided', $html );
		$this->assertSame( 1, substr_count( $html, 'role="alert"' ), 'exactly one alert' );
	}

	/**
	 * A new site without a token draws a map: engine maplibre, OpenFreeMap Liberty, no token, no
	 * alert, no consent needed beyond the owner's setting.
	 */
	public function test_without_a_token_the_default_block_draws_openfreemap(): void {
		$html    = $this->render( array( 'zoom' => 4 ) );
		$wrapper = $this->wrapper( $html );
		$this->assertSame( 'loading', $wrapper->get_attribute( 'data-cairn-state' ) );
		$this->assertStringNotContainsString( 'role="alert"', $html );
		$this->assertStringNotContainsString( 'access token', $html );
		$config = json_decode( (string) $wrapper->get_attribute( 'data-cairn-config' ), true );
		$this->assertSame( 'maplibre', $config['engine'] );
		$this->assertSame( 'https://tiles.openfreemap.org/styles/liberty', $config['style'] );
		$this->assertSame( '', $config['accessToken'] );
		$this->assertSame(
			array(
				'provider'    => 'openfreemap',
				'glyphs'      => '',
				'hosts'       => array( 'tiles.openfreemap.org' ),
				// The style's own (OpenFreeMap's TileJSON carries it): shown once, not twice.
				'attribution' => '',
			),
			$config['basemap']
		);
		$this->assertEquals( 4, $config['zoom'] );
	}

	/**
	 * A MapLibre map never prints the token, even when the site has one; a Mapbox map does.
	 */
	public function test_the_token_is_printed_for_mapbox_maps_only(): void {
		update_option( Settings::TOKEN_OPTION, self::public_token() );
		$free = json_decode( (string) $this->wrapper( $this->render( array( 'mapStyle' => 'https://tiles.openfreemap.org/styles/positron' ) ) )->get_attribute( 'data-cairn-config' ), true );
		$this->assertSame( 'maplibre', $free['engine'] );
		$this->assertSame( '', $free['accessToken'] );
		$html = $this->render( array( 'mapStyle' => 'https://tiles.openfreemap.org/styles/positron' ) );
		$this->assertStringNotContainsString( self::public_token(), $html );

		$default = json_decode( (string) $this->wrapper( $this->render() )->get_attribute( 'data-cairn-config' ), true );
		$this->assertSame( 'mapbox', $default['engine'], 'automatic with a token: Mapbox Standard' );
		$this->assertSame( 'mapbox://styles/mapbox/standard', $default['style'] );
		$this->assertSame( self::public_token(), $default['accessToken'] );
		$this->assertSame( 'mapbox', $default['basemap']['provider'] );
	}

	/**
	 * A self-hosted basemap: engine maplibre, the site's glyphs, no other host, no consent wait
	 * even when the owner requires consent for maps.
	 */
	public function test_a_self_hosted_basemap_needs_no_consent(): void {
		$archive = 'pmtiles://' . home_url( '/wp-content/uploads/2026/12/world.pmtiles' );
		update_option( Settings::BASEMAP_OPTION, $archive );
		update_option( Settings::CONSENT_OPTION, true );
		$html    = $this->render();
		$wrapper = $this->wrapper( $html );
		$config  = json_decode( (string) $wrapper->get_attribute( 'data-cairn-config' ), true );
		$this->assertSame( $archive, $config['style'] );
		$this->assertSame( 'maplibre', $config['engine'] );
		$this->assertSame( 'self-hosted', $config['basemap']['provider'] );
		$this->assertSame( array(), $config['basemap']['hosts'] );
		$this->assertSame( plugins_url( 'assets/basemap/glyphs/', CAIRN_MAPS_FILE ) . '{fontstack}/{range}.pbf', $config['basemap']['glyphs'] );
		$this->assertFalse( $config['consent']['required'] );
		$this->assertNull( $wrapper->get_attribute( 'data-cairn-consent' ) );
		$this->assertStringNotContainsString( 'Load map', $html );

		// A block on the same page naming OpenFreeMap still waits for consent.
		$free = $this->wrapper( $this->render( array( 'mapStyle' => 'https://tiles.openfreemap.org/styles/bright' ) ) );
		$this->assertSame( 'required', $free->get_attribute( 'data-cairn-consent' ) );
		$this->assertTrue( json_decode( (string) $free->get_attribute( 'data-cairn-config' ), true )['consent']['required'] );
	}

	/**
	 * With a public token the block starts loading and carries the config.
	 */
	public function test_with_a_public_token_the_block_starts_loading_and_carries_the_config(): void {
		update_option( Settings::TOKEN_OPTION, self::public_token() );
		$html    = $this->render( array( 'zoom' => 5 ) );
		$wrapper = $this->wrapper( $html );

		$this->assertSame( 'loading', $wrapper->get_attribute( 'data-cairn-state' ) );
		$this->assertStringNotContainsString( 'role="alert"', $html );
		$config = json_decode( (string) $wrapper->get_attribute( 'data-cairn-config' ), true );
		$this->assertIsArray( $config );
		$this->assertSame( self::public_token(), $config['accessToken'] );
		$this->assertEquals( 5, $config['zoom'] );
		$this->assertStringContainsString( '/cairn/v1/markers', $config['markersUrl'] );
	}

	/**
	 * Each rendered map carries a fresh key in `data-cairn-key` and in a JSON script that is the
	 * wrapper's own child (what the loader checks); an author cannot write such a script: kses
	 * keeps a look-alike wrapper's class and data attributes, and drops the script.
	 */
	public function test_each_render_carries_a_fresh_key_an_author_cannot_forge(): void {
		update_option( Settings::TOKEN_OPTION, self::public_token() );
		$keys = array();
		foreach ( array( 1, 2 ) as $render ) {
			$html    = $this->render( array() );
			$wrapper = $this->wrapper( $html );
			$key     = (string) $wrapper->get_attribute( 'data-cairn-key' );
			$this->assertMatchesRegularExpression( '/^[0-9a-f]{32}$/', $key, "render {$render}" );
			$this->assertMatchesRegularExpression( '#^<div [^>]*data-cairn-key="' . $key . '"[^>]*><script type="application/json" class="wp-block-cairn-map__key">"' . $key . '"</script>#', $html, 'the script is the wrapper\'s first child' );
			$keys[] = $key;
		}
		$this->assertNotSame( $keys[0], $keys[1], 'a new key on every render' );

		$this->act_as( 'author' );
		$this->assertFalse( current_user_can( 'unfiltered_html' ) );
		$forged = '<div class="wp-block-cairn-map" data-cairn-state="loading" data-cairn-key="' . $keys[0] . '" data-cairn-config="{}"><script type="application/json" class="wp-block-cairn-map__key">"' . $keys[0] . '"</script><div class="wp-block-cairn-map__map"></div></div>';
		$saved  = wp_unslash( (string) apply_filters( 'content_save_pre', wp_slash( $forged ) ) ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- core's filter, as a save runs it.
		$this->assertStringContainsString( 'data-cairn-key="' . $keys[0] . '"', $saved, 'kses keeps data attributes' );
		$this->assertStringNotContainsString( '<script', $saved, 'but never a script' );
	}

	/**
	 * The config carries the places panel's switches, the visitors' label languages and the
	 * site's units for distances (miles where the site's locale measures in miles).
	 */
	public function test_the_config_carries_places_languages_and_the_sites_units(): void {
		update_option( Settings::TOKEN_OPTION, self::public_token() );
		$config = json_decode(
			(string) $this->wrapper(
				$this->render(
					array(
						'places'    => array( 'search' => false ),
						'languages' => array( 'fr', 'de' ),
					)
				)
			)->get_attribute( 'data-cairn-config' ),
			true
		);
		$this->assertSame(
			array(
				'search'      => false,
				'groupFilter' => true,
				'followMap'   => true,
			),
			$config['places']
		);
		$this->assertSame( array( 'fr', 'de' ), $config['languages'] );

		foreach ( array(
			'en_US' => 'imperial',
			'en_LR' => 'imperial',
			'my_MM' => 'imperial',
			'en_GB' => 'metric',
			'de_DE' => 'metric',
		) as $locale => $units ) {
			$site_locale = static fn() => $locale;
			add_filter( 'locale', $site_locale );
			$config      = json_decode( (string) $this->wrapper( $this->render() )->get_attribute( 'data-cairn-config' ), true );
			remove_filter( 'locale', $site_locale );
			$this->assertSame( $units, $config['units'], $locale );
			$this->assertSame( array(), $config['languages'], 'no language control by default' );
		}
	}

	/**
	 * Two maps that keep their view in the address get their own part of the fragment.
	 */
	public function test_hashed_maps_on_one_page_get_their_own_fragment_names(): void {
		update_option( Settings::TOKEN_OPTION, self::public_token() );
		$GLOBALS['post'] = self::factory_post(); // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- the loop's post, as a theme sets it.
		setup_postdata( $GLOBALS['post'] );
		$html = do_blocks( '<!-- wp:cairn/map {"hash":true} /--><!-- wp:cairn/map /--><!-- wp:cairn/map {"hash":true} /--><!-- wp:cairn/map {"hash":true,"anchor":"harbour"} /-->' );
		wp_reset_postdata();

		$names = array();
		$tags  = new \WP_HTML_Tag_Processor( $html );
		while ( $tags->next_tag( array( 'class_name' => 'wp-block-cairn-map' ) ) ) {
			$config  = json_decode( (string) $tags->get_attribute( 'data-cairn-config' ), true );
			$names[] = array( $config['hash'], $config['hashName'] );
		}
		$this->assertSame( array( array( true, '' ), array( false, '' ), array( true, 'map-2' ), array( true, 'harbour' ) ), $names );
	}

	/**
	 * A post to render blocks in.
	 */
	private static function factory_post(): \WP_Post {
		$id = wp_insert_post(
			array(
				'post_title'  => 'Two maps',
				'post_status' => 'publish',
				'post_type'   => 'page',
			)
		);
		return get_post( $id );
	}

	/**
	 * A stored value with entities, quotes or angle brackets cannot change the configuration's
	 * keys: every `&`, `<`, `>`, `'` and `"` in data-cairn-config is a JSON escape, so esc_attr()
	 * (which keeps existing entities) cannot let `&quot;` become a quote in the DOM.
	 *
	 * @dataProvider hostile_styles
	 *
	 * @param string $style A style URL that Map_Attributes accepts (https, no quote or bracket).
	 */
	public function test_stored_values_cannot_add_keys_to_the_config_attribute( string $style ): void {
		update_option( Settings::TOKEN_OPTION, self::public_token() );
		// The site owner allows the styles' host, so the stored value reaches the config as it is.
		add_filter( 'cairn_maps_style_hosts', static fn( array $hosts ): array => array_merge( $hosts, array( 'tiles.example.com' ) ) );
		$keys = array_keys( json_decode( (string) $this->wrapper( $this->render() )->get_attribute( 'data-cairn-config' ), true ) );
		$html = $this->render(
			array(
				'mapStyle' => $style,
				'hash'     => true,
				'anchor'   => 'x"y<z&amp;',
			)
		);

		$config = json_decode( (string) $this->wrapper( $html )->get_attribute( 'data-cairn-config' ), true );
		$this->assertIsArray( $config, 'the attribute still holds valid JSON' );
		$this->assertSame( $keys, array_keys( $config ), 'no key was added' );
		$this->assertSame( $style, $config['style'], 'the stored value arrives unchanged' );
		$this->assertSame( '', $config['accessToken'], 'a MapLibre style: no token (since 0.7.0)' );
	}

	/**
	 * Style URLs with entities that would decode to JSON syntax.
	 *
	 * @return array<string, array{0: string}>
	 */
	public static function hostile_styles(): array {
		return array(
			'a quote entity adds a key'  => array( 'https://tiles.example.com/style.json?a=&quot;,&quot;injected&quot;:&quot;1' ),
			'numeric entities and tags'  => array( 'https://tiles.example.com/style.json?a=&#34;,&#x22;injected&#34;:&#34;1&amp;b=&lt;/div&gt;&#39;' ),
			'an entity closes the value' => array( 'https://tiles.example.com/style.json?x=&quot;}' ),
		);
	}

	/**
	 * A secret token never reaches the page.
	 */
	public function test_a_secret_token_never_reaches_the_page(): void {
		$secret = 'sk.' . substr( self::public_token(), 3 );
		add_filter(
			'cairn_maps_access_token',
			static function () use ( $secret ) {
				return $secret;
			}
		);
		// A Mapbox style (the default style draws OpenFreeMap without a usable token, since 0.7.0).
		$html = $this->render( array( 'mapStyle' => 'mapbox://styles/mapbox/outdoors-v12' ) );
		$this->assertStringNotContainsString( $secret, $html );
		$this->assertStringContainsString( 'data-cairn-error="secret-token"', $html );
		$this->assertStringNotContainsString( $secret, $this->render() );
	}

	/**
	 * Min zoom above max zoom is the zoom range error.
	 */
	public function test_min_zoom_above_max_zoom_is_the_zoom_range_error(): void {
		update_option( Settings::TOKEN_OPTION, self::public_token() );
		$html = $this->render(
			array(
				'minZoom' => 12,
				'maxZoom' => 4,
			)
		);
		$this->assertSame( 'error', $this->wrapper( $html )->get_attribute( 'data-cairn-state' ) );
		$this->assertStringContainsString( 'data-cairn-error="zoom-range"', $html );
	}

	/**
	 * The marker list shows published titles escaped.
	 */
	public function test_the_marker_list_shows_published_titles_escaped(): void {
		$this->act_as( 'administrator' ); // May store markup in titles (unfiltered_html).
		$hostile = $this->create_marker( array( 'post_title' => 'Fish & Chips <img src=x onerror=alert(1)> <script>alert(2)</script>' ) );
		$angle   = $this->create_marker( array( 'post_title' => 'a < b > c "quoted"' ) );
		$this->create_marker(
			array(
				'post_title'  => 'Draft marker',
				'post_status' => 'draft',
			)
		);
		wp_set_current_user( 0 );

		$html = $this->render();
		$this->assertStringContainsString( '2 places on this map', $html );
		$this->assertStringNotContainsString( 'Draft marker', $html );
		$this->assertStringNotContainsString( '<img', $html );
		$this->assertStringNotContainsString( '<script', self::without_key( $html ), 'no script but the key\'s' );
		$this->assertStringContainsString( "data-cairn-marker-id=\"{$hostile}\"", $html );
		$this->assertStringContainsString( 'Fish &amp; Chips', $html );
		$this->assertMatchesRegularExpression( '/data-cairn-marker-id="' . $angle . '"[^>]*>a &lt; b &gt; c (&quot;|")quoted(&quot;|") <a class="cairn-map-directions [^>]*>Directions<\/a><\/li>/', $html );
	}

	/**
	 * The marker list shows 50 places a page, with a link to the rest.
	 */
	public function test_the_marker_list_is_capped_with_a_link_to_the_rest(): void {
		for ( $i = 1; $i <= 53; $i++ ) {
			$this->create_marker( array( 'post_title' => "Place {$i}" ) );
		}
		$html = $this->render();
		$this->assertSame( 50, substr_count( $html, '<li ' ), 'the list shows 50 markers' );
		$this->assertStringContainsString( '53 places on this map', $html );
		$this->assertStringContainsString( 'Places 1–50 of 53', $html );
		$this->assertStringContainsString( '>Next places</a>', $html );
		$this->assertStringContainsString( '>Place 1 <a class="cairn-map-directions', $html );
		$this->assertStringNotContainsString( '>Place 51 <', $html );
	}

	/**
	 * Renders a post's content as the theme does (the_content: maps counted afresh).
	 *
	 * @param \WP_Post             $post  The post.
	 * @param array<string, mixed> $query The page's query parameters.
	 */
	private function render_post( \WP_Post $post, array $query = array() ): string {
		$_GET                   = $query;
		$_SERVER['REQUEST_URI'] = add_query_arg( $query, '/walks/?lang=en' );
		$GLOBALS['post']        = $post; // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- the loop's post, as a theme sets it.
		setup_postdata( $post );
		return (string) apply_filters( 'the_content', $post->post_content ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- core's filter.
	}

	/**
	 * The place ids a map's list shows, per map of the page.
	 *
	 * @param string $html Rendered HTML.
	 * @return array<int, int[]>
	 */
	private static function listed_ids( string $html ): array {
		$maps = array();
		foreach ( array_slice( explode( '<div class="wp-block-cairn-map__places"', $html ), 1 ) as $panel ) {
			preg_match_all( '/<li data-cairn-marker-id="(\d+)" data-lng="[^"]+" data-lat="[^"]+">/', $panel, $found );
			$maps[] = array_map( 'intval', $found[1] );
		}
		return $maps;
	}

	/**
	 * The href of a map's pager link (rel `prev` or `next`), '' when there is none.
	 *
	 * @param string $html  Rendered HTML.
	 * @param string $rel   `prev` or `next`.
	 * @param int    $index Which map (0-based).
	 */
	private static function pager_link( string $html, string $rel, int $index = 0 ): string {
		$panel = explode( '<div class="wp-block-cairn-map__places"', $html )[ $index + 1 ] ?? '';
		$tags  = new \WP_HTML_Tag_Processor( $panel );
		while ( $tags->next_tag( 'a' ) ) {
			if ( $rel === $tags->get_attribute( 'rel' ) ) {
				return (string) $tags->get_attribute( 'href' );
			}
		}
		return '';
	}

	/**
	 * Without JavaScript every place of the map is reachable: pages of at most 50, linked with
	 * `cairn-places`, each link landing on the list; the skip link leads past the map to it.
	 */
	public function test_without_javascript_the_list_pages_through_every_place(): void {
		update_option( Settings::TOKEN_OPTION, self::public_token() );
		Geojson_FeedTest::bulk_markers( 120 );
		$post = self::factory_post();
		wp_update_post(
			array(
				'ID'           => $post->ID,
				'post_content' => '<!-- wp:cairn/map /-->',
			)
		);
		$post   = get_post( $post->ID );
		$places = 'cairn-places-' . $post->ID . '-1';

		$html = $this->render_post( $post );
		$skip = '<a class="wp-block-cairn-map__skip" href="#' . $places . '">Skip the map</a>';
		$this->assertStringContainsString( $skip, $html );
		$this->assertLessThan( strpos( $html, 'wp-block-cairn-map__map' ), strpos( $html, $skip ), 'the skip link comes before the map' );
		// The region holds the "near" form (0.8.0), then the list.
		$this->assertMatchesRegularExpression( '#<div class="wp-block-cairn-map__places" role="region" aria-label="Places" id="' . $places . '"><form class="wp-block-cairn-map__near" role="search" method="get" [^>]*>.*?</form><div class="wp-block-cairn-map__markers" id="#s', $html );
		$this->assertStringContainsString( '120 places on this map', $html );
		$this->assertStringContainsString( '<nav class="wp-block-cairn-map__pages" aria-label="Pages of places">', $html );
		$this->assertStringContainsString( 'Places 1–50 of 120', $html );
		$this->assertSame( '', self::pager_link( $html, 'prev' ), 'no previous page on the first' );

		$seen  = array();
		$pages = 0;
		$query = array();
		do {
			$html = $this->render_post( $post, $query );
			$ids  = self::listed_ids( $html )[0];
			$this->assertLessThanOrEqual( 50, count( $ids ) );
			$seen = array_merge( $seen, $ids );
			++$pages;
			$next = self::pager_link( $html, 'next' );
			if ( '' !== $next ) {
				$this->assertStringEndsWith( '#' . $places, $next, 'the link lands on the list' );
				$this->assertStringContainsString( 'lang=en', $next, 'the page keeps its other parameters' );
				wp_parse_str( (string) wp_parse_url( $next, PHP_URL_QUERY ), $query );
				$this->assertSame( (string) ( $pages + 1 ), $query['cairn-places'] );
			}
		} while ( '' !== $next && $pages < 5 );

		$this->assertSame( 3, $pages );
		$this->assertStringContainsString( 'Places 101–120 of 120', $html );
		$this->assertCount( 20, self::listed_ids( $html )[0] );
		$this->assertCount( 120, array_unique( $seen ), 'no place twice' );
		global $wpdb;
		$all = array_map( 'intval', $wpdb->get_col( $wpdb->prepare( "SELECT ID FROM {$wpdb->posts} WHERE post_type = %s AND post_status = 'publish'", Post_Type::POST_TYPE ) ) );
		sort( $all );
		$this->assertSame( $all, $seen, 'every place, in id order' );

		$previous = self::pager_link( $html, 'prev' );
		$this->assertStringContainsString( 'cairn-places=2', $previous );
		$html = $this->render_post( $post, array( 'cairn-places' => '2' ) );
		$this->assertStringContainsString( 'Places 51–100 of 120', $html );
		$first = self::pager_link( $html, 'prev' );
		$this->assertSame( '/walks/?lang=en#' . $places, $first, 'the first page is the plain address' );
		$this->assertStringEndsWith( '#' . $places, $first );
	}

	/**
	 * A page number that is out of range, not a number or negative is clamped or ignored quietly.
	 *
	 * @dataProvider odd_pages
	 *
	 * @param mixed  $page     The parameter's value.
	 * @param string $expected The range the list shows.
	 */
	public function test_odd_page_numbers_are_clamped_or_ignored( $page, string $expected ): void {
		Geojson_FeedTest::bulk_markers( 120 );
		$post = self::factory_post();
		wp_update_post(
			array(
				'ID'           => $post->ID,
				'post_content' => '<!-- wp:cairn/map /-->',
			)
		);
		$html = $this->render_post( get_post( $post->ID ), array( 'cairn-places' => $page ) );
		$this->assertStringContainsString( $expected, $html );
	}

	/**
	 * Odd page numbers and the page shown.
	 *
	 * @return array<string, array{0: mixed, 1: string}>
	 */
	public static function odd_pages(): array {
		return array(
			'past the last'   => array( '999', 'Places 101–120 of 120' ),
			'huge'            => array( '99999999999999999999', 'Places 1–50 of 120' ),
			'zero'            => array( '0', 'Places 1–50 of 120' ),
			'negative'        => array( '-2', 'Places 1–50 of 120' ),
			'not a number'    => array( 'two', 'Places 1–50 of 120' ),
			'number and junk' => array( '2abc', 'Places 1–50 of 120' ),
			'a list'          => array( array( '2' ), 'Places 1–50 of 120' ),
			'last page'       => array( '3', 'Places 101–120 of 120' ),
		);
	}

	/**
	 * Each map of a post pages with its own parameter (`cairn-places-2` for the second map), and
	 * moving one leaves the other where it is.
	 */
	public function test_each_map_of_a_post_pages_on_its_own(): void {
		Geojson_FeedTest::bulk_markers( 70 );
		$post = self::factory_post();
		wp_update_post(
			array(
				'ID'           => $post->ID,
				'post_content' => '<!-- wp:cairn/map /--><!-- wp:cairn/map {"hash":true} /-->',
			)
		);
		$post  = get_post( $post->ID );
		$first = $this->render_post( $post );
		$this->assertStringContainsString( 'cairn-places=2#cairn-places-' . $post->ID . '-1', self::pager_link( $first, 'next', 0 ) );
		$this->assertStringContainsString( 'cairn-places-2=2#cairn-places-' . $post->ID . '-2', self::pager_link( $first, 'next', 1 ) );
		$this->assertStringContainsString( 'id="cairn-places-' . $post->ID . '-2"', $first );

		$html = $this->render_post( $post, array( 'cairn-places-2' => '2' ) );
		$ids  = self::listed_ids( $html );
		$this->assertSame( self::listed_ids( $first )[0], $ids[0], 'the first map stays on its first page' );
		$this->assertCount( 20, $ids[1], 'the second map shows its second page' );
		$this->assertStringContainsString( 'Places 51–70 of 70', $html );
		$previous = self::pager_link( $html, 'prev', 1 );
		$this->assertStringEndsWith( '#cairn-places-' . $post->ID . '-2', $previous );
		$this->assertStringNotContainsString( 'cairn-places-2=', $previous, 'back to the first page: the parameter goes' );
		$next = self::pager_link( $html, 'next', 0 );
		$this->assertStringContainsString( 'cairn-places=2', $next );
		$this->assertStringContainsString( 'cairn-places-2=2', $next, 'paging one map keeps the other on its page' );
		$this->assertSame( self::without_key( $html ), self::without_key( $this->render_post( $post, array( 'cairn-places-2' => '2' ) ) ), 'rendering the post again names its maps the same' );
	}

	/**
	 * The marker list follows the group selection.
	 */
	public function test_the_marker_list_follows_the_group_selection(): void {
		$this->create_marker(
			array(
				'post_title' => 'Summit',
				'groups'     => array( 'peaks' ),
			)
		);
		$this->create_marker(
			array(
				'post_title' => 'Bakery',
				'groups'     => array( 'food' ),
			)
		);
		$html = $this->render(
			array(
				'markers' => array(
					'source' => 'groups',
					'groups' => array( 'peaks' ),
					'ids'    => array(),
				),
			)
		);
		$this->assertStringContainsString( '>Summit <a class="cairn-map-directions', $html );
		$this->assertStringNotContainsString( 'Bakery', $html );
		$config = json_decode( (string) $this->wrapper( $html )->get_attribute( 'data-cairn-config' ), true );
		$this->assertStringContainsString( 'group=peaks', $config['markersUrl'] );
	}

	/**
	 * An empty selection lists nothing and loads nothing.
	 */
	public function test_an_empty_selection_lists_nothing_and_loads_nothing(): void {
		$this->create_marker();
		$html   = $this->render(
			array(
				'markers' => array(
					'source' => 'ids',
					'groups' => array(),
					'ids'    => array(),
				),
			)
		);
		$config = json_decode( (string) $this->wrapper( $html )->get_attribute( 'data-cairn-config' ), true );
		$this->assertStringContainsString( '0 places on this map', $html );
		$this->assertSame( '', $config['markersUrl'] );
	}
}
