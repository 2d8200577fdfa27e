<?php
/**
 * The site's basemap setting over REST and every other way in.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Settings;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Blocks\Basemap;
use Cairn\Maps\Blocks\Map_Attributes;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Settings\Site_Defaults;
use Cairn\Maps\Tests\TestCase;
use Cairn\Maps\Upgrade\Upgrade_Steps;

/**
 * `cairn_maps_basemap` in `/wp/v2/settings`: what is stored, what is refused with which message
 * (the stored value unchanged), the allowed style hosts it adds, and the move of the default style
 * of 0.6 into it (Upgrade_Steps).
 *
 * @since 0.7.0
 */
final class Basemap_SettingTest extends TestCase {

	/**
	 * Saves the basemap as the settings screen does.
	 *
	 * @param mixed $value The value.
	 */
	private function save( $value ): \WP_REST_Response {
		return $this->rest( 'POST', '/wp/v2/settings', array( Settings::BASEMAP_OPTION => $value ) );
	}

	/**
	 * The setting is in `/wp/v2/settings`, '' (automatic) until chosen.
	 */
	public function test_the_setting_is_in_the_settings_route(): void {
		$this->act_as( 'administrator' );
		$data = $this->rest( 'GET', '/wp/v2/settings' )->get_data();
		$this->assertArrayHasKey( Settings::BASEMAP_OPTION, $data );
		$this->assertSame( '', $data[ Settings::BASEMAP_OPTION ] );
	}

	/**
	 * Values an owner may choose, stored as sent (surrounding spaces dropped).
	 *
	 * @return array<string, array{0: string, 1: string}>
	 */
	public static function accepted(): array {
		return array(
			'automatic'       => array( '', '' ),
			'OpenFreeMap'     => array( 'https://tiles.openfreemap.org/styles/positron', 'https://tiles.openfreemap.org/styles/positron' ),
			'Mapbox style'    => array( 'mapbox://styles/mapbox/outdoors-v12', 'mapbox://styles/mapbox/outdoors-v12' ),
			'a style URL'     => array( 'https://api.maptiler.com/maps/streets-v2/style.json?key=abc', 'https://api.maptiler.com/maps/streets-v2/style.json?key=abc' ),
			'pasted, spaces'  => array( "  https://tiles.versatiles.org/assets/styles/colorful/style.json\n", 'https://tiles.versatiles.org/assets/styles/colorful/style.json' ),
			'archive on site' => array( 'pmtiles://http://example.org/wp-content/uploads/2026/12/world.pmtiles', 'pmtiles://http://example.org/wp-content/uploads/2026/12/world.pmtiles' ),
			'https on site'   => array( 'pmtiles://https://example.org/wp-content/uploads/world.pmtiles', 'pmtiles://https://example.org/wp-content/uploads/world.pmtiles' ),
		);
	}

	/**
	 * An administrator stores each of them.
	 *
	 * @dataProvider accepted
	 *
	 * @param string $value  Sent.
	 * @param string $stored Stored.
	 */
	public function test_an_administrator_stores_a_basemap( string $value, string $stored ): void {
		$this->act_as( 'administrator' );
		update_option( Settings::BASEMAP_OPTION, 'https://tiles.openfreemap.org/styles/bright' );
		$response = $this->save( $value );
		$this->assertSame( 200, $response->get_status(), (string) wp_json_encode( $response->get_data() ) );
		$this->assertSame( $stored, get_option( Settings::BASEMAP_OPTION ) );
		$this->assertSame( $stored, $response->get_data()[ Settings::BASEMAP_OPTION ] );
	}

	/**
	 * Values refused, and words the message must contain.
	 *
	 * @return array<string, array{0: mixed, 1: string}>
	 */
	public static function refused(): array {
		return array(
			'http style'                   => array( 'http://tiles.openfreemap.org/styles/liberty', 'must start with https://' ),
			'HTTP style'                   => array( 'HTTP://tiles.openfreemap.org/styles/liberty', 'must start with https://' ),
			'archive elsewhere'            => array( 'pmtiles://https://tiles.example.net/world.pmtiles', 'must be on this site' ),
			'archive on a look-alike host' => array( 'pmtiles://https://example.org.evil.example/world.pmtiles', 'must be on this site' ),
			'archive on another port'      => array( 'pmtiles://http://example.org:8080/world.pmtiles', 'must be on this site' ),
			'relative archive'             => array( 'pmtiles:///wp-content/uploads/world.pmtiles', 'full address of the archive' ),
			'Mapbox tileset'               => array( 'mapbox://mapbox.mapbox-streets-v8', 'mapbox://styles/owner/style-id' ),
			'javascript'                   => array( 'javascript:alert(1)', 'https address of a MapLibre style' ),
			'data'                         => array( 'data:application/json,{}', 'https address of a MapLibre style' ),
			'quote'                        => array( 'https://example.com/"onload=x', 'quotes' ),
			'credentials'                  => array( 'https://user:pw@example.com/style.json', 'user names' ),
		);
	}

