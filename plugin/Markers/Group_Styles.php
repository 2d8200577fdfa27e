<?php
/**
 * How the markers of a group look: a colour and an icon.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

defined( 'ABSPATH' ) || exit;

use WP_Error;
use WP_REST_Request;
use WP_Term;

/**
 * Term meta of `cairn_marker_group`:
 * - `cairn_color`: `#rrggbb`, or '' for the default colour;
 * - `cairn_icon`: id of a PNG or JPEG attachment, or 0 for the default symbol.
 *
 * Every way in is checked with the same rules (`check_color()`, `check_icon()`): REST writes are
 * refused with a 400 before anything is stored (`rest_dispatch_request` runs after the permission
 * checks and before core's terms controller writes the term), the term screens refuse the value
 * with a message, and any other write (PHP, WP-CLI) is refused by the meta filters, so an invalid
 * value is never stored. Changes bump the markers version (Markers_Version watches this meta).
 *
 * `styles()` gives the map block every group with its name and looks (for the markers' colours and
 * icons, and the visitors' group legend), cached by markers version.
 *
 * @since 0.1.0
 */
class Group_Styles {

	public const META_COLOR = 'cairn_color';
	public const META_ICON  = 'cairn_icon';

	/**
	 * Most groups a map receives (in name order): the legend and the marker looks of a site with
	 * more groups stop there, so a page's configuration stays small.
	 */
	public const MAX_STYLES = 100;

	/**
	 * Icon mime types the map can draw.
	 */
	public const ICON_MIME_TYPES = array( 'image/png', 'image/jpeg' );

	/**
	 * Images listed in the icon dropdown of the term screens (newest first).
	 */
	public const ICON_CHOICES = 100;

	/**
	 * Longest side, in pixels, of the icon size the map asks for (WordPress picks the closest
	 * generated size with the same proportions, else the full image).
	 */
	public const ICON_PIXELS = 64;

	// Named for the shape of the entries (0.3.0 added names and groups without looks), so an entry
	// cached by an earlier version is never read as the new shape.
	private const CACHE_KEY = 'cairn_maps_groups_v2';
	private const NONCE     = 'cairn_maps_group_style';
	private const ERROR_ARG = 'cairn_maps_group_error';

	/**
	 * The markers version, which labels the cached list.
	 *
	 * @var Markers_Version
	 */
	private Markers_Version $version;

	/**
	 * The refusal noted while the term edit form was saved, for the redirect.
	 *
	 * @var string
	 */
	private string $screen_error = '';

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

