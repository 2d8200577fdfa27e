<?php
/**
 * Measures of a shape, and its simplified copy for the map.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Markers;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Geometry_Measures;
use Cairn\Maps\Markers\Geometry_Rule;
use Cairn\Maps\Markers\Line_Simplifier;
use Cairn\Maps\Markers\Shape_Store;
use Cairn\Maps\Tests\TestCase;

/**
 * Lengths, climbs and anchors against values computed by hand; the simplifier's budget.
 *
 * @since 0.5.0
 */
final class Geometry_MeasuresTest extends TestCase {

	/**
	 * A checked geometry.
	 *
	 * @param string            $type        Type.
	 * @param array<int, mixed> $coordinates Coordinates.
	 * @return array{type: string, coordinates: array<int, mixed>}
	 */
	private function geometry( string $type, array $coordinates ): array {
		$checked = Geometry_Rule::check(
			array(
				'type'        => $type,
				'coordinates' => $coordinates,
			)
		);
		$this->assertIsArray( $checked );
		return $checked;
	}

	/**
	 * A degree of a meridian is 2πR / 360 = 111,195 m; a MultiLineString adds its lines, not the
	 * gap between them; an area has no length.
	 */
	public function test_length_along_the_sphere(): void {
		$meridian = $this->geometry( 'LineString', array( array( 7, 46 ), array( 7, 47 ) ) );
		$this->assertEqualsWithDelta( 111195.08, Geometry_Measures::length_m( $meridian ), 0.5 );

		// Along the equator: 1° of longitude is the same 111,195 m.
		$two = $this->geometry( 'MultiLineString', array( array( array( 0, 0 ), array( 1, 0 ) ), array( array( 50, 0 ), array( 51, 0 ), array( 51, 1 ) ) ) );
		$this->assertEqualsWithDelta( 3 * 111195.08, Geometry_Measures::length_m( $two ), 1.5 );

		// At 60° north a degree of longitude is half as long (haversine, not the chord: within 0.01%).
		$north = $this->geometry( 'LineString', array( array( 10, 60 ), array( 11, 60 ) ) );
		$this->assertEqualsWithDelta( 55597.5, Geometry_Measures::length_m( $north ), 6.0 );

		$area = $this->geometry( 'Polygon', array( array( array( 0, 0 ), array( 1, 0 ), array( 1, 1 ), array( 0, 0 ) ) ) );
		$this->assertNull( Geometry_Measures::length_m( $area ) );
	}

	/**
	 * A known climb: 100 m up in steps, noise of ±1 m on the flat ignored, 60 m down.
	 */
	public function test_ascent_and_descent_ignore_gps_noise(): void {
		$positions  = array();
		$elevations = array( 500, 501, 500, 501, 499, 500, 525, 550, 575, 600, 601, 599, 600, 570, 540, 541, 540 );
		foreach ( $elevations as $i => $elevation ) {
			$positions[] = array( 7 + $i * 0.001, 46, $elevation );
		}
		$climb = Geometry_Measures::climb( $this->geometry( 'LineString', $positions ) );
		// Up: 500 → 525 → 550 → 575 → 600 (the base after the noise is 500): 100 m. Down: 600 → 570 → 540: 60 m.
		$this->assertSame(
			array(
				'ascent'  => 100.0,
				'descent' => 60.0,
			),
			$climb
		);

		$without = $positions;
		unset( $without[3][2] );
		$this->assertNull( Geometry_Measures::climb( $this->geometry( 'LineString', array_values( $without ) ) ), 'one position without elevation: no climb' );
		$this->assertNull( Geometry_Measures::profile( $this->geometry( 'LineString', array_values( $without ) ) ) );
	}

	/**
	 * A change counts from 3 m (CLIMB_THRESHOLD): swings of 2.5 m are noise, a step of exactly
	 * 3 m is a climb.
	 */
	public function test_the_climb_threshold_is_three_metres(): void {
		$line = function ( array $elevations ): array {
			$positions = array();
			foreach ( $elevations as $i => $elevation ) {
				$positions[] = array( 7 + $i * 0.001, 46, $elevation );
			}
			return $this->geometry( 'LineString', $positions );
		};
		$this->assertSame(
			array(
				'ascent'  => 0.0,
				'descent' => 0.0,
			),
			Geometry_Measures::climb( $line( array( 500, 502.5, 500, 502.5, 500, 497.5, 500 ) ) ),
			'2.5 m swings are noise'
		);
		$this->assertSame(
			array(
				'ascent'  => 3.0,
				'descent' => 3.0,
			),
			Geometry_Measures::climb( $line( array( 500, 503, 500 ) ) ),
			'3 m up and down'
		);
	}

