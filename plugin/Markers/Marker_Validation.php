<?php
/**
 * Refuses bad marker writes before anything is stored.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

defined( 'ABSPATH' ) || exit;

use WP_Error;
use WP_Post;
use WP_REST_Request;

/**
 * Validation of writes through core's `/wp/v2/cairn-markers` controller.
 *
 * Core's posts controller inserts or updates the post first and writes meta afterwards, checking
 * meta values only then: a bad latitude would leave a half-saved marker behind. So everything is
 * checked in `rest_pre_insert_cairn_marker`, which runs after the permission checks and before
 * the first write: coordinates must be finite numbers in range, a marker that is (or becomes)
 * published or scheduled needs both, and text fields must be valid UTF-8. On failure the answer
 * is a 400 naming the field, and nothing is saved.
 *
 * @since 0.1.0
 */
class Marker_Validation {

	/**
	 * Statuses that put a marker on maps (now or later).
	 */
	private const NEEDS_COORDINATES = array( 'publish', 'future' );

	/**
	 * Text fields checked against the size of their database column: post property => REST field.
	 * (An import is stricter: titles of at most Marker_Import::TITLE_MAX characters.)
	 */
	private const COLUMN_FIELDS = array(
		'post_title'    => 'title',
		'post_content'  => 'content',
		'post_excerpt'  => 'excerpt',
		'post_password' => 'password',
	);

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_filter( 'rest_pre_insert_' . Post_Type::POST_TYPE, array( $this, 'validate_rest_write' ), 10, 2 );
	}

	/**
	 * The coordinate fields: meta key => [label, minimum, maximum].
	 *
	 * @return array<string, array{0: string, 1: float, 2: float}>
	 */
	public static function coordinate_fields(): array {
		return Coordinate_Rule::fields( Post_Type::META_LAT, Post_Type::META_LNG );
	}

	/**
	 * Checks one coordinate value.
	 *
	 * @param string $key   `cairn_lat` or `cairn_lng`.
	 * @param mixed  $value Submitted value.
	 * @return float|WP_Error The number, or why it is refused (naming the field).
	 */
	public static function coordinate( string $key, $value ) {
		return Coordinate_Rule::check( self::coordinate_fields(), $key, $value );
	}

	/**
	 * Validates a create or update before core writes anything.
	 *
	 * @param \stdClass|WP_Error $prepared_post The post about to be written.
	 * @param mixed              $request       The request (a WP_REST_Request from core; anything
	 *                                          else is let through unchanged).
	 * @return \stdClass|WP_Error The unchanged post, or the reason for refusing it.
	 */
	public function validate_rest_write( $prepared_post, $request ) {
		if ( is_wp_error( $prepared_post ) || ! $request instanceof WP_REST_Request ) {
			return $prepared_post;
		}
		$existing = ! empty( $prepared_post->ID ) ? get_post( (int) $prepared_post->ID ) : null;
		$existing = $existing instanceof WP_Post ? $existing : null;

		foreach ( array(
			'post_title'   => 'title',
			'post_content' => 'content',
			'post_excerpt' => 'excerpt',
		) as $property => $field ) {
			if ( isset( $prepared_post->$property ) && is_string( $prepared_post->$property ) && ! wp_check_invalid_utf8( $prepared_post->$property ) && '' !== $prepared_post->$property ) {
				return $this->error(
					$field,
					/* translators: %s: field name. */
					sprintf( __( 'The %s is not valid UTF-8 text.', 'cairn-maps' ), $field )
				);
			}
		}

		$too_long = $this->too_long( $prepared_post );
		if ( null !== $too_long ) {
			return $too_long;
		}

		$meta    = is_array( $request['meta'] ) ? $request['meta'] : array();
		$missing = array();
		foreach ( self::coordinate_fields() as $key => $field ) {
			if ( array_key_exists( $key, $meta ) ) {
				if ( null === $meta[ $key ] ) {
					// Null deletes the stored value. With none stored, core would answer 500 ("invalid
					// stored value") after creating the post: there is nothing to delete, so drop it.
					$missing[] = $key;
					if ( null === $existing || '' === (string) get_post_meta( $existing->ID, $key, true ) ) {
						unset( $meta[ $key ] );
						$request->set_param( 'meta', $meta );
					}
					continue;
				}
				$checked = self::coordinate( $key, $meta[ $key ] );
				if ( is_wp_error( $checked ) ) {
					return $this->error( 'meta', $checked->get_error_message(), $key );
				}
				continue;
			}
			if ( null === $existing || '' === (string) get_post_meta( $existing->ID, $key, true ) ) {
				$missing[] = $key;
			}
		}

		$status = ! empty( $prepared_post->post_status ) ? (string) $prepared_post->post_status : ( $existing ? $existing->post_status : 'draft' );
		if ( array() !== $missing && in_array( $status, self::NEEDS_COORDINATES, true ) ) {
			$labels = array();
			foreach ( $missing as $key ) {
				$labels[] = sprintf( '%1$s (%2$s)', self::coordinate_fields()[ $key ][0], $key );
			}
			return $this->error(
				'meta',
				/* translators: %s: the missing fields, e.g. "Latitude (cairn_lat)". */
				sprintf( __( 'A published marker needs a latitude and a longitude. Missing: %s.', 'cairn-maps' ), implode( ', ', $labels ) ),
				$missing[0]
			);
		}
		return $prepared_post;
	}

	/**
	 * The refusal of a text larger than its database column, which the database would refuse
	 * after core's checks, with a 500 (`db_insert_error`) instead of a message.
	 *
	 * @param \stdClass $prepared_post The post about to be written.
	 * @return WP_Error|null
	 */
	private function too_long( $prepared_post ): ?WP_Error {
		global $wpdb;
		foreach ( self::COLUMN_FIELDS as $property => $field ) {
			if ( ! isset( $prepared_post->$property ) || ! is_string( $prepared_post->$property ) ) {
				continue;
			}
			$column = $wpdb->get_col_length( $wpdb->posts, $property );
			if ( ! is_array( $column ) || empty( $column['length'] ) ) {
				continue;
			}
			// Measured as it will be stored: after the filters wp_insert_post() applies (kses turns
			// `&` into `&amp;` for users without unfiltered_html).
			$value = (string) sanitize_post_field( $property, $prepared_post->$property, 0, 'db' );
			$bytes = isset( $column['type'] ) && 'byte' === $column['type'];
			$size  = $bytes ? strlen( $value ) : mb_strlen( $value, 'UTF-8' );
			if ( $size > (int) $column['length'] ) {
				return $this->error(
					$field,
					$bytes
						/* translators: 1: field name, 2: size, e.g. "64 KB". */
						? sprintf( __( 'The %1$s is too long: it may hold at most %2$s of text.', 'cairn-maps' ), $field, size_format( (int) $column['length'] ) )
						/* translators: 1: field name, 2: number of characters. */
						: sprintf( __( 'The %1$s is too long: it may hold at most %2$d characters.', 'cairn-maps' ), $field, (int) $column['length'] )
				);
			}
		}
		return null;
	}

	/**
	 * A 400 in the shape of core's parameter errors.
	 *
	 * @param string $param   Request parameter (`meta`, `title`, …).
	 * @param string $message Message.
	 * @param string $field   Meta key, when the problem is a coordinate.
	 */
	private function error( string $param, string $message, string $field = '' ): WP_Error {
		$data = array(
			'status' => 400,
			'params' => array( $param => $message ),
		);
		if ( '' !== $field ) {
			$data['field'] = $field;
		}
		return new WP_Error( 'rest_invalid_param', $message, $data );
	}
}
