<?php
/**
 * The rule for a marker's shape.
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
use WP_Error;

/**
 * Each bad geometry is refused with a 400 whose message names what is wrong and where; good ones
 * come back normalised.
 *
 * @since 0.5.0
 */
final class Geometry_RuleTest extends TestCase {

	/**
	 * A closed square ring.
	 *
	 * @param float $x    West.
	 * @param float $y    South.
	 * @param float $size Side.
	 * @return array<int, array<int, float>>
	 */
	private static function square( float $x, float $y, float $size ): array {
		return array( array( $x, $y ), array( $x + $size, $y ), array( $x + $size, $y + $size ), array( $x, $y + $size ), array( $x, $y ) );
	}

	/**
	 * Bad geometries and a piece of the message each must give.
	 *
	 * @return array<string, array{0: mixed, 1: string}>
	 */
	public function bad_geometries(): array {
		$bowtie = array( array( 0, 0 ), array( 1, 1 ), array( 1, 0 ), array( 0, 1 ), array( 0, 0 ) );
		return array(
			'not an object'                 => array( 'LINESTRING(0 0, 1 1)', 'an object with a "type" and "coordinates"' ),
			'no type'                       => array( array( 'coordinates' => array() ), 'an object with a "type"' ),
			'a point'                       => array(
				array(
					'type'        => 'Point',
					'coordinates' => array( 1, 2 ),
				),
				'A Point is not a shape',
			),
			'a geometry collection'         => array(
				array(
					'type'       => 'GeometryCollection',
					'geometries' => array(),
				),
				'A GeometryCollection is not accepted',
			),
			'an unknown type'               => array(
				array(
					'type'        => 'Circle',
					'coordinates' => array(),
				),
				'"Circle" is not a geometry type',
			),
			'no coordinates'                => array( array( 'type' => 'LineString' ), 'The LineString has no coordinates' ),
			'coordinates not a list'        => array(
				array(
					'type'        => 'LineString',
					'coordinates' => array( 'a' => array( 0, 0 ) ),
				),
				'has no coordinates',
			),
			'a position of one number'      => array(
				array(
					'type'        => 'LineString',
					'coordinates' => array( array( 0, 0 ), array( 1 ) ),
				),
				'Position 2 of the line is not valid',
			),
			'a position of text'            => array(
				array(
					'type'        => 'MultiLineString',
					'coordinates' => array( array( array( 0, 0 ), array( 1, 1 ) ), array( array( 0, 0 ), array( '1', '2' ) ) ),
				),
				'Position 2 of line 2 is not valid: its longitude, latitude and elevation must be numbers',
			),
			'an elevation of text'          => array(
				array(
					'type'        => 'LineString',
					'coordinates' => array( array( 0, 0, 'high' ), array( 1, 1, 2 ) ),
				),
				'Position 1 of the line is not valid: its longitude, latitude and elevation must be numbers',
			),
			'a longitude out of range'      => array(
				array(
					'type'        => 'LineString',
					'coordinates' => array( array( 0, 0 ), array( 181, 1 ) ),
				),
				'Position 2 of the line is not valid: its longitude 181 is not between -180 and 180',
			),
			'a latitude out of range'       => array(
				array(
					'type'        => 'Polygon',
					'coordinates' => array( self::square( 0, 0, 1 ), array( array( 0.1, 0.1 ), array( 0.2, 0.1 ), array( 0.2, 95 ), array( 0.1, 0.1 ) ) ),
				),
				'Position 3 of ring 2 is not valid: its latitude 95 is not between -90 and 90',
			),
			'an absurd elevation'           => array(
				array(
					'type'        => 'LineString',
					'coordinates' => array( array( 0, 0, 1e9 ), array( 1, 1, 2 ) ),
				),
				'is not a real elevation',
			),
			'a line of one place'           => array(
				array(
					'type'        => 'LineString',
					'coordinates' => array( array( 5, 5 ), array( 5, 5, 100 ) ),
				),
				'The line needs at least 2 different positions',
			),
			'an unclosed ring'              => array(
				array(
					'type'        => 'MultiPolygon',
					'coordinates' => array(
						array( self::square( 0, 0, 1 ) ),
						array( array( array( 5, 5 ), array( 6, 5 ), array( 6, 6 ), array( 5, 6 ) ) ),
					),
				),
				'Ring 1 of polygon 2 is not closed: its last position must repeat its first.',
			),
			'a ring of 3 positions'         => array(
				array(
					'type'        => 'Polygon',
					'coordinates' => array( array( array( 0, 0 ), array( 1, 0 ), array( 0, 0 ) ) ),
				),
				'Ring 1 needs at least 4 positions',
			),
			'a ring of repeated corners'    => array(
				array(
					'type'        => 'Polygon',
					'coordinates' => array( array( array( 0, 0 ), array( 1, 0 ), array( 1, 0 ), array( 0, 0 ) ) ),
				),
				'Ring 1 needs at least 4 positions',
			),
			'a bow tie'                     => array(
				array(
					'type'        => 'Polygon',
					'coordinates' => array( $bowtie ),
				),
				'The area is not simple: Ring 1 crosses or touches itself or another ring (the edge from position 1 to position 2 of ring 1 meets the edge from position 3 to position 4 of ring 1).',
			),
			'a bow tie with repeats'        => array(
				array(
					'type'        => 'Polygon',
					'coordinates' => array( array( array( 0, 0 ), array( 0, 0 ), array( 1, 1 ), array( 1, 1 ), array( 1, 1 ), array( 1, 0 ), array( 0, 1 ), array( 0, 0 ) ) ),
				),
				'(the edge from position 2 to position 3 of ring 1 meets the edge from position 6 to position 7 of ring 1)',
			),
			'a hole crossing its ring'      => array(
				array(
					'type'        => 'MultiPolygon',
					'coordinates' => array( array( self::square( 10, 10, 1 ) ), array( self::square( 0, 0, 4 ), self::square( 3, 1, 2 ) ) ),
				),
				'of ring 1 of polygon 2 meets the edge from position',
			),
			'a figure of eight at a corner' => array(
				array(
					'type'        => 'Polygon',
					'coordinates' => array( array( array( 0, 0 ), array( 2, 0 ), array( 1, 1 ), array( 2, 2 ), array( 0, 2 ), array( 1, 1 ), array( 0, 0 ) ) ),
				),
				'The area is not simple: Ring 1 touches itself at position 6.',
			),
			'a spike'                       => array(
				array(
					'type'        => 'Polygon',
					'coordinates' => array( array( array( 0, 0 ), array( 2, 0 ), array( 2, 2 ), array( 2, 1 ), array( 0, 2 ), array( 0, 0 ) ) ),
				),
				'crosses or touches itself',
			),
			'too many parts'                => array(
				array(
					'type'        => 'MultiLineString',
					'coordinates' => array_fill( 0, 1001, array( array( 0, 0 ), array( 1, 1 ) ) ),
				),
				'This shape has 1,001 parts (lines or rings); the most a shape may have is 1,000.',
			),
		);
	}

