<?php
/**
 * OGC validity of areas: turf's and JTS's verdicts, the messages, the budget of comparisons.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Markers;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Geometry_Rule;
use Cairn\Maps\Markers\Ring_Crossings;
use Cairn\Maps\Markers\Shape_Store;
use Cairn\Maps\Tests\TestCase;
use WP_Error;

require_once __DIR__ . '/Validity_Reference.php';

/**
 * What OGC Simple Features calls valid is accepted, what it calls invalid is refused with a message
 * naming the part, and 100,000 vertices cost O(n log n) comparisons.
 *
 * @since 0.7.0
 */
final class Ring_CrossingsTest extends TestCase {

	/**
	 * The upstream cases (tests/fixtures/validity/cases.php, see its README).
	 *
	 * @return array{cases: array<string, array{0: array<string, mixed>, 1: bool, 2: string}>, skipped: array<string, string>}
	 */
	private static function fixtures(): array {
		return require dirname( __DIR__, 2 ) . '/fixtures/validity/cases.php';
	}

	/**
	 * Turf's boolean-valid fixtures and JTS's TestValid.xml cases.
	 *
	 * @return array<string, array{0: array<string, mixed>, 1: bool}>
	 */
	public function upstream_cases(): array {
		$out = array();
		foreach ( self::fixtures()['cases'] as $name => list( $geometry, $valid ) ) {
			$out[ $name ] = array( $geometry, $valid );
		}
		return $out;
	}

	/**
	 * Our verdict is theirs, case by case.
	 *
	 * @dataProvider upstream_cases
	 *
	 * @param array<string, mixed> $geometry The geometry.
	 * @param bool                 $valid    Their verdict.
	 */
	public function test_the_verdict_is_turfs_and_jtss( array $geometry, bool $valid ): void {
		$result = Geometry_Rule::check( $geometry );
		$this->assertSame( $valid, is_array( $result ), $result instanceof WP_Error ? $result->get_error_message() : 'accepted' );
	}

	/**
	 * All applicable cases are kept (8 + 8 turf, 70 JTS), and each one left out says why.
	 */
	public function test_the_fixture_keeps_every_applicable_case(): void {
		$fixtures = self::fixtures();
		$this->assertCount( 86, $fixtures['cases'] );
		$this->assertCount( 16, array_filter( array_keys( $fixtures['cases'] ), static fn( string $name ): bool => str_starts_with( $name, 'turf ' ) ) );
		$this->assertCount( 10, $fixtures['skipped'] );
		foreach ( $fixtures['skipped'] as $name => $why ) {
			$this->assertMatchesRegularExpression( '/EMPTY|NaN|LinearRing/', $why, $name );
		}
	}

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
	 * Areas that OGC calls valid though the rule refused them before: rings touching at a point.
	 */
	public function test_rings_may_touch_at_one_point(): void {
		$valid = array(
			'a hole touching its shell at a corner' => array( 'Polygon', array( self::square( 0, 0, 4 ), array( array( 0, 0 ), array( 2, 1 ), array( 1, 2 ), array( 0, 0 ) ) ) ),
			'a hole touching its shell on an edge'  => array( 'Polygon', array( self::square( 0, 0, 4 ), array( array( 2, 0 ), array( 3, 1 ), array( 1, 1 ), array( 2, 0 ) ) ) ),
			'two holes touching each other'         => array( 'Polygon', array( self::square( 0, 0, 4 ), self::square( 1, 1, 1 ), self::square( 2, 2, 1 ) ) ),
			'polygons touching at a corner'         => array( 'MultiPolygon', array( array( self::square( 0, 0, 1 ) ), array( self::square( 1, 1, 1 ) ) ) ),
			'a polygon in another\'s hole'          => array( 'MultiPolygon', array( array( self::square( 0, 0, 6 ), self::square( 1, 1, 4 ) ), array( self::square( 2, 2, 1 ) ) ) ),
		);
		foreach ( $valid as $what => list( $type, $coordinates ) ) {
			$result = Geometry_Rule::check(
				array(
					'type'        => $type,
					'coordinates' => $coordinates,
				)
			);
			$this->assertIsArray( $result, $what . ': ' . ( $result instanceof WP_Error ? $result->get_error_message() : '' ) );
		}
	}

