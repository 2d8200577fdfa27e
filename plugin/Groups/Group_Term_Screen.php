<?php
/**
 * The marker group screens' part in the looks: form fields, column, notice.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Groups;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Post_Type;
use WP_Error;
use WP_Term;

/**
 * The looks of a group on its admin screens: a colour field (WordPress' colour picker when scripts
 * run) and an icon dropdown, and for routes and areas a line colour, a line width and a fill
 * opacity, on the add and edit forms, saved with a nonce and checked by Group_Style_Rules; the add
 * form refuses the whole group when any look is invalid, the edit form then stores none of the
 * looks and carries the refusals to a notice on the screen it returns to; and a "Marker looks"
 * column on the group list.
 *
 * @since 0.2.0
 */
class Group_Term_Screen {

	/**
	 * Images listed in the icon dropdown of the term screens (newest first).
	 */
	public const ICON_CHOICES = 100;

	private const NONCE     = 'cairn_maps_group_style';
	private const ERROR_ARG = 'cairn_maps_group_error';

	/**
	 * The form's looks: field name (and key of the refusal in the redirect) => term meta key.
	 */
	private const FIELDS = array(
		'color'        => Group_Styles::META_COLOR,
		'icon'         => Group_Styles::META_ICON,
		'line_color'   => Group_Styles::META_LINE_COLOR,
		'line_width'   => Group_Styles::META_LINE_WIDTH,
		'fill_opacity' => Group_Styles::META_FILL_OPACITY,
	);

