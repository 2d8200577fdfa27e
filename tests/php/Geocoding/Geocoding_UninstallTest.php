<?php
/**
 * What address search stores goes when the plugin is deleted.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Geocoding;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Geocoding\Geocoder;
use Cairn\Maps\Geocoding\Rate_Limiter;
use Cairn\Maps\Tests\TestCase;
use Cairn\Maps\Uninstaller;

/**
 * The provider choice, the rate limiter's slot and the cached answers are removed by the
 * uninstaller (they share its option prefix).
 *
 * @since 0.3.0
 */
final class Geocoding_UninstallTest extends TestCase {
	use Geocoder_Fixture;

	/**
	 * Routes the providers to the fixture.
	 */
	protected function set_up(): void {
		parent::set_up();
		$this->use_geocoder_fixture();
	}

	/**
	 * After a search and a provider choice, uninstalling leaves no row of address search.
	 */
	public function test_uninstall_removes_every_row(): void {
		global $wpdb;
		$this->assertCount( 1, ( new Geocoder() )->search( 'Calton Hill' ) );
		update_option( Geocoder::OPTION, 'mapbox-permanent' );
		$count = static fn() => (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->options} WHERE option_name LIKE %s", '%' . $wpdb->esc_like( 'cairn_maps_geocode' ) . '%' ) );
		$this->assertSame( 4, $count(), 'the choice, the slot, a cached answer and its timeout' );
		$this->assertNotNull( $wpdb->get_var( $wpdb->prepare( "SELECT option_value FROM {$wpdb->options} WHERE option_name = %s", Rate_Limiter::OPTION ) ) );

		( new Uninstaller() )->run();
		$this->assertSame( 0, $count() );
	}
}
