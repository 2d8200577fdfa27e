<?php
/**
 * The location meta of enabled post types: registration and the checks on every REST write.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Content;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Coordinate_Rule;
use Cairn\Maps\Markers\Post_Type;
use WP_Error;
use WP_Post;
use WP_REST_Request;

/**
 * Registers `geo_latitude`, `geo_longitude` (numbers), `geo_address` (plain text) and
 * `geo_public` (boolean, a missing value means not public) on each enabled post type, shown in
 * REST and writable by whoever may edit the post; markers get `geo_address` only (their place
 * stays in `cairn_lat`/`cairn_lng`).
 *
 * Core's posts controller writes the post first and its meta afterwards, checking meta values only
 * then, which would leave a half-saved post. So every write through `/wp/v2/<type>` is checked in
 * `rest_pre_insert_<type>` (after the permission checks, before the first write): coordinates are
 * finite numbers in the markers' ranges, both or neither, the address is valid text of at most
 * ADDRESS_MAX characters, `geo_public` a boolean; `geo_*` sent for a type that is not enabled is
 * refused. A refusal is a 400 naming the field, and nothing is saved.
 *
 * @since 0.3.0
 */
class Location_Meta {

	/**
	 * The longest address stored, in characters.
	 */
	public const ADDRESS_MAX = 500;

