<?php
/**
 * The site-wide rate limit on geocoding requests.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Geocoding;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Geocoding\Geocoder;
use Cairn\Maps\Geocoding\Rate_Limiter;
use Cairn\Maps\Tests\TestCase;

/**
 * At most one provider request a second for the whole site, counted at the fixture server:
 * in one process, through the route, and from several PHP processes at once.
 *
 * @since 0.3.0
 */
final class Rate_LimiterTest extends TestCase {
	use Geocoder_Fixture;

	/**
	 * Routes the providers to the fixture.
	 */
	protected function set_up(): void {
		parent::set_up();
		$this->use_geocoder_fixture();
	}

	/**
	 * A limiter on a clock of the test's own: time passes only when the test (or the limiter's
	 * wait) moves it, so the spacing is checked exactly, with no wall clock.
	 *
	 * @param float   $now   The clock, moved by the caller and by the limiter's waits.
	 * @param float[] $slept The waits, in seconds.
	 */
	private static function limiter_on( float &$now, array &$slept ): Rate_Limiter {
		return new Rate_Limiter(
			Rate_Limiter::INTERVAL,
			static function () use ( &$now ): float {
				return $now;
			},
			static function ( float $seconds ) use ( &$now, &$slept ): void {
				$slept[] = $seconds;
				$now    += $seconds;
			}
		);
	}

	/**
	 * A free slot is taken once; the next one is exactly 1.1 s away (the interval and its margin,
	 * as the class promises: issue 30's mutant took it 0.1 s early and every test accepted 1.0 s).
	 */
	public function test_a_slot_is_taken_once(): void {
		$now     = 2000000000.0;
		$slept   = array();
		$limiter = self::limiter_on( $now, $slept );
		$this->assertSame( 0.0, $limiter->next_slot() );
		$this->assertTrue( $limiter->take() );
		$this->assertEqualsWithDelta( 1.1, $limiter->next_slot(), 1e-6, 'the interval and its margin' );
		$refused = $limiter->take();
		$this->assertInstanceOf( \WP_Error::class, $refused );
		$this->assertSame( 'cairn_geocode_rate_limited', $refused->get_error_code() );
		$this->assertSame(
			array(
				'status'      => 429,
				'retry_after' => 2,
			),
			$refused->get_error_data(),
			'1.1 s rounded up'
		);
		$this->assertSame( 'Too many address searches at once on this site. Try again in 2 seconds.', $refused->get_error_message() );

		$now += 1.05;
		$this->assertInstanceOf( \WP_Error::class, $limiter->take(), '1.05 s later the slot is not free yet' );
		$this->assertTrue( $limiter->take( 0.1 ), 'waiting for it' );
		$this->assertCount( 1, $slept );
		$this->assertEqualsWithDelta( 0.05, $slept[0], 1e-6, 'it waited the 0.05 s left' );
		$this->assertEqualsWithDelta( 1.1, $limiter->next_slot(), 1e-6 );
		$this->assertInstanceOf( \WP_Error::class, $limiter->take( 0.5 ), 'a slot further away than the wait is refused at once' );
		$this->assertCount( 1, $slept, 'without waiting' );
	}

	/**
	 * Two immediate searches: the second waits for its slot (the provider sees them a second
	 * apart), or, not allowed to wait, answers 429 without a request.
	 */
	public function test_two_immediate_searches(): void {
		$geocoder = new Geocoder();
		$this->assertCount( 1, $geocoder->search( 'Royal Mile, Edinburgh' ) );
		$this->assertCount( 1, $geocoder->search( 'Calton Hill' ) );
		$requests = $this->provider_requests();
		$this->assertCount( 2, $requests );
		$this->assertGreaterThanOrEqual( 1.0, $requests[1]['time'] - $requests[0]['time'] );

		$refused = $geocoder->search( 'Arthurs Seat', 5, 0.0 );
		$this->assertInstanceOf( \WP_Error::class, $refused );
		$this->assertSame( 'cairn_geocode_rate_limited', $refused->get_error_code() );
		$this->assertCount( 2, $this->provider_requests(), 'no request over the limit' );
		$this->assertCount( 1, $geocoder->search( 'Calton Hill', 5, 0.0 ), 'a cached answer needs no slot' );
	}

