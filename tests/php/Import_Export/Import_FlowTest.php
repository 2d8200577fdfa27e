<?php
/**
 * The import flow: partial imports, dry runs, post types, folders and groups, streamed CSV.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Import_Export;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Location_Types;
use Cairn\Maps\Import_Export\Geocode_Queue;
use Cairn\Maps\Import_Export\Marker_Import;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Tests\TestCase;
use WP_REST_Request;
use WP_REST_Response;

/**
 * What an importer sees of Marker_Import's flow around the readers (issue 32): the rows a file
 * imports and the ones it refuses (line by line), what a dry run answers and leaves untouched,
 * rows of other post types, KML folders as groups, and a CSV file read from disk in chunks.
 *
 * @since 0.7.0
 */
final class Import_FlowTest extends TestCase {

	/**
	 * Posts a file to the import route.
	 *
	 * @param string               $body  File content.
	 * @param array<string, mixed> $query Query parameters.
	 * @param string               $type  Content type.
	 */
	private function import( string $body, array $query = array(), string $type = 'text/csv' ): WP_REST_Response {
		$request = new WP_REST_Request( 'POST', '/cairn/v1/markers/import' );
		$request->set_query_params( $query );
		$request->set_header( 'Content-Type', $type );
		$request->set_body( $body );
		return rest_get_server()->dispatch( $request );
	}

	/**
	 * Rows in the tables an import writes, and the markers version.
	 *
	 * @return array<string, mixed>
	 */
	private function footprint(): array {
		global $wpdb;
		return array(
			'posts'     => (int) $wpdb->get_var( "SELECT COUNT(*) FROM {$wpdb->posts}" ),
			'postmeta'  => (int) $wpdb->get_var( "SELECT COUNT(*) FROM {$wpdb->postmeta}" ),
			'terms'     => (int) $wpdb->get_var( "SELECT COUNT(*) FROM {$wpdb->terms}" ),
			'relations' => (int) $wpdb->get_var( "SELECT COUNT(*) FROM {$wpdb->term_relationships}" ),
			'version'   => ( new Markers_Version() )->get(),
			'queue'     => get_option( Geocode_Queue::OPTION, null ),
		);
	}

	/**
	 * A dry run answers the report the import gives (counts by kind, refused rows and why, new
	 * groups, a preview) and writes nothing: no post, meta, group, relation, version or queue.
	 */
	public function test_a_dry_run_reports_the_import_and_writes_nothing(): void {
		$this->act_as( 'editor' );
		$csv    = "title,lat,lng,address,group\n"
			. "Hut,56.1,-5.2,,Huts\n"
			. "Nowhere,,,,\n"
			. "Station,,,Waverley Station Edinburgh,\n"
			. "Pole,95,0,,\n";
		$before = $this->footprint();
		$dry    = $this->import( $csv, array( 'dry_run' => 'true' ) );
		$this->assertSame( 200, $dry->get_status(), (string) wp_json_encode( $dry->get_data() ) );
		$this->assertSame( $before, $this->footprint(), 'a dry run wrote nothing' );
		$report = $dry->get_data();
		$this->assertTrue( $report['dry_run'] );
		$this->assertSame( 2, $report['imported'] );
		$this->assertSame( 1, $report['geocoding'], 'the address row would wait for geocoding' );
		$this->assertSame( array( 3, 5 ), array_column( $report['skipped'], 'line' ) );
		$this->assertSame( array( 'Huts' ), $report['groups_new'], 'named as in the file' );
		$this->assertSame( array( 'Hut' ), array_column( array_column( $report['preview']['features'], 'properties' ), 'title' ), 'the preview draws what has a place' );
		$this->assertSame( array( -5.2, 56.1 ), $report['preview']['features'][0]['geometry']['coordinates'] );

		$done = $this->import( $csv )->get_data();
		$this->assertFalse( $done['dry_run'] );
		$this->assertSame( $report['skipped'], $done['skipped'] );
		$this->assertSame( $report['kinds'], $done['kinds'] );
		$this->assertSame( array( 'huts' ), $done['groups_created'] );
		$this->assertSame( $before['posts'] + 2, $this->footprint()['posts'] );
	}

