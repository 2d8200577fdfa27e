<?php
/**
 * The plugin's settings.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Settings;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Rest\Cors;
use WP_Error;
use WP_REST_Request;
use WP_REST_Settings_Controller;

/**
 * Registers the settings (all in `/wp/v2/settings`, each with a schema and a sanitizer) and tells
 * other parts which token, if any, may be used.
 *
 * Every way in refuses a bad value and keeps the stored one: the REST guard answers 400 with a
 * message; the sanitizers cover options.php and update_option(). A refused token is never stored,
 * echoed back or logged.
 *
 * @since 0.1.0
 */
class Settings {

	public const GROUP              = 'cairn_maps';
	public const TOKEN_OPTION       = 'cairn_maps_access_token';
	public const DEFAULTS_OPTION    = 'cairn_maps_defaults';
	public const CONSENT_OPTION     = 'cairn_maps_require_consent';
	public const CATEGORY_OPTION    = 'cairn_maps_consent_category';
	public const DELETE_DATA_OPTION = 'cairn_maps_delete_data_on_uninstall';
	public const ORIGINS_OPTION     = 'cairn_maps_allowed_origins';

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'init', array( $this, 'register' ) );
		add_filter( 'rest_request_before_callbacks', array( $this, 'refuse_invalid_settings' ), 10, 3 );
		add_filter( 'rest_pre_get_setting', array( $this, 'hide_refused_token' ), 10, 2 );
		// Tells the WP Consent API (its Site Health check) that the maps follow the visitor's choice.
		add_filter( Consent_Api::registration_filter(), '__return_true' );
	}

	/**
	 * Registers the settings with schemas so they appear in `/wp/v2/settings`.
	 */
	public function register(): void {
		register_setting(
			self::GROUP,
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
		register_setting(
			self::GROUP,
			self::DEFAULTS_OPTION,
			array(
				'type'              => 'object',
				'description'       => __( 'Style, label language and controls that new map blocks start with.', 'cairn-maps' ),
				'default'           => Site_Defaults::builtin(),
				'sanitize_callback' => array( $this, 'sanitize_defaults' ),
				'show_in_rest'      => array(
					'name'   => self::DEFAULTS_OPTION,
					'schema' => Site_Defaults::schema(),
				),
			)
		);
		register_setting(
			self::GROUP,
			self::CONSENT_OPTION,
			array(
				'type'              => 'boolean',
				'description'       => __( 'Load maps only after the visitor agrees to contact Mapbox.', 'cairn-maps' ),
				'default'           => false,
				'sanitize_callback' => 'rest_sanitize_boolean',
				'show_in_rest'      => true,
			)
		);
		register_setting(
			self::GROUP,
			self::CATEGORY_OPTION,
			array(
				'type'              => 'string',
				'description'       => __( 'The WP Consent API category whose consent lets the maps load.', 'cairn-maps' ),
				'default'           => Consent_Api::DEFAULT_CATEGORY,
				'sanitize_callback' => array( $this, 'sanitize_consent_category' ),
				'show_in_rest'      => array(
					'name'   => self::CATEGORY_OPTION,
					'schema' => array(
						'type' => 'string',
						'enum' => Consent_Api::CATEGORIES,
					),
				),
			)
		);
		register_setting(
			self::GROUP,
			self::DELETE_DATA_OPTION,
			array(
				'type'              => 'boolean',
				'description'       => __( 'Delete all markers and marker groups when the plugin is deleted.', 'cairn-maps' ),
				'default'           => false,
				'sanitize_callback' => 'rest_sanitize_boolean',
				'show_in_rest'      => true,
			)
		);
		register_setting(
			self::GROUP,
			self::ORIGINS_OPTION,
			array(
				'type'              => 'array',
				'description'       => __( 'Origins of front ends (such as https://app.example.com) that may read the public map data from their pages; empty lets any site read it.', 'cairn-maps' ),
				'default'           => array(),
				'sanitize_callback' => array( $this, 'sanitize_origins' ),
				'show_in_rest'      => array(
					'name'   => self::ORIGINS_OPTION,
					'schema' => array(
						'type'     => 'array',
						'items'    => array(
							'type'      => 'string',
							'maxLength' => 2048,
						),
						'maxItems' => Cors::MAX_ORIGINS,
					),
				),
			)
		);
	}

	/**
	 * Refuses a bad token, bad defaults or a bad allowed origin sent to `/wp/v2/settings` before
	 * core's controller stores anything, so the answer is a 400 with a message and the stored
	 * values stay as they were.
	 *
	 * Runs after the route is matched (so `/wp/v2/Settings/` or a value in the query string cannot
	 * slip past) and only for users who may change settings: others get core's 401/403 without their
	 * values being looked at.
	 *
	 * @param mixed                $response Result so far: null, or a WP_Error from the schema check.
	 * @param array<string, mixed> $handler  The matched route handler.
	 * @param mixed                $request  The request (a WP_REST_Request from core; anything else
	 *                                       is let through unchanged).
	 * @return mixed The unchanged result, or a WP_Error.
	 */
	public function refuse_invalid_settings( $response, $handler, $request ) {
		$callback = $handler['callback'] ?? null;
		if ( ! $request instanceof WP_REST_Request
			|| ! is_array( $callback )
			|| ! ( $callback[0] ?? null ) instanceof WP_REST_Settings_Controller
			|| in_array( $request->get_method(), array( 'GET', 'HEAD', 'OPTIONS' ), true )
			|| ! current_user_can( 'manage_options' ) ) {
			return $response;
		}
		if ( $request->has_param( self::TOKEN_OPTION ) ) {
			$error = self::token_error( $request->get_param( self::TOKEN_OPTION ) );
			if ( null !== $error ) {
				return $error;
			}
		}
		if ( $request->has_param( self::DEFAULTS_OPTION ) && null !== $request->get_param( self::DEFAULTS_OPTION ) ) {
			$defaults = Site_Defaults::validate( $request->get_param( self::DEFAULTS_OPTION ) );
			if ( is_wp_error( $defaults ) ) {
				return $defaults;
			}
		}
		if ( $request->has_param( self::ORIGINS_OPTION ) && null !== $request->get_param( self::ORIGINS_OPTION ) ) {
			$origins = Cors::normalize_origins( $request->get_param( self::ORIGINS_OPTION ) );
			if ( is_wp_error( $origins ) ) {
				return $origins;
			}
		}
		return $response;
	}

	/**
	 * Why a submitted token is refused, or null when it may be stored. Empty (or only whitespace)
	 * clears the token, as the settings screen's check says.
	 *
	 * @param mixed $token The submitted value.
	 */
	public static function token_error( $token ): ?WP_Error {
		if ( null === $token || ( is_string( $token ) && '' === trim( $token ) ) ) {
			return null;
		}
		if ( ! is_string( $token ) ) {
			return Token_Rules::error( 'malformed' );
		}
		$parsed = Token_Rules::parse( $token );
		return is_wp_error( $parsed ) ? $parsed : null;
	}

	/**
	 * `/wp/v2/settings` never shows a stored token the maps would refuse (a database edit, an old
	 * version): the screen shows an empty field and explains the problem instead.
	 *
	 * @param mixed  $result Value to answer with; null lets core read the option.
	 * @param string $name   Setting name.
	 * @return mixed
	 */
	public function hide_refused_token( $result, $name ) {
		if ( self::TOKEN_OPTION !== $name || null !== $result ) {
			return $result;
		}
		return '' === $this->stored_token_problem() ? $result : '';
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
		if ( null === $value ) {
			// options.php sends null for a field the form did not include: keep the token.
			return $previous;
		}
		if ( is_string( $value ) && '' === trim( $value ) ) {
			return '';
		}
		$error = self::token_error( $value );
		if ( null !== $error ) {
			$this->report( self::TOKEN_OPTION, $error );
			return $previous;
		}
		return trim( $value );
	}

	/**
	 * Sanitizes the defaults for every way in; a refused value keeps the stored one.
	 *
	 * @param mixed $value The submitted value.
	 * @return array{mapStyle: string, language: string, controls: array<string, bool>}
	 */
	public function sanitize_defaults( $value ): array {
		$previous = Site_Defaults::normalize( get_option( self::DEFAULTS_OPTION ) );
		if ( null === $value ) {
			return $previous;
		}
		$clean = Site_Defaults::validate( $value );
		if ( is_wp_error( $clean ) ) {
			$this->report( self::DEFAULTS_OPTION, $clean );
			return $previous;
		}
		return $clean;
	}

	/**
	 * Normalises the allowed origins for every way in (see Cors::normalize_origin()); a refused
	 * list keeps the stored one.
	 *
	 * @param mixed $value The submitted value.
	 * @return string[] The list to store.
	 */
	public function sanitize_origins( $value ): array {
		$previous = Cors::allowed_origins();
		if ( null === $value ) {
			return $previous;
		}
		$clean = Cors::normalize_origins( $value );
		if ( is_wp_error( $clean ) ) {
			$this->report( self::ORIGINS_OPTION, $clean );
			return $previous;
		}
		return $clean;
	}

	/**
	 * Keeps only a WP Consent API category, for every way in (REST already refuses others by its
	 * enum); anything else keeps the stored category.
	 *
	 * @param mixed $value The submitted value.
	 * @return string The category to store.
	 */
	public function sanitize_consent_category( $value ): string {
		if ( is_string( $value ) && in_array( $value, Consent_Api::CATEGORIES, true ) ) {
			return $value;
		}
		if ( null !== $value ) {
			$this->report(
				self::CATEGORY_OPTION,
				new WP_Error( 'cairn_maps_consent_category', __( 'Choose one of the consent categories of the WP Consent API.', 'cairn-maps' ) )
			);
		}
		return $this->consent_category();
	}

	/**
	 * Shows a refusal on the classic settings screens (options.php); elsewhere it is silent. Never
	 * logs anything.
	 *
	 * @param string   $setting Setting name.
	 * @param WP_Error $error   The refusal.
	 */
	private function report( string $setting, WP_Error $error ): void {
		if ( function_exists( 'add_settings_error' ) ) {
			add_settings_error( $setting, (string) $error->get_error_code(), $error->get_error_message() );
		}
	}

	/**
	 * The site-wide defaults for new map blocks.
	 *
	 * @return array{mapStyle: string, language: string, controls: array<string, bool>}
	 */
	public function defaults(): array {
		return Site_Defaults::normalize( get_option( self::DEFAULTS_OPTION ) );
	}

	/**
	 * Whether maps wait for the visitor's click before contacting Mapbox.
	 */
	public function require_consent(): bool {
		/**
		 * Filters whether maps load only after the visitor agrees (click-to-load).
		 *
		 * @since 0.1.0
		 * @param bool $required The stored setting.
		 */
		return (bool) apply_filters( 'cairn_maps_require_consent', (bool) get_option( self::CONSENT_OPTION, false ) );
	}

	/**
	 * The WP Consent API category whose consent lets the maps load (`marketing` unless the owner
	 * chose another, or when the stored value is not a category).
	 */
	public function consent_category(): string {
		$stored = get_option( self::CATEGORY_OPTION, Consent_Api::DEFAULT_CATEGORY );
		return is_string( $stored ) && in_array( $stored, Consent_Api::CATEGORIES, true ) ? $stored : Consent_Api::DEFAULT_CATEGORY;
	}

	/**
	 * Why the stored token (before filters) cannot be used: '' when it is empty or public, else a
	 * front-end error code (`secret-token`, `invalid-token`).
	 */
	public function stored_token_problem(): string {
		$stored = get_option( self::TOKEN_OPTION, '' );
		if ( '' === $stored || null === $stored || false === $stored ) {
			return '';
		}
		return self::problem_code( is_string( $stored ) ? Token_Rules::parse( $stored ) : Token_Rules::error( 'malformed' ) );
	}

	/**
	 * The token the maps may use, or why there is none. Runs the rules again so that a secret token
	 * that arrived by a filter or a database edit never reaches a page.
	 *
	 * @return array{token: string, account: string, error: string} `error` is '' or a front-end error code.
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
				'token'   => '',
				'account' => '',
				'error'   => 'missing-token',
			);
		}
		$parsed = Token_Rules::parse( $token );
		if ( $parsed instanceof WP_Error ) {
			return array(
				'token'   => '',
				'account' => '',
				'error'   => self::problem_code( $parsed ),
			);
		}
		return array(
			'token'   => $token,
			'account' => $parsed['account'],
			'error'   => '',
		);
	}

	/**
	 * The front-end error code for a token check.
	 *
	 * @param array{account: string}|WP_Error $parsed Result of Token_Rules::parse().
	 */
	private static function problem_code( $parsed ): string {
		if ( ! $parsed instanceof WP_Error ) {
			return '';
		}
		return 'cairn_maps_token_malformed' === $parsed->get_error_code() ? 'invalid-token' : 'secret-token';
	}
}