	/**
	 * Invalid areas the rule accepted before, each refused with a message naming the part.
	 */
	public function test_each_fault_names_its_part(): void {
		$invalid = array(
			'Ring 3 is a hole outside its outer ring, ring 1' => array( 'Polygon', array( self::square( 0, 0, 4 ), self::square( 1, 1, 1 ), self::square( 5, 5, 1 ) ) ),
			'Ring 3 is a hole inside another hole, ring 2' => array( 'Polygon', array( self::square( 0, 0, 6 ), self::square( 1, 1, 4 ), self::square( 2, 2, 1 ) ) ),
			'Polygon 2 lies inside polygon 1'              => array( 'MultiPolygon', array( array( self::square( 0, 0, 6 ) ), array( self::square( 2, 2, 1 ) ) ) ),
			'Ring 1 of polygon 1 crosses or touches itself or another ring (the edge from position 3 to position 4 of ring 1 of polygon 1 meets the edge from position 4 to position 5 of ring 1 of polygon 2)' => array( 'MultiPolygon', array( array( self::square( 0, 0, 2 ) ), array( self::square( 1, 1, 2 ) ) ) ),
			'Ring 1 touches itself at position 4'          => array( 'Polygon', array( array( array( 0, 0 ), array( 4, 0 ), array( 4, 4 ), array( 2, 0 ), array( 0, 4 ), array( 0, 0 ) ) ) ),
			'The area is cut in pieces: Ring 1 touches the other rings at [4, 2] and at another point' => array( 'Polygon', array( self::square( 0, 0, 4 ), array( array( 0, 2 ), array( 2, 1 ), array( 4, 2 ), array( 2, 3 ), array( 0, 2 ) ) ) ),
			'Ring 2 of polygon 1 crosses ring 1 of polygon 2 at [1, 1]' => array( 'MultiPolygon', array( array( self::square( 0, 0, 4 ), array( array( 1, 1 ), array( 3, 1 ), array( 2, 3 ), array( 1, 1 ) ) ), array( array( array( 1, 1 ), array( 2, 1.5 ), array( 3, 1 ), array( 2, 0.5 ), array( 1, 1 ) ) ) ) ),
		);
		foreach ( $invalid as $message => list( $type, $coordinates ) ) {
			$result = Geometry_Rule::check(
				array(
					'type'        => $type,
					'coordinates' => $coordinates,
				)
			);
			$this->assertInstanceOf( WP_Error::class, $result, $message );
			$this->assertSame( array( 'status' => 400 ), $result->get_error_data() );
			$this->assertStringContainsString( $message, $result->get_error_message() );
		}
	}

	/**
	 * Through the REST API as an editor saves a shape: a parcel whose courtyard (a hole) touches
	 * its boundary at one corner is saved and its simplified copy is stored; a parcel with a hole
	 * beside it is refused with the hole named, and no marker is created.
	 */
	public function test_an_editor_saves_a_touching_hole_and_not_a_hole_outside(): void {
		$this->act_as( 'editor' );
		$parcel   = array( array( 7.0, 46.0 ), array( 7.001, 46.0 ), array( 7.001, 46.001 ), array( 7.0, 46.001 ), array( 7.0, 46.0 ) );
		$touching = array( array( 7.0, 46.0 ), array( 7.0005, 46.0002 ), array( 7.0002, 46.0005 ), array( 7.0, 46.0 ) );
		$response = $this->rest(
			'POST',
			'/wp/v2/cairn-markers',
			array(
				'title'  => 'Parcel 12',
				'status' => 'publish',
				'meta'   => array(
					'cairn_geometry' => array(
						'type'        => 'Polygon',
						'coordinates' => array( $parcel, $touching ),
					),
				),
			)
		);
		$this->assertSame( 201, $response->get_status(), (string) wp_json_encode( $response->get_data() ) );
		$shape = Shape_Store::shape( (int) $response->get_data()['id'] );
		$this->assertIsArray( $shape );
		$this->assertCount( 2, $shape['geometry']['coordinates'], 'the map draws the courtyard' );

		$count    = $this->count_markers();
		$response = $this->rest(
			'POST',
			'/wp/v2/cairn-markers',
			array(
				'title'  => 'Parcel 13',
				'status' => 'publish',
				'meta'   => array(
					'cairn_geometry' => array(
						'type'        => 'Polygon',
						'coordinates' => array( $parcel, array( array( 7.002, 46.0 ), array( 7.003, 46.0 ), array( 7.003, 46.001 ), array( 7.002, 46.0 ) ) ),
					),
				),
			)
		);
		$this->assertSame( 400, $response->get_status() );
		$this->assertStringContainsString( 'Ring 2 is a hole outside its outer ring, ring 1', (string) wp_json_encode( $response->get_data() ) );
		$this->assertSame( $count, $this->count_markers(), 'nothing saved' );
	}

