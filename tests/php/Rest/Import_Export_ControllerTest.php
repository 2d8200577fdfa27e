<?php
/**
 * Marker import and export through the REST server.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Groups\Group_Styles;
use Cairn\Maps\Import_Export\Import_Export_Page;
use Cairn\Maps\Import_Export\Marker_Export;
use Cairn\Maps\Import_Export\Marker_Import;
use Cairn\Maps\Markers\Marker_Repository;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Plugin;
use Cairn\Maps\Rest\Import_Export_Controller;
use Cairn\Maps\Tests\TestCase;
use WP_REST_Request;
use WP_REST_Response;

/**
 * `POST /cairn/v1/markers/import` and `GET /cairn/v1/markers/export`.
 *
 * @since 0.1.0
 */
final class Import_Export_ControllerTest extends TestCase {

	private const IMPORT = '/cairn/v1/markers/import';
	private const EXPORT = '/cairn/v1/markers/export';

	/**
	 * A good CSV file: quoted cells, a description over two lines, groups new and existing.
	 */
	private const GOOD_CSV = "title,lat,lng,group,description\n"
		. "Ben Nevis,56.7969,-5.0036,Peaks|huts,Highest peak\n"
		. "\"Glen Coe, the pass\",56.6826,-5.1023,glens,\"Two lines:\nand a \"\"quote\"\"\"\n"
		. "Arthur's Seat,55.944,-3.1618,peaks,\n";

	/**
	 * Posts a file body to the import route.
	 *
	 * @param string               $body  File content.
	 * @param array<string, mixed> $query Query parameters.
	 * @param string               $type  Content type.
	 */
	private function import( string $body, array $query = array(), string $type = 'text/csv' ): WP_REST_Response {
		$request = new WP_REST_Request( 'POST', self::IMPORT );
		$request->set_query_params( $query );
		$request->set_header( 'Content-Type', $type );
		$request->set_body( $body );
		return rest_get_server()->dispatch( $request );
	}

	/**
	 * Asserts a status, showing the answer when it differs.
	 *
	 * @param int              $status   Expected status.
	 * @param WP_REST_Response $response Response.
	 */
	private function assert_status( int $status, WP_REST_Response $response ): void {
		$this->assertSame( $status, $response->get_status(), 'answer: ' . wp_json_encode( $response->get_data() ) );
	}

	/**
	 * The bad records reported by a 400.
	 *
	 * @param WP_REST_Response $response Response.
	 * @return array<int, array<string, mixed>>
	 */
	private function errors( WP_REST_Response $response ): array {
		$data = $response->get_data();
		return $data['data']['errors'] ?? array();
	}

	/**
	 * Published markers as comparable rows: title, lat, lng, groups, description.
	 *
	 * @return array<int, array{0: string, 1: string, 2: string, 3: string[], 4: string}>
	 */
	private function stored_markers(): array {
		$rows = array();
		foreach ( get_posts(
			array(
				'post_type'      => Post_Type::POST_TYPE,
				'post_status'    => 'any',
				'posts_per_page' => 100,
				'orderby'        => 'ID',
				'order'          => 'ASC',
			)
		) as $post ) {
			$rows[] = array(
				$post->post_title,
				(string) get_post_meta( $post->ID, Post_Type::META_LAT, true ),
				(string) get_post_meta( $post->ID, Post_Type::META_LNG, true ),
				wp_get_object_terms( $post->ID, Post_Type::TAXONOMY, array( 'fields' => 'slugs' ) ),
				$post->post_content,
			);
		}
		return $rows;
	}

	/**
	 * Deletes every marker.
	 */
	private function delete_all_markers(): void {
		foreach ( get_posts(
			array(
				'post_type'      => Post_Type::POST_TYPE,
				'post_status'    => 'any',
				'posts_per_page' => 100,
				'fields'         => 'ids',
			)
		) as $id ) {
			wp_delete_post( (int) $id, true );
		}
		$this->assertSame( 0, $this->count_markers() );
	}

	/**
	 * Hooks are named methods.
	 */
	public function test_hooks_are_named_methods(): void {
		$controller = Plugin::instance()->get( 'import_export' );
		$this->assertInstanceOf( Import_Export_Controller::class, $controller );
		$this->assertSame( 10, has_action( 'rest_api_init', array( $controller, 'register_routes' ) ) );
		$this->assertSame( 10, has_filter( 'rest_pre_serve_request', array( $controller, 'serve_export' ) ) );
		$this->assertSame( 0, has_filter( 'rest_pre_dispatch', array( $controller, 'keep_file_body_raw' ) ) );
		$page = Plugin::instance()->get( 'import_export_page' );
		$this->assertInstanceOf( Import_Export_Page::class, $page );
		$this->assertSame( 10, has_action( 'admin_menu', array( $page, 'add_page' ) ) );
	}