		add_action( Post_Type::TAXONOMY . '_add_form_fields', array( $this, 'render_add_fields' ) );
		add_action( Post_Type::TAXONOMY . '_edit_form_fields', array( $this, 'render_edit_fields' ) );
		add_filter( 'pre_insert_term', array( $this, 'check_add_form' ), 10, 2 );
		add_action( 'created_' . Post_Type::TAXONOMY, array( $this, 'save_form' ) );
		add_action( 'edited_' . Post_Type::TAXONOMY, array( $this, 'save_form' ) );
		add_filter( 'redirect_term_location', array( $this, 'redirect_with_error' ), 10, 2 );
		add_action( 'admin_notices', array( $this, 'print_screen_error' ) );
		add_action( 'admin_enqueue_scripts', array( $this, 'enqueue' ) );
		add_filter( 'manage_edit-' . Post_Type::TAXONOMY . '_columns', array( $this, 'columns' ) );
		add_filter( 'manage_' . Post_Type::TAXONOMY . '_custom_column', array( $this, 'render_column' ), 10, 3 );
	}

	/**
	 * Registers the two term meta keys, with their REST schemas.
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
	 * Checks a colour.
	 *
	 * @param mixed $value Value.
	 * @return string|WP_Error The colour (`#rrggbb` in lower case, or ''), or why it is refused.
	 */
	public static function check_color( $value ) {
		$color = is_string( $value ) ? strtolower( trim( $value ) ) : null;
		if ( null === $color || ( '' !== $color && 1 !== preg_match( '/^#[0-9a-f]{6}$/D', $color ) ) ) {
			return new WP_Error( 'cairn_maps_invalid_color', self::color_message(), array( 'status' => 400 ) );
		}
		return $color;
	}

	/**
	 * Checks an icon: 0 (none) or a PNG or JPEG attachment.
	 *
	 * @param mixed $value Value.
	 * @return int|WP_Error The attachment id (0 for none), or why it is refused.
	 */
	public static function check_icon( $value ) {
		$id = null;
		if ( is_int( $value ) ) {
			$id = $value;
		} elseif ( is_string( $value ) && 1 === preg_match( '/^\s*\d{1,19}\s*$/', $value ) ) {
			$id = (int) trim( $value );
		}
		if ( 0 === $id ) {
			return 0;
		}
		if ( null === $id || $id < 0 || ! self::is_icon_image( $id ) ) {
			return new WP_Error( 'cairn_maps_invalid_icon', self::icon_message(), array( 'status' => 400 ) );
		}
		return $id;
	}

	/**
	 * Why a colour is refused.
	 */
	public static function color_message(): string {
		return __( 'The group colour must be a hex colour such as #1e73be, or empty for the default colour.', 'cairn-maps' );
	}

	/**
	 * Why an icon is refused (the wording of the map's `image-type` error).
	 */
	public static function icon_message(): string {
		return __( 'A supported PNG or JPEG image is required.', 'cairn-maps' );
	}

	/**
	 * Whether an attachment is a PNG or JPEG image.
	 *
	 * @param int $id Attachment id.
	 */
	private static function is_icon_image( int $id ): bool {
		$post = get_post( $id );
		return $post instanceof \WP_Post && 'attachment' === $post->post_type
			&& in_array( get_post_mime_type( $post ), self::ICON_MIME_TYPES, true );
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
		foreach ( array(
			self::META_COLOR => array( self::class, 'check_color' ),
			self::META_ICON  => array( self::class, 'check_icon' ),
		) as $key => $check ) {
			// Null deletes the value: always allowed.
			if ( ! array_key_exists( $key, $meta ) || null === $meta[ $key ] ) {
				continue;
			}
			$checked = $check( $meta[ $key ] );
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
	 * Refuses to store an invalid colour or icon, whatever the way in.
	 *
	 * @param mixed  $check    Null to go on, anything else to stop.
	 * @param int    $term_id  Term id.
	 * @param string $meta_key Meta key.
	 * @param mixed  $value    Value (sanitised).
	 * @return mixed False to refuse, else `$check`.
	 */
	public function refuse_invalid_meta( $check, $term_id, $meta_key, $value ) {
		if ( null !== $check || ( self::META_COLOR !== $meta_key && self::META_ICON !== $meta_key ) ) {
			return $check;
		}
		$term = get_term( (int) $term_id );
		if ( ! $term instanceof WP_Term || Post_Type::TAXONOMY !== $term->taxonomy ) {
			return $check;
		}
		$checked = self::META_COLOR === $meta_key ? self::check_color( $value ) : self::check_icon( $value );
		return is_wp_error( $checked ) ? false : $check;
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
	 * The site's groups for the map's client config: slug, name (plain text) and looks ('' where
	 * the group has no colour or icon), at most MAX_STYLES, in name order (the order in which a
	 * marker's first group is chosen). Groups without looks are listed too: the visitors' legend
	 * needs every group. Cached until the markers version changes (any change to groups or their
	 * looks bumps it).
	 *
	 * @return array<int, array{slug: string, name: string, color: string, icon: string}>
	 */
	public function styles(): array {
		$version = $this->version->get();
		$cached  = get_transient( self::CACHE_KEY );
		if ( is_array( $cached ) && ( $cached['version'] ?? null ) === $version && isset( $cached['styles'] ) && is_array( $cached['styles'] ) ) {
			return $cached['styles'];
		}
		$styles = $this->read_styles();
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
	 * Reads the groups and their looks from the database.
	 *
	 * @return array<int, array{slug: string, name: string, color: string, icon: string}>
	 */
	private function read_styles(): array {
		/**
		 * Checked term by term below: the get_terms filter may return anything.
		 *
		 * @var mixed $terms
		 */
		$terms = get_terms(
			array(
				'taxonomy'               => Post_Type::TAXONOMY,
				'hide_empty'             => false,
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
			$color    = self::check_color( get_term_meta( $term->term_id, self::META_COLOR, true ) );
			$icon     = self::icon_url( (int) get_term_meta( $term->term_id, self::META_ICON, true ) );
			$styles[] = array(
				'slug'  => $term->slug,
				// Stored names keep entities (`&amp;`): the map shows text, never markup.
				'name'  => html_entity_decode( wp_strip_all_tags( $term->name ), ENT_QUOTES | ENT_HTML5, 'UTF-8' ),
				'color' => is_wp_error( $color ) ? '' : $color,
				'icon'  => $icon,
			);
		}
		return $styles;
	}

	/**
	 * URL of an icon at about 64 pixels (the closest generated size of the same proportions, else
	 * the full image), or '' when the attachment is not a PNG or JPEG image.
	 *
	 * @param int $id Attachment id.
	 */
	public static function icon_url( int $id ): string {
		if ( $id <= 0 || ! self::is_icon_image( $id ) ) {
			return '';
		}
		$url = wp_get_attachment_image_url( $id, array( self::ICON_PIXELS, self::ICON_PIXELS ) );
		return is_string( $url ) ? $url : '';
	}

	/**
	 * Whether the current admin screen is this taxonomy's list or edit screen.
	 */
	private function is_group_screen(): bool {
		$screen = function_exists( 'get_current_screen' ) ? get_current_screen() : null;
		return null !== $screen && Post_Type::TAXONOMY === $screen->taxonomy && in_array( $screen->base, array( 'edit-tags', 'term' ), true );
	}

	/**
	 * Loads the colour picker on the group screens (the field works as plain text without it).
	 *
	 * @param string $hook_suffix Current admin page.
	 */
	public function enqueue( $hook_suffix ): void {
		if ( ! in_array( $hook_suffix, array( 'edit-tags.php', 'term.php' ), true ) || ! $this->is_group_screen() ) {
			return;
		}
		wp_enqueue_style( 'wp-color-picker' );
		wp_enqueue_script( 'wp-color-picker' );
		wp_add_inline_script( 'wp-color-picker', 'jQuery( function ( $ ) { $( ".cairn-maps-color-field" ).wpColorPicker(); } );' );
	}

	/**
	 * Fields on the "Add New Marker Group" form.
	 */
	public function render_add_fields(): void {
		wp_nonce_field( self::NONCE, self::NONCE . '_nonce' );
		echo '<div class="form-field term-cairn-color-wrap">';
		$this->render_color_input( '' );
		echo '</div><div class="form-field term-cairn-icon-wrap">';
		$this->render_icon_select( 0 );
		echo '</div>';
	}

	/**
	 * Fields on the "Edit Marker Group" form.
	 *
	 * @param mixed $term The group (a WP_Term from core; anything else prints nothing).
	 */
	public function render_edit_fields( $term ): void {
		if ( ! $term instanceof WP_Term ) {
			return;
		}
		$color = self::check_color( get_term_meta( $term->term_id, self::META_COLOR, true ) );
		$icon  = (int) get_term_meta( $term->term_id, self::META_ICON, true );
		echo '<tr class="form-field term-cairn-color-wrap"><th scope="row">';
		wp_nonce_field( self::NONCE, self::NONCE . '_nonce' );
		printf( '<label for="cairn-maps-color">%s</label></th><td>', esc_html__( 'Marker colour', 'cairn-maps' ) );
		$this->render_color_input( is_wp_error( $color ) ? '' : $color, false );
		printf( '</td></tr><tr class="form-field term-cairn-icon-wrap"><th scope="row"><label for="cairn-maps-icon">%s</label></th><td>', esc_html__( 'Marker icon', 'cairn-maps' ) );
		$this->render_icon_select( $icon, false );
		if ( $icon > 0 && self::is_icon_image( $icon ) ) {
			printf( '<p>%s</p>', wp_get_attachment_image( $icon, array( 32, 32 ), false, array( 'alt' => '' ) ) );
		}
		echo '</td></tr>';
	}

	/**
	 * The colour input: text (`#rrggbb`), turned into WordPress' colour picker when scripts run.
	 *
	 * @param string $color     Current colour.
	 * @param bool   $add_label Whether to print the label (the add form has no table).
	 */
	private function render_color_input( string $color, bool $add_label = true ): void {
		if ( $add_label ) {
			printf( '<label for="cairn-maps-color">%s</label>', esc_html__( 'Marker colour', 'cairn-maps' ) );
		}
		printf(
			'<input type="text" id="cairn-maps-color" name="cairn_maps_color" class="cairn-maps-color-field" value="%1$s" maxlength="7" pattern="#[0-9a-fA-F]{6}" placeholder="#rrggbb" aria-describedby="cairn-maps-color-description" /><p class="description" id="cairn-maps-color-description">%2$s</p>',
			esc_attr( $color ),
			esc_html__( 'Colour of this group\'s markers on maps, as #rrggbb. Leave empty for the default colour.', 'cairn-maps' )
		);
	}

	/**
	 * The icon dropdown: PNG and JPEG images of the media library, newest first.
	 *
	 * @param int  $selected  Current icon.
	 * @param bool $add_label Whether to print the label.
	 */
	private function render_icon_select( int $selected, bool $add_label = true ): void {
		if ( $add_label ) {
			printf( '<label for="cairn-maps-icon">%s</label>', esc_html__( 'Marker icon', 'cairn-maps' ) );
		}
		// The stubs, after core's docblock, type post_mime_type as a string; WP_Query hands it to
		// wp_post_mime_type_where(), which takes a list as well.
		$images = get_posts(
			array( // @phpstan-ignore argument.type (post_mime_type may be a list)
				'post_type'              => 'attachment',
				'post_status'            => 'inherit',
				'post_mime_type'         => self::ICON_MIME_TYPES,
				'posts_per_page'         => self::ICON_CHOICES, // phpcs:ignore WordPress.WP.PostsPerPage.posts_per_page_posts_per_page -- a bounded dropdown, only on the group screens.
				'orderby'                => 'date',
				'order'                  => 'DESC',
				'no_found_rows'          => true,
				'update_post_term_cache' => false,
			)
		);
		$ids    = wp_list_pluck( $images, 'ID' );
		if ( $selected > 0 && ! in_array( $selected, $ids, true ) && self::is_icon_image( $selected ) ) {
			$current = get_post( $selected );
			if ( $current instanceof \WP_Post ) {
				array_unshift( $images, $current );
			}
		}
		printf( '<select id="cairn-maps-icon" name="cairn_maps_icon" aria-describedby="cairn-maps-icon-description"><option value="0">%s</option>', esc_html__( 'None (default symbol)', 'cairn-maps' ) );
		foreach ( $images as $image ) {
			$file  = basename( (string) get_attached_file( $image->ID ) );
			$label = '' !== $file && $file !== $image->post_title ? sprintf( '%1$s (%2$s)', $image->post_title, $file ) : $image->post_title;
			printf(
				'<option value="%1$d"%2$s>%3$s</option>',
				(int) $image->ID,
				selected( $selected, (int) $image->ID, false ),
				esc_html( $label )
			);
		}
		echo '</select>';
		printf(
			'<p class="description" id="cairn-maps-icon-description">%s</p>',
			esc_html(
				sprintf(
					/* translators: %d: number of images listed. */
					__( 'A PNG or JPEG image from the media library, drawn instead of the default symbol (about 64 pixels). The %d newest images are listed; upload one under Media first.', 'cairn-maps' ),
					self::ICON_CHOICES
				)
			)
		);
	}

	/**
	 * The submitted form values, when this request carries our form with a valid nonce.
	 *
	 * @return array{color: mixed, icon: mixed}|null
	 */
	private function submitted_form(): ?array {
		if ( ! isset( $_POST[ self::NONCE . '_nonce' ] ) || ! wp_verify_nonce( sanitize_key( wp_unslash( $_POST[ self::NONCE . '_nonce' ] ) ), self::NONCE ) ) {
			return null;
		}
		return array(
			// Checked by check_color() and check_icon(), which refuse anything but the exact forms.
			'color' => isset( $_POST['cairn_maps_color'] ) ? sanitize_text_field( wp_unslash( $_POST['cairn_maps_color'] ) ) : '',
			'icon'  => isset( $_POST['cairn_maps_icon'] ) ? sanitize_text_field( wp_unslash( $_POST['cairn_maps_icon'] ) ) : '0',
		);
	}

	/**
	 * On the add form, refuses the whole group when its looks are invalid: the form shows the
	 * message and nothing is created.
	 *
	 * @param string|WP_Error $term     The term name, or an error.
	 * @param string          $taxonomy Taxonomy.
	 * @return string|WP_Error
	 */
	public function check_add_form( $term, $taxonomy ) {
		if ( is_wp_error( $term ) || Post_Type::TAXONOMY !== $taxonomy ) {
			return $term;
		}
		$form = $this->submitted_form();
		if ( null === $form ) {
			return $term;
		}
		foreach ( array( self::check_color( $form['color'] ), self::check_icon( $form['icon'] ) ) as $checked ) {
			if ( is_wp_error( $checked ) ) {
				return $checked;
			}
		}
		return $term;
	}

	/**
	 * Saves the looks from the add or edit form. An invalid value is not stored; on the edit form
	 * the screen then shows why.
	 *
	 * @param int $term_id Term id.
	 */
	public function save_form( $term_id ): void {
		$form = $this->submitted_form();
		if ( null === $form || ! current_user_can( 'edit_term', (int) $term_id ) ) {
			return;
		}
		$color = self::check_color( $form['color'] );
		if ( is_wp_error( $color ) ) {
			$this->screen_error = 'color';
		} elseif ( '' === $color ) {
			delete_term_meta( (int) $term_id, self::META_COLOR );
		} else {
			update_term_meta( (int) $term_id, self::META_COLOR, $color );
		}
		$icon = self::check_icon( $form['icon'] );
		if ( is_wp_error( $icon ) ) {
			$this->screen_error = 'icon';
		} elseif ( 0 === $icon ) {
			delete_term_meta( (int) $term_id, self::META_ICON );
		} else {
			update_term_meta( (int) $term_id, self::META_ICON, $icon );
		}
	}

	/**
	 * Carries a refusal from the edit form to the screen it returns to.
	 *
	 * @param string       $location Redirect URL.
	 * @param \WP_Taxonomy $taxonomy Taxonomy.
	 */
	public function redirect_with_error( $location, $taxonomy = null ): string {
		if ( ! $taxonomy instanceof \WP_Taxonomy || Post_Type::TAXONOMY !== $taxonomy->name ) {
			return (string) $location;
		}
		// The screen returns to its referer, which may carry the refusal of an earlier save.
		$location = remove_query_arg( self::ERROR_ARG, (string) $location );
		return '' === $this->screen_error ? $location : add_query_arg( self::ERROR_ARG, $this->screen_error, $location );
	}

	/**
	 * Shows a refusal carried by the redirect (the value only picks one of two fixed messages).
	 */
	public function print_screen_error(): void {
		// phpcs:ignore WordPress.Security.NonceVerification.Recommended -- read-only: selects a fixed message.
		$error = isset( $_GET[ self::ERROR_ARG ] ) ? sanitize_key( wp_unslash( $_GET[ self::ERROR_ARG ] ) ) : '';
		if ( '' === $error || ! $this->is_group_screen() ) {
			return;
		}
		printf( '<div class="notice notice-error"><p>%s</p></div>', esc_html( 'icon' === $error ? self::icon_message() : self::color_message() ) );
	}

	/**
	 * A "Looks" column on the group list.
	 *
	 * @param mixed $columns Columns (an array of labels by key, unless another filter broke it).
	 * @return array<string, string>
	 */
	public function columns( $columns ): array {
		$columns                     = is_array( $columns ) ? $columns : array();
		$columns['cairn_maps_looks'] = __( 'Marker looks', 'cairn-maps' );
		return $columns;
	}

	/**
	 * The colour swatch and icon of a group in the list.
	 *
	 * @param string $content Column content so far.
	 * @param string $column  Column key.
	 * @param int    $term_id Term id.
	 */
	public function render_column( $content, $column, $term_id ): string {
		if ( 'cairn_maps_looks' !== $column ) {
			return (string) $content;
		}
		$color = self::check_color( get_term_meta( (int) $term_id, self::META_COLOR, true ) );
		$icon  = (int) get_term_meta( (int) $term_id, self::META_ICON, true );
		$html  = '';
		if ( ! is_wp_error( $color ) && '' !== $color ) {
			$html .= sprintf(
				'<span class="cairn-maps-swatch" style="display:inline-block;width:1em;height:1em;vertical-align:middle;border:1px solid #8c8f94;background:%1$s"></span> <code>%2$s</code> ',
				esc_attr( $color ),
				esc_html( $color )
			);
		}
		if ( $icon > 0 && self::is_icon_image( $icon ) ) {
			$html .= wp_get_attachment_image(
				$icon,
				array( 20, 20 ),
				false,
				array(
					'alt'   => __( 'Icon', 'cairn-maps' ),
					'style' => 'vertical-align:middle',
				)
			);
		}
		return '' !== $html ? $html : '—';
	}
}