	/**
	 * A dry run of shapes counts markers, routes and areas apart, and previews their geometry.
	 */
	public function test_a_dry_run_counts_markers_routes_and_areas(): void {
		$this->act_as( 'editor' );
		$feature  = static fn( array $geometry, string $title ): array => array(
			'type'       => 'Feature',
			'geometry'   => $geometry,
			'properties' => array( 'title' => $title ),
		);
		$body     = (string) wp_json_encode(
			array(
				'type'     => 'FeatureCollection',
				'features' => array(
					$feature(
						array(
							'type'        => 'Point',
							'coordinates' => array(
								1,
								2,
							),
						),
						'Point'
					),
					$feature(
						array(
							'type'        => 'LineString',
							'coordinates' => array(
								array(
									0,
									0,
									10,
								),
								array( 1, 1, 20 ),
							),
						),
						'Route'
					),
					$feature(
						array(
							'type'        => 'Polygon',
							'coordinates' => array(
								array(
									array(
										0,
										0,
									),
									array( 1, 0 ),
									array( 1, 1 ),
									array( 0, 0 ),
								),
							),
						),
						'Area'
					),
					$feature(
						array(
							'type'        => 'Polygon',
							'coordinates' => array(
								array(
									array(
										0,
										0,
									),
									array( 1, 0 ),
									array( 1, 1 ),
								),
							),
						),
						'Open ring'
					),
				),
			)
		);
		$posts    = $this->count_markers();
		$response = $this->import( $body, array( 'dry_run' => '1' ), 'application/geo+json' );
		$report   = $response->get_data();
		$this->assertSame(
			array(
				'markers' => 1,
				'routes'  => 1,
				'areas'   => 1,
				'posts'   => 0,
			),
			$report['kinds']
		);
		$this->assertSame( array( 3 ), array_column( $report['skipped'], 'feature' ) );
		$this->assertSame( array( 'Point', 'LineString', 'Polygon' ), array_column( array_column( $report['preview']['features'], 'geometry' ), 'type' ) );
		$this->assertSame( $posts, $this->count_markers() );
	}

	/**
	 * A `post_type` column imports a row as a post of a type enabled for places (its place
	 * public); a type not enabled, or a shape for a post, is refused on its line.
	 */
	public function test_post_type_rows_become_posts_of_enabled_types_only(): void {
		update_option( Location_Types::OPTION, array( 'post' ) );
		$this->act_as( 'editor' );
		$csv      = "title,lat,lng,post_type,group\n"
			. "Marker row,1,1,,\n"
			. "Post row,2,3,post,Huts\n"
			. "Page row,4,5,page,\n"
			. "Unknown row,6,7,spaceship,\n"
			. "Explicit marker,8,9,cairn_marker,\n";
		$response = $this->import( $csv );
		$this->assertSame( 200, $response->get_status(), (string) wp_json_encode( $response->get_data() ) );
		$report = $response->get_data();
		$this->assertSame( 3, $report['imported'] );
		$this->assertSame( 1, $report['kinds']['posts'] );
		$this->assertSame( array( 4, 5 ), array_column( $report['skipped'], 'line' ) );
		$this->assertStringContainsString( '"page" is not enabled for places', $report['skipped'][0]['message'] );
		$this->assertSame( array( 3 ), array_column( $report['notices'], 'line' ), 'the post row lost its group, and says so' );
		$this->assertSame( array(), $report['groups_created'], 'no group for a post' );

		$posts = get_posts(
			array(
				'post_type' => 'post',
				'title'     => 'Post row',
			)
		);
		$this->assertCount( 1, $posts );
		$this->assertSame( 'publish', $posts[0]->post_status );
		$this->assertSame( '2', get_post_meta( $posts[0]->ID, Location_Types::META_LAT, true ) );
		$this->assertSame( '3', get_post_meta( $posts[0]->ID, Location_Types::META_LNG, true ) );
		$this->assertSame( '1', get_post_meta( $posts[0]->ID, Location_Types::META_PUBLIC, true ) );
		$this->assertSame(
			array(),
			get_posts(
				array(
					'post_type' => 'page',
					'title'     => 'Page row',
				)
			)
		);
		$this->assertSame( 2, $this->count_markers() );

		// The visitor's map of posts shows it.
		wp_set_current_user( 0 );
		$feed = $this->rest( 'GET', '/cairn/v1/markers', array( 'post_type' => 'post' ) );
		$this->assertSame( 200, $feed->get_status() );
		$this->assertStringContainsString( 'Post row', (string) wp_json_encode( $feed->get_data() ) );
	}

