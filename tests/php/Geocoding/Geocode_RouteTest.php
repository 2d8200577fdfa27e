<?php
/**
 * GET /cairn/v1/geocode against a local stand-in of the providers.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Geocoding;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Geocoding\Geocoder;
use Cairn\Maps\Geocoding\Rate_Limiter;
use Cairn\Maps\Geocoding\User_Quota;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Tests\TestCase;

/**
 * Who may search, what is refused before any provider request, the answer's shape for both
 * providers, the cache, and each way a provider can fail.
 *
 * @since 0.3.0
 */
final class Geocode_RouteTest extends TestCase {
	use Geocoder_Fixture;

	private const ROUTE = '/cairn/v1/geocode';

	/**
	 * A public token of the right shape (the fixture only checks the shape).
	 */
	private const TOKEN = 'pk.eyJ1IjoiY2Fpcm4tdGVzdHMiLCJhIjoiZml4dHVyZSJ9.c2lnbmF0dXJlLW9mLXRoZS10ZXN0';

	/**
	 * Routes the providers to the fixture.
	 */
	protected function set_up(): void {
		parent::set_up();
		$this->use_geocoder_fixture();
	}

	/**
	 * Only people who can write posts may search; nobody else reaches the provider.
	 *
	 * @dataProvider roles
	 *
	 * @param string $role   Role, or anonymous.
	 * @param int    $status Expected status.
	 */
	public function test_only_writers_may_search( string $role, int $status ): void {
		$this->act_as( $role );
		$response = $this->rest( 'GET', self::ROUTE, array( 'q' => 'Royal Mile, Edinburgh' ) );
		$this->assertSame( $status, $response->get_status() );
		$this->assertCount( 200 === $status ? 1 : 0, $this->provider_requests() );
	}

	/**
	 * Roles and their answers.
	 *
	 * @return array<string, array{string, int}>
	 */
	public static function roles(): array {
		return array(
			'anonymous'     => array( 'anonymous', 401 ),
			'subscriber'    => array( 'subscriber', 403 ),
			'contributor'   => array( 'contributor', 200 ),
			'author'        => array( 'author', 200 ),
			'administrator' => array( 'administrator', 200 ),
		);
	}

	/**
	 * Bad questions answer 400 and never reach the provider.
	 *
	 * @dataProvider invalid_requests
	 *
	 * @param array<string, mixed> $params Query.
	 */
	public function test_invalid_requests_are_refused_before_the_provider( array $params ): void {
		$this->act_as( 'editor' );
		$response = $this->rest( 'GET', self::ROUTE, $params );
		$this->assertSame( 400, $response->get_status() );
		$this->assertNotSame( '', $response->get_data()['message'] ?? '', 'the answer explains the refusal' );
		$this->assertSame( array(), $this->provider_requests() );
	}

	/**
	 * Requests that must be refused.
	 *
	 * @return array<string, array{array<string, mixed>}>
	 */
	public static function invalid_requests(): array {
		return array(
			'nothing asked'          => array( array() ),
			'empty'                  => array( array( 'q' => '' ) ),
			'only spaces'            => array( array( 'q' => "   \t  " ) ),
			'one character'          => array( array( 'q' => ' a ' ) ),
			'201 characters'         => array( array( 'q' => str_repeat( 'é', 201 ) ) ),
			'only tags'              => array( array( 'q' => '<b></b>' ) ),
			'a list'                 => array( array( 'q' => array( 'Royal Mile' ) ) ),
			'both kinds'             => array(
				array(
					'q'   => 'Royal Mile',
					'lat' => 55.95,
					'lng' => -3.1875,
				),
			),
			'latitude alone'         => array( array( 'lat' => 55.95 ) ),
			'longitude alone'        => array( array( 'lng' => -3.1875 ) ),
			'latitude out of range'  => array(
				array(
					'lat' => 90.5,
					'lng' => 0,
				),
			),
			'longitude out of range' => array(
				array(
					'lat' => 0,
					'lng' => -180.01,
				),
			),
			'latitude not a number'  => array(
				array(
					'lat' => 'north',
					'lng' => 0,
				),
			),
			'limit zero'             => array(
				array(
					'q'     => 'Edinburgh',
					'limit' => 0,
				),
			),
			'limit above the most'   => array(
				array(
					'q'     => 'Edinburgh',
					'limit' => 11,
				),
			),
		);
	}