	/**
	 * Each bad geometry is refused with its message.
	 *
	 * @dataProvider bad_geometries
	 *
	 * @param mixed  $geometry The geometry.
	 * @param string $message  A piece of the message.
	 */
	public function test_bad_geometries_are_refused_with_a_message( $geometry, string $message ): void {
		$result = Geometry_Rule::check( $geometry );
		$this->assertInstanceOf( WP_Error::class, $result );
		$this->assertSame( 'cairn_invalid_geometry', $result->get_error_code() );
		$this->assertSame( array( 'status' => 400 ), $result->get_error_data() );
		$this->assertStringContainsString( $message, $result->get_error_message() );
	}

	/**
	 * A million vertices are refused at once, before any position is read.
	 */
	public function test_a_million_vertices_are_refused_fast(): void {
		$position = array( 1.5, 2.5 );
		$line     = array_fill( 0, 1000000, $position );
		$result   = Geometry_Rule::check(
			array(
				'type'        => 'LineString',
				'coordinates' => $line,
			)
		);
		$this->assertInstanceOf( WP_Error::class, $result );
		$this->assertSame( 'This shape has 1,000,000 vertices; the most a shape may have is 100,000. Simplify it first (most GPS and GIS tools can).', $result->get_error_message() );

		$over = Geometry_Rule::check(
			array(
				'type'        => 'MultiPolygon',
				'coordinates' => array( array( array_fill( 0, 60000, $position ) ), array( array_fill( 0, 40001, $position ) ) ),
			)
		);
		$this->assertInstanceOf( WP_Error::class, $over );
		$this->assertStringContainsString( 'This shape has 100,001 vertices', $over->get_error_message() );
	}

