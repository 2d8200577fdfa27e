<?php
/**
 * The setting `cairn_maps_geocoder`.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Geocoding;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Geocoding\Geocoder;
use Cairn\Maps\Tests\TestCase;

/**
 * The provider choice through `/wp/v2/settings` and update_option(): the two providers are
 * stored, anything else is refused (400 over REST) and the stored choice stays.
 *
 * @since 0.3.0
 */
final class Geocoder_SettingTest extends TestCase {

	/**
	 * Nominatim until the owner chooses, listed in `/wp/v2/settings`.
	 */
	public function test_default_is_nominatim(): void {
		$this->act_as( 'administrator' );
		$response = $this->rest( 'GET', '/wp/v2/settings' );
		$this->assertSame( 'nominatim', $response->get_data()[ Geocoder::OPTION ] );
		$this->assertSame( 'nominatim', Geocoder::chosen() );
	}

	/**
	 * An administrator switches to Mapbox permanent geocoding and back.
	 */
	public function test_administrator_chooses_a_provider(): void {
		$this->act_as( 'administrator' );
		$response = $this->rest( 'POST', '/wp/v2/settings', array( Geocoder::OPTION => 'mapbox-permanent' ) );
		$this->assertSame( 200, $response->get_status() );
		$this->assertSame( 'mapbox-permanent', get_option( Geocoder::OPTION ) );
		$this->assertSame( '© Mapbox', ( new Geocoder() )->attribution() );
		$this->rest( 'POST', '/wp/v2/settings', array( Geocoder::OPTION => 'nominatim' ) );
		$this->assertSame( 'nominatim', get_option( Geocoder::OPTION ) );
	}

	/**
	 * Other values answer 400 and leave the choice as it was.
	 *
	 * @dataProvider refused_values
	 *
	 * @param mixed $value A refused value.
	 */
	public function test_other_values_are_refused( $value ): void {
		update_option( Geocoder::OPTION, 'mapbox-permanent' );
		$this->act_as( 'administrator' );
		$response = $this->rest( 'POST', '/wp/v2/settings', array( Geocoder::OPTION => $value ) );
		$this->assertSame( 400, $response->get_status() );
		$this->assertSame( 'mapbox-permanent', get_option( Geocoder::OPTION ) );

		update_option( Geocoder::OPTION, $value );
		$this->assertSame( 'mapbox-permanent', get_option( Geocoder::OPTION ), 'update_option() keeps the choice too' );
	}

	/**
	 * Values that are not a provider.
	 *
	 * @return array<string, array{mixed}>
	 */
	public static function refused_values(): array {
		return array(
			'temporary Mapbox geocoding' => array( 'mapbox' ),
			'Google'                     => array( 'google' ),
			'empty'                      => array( '' ),
			'upper case'                 => array( 'NOMINATIM' ),
			'a list'                     => array( array( 'nominatim' ) ),
			'a number'                   => array( 1 ),
		);
	}

	/**
	 * Only administrators change it.
	 */
	public function test_editors_cannot_change_it(): void {
		$this->act_as( 'editor' );
		$response = $this->rest( 'POST', '/wp/v2/settings', array( Geocoder::OPTION => 'mapbox-permanent' ) );
		$this->assertSame( 403, $response->get_status() );
		$this->assertSame( 'nominatim', Geocoder::chosen() );
	}
}