	/**
	 * KML folders: "one group per folder" puts each folder's rows in a group of its name (an
	 * existing group matched by name, else a new one); "all in this group" puts every row in one
	 * group. Someone without edit_terms gets existing groups only; the other rows are refused.
	 */
	public function test_folders_become_groups_matched_by_name_or_created(): void {
		$existing = $this->create_group( 'hut-group', 'Huts' );
		$records  = array(
			array(
				'at'     => array(
					'row'   => 1,
					'label' => 'placemark "A"',
				),
				'line'   => 3,
				'folder' => 'Huts',
				'fields' => $this->fields( 'A', 1, 1 ),
			),
			array(
				'at'      => array(
					'row'   => 2,
					'label' => 'placemark "B"',
				),
				'line'    => 7,
				'folder'  => 'Trips / Alps',
				'notices' => array(
					array(
						'line'    => 8,
						'message' => 'A one-point segment was dropped.',
					),
				),
				'fields'  => $this->fields( 'B', 2, 2 ),
			),
			array(
				'at'      => array(
					'row'   => 4,
					'label' => 'placemark "Empty"',
				),
				'line'    => 8,
				'skipped' => true,
				'error'   => 'This placemark has no geometry, so it was left out.',
			),
			array(
				'at'     => array(
					'row'   => 3,
					'label' => 'placemark "C"',
				),
				'line'   => 9,
				'folder' => '',
				'fields' => $this->fields( 'C', 3, 3 ),
			),
		);
		$this->act_as( 'editor' );
		$import = new Marker_Import();
		$report = $import->run( $records, array( 'folder_groups' => true ) );
		$this->assertIsArray( $report );
		$this->assertSame( 3, $report['imported'] );
		$this->assertSame( array( 'trips-alps' ), $report['groups_created'], 'the existing "Huts" group was matched by name' );
		$this->assertSame( array( 'A' ), $this->titles_in( $existing ) );
		$alps = get_term_by( 'slug', 'trips-alps', Post_Type::TAXONOMY );
		$this->assertInstanceOf( \WP_Term::class, $alps );
		$this->assertSame( 'Trips / Alps', $alps->name );
		$this->assertSame( array( 'B' ), $this->titles_in( $alps->term_id ) );
		$this->assertSame( array( 'A one-point segment was dropped.', 'This placemark has no geometry, so it was left out.' ), array_column( $report['notices'], 'message' ), "the readers' notices and left-out places are reported as notes" );
		$this->assertSame( array(), $report['skipped'] );
		$this->assertSame( 2, $report['notices'][0]['row'] );

		// All in one group, for someone who may not create groups: an existing one works.
		$role = get_role( 'editor' );
		$caps = array_filter( $role ? $role->capabilities : array() );
		unset( $caps['manage_categories'] );
		add_role( 'cairn_importer', 'Importer', $caps );
		$this->act_as( 'cairn_importer' );
		$one = $import->run( array_map( static fn( array $r ): array => array( 'folder' => '' ) + $r, $records ), array( 'group' => 'Huts' ) );
		$this->assertIsArray( $one );
		$this->assertSame( 3, $one['imported'] );
		$this->assertSame( array( 'A', 'A', 'B', 'C' ), $this->titles_in( $existing ) );

		// …and a folder that names no group refuses its rows, not the others.
		$records[1]['folder'] = 'Trips / Dolomites';
		$folders              = $import->run(
			$records,
			array(
				'folder_groups' => true,
				'dry_run'       => true,
			)
		);
		$this->assertIsArray( $folders );
		$this->assertSame( 2, $folders['imported'] );
		$this->assertSame( array( 2 ), array_column( $folders['skipped'], 'row' ) );
		$this->assertStringContainsString( 'not allowed to create groups', $folders['skipped'][0]['message'] );
	}

