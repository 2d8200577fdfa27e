<?php
/**
 * The WP Consent API, when a site runs it.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Settings;

defined( 'ABSPATH' ) || exit;

/**
 * What the consent gate asks the WP Consent API plugin (by the WordPress core privacy team): is it
 * there, has a consent management plugin set the visitor's consent type, and has the visitor
 * already agreed to the category the site owner chose.
 *
 * The API's functions are looked up on every call, never assumed: the plugin can be absent,
 * deactivated, or half loaded. Without a consent type the API answers "consent given" for every
 * category (there is no banner to ask); the owner asked for a gate, so the map then keeps its own
 * "Load map" button instead.
 *
 * @since 0.4.0
 */
class Consent_Api {

	/** The consent categories the WP Consent API defines (its configuration's list). */
	public const CATEGORIES = array( 'functional', 'preferences', 'statistics', 'statistics-anonymous', 'marketing' );

	/** Maps talk to Mapbox, which records usage events: marketing unless the owner decides otherwise. */
	public const DEFAULT_CATEGORY = 'marketing';

	/** The API is not there (or its functions are missing). */
	public const ABSENT = 'absent';

	/** The API is there but no consent management plugin has set a consent type. */
	public const NO_CONSENT_TYPE = 'no-consent-type';

	/** The API is there and a consent management plugin asks the visitors. */
	public const ACTIVE = 'active';

	/**
	 * The API's functions to call instead of the global ones (tests); null for the global ones.
	 *
	 * @var array<string, callable>|null
	 */
	private ?array $functions;

	/**
	 * Creates the bridge.
	 *
	 * @param array<string, callable>|null $functions `wp_has_consent` and `wp_get_consent_type` to
	 *                                                call instead of the global functions, for tests;
	 *                                                a missing one counts as absent.
	 */
	public function __construct( ?array $functions = null ) {
		$this->functions = $functions;
	}

	/**
	 * Declares Cairn Maps as following the WP Consent API (shown on the API's Site Health check).
	 *
	 * @return string The filter that asks about this plugin.
	 */
	public static function registration_filter(): string {
		return 'wp_consent_api_registered_' . plugin_basename( CAIRN_MAPS_FILE );
	}

	/**
	 * The API's function for a role, or null when it is not there.
	 *
	 * @param string $name Global function name.
	 */
	private function api_function( string $name ): ?callable {
		if ( null !== $this->functions ) {
			return $this->functions[ $name ] ?? null;
		}
		return function_exists( $name ) ? $name : null;
	}

	/**
	 * `absent`, `no-consent-type` or `active`: see the constants.
	 */
	public function state(): string {
		$has_consent  = $this->api_function( 'wp_has_consent' );
		$consent_type = $this->api_function( 'wp_get_consent_type' );
		if ( null === $has_consent || null === $consent_type ) {
			return self::ABSENT;
		}
		$type = $consent_type();
		return is_string( $type ) && '' !== $type ? self::ACTIVE : self::NO_CONSENT_TYPE;
	}

	/**
	 * Whether the API's functions are there (the gate then follows the visitor's choice).
	 */
	public function present(): bool {
		return self::ABSENT !== $this->state();
	}

	/**
	 * Whether the visitor of this request has already agreed to `$category` (the consent plugin's
	 * cookie). False without the API or without a consent type.
	 *
	 * @param string $category A consent category.
	 */
	public function has_consent( string $category ): bool {
		if ( self::ACTIVE !== $this->state() ) {
			return false;
		}
		$has_consent = $this->api_function( 'wp_has_consent' );
		return null !== $has_consent && (bool) $has_consent( $category, plugin_basename( CAIRN_MAPS_FILE ) );
	}

	/**
	 * The categories with their names for people.
	 *
	 * @return array<string, string>
	 */
	public static function labels(): array {
		return array(
			'functional'           => __( 'Functional', 'cairn-maps' ),
			'preferences'          => __( 'Preferences', 'cairn-maps' ),
			'statistics'           => __( 'Statistics', 'cairn-maps' ),
			'statistics-anonymous' => __( 'Anonymous statistics', 'cairn-maps' ),
			'marketing'            => __( 'Marketing', 'cairn-maps' ),
		);
	}
}
