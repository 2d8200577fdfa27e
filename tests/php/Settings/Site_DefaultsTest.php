<?php
/**
 * Site-wide defaults for new map blocks.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Settings;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Plugin;
use Cairn\Maps\Settings\Editor_Defaults;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Settings\Site_Defaults;
use Cairn\Maps\Tests\TestCase;

/**
 * `cairn_maps_defaults` through `/wp/v2/settings` and update_option(), and what the editor gets.
 *
 * @since 0.1.0
 */
final class Site_DefaultsTest extends TestCase {

	/**
	 * A full, valid value. Since 0.7.0 its mapStyle can only be block.json's (new maps draw the
	 * site's basemap, setting cairn_maps_basemap: Basemap_SettingTest).
	 *
	 * @return array{mapStyle: string, language: string, controls: array<string, bool>}
	 */
	private static function valid(): array {
		return array(
			'mapStyle' => 'mapbox://styles/mapbox/standard',
			'language' => 'fr',
			'controls' => array(
				'zoom'       => true,
				'compass'    => false,
				'scale'      => true,
				'fullscreen' => false,
				'geolocate'  => true,
			),
		);
	}

	/**
	 * Until saved, the defaults are block.json's.
	 */
	public function test_until_saved_the_defaults_are_the_block_json_ones(): void {
		$this->assertSame(
			array(
				'mapStyle' => 'mapbox://styles/mapbox/standard',
				'language' => 'auto',
				'controls' => array(
					'zoom'       => true,
					'compass'    => true,
					'scale'      => false,
					'fullscreen' => true,
					'geolocate'  => false,
				),
			),
			Plugin::instance()->get( 'settings' )->defaults()
		);
	}

	/**
	 * An administrator saves the defaults.
	 */
	public function test_an_administrator_saves_the_defaults(): void {
		$this->act_as( 'administrator' );
		$response = $this->rest( 'POST', '/wp/v2/settings', array( Settings::DEFAULTS_OPTION => self::valid() ) );
		$this->assertSame( 200, $response->get_status() );
		$this->assertSame( self::valid(), $response->get_data()[ Settings::DEFAULTS_OPTION ] );
		$this->assertSame( self::valid(), get_option( Settings::DEFAULTS_OPTION ) );
	}

	/**
	 * A script subtag is accepted; missing keys take the built-in values.
	 */
	public function test_missing_keys_take_the_built_in_values(): void {
		$this->act_as( 'administrator' );
		$response = $this->rest(
			'POST',
			'/wp/v2/settings',
			array(
				Settings::DEFAULTS_OPTION => array(
					'language' => 'zh-Hans',
				),
			)
		);
		$this->assertSame( 200, $response->get_status() );
		$stored = get_option( Settings::DEFAULTS_OPTION );
		$this->assertSame( Site_Defaults::builtin()['mapStyle'], $stored['mapStyle'] );
		$this->assertSame( 'zh-Hans', $stored['language'] );
		$this->assertSame( Site_Defaults::builtin()['controls'], $stored['controls'] );
	}

	/**
	 * Invalid defaults, with the words the message must contain.
	 *
	 * @return array<string, array{0: array<string, mixed>, 1: string}>
	 */
	public static function invalid(): array {
		return array(
			// Since 0.7.0 any style but block.json's points to the basemap setting.
			'another Mapbox style' => array( array( 'mapStyle' => 'mapbox://styles/mapbox/outdoors-v12' ), 'basemap' ),
			'http style'           => array( array( 'mapStyle' => 'http://tiles.example.org/style.json' ), 'basemap' ),
			'style without owner'  => array( array( 'mapStyle' => 'mapbox://styles/standard' ), 'basemap' ),
			'style with a space'   => array( array( 'mapStyle' => 'https://tiles.example.org/a b.json' ), 'basemap' ),
			'javascript style'     => array( array( 'mapStyle' => 'javascript:alert(1)' ), 'basemap' ),
			'language name'        => array( array( 'language' => 'French' ), 'label language' ),
			'language, wrong case' => array( array( 'language' => 'FR' ), 'label language' ),
			'control as a string'  => array( array( 'controls' => array( 'zoom' => 'yes' ) ), 'control' ),
			'unknown control'      => array( array( 'controls' => array( 'minimap' => true ) ), 'control' ),
			'unknown key'          => array( array( 'zoom' => 4 ), 'defaults' ),
			'style not a string'   => array( array( 'mapStyle' => array( 'x' ) ), 'basemap' ),
		);
	}

