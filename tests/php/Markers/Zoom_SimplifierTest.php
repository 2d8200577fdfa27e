<?php
/**
 * A shape's copies per zoom, for the shape tiles.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Markers;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Geometry_Measures;
use Cairn\Maps\Markers\Geometry_Rule;
use Cairn\Maps\Markers\Shape_Store;
use Cairn\Maps\Markers\Zoom_Simplifier;
use Cairn\Maps\Tests\TestCase;
use WP_Error;

/**
 * Every copy is a shape the rules accept (what a visitor's map would draw broken otherwise), keeps
 * fewer positions the lower the zoom, stays within about half a pixel of the feed's copy, and
 * nothing disappears: round trips stay lines, islands stay rings; only holes under a pixel go.
 *
 * @since 0.7.0
 */
final class Zoom_SimplifierTest extends TestCase {

	private const FULL_ZOOM = 12;

	/**
	 * The feed's copy of a geometry (as Shape_Store derives it), checked first.
	 *
	 * @param string            $type        Type.
	 * @param array<int, mixed> $coordinates Coordinates.
	 * @return array{type: string, coordinates: array<int, mixed>}
	 */
	private function copy( string $type, array $coordinates ): array {
		$checked = Geometry_Rule::check(
			array(
				'type'        => $type,
				'coordinates' => $coordinates,
			)
		);
		$this->assertIsArray( $checked, $type );
		$shape = json_decode( Shape_Store::derive( $checked ), true );
		return $shape['geometry'];
	}

	/**
	 * A winding trail of 4,000 positions, about 60 km from (7, 46): bends of a few hundred metres.
	 *
	 * @return array<int, array{0: float, 1: float}>
	 */
	private static function trail(): array {
		$positions = array();
		$heading   = 0.3;
		$lng       = 7.0;
		$lat       = 46.0;
		for ( $i = 0; $i < 4000; $i++ ) {
			$positions[] = array( round( $lng, 7 ), round( $lat, 7 ) );
			$heading    += 0.09 * sin( $i / 23 ) + 0.04 * sin( $i / 7 );
			$lat        += 15 * cos( $heading ) / 111320;
			$lng        += 15 * sin( $heading ) / ( 111320 * cos( deg2rad( $lat ) ) );
		}
		return $positions;
	}

	/**
	 * A ring of $n corners around a centre, anticlockwise (clockwise for a hole), wavy.
	 *
	 * @param float $lng    Centre longitude.
	 * @param float $lat    Centre latitude.
	 * @param float $radius Radius in degrees.
	 * @param int   $n      Corners.
	 * @param bool  $hole   Whether clockwise.
	 * @return array<int, array{0: float, 1: float}>
	 */
	private static function ring( float $lng, float $lat, float $radius, int $n, bool $hole = false ): array {
		$ring = array();
		for ( $i = 0; $i < $n; $i++ ) {
			$angle  = ( $hole ? -1 : 1 ) * 2 * M_PI * $i / $n;
			$r      = $radius * ( 1 + 0.04 * sin( 13 * $angle ) );
			$ring[] = array( round( $lng + $r * cos( $angle ), 7 ), round( $lat + $r * sin( $angle ), 7 ) );
		}
		$ring[] = $ring[0];
		return $ring;
	}

	/**
	 * Every copy, from zoom 0 to the full zoom (the feed's copy itself).
	 *
	 * @param array{type: string, coordinates: array<int, mixed>} $copy The feed's copy.
	 * @return array<int, array{type: string, coordinates: array<int, mixed>}>
	 */
	private static function all_zooms( array $copy ): array {
		$levels                    = Zoom_Simplifier::levels( $copy, self::FULL_ZOOM );
		$levels[ self::FULL_ZOOM ] = $copy;
		return $levels;
	}

	/**
	 * Asserts that each copy is a shape Geometry_Rule accepts, and that positions fall with the zoom.
	 *
	 * @param array<int, array{type: string, coordinates: array<int, mixed>}> $levels Zoom => copy.
	 */
	private function assert_valid_and_falling( array $levels ): void {
		$this->assertSame( range( 0, self::FULL_ZOOM ), array_keys( $levels ) );
		$previous = 0;
		foreach ( $levels as $zoom => $copy ) {
			$checked = Geometry_Rule::check( $copy );
			$this->assertNotInstanceOf( WP_Error::class, $checked, "zoom $zoom: " . ( $checked instanceof WP_Error ? $checked->get_error_message() : '' ) );
			$this->assertSame( $copy['type'], $checked['type'] );
			$count = Zoom_Simplifier::count( $copy );
			$this->assertGreaterThanOrEqual( $previous, $count, "zoom $zoom keeps at least zoom " . ( $zoom - 1 ) . "'s positions" );
			$previous = $count;
		}
	}

