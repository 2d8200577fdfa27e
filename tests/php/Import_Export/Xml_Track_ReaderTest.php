<?php
/**
 * GPX, KML and KMZ files read into import records, and the files refused as a whole.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Import_Export;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Import_Export\Import_Reader;
use Cairn\Maps\Import_Export\Xml_Track_Reader;
use Cairn\Maps\Tests\TestCase;
use WP_Error;
use ZipArchive;

/**
 * Xml_Track_Reader and Kmz_Archive, through Import_Reader::read() as the import calls them.
 *
 * @since 0.5.0
 */
final class Xml_Track_ReaderTest extends TestCase {

	/**
	 * A fixture's content.
	 *
	 * @param string $name File name in tests/fixtures/shapes.
	 */
	private static function fixture( string $name ): string {
		return (string) file_get_contents( dirname( __DIR__, 2 ) . '/fixtures/shapes/' . $name ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a test fixture.
	}

	/**
	 * A KMZ archive holding the given entries.
	 *
	 * @param array<string, string> $entries Content by entry name.
	 */
	private static function kmz( array $entries ): string {
		$path = (string) tempnam( get_temp_dir(), 'cairn-test-kmz' );
		$zip  = new ZipArchive();
		$zip->open( $path, ZipArchive::OVERWRITE );
		foreach ( $entries as $name => $content ) {
			$zip->addFromString( $name, $content );
		}
		$zip->close();
		$content = (string) file_get_contents( $path ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- the archive just written.
		unlink( $path ); // phpcs:ignore WordPress.WP.AlternativeFunctions.unlink_unlink -- as above.
		return $content;
	}

	/**
	 * Asserts a WP_Error with a code and a message containing a text.
	 *
	 * @param string $code   Error code.
	 * @param string $text   Part of the message.
	 * @param mixed  $result Result.
	 */
	private function assert_refused( string $code, string $text, $result ): void {
		$this->assertInstanceOf( WP_Error::class, $result, 'got: ' . wp_json_encode( $result ) );
		$this->assertSame( $code, $result->get_error_code(), $result->get_error_message() );
		$this->assertStringContainsString( $text, $result->get_error_message() );
	}

	/**
	 * GPX: a waypoint, a two-segment track with elevation, a route; names, descriptions, rows.
	 */
	public function test_gpx_tracks_routes_and_waypoints(): void {
		$records = Import_Reader::read( self::fixture( 'ridge-loop.gpx' ), 'gpx', 100 );
		$this->assertIsArray( $records );
		$this->assertCount( 3, $records );

		$this->assertSame(
			array(
				'row'   => 1,
				'label' => 'waypoint "Summit cairn"',
			),
			$records[0]['at']
		);
		$this->assertSame( 'Summit cairn', $records[0]['fields']['title'] );
		$this->assertSame( 56.7969, $records[0]['fields']['lat'] );
		$this->assertSame( -5.0036, $records[0]['fields']['lng'] );
		$this->assertSame( 'The trig point & shelter.', $records[0]['fields']['description'] );
		$this->assertArrayNotHasKey( 'geometry', $records[0]['fields'] );

		$track = $records[1]['fields'];
		$this->assertSame( 'track "Ridge loop"', $records[1]['at']['label'] );
		$this->assertSame( 'Ridge loop', $track['title'] );
		$this->assertSame( 'Up the ridge, down the glen.', $track['description'] );
		$this->assertNull( $track['lat'] );
		$this->assertSame( 'MultiLineString', $track['geometry']['type'] );
		$this->assertSame(
			array(
				array( array( -5.05, 56.8, 120.0 ), array( -5.04, 56.801, 260.5 ), array( -5.03, 56.802, 410.0 ), array( -5.02, 56.803, 395.0 ) ),
				array( array( -5.01, 56.804, 380.0 ), array( -5.0, 56.805, 150.0 ) ),
			),
			$track['geometry']['coordinates']
		);

		$route = $records[2]['fields'];
		$this->assertSame( 'Road back', $route['title'] );
		$this->assertSame( 'No elevation on this one.', $route['description'] );
		$this->assertSame(
			array(
				'type'        => 'LineString',
				'coordinates' => array( array( -5.0, 56.805 ), array( -5.05, 56.8 ) ),
			),
			$route['geometry']
		);
	}

	/**
	 * A GPX track of one segment is a LineString; without a name it gets "Track <n>".
	 */
	public function test_gpx_single_segment_and_no_name(): void {
		$gpx     = '<gpx><trk><trkseg><trkpt lat="1" lon="2"/><trkpt lat="1.5" lon="2.5"/></trkseg><trkseg/></trk></gpx>';
		$records = Import_Reader::read( $gpx, 'gpx', 10 );
		$this->assertIsArray( $records );
		$this->assertSame( 'Track 1', $records[0]['fields']['title'] );
		$this->assertSame( 'track', $records[0]['at']['label'] );
		$this->assertSame(
			array(
				'type'        => 'LineString',
				'coordinates' => array( array( 2.0, 1.0 ), array( 2.5, 1.5 ) ),
			),
			$records[0]['fields']['geometry']
		);
	}

	/**
	 * KML: a polygon with a hole (outer ring first), lines in a MultiGeometry, a point; altitudes
	 * that are all 0 are dropped, real ones kept.
	 */
	public function test_kml_areas_lines_and_points(): void {
		$records = Import_Reader::read( self::fixture( 'town-zones.kml' ), 'kml', 100 );
		$this->assertIsArray( $records );
		$this->assertCount( 3, $records );

		$zone = $records[0]['fields'];
		$this->assertSame( 'placemark "Old town"', $records[0]['at']['label'] );
		$this->assertStringContainsString( '<strong>cafés</strong>', $zone['description'] );
		$this->assertSame( 'Polygon', $zone['geometry']['type'] );
		$this->assertCount( 2, $zone['geometry']['coordinates'] );
		$this->assertSame( array( -3.2, 55.94 ), $zone['geometry']['coordinates'][0][0] );
		$this->assertSame( array( -3.195, 55.945 ), $zone['geometry']['coordinates'][1][0] );

		$paths = $records[1]['fields']['geometry'];
		$this->assertSame( 'MultiLineString', $paths['type'] );
		// Altitudes without `absolute` are not elevations (issue 32).
		$this->assertSame( array( -3.21, 55.94 ), $paths['coordinates'][0][0] );
		$this->assertSame( array( -3.24, 55.943 ), $paths['coordinates'][1][1] );

		$this->assertSame( 'Market cross', $records[2]['fields']['title'] );
		$this->assertSame( 55.95, $records[2]['fields']['lat'] );
		$this->assertSame( -3.19, $records[2]['fields']['lng'] );
	}

	/**
	 * KML altitudes marked `absolute` are elevations, unless every one is 0 (a shape drawn on the
	 * ground, which some tools write as absolute 0): then the line is 2D.
	 */
	public function test_kml_absolute_altitudes_of_zero_are_on_the_ground(): void {
		$kml    = static fn( string $coordinates ): string => '<kml><Placemark><name>Ridge</name><LineString><altitudeMode>absolute</altitudeMode><coordinates>'
			. $coordinates . '</coordinates></LineString></Placemark></kml>';
		$ground = Import_Reader::read( $kml( '7,46,0 7.01,46.01,0 7.02,46.02,0' ), 'kml', 10 );
		$this->assertIsArray( $ground );
		$this->assertSame( array( 7.0, 46.0 ), array_map( 'floatval', $ground[0]['fields']['geometry']['coordinates'][0] ), 'all 0: on the ground, 2D' );
		$high = Import_Reader::read( $kml( '7,46,0 7.01,46.01,1250 7.02,46.02,1300' ), 'kml', 10 );
		$this->assertIsArray( $high );
		$this->assertSame( array( 7.0, 46.0, 0.0 ), array_map( 'floatval', $high[0]['fields']['geometry']['coordinates'][0] ), 'elevations kept, the 0 too' );
	}

	/**
	 * KML: a LinearRing alone is an area; a MultiGeometry of areas a MultiPolygon; mixed kinds,
	 * several points, or a gx:Track are row errors that name the problem.
	 */
	public function test_kml_multigeometry_rules(): void {
		$ring = '<coordinates>0,0 1,0 1,1 0,0</coordinates>';
		$kml  = '<kml xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>'
			. '<Placemark><name>Ring</name><LinearRing>' . $ring . '</LinearRing></Placemark>'
			. '<Placemark><name>Two areas</name><MultiGeometry><Polygon><outerBoundaryIs><LinearRing>' . $ring . '</LinearRing></outerBoundaryIs></Polygon><Polygon><outerBoundaryIs><LinearRing><coordinates>5,5 6,5 6,6 5,5</coordinates></LinearRing></outerBoundaryIs></Polygon></MultiGeometry></Placemark>'
			. '<Placemark><name>Mixed</name><MultiGeometry><Point><coordinates>0,0</coordinates></Point><LineString><coordinates>0,0 1,1</coordinates></LineString></MultiGeometry></Placemark>'
			. '<Placemark><name>Points</name><MultiGeometry><Point><coordinates>0,0</coordinates></Point><Point><coordinates>1,1</coordinates></Point></MultiGeometry></Placemark>'
			. '<Placemark><name>Ride</name><gx:Track><gx:coord>0 0 0</gx:coord></gx:Track></Placemark>'
			. '</Document></kml>';

		$records = Import_Reader::read( $kml, 'kml', 10 );
		$this->assertIsArray( $records );
		// Since issue 32 a LinearRing alone is a closed line, a Point with a line its anchor, and
		// a gx:Track of one fix a point.
		$this->assertSame( 'LineString', $records[0]['fields']['geometry']['type'] );
		$this->assertSame( array( array( 0.0, 0.0 ), array( 1.0, 0.0 ), array( 1.0, 1.0 ), array( 0.0, 0.0 ) ), $records[0]['fields']['geometry']['coordinates'] );
		$this->assertSame( 'MultiPolygon', $records[1]['fields']['geometry']['type'] );
		$this->assertCount( 2, $records[1]['fields']['geometry']['coordinates'] );
		$this->assertSame( 'LineString', $records[2]['fields']['geometry']['type'] );
		$this->assertSame( array( 0.0, 0.0 ), array( $records[2]['fields']['lat'], $records[2]['fields']['lng'] ) );
		$this->assertSame( 'placemark "Mixed"', $records[2]['at']['label'] );
		$this->assertStringContainsString( 'holds several points', $records[3]['error'] );
		$this->assertSame( array( 0.0, 0.0 ), array( $records[4]['fields']['lat'], $records[4]['fields']['lng'] ) );
	}

	/**
	 * KMZ: its doc.kml is read (other entries ignored); a KMZ without a KML, or that is no zip,
	 * is refused with a message saying so.
	 */
	public function test_kmz(): void {
		$kmz = self::kmz(
			array(
				'images/icon.png' => 'not read',
				'doc.kml'         => self::fixture( 'town-zones.kml' ),
			)
		);
		$this->assertSame( 'kmz', Import_Reader::detect_format( $kmz ) );
		$records = Import_Reader::read( $kmz, 'kmz', 10 );
		$this->assertIsArray( $records );
		$this->assertCount( 3, $records );
		$this->assertSame( 'Old town', $records[0]['fields']['title'] );

		$this->assert_refused( 'cairn_maps_import_kmz', 'holds no .kml file', Import_Reader::read( self::kmz( array( 'readme.txt' => 'hello' ) ), 'kmz', 10 ) );
		$this->assert_refused( 'cairn_maps_import_kmz', 'not a zip archive', Import_Reader::read( self::fixture( 'town-zones.kml' ), 'kmz', 10 ) );
		// Damaged compressed data (the zip extension warns): a message, no warning.
		$damaged = self::kmz( array( 'doc.kml' => '<kml>' . str_repeat( '<Placemark><name>Damaged</name></Placemark>', 500 ) . '</kml>' ) );
		for ( $at = 60; $at < 80; $at += 3 ) {
			$damaged[ $at ] = chr( ord( $damaged[ $at ] ) ^ 0xff );
		}
		$this->assert_refused( 'cairn_maps_import_kmz', 'The KML inside the KMZ archive is damaged', Import_Reader::read( $damaged, 'kmz', 10 ) );
		// Looks like a zip (its signature), is not one.
		$this->assert_refused( 'cairn_maps_import_kmz', 'not a readable zip archive', Import_Reader::read( "PK\x03\x04" . str_repeat( 'x', 200 ), 'kmz', 10 ) );
	}

	/**
	 * An archive of more than 1,000 entries is refused before any is read, with the count; one
	 * of exactly 1,000 is read.
	 */
	public function test_kmz_entry_cap(): void {
		$kml     = '<kml><Placemark><name>Cap</name><Point><coordinates>7,46</coordinates></Point></Placemark></kml>';
		$entries = array( 'doc.kml' => $kml );
		for ( $i = 1; $i < 1000; $i++ ) {
			$entries[ "files/$i.txt" ] = '';
		}
		$records = Import_Reader::read( self::kmz( $entries ), 'kmz', 10 );
		$this->assertIsArray( $records, 'exactly 1,000 entries: read' );
		$this->assertCount( 1, $records );
		$entries['files/1000.txt'] = '';
		$this->assert_refused( 'cairn_maps_import_kmz', 'holds 1,001 files; Cairn reads archives of at most 1,000', Import_Reader::read( self::kmz( $entries ), 'kmz', 10 ) );
	}

	/**
	 * A zip bomb: a KML that inflates past the size limit is refused from its declared size, and,
	 * when the archive lies about that size, once reading passes the limit.
	 */
	public function test_kmz_bomb(): void {
		add_filter( 'cairn_maps_import_max_bytes', static fn(): int => 64 * KB_IN_BYTES );
		$kml  = '<kml><Document>' . str_repeat( ' ', 2 * MB_IN_BYTES ) . '</Document></kml>';
		$bomb = self::kmz( array( 'doc.kml' => $kml ) );
		$this->assertLessThan( 16 * KB_IN_BYTES, strlen( $bomb ) );
		$this->assert_refused( 'cairn_maps_import_too_large', 'larger than 64 KB once unzipped', Import_Reader::read( $bomb, 'kmz', 10 ) );

		// The same archive, declaring 100 bytes (local header and central directory).
		$size = pack( 'V', strlen( $kml ) );
		$this->assertSame( 2, substr_count( $bomb, $size ) );
		$liar = str_replace( $size, pack( 'V', 100 ), $bomb );
		$this->assert_refused( 'cairn_maps_import_too_large', 'larger than 64 KB once unzipped', Import_Reader::read( $liar, 'kmz', 10 ) );
	}

	/**
	 * Files refused as a whole, each with its message: not well-formed, cut short, the wrong kind.
	 *
	 * @dataProvider provide_unreadable
	 *
	 * @param string $format  Format.
	 * @param string $content Content.
	 * @param string $code    Error code.
	 * @param string $text    Part of the message.
	 */
	public function test_unreadable_files( string $format, string $content, string $code, string $text ): void {
		$this->assert_refused( $code, $text, Import_Reader::read( $content, $format, 10 ) );
	}

	/**
	 * Unreadable files.
	 *
	 * @return array<string, array{0: string, 1: string, 2: string, 3: string}>
	 */
	public static function provide_unreadable(): array {
		$track = '<gpx><trk><name>T</name><trkseg><trkpt lat="1" lon="2"><ele>3</ele></trkpt><trkpt lat="2" lon="3"/></trkseg></trk>';
		return array(
			'malformed'     => array( 'gpx', '<gpx><wpt lat="1" lon="2"><name>x</nam></wpt></gpx>', 'cairn_maps_import_xml', 'The file is not well-formed GPX (line 1: Opening and ending tag mismatch' ),
			'truncated'     => array( 'gpx', $track . '<trk><trkseg><trkpt lat="1', 'cairn_maps_import_xml', 'It may be cut short' ),
			'unclosed root' => array( 'gpx', $track, 'cairn_maps_import_xml', 'not well-formed GPX' ),
			'kml as gpx'    => array( 'gpx', self::fixture( 'town-zones.kml' ), 'cairn_maps_import_xml', 'This is not a GPX file: its first element is <kml>.' ),
			'not xml'       => array( 'kml', 'title,lat,lng', 'cairn_maps_import_xml', 'not well-formed KML' ),
			'no places'     => array( 'gpx', '<gpx><metadata/></gpx>', 'cairn_maps_import_empty', 'The file holds no markers.' ),
			'empty gpx'     => array( 'gpx', '', 'cairn_maps_import_empty', 'The file holds no markers.' ),
			'blank kml'     => array( 'kml', " \n", 'cairn_maps_import_empty', 'The file holds no markers.' ),
		);
	}

	/**
	 * A DOCTYPE is refused before anything is read from outside the file: an external DTD, an
	 * external entity (file and URL), and the billion laughs (an entity loop, refused at once).
	 *
	 * @dataProvider provide_doctype
	 *
	 * @param string $format  Format.
	 * @param string $content Content.
	 */
	public function test_doctype_refused_and_nothing_outside_read( string $format, string $content ): void {
		Probe_Stream::register();
		try {
			$result = Import_Reader::read( $content, $format, 10 );
			$this->assert_refused( 'cairn_maps_import_doctype', 'contains a DOCTYPE; Cairn does not read DOCTYPEs or external entities', $result );
			$this->assertSame( array(), Probe_Stream::$opened, 'nothing outside the file was opened' );
		} finally {
			Probe_Stream::unregister();
		}
	}

	/**
	 * Files with a DOCTYPE.
	 *
	 * @return array<string, array{0: string, 1: string}>
	 */
	public static function provide_doctype(): array {
		$laughs = '<!DOCTYPE gpx [<!ENTITY lol "lol">';
		$prev   = 'lol';
		for ( $i = 1; $i <= 9; $i++ ) {
			$laughs .= '<!ENTITY lol' . $i . ' "' . str_repeat( '&' . $prev . ';', 10 ) . '">';
			$prev    = 'lol' . $i;
		}
		$laughs .= ']>';
		return array(
			'external dtd'      => array( 'gpx', '<?xml version="1.0"?><!DOCTYPE gpx SYSTEM "cairnprobe://dtd"><gpx><wpt lat="1" lon="2"><name>x</name></wpt></gpx>' ),
			'external entity'   => array( 'gpx', '<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY xxe SYSTEM "cairnprobe://entity">]><gpx><wpt lat="1" lon="2"><name>&xxe;</name></wpt></gpx>' ),
			'file entity (kml)' => array( 'kml', '<!DOCTYPE kml [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><kml><Placemark><name>&xxe;</name><Point><coordinates>1,2</coordinates></Point></Placemark></kml>' ),
			'parameter entity'  => array( 'gpx', '<!DOCTYPE gpx [<!ENTITY % remote SYSTEM "cairnprobe://param"> %remote;]><gpx/>' ),
			'billion laughs'    => array( 'gpx', '<?xml version="1.0"?>' . $laughs . '<gpx><wpt lat="1" lon="2"><name>&lol9;</name></wpt></gpx>' ),
			'undeclared entity' => array( 'gpx', '<gpx><wpt lat="1" lon="2"><name>&xxe;</name></wpt></gpx>' ),
			// The parser stops on these before it shows the DOCTYPE as a node, with a complaint that
			// names no entity: only the prolog check tells the importer why.
			'broken subset'     => array( 'gpx', '<?xml version="1.0"?><!DOCTYPE gpx [<!ATTLIST gpx ]><gpx><wpt lat="1" lon="2"><name>x</name></wpt></gpx>' ),
			'unclosed doctype'  => array( 'kml', '<?xml version="1.0"?><!-- exported --><!DOCTYPE kml [<!ELEMENT kml ANY><kml><Placemark><Point><coordinates>1,2</coordinates></Point></Placemark></kml>' ),
		);
	}

	/**
	 * A shape of a million vertices is refused with its count, without keeping them (memory).
	 */
	public function test_a_million_vertices(): void {
		add_filter( 'cairn_maps_import_max_bytes', static fn(): int => 64 * MB_IN_BYTES );
		$gpx = '<gpx><trk><name>Long</name><trkseg>' . str_repeat( '<trkpt lat="1" lon="2"/>', 1000000 ) . '</trkseg></trk></gpx>';
		if ( function_exists( 'memory_reset_peak_usage' ) ) {
			memory_reset_peak_usage(); // PHP 8.2+: the peak of this test only.
		}
		$before = memory_get_usage();
		$result = Import_Reader::read( $gpx, 'gpx', 10 );
		$this->assertLessThan( 60 * MB_IN_BYTES, memory_get_peak_usage() - $before + strlen( $gpx ) );
		$this->assertIsArray( $result );
		$this->assertStringContainsString( 'This shape has 1,000,000 vertices; the most a shape may have is 100,000.', $result[0]['error'] );
		unset( $gpx );

		$kml    = '<kml><Placemark><LineString><coordinates>' . str_repeat( '1,2 ', 1000000 ) . '</coordinates></LineString></Placemark></kml>';
		$result = Import_Reader::read( $kml, 'kml', 10 );
		$this->assertIsArray( $result );
		$this->assertStringContainsString( 'This shape has 1,000,000 vertices', $result[0]['error'] );
	}

	/**
	 * More places than an import takes is a 413, as for CSV and GeoJSON.
	 */
	public function test_too_many_places(): void {
		$gpx = '<gpx>' . str_repeat( '<wpt lat="1" lon="2"><name>W</name></wpt>', 4 ) . '</gpx>';
		$this->assert_refused( 'cairn_maps_import_too_large', 'more than 3 markers', Import_Reader::read( $gpx, 'gpx', 3 ) );
	}

	/**
	 * The format from the name, the content type, then the content.
	 */
	public function test_detect_format(): void {
		$this->assertSame( 'gpx', Import_Reader::detect_format( '', 'walk.GPX' ) );
		$this->assertSame( 'kml', Import_Reader::detect_format( '', 'zones.kml' ) );
		$this->assertSame( 'kmz', Import_Reader::detect_format( '', 'zones.kmz' ) );
		$this->assertSame( 'gpx', Import_Reader::detect_format( '', '', 'application/gpx+xml' ) );
		$this->assertSame( 'kml', Import_Reader::detect_format( '', '', 'application/vnd.google-earth.kml+xml' ) );
		$this->assertSame( 'kml', Import_Reader::detect_format( self::fixture( 'town-zones.kml' ) ) );
		$this->assertSame( 'gpx', Import_Reader::detect_format( self::fixture( 'ridge-loop.gpx' ) ) );
		$this->assertSame( 'csv', Import_Reader::detect_format( "title,lat,lng\n" ) );
	}

	/**
	 * The reader leaves libxml as it found it: errors not internal, the default entity loader.
	 */
	public function test_libxml_state_restored(): void {
		$internal = libxml_use_internal_errors( false );
		Import_Reader::read( '<gpx><oops></gpx>', 'gpx', 10 );
		$this->assertFalse( libxml_use_internal_errors( $internal ) );
		$this->assertInstanceOf( WP_Error::class, Xml_Track_Reader::read_gpx( '<gpx>', 10 ) );
	}
}
