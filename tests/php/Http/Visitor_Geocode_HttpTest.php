<?php
/**
 * A visitor's address over real HTTP: a kept one is answered before `init`.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Http;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Geocoding\Geocode_Cache;
use Cairn\Maps\Geocoding\Geocoder;
use Cairn\Maps\Geocoding\Rate_Limiter;
use Cairn\Maps\Tests\TestCase;

/**
 * `GET /cairn/v1/geocode/visitor` from the test site served by PHP's built-in web server. An
 * address the geocoding cache keeps is answered before `init`, with the body and caching of the
 * REST route's own answer; anything else (no kept answer, a bad question, credentials, an
 * Origin, another parameter) goes on to the REST server, where the visitor's quota applies.
 *
 * @since 0.8.0
 */
final class Visitor_Geocode_HttpTest extends TestCase {

	use Web_Server;

	private const ROUTE = '/cairn/v1/geocode/visitor';

	/**
	 * Fills the cache with one address the way a visitor's first lookup does (Geocoder::search,
	 * Nominatim answered by a stand-in in this process), and commits it for the web server.
	 */
	protected function set_up(): void {
		parent::set_up();
		$this->forget_answers();
		add_filter( 'pre_http_request', array( self::class, 'nominatim' ), 10, 3 );
		$found = ( new Geocoder() )->search( 'Fort William', 1 );
		remove_filter( 'pre_http_request', array( self::class, 'nominatim' ), 10 );
		$this->assertIsArray( $found );
		$this->assertCount( 1, $found );
		global $wpdb;
		$wpdb->query( 'COMMIT' );
	}

	/**
	 * Removes the kept answers and the choice of geocoder.
	 */
	protected function tear_down(): void {
		$this->forget_answers();
		delete_option( Geocoder::OPTION );
		global $wpdb;
		$wpdb->query( 'COMMIT' );
		parent::tear_down();
	}

	/**
	 * Deletes the kept answers and frees the site-wide slot.
	 */
	private function forget_answers(): void {
		global $wpdb;
		$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->options} WHERE option_name IN (%s, %s) OR option_name LIKE %s OR option_name LIKE %s", Rate_Limiter::OPTION, Rate_Limiter::SHARE_OPTION, $wpdb->esc_like( '_transient_' . Geocode_Cache::PREFIX ) . '%', $wpdb->esc_like( '_transient_timeout_' . Geocode_Cache::PREFIX ) . '%' ) );
	}

	/**
	 * Nominatim's answer for Fort William, in this process only.
	 *
	 * @param false|array<string, mixed> $pre  A short-circuit answer so far.
	 * @param array<string, mixed>       $args Request arguments.
	 * @param string                     $url  The address asked.
	 * @return false|array<string, mixed>
	 */
	public static function nominatim( $pre, $args, $url ) {
		if ( false === strpos( (string) $url, 'nominatim.openstreetmap.org/search' ) ) {
			return $pre;
		}
		return array(
			'headers'  => array( 'content-type' => 'application/json' ),
			'body'     => (string) wp_json_encode(
				array(
					array(
						'display_name' => 'Fort William, Highland, Alba / Scotland',
						'lat'          => '56.8198',
						'lon'          => '-5.1052',
					),
				)
			),
			'response' => array(
				'code'    => 200,
				'message' => 'OK',
			),
			'cookies'  => array(),
			'filename' => null,
		);
	}

	/**
	 * The kept address comes before `init`, as the REST route gives it; with another parameter
	 * or an Origin the REST server answers the same; a bad question is the REST server's 400.
	 */
	public function test_a_kept_address_is_answered_before_init(): void {
		$early = $this->http( '/?rest_route=' . self::ROUTE . '&q=fort%20william', array( 'X-Cairn-Probe' => 'early' ) );
		$this->assertSame( 200, $early['status'], $early['body'] );
		$this->assertSame( 0, $this->probe( 'early' )['init'], 'answered before init' );
		$this->assertStringStartsWith( 'application/json', $early['headers']['content-type'] );
		$this->assertSame( 'public, max-age=86400', $early['headers']['cache-control'] );
		$this->assertSame( 'nosniff', $early['headers']['x-content-type-options'] );
		$this->assertSame( 0, $early['cookies'] );
		$data = json_decode( $early['body'], true );
		$this->assertSame( 'Fort William, Highland, Alba / Scotland', $data['results'][0]['label'] );
		$this->assertEqualsWithDelta( 56.8198, $data['results'][0]['lat'], 1e-9 );
		$this->assertEqualsWithDelta( -5.1052, $data['results'][0]['lng'], 1e-9 );

		$rest = $this->http(
			'/wp-json' . self::ROUTE . '?q=Fort%20William',
			array(
				'Origin'        => 'http://localhost:5173',
				'X-Cairn-Probe' => 'rest',
			)
		);
		$this->assertSame( 200, $rest['status'], $rest['body'] );
		$this->assertGreaterThan( 0, $this->probe( 'rest' )['init'], 'an Origin goes on to the REST server' );
		$this->assertSame( $data, json_decode( $rest['body'], true ), 'the same answer both ways' );
		$this->assertSame( $early['headers']['cache-control'], $rest['headers']['cache-control'] );

		$other = $this->http( '/?rest_route=' . self::ROUTE . '&q=Fort%20William&_fields=results', array( 'X-Cairn-Probe' => 'other' ) );
		$this->assertSame( 200, $other['status'] );
		$this->assertGreaterThan( 0, $this->probe( 'other' )['init'], 'another parameter goes on to the REST server' );

		$member = $this->http(
			'/?rest_route=' . self::ROUTE . '&q=Fort%20William',
			array(
				'Cookie'        => 'wordpress_logged_in_0123456789abcdef=someone',
				'X-Cairn-Probe' => 'member',
			)
		);
		$this->assertSame( 200, $member['status'] );
		$this->assertGreaterThan( 0, $this->probe( 'member' )['init'], 'credentials go on to the REST server' );

		$bad = $this->http( '/?rest_route=' . self::ROUTE . '&q=x', array( 'X-Cairn-Probe' => 'bad' ) );
		$this->assertSame( 400, $bad['status'] );
		$this->assertGreaterThan( 0, $this->probe( 'bad' )['init'] );
	}

	/**
	 * With Mapbox as the site's geocoder the route is not offered: no early answer, even for a
	 * kept address; the REST server's 404.
	 */
	public function test_not_offered_is_not_answered_early(): void {
		update_option( Geocoder::OPTION, 'mapbox-permanent' );
		global $wpdb;
		$wpdb->query( 'COMMIT' );
		$answer = $this->http( '/?rest_route=' . self::ROUTE . '&q=Fort%20William', array( 'X-Cairn-Probe' => 'mapbox' ) );
		$this->assertSame( 404, $answer['status'] );
		$this->assertSame( 'cairn_geocode_not_offered', json_decode( $answer['body'], true )['code'] );
		$this->assertGreaterThan( 0, $this->probe( 'mapbox' )['init'] );
	}
}