	/**
	 * Roles and the answers they get.
	 *
	 * @return array<string, array{0: string, 1: int}>
	 */
	public function roles(): array {
		return array(
			'anonymous'     => array( 'anonymous', 401 ),
			'subscriber'    => array( 'subscriber', 403 ),
			'contributor'   => array( 'contributor', 403 ),
			'author'        => array( 'author', 403 ),
			'editor'        => array( 'editor', 200 ),
			'administrator' => array( 'administrator', 200 ),
		);
	}

	/**
	 * Only editors and administrators import; others store nothing.
	 *
	 * @dataProvider roles
	 *
	 * @param string $role   Role.
	 * @param int    $status Expected status.
	 */
	public function test_import_roles( string $role, int $status ): void {
		$this->act_as( $role );
		$response = $this->import( self::GOOD_CSV );
		$this->assert_status( $status, $response );
		$this->assertSame( 200 === $status ? 3 : 0, $this->count_markers() );
	}

	/**
	 * Only editors and administrators export.
	 *
	 * @dataProvider roles
	 *
	 * @param string $role   Role.
	 * @param int    $status Expected status.
	 */
	public function test_export_roles( string $role, int $status ): void {
		$this->create_marker( array( 'post_title' => 'Secret hut' ) );
		$this->act_as( $role );
		$response = $this->rest( 'GET', self::EXPORT, array( 'format' => 'csv' ) );
		$this->assert_status( $status, $response );
		$body  = wp_json_encode( $response->get_data() );
		$shown = false !== strpos( (string) $body, 'Secret hut' );
		$this->assertSame( 200 === $status, $shown );
	}

	/**
	 * A good CSV file: every row becomes a published marker, missing groups are created once.
	 */
	public function test_a_good_csv_file_imports_every_row(): void {
		$huts = $this->create_group( 'huts', 'Huts' );
		$user = $this->act_as( 'editor' );

		$response = $this->import( self::GOOD_CSV );
		$this->assert_status( 200, $response );
		$this->assertSame( 3, $response->get_data()['imported'] );
		$this->assertSame( 'csv', $response->get_data()['format'] );
		$this->assertSame( array( 'peaks', 'glens' ), $response->get_data()['groups_created'] );
		$this->assertSame( array(), $response->get_data()['skipped'] );

		$this->assertSame(
			array(
				array( 'Ben Nevis', '56.7969', '-5.0036', array( 'huts', 'peaks' ), 'Highest peak' ),
				array( 'Glen Coe, the pass', '56.6826', '-5.1023', array( 'glens' ), "Two lines:\nand a \"quote\"" ),
				array( "Arthur's Seat", '55.944', '-3.1618', array( 'peaks' ), '' ),
			),
			$this->stored_markers()
		);
		$peaks = get_term_by( 'slug', 'peaks', Post_Type::TAXONOMY );
		$this->assertInstanceOf( \WP_Term::class, $peaks );
		$this->assertSame( 'Peaks', $peaks->name, 'a new group is named as written' );
		$this->assertSame( 2, $peaks->count, 'term counts are right after the import' );
		$this->assertSame( 1, get_term( $huts )->count );

		$posts = get_posts(
			array(
				'post_type'   => Post_Type::POST_TYPE,
				'post_status' => 'any',
				'orderby'     => 'ID',
				'order'       => 'ASC',
			)
		);
		foreach ( $posts as $post ) {
			$this->assertSame( 'publish', $post->post_status );
			$this->assertSame( $user, (int) $post->post_author );
			$this->assertStringContainsString( 'p=' . $post->ID, $post->guid );
		}
		$this->assertSame( 'ben-nevis', $posts[0]->post_name );

		// The feed shows them.
		$feed = $this->rest( 'GET', '/cairn/v1/markers' );
		$this->assertCount( 3, $feed->get_data()['features'] );
	}