	/**
	 * The refusals noted while the term edit form was saved, for the redirect (FIELDS keys).
	 *
	 * @var string[]
	 */
	private array $screen_errors = array();

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
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
		echo '</div><div class="form-field term-cairn-line-color-wrap">';
		$this->render_line_color_input( '' );
		echo '</div><div class="form-field term-cairn-line-width-wrap">';
		$this->render_line_width_input( Group_Style_Rules::line_width_default() );
		echo '</div><div class="form-field term-cairn-fill-opacity-wrap">';
		$this->render_fill_opacity_input( Group_Style_Rules::fill_opacity_default() );
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
		$color = Group_Style_Rules::check_color( get_term_meta( $term->term_id, Group_Styles::META_COLOR, true ) );
		$icon  = (int) get_term_meta( $term->term_id, Group_Styles::META_ICON, true );
		echo '<tr class="form-field term-cairn-color-wrap"><th scope="row">';
		wp_nonce_field( self::NONCE, self::NONCE . '_nonce' );
		printf( '<label for="cairn-maps-color">%s</label></th><td>', esc_html__( 'Marker colour', 'cairn-maps' ) );
		$this->render_color_input( is_wp_error( $color ) ? '' : $color, false );
		printf( '</td></tr><tr class="form-field term-cairn-icon-wrap"><th scope="row"><label for="cairn-maps-icon">%s</label></th><td>', esc_html__( 'Marker icon', 'cairn-maps' ) );
		$this->render_icon_select( $icon, false );
		if ( $icon > 0 && Group_Style_Rules::is_icon_image( $icon ) ) {
			printf( '<p>%s</p>', wp_get_attachment_image( $icon, array( 32, 32 ), false, array( 'alt' => '' ) ) );
		}
		echo '</td></tr>';
		$looks = Group_Styles::line_looks( $term->term_id );
		printf( '<tr class="form-field term-cairn-line-color-wrap"><th scope="row"><label for="cairn-maps-line-color">%s</label></th><td>', esc_html__( 'Line colour', 'cairn-maps' ) );
		$this->render_line_color_input( $looks['lineColor'], false );
		printf( '</td></tr><tr class="form-field term-cairn-line-width-wrap"><th scope="row"><label for="cairn-maps-line-width">%s</label></th><td>', esc_html__( 'Line width', 'cairn-maps' ) );
		$this->render_line_width_input( $looks['lineWidth'], false );
		printf( '</td></tr><tr class="form-field term-cairn-fill-opacity-wrap"><th scope="row"><label for="cairn-maps-fill-opacity">%s</label></th><td>', esc_html__( 'Area fill opacity', 'cairn-maps' ) );
		$this->render_fill_opacity_input( $looks['fillOpacity'], false );
		echo '</td></tr>';
	}

	/**
	 * The line colour input, like the marker colour's.
	 *
	 * @param string $color     Current line colour.
	 * @param bool   $add_label Whether to print the label (the add form has no table).
	 */
	private function render_line_color_input( string $color, bool $add_label = true ): void {
		if ( $add_label ) {
			printf( '<label for="cairn-maps-line-color">%s</label>', esc_html__( 'Line colour', 'cairn-maps' ) );
		}
		printf(
			'<input type="text" id="cairn-maps-line-color" name="cairn_maps_line_color" class="cairn-maps-color-field" value="%1$s" maxlength="7" pattern="#[0-9a-fA-F]{6}" placeholder="#rrggbb" aria-describedby="cairn-maps-line-color-description" /><p class="description" id="cairn-maps-line-color-description">%2$s</p>',
			esc_attr( $color ),
			esc_html__( 'Colour of this group\'s routes and area outlines and fills, as #rrggbb. Leave empty to use the marker colour.', 'cairn-maps' )
		);
	}

	/**
	 * The line width input, in whole pixels.
	 *
	 * @param int  $width     Current width.
	 * @param bool $add_label Whether to print the label.
	 */
	private function render_line_width_input( int $width, bool $add_label = true ): void {
		if ( $add_label ) {
			printf( '<label for="cairn-maps-line-width">%s</label>', esc_html__( 'Line width', 'cairn-maps' ) );
		}
		printf(
			'<input type="number" id="cairn-maps-line-width" name="cairn_maps_line_width" value="%1$d" min="%2$d" max="%3$d" step="1" class="small-text" aria-describedby="cairn-maps-line-width-description" /><p class="description" id="cairn-maps-line-width-description">%4$s</p>',
			(int) $width,
			(int) Group_Style_Rules::line_width_min(),
			(int) Group_Style_Rules::line_width_max(),
			esc_html(
				sprintf(
					/* translators: 1: narrowest, 2: widest, 3: default line width, in pixels. */
					__( 'Width of this group\'s routes and area outlines, in pixels from %1$d to %2$d (default %3$d).', 'cairn-maps' ),
					Group_Style_Rules::line_width_min(),
					Group_Style_Rules::line_width_max(),
					Group_Style_Rules::line_width_default()
				)
			)
		);
	}

	/**
	 * The fill opacity input, from 0 to 1.
	 *
	 * @param float $opacity   Current opacity.
	 * @param bool  $add_label Whether to print the label.
	 */
	private function render_fill_opacity_input( float $opacity, bool $add_label = true ): void {
		if ( $add_label ) {
			printf( '<label for="cairn-maps-fill-opacity">%s</label>', esc_html__( 'Area fill opacity', 'cairn-maps' ) );
		}
		printf(
			'<input type="number" id="cairn-maps-fill-opacity" name="cairn_maps_fill_opacity" value="%1$s" min="0" max="1" step="0.05" class="small-text" aria-describedby="cairn-maps-fill-opacity-description" /><p class="description" id="cairn-maps-fill-opacity-description">%2$s</p>',
			esc_attr( (string) $opacity ),
			esc_html(
				sprintf(
					/* translators: %s: default fill opacity, a number such as 0.25. */
					__( 'How strongly this group\'s areas are filled, from 0 (transparent) to 1 (opaque); default %s.', 'cairn-maps' ),
					number_format_i18n( Group_Style_Rules::fill_opacity_default(), 2 )
				)
			)
		);
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
				'post_mime_type'         => Group_Style_Rules::ICON_MIME_TYPES,
				'posts_per_page'         => self::ICON_CHOICES, // phpcs:ignore WordPress.WP.PostsPerPage.posts_per_page_posts_per_page -- a bounded dropdown, only on the group screens.
				'orderby'                => 'date',
				'order'                  => 'DESC',
				'no_found_rows'          => true,
				'update_post_term_cache' => false,
			)
		);
		$ids    = wp_list_pluck( $images, 'ID' );
		if ( $selected > 0 && ! in_array( $selected, $ids, true ) && Group_Style_Rules::is_icon_image( $selected ) ) {
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
	 * The submitted form values, when this request carries our form with a valid nonce. A field
	 * left out or empty stands for the default ('' colours, no icon, 3 px, 0.25).
	 *
	 * @return array<string, string>|null Values by FIELDS key.
	 */
	private function submitted_form(): ?array {
		if ( ! isset( $_POST[ self::NONCE . '_nonce' ] ) || ! wp_verify_nonce( sanitize_key( wp_unslash( $_POST[ self::NONCE . '_nonce' ] ) ), self::NONCE ) ) {
			return null;
		}
		$defaults = array(
			'color'        => '',
			'icon'         => '0',
			'line_color'   => '',
			'line_width'   => (string) Group_Style_Rules::line_width_default(),
			'fill_opacity' => (string) Group_Style_Rules::fill_opacity_default(),
		);
		$form     = array();
		foreach ( $defaults as $field => $default ) {
			// Checked by Group_Style_Rules, which refuses anything but the exact forms.
			$value          = isset( $_POST[ 'cairn_maps_' . $field ] ) ? sanitize_text_field( wp_unslash( $_POST[ 'cairn_maps_' . $field ] ) ) : '';
			$form[ $field ] = '' === trim( $value ) ? $default : $value;
		}
		return $form;
	}

	/**
	 * Checks every look of a submitted form.
	 *
	 * @param array<string, string> $form Values by FIELDS key.
	 * @return array{values: array<string, mixed>, errors: array<string, WP_Error>} The checked
	 *         values by meta key, and the refusals by FIELDS key.
	 */
	private static function check_form( array $form ): array {
		$values = array();
		$errors = array();
		foreach ( self::FIELDS as $field => $meta_key ) {
			$checked = Group_Styles::check( $meta_key, $form[ $field ] ?? '' );
			if ( $checked instanceof WP_Error ) {
				$errors[ $field ] = $checked;
			} else {
				$values[ $meta_key ] = $checked;
			}
		}
		return array(
			'values' => $values,
			'errors' => $errors,
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
		$errors = self::check_form( $form )['errors'];
		return array() === $errors ? $term : reset( $errors );
	}

	/**
	 * Saves the looks from the add or edit form, all or none: when a value is invalid no look is
	 * stored, and on the edit form the screen then shows why. Empty colours, no icon and the
	 * default width and opacity are stored as no value, so the defaults apply.
	 *
	 * @param int $term_id Term id.
	 */
	public function save_form( $term_id ): void {
		$form = $this->submitted_form();
		if ( null === $form || ! current_user_can( 'edit_term', (int) $term_id ) ) {
			return;
		}
		$checked = self::check_form( $form );
		if ( array() !== $checked['errors'] ) {
			$this->screen_errors = array_keys( $checked['errors'] );
			return;
		}
		$defaults = array(
			Group_Styles::META_COLOR        => '',
			Group_Styles::META_ICON         => 0,
			Group_Styles::META_LINE_COLOR   => '',
			Group_Styles::META_LINE_WIDTH   => Group_Style_Rules::line_width_default(),
			Group_Styles::META_FILL_OPACITY => Group_Style_Rules::fill_opacity_default(),
		);
		foreach ( $checked['values'] as $meta_key => $value ) {
			if ( $defaults[ $meta_key ] === $value ) {
				delete_term_meta( (int) $term_id, $meta_key );
			} else {
				update_term_meta( (int) $term_id, $meta_key, $value );
			}
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
		return array() === $this->screen_errors ? $location : add_query_arg( self::ERROR_ARG, implode( '.', $this->screen_errors ), $location );
	}

	/**
	 * Shows the refusals carried by the redirect (the value only picks among fixed messages).
	 */
	public function print_screen_error(): void {
		// phpcs:ignore WordPress.Security.NonceVerification.Recommended -- read-only: selects fixed messages.
		$errors = isset( $_GET[ self::ERROR_ARG ] ) ? explode( '.', sanitize_text_field( wp_unslash( $_GET[ self::ERROR_ARG ] ) ) ) : array();
		if ( array() === $errors || ! $this->is_group_screen() ) {
			return;
		}
		$messages = array(
			'color'        => Group_Style_Rules::color_message(),
			'icon'         => Group_Style_Rules::icon_message(),
			'line_color'   => Group_Style_Rules::line_color_message(),
			'line_width'   => Group_Style_Rules::line_width_message(),
			'fill_opacity' => Group_Style_Rules::fill_opacity_message(),
		);
		$shown    = array_values( array_intersect_key( $messages, array_flip( $errors ) ) );
		if ( array() === $shown ) {
			return;
		}
		echo '<div class="notice notice-error">';
		foreach ( $shown as $message ) {
			printf( '<p>%s</p>', esc_html( $message ) );
		}
		echo '</div>';
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
		$color = Group_Style_Rules::check_color( get_term_meta( (int) $term_id, Group_Styles::META_COLOR, true ) );
		$icon  = (int) get_term_meta( (int) $term_id, Group_Styles::META_ICON, true );
		$html  = '';
		if ( ! is_wp_error( $color ) && '' !== $color ) {
			$html .= sprintf(
				'<span class="cairn-maps-swatch" style="display:inline-block;width:1em;height:1em;vertical-align:middle;border:1px solid #8c8f94;background:%1$s"></span> <code>%2$s</code> ',
				esc_attr( $color ),
				esc_html( $color )
			);
		}
		if ( $icon > 0 && Group_Style_Rules::is_icon_image( $icon ) ) {
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
		$html .= $this->line_looks_summary( (int) $term_id );
		return '' !== $html ? $html : '—';
	}

	/**
	 * The group's line looks in the list, when any differs from the defaults: a sample of the line
	 * in its colour and width, and the values in words.
	 *
	 * @param int $term_id Term id.
	 */
	private function line_looks_summary( int $term_id ): string {
		$looks = Group_Styles::line_looks( $term_id );
		if ( '' === $looks['lineColor'] && Group_Style_Rules::line_width_default() === $looks['lineWidth'] && Group_Style_Rules::fill_opacity_default() === $looks['fillOpacity'] ) {
			return '';
		}
		$sample = '' === $looks['lineColor'] ? '' : sprintf(
			'<span class="cairn-maps-line-sample" style="display:inline-block;width:1.5em;height:%1$dpx;vertical-align:middle;background:%2$s"></span> ',
			(int) $looks['lineWidth'],
			esc_attr( $looks['lineColor'] )
		);
		return sprintf(
			'<br />%1$s<span class="cairn-maps-line-looks">%2$s</span>',
			$sample,
			esc_html(
				sprintf(
					/* translators: 1: line colour (#rrggbb, or "group colour"), 2: line width in pixels, 3: fill opacity (0 to 1). */
					__( 'Lines: %1$s, %2$d px; area fill %3$s', 'cairn-maps' ),
					'' === $looks['lineColor'] ? __( 'group colour', 'cairn-maps' ) : $looks['lineColor'],
					$looks['lineWidth'],
					number_format_i18n( $looks['fillOpacity'], 2 )
				)
			)
		);
	}
}