	/**
	 * Through the route: immediate searches are served one second apart.
	 */
	public function test_route_waits_for_the_next_slot(): void {
		$this->act_as( 'editor' );
		foreach ( array( 'Royal Mile', 'Calton Hill', 'Brandenburger Tor' ) as $query ) {
			$this->assertSame( 200, $this->rest( 'GET', '/cairn/v1/geocode', array( 'q' => $query ) )->get_status() );
		}
		// Spacing as the provider saw it (the fixture server's stamps): never less than a second.
		$times = array_column( $this->provider_requests(), 'time' );
		$this->assertCount( 3, $times );
		$this->assertGreaterThanOrEqual( 1.0, min( $times[1] - $times[0], $times[2] - $times[1] ) );
	}

	/**
	 * A slot further away than the route waits: 429 with Retry-After, no request.
	 */
	public function test_route_answers_429_beyond_its_wait(): void {
		( new Rate_Limiter() )->defer( 12 );
		$this->act_as( 'editor' );
		$reads = 0;
		$count = static function ( $sql ) use ( &$reads ) {
			$reads += is_string( $sql ) && 0 === strpos( ltrim( $sql ), 'SELECT' ) && false !== strpos( $sql, Rate_Limiter::OPTION ) ? 1 : 0;
			return $sql;
		};
		add_filter( 'query', $count );
		$served = $this->serve( '/cairn/v1/geocode', array( 'q' => 'Royal Mile' ) );
		remove_filter( 'query', $count );
		$this->assertSame( 1, $reads, 'the slot was read once: no pointless wait and retry' );
		$this->assertSame( 429, $served['status'] );
		$this->assertSame( '12', $served['headers']['Retry-After'] );
		$this->assertSame( 'Too many address searches at once on this site. Try again in 12 seconds.', json_decode( $served['body'], true )['message'] );
		$this->assertSame( array(), $this->provider_requests() );
	}

	/**
	 * People searching take at most 6 of every 8 slots (issue 30: a stream of searches starved the
	 * import job); past that a 429 with the seconds until the window ends, while background work
	 * still gets a slot. The share is the filter's.
	 */
	public function test_a_share_of_the_slots_is_kept_for_the_import_job(): void {
		$now     = 2000000000.0;
		$slept   = array();
		$limiter = self::limiter_on( $now, $slept );
		// A search every 1.2 s (each slot free again) in a window of 8 slots (8.8 s).
		for ( $k = 0; $k < 6; $k++ ) {
			$this->assertTrue( $limiter->take( 0.0, true ), "search $k" );
			$now += 1.2;
		}
		$refused = $limiter->take( 0.0, true );
		$this->assertInstanceOf( \WP_Error::class, $refused, 'the 7th slot of the window is kept for the job' );
		$this->assertSame(
			array(
				'status'      => 429,
				'retry_after' => 2,
			),
			$refused->get_error_data(),
			'until the window ends: 8.8 − 7.2 = 1.6 s, rounded up'
		);
		$this->assertTrue( $limiter->take(), 'the import job gets the free slot' );
		$now += 1.7;
		$this->assertTrue( $limiter->take( 0.0, true ), 'a new window: people search again' );
		$this->assertSame( array(), $slept );

		$this->assertSame( 6, Rate_Limiter::editor_slots() );
		add_filter( 'cairn_maps_geocode_job_share', static fn() => 0.5 );
		$this->assertSame( 4, Rate_Limiter::editor_slots() );
		add_filter( 'cairn_maps_geocode_job_share', static fn() => 0.0 );
		$this->assertSame( 8, Rate_Limiter::editor_slots() );
		add_filter( 'cairn_maps_geocode_job_share', static fn() => 1.0 );
		$this->assertSame( 1, Rate_Limiter::editor_slots(), 'people always keep a slot' );
	}

	/**
	 * A slot stored implausibly far ahead (the clock went back) does not block search for hours.
	 */
	public function test_a_slot_far_in_the_future_is_ignored(): void {
		global $wpdb;
		$now   = 2000000000.0;
		$slept = array();
		$wpdb->insert(
			$wpdb->options,
			array(
				'option_name'  => Rate_Limiter::OPTION,
				'option_value' => sprintf( '%.6F', $now + 86400 ),
				'autoload'     => 'off',
			)
		);
		$this->assertTrue( self::limiter_on( $now, $slept )->take() );
		$this->assertEqualsWithDelta( 1.1, self::limiter_on( $now, $slept )->next_slot(), 1e-6 );
		$this->assertSame( array(), $slept );
	}
}
