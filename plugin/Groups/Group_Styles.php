<?php
/**
 * How the places of a group look: a colour and an icon; the line colour, line width and fill
 * opacity of its routes and areas.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Groups;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Markers\Post_Type;
use WP_Error;
use WP_REST_Request;
use WP_Term;

/**
 * Term meta of `cairn_marker_group`:
 * - `cairn_color`: `#rrggbb`, or '' for the default colour;
 * - `cairn_icon`: id of a PNG or JPEG attachment, or 0 for the default symbol;
 * - `cairn_line_color`: `#rrggbb`, or '' for the group's colour (routes and area outlines);
 * - `cairn_line_width`: pixels, 1 to 12 (default 3);
 * - `cairn_fill_opacity`: 0 to 1 (default 0.25), of areas, filled with the line colour.
 *
 * This part registers the keys and guards every write with the same rules
 * (Group_Style_Rules): REST writes are refused with a 400 before anything is stored
 * (`rest_dispatch_request` runs after the permission checks and before core's terms controller
 * writes the term), and any other write (PHP, WP-CLI) is refused by the meta filters, so an invalid
 * value is never stored; the term screens (Group_Term_Screen) refuse it with a message. Changes
 * bump the markers version (Markers_Version watches META_KEYS, handed over by Plugin).
 *
 * `styles_for()` gives each map the groups it shows with their names and looks (for the markers'
 * colours and icons, and the visitors' group legend); `styles()` those in use on the site, cached
 * by markers version.
 *
 * @since 0.1.0
 */
class Group_Styles {

	public const META_COLOR = 'cairn_color';
	public const META_ICON  = 'cairn_icon';

	/**
	 * The line looks of the group's routes and areas.
	 *
	 * @since 0.5.0
	 */
	public const META_LINE_COLOR   = 'cairn_line_color';
	public const META_LINE_WIDTH   = 'cairn_line_width';
	public const META_FILL_OPACITY = 'cairn_fill_opacity';

	/**
	 * Every key of the looks: Markers_Version watches them (Plugin hands them over).
	 *
	 * @since 0.4.0
	 */
	public const META_KEYS = array( self::META_COLOR, self::META_ICON, self::META_LINE_COLOR, self::META_LINE_WIDTH, self::META_FILL_OPACITY );

	/**
	 * The rule (a Group_Style_Rules method) each key's values follow.
	 */
	private const RULES = array(
		self::META_COLOR        => 'check_color',
		self::META_ICON         => 'check_icon',
		self::META_LINE_COLOR   => 'check_line_color',
		self::META_LINE_WIDTH   => 'check_line_width',
		self::META_FILL_OPACITY => 'check_fill_opacity',
	);

	/**
	 * Most groups a map receives (in name order): the legend and the marker looks of a site with
	 * more groups stop there, so a page's configuration stays small.
	 */
	public const MAX_STYLES = 100;

	/**
	 * Icon mime types the map can draw.
	 */
	public const ICON_MIME_TYPES = Group_Style_Rules::ICON_MIME_TYPES;

	/**
	 * Images listed in the icon dropdown of the term screens (newest first).
	 */
	public const ICON_CHOICES = Group_Term_Screen::ICON_CHOICES;

	/**
	 * Longest side, in pixels, of the icon size the map asks for (WordPress picks the closest
	 * generated size with the same proportions, else the full image).
	 */
	public const ICON_PIXELS = Group_Style_Rules::ICON_PIXELS;

	// Named for the shape of the entries (0.3.0 added names and groups without looks, 0.5.0 the
	// line looks), so an entry cached by an earlier version is never read as the new shape.
	private const CACHE_KEY = 'cairn_maps_groups_v3';

	/**
	 * The markers version, which labels the cached list.
	 *
	 * @var Markers_Version
	 */
	private Markers_Version $version;

	/**
	 * Creates the part.
	 *
	 * @param Markers_Version|null $version The markers version.
	 */
	public function __construct( ?Markers_Version $version = null ) {
		$this->version = $version ?? new Markers_Version();
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		// After Post_Type::register() (priority 10) has registered the taxonomy.
		add_action( 'init', array( $this, 'register' ), 11 );
		add_filter( 'rest_dispatch_request', array( $this, 'validate_rest_write' ), 10, 3 );
		add_filter( 'add_term_metadata', array( $this, 'refuse_invalid_meta' ), 10, 4 );
		add_filter( 'update_term_metadata', array( $this, 'refuse_invalid_meta' ), 10, 4 );
		add_action( 'delete_attachment', array( $this, 'forget_icon' ) );
	}

