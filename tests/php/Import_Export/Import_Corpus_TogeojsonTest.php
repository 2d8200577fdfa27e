<?php
/**
 * The corpus of real files (tests/fixtures/imports) read by Cairn and by @tmcw/togeojson.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Import_Export;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Import_Export\Import_Groups;
use Cairn\Maps\Import_Export\Import_Reader;
use Cairn\Maps\Import_Export\Import_Row_Validator;
use Cairn\Maps\Tests\TestCase;

require_once __DIR__ . '/Togeojson_Comparison.php';

/**
 * Every GPX, KML and KMZ file of the corpus imports the places togeojson converts — same count,
 * types, vertex counts before simplification, and names — apart from the differences named in
 * KEPT_DIFFERENCES. The GeoJSON files (which togeojson does not read) import their features.
 *
 * @since 0.7.0
 */
final class Import_Corpus_TogeojsonTest extends TestCase {

	/**
	 * The differences kept, by file, each with why.
	 */
	private const KEPT_DIFFERENCES = array(
		// togeojson names a route without a name after its first route point (#001): it takes
		// the first `name` below the route. Cairn gives it its own default title.
		'gpxpy/route.gpx'                   => array( '#1 name: cairn "Route 1", togeojson "#001"' ),
		// A track whose points are all one position: togeojson keeps a LineString that draws
		// nothing; Cairn reports it (a line needs 2 different positions).
		'togeojson/empty_ele.gpx'           => array( 'count: cairn 0, togeojson 1' ),
		'togeojson/osm.gpx'                 => array( 'count: cairn 2, togeojson 3' ),
		// A GroundOverlay is an image laid on the map, not a place: togeojson makes a Polygon
		// of its corners.
		'togeojson/ground_overlay.kml'      => array( 'count: cairn 0, togeojson 1' ),
		'togeojson/ground_overlay_quad.kml' => array( 'count: cairn 0, togeojson 1' ),
		// A NetworkLink loads another file from the network, which an import never fetches:
		// togeojson makes a Polygon of its Region box.
		'togeojson/networklink.kml'         => array( 'count: cairn 0, togeojson 1' ),
	);

	/**
	 * The corpus folder.
	 */
	private static function corpus(): string {
		return dirname( __DIR__, 2 ) . '/fixtures/imports';
	}