	/**
	 * Pixels of zoom z from a position to the nearest segment of a line (Web Mercator).
	 *
	 * @param array<int, float>             $p    A position.
	 * @param array<int, array<int, float>> $line Positions of the line.
	 * @param int                           $z    Zoom.
	 */
	private static function pixels_off( array $p, array $line, int $z ): float {
		$project         = static function ( array $q ) use ( $z ): array {
			$size = 512 * 2 ** $z;
			$lat  = deg2rad( $q[1] );
			return array( ( $q[0] + 180 ) / 360 * $size, ( 1 - log( tan( M_PI / 4 + $lat / 2 ) ) / M_PI ) / 2 * $size );
		};
		list( $px, $py ) = $project( $p );
		$best            = INF;
		$count           = count( $line );
		for ( $i = 1; $i < $count; $i++ ) {
			list( $ax, $ay ) = $project( $line[ $i - 1 ] );
			list( $bx, $by ) = $project( $line[ $i ] );
			$dx              = $bx - $ax;
			$dy              = $by - $ay;
			$length          = $dx * $dx + $dy * $dy;
			$t               = $length > 0 ? max( 0, min( 1, ( ( $px - $ax ) * $dx + ( $py - $ay ) * $dy ) / $length ) ) : 0;
			$best            = min( $best, hypot( $px - ( $ax + $t * $dx ), $py - ( $ay + $t * $dy ) ) );
		}
		return $best;
	}

	/**
	 * A long trail: a handful of positions at zoom 0, more at every zoom up, each copy a valid line
	 * with the trail's ends, its positions rounded to the zoom's decimals.
	 */
	public function test_a_trail_keeps_more_positions_the_higher_the_zoom(): void {
		$copy   = $this->copy( 'LineString', self::trail() );
		$levels = self::all_zooms( $copy );
		$this->assert_valid_and_falling( $levels );
		$this->assertLessThanOrEqual( 4, Zoom_Simplifier::count( $levels[0] ) );
		$this->assertLessThan( Zoom_Simplifier::count( $levels[8] ), Zoom_Simplifier::count( $levels[4] ) );
		$this->assertLessThan( Zoom_Simplifier::count( $copy ), Zoom_Simplifier::count( $levels[11] ) );
		foreach ( Zoom_Simplifier::levels( $copy, self::FULL_ZOOM ) as $zoom => $level ) {
			$this->assertEqualsWithDelta( $copy['coordinates'][0], $level['coordinates'][0], 10 ** -Zoom_Simplifier::decimals( $zoom ), "zoom $zoom starts where the trail does" );
			$last = count( $copy['coordinates'] ) - 1;
			$this->assertEqualsWithDelta( $copy['coordinates'][ $last ], end( $level['coordinates'] ), 10 ** -Zoom_Simplifier::decimals( $zoom ), "zoom $zoom ends where the trail does" );
			foreach ( $level['coordinates'] as $p ) {
				$this->assertSame( array( round( $p[0], Zoom_Simplifier::decimals( $zoom ) ), round( $p[1], Zoom_Simplifier::decimals( $zoom ) ) ), $p );
			}
		}
	}

	/**
	 * Drawn at its zoom, a copy is where the trail is: no position of the feed's copy lies more
	 * than a pixel and a half from it (half a pixel is the target; Visvalingam measures areas,
	 * not distances, and rounding adds an eighth).
	 */
	public function test_each_copy_stays_within_a_pixel_of_the_trail(): void {
		$copy = $this->copy( 'LineString', self::trail() );
		foreach ( array( 3, 6, 9, 11 ) as $zoom ) {
			$level = Zoom_Simplifier::levels( $copy, self::FULL_ZOOM )[ $zoom ];
			$worst = 0.0;
			foreach ( array_slice( $copy['coordinates'], 0, null ) as $k => $p ) {
				if ( 0 === $k % 5 ) {
					$worst = max( $worst, self::pixels_off( $p, $level['coordinates'], $zoom ) );
				}
			}
			$this->assertLessThan( 1.5, $worst, "zoom $zoom" );
		}
	}

	/**
	 * The decimals keep positions within an eighth of a pixel, and never exceed the copy's six.
	 */
	public function test_decimals_follow_the_zoom(): void {
		$previous = 0;
		for ( $zoom = 0; $zoom <= 22; $zoom++ ) {
			$decimals = Zoom_Simplifier::decimals( $zoom );
			$this->assertGreaterThanOrEqual( $previous, $decimals );
			$this->assertLessThanOrEqual( 6, $decimals );
			if ( $decimals < 6 ) {
				$this->assertLessThanOrEqual( 360 / ( 512 * 2 ** $zoom ) / 8, 10 ** -$decimals / 2, "zoom $zoom" );
			}
			$previous = $decimals;
		}
		$this->assertSame( 2, Zoom_Simplifier::decimals( 0 ) );
	}

