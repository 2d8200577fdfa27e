<?php
/**
 * GET /cairn/v1/geocode/visitor ("near a place") against a local stand-in of the providers.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Geocoding;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Geocoding\Geocoder;
use Cairn\Maps\Geocoding\Rate_Limiter;
use Cairn\Maps\Geocoding\Visitor_Quota;
use Cairn\Maps\Tests\TestCase;

/**
 * Anyone may look a place up; each visitor (their IP address, hashed) has a quota of uncached
 * lookups; cached answers are free; the owner's Mapbox geocoding is never used for visitors.
 *
 * @since 0.8.0
 */
final class Visitor_GeocodeTest extends TestCase {
	use Geocoder_Fixture;

	private const ROUTE = '/cairn/v1/geocode/visitor';

	/**
	 * A visitor's address (TEST-NET-3).
	 */
	private const IP = '203.0.113.5';

	/**
	 * Routes the providers to the fixture, as an anonymous visitor.
	 */
	protected function set_up(): void {
		parent::set_up();
		$this->use_geocoder_fixture();
		global $wpdb;
		$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->options} WHERE option_name LIKE %s", '%' . $wpdb->esc_like( Visitor_Quota::PREFIX ) . '%' ) );
		wp_set_current_user( 0 );
		$_SERVER['REMOTE_ADDR'] = self::IP;
	}

	/**
	 * Clears the visitor's address.
	 */
	protected function tear_down(): void {
		unset( $_SERVER['REMOTE_ADDR'] );
		parent::tear_down();
	}

	/**
	 * Lets the next lookup have the site-wide slot (no waiting in tests).
	 */
	private function free_slot(): void {
		global $wpdb;
		$wpdb->delete( $wpdb->options, array( 'option_name' => Rate_Limiter::OPTION ) );
		$wpdb->delete( $wpdb->options, array( 'option_name' => Rate_Limiter::SHARE_OPTION ) );
	}

	/**
	 * A lookup's status.
	 *
	 * @param string $query The text.
	 */
	private function status( string $query ): int {
		$this->free_slot();
		return $this->rest( 'GET', self::ROUTE, array( 'q' => $query ) )->get_status();
	}

	/**
	 * An anonymous visitor gets the place, cacheable, with the provider's credit.
	 */
	public function test_a_visitor_finds_a_place(): void {
		$response = $this->rest( 'GET', self::ROUTE, array( 'q' => 'Edinburgh' ) );
		$this->assertSame( 200, $response->get_status() );
		$data = $response->get_data();
		$this->assertCount( 1, $data['results'] );
		$this->assertEqualsWithDelta( 55.95, $data['results'][0]['lat'], 1e-9 );
		$this->assertEqualsWithDelta( -3.1875, $data['results'][0]['lng'], 1e-9 );
		$this->assertNotSame( '', $data['attribution'] );
		$this->assertSame( 'public, max-age=86400', $response->get_headers()['Cache-Control'] );
		$this->assertSame( 200, $this->rest( 'GET', self::ROUTE, array( 'q' => 'edinburgh ' ) )->get_status() );
		$this->assertCount( 1, $this->provider_requests(), 'the second answer came from the cache' );
	}

	/**
	 * A visitor's uncached lookups are counted: past the minute's quota a 429 with Retry-After
	 * until the minute ends, past the hour's until the hour ends; cached answers stay free;
	 * another visitor has their own quota; the address itself is stored nowhere.
	 */
	public function test_a_visitor_has_a_quota_of_uncached_lookups(): void {
		$this->assertSame(
			array(
				'minute' => 5,
				'hour'   => 30,
			),
			Visitor_Quota::limits()
		);
		add_filter(
			'cairn_maps_geocode_visitor_quota',
			static fn() => array(
				'minute' => 3,
				'hour'   => 5,
			)
		);
		$queries = array( 'Calton Hill', 'Royal Mile', 'Atlantis 1', 'Atlantis 2', 'Atlantis 3', 'Atlantis 4', 'Atlantis 5' );
		for ( $k = 0; $k < 3; $k++ ) {
			$this->assertSame( 200, $this->status( $queries[ $k ] ), $queries[ $k ] );
		}
		$this->free_slot();
		$refused = $this->rest( 'GET', self::ROUTE, array( 'q' => $queries[3] ) );
		$this->assertSame( 429, $refused->get_status() );
		$this->assertSame( 'cairn_geocode_quota_exceeded', $refused->get_data()['code'] );
		$retry = (int) $refused->get_headers()['Retry-After'];
		$this->assertGreaterThan( 30, $retry, 'until the minute of the first lookup ends' );
		$this->assertLessThanOrEqual( 60, $retry );
		$this->assertSame( 200, $this->status( 'calton hill' ), 'a cached answer is free' );
		$this->assertCount( 3, $this->provider_requests(), 'the refused lookup did not reach the provider' );

		$_SERVER['REMOTE_ADDR'] = '203.0.113.6';
		$this->assertSame( 200, $this->status( $queries[3] ), 'another visitor has their own quota' );
		$_SERVER['REMOTE_ADDR'] = self::IP;

		// The minute is over (its start moved back: no waiting in the test); the hour is not.
		$key       = Visitor_Quota::PREFIX . Visitor_Quota::key( self::IP );
		$stored    = get_transient( $key );
		$stored[0] = (float) $stored[0] - 61;
		set_transient( $key, $stored, HOUR_IN_SECONDS );
		for ( $k = 4; $k < 6; $k++ ) {
			$this->assertSame( 200, $this->status( $queries[ $k ] ), $queries[ $k ] );
		}
		$this->free_slot();
		$hour = $this->rest( 'GET', self::ROUTE, array( 'q' => $queries[6] ) );
		$this->assertSame( 429, $hour->get_status(), 'five in an hour' );
		$this->assertGreaterThan( 60, (int) $hour->get_headers()['Retry-After'], 'until the hour ends' );
		$this->assertLessThanOrEqual( 3600, (int) $hour->get_headers()['Retry-After'] );
		$this->assertCount( 6, $this->provider_requests() );

		// One row per visitor, named and filled without their address.
		global $wpdb;
		$rows = $wpdb->get_results( $wpdb->prepare( "SELECT option_name, option_value FROM {$wpdb->options} WHERE option_name LIKE %s", '_transient_' . $wpdb->esc_like( Visitor_Quota::PREFIX ) . '%' ), ARRAY_A );
		$this->assertCount( 2, $rows );
		foreach ( $rows as $row ) {
			$this->assertStringNotContainsString( '203.0.113', $row['option_name'] . $row['option_value'] );
		}
	}

	/**
	 * With Mapbox as the owner's geocoder, visitors look up in their browser: the route is not
	 * offered, and nothing reaches any provider.
	 */
	public function test_not_offered_with_mapbox(): void {
		update_option( Geocoder::OPTION, 'mapbox-permanent' );
		$response = $this->rest( 'GET', self::ROUTE, array( 'q' => 'Edinburgh' ) );
		$this->assertSame( 404, $response->get_status() );
		$this->assertSame( 'cairn_geocode_not_offered', $response->get_data()['code'] );
		$this->assertCount( 0, $this->provider_requests() );
	}

	/**
	 * Bad questions answer 400 before any provider request.
	 */
	public function test_bad_questions_answer_400(): void {
		foreach ( array( array(), array( 'q' => 'x' ), array( 'q' => str_repeat( 'a', 201 ) ) ) as $query ) {
			$this->assertSame( 400, $this->rest( 'GET', self::ROUTE, $query )->get_status(), (string) wp_json_encode( $query ) );
		}
		$this->assertCount( 0, $this->provider_requests() );
	}
}
