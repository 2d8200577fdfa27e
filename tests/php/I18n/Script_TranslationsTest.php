<?php
/**
 * Translations of the plugin's scripts and of the chunks they load.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\I18n;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Blocks\View_Script;
use Cairn\Maps\I18n\Script_Translations;
use Cairn\Maps\Plugin;
use Cairn\Maps\Settings\Settings_Page;
use Cairn\Maps\Tests\TestCase;

/**
 * What WordPress prints before the plugin's scripts for a German site, from translation files
 * named as WordPress names them (md5 of the script's path inside the plugin).
 *
 * @since 0.2.0
 */
final class Script_TranslationsTest extends TestCase {

	/**
	 * Translation files this test wrote, removed after it.
	 *
	 * @var string[]
	 */
	private array $files = array();

	/**
	 * A German site.
	 */
	protected function set_up(): void {
		parent::set_up();
		add_filter( 'determine_locale', array( $this, 'german' ) );
	}

	/**
	 * A fresh instance in place of the plugin's, which keeps what it read for the whole request
	 * (hooks are restored after each test).
	 */
	private function read_afresh(): void {
		remove_filter( 'pre_load_script_translations', array( Plugin::instance()->get( 'translations' ), 'load' ) );
		add_filter( 'pre_load_script_translations', array( new Script_Translations(), 'load' ), 10, 4 );
	}

	/**
	 * Removes the files the test wrote.
	 */
	protected function tear_down(): void {
		foreach ( $this->files as $file ) {
			wp_delete_file( $file );
		}
		// The settings screen's handle was registered here with other dependencies than the
		// plugin's; later tests must see the plugin's own registration.
		wp_deregister_script( Settings_Page::SCRIPT_HANDLE );
		parent::tear_down();
	}

	/**
	 * The locale under test.
	 */
	public function german(): string {
		return 'de_DE';
	}

