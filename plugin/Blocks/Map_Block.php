<?php
/**
 * The `cairn/map` block.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Feed\Shape_Presence;
use Cairn\Maps\Groups\Group_Styles;
use Cairn\Maps\Markers\Marker_Repository;
use Cairn\Maps\Settings\Consent_Api;
use Cairn\Maps\Settings\Directions_Setting;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Support\Rest_Routes;
use WP_Block;

/**
 * Registers the block from its built block.json, builds each map's configuration and renders it
 * on the server.
 *
 * The markup works without JavaScript: a labelled map region, an error message when the map cannot
 * start, and the places panel (Places_List). The view script turns the region into a live map,
 * after the visitor's consent when the site asks for it (Consent_Placeholder).
 *
 * @since 0.1.0
 */
class Map_Block {

	/**
	 * Class of the script inside each rendered map that holds its key (see render_key()).
	 */
	public const KEY_CLASS = 'wp-block-cairn-map__key';

	/**
	 * Settings.
	 *
	 * @var Settings
	 */
	private Settings $settings;

	/**
	 * Looks of the marker groups.
	 *
	 * @var Group_Styles
	 */
	private Group_Styles $group_styles;

	/**
	 * The places list rendered for visitors without JavaScript.
	 *
	 * @var Places_List
	 */
	private Places_List $places;

	/**
	 * The consent gate and its click-to-load placeholder.
	 *
	 * @var Consent_Placeholder
	 */
	private Consent_Placeholder $consent;

	/**
	 * The posts maps show (the `content` attribute).
	 *
	 * @var Content_Places
	 */
	private Content_Places $content;

	/**
	 * Whether a marker selection holds shapes (made on first use).
	 *
	 * @var Shape_Presence|null
	 */
	private ?Shape_Presence $shapes = null;

	/**
	 * Whether a map is served as tiles, and its tiled addresses.
	 *
	 * @var Tile_Config
	 */
	private Tile_Config $tiles;

	/**
	 * Whether a map draws its shapes from tiles, and their address.
	 *
	 * @var Shape_Tile_Config
	 */
	private Shape_Tile_Config $shape_tiles;

