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
 * run) and an icon dropdown on the add and edit forms, saved with a nonce and checked by
 * Group_Style_Rules; the add form refuses the whole group when its looks are invalid, the edit form
 * stores the rest and carries the refusal to a notice on the screen it returns to; and a "Marker
 * looks" column on the group list.
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
	 * The refusal noted while the term edit form was saved, for the redirect.
	 *
	 * @var string
	 */
	private string $screen_error = '';

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
		foreach ( array( Group_Style_Rules::check_color( $form['color'] ), Group_Style_Rules::check_icon( $form['icon'] ) ) as $checked ) {
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
		$color = Group_Style_Rules::check_color( $form['color'] );
		if ( is_wp_error( $color ) ) {
			$this->screen_error = 'color';
		} elseif ( '' === $color ) {
			delete_term_meta( (int) $term_id, Group_Styles::META_COLOR );
		} else {
			update_term_meta( (int) $term_id, Group_Styles::META_COLOR, $color );
		}
		$icon = Group_Style_Rules::check_icon( $form['icon'] );
		if ( is_wp_error( $icon ) ) {
			$this->screen_error = 'icon';
		} elseif ( 0 === $icon ) {
			delete_term_meta( (int) $term_id, Group_Styles::META_ICON );
		} else {
			update_term_meta( (int) $term_id, Group_Styles::META_ICON, $icon );
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
		printf( '<div class="notice notice-error"><p>%s</p></div>', esc_html( 'icon' === $error ? Group_Style_Rules::icon_message() : Group_Style_Rules::color_message() ) );
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
		return '' !== $html ? $html : '—';
	}
}