	/**
	 * A file with errors imports its valid rows and names every bad line (as a spreadsheet numbers
	 * them); a dry run answers the same report and stores nothing.
	 */
	public function test_a_file_with_errors_imports_its_valid_rows_and_reports_each_line(): void {
		$this->act_as( 'editor' );
		$csv = "title,lat,lng,group,description\n"                         // Line 1.
			. "Good,10,10,,\n"                                              // Line 2.
			. "Too far north,95,10,,\n"                                     // Line 3.
			. "Two-line text,1,1,fresh,\"first\nsecond\"\n"                 // Lines 4–5.
			. ",20,20,,\n"                                                  // Line 6: no title.
			. "Caf\xE9 latin-1,30,30,,\n"                                   // Line 7: not UTF-8.
			. "Word longitude,40,east,,\n"                                  // Line 8.
			. "\n"                                                          // Line 9: blank.
			. "Bad group,50,50,%%%,\n";                                     // Line 10.

		$terms = (int) wp_count_terms(
			array(
				'taxonomy'   => Post_Type::TAXONOMY,
				'hide_empty' => false,
			)
		);
		$dry   = $this->import( $csv, array( 'dry_run' => '1' ) );
		$this->assert_status( 200, $dry );
		$this->assertTrue( $dry->get_data()['dry_run'] );
		$this->assertSame( 2, $dry->get_data()['imported'], 'what would be imported' );
		$this->assertSame( array( 3, 6, 7, 8, 10 ), array_column( $dry->get_data()['skipped'], 'line' ) );
		$this->assertSame( array( 'fresh' ), $dry->get_data()['groups_new'] );
		$this->assertSame( array( 'Good', 'Two-line text' ), array_column( array_column( $dry->get_data()['preview']['features'], 'properties' ), 'title' ) );
		$this->assertSame( 0, $this->count_markers(), 'a dry run stores no marker' );
		$this->assertSame(
			$terms,
			(int) wp_count_terms(
				array(
					'taxonomy'   => Post_Type::TAXONOMY,
					'hide_empty' => false,
				)
			),
			'nor a group'
		);

		$response = $this->import( $csv );
		$this->assert_status( 200, $response );
		$this->assertSame( 2, $response->get_data()['imported'] );
		$this->assertSame( 7, $response->get_data()['total'] );
		$errors = $response->get_data()['skipped'];
		$this->assertSame( array( 3, 6, 7, 8, 10 ), array_column( $errors, 'line' ) );
		$this->assertSame( $dry->get_data()['skipped'], $errors, 'the dry run reported the same' );
		$this->assertSame( 'Latitude (cairn_lat) must be a number between -90 and 90.', $errors[0]['message'], 'the REST rules of Marker_Validation' );
		$this->assertSame( 'A title is required.', $errors[1]['message'] );
		$this->assertStringContainsString( 'UTF-8', $errors[2]['message'] );
		$this->assertSame( 'Longitude (cairn_lng) must be a number between -180 and 180.', $errors[3]['message'] );
		$this->assertStringContainsString( '"%%%"', $errors[4]['message'] );

		$this->assertSame( array( 'Good', 'Two-line text' ), array_column( $this->stored_markers(), 0 ) );
		$this->assertNotNull( term_exists( 'fresh', Post_Type::TAXONOMY ), 'the valid row\'s group was created' );
	}

	/**
	 * With valid_only, the good rows are imported and the bad ones reported as skipped.
	 */
	public function test_valid_only_imports_the_good_rows_and_reports_the_rest(): void {
		$this->act_as( 'editor' );
		$csv = "title,lat,lng\nGood,10,10\nBad,-91,10\nAlso good,-90,180\n";

		$response = $this->import( $csv, array( 'valid_only' => 'true' ) );
		$this->assert_status( 200, $response );
		$this->assertSame( 2, $response->get_data()['imported'] );
		$this->assertSame( array( 3 ), array_column( $response->get_data()['skipped'], 'line' ) );
		$this->assertSame( array( 'Good', 'Also good' ), array_column( $this->stored_markers(), 0 ) );

		$none = $this->import( "title,lat,lng\n,1,1\n", array( 'valid_only' => true ) );
		$this->assert_status( 400, $none );
		$this->assertSame( array( 2 ), array_column( $this->errors( $none ), 'line' ) );
	}

	/**
	 * GeoJSON: good features import; bad ones are reported by index.
	 */
	public function test_geojson_features_are_checked_by_index(): void {
		$this->act_as( 'editor' );
		$point    = static fn( $lng, $lat, array $properties ) => array(
			'type'       => 'Feature',
			'geometry'   => array(
				'type'        => 'Point',
				'coordinates' => array( $lng, $lat ),
			),
			'properties' => $properties,
		);
		$features = array(
			$point(
				-3.19,
				55.95,
				array(
					'title'       => 'Edinburgh',
					'groups'      => array( 'cities' ),
					'description' => '<p>Capital</p>',
				)
			),
			$point( 200, 55.95, array( 'title' => 'Off the map' ) ),
			array(
				'type'       => 'Feature',
				'geometry'   => array(
					// Lines and areas are imported (Shape_ImportTest), a MultiPoint split into points
					// (Import_Reader_RulesTest); a Circle is no GeoJSON type.
					'type'        => 'Circle',
					'coordinates' => array( 0, 0 ),
				),
				'properties' => array( 'title' => 'Two points' ),
			),
			$point( 1, 1, array( 'title' => array( 'not', 'text' ) ) ),
			$point(
				-4.25,
				55.86,
				array(
					'title' => 'Glasgow',
					'group' => 'cities|west',
				)
			),
		);
		$body     = (string) wp_json_encode(
			array(
				'type'     => 'FeatureCollection',
				'features' => $features,
			)
		);

		$refused = $this->import( $body, array( 'dry_run' => true ), 'application/geo+json' );
		$this->assert_status( 200, $refused );
		$this->assertSame( array( 1, 2, 3 ), array_column( $refused->get_data()['skipped'], 'feature' ) );
		$this->assertSame( 0, $this->count_markers() );

		$imported = $this->import( $body, array(), 'application/json' );
		$this->assert_status( 200, $imported );
		$this->assertSame( 'geojson', $imported->get_data()['format'] );
		$this->assertSame(
			array(
				array( 'Edinburgh', '55.95', '-3.19', array( 'cities' ), '<p>Capital</p>' ),
				array( 'Glasgow', '55.86', '-4.25', array( 'cities', 'west' ), '' ),
			),
			$this->stored_markers()
		);
	}