	/**
	 * Registers the term meta keys, with their REST schemas.
	 */
	public function register(): void {
		register_term_meta(
			Post_Type::TAXONOMY,
			self::META_COLOR,
			array(
				'type'              => 'string',
				'description'       => __( 'Marker colour of the group: #rrggbb, or empty for the default.', 'cairn-maps' ),
				'single'            => true,
				'default'           => '',
				'show_in_rest'      => array(
					'schema' => array(
						'type'    => 'string',
						'pattern' => '^(#[0-9a-fA-F]{6})?$',
					),
				),
				'sanitize_callback' => array( $this, 'sanitize_color' ),
				'auth_callback'     => array( $this, 'can_edit_group' ),
			)
		);
		register_term_meta(
			Post_Type::TAXONOMY,
			self::META_ICON,
			array(
				'type'              => 'integer',
				'description'       => __( 'Marker icon of the group: id of a PNG or JPEG image in the media library, or 0 for none.', 'cairn-maps' ),
				'single'            => true,
				'default'           => 0,
				'show_in_rest'      => array(
					'schema' => array(
						'type'    => 'integer',
						'minimum' => 0,
					),
				),
				'sanitize_callback' => array( $this, 'sanitize_icon' ),
				'auth_callback'     => array( $this, 'can_edit_group' ),
			)
		);
		$this->register_line_looks();
	}

	/**
	 * Registers the line colour, line width and fill opacity.
	 */
	private function register_line_looks(): void {
		register_term_meta(
			Post_Type::TAXONOMY,
			self::META_LINE_COLOR,
			array(
				'type'              => 'string',
				'description'       => __( 'Colour of the group\'s routes and area outlines: #rrggbb, or empty for the group colour.', 'cairn-maps' ),
				'single'            => true,
				'default'           => '',
				'show_in_rest'      => array(
					'schema' => array(
						'type'    => 'string',
						'pattern' => '^(#[0-9a-fA-F]{6})?$',
					),
				),
				'sanitize_callback' => array( $this, 'sanitize_color' ),
				'auth_callback'     => array( $this, 'can_edit_group' ),
			)
		);
		register_term_meta(
			Post_Type::TAXONOMY,
			self::META_LINE_WIDTH,
			array(
				'type'              => 'integer',
				'description'       => __( 'Width of the group\'s routes and area outlines, in pixels (1 to 12).', 'cairn-maps' ),
				'single'            => true,
				'default'           => Group_Style_Rules::line_width_default(),
				'show_in_rest'      => array(
					'schema' => array(
						'type'    => 'integer',
						'minimum' => Group_Style_Rules::line_width_min(),
						'maximum' => Group_Style_Rules::line_width_max(),
					),
				),
				'sanitize_callback' => array( $this, 'sanitize_number' ),
				'auth_callback'     => array( $this, 'can_edit_group' ),
			)
		);
		register_term_meta(
			Post_Type::TAXONOMY,
			self::META_FILL_OPACITY,
			array(
				'type'              => 'number',
				'description'       => __( 'Fill opacity of the group\'s areas, from 0 (transparent) to 1 (opaque).', 'cairn-maps' ),
				'single'            => true,
				'default'           => Group_Style_Rules::fill_opacity_default(),
				'show_in_rest'      => array(
					'schema' => array(
						'type'    => 'number',
						'minimum' => 0,
						'maximum' => 1,
					),
				),
				'sanitize_callback' => array( $this, 'sanitize_number' ),
				'auth_callback'     => array( $this, 'can_edit_group' ),
			)
		);
	}

	/**
	 * Group looks follow the group's own edit capability.
	 *
	 * @param bool   $allowed  Whether allowed so far.
	 * @param string $meta_key Meta key.
	 * @param int    $term_id  Term id.
	 * @param int    $user_id  User id.
	 */
	public function can_edit_group( $allowed, $meta_key, $term_id, $user_id ): bool {
		return user_can( $user_id, 'edit_term', $term_id );
	}

