<?php
/**
 * The simplified copy the map draws keeps the rules of a shape.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Markers;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Geometry_Rule;
use Cairn\Maps\Markers\Line_Simplifier;
use Cairn\Maps\Markers\Ring_Crossings;
use Cairn\Maps\Markers\Shape_Store;
use Cairn\Maps\Tests\TestCase;

/**
 * Where dropping positions would make the copy cross itself or another ring, or shrink a part to a
 * point, the simplifier keeps more (a smaller tolerance, then every position, then the original).
 *
 * @since 0.7.0
 */
final class Simplified_ValidityTest extends TestCase {

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
		$this->assertIsArray( $checked, $type );
		return $checked;
	}

	/**
	 * The field with a narrow inlet (tests/fixtures/validity/simplified-inlet.geojson).
	 *
	 * @return array<int, array<int, float>>
	 */
	private static function inlet(): array {
		$feature = json_decode( (string) file_get_contents( dirname( __DIR__, 2 ) . '/fixtures/validity/simplified-inlet.geojson' ), true ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a local fixture.
		return $feature['geometry']['coordinates'][0];
	}

	/**
	 * A position east and north of (7, 46), in metres.
	 *
	 * @param float $x Metres east.
	 * @param float $y Metres north.
	 * @return array{0: float, 1: float}
	 */
	private static function metres( float $x, float $y ): array {
		$metres = M_PI * 6371008.8 / 180;
		return array( round( 7 + $x / ( $metres * cos( deg2rad( 46 ) ) ), 7 ), round( 46 + $y / $metres, 7 ) );
	}

	/**
	 * Whether a simplified area is valid.
	 *
	 * @param array{type: string, coordinates: array<int, mixed>} $copy A simplified geometry.
	 */
	private static function fault( array $copy ): ?array {
		return Ring_Crossings::fault( 'Polygon' === $copy['type'] ? array( $copy['coordinates'] ) : $copy['coordinates'] );
	}

	/**
	 * The field's copy kept its south bulge: without it, the south edge crossed the inlet's tip (the
	 * copy crossed itself on the map before issue 32).
	 */
	public function test_the_copy_of_the_inlet_does_not_cross_itself(): void {
		$area  = $this->geometry( 'Polygon', array( self::inlet() ) );
		$shape = json_decode( Shape_Store::derive( $area ), true );
		$copy  = $shape['geometry'];
		$this->assertNull( self::fault( $copy ), (string) wp_json_encode( $copy ) );
		$this->assertContains( array( 7.000259, 45.999996 ), $copy['coordinates'][0], 'the bulge is kept' );
		$this->assertTrue( Line_Simplifier::valid( $copy ) );
	}

	/**
	 * Only what must stay stays: a smaller tolerance keeps the bulge but still drops the jitter of
	 * the north edge.
	 */
	public function test_a_smaller_tolerance_still_simplifies(): void {
		$ring  = self::inlet();
		$north = array();
		for ( $i = 1; $i < 40; $i++ ) {
			$north[] = self::metres( 100 - $i * 1.1, 100 + ( $i % 2 ) * 0.02 );
		}
		array_splice( $ring, 4, 0, $north ); // After the north-east corner, before the inlet.
		$area = $this->geometry( 'Polygon', array( $ring ) );
		$copy = Line_Simplifier::simplify( $area );
		$this->assertNull( self::fault( $copy ) );
		$this->assertContains( array( 7.000259, 45.999996 ), $copy['coordinates'][0], 'the bulge is kept' );
		$this->assertLessThan( 20, count( $copy['coordinates'][0] ), 'the jitter is dropped (' . count( $ring ) . ' positions given)' );
	}

	/**
	 * A hole whose corner lies in the bulge's triangle is not pushed out of its shell.
	 */
	public function test_a_hole_stays_inside_its_shell(): void {
		$shell = array( self::metres( 0, 0 ), self::metres( 20, -0.44 ), self::metres( 100, 0 ), self::metres( 100, 100 ), self::metres( 0, 100 ), self::metres( 0, 0 ) );
		$hole  = array( self::metres( 50, -0.22 ), self::metres( 45, 20 ), self::metres( 55, 20 ), self::metres( 50, -0.22 ) );
		$copy  = Line_Simplifier::simplify( $this->geometry( 'MultiPolygon', array( array( $shell, $hole ), array( array( self::metres( 200, 0 ), self::metres( 210, 0 ), self::metres( 210, 10 ), self::metres( 200, 0 ) ) ) ) ) );
		$this->assertNull( self::fault( $copy ), (string) wp_json_encode( $copy ) );
		$this->assertCount( 2, $copy['coordinates'] );
	}

	/**
	 * Parts smaller than the rounding of the copy (10 cm) keep their positions as given rather than
	 * shrinking to a point: a line of two different positions, a ring of three different corners.
	 */
	public function test_tiny_parts_do_not_shrink_to_a_point(): void {
		$line = Line_Simplifier::simplify( $this->geometry( 'LineString', array( array( 7, 46 ), array( 7.0000001, 46.0000001 ) ) ) );
		$this->assertSame( array( array( 7.0, 46.0 ), array( 7.0000001, 46.0000001 ) ), $line['coordinates'] );

		$ring = Line_Simplifier::simplify( $this->geometry( 'Polygon', array( array( array( 7, 46 ), array( 7.0000001, 46 ), array( 7.0000001, 46.0000001 ), array( 7, 46 ) ) ) ) );
		$this->assertCount( 4, $ring['coordinates'][0] );
		$this->assertCount( 3, array_unique( array_map( 'wp_json_encode', $ring['coordinates'][0] ) ), 'three different corners' );
		$this->assertTrue( Line_Simplifier::valid( $ring ) );
	}
}
