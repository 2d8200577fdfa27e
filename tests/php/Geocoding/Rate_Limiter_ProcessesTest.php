<?php
/**
 * The site-wide rate limit across PHP processes that really overlap.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Geocoding;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Geocoding\Geocode_Cache;
use Cairn\Maps\Geocoding\Rate_Limiter;
use Cairn\Maps\Tests\Committed_State;
use Cairn\Maps\Tests\TestCase;

// phpcs:disable WordPress.WP.AlternativeFunctions -- the workers' throw-away folder.

/**
 * Several PHP processes searching at once (limiter-worker.php): every search is served, the
 * provider never sees two requests within a second, and the workers' events prove they ran at
 * the same time (each starts after a barrier; every start comes before any end).
 *
 * The workers are other connections with autocommit on, so this test writes nothing in its own
 * transaction (no lock of the slot's row for them to wait on) and never commits it: the rows they
 * commit (the slot, cached answers) are put back afterwards through a second connection
 * (Committed_State), and nothing leaks into later tests.
 *
 * @since 0.7.0
 */
final class Rate_Limiter_ProcessesTest extends TestCase {
	use Geocoder_Fixture;

	/**
	 * The second connection and the options to put back.
	 *
	 * @var Committed_State|null
	 */
	private ?Committed_State $committed = null;

	/**
	 * The workers' folder.
	 *
	 * @var string
	 */
	private string $folder = '';

	/**
	 * Keeps the committed options; frees the slot and forgets cached answers, committed.
	 */
	protected function set_up(): void {
		parent::set_up();
		global $wpdb;
		$this->committed = new Committed_State();
		$this->committed->capture( array( $wpdb->options ) );
		$this->folder = get_temp_dir() . 'cairn-limiter-' . wp_generate_password( 8, false );
		wp_mkdir_p( $this->folder );
		file_put_contents( self::$fixture_log, '' );
	}

	/**
	 * Rolls back, puts the committed options back, removes the folder.
	 */
	protected function tear_down(): void {
		parent::tear_down();
		if ( null !== $this->committed ) {
			$this->committed->restore();
		}
		foreach ( (array) glob( $this->folder . '/*' ) as $file ) {
			unlink( (string) $file );
		}
		if ( is_dir( $this->folder ) ) {
			rmdir( $this->folder );
		}
	}

	/**
	 * Three processes × two searches.
	 */
	public function test_concurrent_processes_never_exceed_one_request_a_second(): void {
		global $wpdb;
		$this->assertSame( '0', (string) $wpdb->get_var( 'SELECT @@autocommit' ), 'the test stays in its own transaction throughout' );
		$this->free_committed_slot();
		$queries = array(
			array( 'Royal Mile', 'Calton Hill' ),
			array( 'Arthurs Seat', 'Brandenburger Tor' ),
			array( 'Edinburgh', 'Brandenburg Gate' ),
		);
		$workers = array();
		$pipes   = array();
		try {
			foreach ( $queries as $index => $list ) {
				$workers[ $index ] = proc_open( // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.system_calls_proc_open -- the concurrent processes under test.
					array_merge( array( PHP_BINARY, __DIR__ . '/limiter-worker.php', $this->folder, (string) count( $queries ), '10' ), $list ),
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
		} finally {
			foreach ( $workers as $worker ) {
				proc_terminate( $worker );
			}
		}
		$this->assertSame( '0', (string) $wpdb->get_var( 'SELECT @@autocommit' ), 'and never committed it' );
		$this->assertCount( 6, $answers );
		$this->assertSame( array( true ), array_values( array_unique( array_column( $answers, 'ok' ) ) ), 'every search was served' );

		$events = array_map( static fn( $line ) => strtok( $line, ' ' ), (array) file( $this->folder . '/events', FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES ) );
		$this->assertSame( array( 'start', 'start', 'start', 'end', 'end', 'end' ), $events, 'the three workers overlapped: each started before any ended' );

		$times = array_column( $this->provider_requests(), 'time' );
		sort( $times );
		$this->assertCount( 6, $times, 'one provider request per search' );
		// The provider's own stamps (the fixture server's): the limit is about their spacing.
		$gaps = array_map( static fn( $later, $earlier ) => $later - $earlier, array_slice( $times, 1 ), array_slice( $times, 0, -1 ) );
		$this->assertGreaterThanOrEqual( 1.0, min( $gaps ), 'never two provider requests within a second' );
	}

	/**
	 * Frees the slot and forgets cached answers, through the second connection (committed, so the
	 * workers see it; nothing of this test's transaction locks the rows).
	 */
	private function free_committed_slot(): void {
		global $wpdb;
		$this->committed()->exec( "DELETE FROM {$wpdb->options} WHERE option_name IN ('" . Rate_Limiter::OPTION . "', '" . Rate_Limiter::SHARE_OPTION . "') OR option_name LIKE '%" . Geocode_Cache::PREFIX . "%'" );
	}

	/**
	 * The second connection.
	 */
	private function committed(): Committed_State {
		$this->assertInstanceOf( Committed_State::class, $this->committed );
		return $this->committed;
	}
}