	/**
	 * An area with a big hole (11 km) and a small one (70 m): valid at every zoom, wound as RFC
	 * 7946 asks; each hole is left out below the zoom where it spans a pixel (zoom 3 and 10).
	 */
	public function test_areas_stay_valid_and_only_holes_under_a_pixel_go(): void {
		$copy   = $this->copy(
			'Polygon',
			array(
				self::ring( 7, 46, 0.3, 2000 ),
				self::ring( 7.1, 46, 0.05, 300, true ),
				self::ring( 6.9, 46.05, 0.0003, 8, true ),
			)
		);
		$levels = self::all_zooms( $copy );
		$this->assert_valid_and_falling( $levels );
		$this->assertCount( 1, $levels[2]['coordinates'], 'zoom 2: both holes under a pixel' );
		$this->assertCount( 2, $levels[3]['coordinates'], 'zoom 3: the big hole spans a pixel' );
		$this->assertCount( 2, $levels[9]['coordinates'], 'zoom 9: the small one does not' );
		$this->assertCount( 3, $levels[10]['coordinates'], 'zoom 10: it does (north to south)' );
		foreach ( $levels as $zoom => $level ) {
			$this->assertGreaterThan( 0, Geometry_Measures::ring_area( $level['coordinates'][0] ), "zoom $zoom: the shell runs anticlockwise" );
			foreach ( array_slice( $level['coordinates'], 1 ) as $hole ) {
				$this->assertLessThan( 0, Geometry_Measures::ring_area( $hole ), "zoom $zoom: a hole clockwise" );
			}
		}
	}

	/**
	 * A MultiPolygon of a lake and a small island far off: the island is still a ring of three
	 * corners at zoom 0, not dropped.
	 */
	public function test_small_islands_stay(): void {
		$copy   = $this->copy( 'MultiPolygon', array( array( self::ring( 7, 46, 0.3, 500 ) ), array( self::ring( 9, 47, 0.0005, 12 ) ) ) );
		$levels = self::all_zooms( $copy );
		$this->assert_valid_and_falling( $levels );
		$this->assertCount( 2, $levels[0]['coordinates'] );
		$this->assertCount( 4, $levels[0]['coordinates'][1][0], 'a triangle, closed' );
	}

	/**
	 * A round trip (its ends meet) is still a line at zoom 0: its farthest bend is kept.
	 */
	public function test_round_trips_stay_lines(): void {
		$loop = self::ring( 7, 46, 0.01, 60 );
		$copy = $this->copy( 'MultiLineString', array( $loop, array( array( 8, 46 ), array( 8.3, 46.1 ) ) ) );
		$zero = Zoom_Simplifier::levels( $copy, self::FULL_ZOOM )[0];
		$this->assertCount( 2, $zero['coordinates'] );
		$this->assertCount( 3, $zero['coordinates'][0] );
		$this->assertNotEquals( $zero['coordinates'][0][0], $zero['coordinates'][0][1] );
		$this->assert_valid_and_falling( self::all_zooms( $copy ) );
	}

	/**
	 * Where leaving out positions would make an area cross itself, the copy keeps more: a field
	 * with a fjord 20 m wide and 7 km deep whose sides wiggle together by 30 m (each side simplified
	 * alone would cross the other), and the field with a narrow inlet of tests/fixtures/validity/.
	 */
	public function test_copies_that_would_cross_themselves_keep_more(): void {
		$wiggle = static fn( float $lat ): float => 0.0003 * sin( $lat * 2 * M_PI / 0.005 );
		$right  = array();
		$left   = array();
		for ( $lat = 46.07; $lat >= 46.005 - 1e-9; $lat -= 0.0005 ) {
			$right[] = array( round( 7.0501 + $wiggle( $lat ), 7 ), round( $lat, 7 ) );
			$left[]  = array( round( 7.0499 + $wiggle( $lat ), 7 ), round( $lat, 7 ) );
		}
		$fjord   = array_merge( array( array( 7, 46 ), array( 7.1, 46 ), array( 7.1, 46.07 ) ), $right, array_reverse( $left ), array( array( 7, 46.07 ), array( 7, 46 ) ) );
		$feature = json_decode( (string) file_get_contents( dirname( __DIR__, 2 ) . '/fixtures/validity/simplified-inlet.geojson' ), true ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a local fixture.
		foreach ( array( $fjord, $feature['geometry']['coordinates'][0] ) as $ring ) {
			$this->assert_valid_and_falling( self::all_zooms( $this->copy( 'Polygon', array( $ring ) ) ) );
		}
	}
}
