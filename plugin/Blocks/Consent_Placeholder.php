<?php
/**
 * The consent gate of the map block.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Settings\Consent_Api;
use Cairn\Maps\Settings\Settings;

/**
 * Whether a map waits for the visitor's consent before it contacts its map provider (Mapbox,
 * OpenFreeMap, a style URL's host; never for a self-hosted archive), and the click-to-load
 * placeholder it shows meanwhile: the owner's setting, followed through the WP Consent API when
 * the site runs it.
 *
 * @since 0.2.0
 */
class Consent_Placeholder {

	/**
	 * Settings (whether consent is required, and under which category).
	 *
	 * @var Settings
	 */
	private Settings $settings;

	/**
	 * The WP Consent API, when the site runs it.
	 *
	 * @var Consent_Api
	 */
	private Consent_Api $consent_api;

	/**
	 * Creates the gate.
	 *
	 * @param Settings    $settings    Settings.
	 * @param Consent_Api $consent_api The WP Consent API.
	 */
	public function __construct( Settings $settings, Consent_Api $consent_api ) {
		$this->settings    = $settings;
		$this->consent_api = $consent_api;
	}

	/**
	 * Whether a map of this style contacts another host at all: a self-hosted archive (its tiles,
	 * glyphs and style from the site) does not, so it never waits for consent.
	 *
	 * @since 0.7.0
	 *
	 * @param string $style The map's style ('' counts as contacting its provider).
	 */
	public static function contacts_provider( string $style ): bool {
		return 'self-hosted' !== Basemap::provider_for( $style );
	}

	/**
	 * Whether the map waits for the visitor's consent: null when it need not (the owner's setting
	 * is off, the map is self-hosted, or the WP Consent API says the visitor already agreed), else
	 * the API category the gate follows, '' without the API.
	 *
	 * @param string $style The map's style, since 0.7.0 ('' = one that contacts its provider).
	 */
	public function gate( string $style = '' ): ?string {
		if ( ! $this->settings->require_consent() || ! self::contacts_provider( $style ) ) {
			return null;
		}
		if ( ! $this->consent_api->present() ) {
			return '';
		}
		$category = $this->settings->consent_category();
		// Agreed on an earlier page: no click. A cached copy of the gated page starts at once
		// too, as the view script asks the API again.
		return $this->consent_api->has_consent( $category ) ? null : $category;
	}

	/**
	 * The site's consent policy as every map's configuration carries it (`config.consent`, in
	 * `data-cairn-config` and over REST): whether maps wait for the visitor's consent, and the
	 * WP Consent API category that counts as consent ('' when not required or without the API).
	 * The same for every visitor, so cacheable; gate() decides for the visitor at hand. A
	 * self-hosted map needs no consent for the map itself: `required` is false.
	 *
	 * @since 0.3.0
	 *
	 * @param string $style The map's style, since 0.7.0 ('' = one that contacts its provider).
	 * @return array{required: bool, category: string}
	 */
	public function policy( string $style = '' ): array {
		$required = $this->settings->require_consent() && self::contacts_provider( $style );
		return array(
			'required' => $required,
			'category' => $required && $this->consent_api->present() ? $this->settings->consent_category() : '',
		);
	}

	/**
	 * The click-to-load placeholder shown when maps wait for the visitor's consent.
	 *
	 * @param string $category The WP Consent API category the button agrees to, '' without the API.
	 * @param string $style    The map's style (names who the browser contacts), since 0.7.0.
	 */
	public function render( string $category, string $style = '' ): string {
		$policy = get_privacy_policy_url();
		$note   = esc_html( self::provider_note( $style ) );
		if ( '' !== $category ) {
			$note .= ' ' . esc_html(
				sprintf(
					/* translators: %s: a consent category, such as "Marketing". */
					__( 'The map loads once you accept “%s” cookies and services; “Load map” records that choice in this site’s cookie settings.', 'cairn-maps' ),
					Consent_Api::labels()[ $category ] ?? $category
				)
			);
		}
		if ( '' !== $policy ) {
			$note .= sprintf( ' <a href="%1$s">%2$s</a>', esc_url( $policy ), esc_html__( 'Privacy policy', 'cairn-maps' ) );
		}
		return sprintf(
			'<div class="wp-block-cairn-map__consent"><p class="wp-block-cairn-map__consent-note">%1$s</p><button type="button" class="wp-block-cairn-map__consent-button wp-element-button">%2$s</button></div>',
			$note,
			esc_html__( 'Load map', 'cairn-maps' )
		);
	}

	/**
	 * What loading a map of this style tells its provider, for the click-to-load placeholder.
	 *
	 * @since 0.7.0
	 *
	 * @param string $style The map's style.
	 */
	public static function provider_note( string $style ): string {
		switch ( Basemap::provider_for( $style ) ) {
			case 'openfreemap':
				return __( 'Loading this map connects your browser to OpenFreeMap (tiles.openfreemap.org), which receives your IP address and browser details.', 'cairn-maps' );
			case 'style-url':
				$hosts = Basemap::hosts_for( $style );
				return sprintf(
					/* translators: %s: host names, such as "tiles.example.org". */
					__( 'Loading this map connects your browser to %s, which receives your IP address and browser details.', 'cairn-maps' ),
					implode( ', ', $hosts )
				);
			default:
				return __( 'Loading this map connects your browser to Mapbox, which receives your IP address and browser details and records usage events.', 'cairn-maps' );
		}
	}
}
