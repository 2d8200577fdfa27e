<?php
/**
 * The setting `cairn_maps_directions` and the block attribute `directions`.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Settings;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Plugin;
use Cairn\Maps\Settings\Directions_Setting;
use Cairn\Maps\Tests\TestCase;

/**
 * The app of the places' "Directions" links: OpenStreetMap until the owner chooses, stored
 * through `/wp/v2/settings` only when it is one of the apps (400 otherwise, the stored choice
 * kept, as by update_option()); a map's `directions` attribute follows it (`site`) or picks its
 * own; the page's configuration, the editor's data and `posts/<id>/maps` say the same.
 *
 * @since 0.9.0
 */
final class Directions_SettingTest extends TestCase {

	/**
	 * The `directions` of the configuration a block renders.
	 *
	 * @param array<string, mixed> $attributes Block attributes.
	 */
	private static function rendered_app( array $attributes = array() ): string {
		$json = array() === $attributes ? '' : ' ' . wp_json_encode( $attributes );
		$tags = new \WP_HTML_Tag_Processor( do_blocks( "<!-- wp:cairn/map{$json} /-->" ) );
		self::assertTrue( $tags->next_tag( array( 'class_name' => 'wp-block-cairn-map' ) ) );
		$config = json_decode( (string) $tags->get_attribute( 'data-cairn-config' ), true );
		return (string) ( $config['directions'] ?? '(none)' );
	}

	/**
	 * OpenStreetMap until the owner chooses, listed in `/wp/v2/settings`; maps link to it.
	 */
	public function test_default_is_openstreetmap(): void {
		$this->act_as( 'administrator' );
		$response = $this->rest( 'GET', '/wp/v2/settings' );
		$this->assertSame( 'osm', $response->get_data()[ Directions_Setting::OPTION ] );
		$this->assertSame( 'osm', self::rendered_app() );
	}

	/**
	 * Every app, and none, is stored and reaches the page's configuration.
	 *
	 * @dataProvider apps
	 *
	 * @param string $app An app.
	 */
	public function test_administrator_chooses_an_app( string $app ): void {
		$this->act_as( 'administrator' );
		$response = $this->rest( 'POST', '/wp/v2/settings', array( Directions_Setting::OPTION => $app ) );
		$this->assertSame( 200, $response->get_status() );
		$this->assertSame( $app, get_option( Directions_Setting::OPTION ) );
		$this->assertSame( $app, self::rendered_app() );
	}

	/**
	 * The apps.
	 *
	 * @return array<string, array{string}>
	 */
	public static function apps(): array {
		return array(
			'Google Maps'     => array( 'google' ),
			'Apple Maps'      => array( 'apple' ),
			'geo: for phones' => array( 'geo' ),
			'no link'         => array( 'none' ),
			'OpenStreetMap'   => array( 'osm' ),
		);
	}

	/**
	 * Other values answer 400 with a message and leave the choice as it was, on every way in.
	 *
	 * @dataProvider refused_values
	 *
	 * @param mixed $value A refused value.
	 */
	public function test_other_values_are_refused( $value ): void {
		update_option( Directions_Setting::OPTION, 'apple' );
		$this->act_as( 'administrator' );
		$response = $this->rest( 'POST', '/wp/v2/settings', array( Directions_Setting::OPTION => $value ) );
		$this->assertSame( 400, $response->get_status() );
		$this->assertNotSame( '', (string) ( $response->get_data()['message'] ?? '' ) );
		$this->assertSame( 'apple', get_option( Directions_Setting::OPTION ) );

		update_option( Directions_Setting::OPTION, $value );
		$this->assertSame( 'apple', get_option( Directions_Setting::OPTION ), 'update_option() keeps the choice too' );
		$this->assertSame( 'apple', self::rendered_app() );
	}

	/**
	 * Values that are not an app.
	 *
	 * @return array<string, array{mixed}>
	 */
	public static function refused_values(): array {
		return array(
			'the block’s “site”' => array( 'site' ),
			'another app'        => array( 'waze' ),
			'a URL'              => array( 'https://maps.example/?to=' ),
			'empty'              => array( '' ),
			'upper case'         => array( 'OSM' ),
			'a list'             => array( array( 'osm' ) ),
			'a number'           => array( 1 ),
		);
	}

	/**
	 * Only administrators change it.
	 */
	public function test_editors_cannot_change_it(): void {
		$this->act_as( 'editor' );
		$response = $this->rest( 'POST', '/wp/v2/settings', array( Directions_Setting::OPTION => 'google' ) );
		$this->assertSame( 403, $response->get_status() );
		$this->assertSame( 'osm', Directions_Setting::chosen() );
	}