	/**
	 * Files that cannot be read at all.
	 *
	 * @return array<string, array{0: string, 1: array<string, string>, 2: string}>
	 */
	public function unreadable_files(): array {
		return array(
			'no lng column'            => array( "title,lat\nA,1\n", array(), 'must name its columns' ),
			'header only'              => array( "title,lat,lng\n", array(), 'holds no markers' ),
			'broken json'              => array( '{"type":"FeatureCollection","features":[', array( 'format' => 'geojson' ), 'not valid GeoJSON' ),
			'not a feature collection' => array( '{"type":"Topology"}', array( 'format' => 'geojson' ), 'FeatureCollection' ),
			'empty body'               => array( '', array(), 'Send a CSV, GeoJSON, GPX, KML or KMZ file' ),
		);
	}

	/**
	 * Unreadable files are a 400 with a message.
	 *
	 * @dataProvider unreadable_files
	 *
	 * @param string                $body    Body.
	 * @param array<string, string> $query   Query.
	 * @param string                $message Part of the message.
	 */
	public function test_unreadable_files_are_refused( string $body, array $query, string $message ): void {
		$this->act_as( 'editor' );
		$response = $this->import( $body, $query, 'text/plain' );
		$this->assert_status( 400, $response );
		$this->assertStringContainsString( $message, $response->get_data()['message'] );
	}

	/**
	 * More rows than allowed is a 413 with a message; nothing is read further or stored.
	 */
	public function test_too_many_rows_is_a_413(): void {
		$this->act_as( 'editor' );
		$csv = "title,lat,lng\n" . str_repeat( "Cairn,1,1\n", Marker_Import::MAX_ROWS + 1 );

		$response = $this->import( $csv );
		$this->assert_status( 413, $response );
		$this->assertStringContainsString( 'more than 5,000 markers', $response->get_data()['message'] );
		$this->assertSame( 0, $this->count_markers() );

		add_filter( 'cairn_maps_import_max_rows', static fn() => 2 );
		$features = array_fill(
			0,
			3,
			array(
				'type'       => 'Feature',
				'geometry'   => array(
					'type'        => 'Point',
					'coordinates' => array( 1, 1 ),
				),
				'properties' => array( 'title' => 'x' ),
			)
		);
		$geojson  = $this->import(
			(string) wp_json_encode(
				array(
					'type'     => 'FeatureCollection',
					'features' => $features,
				)
			),
			array( 'format' => 'geojson' )
		);
		$this->assert_status( 413, $geojson );
	}

	/**
	 * A file above the size limit is a 413.
	 */
	public function test_a_file_too_large_is_a_413(): void {
		$this->act_as( 'editor' );
		add_filter( 'cairn_maps_import_max_bytes', static fn() => 2048 );
		$response = $this->import( "title,lat,lng\n" . str_repeat( "A long enough title,1,1\n", 200 ) );
		$this->assert_status( 413, $response );
		$this->assertStringContainsString( 'larger than 2 KB', $response->get_data()['message'] );
		$this->assertSame( 0, $this->count_markers() );
	}

