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
	 * A free slot is taken once; the next one is a second away.
	 */
	public function test_a_slot_is_taken_once(): void {
		$limiter = new Rate_Limiter();
		$this->assertSame( 0.0, $limiter->next_slot() );
		$this->assertTrue( $limiter->take() );
		$this->assertEqualsWithDelta( 1.1, $limiter->next_slot(), 0.1 );
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
		$start = microtime( true );
		foreach ( array( 'Royal Mile', 'Calton Hill', 'Brandenburger Tor' ) as $query ) {
			$this->assertSame( 200, $this->rest( 'GET', '/cairn/v1/geocode', array( 'q' => $query ) )->get_status() );
		}
		$this->assertGreaterThanOrEqual( 2.0, microtime( true ) - $start );
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
		$start  = microtime( true );
		$served = $this->serve( '/cairn/v1/geocode', array( 'q' => 'Royal Mile' ) );
		$this->assertLessThan( 0.5, microtime( true ) - $start, 'no pointless wait' );
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
		global $wpdb;
		$limiter = new Rate_Limiter();
		$taken   = 0;
		for ( $k = 0; $k < Rate_Limiter::WINDOW_SLOTS; $k++ ) {
			$wpdb->delete( $wpdb->options, array( 'option_name' => Rate_Limiter::OPTION ) ); // The slot is free again.
			$taken += true === $limiter->take( 0.0, true ) ? 1 : 0;
		}
		$this->assertSame( 6, $taken, 'people took 6 of the 8 slots' );
		$wpdb->delete( $wpdb->options, array( 'option_name' => Rate_Limiter::OPTION ) );
		$refused = $limiter->take( 0.0, true );
		$this->assertInstanceOf( \WP_Error::class, $refused );
		$this->assertSame( 429, $refused->get_error_data()['status'] );
		$this->assertGreaterThanOrEqual( 1, $refused->get_error_data()['retry_after'] );
		$this->assertLessThanOrEqual( 9, $refused->get_error_data()['retry_after'], 'until the 8.8 s window ends' );
		$this->assertTrue( $limiter->take(), 'the import job gets the free slot' );

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
		$wpdb->insert(
			$wpdb->options,
			array(
				'option_name'  => Rate_Limiter::OPTION,
				'option_value' => sprintf( '%.6F', microtime( true ) + 86400 ),
				'autoload'     => 'off',
			)
		);
		$this->assertTrue( ( new Rate_Limiter() )->take() );
		$this->assertEqualsWithDelta( 1.1, ( new Rate_Limiter() )->next_slot(), 0.1 );
	}

	/**
	 * Several PHP processes searching at the same moment: every search is served (each waits its
	 * turn), and the provider never sees two requests less than a second apart.
	 */
	public function test_concurrent_processes_never_exceed_one_request_a_second(): void {
		global $wpdb;
		// The workers are other connections: nothing of this test's transaction may lock the row.
		$wpdb->query( 'COMMIT' );
		$queries = array(
			array( 'Royal Mile', 'Calton Hill' ),
			array( 'Arthurs Seat', 'Brandenburger Tor' ),
			array( 'Edinburgh', 'Brandenburg Gate' ),
		);
		$start   = microtime( true ) + 2.0;
		$workers = array();
		try {
			foreach ( $queries as $index => $list ) {
				$workers[ $index ] = proc_open( // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.system_calls_proc_open -- the concurrent processes under test.
					array_merge( array( PHP_BINARY, __DIR__ . '/limiter-worker.php', sprintf( '%.6F', $start ), '10' ), $list ),
					array(
						0 => array( 'file', '/dev/null', 'r' ),
						1 => array( 'pipe', 'w' ),
						2 => array( 'pipe', 'w' ),
					),
					$pipes[ $index ],
					dirname( __DIR__, 3 ),
					array_merge(
						getenv(),
						array(
							'CAIRN_TESTS_CONFIG'          => dirname( __DIR__, 3 ) . '/.cache/wp-tests/wp-tests-config.php',
							'CAIRN_GEOCODER_FIXTURE_BASE' => self::fixture_base_url( '', 'nominatim' ),
						)
					)
				);
			}
			$answers = array();
			foreach ( $workers as $index => $worker ) {
				$out    = stream_get_contents( $pipes[ $index ][1] );
				$errors = stream_get_contents( $pipes[ $index ][2] );
				$this->assertSame( 0, proc_close( $worker ), "worker {$index} failed: {$errors}" );
				unset( $workers[ $index ] );
				$this->assertSame( '', $errors, "worker {$index} printed errors" );
				foreach ( array_filter( explode( "\n", (string) $out ) ) as $line ) {
					$answers[] = json_decode( $line, true );
				}
			}
			$this->assertCount( 6, $answers );
			$this->assertSame( array( true ), array_values( array_unique( array_column( $answers, 'ok' ) ) ), 'every search was served' );

			$times = array_column( $this->provider_requests(), 'time' );
			sort( $times );
			$this->assertCount( 6, $times, 'one provider request per search' );
			$gaps = array_map( static fn( $later, $earlier ) => $later - $earlier, array_slice( $times, 1 ), array_slice( $times, 0, -1 ) );
			fwrite( STDERR, sprintf( "\n[geocode] 3 processes × 2 searches: provider request gaps %s s; first to last %.3f s\n", implode( ', ', array_map( static fn( $gap ) => sprintf( '%.3f', $gap ), $gaps ) ), end( $times ) - $times[0] ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fwrite -- the measurement, for the record.
			$this->assertGreaterThanOrEqual( 1.0, min( $gaps ), 'never two provider requests within a second' );
		} finally {
			foreach ( $workers as $worker ) {
				proc_terminate( $worker );
			}
			$this->use_geocoder_fixture();
			$wpdb->query( 'COMMIT' );
		}
	}
}