	/**
	 * Good geometries come back as floats, rounded, a fourth number dropped, repeated ring corners
	 * dropped.
	 */
	public function test_good_geometries_are_normalised(): void {
		$line = Geometry_Rule::check(
			array(
				'type'        => 'LineString',
				'coordinates' => array( array( 6, 45.123456789, 1200.04, 1700000000 ), array( 6.5, 45.5, 1300 ) ),
				'properties'  => array( 'ignored' => true ),
			)
		);
		$this->assertSame(
			array(
				'type'        => 'LineString',
				'coordinates' => array( array( 6.0, 45.1234568, 1200.0 ), array( 6.5, 45.5, 1300.0 ) ),
			),
			$line
		);

		$area = Geometry_Rule::check(
			array(
				'type'        => 'Polygon',
				'coordinates' => array( array( array( 0, 0 ), array( 1, 0 ), array( 1, 0 ), array( 1, 1 ), array( 0, 1 ), array( 0, 0 ) ) ),
			)
		);
		$this->assertSame(
			array(
				'type'        => 'Polygon',
				'coordinates' => array( array( array( 0.0, 0.0 ), array( 1.0, 0.0 ), array( 1.0, 1.0 ), array( 0.0, 1.0 ), array( 0.0, 0.0 ) ) ),
			),
			$area
		);

		$holed = Geometry_Rule::check(
			array(
				'type'        => 'MultiPolygon',
				'coordinates' => array( array( self::square( 0, 0, 4 ), self::square( 1, 1, 1 ) ), array( self::square( 10, 10, 1 ) ) ),
			)
		);
		$this->assertIsArray( $holed );
		$this->assertCount( 2, $holed['coordinates'] );
		$this->assertCount( 2, $holed['coordinates'][0] );

		$crossing_track = Geometry_Rule::check(
			array(
				'type'        => 'LineString',
				'coordinates' => array( array( 0, 0 ), array( 1, 1 ), array( 1, 0 ), array( 0, 1 ) ),
			)
		);
		$this->assertIsArray( $crossing_track, 'a line may cross itself (a track often does)' );
	}