	/**
	 * Normalises a colour's spelling (trimmed, lower case). Invalid values pass through unchanged,
	 * so `refuse_invalid_meta()` can refuse them rather than store something else.
	 *
	 * @param mixed $value Submitted value.
	 * @return mixed
	 */
	public function sanitize_color( $value ) {
		return is_string( $value ) ? strtolower( trim( $value ) ) : $value;
	}

	/**
	 * Normalises an icon id (digits to an integer). Invalid values pass through unchanged.
	 *
	 * @param mixed $value Submitted value.
	 * @return mixed
	 */
	public function sanitize_icon( $value ) {
		if ( is_string( $value ) && 1 === preg_match( '/^\s*\d{1,19}\s*$/', $value ) ) {
			return (int) trim( $value );
		}
		return $value;
	}

	/**
	 * Normalises a line width or fill opacity to the number its rule accepts (`'4'` → 4,
	 * `'0.5'` → 0.5). Invalid values pass through unchanged, so `refuse_invalid_meta()` refuses them.
	 *
	 * @since 0.5.0
	 *
	 * @param mixed  $value    Submitted value.
	 * @param string $meta_key Meta key.
	 * @return mixed
	 */
	public function sanitize_number( $value, $meta_key = '' ) {
		$checked = self::META_LINE_WIDTH === $meta_key ? Group_Style_Rules::check_line_width( $value ) : Group_Style_Rules::check_fill_opacity( $value );
		return is_wp_error( $checked ) ? $value : $checked;
	}

	/**
	 * Refuses REST writes of invalid looks with a 400, after core's permission checks and before
	 * core's terms controller writes anything (it stores the term before its meta, and answers a
	 * refused meta value with a 500).
	 *
	 * @param mixed  $result  A response to use instead of the controller's, or null.
	 * @param mixed  $request The request (a WP_REST_Request from core; anything else is ignored).
	 * @param string $route   The matched route.
	 * @return mixed
	 */
	public function validate_rest_write( $result, $request, $route = '' ) {
		if ( null !== $result || ! $request instanceof WP_REST_Request || ! in_array( $request->get_method(), array( 'POST', 'PUT', 'PATCH' ), true ) ) {
			return $result;
		}
		$taxonomy = get_taxonomy( Post_Type::TAXONOMY );
		if ( ! $taxonomy || 1 !== preg_match( '#^/' . preg_quote( $taxonomy->rest_namespace . '/' . $taxonomy->rest_base, '#' ) . '(/|$)#', (string) $route ) ) {
			return $result;
		}
		$meta = $request->get_param( 'meta' );
		if ( ! is_array( $meta ) ) {
			return $result;
		}
		foreach ( self::RULES as $key => $rule ) {
			// Null deletes the value: always allowed.
			if ( ! array_key_exists( $key, $meta ) || null === $meta[ $key ] ) {
				continue;
			}
			$checked = self::check( $key, $meta[ $key ] );
			if ( is_wp_error( $checked ) ) {
				return new WP_Error(
					'rest_invalid_param',
					$checked->get_error_message(),
					array(
						'status' => 400,
						'params' => array( 'meta' => $checked->get_error_message() ),
						'field'  => $key,
					)
				);
			}
		}
		return $result;
	}

	/**
	 * Checks a value of one of the looks' keys with its rule.
	 *
	 * @since 0.5.0
	 *
	 * @param string $meta_key One of META_KEYS (any other key has no rule here: its value passes).
	 * @param mixed  $value    Value.
	 * @return mixed The value as stored, or a WP_Error saying why it is refused.
	 */
	public static function check( string $meta_key, $value ) {
		$rule = self::RULES[ $meta_key ] ?? null;
		return null === $rule ? $value : call_user_func( array( Group_Style_Rules::class, $rule ), $value );
	}

	/**
	 * Refuses to store an invalid look (colour, icon, line colour, width, fill opacity), whatever
	 * the way in.
	 *
	 * @param mixed  $check    Null to go on, anything else to stop.
	 * @param int    $term_id  Term id.
	 * @param string $meta_key Meta key.
	 * @param mixed  $value    Value (sanitised).
	 * @return mixed False to refuse, else `$check`.
	 */
	public function refuse_invalid_meta( $check, $term_id, $meta_key, $value ) {
		if ( null !== $check || ! isset( self::RULES[ $meta_key ] ) ) {
			return $check;
		}
		$term = get_term( (int) $term_id );
		if ( ! $term instanceof WP_Term || Post_Type::TAXONOMY !== $term->taxonomy ) {
			return $check;
		}
		return is_wp_error( self::check( (string) $meta_key, $value ) ) ? false : $check;
	}