	/**
	 * A search answers labelled places with numbers for coordinates, best first, and the credit.
	 */
	public function test_search_answers_places_and_attribution(): void {
		$this->act_as( 'author' );
		$response = $this->rest( 'GET', self::ROUTE, array( 'q' => '  Royal   Mile, Edinburgh ' ) );
		$this->assertSame( 200, $response->get_status() );
		$this->assertSame(
			array(
				'results'         => array(
					array(
						'label' => 'Royal Mile, Old Town, Edinburgh, City of Edinburgh, Scotland, EH1 1RE, United Kingdom',
						'lat'   => 55.95,
						'lng'   => -3.1875,
					),
				),
				'attribution'     => '© OpenStreetMap contributors (ODbL)',
				'attribution_url' => 'https://www.openstreetmap.org/copyright',
			),
			$response->get_data()
		);
		$requests = $this->provider_requests();
		$this->assertCount( 1, $requests );
		$this->assertSame( 'Royal Mile, Edinburgh', $requests[0]['params']['q'], 'whitespace is collapsed before asking' );
		$this->assertSame( 'jsonv2', $requests[0]['params']['format'] );
		$this->assertSame( 'en-US', $requests[0]['params']['accept-language'] );
		$this->assertSame( 'Cairn Maps/' . CAIRN_MAPS_VERSION . ' (' . home_url( '/' ) . ')', $requests[0]['user_agent'], 'the site identifies itself, as Nominatim asks' );
	}

	/**
	 * `limit` caps the results; a search that finds nothing is an empty list, not an error.
	 */
	public function test_limit_and_nothing_found(): void {
		$this->act_as( 'editor' );
		$five = $this->rest( 'GET', self::ROUTE, array( 'q' => 'Edinburgh' ) )->get_data();
		$this->assertCount( 5, $five['results'] );
		$this->assertSame( 'Calton Hill, New Town, Edinburgh, City of Edinburgh, Scotland, EH7 5AA, United Kingdom', $five['results'][1]['label'] );
		$this->assertEqualsWithDelta( -37.0675, $five['results'][4]['lat'], 1e-9 );

		$two = $this->rest(
			'GET',
			self::ROUTE,
			array(
				'q'     => 'Edinburgh',
				'limit' => 2,
			)
		)->get_data();
		$this->assertSame( array_slice( $five['results'], 0, 2 ), $two['results'] );

		$none = $this->rest( 'GET', self::ROUTE, array( 'q' => 'Atlantis, Lost City' ) );
		$this->assertSame( 200, $none->get_status() );
		$this->assertSame( array(), $none->get_data()['results'] );
	}

	/**
	 * `lat` and `lng` find the address of a place; empty sea finds nothing.
	 */
	public function test_reverse_lookup(): void {
		$this->act_as( 'editor' );
		$response = $this->rest(
			'GET',
			self::ROUTE,
			array(
				'lat' => '55.9553',
				'lng' => '-3.1826',
			)
		);
		$this->assertSame( 200, $response->get_status() );
		$this->assertSame( 'Calton Hill, New Town, Edinburgh, City of Edinburgh, Scotland, EH7 5AA, United Kingdom', $response->get_data()['results'][0]['label'] );
		$this->assertCount( 1, $response->get_data()['results'] );
		$this->assertSame( 'reverse', $this->provider_requests()[0]['endpoint'] );

		$sea = $this->rest(
			'GET',
			self::ROUTE,
			array(
				'lat' => 0,
				'lng' => 0,
			)
		);
		$this->assertSame( 200, $sea->get_status() );
		$this->assertSame( array(), $sea->get_data()['results'] );
	}

	/**
	 * Asking again (any case, any spacing) is answered from the cache: no second provider request
	 * and no wait for the rate limit. "Nothing found" is cached too.
	 */
	public function test_repeated_questions_come_from_the_cache(): void {
		$this->act_as( 'editor' );
		$first   = $this->rest( 'GET', self::ROUTE, array( 'q' => 'Calton Hill' ) )->get_data();
		$limiter = 0;
		$count   = static function ( $sql ) use ( &$limiter ) {
			$limiter += is_string( $sql ) && false !== strpos( $sql, Rate_Limiter::OPTION ) ? 1 : 0;
			return $sql;
		};
		add_filter( 'query', $count );
		$again = $this->rest( 'GET', self::ROUTE, array( 'q' => ' calton   HILL ' ) )->get_data();
		remove_filter( 'query', $count );
		$this->assertSame( 0, $limiter, 'a cached answer does not touch the rate limit (so never waits for it)' );
		$this->assertSame( $first, $again );
		$this->assertCount( 1, $this->provider_requests() );

		$this->rest( 'GET', self::ROUTE, array( 'q' => 'Atlantis, Lost City' ) );
		$this->rest( 'GET', self::ROUTE, array( 'q' => 'atlantis, lost city' ) );
		$this->rest(
			'GET',
			self::ROUTE,
			array(
				'lat' => 55.95,
				'lng' => -3.1875,
			)
		);
		$this->rest(
			'GET',
			self::ROUTE,
			array(
				'lat' => '55.950000',
				'lng' => '-3.18750',
			)
		);
		$this->assertCount( 3, $this->provider_requests() );
	}