	/**
	 * A CSV file read from disk in chunks (WP-CLI) reports the same lines as the whole file read
	 * at once, also when a quoted cell holds line ends across a chunk's end.
	 */
	public function test_a_csv_file_read_in_chunks_reports_the_file_lines(): void {
		$this->act_as( 'editor' );
		$csv  = "\xEF\xBB\xBFtitle,lat,lng,description\n"  // Line 1.
			. "One,1,1,\n"                                  // Line 2.
			. "Two,1,1,\"first\nsecond\nthird\"\n"          // Lines 3–5.
			. "Bad,91,1,\n"                                 // Line 6.
			. "\n"                                          // Line 7.
			. ",1,1,\n"                                     // Line 8.
			. "Three,1,1,\"a \"\"quoted\"\"\nword\"\n"      // Lines 9–10.
			. "Worse,1,east,\n";                            // Line 11.
		$file = (string) tempnam( get_temp_dir(), 'cairn-import' );
		file_put_contents( $file, $csv ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_file_put_contents
		$import = new Marker_Import();
		$ticks  = array();
		$dry    = $import->import_file(
			$file,
			'csv',
			array(
				'dry_run'    => true,
				'chunk_rows' => 2,
			),
			static function ( int $bytes ) use ( &$ticks ): void {
				$ticks[] = $bytes;
			}
		);
		$whole  = $this->import( $csv, array( 'dry_run' => '1' ) )->get_data();
		$this->assertIsArray( $dry );
		$this->assertSame( array( 6, 8, 11 ), array_column( $dry['skipped'], 'line' ) );
		$this->assertSame( $whole['skipped'], $dry['skipped'] );
		$this->assertSame( 3, $dry['imported'] );
		$this->assertGreaterThanOrEqual( 3, count( $ticks ), 'progress after each chunk' );
		$this->assertSame( strlen( $csv ), end( $ticks ) );

		$done = $import->import_file( $file, 'csv', array( 'chunk_rows' => 2 ) );
		unlink( $file ); // phpcs:ignore WordPress.WP.AlternativeFunctions.unlink_unlink
		$this->assertIsArray( $done );
		$this->assertSame( 3, $done['imported'] );
		$stored = get_posts(
			array(
				'post_type' => Post_Type::POST_TYPE,
				'title'     => 'Two',
			)
		);
		$this->assertSame( "first\nsecond\nthird", $stored[0]->post_content );
	}

	/**
	 * Raw fields as the readers give them.
	 *
	 * @param string $title Title.
	 * @param float  $lat   Latitude.
	 * @param float  $lng   Longitude.
	 * @return array<string, mixed>
	 */
	private function fields( string $title, float $lat, float $lng ): array {
		return array(
			'title'       => $title,
			'lat'         => $lat,
			'lng'         => $lng,
			'groups'      => array(),
			'description' => '',
			'address'     => '',
		);
	}

	/**
	 * Titles of the markers in a group, sorted.
	 *
	 * @param int $term_id Group id.
	 * @return string[]
	 */
	private function titles_in( int $term_id ): array {
		$titles = array_map(
			'get_the_title',
			get_posts(
				array(
					'post_type'   => Post_Type::POST_TYPE,
					'numberposts' => -1,
					'tax_query'   => array( // phpcs:ignore WordPress.DB.SlowDBQuery.slow_db_query_tax_query -- a test's few markers.
						array(
							'taxonomy' => Post_Type::TAXONOMY,
							'terms'    => $term_id,
						),
					), // phpcs:ignore WordPress.DB.SlowDBQuery.slow_db_query_tax_query
				)
			)
		);
		sort( $titles );
		return $titles;
	}
}
