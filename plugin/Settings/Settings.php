<?php
/**
 * The plugin's settings.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Settings;

defined( 'ABSPATH' ) || exit;

use WP_Error;

/**
 * The settings as the other parts read them: the option names, the site-wide defaults, the
 * consent gate's setting and category, and which token, if any, may be used (the token rules run
 * again on every read).
 *
 * Registering them, with a schema and a sanitizer each, and refusing bad values on every way in
 * is Settings_Registration's job.
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
	public const BASEMAP_OPTION     = 'cairn_maps_basemap';

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		// Tells the WP Consent API (its Site Health check) that the maps follow the visitor's choice.
		add_filter( Consent_Api::registration_filter(), '__return_true' );
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