	/**
	 * The import writes in bulk: one markers-version change, a bounded number of queries.
	 */
	public function test_a_large_import_is_one_version_change_and_few_queries(): void {
		$this->act_as( 'editor' );
		$version = Plugin::instance()->get( 'markers_version' );
		$this->assertInstanceOf( Markers_Version::class, $version );
		$version->get(); // Exists before the import, so each change is an update.
		$changes = 0;
		add_action(
			'update_option_' . Markers_Version::OPTION,
			static function () use ( &$changes ) {
				++$changes;
			}
		);
		$csv = "title,lat,lng,group\n";
		for ( $i = 0; $i < 1200; $i++ ) {
			$csv .= sprintf( "Cairn %d,%F,%F,g%d|shared\n", $i % 400, ( $i % 170 ) - 85, ( $i % 350 ) - 175, $i % 5 );
		}
		global $wpdb;
		$queries  = $wpdb->num_queries;
		$response = $this->import( $csv );
		$this->assert_status( 200, $response );
		$this->assertSame( 1200, $response->get_data()['imported'] );
		$this->assertSame( 1, $changes, 'one markers-version change for the whole import' );
		$this->assertLessThan( 200, $wpdb->num_queries - $queries, 'queries per batch, not per marker' );
		$this->assertSame( 1200, (int) get_term_by( 'slug', 'shared', Post_Type::TAXONOMY )->count );

		// Repeated titles get unique names, as wp_insert_post() gives them.
		$names = $wpdb->get_col( $wpdb->prepare( "SELECT post_name FROM {$wpdb->posts} WHERE post_type = %s", Post_Type::POST_TYPE ) );
		$this->assertCount( 1200, array_unique( $names ) );
		$this->assertContains( 'cairn-7', $names );
		$this->assertContains( 'cairn-7-2', $names );
		$this->assertContains( 'cairn-7-3', $names );
	}

	/**
	 * Post names never collide: with existing markers, repeated titles, or a title that looks like
	 * a numbered name.
	 */
	public function test_post_names_are_unique(): void {
		$this->create_marker( array( 'post_title' => 'Castle' ) );
		$this->act_as( 'editor' );
		$this->assert_status( 200, $this->import( "title,lat,lng\nCastle,1,1\nCastle,2,2\nCastle 2,3,3\nCastle 3,4,4\n" ) );
		global $wpdb;
		$names = $wpdb->get_col( $wpdb->prepare( "SELECT post_name FROM {$wpdb->posts} WHERE post_type = %s ORDER BY ID", Post_Type::POST_TYPE ) );
		$this->assertSame( array( 'castle', 'castle-2', 'castle-3', 'castle-2-2', 'castle-3-2' ), $names );
	}

	/**
	 * Hostile text: markup is removed from titles and disarmed in descriptions; exported cells
	 * cannot run as spreadsheet formulas, yet they import back unchanged.
	 */
	public function test_hostile_text_is_disarmed(): void {
		$this->act_as( 'editor' );
		$csv      = "title,lat,lng,group,description\n"
			. "\"<script>alert(1)</script>Fort <b>William</b>\",56.82,-5.1,,\"<img src=x onerror=alert(1)>Hi<script>alert(2)</script>\"\n"
			. "\"=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\")\",1,2,,\"+cmd|' /C calc'!A0\"\n"
			. "@SUM(A1),3,4,-minus,\n";
		$response = $this->import( $csv );
		$this->assert_status( 200, $response );
		$stored = $this->stored_markers();
		$this->assertSame( 'Fort William', $stored[0][0] );
		$this->assertStringNotContainsString( 'onerror', $stored[0][4] );
		$this->assertStringNotContainsString( '<script', $stored[0][4] );
		$this->assertSame( '=HYPERLINK("http://evil.example","x")', $stored[1][0] );

		$export = (string) $this->rest( 'GET', self::EXPORT, array( 'format' => 'csv' ) )->get_data();
		$this->assertStringContainsString( "\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\")\"", $export );
		$this->assertStringContainsString( ",'+cmd|' /C calc'!A0\r\n", $export );
		$this->assertStringContainsString( "'@SUM(A1),3,4,minus,", $export );
		foreach ( preg_split( '/\r\n/', $export ) as $line ) {
			$this->assertDoesNotMatchRegularExpression( '/(^|,)[=+@]/', $line, 'no cell starts a formula' );
		}

		// The guard marks are removed on the way back in.
		$this->delete_all_markers();
		$this->assert_status( 200, $this->import( $export ) );
		$this->assertSame( $stored, $this->stored_markers() );
	}

	/**
	 * A spreadsheet that splits on `;` (or on line breaks, ignoring quotes) starts cells inside our
	 * cells: none of those may start a formula either, and the file still imports back unchanged.
	 */
	public function test_formulas_inside_cells_are_disarmed(): void {
		$this->create_marker(
			array(
				'post_title'   => 'Hut;=1+1',
				'post_content' => "Open daily\n=HYPERLINK(\"http://evil.example\",\"x\")\n- bring water; \"@SUM(A1)\"\r\n\t+cmd",
				'lat'          => -5.5,
				'lng'          => -3.25,
				'groups'       => array( 'huts' ),
			)
		);
		$this->create_marker( array( 'post_title' => 'Bothy, +44 1234; -5 degrees' ) );
		$this->act_as( 'editor' );
		$stored = $this->stored_markers();
		$export = (string) $this->rest( 'GET', self::EXPORT, array( 'format' => 'csv' ) )->get_data();

		$pieces = preg_split( '/[;,\t\r\n]/', $export );
		foreach ( $pieces as $piece ) {
			$piece = ltrim( $piece, ' "' );
			if ( is_numeric( $piece ) ) {
				continue; // A coordinate.
			}
			$this->assertDoesNotMatchRegularExpression( '/^[=+\-@]/', $piece, 'no cell of any split starts a formula' );
		}

		$this->delete_all_markers();
		$this->assert_status( 200, $this->import( $export ) );
		$this->assertSame( $stored, $this->stored_markers() );
	}

