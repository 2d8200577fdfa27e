<?php
/**
 * The background job that geocodes imported addresses, against the geocoder fixture.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Import_Export;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Import_Export\Geocode_Job;
use Cairn\Maps\Import_Export\Geocode_Queue;
use Cairn\Maps\Import_Export\Marker_Import;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Tests\Geocoding\Geocoder_Fixture;
use Cairn\Maps\Tests\TestCase;

require_once dirname( __DIR__ ) . '/Geocoding/Geocoder_Fixture.php';

/**
 * What the job does with the queue: found addresses published at the provider's coordinates,
 * the others reported with their CSV line, never a request over the site's rate limit, and
 * nothing geocoded twice or lost when a run stops half-way or the schedule is lost.
 *
 * @since 0.3.0
 */
final class Geocode_JobTest extends TestCase {

	use Geocoder_Fixture;

	/**
	 * Routes the providers to the fixture.
	 */
	protected function set_up(): void {
		parent::set_up();
		$this->use_geocoder_fixture();
		wp_clear_scheduled_hook( Geocode_Job::HOOK );
		delete_option( Geocode_Queue::OPTION );
	}

	/**
	 * Imports a CSV file as an editor.
	 *
	 * @param string $csv File content.
	 * @return array<string, mixed>
	 */
	private function import( string $csv ): array {
		$this->act_as( 'editor' );
		$result = ( new Marker_Import() )->import( $csv, 'csv' );
		$this->assertIsArray( $result, is_wp_error( $result ) ? $result->get_error_message() : '' );
		return $result;
	}

	/**
	 * A new job (a new Geocoder: fresh limiter and cache objects, as in a new cron request).
	 */
	private function job(): Geocode_Job {
		return new Geocode_Job( new Geocode_Queue(), new Markers_Version() );
	}

	/**
	 * A marker by title: status and coordinates.
	 *
	 * @param string $title Title.
	 * @return array{status: string, lat: string, lng: string}
	 */
	private function marker( string $title ): array {
		$posts = get_posts(
			array(
				'post_type'      => Post_Type::POST_TYPE,
				'post_status'    => 'any',
				'title'          => $title,
				'posts_per_page' => 1,
			)
		);
		$this->assertCount( 1, $posts, $title );
		return array(
			'status' => $posts[0]->post_status,
			'lat'    => (string) get_post_meta( $posts[0]->ID, Post_Type::META_LAT, true ),
			'lng'    => (string) get_post_meta( $posts[0]->ID, Post_Type::META_LNG, true ),
		);
	}

	/**
	 * The search queries that reached the provider, in order.
	 *
	 * @return string[]
	 */
	private function queries(): array {
		return array_map( static fn( array $request ): string => (string) ( $request['params']['q'] ?? '' ), $this->provider_requests() );
	}

	/**
	 * Asserts that no two provider requests were less than the limiter's second apart.
	 */
	private function assert_within_the_limit(): void {
		$times = array_column( $this->provider_requests(), 'time' );
		$count = count( $times );
		for ( $i = 1; $i < $count; $i++ ) {
			$this->assertGreaterThanOrEqual( 1.0, $times[ $i ] - $times[ $i - 1 ], 'requests ' . ( $i - 1 ) . ' and ' . $i . ' were less than a second apart' );
		}
	}