	/**
	 * Each is a 400 with the message, and the stored basemap stays.
	 *
	 * @dataProvider refused
	 *
	 * @param mixed  $value   Sent.
	 * @param string $message Part of the message.
	 */
	public function test_a_refused_basemap_is_a_400_and_the_stored_one_stays( $value, string $message ): void {
		$this->act_as( 'administrator' );
		update_option( Settings::BASEMAP_OPTION, 'https://tiles.openfreemap.org/styles/bright' );
		$response = $this->save( $value );
		$this->assertSame( 400, $response->get_status() );
		$this->assertSame( 'cairn_maps_invalid_basemap', $response->get_data()['code'] );
		$this->assertStringContainsString( $message, $response->get_data()['message'] );
		$this->assertSame( 'https://tiles.openfreemap.org/styles/bright', get_option( Settings::BASEMAP_OPTION ) );
	}

	/**
	 * Other ways in (update_option(), options.php) keep the stored basemap too.
	 */
	public function test_other_ways_in_keep_the_stored_basemap(): void {
		update_option( Settings::BASEMAP_OPTION, 'https://tiles.openfreemap.org/styles/bright' );
		update_option( Settings::BASEMAP_OPTION, 'http://tiles.openfreemap.org/styles/liberty' );
		$this->assertSame( 'https://tiles.openfreemap.org/styles/bright', get_option( Settings::BASEMAP_OPTION ) );
		update_option( Settings::BASEMAP_OPTION, array( 'x' ) );
		$this->assertSame( 'https://tiles.openfreemap.org/styles/bright', get_option( Settings::BASEMAP_OPTION ) );
	}

	/**
	 * Only administrators may change it.
	 */
	public function test_an_editor_cannot_change_the_basemap(): void {
		$this->act_as( 'editor' );
		$response = $this->save( 'https://tiles.openfreemap.org/styles/positron' );
		$this->assertSame( 403, $response->get_status() );
		$this->assertNull( get_option( Settings::BASEMAP_OPTION, null ), 'nothing stored' );
	}

	/**
	 * An archive URL on the uploads host counts as on the site when uploads live elsewhere (a CDN
	 * the owner set as the uploads URL).
	 */
	public function test_an_archive_on_the_uploads_host_is_on_the_site(): void {
		$this->act_as( 'administrator' );
		add_filter( 'upload_dir', static fn( array $dir ): array => array_merge( $dir, array( 'baseurl' => 'https://media.example.org/uploads' ) ) );
		$this->assertSame( 200, $this->save( 'pmtiles://https://media.example.org/uploads/world.pmtiles' )->get_status() );
	}

	/**
	 * The host of a chosen style URL joins the hosts a block's style may use.
	 */
	public function test_a_style_urls_host_joins_the_allowed_hosts(): void {
		$this->act_as( 'administrator' );
		$this->assertNotContains( 'tiles.example.net', Map_Attributes::style_hosts() );
		$this->save( 'https://Tiles.Example.net/styles/dark.json' );
		$this->assertContains( 'tiles.example.net', Map_Attributes::style_hosts() );
		$this->assertContains( 'tiles.openfreemap.org', Map_Attributes::style_hosts() );
	}

	/**
	 * The defaults' mapStyle is retired: block.json's value is accepted (clients that send the
	 * object back), another is a 400 that points to the basemap.
	 */
	public function test_the_defaults_no_longer_take_a_style(): void {
		$this->act_as( 'administrator' );
		$same = $this->rest(
			'POST',
			'/wp/v2/settings',
			array(
				Settings::DEFAULTS_OPTION => array(
					'mapStyle' => 'mapbox://styles/mapbox/standard',
					'language' => 'fr',
				),
			)
		);
		$this->assertSame( 200, $same->get_status() );
		$this->assertSame( 'fr', get_option( Settings::DEFAULTS_OPTION )['language'] );

		$other = $this->rest( 'POST', '/wp/v2/settings', array( Settings::DEFAULTS_OPTION => array( 'mapStyle' => 'mapbox://styles/mapbox/outdoors-v12' ) ) );
		$this->assertSame( 400, $other->get_status() );
		$this->assertStringContainsString( 'Basemap', $other->get_data()['message'] );
		$this->assertSame( 'fr', get_option( Settings::DEFAULTS_OPTION )['language'], 'nothing stored' );
	}