	/**
	 * When an image is deleted, groups that used it as their icon lose it (and the markers version
	 * changes through the meta hooks, so maps stop asking for the missing image).
	 *
	 * @param int $attachment_id Attachment id.
	 */
	public function forget_icon( $attachment_id ): void {
		$terms = get_terms(
			array(
				'taxonomy'   => Post_Type::TAXONOMY,
				'hide_empty' => false,
				'fields'     => 'ids',
				'meta_key'   => self::META_ICON, // phpcs:ignore WordPress.DB.SlowDBQuery.slow_db_query_meta_key -- runs only when an image is deleted.
				'meta_value' => (string) (int) $attachment_id, // phpcs:ignore WordPress.DB.SlowDBQuery.slow_db_query_meta_value -- as above.
			)
		);
		foreach ( is_array( $terms ) ? $terms : array() as $term_id ) {
			delete_term_meta( (int) $term_id, self::META_ICON );
		}
	}

	/**
	 * The groups the site's published markers use, for a map of all markers and the editor's
	 * preview: slug, name (plain text) and looks ('' where the group has no colour or icon), at most
	 * MAX_STYLES, in name order (the order in which a marker's first group is chosen). Groups
	 * without looks are listed too (the visitors' legend needs every group a map shows); groups no
	 * published marker is in are not, so empty groups (however many, however named) never push out
	 * the groups a map draws. Cached until the markers version changes (any change to groups, their
	 * looks or a marker bumps it).
	 *
	 * @return array<int, array{slug: string, name: string, color: string, icon: string, lineColor: string, lineWidth: int, fillOpacity: float}>
	 */
	public function styles(): array {
		$version = $this->version->get();
		$cached  = get_transient( self::CACHE_KEY );
		if ( is_array( $cached ) && ( $cached['version'] ?? null ) === $version && isset( $cached['styles'] ) && is_array( $cached['styles'] ) ) {
			return $cached['styles'];
		}
		// Term counts are core's count of published markers in each group.
		$styles = $this->read_styles( array( 'hide_empty' => true ) );
		set_transient(
			self::CACHE_KEY,
			array(
				'version' => $version,
				'styles'  => $styles,
			),
			DAY_IN_SECONDS
		);
		return $styles;
	}

	/**
	 * The looks of the groups one map shows, by its marker selection: every group its places use.
	 * A map of groups gets those groups (existing ones, in name order); a map of chosen markers the
	 * groups of those of them that are published; a map of all markers styles().
	 *
	 * @since 0.2.0
	 *
	 * @param array{groups?: string[], ids?: int[]} $filters The map's selection (Map_Block): no key
	 *                                                       for all markers, else group slugs or
	 *                                                       marker ids (bounded by the block's limits).
	 * @return array<int, array{slug: string, name: string, color: string, icon: string, lineColor: string, lineWidth: int, fillOpacity: float}>
	 */
	public function styles_for( array $filters ): array {
		if ( ! isset( $filters['groups'] ) && ! isset( $filters['ids'] ) ) {
			return $this->styles();
		}
		$key    = $this->version->get() . ':' . md5( (string) wp_json_encode( $filters ) );
		$cached = wp_cache_get( $key, self::CACHE_KEY );
		if ( is_array( $cached ) ) {
			return $cached;
		}
		if ( isset( $filters['groups'] ) ) {
			$styles = array() === $filters['groups'] ? array() : $this->read_styles(
				array(
					'slug'       => $filters['groups'],
					'hide_empty' => false,
				)
			);
		} else {
			$published = array() === $filters['ids'] ? array() : get_posts(
				array(
					'post_type'        => Post_Type::POST_TYPE,
					'post_status'      => 'publish',
					'post__in'         => array_map( 'intval', $filters['ids'] ),
					'posts_per_page'   => count( $filters['ids'] ), // phpcs:ignore WordPress.WP.PostsPerPage.posts_per_page_posts_per_page -- the block's bounded list of ids (markersQuery.maxInclude).
					'fields'           => 'ids',
					'no_found_rows'    => true,
					'suppress_filters' => true,
				)
			);
			$styles    = array() === $published ? array() : $this->read_styles(
				array(
					'object_ids' => array_map( 'intval', $published ),
					'hide_empty' => false,
				)
			);
		}
		wp_cache_set( $key, $styles, self::CACHE_KEY, DAY_IN_SECONDS );
		return $styles;
	}