	/**
	 * The simplifier's tolerance grows with the shape (its diagonal / 20,000, at least 5 m): the
	 * same 20 m zig-zag is kept on a walk of a kilometre, and smoothed away when the line also
	 * reaches 3,000 km away (a tolerance of about 157 m).
	 */
	public function test_the_tolerance_grows_with_the_shape(): void {
		$wiggle = array();
		for ( $i = 0; $i <= 20; $i++ ) {
			// 50 m steps north along the equator, 20 m either side of it.
			$wiggle[] = array( ( 0 === $i % 2 ? -1 : 1 ) * 0.00018, $i * 0.00045 );
		}
		$small = Line_Simplifier::simplify( $this->geometry( 'LineString', $wiggle ) );
		$this->assertCount( 21, $small['coordinates'], 'a 1 km walk keeps its 20 m zig-zag (tolerance 5 m)' );

		$large = Line_Simplifier::simplify( $this->geometry( 'LineString', array_merge( $wiggle, array( array( 20, 20 ) ) ) ) );
		$this->assertLessThan( 6, count( $large['coordinates'] ), 'on a 3,000 km line the zig-zag is below the tolerance' );
		$this->assertSame( array( 20.0, 20.0 ), array_map( 'floatval', end( $large['coordinates'] ) ), 'its ends are kept' );
	}

	/**
	 * However significant its detail, a simplified shape keeps at most 5,000 positions: 20,000
	 * zig-zags of 1 km across, far above the tolerance, are cut to the budget (ends kept).
	 */
	public function test_the_simplifier_keeps_at_most_5000_positions(): void {
		$line = array();
		for ( $i = 0; $i < 20000; $i++ ) {
			// 100 m steps east along the equator, 500 m either side of it.
			$line[] = array( $i * 0.0009, ( 0 === $i % 2 ? -1 : 1 ) * 0.0045 );
		}
		$simplified = Line_Simplifier::simplify( $this->geometry( 'LineString', $line ) );
		$kept       = $simplified['coordinates'];
		$this->assertLessThanOrEqual( Line_Simplifier::MAX_VERTICES + 2, count( $kept ) );
		$this->assertGreaterThan( 4000, count( $kept ), 'the budget is used, not far undercut' );
		$this->assertSame( array( 0.0, -0.0045 ), array_map( 'floatval', $kept[0] ) );
		$this->assertSame( array( round( 19999 * 0.0009, 6 ), 0.0045 ), array_map( 'floatval', end( $kept ) ) );
	}

	/**
	 * The profile: at most 100 whole-metre points at equal distances, from 0 to the length.
	 */
	public function test_the_profile_is_resampled_along_the_distance(): void {
		$positions = array();
		for ( $i = 0; $i <= 1000; $i++ ) {
			// 1,000 steps north of 0.0001° (11.1195 m each), climbing 1 m per step.
			$positions[] = array( 7, 46 + $i * 0.0001, 1000 + $i );
		}
		$geometry = $this->geometry( 'LineString', $positions );
		$profile  = Geometry_Measures::profile( $geometry );
		$this->assertIsArray( $profile );
		$this->assertCount( 100, $profile );
		$this->assertSame( array( 0, 1000 ), $profile[0] );
		$this->assertSame( array( 11120, 2000 ), $profile[99] );
		// Halfway along in distance is halfway up.
		$this->assertEqualsWithDelta( 1505, $profile[50][1], 1 );
		$this->assertEqualsWithDelta( 11119.5 * 50 / 99, $profile[50][0], 1 );
		foreach ( $profile as $point ) {
			$this->assertIsInt( $point[0] );
			$this->assertIsInt( $point[1] );
		}

		$short = Geometry_Measures::profile( $this->geometry( 'LineString', array( array( 7, 46, 10 ), array( 7, 46.001, 20.4 ) ) ) );
		$this->assertSame( array( array( 0, 10 ), array( 111, 20 ) ), $short, 'a short line keeps its own positions' );
	}