	/**
	 * Makes the database refuse the next statements that start with an INSERT into a table.
	 *
	 * @param string $table Table name.
	 */
	private function break_inserts_into( string $table ): void {
		global $wpdb;
		$wpdb->suppress_errors( true ); // The refusal still reaches $wpdb->last_error, not the test's output.
		add_filter(
			'query',
			static function ( $query ) use ( $table ) {
				$prefix = "INSERT INTO {$table} ";
				return 0 === strpos( (string) $query, $prefix ) ? str_replace( $prefix, "INSERT INTO {$table} (no_such_column) SELECT 1 FROM DUAL WHERE 0 AND ", $query ) : $query;
			}
		);
	}

	/**
	 * What an importer would read: the REST answer and the Tools page's report.
	 *
	 * @param WP_REST_Response $response Response.
	 */
	private function visible_text( WP_REST_Response $response ): string {
		$report = Import_Export_Page::report( $response->is_error() ? $response->as_error() : $response->get_data() );
		return wp_json_encode( $response->get_data() ) . ' ' . wp_json_encode( $report );
	}

	/**
	 * A database failure answers a plain message: no SQL, no table or column names.
	 */
	public function test_a_database_failure_shows_no_database_error(): void {
		global $wpdb;
		$this->act_as( 'editor' );
		$this->break_inserts_into( $wpdb->posts );
		$response = $this->import( self::GOOD_CSV );
		$this->assert_status( 500, $response );
		$this->assertSame( 'The database stopped the import after 0 markers. Those markers were kept; the others were not imported.', $response->as_error()->get_error_message() );
		$shown = $this->visible_text( $response );
		foreach ( array( 'no_such_column', $wpdb->posts, 'db_error', 'SQL', 'syntax', 'Unknown column' ) as $raw ) {
			$this->assertStringNotContainsString( $raw, $shown );
		}
		$this->assertSame( 0, $this->count_markers() );
	}

	/**
	 * A group that cannot be created refuses its rows: no marker is stored without its group; the
	 * other rows are imported.
	 */
	public function test_a_group_that_cannot_be_created_refuses_its_rows(): void {
		$this->act_as( 'editor' );
		add_filter(
			'pre_insert_term',
			static fn( $term, $taxonomy ) => Post_Type::TAXONOMY === $taxonomy && 'glens' === sanitize_title( (string) $term ) ? new \WP_Error( 'db_insert_error', 'Duplicate entry for key slug' ) : $term,
			10,
			2
		);
		$response = $this->import( self::GOOD_CSV );
		$this->assert_status( 200, $response );
		$this->assertSame( array( 3 ), array_column( $response->get_data()['skipped'], 'line' ) );
		$this->assertSame( 'The group "glens" could not be created, so this row was not imported. Try again, or create the group first.', $response->get_data()['skipped'][0]['message'] );
		$this->assertStringNotContainsString( 'Duplicate entry', $this->visible_text( $response ) );
		$this->assertSame( array( 'Ben Nevis', "Arthur's Seat" ), array_column( $this->stored_markers(), 0 ) );
		$this->assertNull( term_exists( 'glens', Post_Type::TAXONOMY ) );
	}

	/**
	 * Group assignments the database refuses are not dropped silently: the batch is not kept.
	 */
	public function test_a_failed_group_assignment_keeps_no_marker(): void {
		global $wpdb;
		$this->create_group( 'peaks' );
		$this->act_as( 'editor' );
		$this->break_inserts_into( $wpdb->term_relationships );
		$response = $this->import( "title,lat,lng,group\nBen Nevis,56.7969,-5.0036,peaks\nNo group,1,1,\n" );
		$this->assert_status( 500, $response );
		$this->assertStringNotContainsString( $wpdb->term_relationships, $this->visible_text( $response ) );
		$this->assertSame( 0, $this->count_markers(), 'no marker without its group' );
		$this->assertSame( '0', (string) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->postmeta} WHERE meta_key = %s", Post_Type::META_LAT ) ), 'nor its coordinates' );
	}

	/**
	 * Import → export → import gives the same markers, in both formats.
	 *
	 * @return array<string, array{0: string}>
	 */
	public function formats(): array {
		return array(
			'csv'     => array( 'csv' ),
			'geojson' => array( 'geojson' ),
		);
	}