	/**
	 * Each way a provider fails is a clear error with its status, no PHP warning, nothing cached.
	 *
	 * @dataProvider provider_failures
	 *
	 * @param string $query  Question the fixture fails on.
	 * @param int    $status Expected status.
	 */
	public function test_provider_failures( string $query, int $status ): void {
		add_filter( 'http_request_args', array( $this, 'short_timeout' ) );
		$this->act_as( 'editor' );
		$response = $this->rest( 'GET', self::ROUTE, array( 'q' => $query ) );
		$this->assertSame( $status, $response->get_status() );
		$this->assertSame( 'cairn_geocode_unavailable', $response->get_data()['code'] );
		$message = $response->get_data()['message'];
		$this->assertStringContainsString( 'address search service', $message );
		$this->assertStringNotContainsString( 'localhost', $message, 'no address of the service in the message' );
		$this->assertCount( 1, $this->provider_requests() );
	}

	/**
	 * Failures of the fixture and their statuses.
	 *
	 * @return array<string, array{string, int}>
	 */
	public static function provider_failures(): array {
		return array(
			'500'                   => array( 'fixture 500', 502 ),
			'401'                   => array( 'fixture 401', 502 ),
			'HTML instead of JSON'  => array( 'fixture garbage', 502 ),
			'JSON of another shape' => array( 'fixture wrong shape', 502 ),
			'no answer in time'     => array( 'fixture timeout', 504 ),
			'429'                   => array( 'fixture 429', 503 ),
		);
	}

	/**
	 * The geocoder follows no redirect (issue 30: it followed two): a provider's 302 is a failed
	 * answer, and the address it points to is never asked.
	 */
	public function test_a_redirect_is_not_followed(): void {
		$this->act_as( 'editor' );
		$response = $this->rest( 'GET', self::ROUTE, array( 'q' => 'fixture redirect' ) );
		$this->assertSame( 502, $response->get_status(), (string) wp_json_encode( $response->get_data() ) );
		$this->assertSame( 'cairn_geocode_unavailable', $response->get_data()['code'] );
		$requests = $this->provider_requests();
		$this->assertCount( 1, $requests, 'only the first address reached the server' );
		$this->assertSame( 'fixture redirect', $requests[0]['params']['q'] );
	}

	/**
	 * A person's uncached lookups are counted (issue 30: a contributor's stream of distinct queries
	 * was a stream of provider requests): past the minute's quota a 429 with Retry-After until the
	 * minute ends, past the day's one until the day ends; cached answers stay free, and another
	 * person has a quota of their own.
	 */
	public function test_a_person_has_a_quota_of_uncached_lookups(): void {
		add_filter(
			'cairn_maps_geocode_user_quota',
			static fn() => array(
				'minute' => 3,
				'day'    => 5,
			)
		);
		$contributor = $this->act_as( 'contributor' );
		$queries     = array( 'Calton Hill', 'Royal Mile', 'Atlantis 1', 'Atlantis 2', 'Atlantis 3', 'Atlantis 4', 'Atlantis 5' );
		for ( $k = 0; $k < 3; $k++ ) {
			$this->free_slot();
			$this->assertSame( 200, $this->rest( 'GET', self::ROUTE, array( 'q' => $queries[ $k ] ) )->get_status(), $queries[ $k ] );
		}
		$this->free_slot();
		$refused = $this->serve( self::ROUTE, array( 'q' => $queries[3] ) );
		$this->assertSame( 429, $refused['status'] );
		$this->assertSame( 'cairn_geocode_quota_exceeded', json_decode( $refused['body'], true )['code'] );
		$this->assertGreaterThan( 30, (int) $refused['headers']['Retry-After'], 'until the minute of the first lookup ends' );
		$this->assertLessThanOrEqual( 60, (int) $refused['headers']['Retry-After'] );
		$this->assertSame( 200, $this->rest( 'GET', self::ROUTE, array( 'q' => 'calton hill' ) )->get_status(), 'a cached answer is free' );
		$this->assertCount( 3, $this->provider_requests(), 'the refused lookup did not reach the provider' );

		$this->act_as( 'author' );
		$this->free_slot();
		$this->assertSame( 200, $this->rest( 'GET', self::ROUTE, array( 'q' => $queries[3] ) )->get_status(), 'another person has their own quota' );

		// The minute is over (its start moved back: no waiting in the test); the day is not.
		wp_set_current_user( $contributor );
		$stored    = get_user_meta( $contributor, User_Quota::META, true );
		$stored[0] = (float) $stored[0] - 61;
		update_user_meta( $contributor, User_Quota::META, $stored );
		for ( $k = 4; $k < 6; $k++ ) {
			$this->free_slot();
			$this->assertSame( 200, $this->rest( 'GET', self::ROUTE, array( 'q' => $queries[ $k ] ) )->get_status(), $queries[ $k ] );
		}
		$this->free_slot();
		$day = $this->serve( self::ROUTE, array( 'q' => $queries[6] ) );
		$this->assertSame( 429, $day['status'], 'five in a day' );
		$this->assertGreaterThan( 3600, (int) $day['headers']['Retry-After'], 'until the day ends' );
		$this->assertCount( 6, $this->provider_requests() );
	}

