<?php
/**
 * Routes and areas imported from GPX, KML, KMZ and GeoJSON, exported, and imported back.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Import_Export;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Import_Export\Import_Export_Page;
use Cairn\Maps\Import_Export\Marker_Export;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Tests\TestCase;
use WP_REST_Request;
use WP_REST_Response;
use ZipArchive;

/**
 * `POST /cairn/v1/markers/import` with shapes, as an editor; the stored markers and meta; the
 * GeoJSON and CSV exports of shapes.
 *
 * @since 0.5.0
 */
final class Shape_ImportTest extends TestCase {

	private const IMPORT = '/cairn/v1/markers/import';
	private const EXPORT = '/cairn/v1/markers/export';

	/**
	 * Imports as an editor.
	 */
	protected function set_up(): void {
		parent::set_up();
		$this->act_as( 'editor' );
	}

	/**
	 * A fixture's content.
	 *
	 * @param string $name File name in tests/fixtures/shapes.
	 */
	private static function fixture( string $name ): string {
		return (string) file_get_contents( dirname( __DIR__, 2 ) . '/fixtures/shapes/' . $name ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a test fixture.
	}

	/**
	 * Posts a file body to the import route.
	 *
	 * @param string               $body  File content.
	 * @param string               $type  Content type.
	 * @param array<string, mixed> $query Query parameters.
	 */
	private function import( string $body, string $type, array $query = array() ): WP_REST_Response {
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
	 * The marker with a title.
	 *
	 * @param string $title Title.
	 */
	private function marker( string $title ): \WP_Post {
		$posts = get_posts(
			array(
				'post_type'   => Post_Type::POST_TYPE,
				'post_status' => 'any',
				'title'       => $title,
			)
		);
		$this->assertCount( 1, $posts, $title );
		return $posts[0];
	}

	/**
	 * A marker's stored geometry, decoded.
	 *
	 * @param int $id Marker id.
	 * @return mixed
	 */
	private static function stored_geometry( int $id ) {
		$text = get_post_meta( $id, 'cairn_geometry', true );
		return '' === $text ? null : json_decode( (string) $text, true );
	}

	/**
	 * A GPX with elevation: the track and the route become shapes (elevation kept, anchored at
	 * their start), the waypoint a point; the route without elevation imports with a notice.
	 */
	public function test_gpx_imports_tracks_with_elevation(): void {
		$response = $this->import( self::fixture( 'ridge-loop.gpx' ), 'application/gpx+xml' );
		$this->assert_status( 200, $response );
		$data = $response->get_data();
		$this->assertSame( 'gpx', $data['format'] );
		$this->assertSame( 3, $data['imported'] );
		$this->assertSame( 2, $data['shapes'] );
		$this->assertSame( array(), $data['skipped'] );
		$this->assertCount( 1, $data['notices'] );
		$this->assertSame( 3, $data['notices'][0]['row'] );
		$this->assertSame( 'route "Road back"', $data['notices'][0]['label'] );
		$this->assertStringContainsString( 'no elevation', $data['notices'][0]['message'] );

		$track = $this->marker( 'Ridge loop' );
		$this->assertSame( 'publish', $track->post_status );
		$this->assertSame( 'Up the ridge, down the glen.', $track->post_content );
		$geometry = self::stored_geometry( $track->ID );
		$this->assertSame( 'MultiLineString', $geometry['type'] );
		$this->assertEquals( array( -5.05, 56.8, 120 ), $geometry['coordinates'][0][0] );
		$this->assertEquals( array( -5.0, 56.805, 150 ), $geometry['coordinates'][1][1] );
		$this->assertEqualsWithDelta( 56.8, (float) get_post_meta( $track->ID, Post_Type::META_LAT, true ), 1e-9 );
		$this->assertEqualsWithDelta( -5.05, (float) get_post_meta( $track->ID, Post_Type::META_LNG, true ), 1e-9 );
		$shape = json_decode( (string) get_post_meta( $track->ID, '_cairn_shape', true ), true );
		$this->assertIsArray( $shape );
		$this->assertGreaterThan( 0, $shape['length_m'] );
		$this->assertIsArray( $shape['profile'] );

		// Through REST, as an editor reads it.
		$read = $this->rest( 'GET', '/wp/v2/cairn-markers/' . $track->ID, array( 'context' => 'edit' ) );
		$this->assertSame( 'MultiLineString', $read->get_data()['meta']['cairn_geometry']['type'] ?? null );

		$route = $this->marker( 'Road back' );
		$this->assertSame( 'LineString', self::stored_geometry( $route->ID )['type'] );
		$shape = json_decode( (string) get_post_meta( $route->ID, '_cairn_shape', true ), true );
		$this->assertNull( $shape['profile'] );

		$summit = $this->marker( 'Summit cairn' );
		$this->assertNull( self::stored_geometry( $summit->ID ) );
		$this->assertSame( '', get_post_meta( $summit->ID, '_cairn_shape', true ) );
		$this->assertEqualsWithDelta( 56.7969, (float) get_post_meta( $summit->ID, Post_Type::META_LAT, true ), 1e-9 );
	}

	/**
	 * A KML area with a hole, lines, a point; the description sanitised like other imports; the
	 * area anchored inside it. A KMZ of the same KML imports the same.
	 */
	public function test_kml_and_kmz_import_areas(): void {
		$response = $this->import( self::fixture( 'town-zones.kml' ), 'application/vnd.google-earth.kml+xml' );
		$this->assert_status( 200, $response );
		$this->assertSame( 3, $response->get_data()['imported'] );
		$this->assertSame( 2, $response->get_data()['shapes'] );
		// The canal paths' altitudes are not `absolute`: no elevations (issue 32).
		$this->assertSame( array( 'placemark "Canal paths"' ), array_column( $response->get_data()['notices'], 'label' ) );

		$zone = $this->marker( 'Old town' );
		$this->assertStringContainsString( '<strong>cafés</strong>', $zone->post_content );
		$this->assertStringNotContainsString( '<script', $zone->post_content );
		$geometry = self::stored_geometry( $zone->ID );
		$this->assertSame( 'Polygon', $geometry['type'] );
		$this->assertCount( 2, $geometry['coordinates'] );
		$lat = (float) get_post_meta( $zone->ID, Post_Type::META_LAT, true );
		$lng = (float) get_post_meta( $zone->ID, Post_Type::META_LNG, true );
		$this->assertTrue( $lat > 55.94 && $lat < 55.96 && $lng > -3.2 && $lng < -3.18, "anchor $lat,$lng inside the area" );
		$this->assertFalse( $lat > 55.945 && $lat < 55.955 && $lng > -3.195 && $lng < -3.185, "anchor $lat,$lng not in the hole" );
		$this->assertSame( 'MultiLineString', self::stored_geometry( $this->marker( 'Canal paths' )->ID )['type'] );

		$path = (string) tempnam( get_temp_dir(), 'cairn-test-kmz' );
		$zip  = new ZipArchive();
		$zip->open( $path, ZipArchive::OVERWRITE );
		$zip->addFromString( 'doc.kml', str_replace( 'Old town', 'Zipped town', self::fixture( 'town-zones.kml' ) ) );
		$zip->close();
		$kmz = (string) file_get_contents( $path ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- the archive just written.
		unlink( $path ); // phpcs:ignore WordPress.WP.AlternativeFunctions.unlink_unlink -- as above.
		$response = $this->import( $kmz, 'application/vnd.google-earth.kmz' );
		$this->assert_status( 200, $response );
		$this->assertSame( 'kmz', $response->get_data()['format'] );
		$this->assertSame( 'Polygon', self::stored_geometry( $this->marker( 'Zipped town' )->ID )['type'] );
	}

	/**
	 * GeoJSON lines and areas are kept as shapes (a given `anchor` is the marker's point).
	 */
	public function test_geojson_shapes(): void {
		$file     = array(
			'type'     => 'FeatureCollection',
			'features' => array(
				array(
					'type'       => 'Feature',
					'geometry'   => array(
						'type'        => 'LineString',
						'coordinates' => array( array( 7.0, 46.0, 500 ), array( 7.01, 46.01, 650 ) ),
					),
					'properties' => array(
						'title'  => 'Col path',
						'groups' => array( 'trails' ),
						'anchor' => array( 7.005, 46.005 ),
					),
				),
				array(
					'type'       => 'Feature',
					'geometry'   => array(
						'type'        => 'MultiPolygon',
						'coordinates' => array( array( array( array( 0, 0 ), array( 1, 0 ), array( 1, 1 ), array( 0, 0 ) ) ) ),
					),
					'properties' => array( 'title' => 'Meadow' ),
				),
			),
		);
		$response = $this->import( (string) wp_json_encode( $file ), 'application/geo+json' );
		$this->assert_status( 200, $response );
		$this->assertSame( 2, $response->get_data()['shapes'] );
		$path = $this->marker( 'Col path' );
		$this->assertEquals( array( array( 7.0, 46.0, 500 ), array( 7.01, 46.01, 650 ) ), self::stored_geometry( $path->ID )['coordinates'] );
		$this->assertSame( '46.005', get_post_meta( $path->ID, Post_Type::META_LAT, true ) );
		$this->assertSame( '7.005', get_post_meta( $path->ID, Post_Type::META_LNG, true ) );
		$this->assertSame( array( 'trails' ), wp_get_object_terms( $path->ID, Post_Type::TAXONOMY, array( 'fields' => 'slugs' ) ) );
		$this->assertSame( 'MultiPolygon', self::stored_geometry( $this->marker( 'Meadow' )->ID )['type'] );
	}

	/**
	 * Files that cannot be read at all: one clear message, nothing saved.
	 *
	 * @dataProvider provide_unreadable_files
	 *
	 * @param string $type   Content type.
	 * @param string $body   File content.
	 * @param int    $status Expected status.
	 * @param string $text   Part of the message.
	 */
	public function test_unreadable_files_save_nothing( string $type, string $body, int $status, string $text ): void {
		add_filter( 'cairn_maps_import_max_bytes', static fn(): int => 256 * KB_IN_BYTES );
		$response = $this->import( $body, $type, array( 'valid_only' => true ) );
		$this->assert_status( $status, $response );
		$this->assertStringContainsString( $text, $response->get_data()['message'] );
		$this->assertSame( 0, $this->count_markers() );
	}

	/**
	 * Unreadable files.
	 *
	 * @return array<string, array{0: string, 1: string, 2: int, 3: string}>
	 */
	public static function provide_unreadable_files(): array {
		$gpx  = self::fixture( 'ridge-loop.gpx' );
		$path = (string) tempnam( sys_get_temp_dir(), 'cairn-test-kmz' );
		$zip  = new ZipArchive();
		$zip->open( $path, ZipArchive::OVERWRITE );
		$zip->addFromString( 'doc.kml', '<kml>' . str_repeat( '<!-- -->', 200000 ) . '</kml>' );
		$zip->close();
		$bomb = (string) file_get_contents( $path ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- the archive just written.
		unlink( $path ); // phpcs:ignore WordPress.WP.AlternativeFunctions.unlink_unlink -- as above.
		return array(
			'malformed xml'  => array( 'application/gpx+xml', str_replace( '</name>', '</nam>', $gpx ), 400, 'not well-formed GPX' ),
			'truncated gpx'  => array( 'application/gpx+xml', substr( $gpx, 0, (int) ( strlen( $gpx ) * 0.7 ) ), 400, 'It may be cut short' ),
			'doctype xxe'    => array( 'application/gpx+xml', '<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><gpx><wpt lat="1" lon="2"><name>&xxe;</name></wpt></gpx>', 400, 'contains a DOCTYPE' ),
			'billion laughs' => array( 'application/vnd.google-earth.kml+xml', '<!DOCTYPE kml [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]><kml><Placemark><name>&d;</name><Point><coordinates>1,2</coordinates></Point></Placemark></kml>', 400, 'contains a DOCTYPE' ),
			'kmz bomb'       => array( 'application/vnd.google-earth.kmz', $bomb, 413, 'larger than 256 KB once unzipped' ),
			'kmz not a zip'  => array( 'application/vnd.google-earth.kmz', $gpx, 400, 'not a zip archive' ),
			'over the size'  => array( 'application/gpx+xml', '<gpx>' . str_repeat( ' ', 300 * KB_IN_BYTES ) . '</gpx>', 413, 'larger than 256 KB' ),
		);
	}

	/**
	 * A GeoJSON line of a million vertices (6 MB, under the size limit) is refused before it is
	 * decoded: decoded, it would take about 230 MB of PHP memory. Sent as `application/geo+json`,
	 * which the REST server would decode as parameters if the route did not keep it as text.
	 */
	public function test_a_million_geojson_vertices(): void {
		$body = '{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"title":"Long"},"geometry":{"type":"LineString","coordinates":[' . rtrim( str_repeat( '[0,0],', 1000000 ), ',' ) . ']}}]}';
		if ( function_exists( 'memory_reset_peak_usage' ) ) {
			memory_reset_peak_usage(); // PHP 8.2+: the peak of this test only.
		}
		$before = memory_get_usage();
		$this->assertLessThan( 8 * MB_IN_BYTES, strlen( $body ) );
		$response = $this->import( $body, 'application/geo+json' );
		$this->assert_status( 413, $response );
		$this->assertStringContainsString( 'The file holds about 1,000,002 coordinate positions; a GeoJSON import may hold at most 250,000 (and a shape at most 100,000 vertices).', $response->get_data()['message'] );
		$this->assertLessThan( 40 * MB_IN_BYTES, memory_get_peak_usage() - $before );
		$this->assertSame( 0, $this->count_markers() );
	}

	/**
	 * Bad shapes are row errors with the row and its name; a dry run saves nothing, an import only
	 * the good rows.
	 *
	 * @dataProvider provide_bad_shapes
	 *
	 * @param string $type Content type.
	 * @param string $body File content (its second place is the bad one).
	 * @param string $text Part of the row's message.
	 */
	public function test_bad_shapes_are_row_errors( string $type, string $body, string $text ): void {
		$response = $this->import( $body, $type, array( 'dry_run' => true ) );
		$this->assert_status( 200, $response );
		$data = $response->get_data();
		$this->assertSame( 1, $data['imported'], 'would be imported' );
		$this->assertCount( 1, $data['skipped'] );
		$error = $data['skipped'][0];
		$this->assertSame( 2, $error['row'] ?? ( $error['feature'] + 1 ) );
		$this->assertStringContainsString( $text, $error['message'] );
		$this->assertSame( 0, $this->count_markers(), 'a dry run stores nothing' );

		$response = $this->import( $body, $type );
		$this->assert_status( 200, $response );
		$this->assertSame( 1, $response->get_data()['imported'] );
		$this->assertSame( 1, $this->count_markers() );
		$this->assertSame( 'Good', get_the_title( $this->marker( 'Good' ) ) );
	}

	/**
	 * Files with one bad shape after a good one.
	 *
	 * @return array<string, array{0: string, 1: string, 2: string}>
	 */
	public static function provide_bad_shapes(): array {
		$good_kml = '<Placemark><name>Good</name><Point><coordinates>1,2</coordinates></Point></Placemark>';
		$kml      = static fn( string $coordinates ): string => '<kml><Document>' . $good_kml . '<Placemark><name>Bad</name><Polygon><outerBoundaryIs><LinearRing><coordinates>' . $coordinates . '</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></Document></kml>';
		$million  = '<gpx><wpt lat="1" lon="2"><name>Good</name></wpt><trk><name>Long</name><trkseg>' . str_repeat( '<trkpt lat="1" lon="2"/>', 100001 ) . '</trkseg></trk></gpx>';
		return array(
			'ring of 3'         => array( 'application/vnd.google-earth.kml+xml', $kml( '0,0 1,0 0,0' ), 'at least 4 positions' ),
			'self-intersecting' => array( 'application/vnd.google-earth.kml+xml', $kml( '0,0 1,1 1,0 0,1 0,0' ), 'crosses or touches itself' ),
			'out of range'      => array( 'application/gpx+xml', '<gpx><wpt lat="1" lon="2"><name>Good</name></wpt><trk><name>Polar</name><trkseg><trkpt lat="95" lon="2"/><trkpt lat="1" lon="2"/></trkseg></trk></gpx>', '90' ),
			'too many vertices' => array( 'application/gpx+xml', $million, 'This shape has 100,001 vertices; the most a shape may have is 100,000.' ),
			'mixed kml'         => array( 'application/vnd.google-earth.kml+xml', '<kml>' . $good_kml . '<Placemark><name>Mixed</name><MultiGeometry><Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 1,0 1,1 0,0</coordinates></LinearRing></outerBoundaryIs></Polygon><LineString><coordinates>0,0 1,1</coordinates></LineString></MultiGeometry></Placemark></kml>', 'mixes lines and areas' ),
		);
	}

	/**
	 * The report line of a bad GPX or KML place names its row and what it is.
	 */
	public function test_report_lines_name_the_row(): void {
		$response = $this->import( '<kml><Placemark><name>Good</name><Point><coordinates>1,2</coordinates></Point></Placemark><Placemark><name>Ridge loop</name><Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 1,0 0,0</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></kml>', 'application/vnd.google-earth.kml+xml' );
		$report   = Import_Export_Page::report( $response->get_data() );
		$this->assertStringStartsWith( 'Row 2 (placemark "Ridge loop"): ', $report['problems'][0] );
		$this->assertStringContainsString( 'at least 4 positions', $report['problems'][0] );

		$ok     = $this->import( self::fixture( 'ridge-loop.gpx' ), 'application/gpx+xml' );
		$report = Import_Export_Page::report( $ok->get_data() );
		$this->assertStringContainsString( '3 markers were imported. 2 of them are routes or areas.', $report['message'] );
		$this->assertStringStartsWith( 'Row 3 (route "Road back"): This line has no elevation', $report['notices'][0] );
	}

	/**
	 * The GeoJSON export writes a shape's full geometry (elevation kept) and its anchor; importing
	 * it back restores both. The CSV keeps the anchor row and says how many shapes it left out.
	 */
	public function test_export_round_trip(): void {
		$this->assert_status( 200, $this->import( self::fixture( 'ridge-loop.gpx' ), 'application/gpx+xml' ) );
		$this->assert_status( 200, $this->import( self::fixture( 'town-zones.kml' ), 'application/vnd.google-earth.kml+xml' ) );
		$before = array();
		foreach ( array( 'Ridge loop', 'Road back', 'Old town', 'Canal paths', 'Summit cairn', 'Market cross' ) as $title ) {
			$id               = $this->marker( $title )->ID;
			$before[ $title ] = array(
				self::stored_geometry( $id ),
				get_post_meta( $id, Post_Type::META_LAT, true ),
				get_post_meta( $id, Post_Type::META_LNG, true ),
			);
		}

		$csv = $this->rest( 'GET', self::EXPORT, array( 'format' => 'csv' ) );
		$this->assertSame( '4', $csv->get_headers()['X-Cairn-Shapes-Omitted'] );
		$this->assertStringContainsString( 'Ridge loop,56.8,-5.05,,"Up the ridge, down the glen."', (string) $csv->get_data() );
		$this->assertSame( 4, ( new Marker_Export() )->count_shapes() );

		$response = $this->rest( 'GET', self::EXPORT, array( 'format' => 'geojson' ) );
		$this->assertArrayNotHasKey( 'X-Cairn-Shapes-Omitted', $response->get_headers() );
		$geojson = (string) $response->get_data();
		$data    = json_decode( $geojson, true );
		$by      = array_column( $data['features'], null, 'id' );
		$track   = $by[ $this->marker( 'Ridge loop' )->ID ];
		$this->assertSame( 'MultiLineString', $track['geometry']['type'] );
		$this->assertEquals( array( -5.05, 56.8, 120 ), $track['geometry']['coordinates'][0][0] );
		$this->assertEquals( array( -5.05, 56.8 ), $track['properties']['anchor'] );
		$this->assertArrayNotHasKey( 'anchor', $by[ $this->marker( 'Summit cairn' )->ID ]['properties'] );

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

		$response = $this->import( $geojson, 'application/geo+json' );
		$this->assert_status( 200, $response );
		$this->assertSame( 6, $response->get_data()['imported'] );
		$this->assertSame( 4, $response->get_data()['shapes'] );
		foreach ( $before as $title => $expected ) {
			$id = $this->marker( $title )->ID;
			$this->assertEquals( $expected[0], self::stored_geometry( $id ), $title );
			$this->assertSame( $expected[1], get_post_meta( $id, Post_Type::META_LAT, true ), $title );
			$this->assertSame( $expected[2], get_post_meta( $id, Post_Type::META_LNG, true ), $title );
		}
	}
}