	/**
	 * A stored value no app (a database edit) is the default, never printed.
	 */
	public function test_a_stored_value_that_is_no_app_reads_as_the_default(): void {
		global $wpdb;
		update_option( Directions_Setting::OPTION, 'google' );
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- a database edit past every sanitizer.
		$wpdb->update( $wpdb->options, array( 'option_value' => '"><script>' ), array( 'option_name' => Directions_Setting::OPTION ) );
		wp_cache_delete( Directions_Setting::OPTION, 'options' );
		wp_cache_delete( 'alloptions', 'options' );
		$this->assertSame( 'osm', Directions_Setting::chosen() );
		$this->assertSame( 'osm', self::rendered_app() );
	}

	/**
	 * A map's own app wins over the site's; `site` and a value that is none follow the site.
	 */
	public function test_a_map_may_choose_its_own_app(): void {
		update_option( Directions_Setting::OPTION, 'google' );
		$this->assertSame( 'google', self::rendered_app() );
		$this->assertSame( 'google', self::rendered_app( array( 'directions' => 'site' ) ) );
		$this->assertSame( 'apple', self::rendered_app( array( 'directions' => 'apple' ) ) );
		$this->assertSame( 'none', self::rendered_app( array( 'directions' => 'none' ) ) );
		$this->assertSame( 'google', self::rendered_app( array( 'directions' => 'waze' ) ), 'an unknown app is the default: the site’s' );
		$this->assertSame( 'google', self::rendered_app( array( 'directions' => array( 'osm' ) ) ) );
	}

	/**
	 * The shortcode takes the attribute in its flat form and names a bad value.
	 */
	public function test_the_shortcode_takes_it(): void {
		update_option( Directions_Setting::OPTION, 'google' );
		$tags = new \WP_HTML_Tag_Processor( do_shortcode( '[cairn_map directions="geo"]' ) );
		$this->assertTrue( $tags->next_tag( array( 'class_name' => 'wp-block-cairn-map' ) ) );
		$this->assertSame( 'geo', json_decode( (string) $tags->get_attribute( 'data-cairn-config' ), true )['directions'] );

		$html = do_shortcode( '[cairn_map directions="waze"]' );
		$this->assertStringContainsString( 'data-cairn-error="shortcode-attribute"', $html );
		$this->assertStringContainsString( 'site, none, osm, google, apple or geo', $html );
		$this->assertStringNotContainsString( 'waze', $html );
	}

	/**
	 * A headless front end reads the block's own choice in `attributes` and the app in `config`.
	 */
	public function test_posts_maps_keep_the_attribute_and_resolve_the_app(): void {
		update_option( Directions_Setting::OPTION, 'apple' );
		$post = wp_insert_post(
			array(
				'post_title'   => 'Directions',
				'post_status'  => 'publish',
				'post_content' => '<!-- wp:cairn/map /--><!-- wp:cairn/map {"directions":"geo"} /-->',
			)
		);
		$maps = $this->rest( 'GET', "/cairn/v1/posts/{$post}/maps" )->get_data()['maps'];
		$this->assertSame( array( 'site', 'geo' ), array_column( array_column( $maps, 'attributes' ), 'directions' ) );
		$this->assertSame( array( 'apple', 'geo' ), array_column( array_column( $maps, 'config' ), 'directions' ) );
	}

	/**
	 * The editor's preview knows the site's app and the page's units.
	 */
	public function test_the_editor_knows_the_sites_app_and_units(): void {
		update_option( Directions_Setting::OPTION, 'geo' );
		$this->act_as( 'editor' );
		$script = Plugin::instance()->get( 'editor' )->inline_script();
		$data   = json_decode( substr( $script, strlen( 'window.cairnMapsEditor = ' ), -1 ), true );
		$this->assertSame( 'geo', $data['directions'] );
		foreach ( array(
			'en_US' => 'imperial',
			'de_DE' => 'metric',
		) as $locale => $units ) {
			$site_locale = static fn() => $locale;
			add_filter( 'locale', $site_locale );
			$data        = json_decode( substr( Plugin::instance()->get( 'editor' )->inline_script(), strlen( 'window.cairnMapsEditor = ' ), -1 ), true );
			$tags        = new \WP_HTML_Tag_Processor( do_blocks( '<!-- wp:cairn/map /-->' ) );
			$rendered    = $tags->next_tag( array( 'class_name' => 'wp-block-cairn-map' ) ) ? json_decode( (string) $tags->get_attribute( 'data-cairn-config' ), true ) : array();
			remove_filter( 'locale', $site_locale );
			$this->assertSame( $units, $data['units'], $locale );
			$this->assertSame( $rendered['units'] ?? null, $data['units'], "{$locale}: the page's units" );
		}
	}
}