	/**
	 * The quota is the filter's, per person, and background work (no user) has none.
	 */
	public function test_the_quota_is_filterable_and_background_work_has_none(): void {
		$this->assertSame(
			array(
				'minute' => User_Quota::PER_MINUTE,
				'day'    => User_Quota::PER_DAY,
			),
			User_Quota::limits( 7 )
		);
		add_filter(
			'cairn_maps_geocode_user_quota',
			static fn( $limits, $user ) => 7 === $user ? array(
				'minute' => 0,
				'day'    => 0,
			) : $limits,
			10,
			2
		);
		$quota = new User_Quota();
		$this->assertInstanceOf( \WP_Error::class, $quota->refusal( 7 ) );
		$this->assertNull( $quota->refusal( 8 ) );
		$geocoder = new Geocoder();
		$this->assertInstanceOf( \WP_Error::class, $geocoder->for_user( 7 )->search( 'Calton Hill', 1, 0.0 ) );
		$this->assertIsArray( $geocoder->search( 'Calton Hill', 1, 0.0 ), 'the import job (no user) is not counted' );
		$this->assertCount( 1, $this->provider_requests() );
	}

	/**
	 * Errors are not cached: the same question asks the provider again.
	 */
	public function test_errors_are_not_cached(): void {
		$this->act_as( 'editor' );
		$this->assertSame( 502, $this->rest( 'GET', self::ROUTE, array( 'q' => 'fixture 500' ) )->get_status() );
		$this->assertSame( 502, $this->rest( 'GET', self::ROUTE, array( 'q' => 'fixture 500' ) )->get_status() );
		$this->assertCount( 2, $this->provider_requests() );
	}

	/**
	 * A provider's 429 pauses the whole site for its Retry-After: the next search answers 429 with
	 * Retry-After and a message, without asking the provider.
	 */
	public function test_a_provider_429_pauses_searches(): void {
		$this->act_as( 'editor' );
		$this->assertSame( 503, $this->rest( 'GET', self::ROUTE, array( 'q' => 'fixture 429' ) )->get_status() );
		$served = $this->serve( self::ROUTE, array( 'q' => 'Calton Hill' ) );
		$this->assertSame( 429, $served['status'] );
		$this->assertContains( (int) $served['headers']['Retry-After'], array( 29, 30 ) );
		$body = json_decode( $served['body'], true );
		$this->assertSame( 'cairn_geocode_rate_limited', $body['code'] );
		$this->assertMatchesRegularExpression( '/Try again in (29|30) seconds\./', $body['message'] );
		$this->assertCount( 1, $this->provider_requests() );
	}

	/**
	 * Places without a label or with coordinates out of range are dropped, the others kept.
	 */
	public function test_places_out_of_range_are_dropped(): void {
		$this->act_as( 'editor' );
		$results = $this->rest( 'GET', self::ROUTE, array( 'q' => 'fixture bad coordinates' ) )->get_data()['results'];
		$this->assertCount( 1, $results );
		$this->assertSame( 55.95, $results[0]['lat'] );
	}