	/**
	 * A line's anchor is its first position; an area's is inside it, even when its centroid is not.
	 */
	public function test_anchors(): void {
		$this->assertSame(
			array(
				'lat' => 46.5,
				'lng' => 7.25,
			),
			Geometry_Measures::anchor( $this->geometry( 'MultiLineString', array( array( array( 7.25, 46.5 ), array( 8, 47 ) ) ) ) )
		);

		$square = Geometry_Measures::anchor( $this->geometry( 'Polygon', array( array( array( 0, 0 ), array( 2, 0 ), array( 2, 2 ), array( 0, 2 ), array( 0, 0 ) ) ) ) );
		$this->assertEqualsWithDelta( 1.0, $square['lat'], 1e-9 );
		$this->assertEqualsWithDelta( 1.0, $square['lng'], 1e-9 );

		// A C shape opening east: its centroid falls in the opening, so the anchor moves into the C.
		$c      = array( array( 0, 0 ), array( 3, 0 ), array( 3, 1 ), array( 1, 1 ), array( 1, 2 ), array( 3, 2 ), array( 3, 3 ), array( 0, 3 ), array( 0, 0 ) );
		$anchor = Geometry_Measures::anchor( $this->geometry( 'Polygon', array( $c ) ) );
		$this->assertGreaterThan( 0.0, $anchor['lng'] );
		$this->assertLessThan( 1.0, $anchor['lng'], 'inside the back of the C' );

		// A square with a hole in the middle: the anchor is in the ring, not the hole.
		$holed = Geometry_Measures::anchor(
			$this->geometry(
				'Polygon',
				array(
					array( array( 0, 0 ), array( 4, 0 ), array( 4, 4 ), array( 0, 4 ), array( 0, 0 ) ),
					array( array( 1, 1 ), array( 3, 1 ), array( 3, 3 ), array( 1, 3 ), array( 1, 1 ) ),
				)
			)
		);
		$this->assertTrue( $holed['lng'] < 1.0 || $holed['lng'] > 3.0, 'outside the hole: ' . wp_json_encode( $holed ) );

		// A MultiPolygon: inside the largest polygon.
		$multi = Geometry_Measures::anchor(
			$this->geometry(
				'MultiPolygon',
				array(
					array( array( array( 0, 0 ), array( 1, 0 ), array( 1, 1 ), array( 0, 0 ) ) ),
					array( array( array( 10, 10 ), array( 14, 10 ), array( 14, 14 ), array( 10, 14 ), array( 10, 10 ) ) ),
				)
			)
		);
		$this->assertEqualsWithDelta( 12.0, $multi['lng'], 1e-9 );
	}