	/**
	 * Creates the block.
	 *
	 * @param Settings               $settings     Settings.
	 * @param Marker_Repository|null $markers      Marker reads.
	 * @param Group_Styles|null      $group_styles Looks of the marker groups.
	 * @param Consent_Api|null       $consent_api  The WP Consent API.
	 * @param Tile_Config|null       $tiles        Which maps are tiled (none without it), since 0.6.0.
	 * @param Shape_Tile_Config|null $shape_tiles  Which maps draw their shapes from tiles (none without it), since 0.7.0.
	 */
	public function __construct( Settings $settings, ?Marker_Repository $markers = null, ?Group_Styles $group_styles = null, ?Consent_Api $consent_api = null, ?Tile_Config $tiles = null, ?Shape_Tile_Config $shape_tiles = null ) {
		$this->settings     = $settings;
		$this->group_styles = $group_styles ?? new Group_Styles();
		$this->content      = new Content_Places();
		$this->places       = new Places_List( $markers ?? new Marker_Repository(), $this->content );
		$this->consent      = new Consent_Placeholder( $settings, $consent_api ?? new Consent_Api() );
		$this->tiles        = $tiles ?? new Tile_Config();
		$this->shape_tiles  = $shape_tiles ?? new Shape_Tile_Config();
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'init', array( $this, 'register' ) );
		// Before do_blocks() (priority 9): each rendering of a post's content names its hashed maps afresh.
		add_filter( 'the_content', array( $this, 'reset_hash_names' ), 8 );
	}

	/**
	 * Registers the block type from the build folder.
	 */
	public function register(): void {
		register_block_type(
			CAIRN_MAPS_DIR . 'build/blocks/map',
			array( 'render_callback' => array( $this, 'render' ) )
		);
	}

	/**
	 * How many maps keep their view in the address so far, per post being rendered.
	 *
	 * @var array<int, int>
	 */
	private array $hashed_maps = array();

	/**
	 * How many maps were rendered so far, per post being rendered (names their list's page
	 * parameter and id).
	 *
	 * @var array<int, int>
	 */
	private array $listed_maps = array();

	/**
	 * Starts counting the maps of the post being rendered afresh: a post's content rendered twice
	 * in one request (a plugin reading it for a description, then the theme) names its maps (hash
	 * names, list page parameters) the same both times, and as `/cairn/v1/posts/<id>/maps` does.
	 * Hooked to `the_content` before the blocks are rendered.
	 *
	 * @since 0.2.0
	 *
	 * @param mixed $content The post content.
	 * @return mixed The same content.
	 */
	public function reset_hash_names( $content ) {
		unset( $this->hashed_maps[ (int) get_the_ID() ], $this->listed_maps[ (int) get_the_ID() ] );
		return $content;
	}

	/**
	 * The position (1-based) of the next map of the post being rendered.
	 */
	private function next_list_index(): int {
		$post_id                       = (int) get_the_ID();
		$this->listed_maps[ $post_id ] = ( $this->listed_maps[ $post_id ] ?? 0 ) + 1;
		return $this->listed_maps[ $post_id ];
	}

	/**
	 * The position (1-based) of the next hashed map of the post being rendered.
	 */
	private function next_hash_index(): int {
		$post_id                       = (int) get_the_ID();
		$this->hashed_maps[ $post_id ] = ( $this->hashed_maps[ $post_id ] ?? 0 ) + 1;
		return $this->hashed_maps[ $post_id ];
	}

	/**
	 * The name of a map's part of the address fragment: none for the page's first hashed map
	 * (`#zoom/lat/lng…`, the documented format), then the block's anchor or `map-2`, `map-3`, … so
	 * that two hashed maps on one page never fight over the fragment.
	 *
	 * @since 0.2.0
	 *
	 * @param int                  $index      Position of the map among the post's hashed maps, from 1.
	 * @param array<string, mixed> $attributes Block attributes.
	 */
	public static function hash_name( int $index, array $attributes ): string {
		if ( $index <= 1 ) {
			return '';
		}
		$anchor = self::anchor( $attributes );
		return '' !== $anchor ? $anchor : 'map-' . $index;
	}

	/**
	 * The block's anchor when it is one a map can be named by (a letter, then up to 63 letters,
	 * digits, `_` or `-`), else ''.
	 *
	 * @since 0.2.0
	 *
	 * @param array<string, mixed> $attributes Block attributes.
	 */
	public static function anchor( array $attributes ): string {
		$anchor = $attributes['anchor'] ?? '';
		return is_string( $anchor ) && 1 === preg_match( '/^[A-Za-z][\w-]{0,63}$/', $anchor ) ? $anchor : '';
	}

	/**
	 * The defaults of the registered block type (block.json).
	 *
	 * @since 0.2.0
	 *
	 * @param \WP_Block_Type|null $type The block type; the registered `cairn/map` when null.
	 * @return array<string, mixed>
	 */
	public static function defaults( ?\WP_Block_Type $type = null ): array {
		$type     = $type ?? \WP_Block_Type_Registry::get_instance()->get_registered( 'cairn/map' );
		$defaults = array();
		foreach ( $type->attributes ?? array() as $name => $schema ) {
			$defaults[ $name ] = $schema['default'] ?? null;
		}
		return $defaults;
	}

	/**
	 * The configuration of one map block, exactly as the server renders it into
	 * `data-cairn-config` (what `createMap()` takes), and the error the render shows: '' or a
	 * front-end error code (`missing-token`, `secret-token`, `invalid-token`, `zoom-range`).
	 *
	 * The one place that builds it: render() and `/cairn/v1/posts/<id>/maps` both call it. The
	 * access token in it is only ever a public one (Settings::map_token()).
	 *
	 * @since 0.2.0
	 *
	 * @param array<string, mixed> $attributes Block attributes, as prepared for rendering (core's
	 *                                         WP_Block_Type::prepare_attributes_for_render()).
	 * @param int|null             $hash_index Position of the map among the hashed maps of its post
	 *                                         (from 1); null: the next one of the post being rendered.
	 * @param \WP_Block_Type|null  $type       The block type; the registered `cairn/map` when null.
	 * @param array<string, mixed> $context    Block context (`postId`, `postType`: the post a map's
	 *                                         "this post" shows), since 0.3.0.
	 * @return array{config: array<string, mixed>, error: string}
	 */
	public function client_config( array $attributes, ?int $hash_index = null, ?\WP_Block_Type $type = null, array $context = array() ): array {
		$parsed = Map_Attributes::parse( $attributes, self::defaults( $type ) );
		$config = $parsed['config'];
		// Map_Attributes only lets through styles the engine rule accepts.
		$engine = Basemap::engine_for( $config['style'] ) ?? 'mapbox';
		// The token is for Mapbox maps only: a MapLibre map never prints it, nor misses it.
		$token      = 'mapbox' === $engine ? $this->settings->map_token() : array(
			'token' => '',
			'error' => '',
		);
		$filters    = $this->filters( $config['markers'] );
		$current    = $this->content->current_post( $config['content'], $context );
		$posts_url  = $this->content->posts_url( $config['content'], $current );
		$shapes_url = $this->shapes_url( $config['markers'], $filters );
		return array(
			'config' => array_merge(
				$config,
				array(
					'engine'        => $engine,
					'basemap'       => Basemap::describe( $config['style'] ),
					'accessToken'   => $token['token'],
					'markersUrl'    => Feed_Url::markers( $config['markers'] ),
					// The selection's lines and areas: '' when it holds none (no request, no shapes code).
					'shapesUrl'     => $shapes_url,
					// The same tile by tile, each simplified for its zoom: '' unless they are heavy.
					'shapeTilesUrl' => '' === $shapes_url ? '' : $this->shape_tiles->url( $config['markers'], $filters ),
					// The map's posts: a second feed, drawn with the markers as one source.
					'postsUrl'      => $posts_url,
					'markerUrl'     => Rest_Routes::url( 'markers/' ),
				),
				// Tiled maps (at or above the tile threshold): '' for the three otherwise.
				$this->tiles->urls( $config, $posts_url ),
				array(
					'hashName'    => $config['hash'] ? self::hash_name( $hash_index ?? $this->next_hash_index(), $attributes ) : '',
					'groupStyles' => array_merge(
						null === $filters ? array() : $this->group_styles->styles_for( $filters ),
						$this->content->legend( $config['content'], $current )
					),
					'units'       => self::units(),
					// The app of the "Directions" links: the block's, or the site's for `site`.
					'directions'  => Directions_Setting::resolve( $config['directions'] ),
					// What createMap() and <CairnMap> honour: a headless page asks for consent too.
					'consent'     => $this->consent->policy( $config['style'] ),
				),
				self::visitor_geocoder()
			),
			'error'  => '' !== $token['error'] ? $token['error'] : $parsed['error'],
		);
	}

	/**
	 * How the places panel looks up an address a visitor typed ("near a place"): through the
	 * site's route when the owner's geocoder is Nominatim (`site`), with Mapbox's temporary
	 * geocoding from the browser and the map's public token when it is Mapbox (`mapbox`: the
	 * runtime falls back to the map's own place names without a token).
	 *
	 * @since 0.8.0
	 *
	 * @return array{geocoder: string, geocodeUrl: string}
	 */
	private static function visitor_geocoder(): array {
		// Geocoding\Geocoder::OPTION and Visitor_Geocode_Controller::offered()/ROUTE, read here
		// without the Geocoding layer (above Blocks'): the stored choice, Nominatim by default.
		return 'mapbox-permanent' !== get_option( 'cairn_maps_geocoder', 'nominatim' )
			? array(
				'geocoder'   => 'site',
				'geocodeUrl' => Rest_Routes::url( 'geocode/visitor' ),
			)
			: array(
				'geocoder'   => 'mapbox',
				'geocodeUrl' => '',
			);
	}

	/**
	 * The shapes feed URL of a marker selection (Feed_Url::shapes()), or '' when the selection
	 * shows no markers or none of them carries a shape (Shape_Presence, no query in the common case).
	 *
	 * @since 0.5.0
	 *
	 * @param array{source: string, groups: string[], ids: int[]} $markers The map's `markers`.
	 * @param array{groups?: string[], ids?: int[]}|null          $filters Its filters (filters()), null for none.
	 */
	private function shapes_url( array $markers, ?array $filters ): string {
		if ( null === $filters ) {
			return '';
		}
		$this->shapes = $this->shapes ?? new Shape_Presence();
		return $this->shapes->has_shapes( $filters ) ? Feed_Url::shapes( $markers ) : '';
	}

	/**
	 * The site's consent policy, as every map's configuration carries it (`config.consent`):
	 * for a map of the given style (a self-hosted one needs no consent), the site's basemap when ''.
	 *
	 * @since 0.3.0
	 *
	 * @param string $style A map's style, since 0.7.0.
	 * @return array{required: bool, category: string}
	 */
	public function consent_policy( string $style = '' ): array {
		return $this->consent->policy( '' === $style ? Basemap::site_style() : $style );
	}

	/**
	 * The first page of a map's places, as the server renders its list without JavaScript: for a
	 * headless front end, which renders the same list (`<CairnMap places>`).
	 *
	 * @since 0.3.0
	 *
	 * @param array<string, mixed> $config  The map's configuration (client_config()).
	 * @param array<string, mixed> $context Block context (`postId`, `postType`), since 0.3.0.
	 * @return array{items: array<int, array{id: int, title: string, lng: float, lat: float, link?: string}>, total: int, page: int, perPage: int}
	 */
	public function places_page( array $config, array $context = array() ): array {
		$markers = is_array( $config['markers'] ?? null ) ? $config['markers'] : array();
		$content = self::content_of( $config );
		return $this->places->first_page(
			$this->filters(
				array(
					'source' => (string) ( $markers['source'] ?? 'all' ),
					'groups' => is_array( $markers['groups'] ?? null ) ? $markers['groups'] : array(),
					'ids'    => is_array( $markers['ids'] ?? null ) ? $markers['ids'] : array(),
				)
			),
			$content,
			$this->content->current_post( $content, $context )
		);
	}

	/**
	 * A configuration's post selection (Map_Attributes' `content`), none when it has none.
	 *
	 * @param array<string, mixed> $config A map's configuration.
	 * @return array{postTypes: string[], terms: array<string, string[]>, current: bool}
	 */
	private static function content_of( array $config ): array {
		$content = is_array( $config['content'] ?? null ) ? $config['content'] : array();
		return array(
			'postTypes' => is_array( $content['postTypes'] ?? null ) ? array_values( array_filter( $content['postTypes'], 'is_string' ) ) : array(),
			'terms'     => is_array( $content['terms'] ?? null ) ? $content['terms'] : array(),
			'current'   => true === ( $content['current'] ?? false ),
		);
	}

	/**
	 * The site's units for distances: `imperial` where the site's locale measures in miles
	 * (United States, Liberia, Myanmar), else `metric`.
	 *
	 * @since 0.2.0
	 */
	public static function units(): string {
		return in_array( get_locale(), array( 'en_US', 'en_LR', 'my_MM' ), true ) ? 'imperial' : 'metric';
	}

	/**
	 * Messages for the errors the server can detect, by front-end error code.
	 *
	 * @param string $code Error code.
	 */
	public static function error_message( string $code ): string {
		switch ( $code ) {
			case 'missing-token':
				return __( 'This map cannot be shown yet: a public Mapbox access token must be provided in Settings → Cairn Maps.', 'cairn-maps' );
			case 'secret-token':
				return __( 'This map cannot be shown: only a public Mapbox access token may be used.', 'cairn-maps' );
			case 'invalid-token':
				return __( 'This map cannot be shown: the Mapbox access token is invalid or not allowed for this site.', 'cairn-maps' );
			case 'zoom-range':
				return __( 'This map cannot be shown because of a configuration error: the minimum zoom is above the maximum zoom.', 'cairn-maps' );
			default:
				return __( 'The map could not be loaded.', 'cairn-maps' );
		}
	}

	/**
	 * Renders the block.
	 *
	 * @param array<string, mixed> $attributes Block attributes.
	 * @param string               $content    Inner content (none).
	 * @param WP_Block|null        $block      Block instance.
	 */
	public function render( array $attributes, string $content = '', ?WP_Block $block = null ): string {
		$context = $block ? $block->context : array();
		$built   = $this->client_config( $attributes, null, $block ? $block->block_type : null, $context );
		$client  = $built['config'];
		$error   = $built['error'];
		$index   = $this->next_list_index();
		$consent = '' === $error ? $this->consent->gate( $client['style'] ) : null;
		$extra   = array(
			'data-cairn-state'  => '' === $error ? 'loading' : 'error',
			// Every character that could end the attribute or form an entity is a JSON escape: esc_attr()
			// keeps existing entities, so a stored `&quot;` would otherwise decode to a quote in the DOM.
			'data-cairn-config' => (string) wp_json_encode( $client, JSON_HEX_TAG | JSON_HEX_AMP | JSON_HEX_APOS | JSON_HEX_QUOT ),
			'style'             => '--cairn-map-height:' . $client['height'] . ';' . Block_Gap::declaration( $attributes ),
		);
		if ( null !== $consent ) {
			// The view script contacts no map host until the visitor selects "Load map".
			$extra['data-cairn-consent'] = 'required';
			if ( '' !== $consent ) {
				// …or until the site's consent banner records consent for this category.
				$extra['data-cairn-consent-category'] = $consent;
			}
		}
		// Proof that the server rendered this map: an unguessable key in the wrapper and in a script
		// inside it, which kses never lets an author write. The loader starts only maps whose two
		// keys agree, so a look-alike wrapper in an author's Custom HTML stays inert.
		$key                     = self::render_key();
		$extra['data-cairn-key'] = $key;
		$wrapper                 = get_block_wrapper_attributes( $extra );
		$region_name             = __( 'Interactive map', 'cairn-maps' );
		$places_id               = Places_List::panel_id( $index );

		$html  = '<div ' . $wrapper . '>';
		$html .= sprintf( '<script type="application/json" class="%1$s">%2$s</script>', esc_attr( self::KEY_CLASS ), wp_json_encode( $key ) );
		$html .= sprintf(
			'<a class="wp-block-cairn-map__skip" href="#%1$s">%2$s</a>',
			esc_attr( $places_id ),
			esc_html__( 'Skip the map', 'cairn-maps' )
		);
		$html .= sprintf(
			'<div class="wp-block-cairn-map__map" role="region" aria-label="%1$s" aria-describedby="%2$s">%3$s</div>',
			esc_attr( $region_name ),
			esc_attr( Places_List::list_id( $places_id ) ),
			null !== $consent ? $this->consent->render( $consent, $client['style'] ) : ''
		);
		if ( '' !== $error ) {
			$html .= self::alert( $error, self::error_message( $error ) );
		}
		$content = self::content_of( $client );
		$html   .= $this->places->render( $this->filters( $client['markers'] ), $index, $content, $this->content->current_post( $content, $context ), $client['directions'] );
		$html   .= '</div>';
		return $html;
	}

	/**
	 * The alert of a map that cannot be shown: one `[role="alert"]` with the error code, the
	 * message as plain text.
	 *
	 * @since 0.8.0
	 *
	 * @param string $code    Error code.
	 * @param string $message Plain-language message (escaped here).
	 */
	public static function alert( string $code, string $message ): string {
		return sprintf(
			'<div class="wp-block-cairn-map__error" role="alert" data-cairn-error="%1$s">%2$s</div>',
			esc_attr( $code ),
			esc_html( $message )
		);
	}

	/**
	 * A map wrapper that holds nothing but its alert: for a map the server cannot even describe
	 * (a shortcode whose attributes break their rules, a pattern that cannot be shown). Keyed as
	 * render() keys its maps, so the loader announces the error (`cairn:map-error`) as it
	 * announces a rendered block's; there is no configuration, so nothing starts.
	 *
	 * @since 0.8.0
	 *
	 * @param string $code    Error code.
	 * @param string $message Plain-language message (escaped here).
	 */
	public static function error_box( string $code, string $message ): string {
		$key = self::render_key();
		return sprintf(
			'<div class="wp-block-cairn-map" data-cairn-state="error" data-cairn-key="%1$s"><script type="application/json" class="%2$s">%3$s</script>%4$s</div>',
			esc_attr( $key ),
			esc_attr( self::KEY_CLASS ),
			wp_json_encode( $key ),
			self::alert( $code, $message )
		);
	}

	/**
	 * A new unguessable key for one rendered map (128 random bits, hex). New on every render, so
	 * no author can learn one in advance to copy into a look-alike wrapper.
	 *
	 * @since 0.2.0
	 */
	public static function render_key(): string {
		return bin2hex( random_bytes( 16 ) );
	}

	/**
	 * Repository filters for the block's marker selection.
	 *
	 * @param array{source: string, groups: string[], ids: int[]} $markers Marker selection.
	 * @return array{groups?: string[], ids?: int[]}|null Null when the selection is empty.
	 */
	private function filters( array $markers ): ?array {
		if ( 'groups' === $markers['source'] ) {
			return array() !== $markers['groups'] ? array( 'groups' => $markers['groups'] ) : null;
		}
		if ( 'ids' === $markers['source'] ) {
			return array() !== $markers['ids'] ? array( 'ids' => $markers['ids'] ) : null;
		}
		if ( 'none' === $markers['source'] ) {
			return null;
		}
		return array();
	}
}
