<?php
/**
 * CSV rows with an address and no coordinates.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Import_Export;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Location_Types;
use Cairn\Maps\Import_Export\Geocode_Job;
use Cairn\Maps\Import_Export\Geocode_Queue;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Tests\TestCase;
use Cairn\Maps\Uninstaller;
use WP_REST_Request;
use WP_REST_Response;

/**
 * Importing rows with addresses: drafts with `geo_address`, queued for the geocoding job, never
 * published without coordinates; rows with coordinates as before; rows with neither refused;
 * hostile addresses stored as capped plain text.
 *
 * @since 0.3.0
 */
final class Address_ImportTest extends TestCase {

	/**
	 * Posts a CSV body to the import route.
	 *
	 * @param string               $body  File content.
	 * @param array<string, mixed> $query Query parameters.
	 */
	private function import( string $body, array $query = array() ): WP_REST_Response {
		$request = new WP_REST_Request( 'POST', '/cairn/v1/markers/import' );
		$request->set_query_params( $query );
		$request->set_header( 'Content-Type', 'text/csv' );
		$request->set_body( $body );
		return rest_get_server()->dispatch( $request );
	}

	/**
	 * Markers by title: status, coordinates, address, queue meta.
	 *
	 * @return array<string, array{status: string, lat: string, address: string, pending: bool, line: string}>
	 */
	private function markers(): array {
		$markers = array();
		foreach ( get_posts(
			array(
				'post_type'      => Post_Type::POST_TYPE,
				'post_status'    => 'any',
				'posts_per_page' => 100,
				'orderby'        => 'ID',
				'order'          => 'ASC',
			)
		) as $post ) {
			$markers[ $post->post_title ] = array(
				'status'  => $post->post_status,
				'lat'     => (string) get_post_meta( $post->ID, Post_Type::META_LAT, true ),
				'address' => (string) get_post_meta( $post->ID, Location_Types::META_ADDRESS, true ),
				'pending' => metadata_exists( 'post', $post->ID, Geocode_Queue::META_PENDING ),
				'line'    => (string) get_post_meta( $post->ID, Geocode_Queue::META_LINE, true ),
			);
		}
		return $markers;
	}

	/**
	 * Address rows become drafts with their address, queued with their line; coordinate rows are
	 * published as before; the job is started and a cron run scheduled.
	 */
	public function test_address_rows_become_queued_drafts(): void {
		$this->act_as( 'editor' );
		$csv = "title,lat,lng,address,group\n"
			. "Castle,55.9486,-3.1999,,sights\n"                  // Line 2: coordinates.
			. "Royal Mile,,,\"Royal Mile, Edinburgh\",sights\n"   // Line 3: address only.
			. "Both,55.95,-3.19,Calton Hill,\n"                  // Line 4: both: coordinates win.
			. "\"Two\nlines\",,,Calton Hill,\n";                 // Lines 5–6: address only.

		$response = $this->import( $csv );
		$this->assertSame( 200, $response->get_status(), (string) wp_json_encode( $response->get_data() ) );
		$this->assertSame( 4, $response->get_data()['imported'] );
		$this->assertSame( 2, $response->get_data()['geocoding'] );

		$markers = $this->markers();
		$this->assertSame( 'publish', $markers['Castle']['status'] );
		$this->assertFalse( $markers['Castle']['pending'] );
		$this->assertSame( 'publish', $markers['Both']['status'] );
		$this->assertSame( 'Calton Hill', $markers['Both']['address'], 'an address beside coordinates is kept' );
		$this->assertFalse( $markers['Both']['pending'] );

		$this->assertSame( 'draft', $markers['Royal Mile']['status'], 'never published without coordinates' );
		$this->assertSame( '', $markers['Royal Mile']['lat'] );
		$this->assertSame( 'Royal Mile, Edinburgh', $markers['Royal Mile']['address'] );
		$this->assertTrue( $markers['Royal Mile']['pending'] );
		$this->assertSame( '3', $markers['Royal Mile']['line'] );
		$this->assertSame( 'draft', $markers['Two lines']['status'] );
		$this->assertSame( '5', $markers['Two lines']['line'], 'the line the row starts on' );

		$queue = new Geocode_Queue();
		$this->assertTrue( $queue->is_running() );
		$progress = $queue->progress();
		$this->assertSame( array( 2, 0, 0, 2 ), array( $progress['total'], $progress['done'], $progress['not_found'], $progress['pending'] ) );
		$this->assertNotFalse( wp_next_scheduled( Geocode_Job::HOOK ), 'a cron run is scheduled' );

		// The feed shows only the published markers.
		$feed = $this->rest( 'GET', '/cairn/v1/markers' );
		$this->assertSame( array( 'Castle', 'Both' ), array_column( array_column( $feed->get_data()['features'], 'properties' ), 'title' ) );

		// A second import joins the running job.
		$this->import( "title,address\nAnother,Somewhere far\n" );
		$this->assertSame( 3, $queue->progress()['total'] );
	}