	/**
	 * Invalid defaults answer 400 with a message, and nothing is stored.
	 *
	 * @dataProvider invalid
	 *
	 * @param array<string, mixed> $value   Submitted value.
	 * @param string               $mention Words the message contains.
	 */
	public function test_invalid_defaults_answer_400_and_nothing_is_stored( array $value, string $mention ): void {
		update_option( Settings::DEFAULTS_OPTION, self::valid() );
		$this->act_as( 'administrator' );
		$response = $this->rest( 'POST', '/wp/v2/settings', array( Settings::DEFAULTS_OPTION => $value ) );

		$this->assertSame( 400, $response->get_status() );
		$this->assertSame( 'cairn_maps_invalid_defaults', $response->as_error()->get_error_code() );
		$this->assertStringContainsStringIgnoringCase( $mention, $response->get_data()['message'] );
		$this->assertSame( self::valid(), get_option( Settings::DEFAULTS_OPTION ) );
	}

	/**
	 * Editors cannot change the defaults.
	 */
	public function test_editors_cannot_change_the_defaults(): void {
		$this->act_as( 'editor' );
		$response = $this->rest( 'POST', '/wp/v2/settings', array( Settings::DEFAULTS_OPTION => self::valid() ) );
		$this->assertSame( 403, $response->get_status() );
		$this->assertSame( Site_Defaults::builtin(), Plugin::instance()->get( 'settings' )->defaults() );
	}

	/**
	 * Other ways in keep the previous value.
	 */
	public function test_other_ways_in_keep_the_previous_value(): void {
		update_option( Settings::DEFAULTS_OPTION, self::valid() );
		update_option( Settings::DEFAULTS_OPTION, array( 'mapStyle' => 'ftp://example.org/style.json' ) );
		$this->assertSame( self::valid(), get_option( Settings::DEFAULTS_OPTION ) );
		update_option( Settings::DEFAULTS_OPTION, 'outdoors' );
		$this->assertSame( self::valid(), get_option( Settings::DEFAULTS_OPTION ) );
		update_option( Settings::DEFAULTS_OPTION, null );
		$this->assertSame( self::valid(), get_option( Settings::DEFAULTS_OPTION ) );
	}

	/**
	 * A broken stored value (database edit) falls back part by part.
	 */
	public function test_a_broken_stored_value_falls_back_part_by_part(): void {
		remove_all_filters( 'sanitize_option_' . Settings::DEFAULTS_OPTION );
		update_option(
			Settings::DEFAULTS_OPTION,
			array(
				'mapStyle' => 'not a url',
				'language' => 'de',
				'controls' => array( 'scale' => 'yes' ),
			)
		);
		$defaults = Plugin::instance()->get( 'settings' )->defaults();
		$this->assertSame( Site_Defaults::builtin()['mapStyle'], $defaults['mapStyle'] );
		$this->assertSame( 'de', $defaults['language'] );
		$this->assertSame( Site_Defaults::builtin()['controls'], $defaults['controls'] );
	}

	/**
	 * The editor gets the defaults before the block's editor script, without a token.
	 */
	public function test_the_editor_gets_the_defaults(): void {
		update_option( Settings::DEFAULTS_OPTION, self::valid() );
		$this->act_as( 'editor' );
		$this->assertTrue( has_action( 'enqueue_block_editor_assets', array( Plugin::instance()->get( 'defaults' ), 'print_defaults' ) ) !== false );

		Plugin::instance()->get( 'defaults' )->print_defaults();
		$handle = \WP_Block_Type_Registry::get_instance()->get_registered( 'cairn/map' )->editor_script_handles[0];
		$before = implode( "\n", (array) wp_scripts()->get_data( $handle, 'before' ) );
		$this->assertStringContainsString( 'window.' . Editor_Defaults::GLOBAL_NAME . ' = ', $before );
		$this->assertStringContainsString( '"mapStyle":"mapbox:\/\/styles\/mapbox\/standard"', $before );
		$this->assertStringContainsString( '"language":"fr"', $before );
	}

	/**
	 * Changing the defaults does not change a block already on a page.
	 */
	public function test_changing_the_defaults_does_not_change_existing_blocks(): void {
		update_option( Settings::TOKEN_OPTION, 'pk.eyJ1IjoiY2Fpcm4ifQ.c2ln' );
		update_option( Settings::DEFAULTS_OPTION, self::valid() );
		$html = do_blocks( '<!-- wp:cairn/map /-->' );
		$tags = new \WP_HTML_Tag_Processor( $html );
		$tags->next_tag( array( 'class_name' => 'wp-block-cairn-map' ) );
		$config = json_decode( (string) $tags->get_attribute( 'data-cairn-config' ), true );
		$this->assertSame( 'mapbox://styles/mapbox/standard', $config['style'] );
		$this->assertSame( 'auto', $config['language'] );
		$this->assertTrue( $config['controls']['compass'] );
	}
}