	/**
	 * Found addresses are published at the fixture's coordinates; an address nobody knows stays a
	 * draft and is reported with its line; the job ends; the rate limit holds, also against an
	 * editor's search made just before.
	 */
	public function test_found_rows_are_published_and_the_others_reported(): void {
		$this->import(
			"title,lat,lng,address\n"
			. "Castle,55.9486,-3.1999,\n"                  // Line 2: coordinates, no request.
			. "Mile,,,\"Royal Mile, Edinburgh\"\n"        // Line 3.
			. "Nowhere,,,Nowhere at all 12345\n"           // Line 4.
			. "Hill,,,Calton Hill\n"                       // Line 5.
			. "Mile again,,,\"royal mile,  EDINBURGH\"\n"  // Line 6 (a spaced, upper-case twin).
		);
		// An editor's address search takes the site's slot just before the run.
		$this->act_as( 'editor' );
		$this->assertSame( 200, $this->rest( 'GET', '/cairn/v1/geocode', array( 'q' => 'Brandenburger Tor' ) )->get_status() );

		$stats = $this->job()->run( 15 );

		$this->assertSame( array( 'Brandenburger Tor', 'Royal Mile, Edinburgh', 'Nowhere at all 12345', 'Calton Hill' ), $this->queries(), 'the twin came from the cache' );
		$this->assert_within_the_limit();
		$this->assertSame( 3, $stats['found'] );
		$this->assertSame( 1, $stats['failed'] );

		$this->assertSame(
			array(
				'status' => 'publish',
				'lat'    => '55.95',
				'lng'    => '-3.1875',
			),
			$this->marker( 'Mile' )
		);
		$this->assertSame( 'publish', $this->marker( 'Mile again' )['status'] );
		$this->assertSame( array( 'publish', '55.9553', '-3.1826' ), array_values( $this->marker( 'Hill' ) ) );
		$this->assertSame( array( 'draft', '', '' ), array_values( $this->marker( 'Nowhere' ) ), 'never published without coordinates' );

		$queue    = new Geocode_Queue();
		$progress = $queue->progress();
		$this->assertSame( array( 'done', 4, 4, 1, 0 ), array( $progress['state'], $progress['total'], $progress['done'], $progress['not_found'], $progress['pending'] ) );
		$report = $queue->report();
		$this->assertCount( 1, $report );
		$this->assertSame( array( 4, 'Nowhere', 'Nowhere at all 12345', 'not_found' ), array( $report[0]['line'], $report[0]['title'], $report[0]['address'], $report[0]['reason'] ) );
		$this->assertStringContainsString( 'not found', $report[0]['message'] );
		$this->assertFalse( wp_next_scheduled( Geocode_Job::HOOK ), 'nothing left to schedule' );

		// The feed shows the published markers, not the draft.
		$titles = array_column( array_column( $this->rest( 'GET', '/cairn/v1/markers' )->get_data()['features'], 'properties' ), 'title' );
		sort( $titles );
		$this->assertSame( array( 'Castle', 'Hill', 'Mile', 'Mile again' ), $titles );
	}

	/**
	 * A run that stops half-way (its time is up) leaves the rest queued and scheduled; the next
	 * run, after the schedule and the caches were lost (a deactivation, a new process), finishes:
	 * every address asked once, none lost. A run that finds another run's lock does nothing; a
	 * lock left by a run that died expires.
	 */
	public function test_an_interrupted_job_resumes_without_repeating_or_losing_rows(): void {
		$addresses = array( 'Royal Mile, Edinburgh', 'Calton Hill', "Arthur's Seat", 'Brandenburger Tor', 'Nowhere at all 12345' );
		$csv       = "title,address\n";
		foreach ( $addresses as $index => $address ) {
			$csv .= 'Place ' . $index . ',"' . $address . "\"\n";
		}
		$this->import( $csv );

		// A run with 2.5 s: about two requests at one a second, then it stops.
		$first = $this->job()->run( 2.5 );
		$this->assertGreaterThanOrEqual( 1, $first['found'] );
		$this->assertLessThan( 5, $first['found'] + $first['failed'], 'the run stopped half-way' );
		$queue = new Geocode_Queue();
		$this->assertTrue( $queue->is_running() );
		$this->assertSame( 5 - $first['found'] - $first['failed'], $queue->pending() );
		$this->assertNotFalse( wp_next_scheduled( Geocode_Job::HOOK ), 'the next run is scheduled' );

		// Deactivating loses the scheduled event, and a new request has empty caches.
		wp_clear_scheduled_hook( Geocode_Job::HOOK );
		global $wpdb;
		$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->options} WHERE option_name LIKE %s", $wpdb->esc_like( '_transient_cairn_maps_geocode_' ) . '%' ) );
		wp_cache_flush();
		$this->job()->resume();
		$this->assertNotFalse( wp_next_scheduled( Geocode_Job::HOOK ), 'resume() schedules the job again' );

		// Another run holds the lock: nothing happens.
		update_option( Geocode_Job::LOCK_OPTION, sprintf( '%010d.other', time() + 60 ), false );
		$locked = $this->job()->run( 10 );
		$this->assertTrue( $locked['locked'] );
		$this->assertCount( $first['found'] + $first['failed'], $this->provider_requests(), 'no request while another run works' );

		// That run died: its lock expires.
		update_option( Geocode_Job::LOCK_OPTION, sprintf( '%010d.other', time() - 1 ), false );
		wp_cache_flush();
		$second = $this->job()->run( 15 );
		$this->assertFalse( $second['locked'] );

