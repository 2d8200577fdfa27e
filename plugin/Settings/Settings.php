<?php
/**
 * The plugin's settings.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Settings;

use WP_Error;
use WP_REST_Request;

/**
 * Registers the access-token setting and tells other parts which token, if any, may be used.
 *
 * @since 0.1.0
 */
class Settings {

	public const TOKEN_OPTION = 'cairn_maps_access_token';

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'init', array( $this, 'register' ) );
		add_filter( 'rest_pre_dispatch', array( $this, 'refuse_bad_token' ), 10, 3 );
	}

	/**
	 * Registers the settings with schemas so they appear in `/wp/v2/settings`.
	 */
	public function register(): void {
		register_setting(
			'cairn_maps',
			self::TOKEN_OPTION,
			array(
				'type'              => 'string',
				'description'       => __( 'Public Mapbox access token (pk.…) used by every map.', 'cairn-maps' ),
				'default'           => '',
				'sanitize_callback' => array( $this, 'sanitize_token' ),
				'show_in_rest'      => array(
					'name'   => self::TOKEN_OPTION,
					'schema' => array(
						'type'      => 'string',
						'maxLength' => 2048,
					),
				),
			)
		);
	}

	/**
	 * Refuses a bad token in `/wp/v2/settings` before core's controller stores anything, so the
	 * answer is a 400 with a message and the stored value stays as it was.
	 *
	 * @param mixed           $result  Response to replace the requested one with.
	 * @param \WP_REST_Server $server  Server instance.
	 * @param WP_REST_Request $request The request.
	 * @return mixed The unchanged result, or a WP_Error.
	 */
	public function refuse_bad_token( $result, $server, $request ) {
		if ( null !== $result || ! $request instanceof WP_REST_Request ) {
			return $result;
		}
		if ( '/wp/v2/settings' !== untrailingslashit( $request->get_route() ) || 'GET' === $request->get_method() ) {
			return $result;
		}
		$params = $request->get_json_params();
		$params = is_array( $params ) && array_key_exists( self::TOKEN_OPTION, $params ) ? $params : $request->get_body_params();
		if ( ! is_array( $params ) || ! array_key_exists( self::TOKEN_OPTION, $params ) ) {
			return $result;
		}
		$token = $params[ self::TOKEN_OPTION ];
		if ( null === $token || '' === $token ) {
			return $result;
		}
		if ( ! is_string( $token ) ) {
			return Token_Rules::error( 'malformed' );
		}
		$parsed = Token_Rules::parse( $token );
		return is_wp_error( $parsed ) ? $parsed : $result;
	}

	/**
	 * Last line of defence for every other way in (options.php, update_option): a refused token is
	 * never stored; the previous value is kept.
	 *
	 * @param mixed $value The submitted value.
	 * @return string The value to store.
	 */
	public function sanitize_token( $value ): string {
		$previous = get_option( self::TOKEN_OPTION, '' );
		$previous = is_string( $previous ) ? $previous : '';
		if ( null === $value || '' === $value ) {
			return '';
		}
		if ( ! is_string( $value ) ) {
			return $previous;
		}
		$value  = trim( $value );
		$parsed = Token_Rules::parse( $value );
		if ( is_wp_error( $parsed ) ) {
			if ( function_exists( 'add_settings_error' ) ) {
				add_settings_error( self::TOKEN_OPTION, $parsed->get_error_code(), $parsed->get_error_message() );
			}
			return $previous;
		}
		return $value;
	}

	/**
	 * The token the maps may use, or why there is none. Runs the rules again so that a secret token
	 * that arrived by a filter or a database edit never reaches a page.
	 *
	 * @return array{token: string, error: string} `error` is '' or a front-end error code.
	 */
	public function map_token(): array {
		/**
		 * Filters the Mapbox access token used by Cairn Maps.
		 *
		 * @since 0.1.0
		 * @param string $token The stored token.
		 */
		$token = apply_filters( 'cairn_maps_access_token', (string) get_option( self::TOKEN_OPTION, '' ) );
		$token = is_string( $token ) ? trim( $token ) : '';
		if ( '' === $token ) {
			return array(
				'token' => '',
				'error' => 'missing-token',
			);
		}
		$parsed = Token_Rules::parse( $token );
		if ( $parsed instanceof WP_Error ) {
			return array(
				'token' => '',
				'error' => 'cairn_maps_token_malformed' === $parsed->get_error_code() ? 'invalid-token' : 'secret-token',
			);
		}
		return array(
			'token' => $token,
			'error' => '',
		);
	}
}