	/**
	 * `address` and `geo_address` name the column; a header with neither coordinates nor an
	 * address is refused; a row with neither is refused as before.
	 */
	public function test_headers_and_rows_without_a_place(): void {
		$this->act_as( 'editor' );
		$this->assertSame( 200, $this->import( "title,geo_address\nA,Calton Hill\n" )->get_status() );
		$this->assertSame( 'Calton Hill', $this->markers()['A']['address'] );

		$response = $this->import( "title,group\nB,huts\n" );
		$this->assertSame( 400, $response->get_status() );
		$this->assertSame( 'cairn_maps_import_header', $response->get_data()['code'] );

		$response = $this->import( "title,lat,lng,address\nC,,,\nD,,,x\nE,10,,Calton Hill\n" );
		$this->assertSame( 400, $response->get_status() );
		$errors = $response->get_data()['data']['errors'];
		$this->assertSame( array( 2, 3, 4 ), array_column( $errors, 'line' ), 'no place, a one-letter address, half coordinates' );
		$this->assertSame( 'Latitude (cairn_lat) must be a number between -90 and 90.', $errors[0]['message'] );
		$this->assertSame( 'Longitude (cairn_lng) must be a number between -180 and 180.', $errors[2]['message'] );
		$this->assertArrayNotHasKey( 'C', $this->markers(), 'nothing of the bad file was saved' );
	}

	/**
	 * 5,000 hostile addresses: HTML, 10 kB strings, control characters, SQL. Stored as plain text
	 * capped at 200 characters, never a warning (PHPUnit fails on any), all queued.
	 */
	public function test_five_thousand_hostile_addresses_are_stored_as_capped_plain_text(): void {
		global $wpdb;
		$this->act_as( 'editor' );
		$hostile = array(
			'<script>alert(1)</script><b>Calton</b> Hill',
			str_repeat( 'Ä', 5120 ), // 10 kB.
			"Royal\x00\x07\x1b[31m Mile\r\n\tEdinburgh",
			"'; DROP TABLE wp_posts; -- Robert'); DELETE FROM wp_postmeta WHERE ('1'='1",
			'%00%27 OR 1=1 <img src=x onerror=alert(1)>',
		);
		$csv     = "title,address\n";
		for ( $i = 0; $i < 5000; $i++ ) {
			// 10 kB in every 25th row (a file below the 8 MB limit), 300 characters in the others.
			$address = 1 === $i % 5 && 1 !== $i % 25 ? str_repeat( 'Ä', 300 ) : $hostile[ $i % count( $hostile ) ];
			$csv    .= 'Row ' . $i . ',"' . str_replace( '"', '""', $address ) . "\"\n";
		}
		$response = $this->import( $csv );
		$this->assertSame( 200, $response->get_status(), (string) wp_json_encode( $response->get_data()['message'] ?? '' ) );
		$this->assertSame( 5000, $response->get_data()['geocoding'] );

		$stored = $wpdb->get_col( $wpdb->prepare( "SELECT meta_value FROM {$wpdb->postmeta} WHERE meta_key = %s ORDER BY post_id LIMIT 5", Location_Types::META_ADDRESS ) );
		$this->assertSame(
			array(
				'Calton Hill',
				str_repeat( 'Ä', 200 ),
				'Royal [31m Mile Edinburgh',
				"'; DROP TABLE wp_posts; -- Robert'); DELETE FROM wp_postmeta WHERE ('1'='1",
				'%00%27 OR 1=1',
			),
			$stored
		);
		$this->assertSame( '5000', (string) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->posts} WHERE post_type = %s AND post_status = 'draft'", Post_Type::POST_TYPE ) ) );
		$this->assertSame( 5000, ( new Geocode_Queue() )->pending() );
	}

	/**
	 * Deleting the plugin (markers kept) removes the queue meta, the job and its scheduled run;
	 * the drafts and their addresses stay.
	 */
	public function test_uninstall_removes_the_queue_and_keeps_the_drafts(): void {
		global $wpdb;
		$this->act_as( 'editor' );
		$this->import( "title,address\nKept,Calton Hill\n" );
		$this->assertNotFalse( wp_next_scheduled( Geocode_Job::HOOK ) );

		( new Uninstaller() )->run();

		$this->assertSame( '0', (string) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->postmeta} WHERE meta_key LIKE %s", $wpdb->esc_like( '_cairn_geocode_' ) . '%' ) ) );
		$this->assertFalse( get_option( Geocode_Queue::OPTION ) );
		$this->assertFalse( wp_next_scheduled( Geocode_Job::HOOK ) );
		$this->assertSame( array( 'draft', 'Calton Hill' ), array( $this->markers()['Kept']['status'], $this->markers()['Kept']['address'] ) );
	}
}