	/**
	 * Writes a translation file as `wp i18n make-json` does, for a script path inside the plugin.
	 *
	 * @param string                $folder   Folder to write to.
	 * @param string                $script   Path inside the plugin, e.g. build/blocks/map/view.js.
	 * @param array<string, string> $messages English => German.
	 */
	private function write_json( string $folder, string $script, array $messages ): void {
		$data = array(
			'' => array(
				'domain' => 'messages',
				'lang'   => 'de_DE',
			),
		);
		foreach ( $messages as $english => $german ) {
			$data[ $english ] = array( $german );
		}
		wp_mkdir_p( $folder );
		$file = trailingslashit( $folder ) . 'cairn-maps-de_DE-' . md5( $script ) . '.json';
		$json = array(
			'source'      => $script,
			'locale_data' => array( 'messages' => $data ),
		);
		file_put_contents( $file, (string) wp_json_encode( $json ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_operations_file_put_contents, WordPress.WP.AlternativeFunctions.file_system_read_file_put_contents -- a test fixture.
		$this->files[] = $file;
	}

	/**
	 * The inline script WordPress prints before a script, with its translations.
	 *
	 * @param string $handle Script handle.
	 */
	private function printed_translations( string $handle ): string {
		$printed = wp_scripts()->print_translations( $handle, false );
		return is_string( $printed ) ? $printed : '';
	}

	/**
	 * The plugin creates one instance and hooks its named methods.
	 */
	public function test_hooked_once_by_the_plugin(): void {
		$translations = Plugin::instance()->get( 'translations' );
		$this->assertInstanceOf( Script_Translations::class, $translations );
		$this->assertSame( 10, has_filter( 'pre_load_script_translations', array( $translations, 'load' ) ) );
		$this->assertSame( 20, has_action( 'init', array( $translations, 'set_translations' ) ) );
	}

	/**
	 * Each registered script of the plugin is set to the cairn-maps domain, with languages/ as the path.
	 */
	public function test_every_script_that_shows_text_gets_the_plugins_domain(): void {
		wp_register_script( Settings_Page::SCRIPT_HANDLE, plugins_url( 'build/settings/index.js', CAIRN_MAPS_FILE ), array( 'wp-i18n' ), '1', true );
		( new Script_Translations() )->set_translations();

		$translations = new Script_Translations();
		foreach ( array_keys( $translations->handles() ) as $handle ) {
			if ( ! wp_script_is( $handle, 'registered' ) ) {
				continue;
			}
			$this->assertSame( 'cairn-maps', wp_scripts()->registered[ $handle ]->textdomain, $handle );
			$this->assertSame( CAIRN_MAPS_DIR . 'languages', wp_scripts()->registered[ $handle ]->translations_path, $handle );
		}
		$this->assertTrue( wp_script_is( View_Script::handle(), 'registered' ), 'the block registers its view script on init' );
	}

	/**
	 * Strings of the lazily loaded runtime reach the page with the view script's translations.
	 */
	public function test_the_view_script_carries_the_translations_of_the_runtime_chunk_it_loads(): void {
		$chunks = glob( CAIRN_MAPS_DIR . 'build/*.js' );
		$this->assertNotEmpty( $chunks, 'build/ has webpack chunks' );
		$this->assertContains( CAIRN_MAPS_DIR . 'build/cairn-map-runtime.js', $chunks );
		$this->write_json( WP_LANG_DIR . '/plugins', 'build/blocks/map/view.js', array( 'The map could not be loaded. Please try again later.' => 'Die Karte konnte nicht geladen werden.' ) );
		$this->write_json( WP_LANG_DIR . '/plugins', 'build/cairn-map-runtime.js', array( 'Search places' => 'Orte suchen' ) );

		$this->read_afresh();
		$printed = $this->printed_translations( View_Script::handle() );

		$this->assertStringContainsString( 'wp.i18n.setLocaleData( localeData, domain )', $printed );
		$this->assertStringContainsString( '"cairn-maps"', $printed );
		$this->assertStringContainsString( 'Die Karte konnte nicht geladen werden.', $printed );
		$this->assertStringContainsString( 'Orte suchen', $printed );
	}

	/**
	 * A language pack whose only file for the front end is the runtime chunk's still reaches visitors.
	 */
	public function test_the_runtime_chunk_alone_is_enough(): void {
		$this->write_json( WP_LANG_DIR . '/plugins', 'build/cairn-map-runtime.js', array( 'Search places' => 'Orte suchen' ) );

		$this->read_afresh();
		$this->assertStringContainsString( 'Orte suchen', $this->printed_translations( View_Script::handle() ) );
	}

	/**
	 * The settings screen loads no runtime, so it gets only its own strings.
	 */
	public function test_the_settings_screen_gets_its_own_file_without_the_runtime(): void {
		wp_register_script( Settings_Page::SCRIPT_HANDLE, plugins_url( 'build/settings/index.js', CAIRN_MAPS_FILE ), array( 'wp-i18n' ), '1', true );
		( new Script_Translations() )->set_translations();
		$this->write_json( WP_LANG_DIR . '/plugins', 'build/settings/index.js', array( 'Privacy' => 'Datenschutz' ) );
		$this->write_json( WP_LANG_DIR . '/plugins', 'build/cairn-map-runtime.js', array( 'Search places' => 'Orte suchen' ) );

		$this->read_afresh();
		$printed = $this->printed_translations( Settings_Page::SCRIPT_HANDLE );

		$this->assertStringContainsString( 'Datenschutz', $printed );
		$this->assertStringNotContainsString( 'Orte suchen', $printed );
	}

	/**
	 * Language packs (wp-content/languages/plugins) are read before the plugin's languages/ folder.
	 */
	public function test_a_language_pack_wins_over_the_plugins_own_folder(): void {
		$this->write_json( WP_LANG_DIR . '/plugins', 'build/cairn-map-runtime.js', array( 'Search places' => 'Orte suchen (Sprachpaket)' ) );
		$this->write_json( CAIRN_MAPS_DIR . 'languages', 'build/cairn-map-runtime.js', array( 'Search places' => 'Orte suchen (Plugin)' ) );

		$this->read_afresh();
		$printed = $this->printed_translations( View_Script::handle() );

		$this->assertStringContainsString( 'Orte suchen (Sprachpaket)', $printed );
		$this->assertStringNotContainsString( 'Orte suchen (Plugin)', $printed );
	}

	/**
	 * An English site, or one without files, gets no inline script.
	 */
	public function test_nothing_is_printed_without_translation_files(): void {
		$this->read_afresh();
		$this->assertSame( '', $this->printed_translations( View_Script::handle() ) );
	}

	/**
	 * Other domains, other scripts and another filter's answer pass through untouched.
	 */
	public function test_other_domains_and_scripts_are_left_to_core(): void {
		$translations = new Script_Translations();
		$this->assertNull( $translations->load( null, false, 'wp-i18n', 'default' ) );
		$this->assertNull( $translations->load( null, false, View_Script::handle(), 'default' ) );
		$this->assertSame( 'given', $translations->load( 'given', false, View_Script::handle(), 'cairn-maps' ) );
	}
}