		$this->assertSame( $addresses, $this->queries(), 'each address asked once, in file order' );
		$this->assert_within_the_limit();
		$this->assertSame( 4, $first['found'] + $second['found'] );
		$this->assertSame( 1, $first['failed'] + $second['failed'] );
		$this->assertSame( 'done', $queue->progress()['state'] );
		foreach ( array( 0, 1, 2, 3 ) as $index ) {
			$this->assertSame( 'publish', $this->marker( 'Place ' . $index )['status'] );
		}
		$this->assertSame( 'draft', $this->marker( 'Place 4' )['status'] );
	}

	/**
	 * A provider answering 500 or garbage: the row is tried again later (within the limit), then
	 * reported after MAX_TRIES; an address the geocoder refuses is reported at once.
	 */
	public function test_provider_failures_are_retried_then_reported(): void {
		add_filter( 'cairn_maps_geocode_retry_delay', '__return_zero' );
		$this->import( "title,address\nBroken,fixture 500\nGarbage,fixture garbage\nGood,Calton Hill\n" );

		$queue = new Geocode_Queue();
		for ( $run = 0; $run < 6; $run++ ) {
			if ( ! $queue->is_running() ) {
				break;
			}
			$this->job()->run( 15 );
		}

		$queries = $this->queries();
		$this->assertSame( Geocode_Job::MAX_TRIES, count( array_keys( $queries, 'fixture 500', true ) ) );
		$this->assertSame( Geocode_Job::MAX_TRIES, count( array_keys( $queries, 'fixture garbage', true ) ) );
		$this->assertSame( 1, count( array_keys( $queries, 'Calton Hill', true ) ) );
		$this->assert_within_the_limit();

		$this->assertSame( 'publish', $this->marker( 'Good' )['status'] );
		$report = ( new Geocode_Queue() )->report();
		$this->assertSame( array( 'Broken', 'Garbage' ), array_column( $report, 'title' ) );
		$this->assertSame( array( 'unavailable', 'unavailable' ), array_column( $report, 'reason' ) );
		$this->assertSame( array( 2, 3 ), array_column( $report, 'line' ) );
	}

	/**
	 * Progress and cancelling over REST: who may, what is answered, and a cancelled job sends no
	 * further request; its drafts stay, reported as not tried.
	 */
	public function test_progress_and_cancel_over_rest(): void {
		$this->import( "title,address\nA,Calton Hill\nB,Royal Mile\nC,Brandenburger Tor\n" );
		$route = '/cairn/v1/markers/import/geocoding';

		$this->act_as( 'author' );
		$this->assertSame( 403, $this->rest( 'GET', $route )->get_status() );
		$this->assertSame( 403, $this->rest( 'DELETE', $route )->get_status() );
		$this->act_as( 'anonymous' );
		$this->assertSame( 401, $this->rest( 'GET', $route )->get_status() );

		$this->act_as( 'editor' );
		$answer = $this->rest( 'GET', $route );
		$this->assertSame( 200, $answer->get_status() );
		$this->assertSame( 'Geocoding addresses: 0 of 3 done, 0 not found.', $answer->get_data()['summary'] );
		$this->assertSame( 'no-store', $answer->get_headers()['Cache-Control'] );

		$this->job()->run( 0.5 ); // One request at most.
		$asked = count( $this->provider_requests() );

		$cancelled = $this->rest( 'DELETE', $route );
		$this->assertSame( 200, $cancelled->get_status() );
		$data = $cancelled->get_data();
		$this->assertSame( 'cancelled', $data['state'] );
		$this->assertSame( 3 - $asked, $data['cancelled'] );
		$this->assertSame( sprintf( 'Geocoding cancelled: %d of 3 done, 0 not found, %d not tried.', $asked, 3 - $asked ), $data['summary'] );
		$this->assertCount( 3 - $asked, $data['report'] );
		$this->assertSame( 'cancelled', $data['report'][0]['reason'] );
		$this->assertStringContainsString( 'post.php?post=', $data['report'][0]['edit_link'] );
		$this->assertFalse( wp_next_scheduled( Geocode_Job::HOOK ) );

		$this->job()->run( 5 );
		$this->assertCount( $asked, $this->provider_requests(), 'no request after cancelling' );
		$this->assertSame( 'draft', $this->marker( 'C' )['status'] );

		// Dismissing forgets the report; the drafts stay.
		$this->assertSame( 'none', $this->rest( 'DELETE', $route )->get_data()['state'] );
		$this->assertSame( 'draft', $this->marker( 'C' )['status'] );
	}

	/**
	 * Hostile addresses reach the provider as plain text, within the limit, never a PHP warning
	 * (PHPUnit fails on any); what nobody finds is reported, nothing is published.
	 */
	public function test_hostile_addresses_are_sent_as_plain_text_and_reported(): void {
		$this->import(
			"title,address\n"
			. "\"A\",\"<script>alert(1)</script><b>Calton</b> Hill\"\n"
			. "\"B\",\"'; DROP TABLE wp_posts; --\"\n"
			. '"C","' . str_repeat( 'Ä', 5120 ) . "\"\n"
			. "\"D\",\"Royal\x07\x1b Mile\r\n\tEdinburgh\"\n"
		);
		$this->job()->run( 15 );

		$this->assertSame( array( 'Calton Hill', "'; DROP TABLE wp_posts; --", str_repeat( 'Ä', 200 ), 'Royal Mile Edinburgh' ), $this->queries() );
		$this->assert_within_the_limit();
		$this->assertSame( 'publish', $this->marker( 'A' )['status'] );
		foreach ( array( 'B', 'C', 'D' ) as $title ) {
			$this->assertSame( 'draft', $this->marker( $title )['status'], $title );
		}
		$this->assertSame( array( 'B', 'C', 'D' ), array_column( ( new Geocode_Queue() )->report(), 'title' ) );
	}

	/**
	 * A provider answering 429 (Retry-After: 30): no further request goes until then, not even
	 * for other rows; the run ends and the next one is scheduled after the pause.
	 */
	public function test_a_429_pauses_the_job_for_the_provider_retry_after(): void {
		$this->import( "title,address\nBusy,fixture 429\nGood,Calton Hill\n" );
		$before = time();
		$stats  = $this->job()->run( 10 );

		$this->assertSame( array( 'fixture 429' ), $this->queries(), 'nothing more during the pause' );
		$this->assertSame( 1, $stats['retried'] );
		$this->assertGreaterThanOrEqual( $before + 29, (int) wp_next_scheduled( Geocode_Job::HOOK ) );
		$this->assertSame( 2, ( new Geocode_Queue() )->pending() );
		$this->assertSame( 'draft', $this->marker( 'Good' )['status'] );
	}

	/**
	 * Two runs find the same expired lock; the other's compare-and-set lands between this run's
	 * read and its own. This run must see that it lost (its UPDATE checks the value it read) and
	 * do nothing: one run at a time, the other's lock untouched.
	 */
	public function test_a_run_that_loses_the_race_for_an_expired_lock_does_nothing(): void {
		global $wpdb;
		$this->import( "title,address\nPlace 0,Calton Hill\n" );
		update_option( Geocode_Job::LOCK_OPTION, sprintf( '%010d.dead', time() - 1 ), false );
		wp_cache_flush();
		$other = sprintf( '%010d.other', time() + 60 );
		$raced = false;
		$race  = static function ( $sql ) use ( &$raced, $other, $wpdb ) {
			if ( ! $raced && is_string( $sql ) && 0 === strpos( ltrim( $sql ), 'UPDATE' ) && false !== strpos( $sql, Geocode_Job::LOCK_OPTION ) ) {
				$raced = true;
				$wpdb->query( $wpdb->prepare( "UPDATE {$wpdb->options} SET option_value = %s WHERE option_name = %s", $other, Geocode_Job::LOCK_OPTION ) );
			}
			return $sql;
		};
		add_filter( 'query', $race );
		$run = $this->job()->run( 10 );
		remove_filter( 'query', $race );
		$this->assertTrue( $raced, 'the other run took the lock in between' );
		$this->assertTrue( $run['locked'], 'this run lost, and knows it' );
		$this->assertSame( $other, $wpdb->get_var( $wpdb->prepare( "SELECT option_value FROM {$wpdb->options} WHERE option_name = %s", Geocode_Job::LOCK_OPTION ) ), 'the winner\'s lock is untouched' );
		$this->assertSame( array(), $this->provider_requests(), 'no request from the loser' );
	}

	/**
	 * A queued marker is due at its time, not a second later: due( …, T ) lists the one waiting
	 * until T, and not before T.
	 */
	public function test_a_marker_is_due_at_its_time(): void {
		$this->import( "title,address\nPlace 0,Calton Hill\nPlace 1,Royal Mile\n" );
		$queue = new Geocode_Queue();
		$ids   = $queue->due( 10, time() + 3600 );
		$this->assertCount( 2, $ids );
		$at = time() + 120;
		update_post_meta( $ids[0], Geocode_Queue::META_PENDING, sprintf( '%010d', $at ) );
		update_post_meta( $ids[1], Geocode_Queue::META_PENDING, sprintf( '%010d', $at + 1 ) );
		$this->assertSame( array(), $queue->due( 10, $at - 1 ), 'before its time' );
		$this->assertSame( array( $ids[0] ), $queue->due( 10, $at ), 'at its time' );
		$this->assertSame( $ids, $queue->due( 10, $at + 1 ) );
	}
}