	/**
	 * Round trip.
	 *
	 * @dataProvider formats
	 *
	 * @param string $format Format.
	 */
	public function test_export_round_trips_through_import( string $format ): void {
		$this->act_as( 'editor' );
		$csv = self::GOOD_CSV
			. "Ünïcødé ✓ 山,35.3606255,138.7273634,fuji|peaks,\"<p>Tab\there &amp; <em>markup</em></p>\"\n"
			. "Zero,0,0,,'=not a formula\n"
			. "Negative,-89.9999999,-179.9999999,,\n";
		$this->assert_status( 200, $this->import( $csv ) );
		$imported = $this->stored_markers();
		$this->assertSame( '=not a formula', $imported[4][4] );

		$first = (string) $this->rest( 'GET', self::EXPORT, array( 'format' => $format ) )->get_data();
		$this->delete_all_markers();
		$again = $this->import( $first, array( 'format' => $format ) );
		$this->assert_status( 200, $again );
		$this->assertSame( 6, $again->get_data()['imported'] );
		$this->assertSame( $imported, $this->stored_markers(), 'the same markers' );

		$second = (string) $this->rest( 'GET', self::EXPORT, array( 'format' => $format ) )->get_data();
		if ( 'geojson' === $format ) {
			$strip = static function ( string $json ): array {
				$data = json_decode( $json, true );
				foreach ( $data['features'] as &$feature ) {
					unset( $feature['id'] );
				}
				return $data;
			};
			$this->assertSame( $strip( $first ), $strip( $second ) );
		} else {
			$this->assertSame( $first, $second );
		}
	}

	/**
	 * Export over HTTP: a streamed download with its own headers; only published markers with
	 * coordinates.
	 */
	public function test_export_is_a_streamed_download(): void {
		$this->create_marker(
			array(
				'post_title' => 'Shown',
				'lat'        => 1.5,
				'lng'        => 2.5,
				'groups'     => array( 'b', 'a' ),
			)
		);
		$this->create_marker(
			array(
				'post_title'  => 'Draft',
				'post_status' => 'draft',
			)
		);
		$this->create_marker(
			array(
				'post_title' => 'Nowhere',
				'lat'        => null,
			)
		);
		wp_set_current_user( $this->create_user( 'editor' ) );

		$csv = $this->serve( self::EXPORT, array( 'format' => 'csv' ) );
		$this->assertSame( 200, $csv['status'] );
		$this->assertSame( 'text/csv; charset=utf-8', $csv['headers']['Content-Type'] );
		$this->assertMatchesRegularExpression( '/^attachment; filename="cairn-markers-\d{4}-\d{2}-\d{2}\.csv"$/', $csv['headers']['Content-Disposition'] );
		$this->assertSame( "\xEF\xBB\xBFtitle,lat,lng,group,description\r\nShown,1.5,2.5,a|b,\r\n", $csv['body'] );

		$geojson = $this->serve( self::EXPORT, array( 'format' => 'geojson' ) );
		$this->assertSame( 'application/geo+json; charset=utf-8', $geojson['headers']['Content-Type'] );
		$data = json_decode( $geojson['body'], true );
		$this->assertSame( 'FeatureCollection', $data['type'] );
		$this->assertCount( 1, $data['features'] );
		$this->assertSame( array( 2.5, 1.5 ), $data['features'][0]['geometry']['coordinates'] );
		$this->assertSame(
			array(
				'title'       => 'Shown',
				'groups'      => array( 'a', 'b' ),
				'description' => '',
			),
			$data['features'][0]['properties']
		);

		$bad = $this->rest( 'GET', self::EXPORT, array( 'format' => 'kml' ) );
		$this->assertSame( 400, $bad->get_status() );
	}

	/**
	 * The Tools page's download form posts to the export (format in the body), and gets the same
	 * streamed file as a GET; the capability check is the same.
	 */
	public function test_the_download_form_posts_the_export(): void {
		$this->create_marker( array( 'post_title' => 'Posted' ) );
		wp_set_current_user( $this->create_user( 'editor' ) );
		$_POST  = array( 'format' => 'geojson' );
		$posted = $this->serve( self::EXPORT, array(), array(), 'POST' );
		$this->assertSame( 200, $posted['status'], $posted['body'] );
		$this->assertSame( 'application/geo+json; charset=utf-8', $posted['headers']['Content-Type'] );
		$this->assertSame( 'Posted', json_decode( $posted['body'], true )['features'][0]['properties']['title'] );

		wp_set_current_user( $this->create_user( 'author' ) );
		$this->assertSame( 403, $this->rest( 'POST', self::EXPORT, array( 'format' => 'csv' ) )->get_status() );
	}