	/**
	 * Mapbox permanent geocoding: the site's public token and `permanent=true` are sent; the token
	 * never appears in an answer or an error.
	 */
	public function test_mapbox_permanent(): void {
		update_option( Geocoder::OPTION, 'mapbox-permanent' );
		update_option( Settings::TOKEN_OPTION, self::TOKEN );
		$this->act_as( 'editor' );
		$served = $this->serve(
			self::ROUTE,
			array(
				'q'     => 'Edinburgh',
				'limit' => '2',
			)
		);
		$this->assertSame( 200, $served['status'] );
		$data = json_decode( $served['body'], true );
		$this->assertSame( '© Mapbox', $data['attribution'] );
		$this->assertSame(
			array(
				'label' => 'Royal Mile, Old Town, Edinburgh, City of Edinburgh, Scotland, EH1 1RE, United Kingdom',
				'lat'   => 55.95,
				'lng'   => -3.1875,
			),
			$data['results'][0]
		);
		$this->assertCount( 2, $data['results'] );
		$request = $this->provider_requests()[0];
		$this->assertSame( array( 'mapbox', 'forward' ), array( $request['provider'], $request['endpoint'] ) );
		$this->assertSame( 'true', $request['params']['permanent'] );
		$this->assertSame( 'present', $request['params']['access_token'] );
		$this->assertSame( 'en', $request['params']['language'] );

		$reverse         = $this->serve(
			self::ROUTE,
			array(
				'lat' => '55.9441',
				'lng' => '-3.1618',
			)
		);
		$reverse_results = json_decode( $reverse['body'], true )['results'];
		$this->assertCount( 1, $reverse_results, 'the most specific place only' );
		$this->assertStringStartsWith( 'Arthur’s Seat', $reverse_results[0]['label'] );
		$this->assertArrayNotHasKey( 'limit', $this->provider_requests()[1]['params'], 'Mapbox refuses a reverse limit without a single type' );
		foreach ( array( 'fixture 500', 'fixture 401', 'fixture garbage' ) as $query ) {
			$failed = $this->serve( self::ROUTE, array( 'q' => $query ) );
			$this->assertSame( 502, $failed['status'] );
			$this->assertStringNotContainsString( self::TOKEN, $failed['body'] );
			$this->assertStringNotContainsString( 'localhost', $failed['body'] );
		}
		$this->assertStringNotContainsString( self::TOKEN, $served['body'] . $reverse['body'] );
	}

	/**
	 * Without a token, Mapbox is never asked and the answer says what to do.
	 */
	public function test_mapbox_without_a_token(): void {
		update_option( Geocoder::OPTION, 'mapbox-permanent' );
		delete_option( Settings::TOKEN_OPTION );
		$this->act_as( 'editor' );
		$response = $this->rest( 'GET', self::ROUTE, array( 'q' => 'Calton Hill' ) );
		$this->assertSame( 503, $response->get_status() );
		$this->assertStringContainsString( 'access token', $response->get_data()['message'] );
		$this->assertSame( array(), $this->provider_requests() );
	}

	/**
	 * Answers are kept per provider: switching provider asks the new one.
	 */
	public function test_the_cache_is_per_provider(): void {
		update_option( Settings::TOKEN_OPTION, self::TOKEN );
		$this->act_as( 'editor' );
		$this->rest( 'GET', self::ROUTE, array( 'q' => 'Brandenburger Tor' ) );
		update_option( Geocoder::OPTION, 'mapbox-permanent' );
		// A free slot now, so that the test does not wait for the rate limit.
		$this->free_slot();
		$this->rest( 'GET', self::ROUTE, array( 'q' => 'Brandenburger Tor' ) );
		$this->assertSame( array( 'nominatim', 'mapbox' ), array_column( $this->provider_requests(), 'provider' ) );
	}

	/**
	 * A one-second timeout for the fixture's slow answer.
	 *
	 * @param array<string, mixed> $args Request arguments.
	 * @return array<string, mixed>
	 */
	public function short_timeout( array $args ): array {
		$args['timeout'] = 1;
		return $args;
	}

	/**
	 * Empties the rate limiter's slot.
	 */
	private function free_slot(): void {
		global $wpdb;
		$wpdb->delete( $wpdb->options, array( 'option_name' => Rate_Limiter::OPTION ) );
		$wpdb->delete( $wpdb->options, array( 'option_name' => Rate_Limiter::SHARE_OPTION ) );
	}
}