	/**
	 * Every GPX, KML and KMZ file: the same places as togeojson, but for the kept differences.
	 */
	public function test_every_xml_fixture_matches_togeojson(): void {
		$files = glob( self::corpus() . '/*/*.{gpx,kml,kmz}', GLOB_BRACE );
		$this->assertIsArray( $files );
		$this->assertGreaterThan( 80, count( $files ) );
		$inputs    = array();
		$temporary = array();
		foreach ( $files as $file ) {
			if ( '.kmz' === substr( $file, -4 ) ) {
				// togeojson reads KML: give it the KML inside, as Kmz_Archive finds it.
				$kml = get_temp_dir() . 'cairn-corpus-' . md5( $file ) . '.kml';
				file_put_contents( $kml, Togeojson_Comparison::xml( $file ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_file_put_contents -- a temporary copy for node.
				$temporary[]     = $kml;
				$inputs[ $file ] = $kml;
			} else {
				$inputs[ $file ] = $file;
			}
		}
		$command = 'node ' . escapeshellarg( dirname( __DIR__, 3 ) . '/bin/togeojson.cjs' ) . ' ' . implode( ' ', array_map( 'escapeshellarg', $inputs ) ) . ' 2>&1';
		$output  = shell_exec( $command ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.system_calls_shell_exec -- the reference converter, in node.
		array_map( 'unlink', $temporary );
		$converted = json_decode( (string) $output, true );
		$this->assertIsArray( $converted, 'togeojson failed: ' . substr( (string) $output, 0, 500 ) );

		$differences = array();
		$places      = 0;
		foreach ( $inputs as $file => $input ) {
			$name  = substr( $file, strlen( self::corpus() ) + 1 );
			$cairn = Togeojson_Comparison::cairn( $file );
			if ( is_string( $cairn ) ) {
				$cairn = array(); // Refused as a whole ("holds no markers"): no place.
			}
			$places += count( $cairn );
			$found   = Togeojson_Comparison::differences( $cairn, Togeojson_Comparison::togeojson( $converted[ $input ] ) );
			if ( array() !== $found ) {
				$differences[ $name ] = $found;
			}
		}
		ksort( $differences );
		$expected = self::KEPT_DIFFERENCES;
		ksort( $expected );
		$this->assertSame( $expected, $differences );
		$this->assertGreaterThan( 400, $places, 'the corpus imports its places' );
	}

	/**
	 * Google Earth's labelled areas (a Point plus a Polygon per state), a gx:Track and a KMZ.
	 */
	public function test_google_earth_forms_import(): void {
		$states = Togeojson_Comparison::cairn( self::corpus() . '/openlayers/states.kml' );
		$this->assertIsArray( $states );
		$this->assertCount( 50, $states, 'openlayers states.kml imported 0 of 50 states before' );
		$this->assertContains( $states[0]['type'], array( 'Polygon', 'MultiPolygon' ) );

		$iceland = Togeojson_Comparison::cairn( self::corpus() . '/openlayers/iceland.kmz' );
		$this->assertIsArray( $iceland );
		$this->assertNotEmpty( $iceland );

		$track = Togeojson_Comparison::cairn( self::corpus() . '/togeojson/gxtrack.kml' );
		$this->assertIsArray( $track );
		$this->assertSame( array( 'LineString', 7 ), array( $track[0]['type'], $track[0]['vertices'] ) );
	}

	/**
	 * GeoJSON from other tools: titles from `name`, `{}` properties; openlayers' countries and
	 * Vienna streets import (0 of 179 and 0 of 3,356 before).
	 */
	public function test_geojson_fixtures_import(): void {
		$expected = array(
			'countries.geojson'       => 179,
			'line-samples.geojson'    => 9,
			'point-samples.geojson'   => 9,
			'polygon-samples.geojson' => 9,
			'roads-seoul.geojson'     => 94,
			'switzerland.geojson'     => 2,
			'vienna-streets.geojson'  => 3356,
		);
		foreach ( $expected as $name => $count ) {
			$records = Import_Reader::read( (string) file_get_contents( self::corpus() . '/openlayers/' . $name ), 'geojson', 100000 ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a test fixture.
			$this->assertIsArray( $records, $name );
			$this->assertCount( $count, $records, $name );
			$groups  = new Import_Groups();
			$refused = array();
			foreach ( $records as $record ) {
				$row = isset( $record['fields'] ) ? Import_Row_Validator::check( $record['fields'], $groups ) : (string) $record['error'];
				if ( is_string( $row ) ) {
					$refused[] = $row;
				}
			}
			// Two countries have rings that touch themselves, which the geometry rules refuse
			// (their validity is issue 32's geometry part); every other feature imports.
			$allowed = 'countries.geojson' === $name ? 2 : 0;
			$this->assertLessThanOrEqual( $allowed, count( $refused ), $name . ': ' . implode( ' | ', $refused ) );
			foreach ( $refused as $reason ) {
				$this->assertStringContainsString( 'is not simple', $reason );
			}
		}
		$vienna = Import_Reader::read( (string) file_get_contents( self::corpus() . '/openlayers/vienna-streets.geojson' ), 'geojson', 100000 ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a test fixture.
		$this->assertIsArray( $vienna );
		$this->assertNotSame( '', $vienna[0]['fields']['title'] );
		$this->assertStringStartsNotWith( 'Place ', $vienna[0]['fields']['title'], 'the street name is the title' );
	}

	/**
	 * The README names every fixture, with its origin and licence.
	 */
	public function test_readme_names_every_fixture(): void {
		$readme = (string) file_get_contents( self::corpus() . '/README.md' ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a test fixture.
		$files  = glob( self::corpus() . '/*/*' );
		$this->assertIsArray( $files );
		foreach ( $files as $file ) {
			$this->assertStringContainsString( basename( $file ), $readme );
		}
		$size = array_sum( array_map( 'filesize', $files ) );
		$this->assertLessThan( 5 * MB_IN_BYTES, $size );
	}
}
