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
 * Whether a map waits for the visitor's consent before it contacts Mapbox, and the click-to-load
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
	 * Whether the map waits for the visitor's consent: null when it need not (the owner's setting
	 * is off, or the WP Consent API says the visitor already agreed), else the API category the
	 * gate follows, '' without the API.
	 */
	public function gate(): ?string {
		if ( ! $this->settings->require_consent() ) {
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
	 * The same for every visitor, so cacheable; gate() decides for the visitor at hand.
	 *
	 * @since 0.3.0
	 *
	 * @return array{required: bool, category: string}
	 */
	public function policy(): array {
		$required = $this->settings->require_consent();
		return array(
			'required' => $required,
			'category' => $required && $this->consent_api->present() ? $this->settings->consent_category() : '',
		);
	}

	/**
	 * The click-to-load placeholder shown when maps wait for the visitor's consent.
	 *
	 * @param string $category The WP Consent API category the button agrees to, '' without the API.
	 */
	public function render( string $category ): string {
		$policy = get_privacy_policy_url();
		$note   = esc_html__( 'Loading this map connects your browser to Mapbox, which receives your IP address and browser details and records usage events.', 'cairn-maps' );
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
}