	/**
	 * Reads groups and their looks from the database.
	 *
	 * @param array<string, mixed> $query What to read (get_terms() arguments: which groups).
	 * @return array<int, array{slug: string, name: string, color: string, icon: string, lineColor: string, lineWidth: int, fillOpacity: float}>
	 */
	private function read_styles( array $query ): array {
		/**
		 * Checked term by term below: the get_terms filter may return anything.
		 *
		 * @var mixed $terms
		 */
		$terms = get_terms(
			$query + array(
				'taxonomy'               => Post_Type::TAXONOMY,
				'number'                 => self::MAX_STYLES,
				'orderby'                => 'name',
				'order'                  => 'ASC',
				'update_term_meta_cache' => true,
			)
		);
		if ( ! is_array( $terms ) ) {
			return array();
		}
		$icons = array();
		foreach ( $terms as $term ) {
			if ( $term instanceof WP_Term ) {
				$icons[] = (int) get_term_meta( $term->term_id, self::META_ICON, true );
			}
		}
		$icons = array_filter( $icons );
		if ( array() !== $icons ) {
			_prime_post_caches( $icons, false, true );
		}
		$styles = array();
		foreach ( $terms as $term ) {
			if ( ! $term instanceof WP_Term ) {
				continue;
			}
			$color    = Group_Style_Rules::check_color( get_term_meta( $term->term_id, self::META_COLOR, true ) );
			$icon     = Group_Style_Rules::icon_url( (int) get_term_meta( $term->term_id, self::META_ICON, true ) );
			$styles[] = array(
				'slug'  => $term->slug,
				// Stored names keep entities (`&amp;`): the map shows text, never markup.
				'name'  => html_entity_decode( wp_strip_all_tags( $term->name ), ENT_QUOTES | ENT_HTML5, 'UTF-8' ),
				'color' => is_wp_error( $color ) ? '' : $color,
				'icon'  => $icon,
			) + self::line_looks( $term->term_id );
		}
		return $styles;
	}

	/**
	 * A group's line looks as maps receive them: each stored value its rule accepts, else the
	 * default ('' for the group colour, 3 px, 0.25), so a value stored before the rules (a direct
	 * database write) never reaches a map.
	 *
	 * @since 0.5.0
	 *
	 * @param int $term_id Group.
	 * @return array{lineColor: string, lineWidth: int, fillOpacity: float}
	 */
	public static function line_looks( int $term_id ): array {
		$color   = Group_Style_Rules::check_line_color( self::stored( $term_id, self::META_LINE_COLOR ) ?? '' );
		$width   = Group_Style_Rules::check_line_width( self::stored( $term_id, self::META_LINE_WIDTH ) ?? Group_Style_Rules::line_width_default() );
		$opacity = Group_Style_Rules::check_fill_opacity( self::stored( $term_id, self::META_FILL_OPACITY ) ?? Group_Style_Rules::fill_opacity_default() );
		return array(
			'lineColor'   => is_wp_error( $color ) ? '' : $color,
			'lineWidth'   => is_wp_error( $width ) ? Group_Style_Rules::line_width_default() : $width,
			'fillOpacity' => is_wp_error( $opacity ) ? Group_Style_Rules::fill_opacity_default() : $opacity,
		);
	}

	/**
	 * The value stored under a key, or null when the group stores none (the registered default
	 * would otherwise stand in for it).
	 *
	 * @param int    $term_id  Group.
	 * @param string $meta_key Key.
	 * @return mixed
	 */
	private static function stored( int $term_id, string $meta_key ) {
		return metadata_exists( 'term', $term_id, $meta_key ) ? get_term_meta( $term_id, $meta_key, true ) : null;
	}
}
