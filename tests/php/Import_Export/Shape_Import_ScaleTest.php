<?php
/**
 * A 50,000-point GPX track imported through the REST route with bounded work.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Import_Export;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Tests\TestCase;
use WP_REST_Request;

/**
 * A 50,000-point GPX imports end to end through the route (read, check, derive the map's copy,
 * write) with a bounded number of queries and of simplifier steps, and bounded memory: counts, not
 * a time (a time fails on a loaded machine; `npm run bench:api:shapes` measures it: 352 ms on
 * 2026-11-26). Opt-in: `bash bin/test-php.sh --group slow --filter Shape_Import_ScaleTest`.
 *
 * @group slow
 * @since 0.5.0
 */
final class Shape_Import_ScaleTest extends TestCase {

	/**
	 * A GPX track of a number of points with elevation and time, wandering like a day's hike.
	 *
	 * @param int $points Points.
	 */
	public static function track( int $points ): string {
		$gpx = '<?xml version="1.0" encoding="UTF-8"?>' . "\n" . '<gpx version="1.1" creator="Cairn Maps tests" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Long day</name><trkseg>' . "\n";
		$lat = 46.5;
		$lng = 7.5;
		$ele = 1200.0;
		for ( $i = 0; $i < $points; $i++ ) {
			$lat += 0.00004 * sin( $i / 900 ) + ( ( $i * 7919 ) % 200 - 100 ) / 1e7;
			$lng += 0.00005 * cos( $i / 1300 ) + ( ( $i * 104729 ) % 200 - 100 ) / 1e7;
			$ele += sin( $i / 400 ) * 0.8 + ( ( $i * 31 ) % 20 - 10 ) / 20;
			$gpx .= sprintf( '<trkpt lat="%.7f" lon="%.7f"><ele>%.1f</ele><time>%s</time></trkpt>', $lat, $lng, $ele, gmdate( 'Y-m-d\TH:i:s\Z', 1717228800 + $i ) ) . "\n";
		}
		return $gpx . "</trkseg></trk></gpx>\n";
	}

	/**
	 * 50,000 points: one marker with its shape, with a bounded number of queries and steps.
	 */
	public function test_a_50000_point_track_imports_with_bounded_work(): void {
		$this->act_as( 'editor' );
		$gpx     = self::track( 50000 );
		$request = new WP_REST_Request( 'POST', '/cairn/v1/markers/import' );
		$request->set_header( 'Content-Type', 'application/gpx+xml' );
		$request->set_body( $gpx );

		if ( function_exists( 'memory_reset_peak_usage' ) ) {
			memory_reset_peak_usage(); // PHP 8.2+: the peak of the import only.
		}
		$base    = memory_get_usage();
		$queries = 0;
		$count_q = static function ( $sql ) use ( &$queries ) {
			++$queries;
			return $sql;
		};
		add_filter( 'query', $count_q );
		$response = rest_get_server()->dispatch( $request );
		remove_filter( 'query', $count_q );
		$grown = memory_get_peak_usage() - $base;

		$this->assertSame( 200, $response->get_status(), (string) wp_json_encode( $response->get_data() ) );
		$this->assertSame( 1, $response->get_data()['shapes'] );
		$this->assertLessThan( 200, $queries, 'one marker: a bounded number of queries, not one per point' );
		$this->assertLessThanOrEqual( 6 * 50000, \Cairn\Maps\Markers\Line_Simplifier::steps(), 'simplified in O(n log n): at most 6 heap steps a point' );
		$this->assertLessThan( 256 * MB_IN_BYTES, $grown, 'memory at the peak' );
		fwrite( STDERR, sprintf( "\n50,000-point GPX (%s bytes): %d queries through the route, %d simplifier steps, %s MB of memory at the peak\n", number_format( strlen( $gpx ) ), $queries, \Cairn\Maps\Markers\Line_Simplifier::steps(), number_format( $grown / MB_IN_BYTES, 1 ) ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_operations_fwrite, WordPress.WP.AlternativeFunctions.file_system_read_fwrite -- the measure, for the report.
	}
}