	/**
	 * A default style chosen before 0.7.0 is the site's basemap until the upgrade moves it, then
	 * it is the setting, and the defaults keep block.json's style. Running the step again changes
	 * nothing.
	 */
	public function test_the_upgrade_moves_the_default_style_into_the_basemap(): void {
		update_option( Settings::TOKEN_OPTION, 'pk.eyJ1IjoiY2Fpcm4iLCJhIjoidGVzdCJ9.c2lnbmF0dXJl' );
		$this->store_old_defaults( 'https://tiles.example.net/styles/old.json' );
		$this->assertSame( 'https://tiles.example.net/styles/old.json', Basemap::site_style(), 'before the upgrade' );
		$this->act_as( 'administrator' );
		$this->assertSame( 'https://tiles.example.net/styles/old.json', $this->rest( 'GET', '/wp/v2/settings' )->get_data()[ Settings::BASEMAP_OPTION ] );

		$step = new Upgrade_Steps( new Markers_Version() );
		$this->assertArrayHasKey( 'basemap-from-defaults', $step->all()[ CAIRN_MAPS_VERSION ] );
		$step->move_default_style_to_basemap();
		$this->assertSame( 'https://tiles.example.net/styles/old.json', get_option( Settings::BASEMAP_OPTION ) );
		$this->assertSame( Site_Defaults::builtin()['mapStyle'], get_option( Settings::DEFAULTS_OPTION )['mapStyle'] );
		$this->assertSame( 'de', get_option( Settings::DEFAULTS_OPTION )['language'], 'the rest of the defaults kept' );

		$step->move_default_style_to_basemap();
		$this->assertSame( 'https://tiles.example.net/styles/old.json', get_option( Settings::BASEMAP_OPTION ) );
		$this->assertSame( 'https://tiles.example.net/styles/old.json', Basemap::site_style() );
	}

	/**
	 * A basemap the owner already chose wins over an old default style, which is dropped.
	 */
	public function test_the_upgrade_keeps_a_basemap_already_chosen(): void {
		$this->store_old_defaults( 'mapbox://styles/mapbox/outdoors-v12', 'https://tiles.openfreemap.org/styles/bright' );
		( new Upgrade_Steps( new Markers_Version() ) )->move_default_style_to_basemap();
		$this->assertSame( 'https://tiles.openfreemap.org/styles/bright', get_option( Settings::BASEMAP_OPTION ) );
		$this->assertSame( Site_Defaults::builtin()['mapStyle'], get_option( Settings::DEFAULTS_OPTION )['mapStyle'] );
	}

	/**
	 * Choosing "Automatic" on the screen before the upgrade ran retires the old default style: the
	 * site draws the automatic basemap.
	 */
	public function test_saving_automatic_retires_an_old_default_style(): void {
		$this->store_old_defaults( 'mapbox://styles/mapbox/outdoors-v12' );
		$this->assertSame( 'mapbox://styles/mapbox/outdoors-v12', Basemap::site_style() );
		$this->act_as( 'administrator' );
		$this->assertSame( 200, $this->save( '' )->get_status() );
		$this->assertSame( Basemap::OPENFREEMAP_LIBERTY, Basemap::site_style(), 'automatic, no token' );
		$this->assertSame( '', $this->rest( 'GET', '/wp/v2/settings' )->get_data()[ Settings::BASEMAP_OPTION ] );
		$this->assertSame( 'de', get_option( Settings::DEFAULTS_OPTION )['language'] );
	}

	/**
	 * Writes the defaults as 0.6 stored them (its sanitizer accepted any style), past the
	 * current sanitizer.
	 *
	 * @param string      $style   The old default style.
	 * @param string|null $basemap A basemap stored beside it, none when null.
	 */
	private function store_old_defaults( string $style, ?string $basemap = null ): void {
		global $wpdb;
		delete_option( Settings::DEFAULTS_OPTION );
		delete_option( Settings::BASEMAP_OPTION );
		$value = array(
			'mapStyle' => $style,
			'language' => 'de',
			'controls' => Site_Defaults::builtin()['controls'],
		);
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- an old version's row, past today's sanitizer.
		$wpdb->insert(
			$wpdb->options,
			array(
				'option_name'  => Settings::DEFAULTS_OPTION,
				'option_value' => maybe_serialize( $value ),
				'autoload'     => 'on',
			)
		);
		if ( null !== $basemap ) {
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- as above.
			$wpdb->insert(
				$wpdb->options,
				array(
					'option_name'  => Settings::BASEMAP_OPTION,
					'option_value' => $basemap,
					'autoload'     => 'on',
				)
			);
		}
		wp_cache_delete( 'alloptions', 'options' );
		wp_cache_delete( Settings::DEFAULTS_OPTION, 'options' );
		wp_cache_delete( Settings::BASEMAP_OPTION, 'options' );
		wp_cache_delete( 'notoptions', 'options' );
	}
}
