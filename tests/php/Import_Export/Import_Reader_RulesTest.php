<?php
/**
 * What real GeoJSON, GPX and KML files say, read into records (issue 32's readers).
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Import_Export;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Import_Export\Import_Reader;
use Cairn\Maps\Tests\TestCase;

/**
 * Each rule with a file Cairn refused, or read wrong, before it.
 *
 * @since 0.7.0
 */
final class Import_Reader_RulesTest extends TestCase {

	/**
	 * A corpus file's content.
	 *
	 * @param string $name Path in tests/fixtures/imports.
	 */
	private static function fixture( string $name ): string {
		return (string) file_get_contents( dirname( __DIR__, 2 ) . '/fixtures/imports/' . $name ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a test fixture.
	}

	/**
	 * Reads a file; fails when it is refused as a whole.
	 *
	 * @param string               $content File content.
	 * @param string               $format  Format.
	 * @param array<string, mixed> $options Options.
	 * @return array<int, array<string, mixed>>
	 */
	private function read( string $content, string $format, array $options = array() ): array {
		$records = Import_Reader::read( $content, $format, 1000, $options );
		$this->assertIsArray( $records, is_wp_error( $records ) ? $records->get_error_message() : '' );
		return $records;
	}

	/**
	 * The notices' messages of a record.
	 *
	 * @param array<string, mixed> $record A record.
	 * @return string[]
	 */
	private static function notices( array $record ): array {
		return array_column( $record['notices'], 'message' );
	}

	/**
	 * GeoJSON titles: `title`, then `name`, then `Name`, then "Place N"; the `title_property`
	 * option first; descriptions from `description` or `desc`; `{}` properties are fine.
	 */
	public function test_geojson_titles_and_descriptions(): void {
		$point   = '{"type":"Point","coordinates":[16.37,48.2]}';
		$file    = '{"type":"FeatureCollection","features":['
			. '{"type":"Feature","geometry":' . $point . ',"properties":{"name":"Handelskai","desc":"By the river"}},'
			. '{"type":"Feature","geometry":' . $point . ',"properties":{"Name":"Praterstern","title":"Given title","description":"Square"}},'
			. '{"type":"Feature","geometry":' . $point . ',"properties":{}},'
			. '{"type":"Feature","geometry":' . $point . ',"properties":{"NAME_EN":"Vienna"}}'
			. ']}';
		$records = $this->read( $file, 'geojson' );
		$this->assertSame( array( 'Handelskai', 'Given title', 'Place 3', 'Place 4' ), array_map( static fn( array $record ): string => $record['fields']['title'], $records ) );
		$this->assertSame( 'By the river', $records[0]['fields']['description'] );
		$this->assertSame( 'Square', $records[1]['fields']['description'] );
		$this->assertSame( array( 1, 2, 3, 4 ), array_column( $records, 'line' ) );

		$named = $this->read( $file, 'geojson', array( 'title_property' => 'NAME_EN' ) );
		$this->assertSame( 'Vienna', $named[3]['fields']['title'] );
		$this->assertSame( 'Given title', $named[1]['fields']['title'], 'without the property, the usual order' );
	}

	/**
	 * A single Feature, or a bare geometry, is a collection of one (RFC 7946).
	 */
	public function test_geojson_single_feature_and_bare_geometry(): void {
		$feature = $this->read( '{"type":"Feature","geometry":{"type":"LineString","coordinates":[[16.37,48.2],[16.38,48.21]]},"properties":{"name":"Ring road"}}', 'geojson' );
		$this->assertCount( 1, $feature );
		$this->assertSame( 'Ring road', $feature[0]['fields']['title'] );
		$this->assertSame( 'LineString', $feature[0]['fields']['geometry']['type'] );

		$geometry = $this->read( '{"type":"Point","coordinates":[16.37,48.2]}', 'geojson' );
		$this->assertCount( 1, $geometry );
		$this->assertSame( array( 48.2, 16.37 ), array( $geometry[0]['fields']['lat'], $geometry[0]['fields']['lng'] ) );
		$this->assertSame( 'Place 1', $geometry[0]['fields']['title'] );
	}

	/**
	 * MultiPoint and GeometryCollection split into places, each with a notice; a null geometry
	 * is skipped with its reason.
	 */
	public function test_geojson_multipoint_collection_and_null_geometry(): void {
		$records = $this->read(
			'{"type":"FeatureCollection","features":['
			. '{"type":"Feature","geometry":{"type":"MultiPoint","coordinates":[[1,2],[3,4]]},"properties":{"name":"Huts"}},'
			. '{"type":"Feature","geometry":null,"properties":{"name":"Nowhere"}},'
			. '{"type":"Feature","geometry":{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[5,6]},{"type":"LineString","coordinates":[[5,6],[7,8]]}]},"properties":{"name":"Trail"}}'
			. ']}',
			'geojson'
		);
		$this->assertCount( 5, $records );
		$this->assertSame( array( 2.0, 1.0 ), array( (float) $records[0]['fields']['lat'], (float) $records[0]['fields']['lng'] ) );
		$this->assertSame( array( 4.0, 3.0 ), array( (float) $records[1]['fields']['lat'], (float) $records[1]['fields']['lng'] ) );
		$this->assertSame( array( 'This MultiPoint was split into 2 places, one per part.' ), self::notices( $records[0] ) );
		$this->assertSame( 1, $records[1]['line'] );

		$this->assertArrayNotHasKey( 'fields', $records[2] );
		$this->assertTrue( $records[2]['skipped'] );
		$this->assertStringContainsString( 'no geometry', $records[2]['error'] );
		$this->assertSame( 2, $records[2]['line'] );

		$this->assertSame( 'Trail', $records[3]['fields']['title'] );
		$this->assertArrayNotHasKey( 'geometry', $records[3]['fields'] );
		$this->assertSame( 'LineString', $records[4]['fields']['geometry']['type'] );
		$this->assertSame( array( 'This GeometryCollection was split into 2 places, one per part.' ), self::notices( $records[4] ) );
	}

	/**
	 * GPX: a one-point segment (an Endomondo trailing pause) is dropped with a notice, the
	 * track kept; a track of one point is refused; an empty track is skipped.
	 */
	public function test_gpx_one_point_segments_and_empty_tracks(): void {
		$records = $this->read(
			'<gpx>'
			. '<trk><name>Run</name><trkseg><trkpt lat="1" lon="2"/><trkpt lat="1.1" lon="2.1"/><trkpt lat="1.2" lon="2.2"/></trkseg>'
			. "\n" . '<trkseg><trkpt lat="1.3" lon="2.3"/></trkseg></trk>'
			. "\n" . '<trk><name>ACTIVE LOG</name></trk>'
			. "\n" . '<trk><name>Fix</name><trkseg><trkpt lat="5" lon="5"/></trkseg></trk>'
			. '</gpx>',
			'gpx'
		);
		$this->assertCount( 3, $records );
		$this->assertSame(
			array(
				'type'        => 'LineString',
				'coordinates' => array( array( 2.0, 1.0 ), array( 2.1, 1.1 ), array( 2.2, 1.2 ) ),
			),
			$records[0]['fields']['geometry']
		);
		$this->assertSame(
			array(
				array(
					'line'    => 1,
					'message' => 'Segment 2 has only one point, so it was left out; the rest of the track was imported.',
				),
			),
			$records[0]['notices']
		);
		$this->assertTrue( $records[1]['skipped'] );
		$this->assertSame( 3, $records[1]['line'] );
		$this->assertStringContainsString( 'has no points', $records[1]['error'] );
		$this->assertStringContainsString( 'only one point', $records[2]['error'] );
		$this->assertArrayNotHasKey( 'skipped', $records[2] );
	}

	/**
	 * KML gx:Track and gx:MultiTrack are lines, with elevation under `absolute`; a gx:Track of
	 * one fix is a point (Location History).
	 */
	public function test_kml_gx_tracks(): void {
		$kml     = '<kml xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>'
			. '<Placemark><name>Ride</name><gx:Track><altitudeMode>absolute</altitudeMode><when>2010-05-28T02:02:09Z</when><when>2010-05-28T02:02:35Z</when>'
			. '<gx:coord>-122.2 37.37 156</gx:coord><gx:coord>-122.21 37.38 152</gx:coord></gx:Track></Placemark>'
			. '<Placemark><name>Two days</name><gx:MultiTrack><altitudeMode>absolute</altitudeMode>'
			. '<gx:Track><gx:coord>1 2 10</gx:coord><gx:coord>1.1 2.1 11</gx:coord></gx:Track>'
			. '<gx:Track><gx:coord>1.2 2.2 12</gx:coord><gx:coord>1.3 2.3 13</gx:coord></gx:Track></gx:MultiTrack></Placemark>'
			. '<Placemark><name>Visited</name><gx:Track><gx:coord>100.5 13.7 0</gx:coord></gx:Track></Placemark>'
			. '</Document></kml>';
		$records = $this->read( $kml, 'kml' );
		$this->assertSame(
			array(
				'type'        => 'LineString',
				'coordinates' => array( array( -122.2, 37.37, 156.0 ), array( -122.21, 37.38, 152.0 ) ),
			),
			$records[0]['fields']['geometry']
		);
		$this->assertSame( 'MultiLineString', $records[1]['fields']['geometry']['type'] );
		$this->assertSame( array( 1.3, 2.3, 13.0 ), $records[1]['fields']['geometry']['coordinates'][1][1] );
		$this->assertArrayNotHasKey( 'geometry', $records[2]['fields'] );
		$this->assertSame( array( 13.7, 100.5 ), array( $records[2]['fields']['lat'], $records[2]['fields']['lng'] ) );
	}

	/**
	 * KML altitudes are elevations only under `absolute` or `gx:absolute`: roads at 1,070 m
	 * `relativeToGround` have none.
	 */
	public function test_kml_altitudes_only_when_absolute(): void {
		$line    = static fn( string $mode ): string => '<Placemark><LineString>' . $mode . '<coordinates>1,2,1070 1.1,2.1,1071</coordinates></LineString></Placemark>';
		$records = $this->read(
			'<kml xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>'
			. $line( '<altitudeMode>relativeToGround</altitudeMode>' )
			. $line( '' )
			. $line( '<altitudeMode>absolute</altitudeMode>' )
			. $line( '<gx:altitudeMode>clampToSeaFloor</gx:altitudeMode>' )
			. '<Placemark><LookAt><altitudeMode>absolute</altitudeMode></LookAt><LineString><coordinates>1,2,5 1.1,2.1,6</coordinates></LineString></Placemark>'
			. '</Document></kml>',
			'kml'
		);
		$this->assertSame( array( array( 1.0, 2.0 ), array( 1.1, 2.1 ) ), $records[0]['fields']['geometry']['coordinates'] );
		$this->assertSame( array( array( 1.0, 2.0 ), array( 1.1, 2.1 ) ), $records[1]['fields']['geometry']['coordinates'] );
		$this->assertSame( array( array( 1.0, 2.0, 1070.0 ), array( 1.1, 2.1, 1071.0 ) ), $records[2]['fields']['geometry']['coordinates'] );
		$this->assertSame( array( array( 1.0, 2.0 ), array( 1.1, 2.1 ) ), $records[3]['fields']['geometry']['coordinates'] );
		$this->assertSame( array( array( 1.0, 2.0 ), array( 1.1, 2.1 ) ), $records[4]['fields']['geometry']['coordinates'], "a LookAt's mode is the camera's" );
	}

	/**
	 * A MultiGeometry of one Point and areas is the areas, the point their anchor (openlayers'
	 * states.kml); a LinearRing alone is a closed line; an open ring is closed with a notice.
	 */
	public function test_kml_labelled_areas_rings_and_open_rings(): void {
		$records = $this->read(
			'<kml><Document>'
			. '<Placemark><name>Wyoming</name><MultiGeometry><Point><coordinates>-107.5,43</coordinates></Point>'
			. '<Polygon><outerBoundaryIs><LinearRing><coordinates>-111,45 -104,45 -104,41 -111,41 -111,45</coordinates></LinearRing></outerBoundaryIs></Polygon></MultiGeometry></Placemark>'
			. "\n<Placemark><name>Fence</name><LinearRing><coordinates>0,0 1,0 1,1 0,1 0,0</coordinates></LinearRing></Placemark>"
			. "\n<Placemark><name>Open field</name><Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 1,0 1,1 0,1</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>"
			. '</Document></kml>',
			'kml'
		);
		$wyoming = $records[0]['fields'];
		$this->assertSame( 'Polygon', $wyoming['geometry']['type'] );
		$this->assertSame( array( 43.0, -107.5 ), array( $wyoming['lat'], $wyoming['lng'] ) );
		$this->assertSame( array(), $records[0]['notices'] );

		$this->assertSame(
			array(
				'type'        => 'LineString',
				'coordinates' => array( array( 0.0, 0.0 ), array( 1.0, 0.0 ), array( 1.0, 1.0 ), array( 0.0, 1.0 ), array( 0.0, 0.0 ) ),
			),
			$records[1]['fields']['geometry']
		);

		$field = $records[2];
		$this->assertSame( array( 0.0, 0.0 ), end( $field['fields']['geometry']['coordinates'][0] ) );
		$this->assertCount( 5, $field['fields']['geometry']['coordinates'][0] );
		$this->assertSame(
			array(
				array(
					'line'    => 3,
					'message' => 'Ring 1 did not end where it started, so it was closed.',
				),
			),
			$field['notices']
		);
	}

	/**
	 * A document whose root is a Placemark is read.
	 */
	public function test_kml_root_placemark(): void {
		$records = $this->read( '<?xml version="1.0"?><Placemark xmlns="http://www.opengis.net/kml/2.2"><name>Alone</name><Point><coordinates>3,4</coordinates></Point></Placemark>', 'kml' );
		$this->assertCount( 1, $records );
		$this->assertSame( 'Alone', $records[0]['fields']['title'] );
		$this->assertSame( array( 4.0, 3.0 ), array( $records[0]['fields']['lat'], $records[0]['fields']['lng'] ) );
	}

	/**
	 * ExtendedData and SchemaData become an escaped definition list after the description.
	 */
	public function test_kml_extended_data(): void {
		$records = $this->read(
			'<kml><Placemark><name>Trailhead</name><description>Park here.</description><ExtendedData>'
			. '<Data name="phone"><displayName>Phone</displayName><value>+1 555 0100</value></Data>'
			. '<Data name="note"><value>&lt;script&gt;alert(1)&lt;/script&gt;</value></Data>'
			. '<SchemaData schemaUrl="#trail"><SimpleData name="length">4.2 km</SimpleData></SchemaData>'
			. '</ExtendedData><Point><coordinates>3,4</coordinates></Point></Placemark></kml>',
			'kml'
		);
		$this->assertSame(
			"Park here.\n\n<dl><dt>Phone</dt><dd>+1 555 0100</dd><dt>note</dt><dd>&lt;script&gt;alert(1)&lt;/script&gt;</dd><dt>length</dt><dd>4.2 km</dd></dl>",
			$records[0]['fields']['description']
		);

		$corpus = $this->read( self::fixture( 'togeojson/extended_data.kml' ), 'kml' );
		$this->assertStringContainsString( '<dl>', $corpus[0]['fields']['description'] );
	}

	/**
	 * Folder names are the record's `folder`, outermost first; the line is the placemark's.
	 */
	public function test_kml_folders_and_lines(): void {
		$records = $this->read(
			"<kml>\n<Document><name>Trip</name>\n<Folder><name>Day 1</name>\n<Folder><name>Huts</name>\n"
			. "<Placemark><name>A</name><Point><coordinates>1,2</coordinates></Point></Placemark>\n</Folder>\n"
			. "<Placemark><name>B</name><Point><coordinates>1,2</coordinates></Point></Placemark>\n</Folder>\n"
			. "<Placemark><name>C</name><Point><coordinates>1,2</coordinates></Point></Placemark>\n</Document></kml>",
			'kml'
		);
		$this->assertSame( array( 'Day 1 / Huts', 'Day 1', '' ), array_column( $records, 'folder' ) );
		$this->assertSame( array( 5, 7, 9 ), array_column( $records, 'line' ) );
	}

	/**
	 * A placemark with only HTML is skipped with its reason, the rest of the file read.
	 */
	public function test_kml_placemark_without_geometry(): void {
		$records = $this->read( self::fixture( 'togeojson/addresses.kml' ), 'kml' );
		$this->assertTrue( $records[0]['skipped'] );
		$this->assertStringContainsString( 'no geometry', $records[0]['error'] );
		$standing = array_filter( $records, static fn( array $record ): bool => isset( $record['fields'] ) );
		$this->assertCount( 7, $standing, 'as many places as togeojson converts' );
	}
}