	/**
	 * A closed random ring on a small grid, or null when too few corners are left.
	 *
	 * @param int $corners Corners to draw.
	 * @param int $x       West of the grid.
	 * @param int $y       South of the grid.
	 * @param int $size    Grid size.
	 * @return array<int, array<int, float>>|null
	 */
	private static function random_ring( int $corners, int $x, int $y, int $size ): ?array {
		$ring = array();
		for ( $i = 0; $i < $corners; $i++ ) {
			$p = array( (float) ( $x + mt_rand( 0, $size ) ), (float) ( $y + mt_rand( 0, $size ) ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_mt_rand -- seeded, the same shapes every run.
			if ( array() === $ring || end( $ring ) !== $p ) {
				$ring[] = $p;
			}
		}
		if ( count( $ring ) < 3 || end( $ring ) === $ring[0] ) {
			return null;
		}
		$ring[] = $ring[0];
		return $ring;
	}

	/**
	 * The sweep's verdict equals a slow reading of the rules (every pair of edges and rings) on
	 * random areas full of touches, shared corners, collinear and vertical edges.
	 */
	public function test_the_sweep_agrees_with_the_slow_reading(): void {
		mt_srand( 32 ); // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_seeding_mt_srand -- the same shapes every run.
		$valid  = 0;
		$rounds = 0;
		while ( $rounds < 4000 ) {
			$polygons = array();
			$count    = mt_rand( 1, 2 ); // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_mt_rand -- seeded.
			for ( $p = 0; $p < $count; $p++ ) {
				$shell = 0 === $p && mt_rand( 0, 3 ) > 0 ? self::square( 0, 0, 8 ) : self::random_ring( mt_rand( 3, 7 ), 0, 0, 8 ); // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_mt_rand -- seeded.
				if ( null === $shell ) {
					continue 2;
				}
				$polygon = array( $shell );
				$holes   = mt_rand( 0, 3 ); // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_mt_rand -- seeded.
				for ( $h = 0; $h < $holes; $h++ ) {
					$hole = self::random_ring( mt_rand( 3, 5 ), mt_rand( 0, 6 ), mt_rand( 0, 6 ), 2 ); // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_mt_rand -- seeded.
					if ( null === $hole ) {
						continue 3;
					}
					$polygon[] = $hole;
				}
				$polygons[] = $polygon;
			}
			++$rounds;
			$expected = Validity_Reference::valid( $polygons );
			$fault    = Ring_Crossings::fault( $polygons );
			$this->assertSame( $expected, null === $fault, (string) wp_json_encode( $polygons ) );
			$valid += $expected ? 1 : 0;
		}
		$this->assertGreaterThan( 400, $valid, 'enough random areas are valid' );
	}

	/**
	 * A star-like ring of n vertices with a wiggle.
	 *
	 * @param int $n Vertices.
	 * @return array<int, array<int, float>>
	 */
	private static function star( int $n ): array {
		$ring = array();
		for ( $i = 0; $i < $n; $i++ ) {
			$angle  = 2 * M_PI * $i / $n;
			$radius = 1 + 0.05 * sin( 40 * $angle );
			$ring[] = array( round( 10 + $radius * cos( $angle ), 7 ), round( 45 + $radius * sin( $angle ), 7 ) );
		}
		$ring[] = $ring[0];
		return $ring;
	}

	/**
	 * A comb of long teeth: most edges open across the sweep at once.
	 *
	 * @param int $teeth Teeth (4 vertices each).
	 * @return array<int, array<int, float>>
	 */
	private static function comb( int $teeth ): array {
		$ring = array();
		for ( $k = 0; $k < $teeth; $k++ ) {
			$y = round( $k * 0.0001, 7 );
			array_push( $ring, array( 0.0, $y ), array( 1.0, $y ), array( 1.0, round( $y + 0.00005, 7 ) ), array( 0.0001, round( $y + 0.00005, 7 ) ) );
		}
		array_push( $ring, array( 0.0, round( $teeth * 0.0001, 7 ) ), array( -0.1, round( $teeth * 0.0001, 7 ) ), array( -0.1, 0.0 ), array( 0.0, 0.0 ) );
		return $ring;
	}

	/**
	 * A shell with a row of 999 holes, each touching the shell's south edge at one point, with a
	 * zigzag north side: n vertices in all.
	 *
	 * @param int $n Vertices (about).
	 * @return array<int, array<int, array<int, float>>>
	 */
	private static function touching_holes( int $n ): array {
		$holes = 999;
		$rings = array( array( array( 0.0, 0.0 ), array( $holes + 1.0, 0.0 ), array( $holes + 1.0, 2.0 ), array( 0.0, 2.0 ), array( 0.0, 0.0 ) ) );
		$zig   = max( 2, intdiv( $n, $holes ) - 2 );
		for ( $h = 0; $h < $holes; $h++ ) {
			$ring = array( array( (float) $h, 0.0 ) );
			for ( $i = 0; $i < $zig; $i++ ) {
				$ring[] = array( round( $h + 1.0 - 0.8 * $i / ( $zig - 1 ), 7 ), 1.0 + ( $i % 2 ) * 0.01 );
			}
			$ring[]  = array( (float) $h, 0.0 );
			$rings[] = $ring;
		}
		return $rings;
	}

	/**
	 * The comparisons and segment tests for one area.
	 *
	 * @param array<int, array<int, array<int, array<int, float>>>> $polygons Polygons.
	 * @return array{0: int, 1: array{0: string, 1: array<int, mixed>}|null}
	 */
	private static function tests_for( array $polygons ): array {
		$fault = Ring_Crossings::fault( $polygons );
		return array( Ring_Crossings::comparisons(), $fault );
	}

	/**
	 * 100,000 vertices are checked in O(n log n): at most 6 n log2 n comparisons whatever the
	 * shape, and 4 times the vertices cost about 4 times the comparisons (a quadratic check
	 * would cost 16 times).
	 */
	public function test_100000_vertices_cost_n_log_n_comparisons(): void {
		$shapes = array(
			'star'           => static fn( int $n ): array => array( array( self::star( $n ) ) ),
			'comb'           => static fn( int $n ): array => array( array( self::comb( intdiv( $n, 4 ) - 1 ) ) ),
			'touching holes' => static fn( int $n ): array => array( self::touching_holes( $n ) ),
		);
		foreach ( $shapes as $name => $shape ) {
			list( $small, $fault ) = self::tests_for( $shape( 25000 ) );
			$this->assertNull( $fault, $name );
			list( $big, $fault ) = self::tests_for( $shape( 100000 ) );
			$this->assertNull( $fault, $name );
			$this->assertLessThan( 6 * 100000 * log( 100000, 2 ), $big, "{$name}: comparisons for 100,000 vertices" );
			$this->assertLessThan( 5.0, $big / $small, "{$name}: 4 times the vertices" );
			fwrite( STDERR, sprintf( "\n[geo] %s: %s comparisons for 100,000 vertices (n log2 n = %s), %.2f times those for 25,000\n", $name, number_format( $big ), number_format( (int) ( 100000 * log( 100000, 2 ) ) ), $big / $small ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fwrite -- the measurement, for the record.
		}

		// Still found far from the start: the star's top vertex pulled below its bottom.
		$ring            = self::star( 99999 );
		$ring[25000]     = array( 10.0, 43.5 );
		list( , $fault ) = self::tests_for( array( array( $ring ) ) );
		$this->assertSame( 'cross', $fault[0] ?? null );
	}
}
