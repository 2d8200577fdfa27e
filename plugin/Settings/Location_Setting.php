<?php
/**
 * The setting that chooses which post types can carry a location.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Settings;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Location_Types;
use WP_Error;
use WP_REST_Request;
use WP_REST_Settings_Controller;

/**
 * Registers `cairn_maps_post_types` (in `/wp/v2/settings`, an array of post type names) and keeps
 * anything but Location_Types::candidates() out of it: `/wp/v2/settings` answers 400 naming the
 * refused type and stores nothing; options.php and update_option() keep the stored value.
 *
 * Registered late on `init`, so post types that plugins and themes register on `init` are
 * candidates already.
 *
 * @since 0.3.0
 */
class Location_Setting {

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'init', array( $this, 'register' ), 99 );
		add_filter( 'rest_request_before_callbacks', array( $this, 'refuse_invalid_types' ), 10, 3 );
	}

	/**
	 * Registers the setting with its schema.
	 */
	public function register(): void {
		register_setting(
			Settings::GROUP,
			Location_Types::OPTION,
			array(
				'type'              => 'array',
				'description'       => __( 'Post types whose posts can have a location (a place on maps).', 'cairn-maps' ),
				'default'           => Location_Types::DEFAULT_TYPES,
				'sanitize_callback' => array( $this, 'sanitize' ),
				'show_in_rest'      => array(
					'name'   => Location_Types::OPTION,
					'schema' => array(
						'type'  => 'array',
						'items' => array(
							'type'      => 'string',
							'maxLength' => 20,
						),
					),
				),
			)
		);
	}

	/**
	 * Checks a list of post type names.
	 *
	 * @param mixed $value The submitted value.
	 * @return string[]|WP_Error The list without duplicates, or why it is refused.
	 */
	public static function validate( $value ) {
		if ( is_string( $value ) ) {
			// As core reads a list sent as text: comma- or space-separated.
			$value = wp_parse_list( $value );
		}
		if ( ! is_array( $value ) ) {
			return self::error( __( 'The post types with locations must be a list of post type names.', 'cairn-maps' ) );
		}
		$candidates = Location_Types::candidates();
		$types      = array();
		foreach ( $value as $type ) {
			if ( ! is_string( $type ) || ! in_array( $type, $candidates, true ) ) {
				return self::error(
					sprintf(
						/* translators: 1: the refused value, 2: comma-separated post type names. */
						__( '“%1$s” cannot have locations: choose among the public post types shown in the REST API (%2$s).', 'cairn-maps' ),
						is_scalar( $type ) ? sanitize_text_field( (string) $type ) : gettype( $type ),
						implode( ', ', $candidates )
					)
				);
			}
			$types[ $type ] = $type;
		}
		return array_values( $types );
	}

	/**
	 * Refuses a bad list sent to `/wp/v2/settings` before core's controller stores anything, only
	 * for users who may change settings (others get core's 401/403).
	 *
	 * @param mixed                $response Result so far.
	 * @param array<string, mixed> $handler  The matched route handler.
	 * @param mixed                $request  The request.
	 * @return mixed The unchanged result, or a WP_Error.
	 */
	public function refuse_invalid_types( $response, $handler, $request ) {
		$callback = $handler['callback'] ?? null;
		if ( is_wp_error( $response )
			|| ! $request instanceof WP_REST_Request
			|| ! is_array( $callback )
			|| ! ( $callback[0] ?? null ) instanceof WP_REST_Settings_Controller
			|| in_array( $request->get_method(), array( 'GET', 'HEAD', 'OPTIONS' ), true )
			|| ! current_user_can( 'manage_options' )
			|| ! $request->has_param( Location_Types::OPTION )
			|| null === $request->get_param( Location_Types::OPTION ) ) {
			return $response;
		}
		$types = self::validate( $request->get_param( Location_Types::OPTION ) );
		return is_wp_error( $types ) ? $types : $response;
	}

	/**
	 * Last line of defence for every other way in: a refused list keeps the stored one.
	 *
	 * @param mixed $value The submitted value.
	 * @return string[] The list to store.
	 */
	public function sanitize( $value ): array {
		$stored   = get_option( Location_Types::OPTION, Location_Types::DEFAULT_TYPES );
		$previous = is_array( $stored ) ? array_values( array_filter( $stored, 'is_string' ) ) : Location_Types::DEFAULT_TYPES;
		if ( null === $value ) {
			return $previous;
		}
		$types = self::validate( $value );
		if ( is_wp_error( $types ) ) {
			if ( function_exists( 'add_settings_error' ) ) {
				add_settings_error( Location_Types::OPTION, (string) $types->get_error_code(), $types->get_error_message() );
			}
			return $previous;
		}
		return $types;
	}

	/**
	 * A 400 in the shape of core's parameter errors.
	 *
	 * @param string $message Message.
	 */
	private static function error( string $message ): WP_Error {
		return new WP_Error(
			'rest_invalid_param',
			$message,
			array(
				'status' => 400,
				'params' => array( Location_Types::OPTION => $message ),
			)
		);
	}
}