	/**
	 * The export reads in batches: bounded queries, every marker once, in id order.
	 */
	public function test_export_reads_in_batches(): void {
		$ids = array();
		for ( $i = 0; $i < 5; $i++ ) {
			$ids[] = $this->create_marker( array( 'post_title' => "M$i" ) );
		}
		$export = new Marker_Export( new Marker_Repository(), 2 );
		$pieces = array();
		$export->write(
			'geojson',
			static function ( string $piece ) use ( &$pieces ) {
				$pieces[] = $piece;
			}
		);
		$this->assertCount( 5, $pieces, 'opening, three batches of at most 2, closing' );
		$data = json_decode( implode( '', $pieces ), true );
		$this->assertSame( $ids, array_column( $data['features'], 'id' ) );
	}

	/**
	 * The Tools page: a form with a nonce, the valid-rows choice, the export form, and the report.
	 */
	public function test_the_tools_page_shows_the_form_the_links_and_the_report(): void {
		$user = $this->act_as( 'editor' );
		set_transient(
			'cairn_maps_import_report_' . $user,
			Import_Export_Page::report( $this->import( "title,lat,lng\nOk,1,1\n<b>Bad</b>,91,1\n" )->get_data() ),
			60
		);
		$_GET['report'] = '1';
		$page           = Plugin::instance()->get( 'import_export_page' );
		$this->assertInstanceOf( Import_Export_Page::class, $page );
		ob_start();
		$page->render();
		$html = (string) ob_get_clean();

		$this->assertStringContainsString( 'name="_wpnonce"', $html );
		$this->assertStringContainsString( 'name="folders" value="folders"', $html, 'one group per folder' );
		$this->assertStringContainsString( 'name="folders" value="one"', $html, 'all in this group' );
		$this->assertStringContainsString( 'name="title_property"', $html );
		$this->assertStringContainsString( 'type="file"', $html );
		// Export: a form posting to the REST route, the nonce in its body, none in any address.
		$this->assertMatchesRegularExpression( '#<form method="post" action="[^"]*cairn/v1/markers/export"><p><input type="hidden" name="_wpnonce" value="[0-9a-f]{10}" />#', $html );
		$this->assertStringContainsString( '<button type="submit" class="button" name="format" value="geojson">Download GeoJSON</button>', $html );
		$this->assertStringContainsString( '<button type="submit" class="button" name="format" value="csv">Download CSV</button>', $html );
		$this->assertDoesNotMatchRegularExpression( '#(href|action)="[^"]*_wpnonce#', $html, 'no nonce in an address' );
		$this->assertStringContainsString( 'Line 3: Latitude (cairn_lat) must be a number between -90 and 90.', $html );
		$this->assertFalse( get_transient( 'cairn_maps_import_report_' . $user ), 'a report is shown once' );
	}

	/**
	 * Editors only: the page prints nothing for authors.
	 */
	public function test_the_tools_page_is_for_editors(): void {
		$this->act_as( 'author' );
		$page = Plugin::instance()->get( 'import_export_page' );
		ob_start();
		$page->render();
		$this->assertSame( '', ob_get_clean() );
	}

	/**
	 * The looks of groups are not part of the marker files (groups travel by slug).
	 */
	public function test_group_looks_are_kept_when_markers_are_imported_into_existing_groups(): void {
		$group = $this->create_group( 'peaks' );
		update_term_meta( $group, Group_Styles::META_COLOR, '#aa0000' );
		$this->act_as( 'editor' );
		$this->assert_status( 200, $this->import( "title,lat,lng,group\nA,1,1,peaks\n" ) );
		$this->assertSame( '#aa0000', get_term_meta( $group, Group_Styles::META_COLOR, true ) );
	}

	/**
	 * A title of more than 500 characters and a marker in more than 20 groups are row errors with
	 * their message and line; 500 characters and 20 groups are imported.
	 */
	public function test_title_and_group_bounds(): void {
		$this->act_as( 'editor' );
		$twenty   = implode( '|', array_map( static fn( $i ) => "g$i", range( 1, 20 ) ) );
		$csv      = "title,lat,lng,group\n"
			. str_repeat( 'a', 500 ) . ",1,1,g1\n"
			. str_repeat( 'b', 501 ) . ",1,1,g1\n"
			. "Twenty,1,1,\"$twenty\"\n"
			. "Twenty-one,1,1,\"$twenty|g21\"\n";
		$response = $this->import( $csv );
		// A partial import (issue 32): the rows within the bounds import, the two past them are
		// reported on their lines and nothing of them is saved.
		$this->assert_status( 200, $response );
		$data = $response->get_data();
		$this->assertSame( 2, $data['imported'] );
		$this->assertSame(
			array(
				array(
					'line'    => 3,
					'message' => 'The title is longer than 500 characters.',
				),
				array(
					'line'    => 5,
					'message' => 'A marker may be in at most 20 groups.',
				),
			),
			$data['skipped']
		);
		$this->assertSame( 2, $this->count_markers(), 'only the rows within the bounds are saved' );
	}
}
