<?php
/**
 * Settings → Cairn Maps.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Settings;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Plugin;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Settings\Settings_Page;
use Cairn\Maps\Tests\TestCase;

/**
 * The admin page, its script and data, the Plugins screen link and the privacy-policy text.
 *
 * @since 0.1.0
 */
final class Settings_PageTest extends TestCase {

	/**
	 * Loads what wp-admin has loaded when these hooks run.
	 */
	protected function set_up(): void {
		parent::set_up();
		require_once ABSPATH . 'wp-admin/includes/plugin.php';
		require_once ABSPATH . 'wp-admin/includes/misc.php';
		require_once ABSPATH . 'wp-admin/includes/class-wp-privacy-policy-content.php';
		$GLOBALS['submenu'] = array(); // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- the admin menu, rebuilt for each test.
	}

	/**
	 * A fresh page object with its menu registered for the current user.
	 */
	private function page(): Settings_Page {
		$page = new Settings_Page( Plugin::instance()->get( 'settings' ) );
		$page->add_page();
		return $page;
	}

	/**
	 * Whether Settings has a Cairn Maps entry.
	 */
	private function has_menu_entry(): bool {
		foreach ( $GLOBALS['submenu']['options-general.php'] ?? array() as $item ) {
			if ( Settings_Page::SLUG === $item[2] ) {
				return true;
			}
		}
		return false;
	}

	/**
	 * The page is under Settings, for administrators only.
	 */
	public function test_the_page_is_under_settings_for_administrators_only(): void {
		$this->act_as( 'editor' );
		$this->page();
		$this->assertFalse( $this->has_menu_entry() );

		$this->act_as( 'administrator' );
		$this->page();
		$this->assertTrue( $this->has_menu_entry() );
		$this->assertStringEndsWith( 'options-general.php?page=cairn-maps', Settings_Page::url() );
	}

	/**
	 * The shell renders for administrators only.
	 */
	public function test_the_shell_renders_for_administrators_only(): void {
		$this->act_as( 'editor' );
		ob_start();
		$this->page()->render();
		$this->assertSame( '', ob_get_clean() );

		$this->act_as( 'administrator' );
		ob_start();
		$this->page()->render();
		$this->assertStringContainsString( 'id="cairn-maps-settings-root"', (string) ob_get_clean() );
	}

	/**
	 * The script loads on this page only, with its data and no refused token.
	 */
	public function test_the_script_loads_on_this_page_only(): void {
		$this->act_as( 'administrator' );
		$page = $this->page();

		$page->enqueue( 'index.php' );
		$this->assertFalse( wp_script_is( Settings_Page::SCRIPT_HANDLE, 'enqueued' ) );

		remove_all_filters( 'sanitize_option_' . Settings::TOKEN_OPTION );
		$secret = 'sk.eyJ1IjoiY2Fpcm4ifQ.c2VjcmV0LXNpZ25hdHVyZQ';
		update_option( Settings::TOKEN_OPTION, $secret );
		// settings_page_cairn-maps in wp-admin; the menu globals of a test name it differently.
		$page->enqueue( get_plugin_page_hookname( Settings_Page::SLUG, 'options-general.php' ) );
		$this->assertTrue( wp_script_is( Settings_Page::SCRIPT_HANDLE, 'enqueued' ) );
		$this->assertTrue( wp_style_is( 'wp-components', 'enqueued' ) );
		foreach ( array( 'wp-api-fetch', 'wp-components', 'wp-element', 'wp-i18n' ) as $dependency ) {
			$this->assertContains( $dependency, wp_scripts()->registered[ Settings_Page::SCRIPT_HANDLE ]->deps );
		}
		$before = implode( "\n", (array) wp_scripts()->get_data( Settings_Page::SCRIPT_HANDLE, 'before' ) );
		$this->assertStringContainsString( 'window.cairnMapsSettingsPage = ', $before );
		$this->assertStringContainsString( '"storedTokenProblem":"secret-token"', $before );
		$this->assertStringNotContainsString( $secret, $before );
		wp_dequeue_script( Settings_Page::SCRIPT_HANDLE );
	}

	/**
	 * The Plugins screen links to the page.
	 */
	public function test_the_plugins_screen_links_to_the_page(): void {
		$this->act_as( 'administrator' );
		$links = $this->page()->add_action_link( array( 'deactivate' => '<a href="#">Deactivate</a>' ) );
		$this->assertStringContainsString( 'options-general.php?page=cairn-maps', $links[0] );
		$this->assertTrue( has_filter( 'plugin_action_links_' . plugin_basename( CAIRN_MAPS_FILE ) ) );
	}

	/**
	 * The privacy-policy guide gets a suggestion about Mapbox.
	 */
	public function test_the_privacy_policy_guide_gets_a_suggestion(): void {
		$this->assertNotFalse( has_action( 'admin_init', array( Plugin::instance()->get( 'page' ), 'add_privacy_policy_content' ) ) );
		// wp_add_privacy_policy_content() only accepts text in wp-admin, while admin_init runs.
		require_once ABSPATH . 'wp-admin/includes/class-wp-screen.php';
		require_once ABSPATH . 'wp-admin/includes/screen.php';
		set_current_screen( 'options-privacy' );
		$GLOBALS['wp_current_filter'][] = 'admin_init'; // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- simulates doing_action( 'admin_init' ).
		Plugin::instance()->get( 'page' )->add_privacy_policy_content();
		array_pop( $GLOBALS['wp_current_filter'] );
		$GLOBALS['current_screen'] = null; // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- back to a front-end request.

		$texts = array_filter(
			\WP_Privacy_Policy_Content::get_suggested_policy_text(),
			static fn( $text ) => 'Cairn Maps' === $text['plugin_name']
		);
		$this->assertCount( 1, $texts );
		$policy = (string) reset( $texts )['policy_text'];
		foreach ( array( 'Mapbox', 'IP address', 'user agent', 'usage events', 'mapbox.eventData', 'Load map' ) as $words ) {
			$this->assertStringContainsString( $words, $policy );
		}
	}
}