	/**
	 * Every location key.
	 */
	public const KEYS = array( Location_Types::META_LAT, Location_Types::META_LNG, Location_Types::META_ADDRESS, Location_Types::META_PUBLIC );

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		// After post types registered on init (10), so that they can be enabled.
		add_action( 'init', array( $this, 'register' ), 20 );
		// Every post type's writes, once all are registered.
		add_action( 'rest_api_init', array( $this, 'hook_rest_writes' ), 99 );
	}

	/**
	 * The coordinate fields: meta key => [label, minimum, maximum].
	 *
	 * @return array<string, array{0: string, 1: float, 2: float}>
	 */
	public static function coordinate_fields(): array {
		return Coordinate_Rule::fields( Location_Types::META_LAT, Location_Types::META_LNG );
	}

	/**
	 * Registers the meta.
	 */
	public function register(): void {
		foreach ( Location_Types::enabled() as $type ) {
			// Core shows meta in REST only for types that support custom fields.
			if ( ! post_type_supports( $type, 'custom-fields' ) ) {
				add_post_type_support( $type, 'custom-fields' );
			}
			foreach ( self::coordinate_fields() as $key => list( $label, $min, $max ) ) {
				register_post_meta(
					$type,
					$key,
					Coordinate_Rule::meta_args(
						/* translators: %s: Latitude or Longitude. */
						sprintf( __( '%s of the post’s location, in degrees.', 'cairn-maps' ), $label ),
						$min,
						$max,
						array( $this, 'sanitize_coordinate' ),
						array( $this, 'can_edit_post' )
					)
				);
			}
			register_post_meta(
				$type,
				Location_Types::META_PUBLIC,
				array(
					'type'              => 'boolean',
					'description'       => __( 'Whether visitors may see the post’s location on maps.', 'cairn-maps' ),
					'single'            => true,
					'default'           => false,
					'show_in_rest'      => true,
					'sanitize_callback' => array( self::class, 'sanitize_public' ),
					'auth_callback'     => array( $this, 'can_edit_post' ),
				)
			);
			$this->register_address( $type );
		}
		$this->register_address( Post_Type::POST_TYPE );
	}

	/**
	 * Registers `geo_address` on a post type.
	 *
	 * @param string $type Post type name.
	 */
	private function register_address( string $type ): void {
		register_post_meta(
			$type,
			Location_Types::META_ADDRESS,
			array(
				'type'              => 'string',
				'description'       => __( 'The address of the location, as plain text.', 'cairn-maps' ),
				'single'            => true,
				'show_in_rest'      => array(
					'schema' => array(
						'type'      => 'string',
						'maxLength' => self::ADDRESS_MAX,
					),
				),
				'sanitize_callback' => array( $this, 'sanitize_address' ),
				'auth_callback'     => array( $this, 'can_edit_post' ),
			)
		);
	}

	/**
	 * Checks the writes of every post type shown in REST.
	 */
	public function hook_rest_writes(): void {
		foreach ( get_post_types( array( 'show_in_rest' => true ), 'names' ) as $type ) {
			add_filter( 'rest_pre_insert_' . $type, array( $this, 'validate_rest_write' ), 10, 2 );
		}
	}

	/**
	 * Checks one coordinate value.
	 *
	 * @param string $key   `geo_latitude` or `geo_longitude`.
	 * @param mixed  $value Submitted or stored value.
	 * @return float|WP_Error The number, or why it is refused (naming the field).
	 */
	public static function coordinate( string $key, $value ) {
		$checked = Coordinate_Rule::check( self::coordinate_fields(), $key, $value );
		return is_wp_error( $checked ) ? self::error( $checked->get_error_message(), $key ) : $checked;
	}

	/**
	 * Validates a create or update before core writes anything.
	 *
	 * @param \stdClass|WP_Error $prepared_post The post about to be written.
	 * @param mixed              $request       The request (a WP_REST_Request from core).
	 * @return \stdClass|WP_Error The unchanged post, or the reason for refusing it.
	 */
	public function validate_rest_write( $prepared_post, $request ) {
		if ( is_wp_error( $prepared_post ) || ! $request instanceof WP_REST_Request || ! is_array( $request['meta'] ) ) {
			return $prepared_post;
		}
		$meta = $request['meta'];
		$sent = array_values( array_intersect( self::KEYS, array_keys( $meta ) ) );
		if ( array() === $sent ) {
			return $prepared_post;
		}
		$existing = ! empty( $prepared_post->ID ) ? get_post( (int) $prepared_post->ID ) : null;
		$existing = $existing instanceof WP_Post ? $existing : null;
		$type     = $existing ? $existing->post_type : (string) ( $prepared_post->post_type ?? '' );
		$allowed  = Location_Types::is_enabled( $type ) ? self::KEYS : ( Post_Type::POST_TYPE === $type ? array( Location_Types::META_ADDRESS ) : array() );
		$refused  = array_values( array_diff( $sent, $allowed ) );
		if ( array() !== $refused ) {
			$object = get_post_type_object( $type );
			$name   = $object ? (string) $object->labels->singular_name : $type;
			return self::error(
				Post_Type::POST_TYPE === $type
					/* translators: %s: meta key. */
					? sprintf( __( 'Markers keep their place in cairn_lat and cairn_lng; %s cannot be set on a marker.', 'cairn-maps' ), $refused[0] )
					/* translators: 1: post type name (e.g. Page), 2: meta key. */
					: sprintf( __( 'Locations are not enabled for this post type (%1$s), so %2$s cannot be saved. An administrator can enable them in Settings → Cairn Maps.', 'cairn-maps' ), $name, $refused[0] ),
				$refused[0]
			);
		}

		$final = array();
		foreach ( self::coordinate_fields() as $key => $field ) {
			if ( ! array_key_exists( $key, $meta ) ) {
				$final[ $key ] = null === $existing ? '' : (string) get_post_meta( $existing->ID, $key, true );
				continue;
			}
			if ( null === $meta[ $key ] ) {
				$final[ $key ] = '';
				$this->drop_null_without_stored_value( $request, $key, $existing );
				continue;
			}
			$checked = self::coordinate( $key, $meta[ $key ] );
			if ( is_wp_error( $checked ) ) {
				return $checked;
			}
			$final[ $key ] = (string) $checked;
		}
		if ( ( '' === $final[ Location_Types::META_LAT ] ) !== ( '' === $final[ Location_Types::META_LNG ] ) ) {
			$missing = '' === $final[ Location_Types::META_LAT ] ? Location_Types::META_LAT : Location_Types::META_LNG;
			return self::error(
				/* translators: %s: the missing field's name. */
				sprintf( __( 'A location needs both a latitude and a longitude (or neither). Missing: %s.', 'cairn-maps' ), $missing ),
				$missing
			);
		}

		if ( array_key_exists( Location_Types::META_ADDRESS, $meta ) ) {
			$address = $meta[ Location_Types::META_ADDRESS ];
			if ( null === $address ) {
				$this->drop_null_without_stored_value( $request, Location_Types::META_ADDRESS, $existing );
			} elseif ( ! is_string( $address ) || ( '' !== $address && ! wp_check_invalid_utf8( $address ) ) || mb_strlen( $address, 'UTF-8' ) > self::ADDRESS_MAX ) {
				return self::error(
					/* translators: 1: field name, 2: number of characters. */
					sprintf( __( 'The address (%1$s) must be text of at most %2$d characters.', 'cairn-maps' ), Location_Types::META_ADDRESS, self::ADDRESS_MAX ),
					Location_Types::META_ADDRESS
				);
			}
		}
		if ( array_key_exists( Location_Types::META_PUBLIC, $meta ) && null !== $meta[ Location_Types::META_PUBLIC ] && ! rest_is_boolean( $meta[ Location_Types::META_PUBLIC ] ) ) {
			return self::error(
				/* translators: %s: field name. */
				sprintf( __( '“Show on maps” (%s) must be true or false.', 'cairn-maps' ), Location_Types::META_PUBLIC ),
				Location_Types::META_PUBLIC
			);
		}
		return $prepared_post;
	}

	/**
	 * `geo_public` as stored: public only when it says so plainly (true, 1, "1", "true", "yes",
	 * "on"); anything else another plugin writes ("no", "0", "off", "") is not public. Core's
	 * rest_sanitize_boolean() would read "no" as true and show a place its owner hid.
	 *
	 * @param mixed $value The value written.
	 * @return bool
	 */
	public static function sanitize_public( $value ): bool {
		if ( is_bool( $value ) ) {
			return $value;
		}
		return ( is_int( $value ) || is_string( $value ) )
			&& in_array( strtolower( trim( (string) $value ) ), Post_Places_Repository::PUBLIC_VALUES, true );
	}

	/**
	 * Null deletes a stored value. With none stored, core would answer 500 ("invalid stored value")
	 * after writing the post: there is nothing to delete, so the key is dropped from the request.
	 *
	 * @param WP_REST_Request $request  The request.
	 * @param string          $key      Meta key.
	 * @param WP_Post|null    $existing The post being updated, if any.
	 */
	private function drop_null_without_stored_value( WP_REST_Request $request, string $key, ?WP_Post $existing ): void {
		if ( null !== $existing && metadata_exists( 'post', $existing->ID, $key ) ) {
			return;
		}
		$meta = $request['meta'];
		if ( is_array( $meta ) ) {
			unset( $meta[ $key ] );
			$request->set_param( 'meta', $meta );
		}
	}

	/**
	 * Stores a coordinate as decimal text (as markers do); anything invalid (from a way in other
	 * than REST) stores nothing useful: '' reads as "no location".
	 *
	 * @param mixed  $value    Submitted value.
	 * @param string $meta_key `geo_latitude` or `geo_longitude`.
	 * @return string
	 */
	public function sanitize_coordinate( $value, $meta_key = Location_Types::META_LAT ): string {
		$key    = Location_Types::META_LNG === $meta_key ? Location_Types::META_LNG : Location_Types::META_LAT;
		$number = self::coordinate( $key, $value );
		return is_wp_error( $number ) ? '' : Post_Type::format_coordinate( $number );
	}

	/**
	 * An address as plain text, on one line, capped at ADDRESS_MAX characters.
	 *
	 * @param mixed $value Submitted value.
	 */
	public function sanitize_address( $value ): string {
		if ( ! is_string( $value ) ) {
			return '';
		}
		return mb_substr( sanitize_text_field( $value ), 0, self::ADDRESS_MAX, 'UTF-8' );
	}

	/**
	 * The location follows the post's own edit capability.
	 *
	 * @param bool   $allowed  Whether allowed so far.
	 * @param string $meta_key Meta key.
	 * @param int    $post_id  Post id.
	 * @param int    $user_id  User id.
	 */
	public function can_edit_post( $allowed, $meta_key, $post_id, $user_id ): bool {
		return user_can( $user_id, 'edit_post', $post_id );
	}

	/**
	 * A 400 in the shape of core's parameter errors, naming the field.
	 *
	 * @param string $message Message.
	 * @param string $field   Meta key.
	 */
	private static function error( string $message, string $field ): WP_Error {
		return new WP_Error(
			'rest_invalid_param',
			$message,
			array(
				'status' => 400,
				'params' => array( 'meta' => $message ),
				'field'  => $field,
			)
		);
	}
}