	/**
	 * A wiggly 50,000-point track keeps at most 5,000 vertices for the map, its ends, and fits in
	 * far less than 100 kB gzipped; a ring stays closed.
	 */
	public function test_a_long_track_is_simplified_within_the_budget(): void {
		mt_srand( 7 ); // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_seeding_mt_srand -- the same shapes every run.
		$positions = array();
		$lng       = 7.0;
		$lat       = 46.0;
		for ( $i = 0; $i < 50000; $i++ ) {
			// About 1 m steps with GPS jitter, wandering over a few kilometres.
			$lng        += 0.000012 * cos( $i / 700 ) + mt_rand( -100, 100 ) / 1e7; // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_mt_rand -- seeded, the same shapes every run.
			$lat        += 0.000009 * sin( $i / 1100 ) + mt_rand( -100, 100 ) / 1e7; // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_mt_rand -- seeded, the same shapes every run.
			$positions[] = array( $lng, $lat, 1000 + 200 * sin( $i / 5000 ) );
		}
		$geometry = $this->geometry( 'LineString', $positions );
		$shape    = json_decode( Shape_Store::derive( $geometry ), true );
		$this->assertIsArray( $shape );
		$line = $shape['geometry']['coordinates'];
		$this->assertLessThanOrEqual( 5000, count( $line ) );
		$this->assertGreaterThan( 100, count( $line ), 'still the track\'s shape' );
		$this->assertSame( array( round( $positions[0][0], 6 ), round( $positions[0][1], 6 ) ), $line[0] );
		$this->assertSame( array( round( $lng, 6 ), round( $lat, 6 ) ), $line[ count( $line ) - 1 ] );
		$this->assertCount( 2, $line[1], '2D for the map' );
		$gzip = strlen( (string) gzencode( (string) wp_json_encode( $shape ) ) );
		$this->assertLessThan( 100000, $gzip );
		// Its cost as a count (a time would fail on a loaded machine): at most 6 heap steps a position.
		$this->assertLessThanOrEqual( 6 * 50000, Line_Simplifier::steps() );
		fwrite( STDERR, sprintf( "\n[geo] 50,000-point track: %d vertices for the map, %d B gzip, %d heap steps\n", count( $line ), $gzip, Line_Simplifier::steps() ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fwrite -- the measurement, for the record.

		$ring = array();
		for ( $i = 0; $i < 20000; $i++ ) {
			$angle  = 2 * M_PI * $i / 20000;
			$ring[] = array( 7 + 0.01 * cos( $angle ), 46 + 0.01 * sin( $angle ) );
		}
		$ring[]     = $ring[0];
		$simplified = Line_Simplifier::simplify( $this->geometry( 'Polygon', array( $ring ) ) );
		$outer      = $simplified['coordinates'][0];
		$this->assertGreaterThanOrEqual( 4, count( $outer ) );
		$this->assertLessThan( 1000, count( $outer ) );
		$this->assertSame( $outer[0], $outer[ count( $outer ) - 1 ], 'closed' );

		$tiny = Line_Simplifier::simplify( $this->geometry( 'Polygon', array( array( array( 7, 46 ), array( 7.0000001, 46 ), array( 7.0000001, 46.0000001 ), array( 7, 46 ) ) ) ) );
		$this->assertCount( 4, $tiny['coordinates'][0], 'a ring below the rounding keeps 4 positions' );

		$small = Line_Simplifier::simplify( $this->geometry( 'Polygon', array( array( array( 7, 46 ), array( 7.000005, 46 ), array( 7.000006, 46.000003 ), array( 7.000003, 46.000006 ), array( 7, 46.000004 ), array( 7, 46 ) ) ) ) );
		$this->assertCount( 4, $small['coordinates'][0], 'a ring below the tolerance keeps its 4 most significant positions' );
		$this->assertSame( $small['coordinates'][0][0], $small['coordinates'][0][3] );
	}

	/**
	 * Rings are wound as RFC 7946 asks whatever their winding was: outer rings anticlockwise,
	 * holes clockwise (mapbox-gl tells a hole from a second polygon by its winding).
	 */
	public function test_rings_are_wound_for_the_map(): void {
		$clockwise_square = static function ( float $x, float $y, float $size ): array {
			return array( array( $x, $y ), array( $x, $y + $size ), array( $x + $size, $y + $size ), array( $x + $size, $y ), array( $x, $y ) );
		};
		foreach ( array(
			'Polygon'      => array( $clockwise_square( 0, 0, 4 ), array_reverse( $clockwise_square( 1, 1, 1 ) ) ),
			'MultiPolygon' => array( array( array_reverse( $clockwise_square( 10, 10, 1 ) ) ), array( $clockwise_square( 0, 0, 4 ), $clockwise_square( 1, 1, 1 ) ) ),
		) as $type => $coordinates ) {
			$simplified = Line_Simplifier::simplify( $this->geometry( $type, $coordinates ) );
			$polygons   = 'Polygon' === $type ? array( $simplified['coordinates'] ) : $simplified['coordinates'];
			foreach ( $polygons as $rings ) {
				foreach ( $rings as $r => $ring ) {
					$area = Geometry_Measures::ring_area( $ring );
					$this->assertSame( 0 === $r, $area > 0, "{$type}: ring {$r} " . wp_json_encode( $ring ) );
				}
			}
		}
	}

	/**
	 * The derived copy has the fields the feed serves.
	 */
	public function test_the_derived_copy(): void {
		$line  = $this->geometry( 'LineString', array( array( 7, 46, 1000 ), array( 7, 46.5, 1100 ), array( 7, 47, 1050 ) ) );
		$shape = json_decode( Shape_Store::derive( $line ), true );
		$this->assertSame( array( 7, 46, 7, 47 ), $shape['bbox'] );
		$this->assertSame( 111195, $shape['length_m'] );
		$this->assertSame( 100, $shape['ascent_m'] );
		$this->assertSame( 50, $shape['descent_m'] );
		$this->assertSame( array( array( 0, 1000 ), array( 55598, 1100 ), array( 111195, 1050 ) ), $shape['profile'] );
		$this->assertSame( 'LineString', $shape['geometry']['type'] );

		$area = json_decode( Shape_Store::derive( $this->geometry( 'Polygon', array( array( array( 7.1234567, 46 ), array( 8, 46 ), array( 8, 47 ), array( 7.1234567, 46 ) ) ) ) ), true );
		$this->assertSame( array( 7.123456, 46, 8, 47 ), $area['bbox'], 'rounded outwards to 6 decimals' );
		$this->assertNull( $area['length_m'] );
		$this->assertNull( $area['ascent_m'] );
		$this->assertNull( $area['profile'] );
	}
}
