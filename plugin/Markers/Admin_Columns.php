<?php
/**
 * Marker list screen: coordinates column and a group filter.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

defined( 'ABSPATH' ) || exit;

/**
 * Adds a Coordinates column to Markers → All Markers (the groups column is core's taxonomy column,
 * `show_admin_column`) and a "All groups" dropdown that filters the list by group.
 *
 * @since 0.1.0
 */
class Admin_Columns {

	public const COLUMN = 'cairn_coordinates';

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_filter( 'manage_' . Post_Type::POST_TYPE . '_posts_columns', array( $this, 'columns' ) );
		add_action( 'manage_' . Post_Type::POST_TYPE . '_posts_custom_column', array( $this, 'render_column' ), 10, 2 );
		add_action( 'restrict_manage_posts', array( $this, 'group_filter' ), 10, 2 );
	}

	/**
	 * Puts the Coordinates column after the title.
	 *
	 * @param mixed $columns Columns (an array of labels by key, unless another filter broke it).
	 * @return array<string, string>
	 */
	public function columns( $columns ): array {
		$columns = is_array( $columns ) ? $columns : array();
		$result  = array();
		foreach ( $columns as $key => $label ) {
			$result[ $key ] = $label;
			if ( 'title' === $key ) {
				$result[ self::COLUMN ] = __( 'Coordinates', 'cairn-maps' );
			}
		}
		if ( ! isset( $result[ self::COLUMN ] ) ) {
			$result[ self::COLUMN ] = __( 'Coordinates', 'cairn-maps' );
		}
		return $result;
	}

	/**
	 * Prints a marker's coordinates, or says it has none (then no map shows it).
	 *
	 * @param string $column  Column key.
	 * @param int    $post_id Marker id.
	 */
	public function render_column( $column, $post_id ): void {
		if ( self::COLUMN !== $column ) {
			return;
		}
		$lat = (string) get_post_meta( (int) $post_id, Post_Type::META_LAT, true );
		$lng = (string) get_post_meta( (int) $post_id, Post_Type::META_LNG, true );
		if ( '' === $lat || '' === $lng ) {
			printf( '<span class="cairn-maps-no-coordinates">%s</span>', esc_html__( 'No coordinates: not shown on maps', 'cairn-maps' ) );
			return;
		}
		printf(
			'<span class="cairn-maps-coordinates" data-lat="%1$s" data-lng="%2$s">%3$s</span>',
			esc_attr( $lat ),
			esc_attr( $lng ),
			esc_html(
				sprintf(
					/* translators: 1: latitude, 2: longitude, in degrees. */
					__( '%1$s, %2$s', 'cairn-maps' ),
					number_format_i18n( (float) $lat, 5 ),
					number_format_i18n( (float) $lng, 5 )
				)
			)
		);
	}

	/**
	 * The group dropdown above the marker list.
	 *
	 * @param string $post_type Listed post type.
	 * @param string $which     `top` or `bottom`.
	 */
	public function group_filter( $post_type, $which = 'top' ): void {
		if ( Post_Type::POST_TYPE !== $post_type || 'top' !== $which ) {
			return;
		}
		$taxonomy = get_taxonomy( Post_Type::TAXONOMY );
		if ( ! $taxonomy || ! $taxonomy->query_var ) {
			return;
		}
		// Read-only list filter: the value only selects an option, it changes nothing.
		$selected = isset( $_GET[ $taxonomy->query_var ] ) ? sanitize_title( wp_unslash( (string) $_GET[ $taxonomy->query_var ] ) ) : ''; // phpcs:ignore WordPress.Security.NonceVerification.Recommended, WordPress.Security.ValidatedSanitizedInput.InputNotSanitized -- sanitize_title is the sanitizer.
		printf( '<label class="screen-reader-text" for="cairn-maps-group-filter">%s</label>', esc_html__( 'Filter by group', 'cairn-maps' ) );
		wp_dropdown_categories(
			array(
				'taxonomy'        => Post_Type::TAXONOMY,
				'name'            => $taxonomy->query_var,
				'id'              => 'cairn-maps-group-filter',
				'value_field'     => 'slug',
				'selected'        => $selected,
				'show_option_all' => __( 'All groups', 'cairn-maps' ),
				'hide_empty'      => false,
				'hierarchical'    => false,
				'orderby'         => 'name',
			)
		);
	}
}
