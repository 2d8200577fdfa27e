<?php
/**
 * The Tools page's script: what its import preview's map is drawn with.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Import_Export;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Import_Export\Import_Export_Page;
use Cairn\Maps\Import_Export\Marker_Import;
use Cairn\Maps\Plugin;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Tests\TestCase;

/**
 * The page's script gets what the block editor's maps get, printed before it: the editor data
 * (the site's basemap, the public token) and where mapbox-gl comes from; and the runtime chunks'
 * translations with its own.
 *
 * @since 0.7.0
 */
final class Import_Export_PageTest extends TestCase {

	/**
	 * The script registry before the test.
	 *
	 * @var \WP_Scripts|null
	 */
	private ?\WP_Scripts $scripts = null;

	/**
	 * Loads the admin menu API and keeps a copy of the script registry.
	 */
	protected function set_up(): void {
		parent::set_up();
		require_once ABSPATH . 'wp-admin/includes/plugin.php';
		$this->scripts = clone wp_scripts();
	}

	/**
	 * Puts the script registry back.
	 */
	protected function tear_down(): void {
		$GLOBALS['wp_scripts'] = $this->scripts; // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- forgets what the test enqueued.
		parent::tear_down();
	}

	/**
	 * The plugin's page, added to the Tools menu for an administrator.
	 */
	private function page(): Import_Export_Page {
		$page = Plugin::instance()->get( 'import_export_page' );
		$this->assertInstanceOf( Import_Export_Page::class, $page );
		$this->act_as( 'administrator' );
		$page->add_page();
		return $page;
	}

	/**
	 * The page's hook suffix, as WordPress named it when the page was added (in a test, without
	 * the admin menu, it is not `tools_page_…`).
	 */
	private static function screen(): string {
		return (string) get_plugin_page_hookname( Import_Export_Page::SLUG, 'tools.php' );
	}

	/**
	 * What is printed before the page's script.
	 */
	private static function before(): string {
		return implode( "\n", (array) wp_scripts()->get_data( Import_Export_Page::SCRIPT, 'before' ) );
	}

	/**
	 * On the page: the script, its styles, and the basemap the owner chose (a site without a
	 * token: OpenFreeMap), with where mapbox-gl comes from.
	 */
	public function test_the_page_script_gets_the_site_basemap(): void {
		update_option( Settings::TOKEN_OPTION, '' );
		update_option( Settings::BASEMAP_OPTION, '' );
		$this->page()->enqueue( self::screen() );

		$this->assertTrue( wp_script_is( Import_Export_Page::SCRIPT, 'enqueued' ) );
		$this->assertTrue( wp_style_is( Import_Export_Page::SCRIPT, 'enqueued' ), 'the map box and the alert are styled' );
		$before = self::before();
		$this->assertStringContainsString( 'window.cairnMapsEditor = ', $before );
		$this->assertStringContainsString( '"siteStyle":"https:\/\/tiles.openfreemap.org\/styles\/liberty"', $before );
		$this->assertStringContainsString( '"accessToken":""', $before );
		$this->assertStringContainsString( 'var cairnMapsMapboxGl = ', $before );
	}

	/**
	 * Another screen gets none of it.
	 */
	public function test_other_screens_get_nothing(): void {
		$this->page()->enqueue( 'tools_page_something-else' );
		$this->assertFalse( wp_script_is( Import_Export_Page::SCRIPT, 'enqueued' ) );
	}

	/**
	 * A page made without the map's data (as before 0.7.0) prints nothing before its script:
	 * the preview sketches.
	 */
	public function test_without_map_data_nothing_is_printed(): void {
		$page = new Import_Export_Page( new Marker_Import() );
		$this->act_as( 'administrator' );
		$page->add_page();
		$page->enqueue( self::screen() );
		$this->assertTrue( wp_script_is( Import_Export_Page::SCRIPT, 'enqueued' ) );
		$this->assertSame( '', self::before() );
	}

	/**
	 * The map's runtime chunks show text (the map's alert): their translations come with the
	 * page's script.
	 */
	public function test_the_runtime_chunks_are_translated_with_the_page_script(): void {
		$translations = Plugin::instance()->get( 'translations' );
		$this->assertInstanceOf( \Cairn\Maps\I18n\Script_Translations::class, $translations );
		$this->assertTrue( $translations->handles()[ Import_Export_Page::SCRIPT ] ?? false );
	}
}
