<?php
/**
 * The settings' registration and the guards on every way in.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Settings;

defined( 'ABSPATH' ) || exit;

use WP_Error;
use WP_REST_Request;
use WP_REST_Settings_Controller;

/**
 * Registers the settings (all in `/wp/v2/settings`, each with a schema and a sanitizer) and keeps
 * bad values out.
 *
 * Every way in refuses a bad value and keeps the stored one: the REST guard answers 400 with a
 * message; the sanitizers cover options.php and update_option(). A refused token is never stored,
 * echoed back or logged. Reading the settings is Settings' job.
 *
 * @since 0.2.0
 */
class Settings_Registration {

	/**
	 * The settings, read.
	 *
	 * @var Settings
	 */
	private Settings $settings;

	/**
	 * Creates the registration.
	 *
	 * @param Settings $settings The settings, read.
	 */
	public function __construct( Settings $settings ) {
		$this->settings = $settings;
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'init', array( $this, 'register' ) );
		add_filter( 'rest_request_before_callbacks', array( $this, 'refuse_invalid_settings' ), 10, 3 );
		add_filter( 'rest_pre_get_setting', array( $this, 'hide_refused_token' ), 10, 2 );
	}

	/**
	 * Registers the settings with schemas so they appear in `/wp/v2/settings`.
	 */
	public function register(): void {
		register_setting(
			Settings::GROUP,
			Settings::TOKEN_OPTION,
			array(
				'type'              => 'string',
				'description'       => __( 'Public Mapbox access token (pk.…) used by every map.', 'cairn-maps' ),
				'default'           => '',
				'sanitize_callback' => array( $this, 'sanitize_token' ),
				'show_in_rest'      => array(
					'name'   => Settings::TOKEN_OPTION,
					'schema' => array(
						'type'      => 'string',
						'maxLength' => 2048,
					),
				),
			)
		);
		register_setting(
			Settings::GROUP,
			Settings::DEFAULTS_OPTION,
			array(
				'type'              => 'object',
				'description'       => __( 'Style, label language and controls that new map blocks start with.', 'cairn-maps' ),
				'default'           => Site_Defaults::builtin(),
				'sanitize_callback' => array( $this, 'sanitize_defaults' ),
				'show_in_rest'      => array(
					'name'   => Settings::DEFAULTS_OPTION,
					'schema' => Site_Defaults::schema(),
				),
			)
		);
		register_setting(
			Settings::GROUP,
			Settings::BASEMAP_OPTION,
			array(
				'type'              => 'string',
				'description'       => __( 'The site\'s basemap: empty for automatic (Mapbox Standard with a token, else OpenFreeMap), a mapbox://styles/… style, an https style URL, or pmtiles:// and the address of an archive on this site.', 'cairn-maps' ),
				'default'           => '',
				'sanitize_callback' => array( $this, 'sanitize_basemap' ),
				'show_in_rest'      => array(
					'name'   => Settings::BASEMAP_OPTION,
					'schema' => array(
						'type'      => 'string',
						'maxLength' => Style_Reference::MAX_LENGTH + 64,
					),
				),
			)
		);
		register_setting(
			Settings::GROUP,
			Settings::CONSENT_OPTION,
			array(
				'type'              => 'boolean',
				'description'       => __( 'Load maps only after the visitor agrees to contact Mapbox.', 'cairn-maps' ),
				'default'           => false,
				'sanitize_callback' => 'rest_sanitize_boolean',
				'show_in_rest'      => true,
			)
		);
		register_setting(
			Settings::GROUP,
			Settings::CATEGORY_OPTION,
			array(
				'type'              => 'string',
				'description'       => __( 'The WP Consent API category whose consent lets the maps load.', 'cairn-maps' ),
				'default'           => Consent_Api::DEFAULT_CATEGORY,
				'sanitize_callback' => array( $this, 'sanitize_consent_category' ),
				'show_in_rest'      => array(
					'name'   => Settings::CATEGORY_OPTION,
					'schema' => array(
						'type' => 'string',
						'enum' => Consent_Api::CATEGORIES,
					),
				),
			)
		);
		register_setting(
			Settings::GROUP,
			Settings::DELETE_DATA_OPTION,
			array(
				'type'              => 'boolean',
				'description'       => __( 'Delete all markers and marker groups when the plugin is deleted.', 'cairn-maps' ),
				'default'           => false,
				'sanitize_callback' => 'rest_sanitize_boolean',
				'show_in_rest'      => true,
			)
		);
		register_setting(
			Settings::GROUP,
			Settings::ORIGINS_OPTION,
			array(
				'type'              => 'array',
				'description'       => __( 'Origins of front ends (such as https://app.example.com) that may read the public map data from their pages; empty lets any site read it.', 'cairn-maps' ),
				'default'           => array(),
				'sanitize_callback' => array( $this, 'sanitize_origins' ),
				'show_in_rest'      => array(
					'name'   => Settings::ORIGINS_OPTION,
					'schema' => array(
						'type'     => 'array',
						'items'    => array(
							'type'      => 'string',
							'maxLength' => 2048,
						),
						'maxItems' => Allowed_Origins::MAX_ORIGINS,
					),
				),
			)
		);
	}

	/**
	 * Refuses a bad token, bad defaults, a bad basemap or a bad allowed origin sent to
	 * `/wp/v2/settings` before core's controller stores anything, so the answer is a 400 with a
	 * message and the stored values stay as they were.
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
		if ( $request->has_param( Settings::TOKEN_OPTION ) ) {
			$error = Settings::token_error( $request->get_param( Settings::TOKEN_OPTION ) );
			if ( null !== $error ) {
				return $error;
			}
		}
		if ( $request->has_param( Settings::DEFAULTS_OPTION ) && null !== $request->get_param( Settings::DEFAULTS_OPTION ) ) {
			$defaults = Site_Defaults::validate( $request->get_param( Settings::DEFAULTS_OPTION ) );
			if ( is_wp_error( $defaults ) ) {
				return $defaults;
			}
		}
		if ( $request->has_param( Settings::BASEMAP_OPTION ) && null !== $request->get_param( Settings::BASEMAP_OPTION ) ) {
			$basemap = Basemap_Setting::validate( $request->get_param( Settings::BASEMAP_OPTION ) );
			if ( is_wp_error( $basemap ) ) {
				return $basemap;
			}
		}
		if ( $request->has_param( Settings::ORIGINS_OPTION ) && null !== $request->get_param( Settings::ORIGINS_OPTION ) ) {
			$origins = Allowed_Origins::normalize_origins( $request->get_param( Settings::ORIGINS_OPTION ) );
			if ( is_wp_error( $origins ) ) {
				return $origins;
			}
		}
		return $response;
	}

	/**
	 * `/wp/v2/settings` never shows a stored token the maps would refuse (a database edit, an old
	 * version): the screen shows an empty field and explains the problem instead. A basemap never
	 * set shows the default style chosen before 0.7.0, which maps draw until the upgrade moves it.
	 *
	 * @param mixed  $result Value to answer with; null lets core read the option.
	 * @param string $name   Setting name.
	 * @return mixed
	 */
	public function hide_refused_token( $result, $name ) {
		if ( Settings::BASEMAP_OPTION === $name && null === $result && null === get_option( Settings::BASEMAP_OPTION, null ) ) {
			// Never set: the default style chosen before 0.7.0 is the basemap maps draw (Site_Defaults).
			$legacy = Site_Defaults::legacy_style();
			return Style_Reference::is_acceptable( $legacy ) ? $legacy : '';
		}
		if ( Settings::TOKEN_OPTION !== $name || null !== $result ) {
			return $result;
		}
		return '' === $this->settings->stored_token_problem() ? $result : '';
	}

	/**
	 * Last line of defence for every other way in (options.php, update_option): a refused token is
	 * never stored; the previous value is kept.
	 *
	 * @param mixed $value The submitted value.
	 * @return string The value to store.
	 */
	public function sanitize_token( $value ): string {
		$previous = get_option( Settings::TOKEN_OPTION, '' );
		$previous = is_string( $previous ) ? $previous : '';
		if ( null === $value ) {
			// options.php sends null for a field the form did not include: keep the token.
			return $previous;
		}
		if ( is_string( $value ) && '' === trim( $value ) ) {
			return '';
		}
		$error = Settings::token_error( $value );
		if ( null !== $error ) {
			$this->report( Settings::TOKEN_OPTION, $error );
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
		$previous = Site_Defaults::normalize( get_option( Settings::DEFAULTS_OPTION ) );
		return null === $value ? $previous : $this->clean_or_previous( Settings::DEFAULTS_OPTION, Site_Defaults::validate( $value ), $previous );
	}

	/**
	 * Checks the basemap for every way in; a refused value keeps the stored one.
	 *
	 * @since 0.7.0
	 *
	 * @param mixed $value The submitted value.
	 * @return string The value to store.
	 */
	public function sanitize_basemap( $value ): string {
		$previous = get_option( Settings::BASEMAP_OPTION, '' );
		$previous = is_string( $previous ) ? $previous : '';
		if ( null === $value ) {
			return $previous;
		}
		$clean = Basemap_Setting::validate( $value );
		if ( ! $clean instanceof WP_Error ) {
			// The owner chose: a default style of 0.6 (the basemap until now) is retired. Saving ''
			// over a basemap never stored does not write the option, so this is what makes it count.
			Site_Defaults::retire_legacy_style();
		}
		return $this->clean_or_previous( Settings::BASEMAP_OPTION, $clean, $previous );
	}

	/**
	 * Normalises the allowed origins for every way in (see Allowed_Origins::normalize_origin()); a refused
	 * list keeps the stored one.
	 *
	 * @param mixed $value The submitted value.
	 * @return string[] The list to store.
	 */
	public function sanitize_origins( $value ): array {
		$previous = Allowed_Origins::allowed_origins();
		return null === $value ? $previous : $this->clean_or_previous( Settings::ORIGINS_OPTION, Allowed_Origins::normalize_origins( $value ), $previous );
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
				Settings::CATEGORY_OPTION,
				new WP_Error( 'cairn_maps_consent_category', __( 'Choose one of the consent categories of the WP Consent API.', 'cairn-maps' ) )
			);
		}
		return $this->settings->consent_category();
	}

	/**
	 * The checked value, or the stored one when the value is refused (the refusal is reported).
	 *
	 * @template T
	 *
	 * @param string     $setting  Setting name.
	 * @param T|WP_Error $clean    The checked value, or why it is refused.
	 * @param T          $previous The stored value.
	 * @return T
	 */
	private function clean_or_previous( string $setting, $clean, $previous ) {
		if ( $clean instanceof WP_Error ) {
			$this->report( $setting, $clean );
			return $previous;
		}
		return $clean;
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
}