	/**
	 * The sweep finds exactly the crossings and overlaps that testing every pair of edges finds, on
	 * random rings with many collinear edges, shared corners and vertical edges (integer corners on
	 * a small grid). Touching is not crossing: Ring_CrossingsTest checks the touches.
	 */
	public function test_the_sweep_agrees_with_testing_every_pair(): void {
		mt_srand( 21 ); // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_seeding_mt_srand -- the same shapes every run.
		$simple = 0;
		for ( $round = 0; $round < 2000; $round++ ) {
			$rings = array();
			$count = 0 === $round % 3 ? 2 : 1;
			for ( $r = 0; $r < $count; $r++ ) {
				$corners = mt_rand( 3, 9 ); // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_mt_rand -- seeded, the same shapes every run.
				$ring    = array();
				for ( $i = 0; $i < $corners; $i++ ) {
					$p = array( (float) mt_rand( 0, 6 ), (float) mt_rand( 0, 6 ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_mt_rand -- seeded, the same shapes every run.
					if ( array() === $ring || end( $ring ) !== $p ) {
						$ring[] = $p;
					}
				}
				if ( count( $ring ) < 3 || end( $ring ) === $ring[0] ) {
					continue 2;
				}
				$ring[]  = $ring[0];
				$rings[] = $ring;
			}
			$expected = self::every_pair( $rings );
			$found    = Ring_Crossings::first( $rings );
			$this->assertSame( $expected, null !== $found, 'rings: ' . wp_json_encode( $rings ) );
			$simple += $expected ? 0 : 1;
		}
		$this->assertGreaterThan( 20, $simple, 'some random rings are simple' );
	}

	/**
	 * A ring of 100,000 vertices (a circle-like star with a wiggle) is checked in well under a second.
	 */
	public function test_a_big_ring_is_checked_fast(): void {
		$ring = array();
		$n    = 99999;
		for ( $i = 0; $i < $n; $i++ ) {
			$angle  = 2 * M_PI * $i / $n;
			$radius = 1 + 0.05 * sin( 40 * $angle );
			$ring[] = array( 10 + $radius * cos( $angle ), 45 + $radius * sin( $angle ) );
		}
		$ring[] = $ring[0];
		$result = Geometry_Rule::check(
			array(
				'type'        => 'Polygon',
				'coordinates' => array( $ring ),
			)
		);
		$this->assertIsArray( $result );
		// Its cost as a count, not a time (a loaded machine took 3.5 s where 3 s was asserted):
		// the sweep's comparisons grow as n log n; checking every pair would be n² / 2 = 5·10⁹.
		$this->assertLessThan( self::n_log_n( $n ), Ring_Crossings::comparisons(), 'comparisons for 100,000 edges' );

		// Its top vertex pulled below its bottom: two edges cross the bottom edges, far from the start.
		$ring[25000] = array( 10.0, 43.5 );
		$crossed     = Geometry_Rule::check(
			array(
				'type'        => 'Polygon',
				'coordinates' => array( $ring ),
			)
		);
		$this->assertInstanceOf( WP_Error::class, $crossed );
		$this->assertStringContainsString( 'position 25,001', $crossed->get_error_message() );
	}

	/**
	 * A comb of 25,000 long teeth (100,000 vertices, most edges open across the sweep at once) is
	 * checked and simplified fast too: before Sweep_List and Visvalingam–Whyatt it took 65 s and
	 * 479 s (array moves of the whole open list; Douglas–Peucker's O(n²) on such shapes).
	 */
	public function test_a_comb_of_long_teeth_is_checked_and_simplified_fast(): void {
		$teeth = 24999;
		$ring  = array();
		for ( $k = 0; $k < $teeth; $k++ ) {
			$y      = $k * 0.0001;
			$ring[] = array( 0.0, $y );
			$ring[] = array( 1.0, $y );
			$ring[] = array( 1.0, $y + 0.00005 );
			$ring[] = array( 0.0001, $y + 0.00005 );
		}
		array_push( $ring, array( 0.0, $teeth * 0.0001 ), array( -0.1, $teeth * 0.0001 ), array( -0.1, 0.0 ), array( 0.0, 0.0 ) );
		$checked = Geometry_Rule::check(
			array(
				'type'        => 'Polygon',
				'coordinates' => array( $ring ),
			)
		);
		$this->assertIsArray( $checked );
		$compared = Ring_Crossings::comparisons();
		$shape    = json_decode( Shape_Store::derive( $checked ), true );
		$steps    = Line_Simplifier::steps();
		$this->assertLessThanOrEqual( 5004, count( $shape['geometry']['coordinates'][0] ) );
		$edges = count( $ring ) - 1;
		fwrite( STDERR, sprintf( "\n[geo] comb of %d vertices: %d comparisons to check, %d heap steps to simplify\n", $edges, $compared, $steps ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fwrite -- the counts, for the record.
		// Counts, not times: n log n comparisons (the open list was once moved whole: n²), and a
		// at most 6 heap steps per position (Douglas–Peucker's recursion was O(n²) on this comb).
		$this->assertLessThan( self::n_log_n( $edges ), $compared, 'comparisons to check' );
		$this->assertLessThanOrEqual( 6 * $edges, $steps, 'heap steps to simplify: each position enters once and is renewed at most twice, each entry leaves once' );

		// One tooth bent down onto the next: found.
		$ring[ 4 * 12000 + 2 ] = array( 1.0, 12000 * 0.0001 - 0.00002 );
		$bent                  = Geometry_Rule::check(
			array(
				'type'        => 'Polygon',
				'coordinates' => array( $ring ),
			)
		);
		$this->assertInstanceOf( WP_Error::class, $bent );
	}

	/**
	 * Whether any two edges cross or overlap, testing every pair (the reference for the sweep).
	 *
	 * @param array<int, array<int, array<int, float>>> $rings Rings.
	 */
	private static function every_pair( array $rings ): bool {
		$edges = array();
		foreach ( $rings as $r => $ring ) {
			$m = count( $ring ) - 1;
			for ( $i = 0; $i < $m; $i++ ) {
				$edges[] = array( $r, $i, $m, $ring[ $i ], $ring[ $i + 1 ] );
			}
		}
		$count = count( $edges );
		for ( $a = 0; $a < $count; $a++ ) {
			for ( $b = $a + 1; $b < $count; $b++ ) {
				list( $ra, $ia, $ma, $pa, $qa ) = $edges[ $a ];
				list( $rb, $ib, , $pb, $qb )    = $edges[ $b ];
				if ( $ra === $rb && ( $ib === $ia + 1 || ( 0 === $ia && $ib === $ma - 1 ) ) ) {
					// Consecutive edges: only running back over each other counts.
					list( $u, $v ) = $ib === $ia + 1 ? array( array( $pa, $qa ), array( $pb, $qb ) ) : array( array( $pb, $qb ), array( $pa, $qa ) );
					$ux            = $u[1][0] - $u[0][0];
					$uy            = $u[1][1] - $u[0][1];
					$vx            = $v[1][0] - $v[0][0];
					$vy            = $v[1][1] - $v[0][1];
					if ( 0.0 === $ux * $vy - $uy * $vx && $ux * $vx + $uy * $vy < 0 ) {
						return true;
					}
					continue;
				}
				if ( Ring_Crossings::segments_cross( array( $pa[0], $pa[1], $qa[0], $qa[1] ), array( $pb[0], $pb[1], $qb[0], $qb[1] ) ) ) {
					return true;
				}
			}
		}
		return false;
	}

	/**
	 * The bound of an O(n log n) count for n edges: 8 n log₂ n (the sweep makes about 2 to 4
	 * comparisons per edge per level of its list).
	 *
	 * @param int $n Edges.
	 */
	private static function n_log_n( int $n ): int {
		return (int) ( 8 * $n * log( $n, 2 ) );
	}
}
