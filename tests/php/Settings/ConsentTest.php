<?php
/**
 * "Load maps only after the visitor agrees".
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Settings;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Tests\TestCase;

/**
 * The block's click-to-load placeholder, rendered by the server.
 *
 * @since 0.1.0
 */
final class ConsentTest extends TestCase {

	/**
	 * A public token.
	 */
	private const TOKEN = 'pk.eyJ1IjoiY2Fpcm4ifQ.c2lnbmF0dXJl';

	/**
	 * The wrapper as a tag processor positioned on it.
	 *
	 * @param string $html Rendered HTML.
	 */
	private function wrapper( string $html ): \WP_HTML_Tag_Processor {
		$tags = new \WP_HTML_Tag_Processor( $html );
		$this->assertTrue( $tags->next_tag( array( 'class_name' => 'wp-block-cairn-map' ) ) );
		return $tags;
	}

	/**
	 * With consent required the map waits behind a "Load map" button.
	 */
	public function test_with_consent_required_the_map_waits_behind_a_button(): void {
		update_option( Settings::TOKEN_OPTION, self::TOKEN );
		update_option( Settings::CONSENT_OPTION, true );
		$html    = do_blocks( '<!-- wp:cairn/map /-->' );
		$wrapper = $this->wrapper( $html );

		$this->assertSame( 'required', $wrapper->get_attribute( 'data-cairn-consent' ) );
		$this->assertSame( 'loading', $wrapper->get_attribute( 'data-cairn-state' ) );

		$tags = new \WP_HTML_Tag_Processor( $html );
		$this->assertTrue( $tags->next_tag( array( 'class_name' => 'wp-block-cairn-map__map' ) ) );
		$this->assertTrue( $tags->next_tag( array( 'class_name' => 'wp-block-cairn-map__consent' ) ), 'the placeholder is inside the map area' );
		$this->assertTrue( $tags->next_tag( array( 'tag_name' => 'button' ) ) );
		$this->assertSame( 'button', $tags->get_attribute( 'type' ) );
		$this->assertMatchesRegularExpression( '#<button[^>]*>Load map</button>#', $html );
		$this->assertStringContainsString( 'Mapbox', $html );
		$this->assertStringContainsString( 'IP address', $html );
		$this->assertStringNotContainsString( 'role="alert"', $html );
		$this->assertStringContainsString( 'wp-block-cairn-map__markers', $html, 'the list of places stays' );
	}

	/**
	 * The note links the privacy policy when the site has one.
	 */
	public function test_the_note_links_the_privacy_policy(): void {
		update_option( Settings::TOKEN_OPTION, self::TOKEN );
		update_option( Settings::CONSENT_OPTION, true );
		$page = wp_insert_post(
			array(
				'post_type'   => 'page',
				'post_status' => 'publish',
				'post_title'  => 'Privacy',
			)
		);
		update_option( 'wp_page_for_privacy_policy', $page );
		$html = do_blocks( '<!-- wp:cairn/map /-->' );
		$this->assertStringContainsString( 'href="' . esc_url( get_permalink( $page ) ) . '"', $html );
	}

	/**
	 * Off by default: no placeholder.
	 */
	public function test_off_by_default(): void {
		update_option( Settings::TOKEN_OPTION, self::TOKEN );
		$html = do_blocks( '<!-- wp:cairn/map /-->' );
		$this->assertNull( $this->wrapper( $html )->get_attribute( 'data-cairn-consent' ) );
		$this->assertStringNotContainsString( 'wp-block-cairn-map__consent', $html );
	}

	/**
	 * Without a token a Mapbox map shows the alert, not the consent button (nothing would load
	 * anyway). Since 0.7.0 that takes a block naming a Mapbox style: block.json's default style
	 * draws OpenFreeMap without a token (test_without_a_token_openfreemap_waits_for_consent).
	 */
	public function test_without_a_token_the_alert_shows_instead(): void {
		update_option( Settings::CONSENT_OPTION, true );
		$html    = do_blocks( '<!-- wp:cairn/map {"mapStyle":"mapbox://styles/mapbox/outdoors-v12"} /-->' );
		$wrapper = $this->wrapper( $html );
		$this->assertSame( 'error', $wrapper->get_attribute( 'data-cairn-state' ) );
		$this->assertNull( $wrapper->get_attribute( 'data-cairn-consent' ) );
		$this->assertStringContainsString( 'data-cairn-error="missing-token"', $html );
		$this->assertStringNotContainsString( 'Load map', $html );
	}

	/**
	 * Without a token the default map draws OpenFreeMap, and waits for consent naming it.
	 */
	public function test_without_a_token_openfreemap_waits_for_consent(): void {
		update_option( Settings::CONSENT_OPTION, true );
		$html    = do_blocks( '<!-- wp:cairn/map /-->' );
		$wrapper = $this->wrapper( $html );
		$this->assertSame( 'loading', $wrapper->get_attribute( 'data-cairn-state' ) );
		$this->assertSame( 'required', $wrapper->get_attribute( 'data-cairn-consent' ) );
		$this->assertStringContainsString( 'Load map', $html );
		$this->assertStringContainsString( 'connects your browser to OpenFreeMap (tiles.openfreemap.org)', $html );
		$this->assertStringNotContainsString( 'Mapbox', $html );

		// A style URL's note names its host (and the hosts the owner added for it).
		update_option( Settings::BASEMAP_OPTION, 'https://tiles.example.net/styles/dark.json' );
		add_filter( 'cairn_maps_basemap_hosts', static fn( array $hosts ): array => array_merge( $hosts, array( 'fonts.example.net' ) ) );
		$this->assertStringContainsString( 'connects your browser to tiles.example.net, fonts.example.net,', do_blocks( '<!-- wp:cairn/map /-->' ) );
	}

	/**
	 * A filter can switch consent on or off (e.g. a consent-management plugin).
	 */
	public function test_a_filter_decides_last(): void {
		update_option( Settings::TOKEN_OPTION, self::TOKEN );
		update_option( Settings::CONSENT_OPTION, true );
		add_filter( 'cairn_maps_require_consent', '__return_false' );
		$this->assertNull( $this->wrapper( do_blocks( '<!-- wp:cairn/map /-->' ) )->get_attribute( 'data-cairn-consent' ) );
	}

	/**
	 * The setting is saved through REST as a boolean.
	 */
	public function test_the_setting_is_saved_through_rest(): void {
		$this->act_as( 'administrator' );
		$response = $this->rest( 'POST', '/wp/v2/settings', array( Settings::CONSENT_OPTION => true ) );
		$this->assertSame( 200, $response->get_status() );
		$this->assertTrue( get_option( Settings::CONSENT_OPTION ) );
		$response = $this->rest( 'POST', '/wp/v2/settings', array( Settings::CONSENT_OPTION => 'maybe' ) );
		$this->assertSame( 400, $response->get_status() );
		$this->assertTrue( get_option( Settings::CONSENT_OPTION ) );
	}
}
