<?php
/**
 * The demo site's routes and areas, stored as bin/seed.mjs stores them.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Groups;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Markers\Shape_Store;
use Cairn\Maps\Tests\TestCase;

/**
 * The file bin/demo-shapes.json through the same REST writes as the seed: the group with its line looks,
 * then each shape as a marker with `meta.cairn_geometry`. The site accepts every one, sets the
 * anchor, and measures the trails as a hiker would expect.
 *
 * @since 0.5.0
 */
final class Demo_ShapesTest extends TestCase {

	/**
	 * The demo file.
	 *
	 * @return array{group: array{slug: string, name: string, description: string, meta: array<string, mixed>}, shapes: array<int, array{title: string, place: string, text: string, geometry: array<string, mixed>}>}
	 */
	private static function demo(): array {
		$file = dirname( __DIR__, 3 ) . '/bin/demo-shapes.json';
		$demo = json_decode( (string) file_get_contents( $file ), true ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a local file of the repository.
		self::assertIsArray( $demo );
		return $demo;
	}

	/**
	 * The seed's writes succeed, and the trails carry their length, ascent and profile.
	 */
	public function test_the_demo_shapes_are_stored_and_measured(): void {
		$this->act_as( 'administrator' );
		$demo  = self::demo();
		$group = $this->rest(
			'POST',
			'/wp/v2/cairn-marker-groups',
			array(
				'name'        => $demo['group']['name'],
				'slug'        => $demo['group']['slug'],
				'description' => $demo['group']['description'],
				'meta'        => $demo['group']['meta'],
			)
		);
		$this->assertSame( 201, $group->get_status(), (string) wp_json_encode( $group->get_data() ) );
		$this->assertSame( $demo['group']['meta']['cairn_line_width'], $group->get_data()['meta']['cairn_line_width'] );

		// Ascent expected of each trail (metres, from the heights along the real paths).
		$expected = array(
			'Zermatt to the Hörnli Hut'   => array( 1500, 1800 ),
			'Ben Nevis Mountain Track'    => array( 1250, 1450 ),
			'Llanberis Path to Yr Wyddfa' => array( 900, 1100 ),
		);
		foreach ( $demo['shapes'] as $shape ) {
			$response = $this->rest(
				'POST',
				'/wp/v2/cairn-markers',
				array(
					'title'               => $shape['title'],
					'status'              => 'publish',
					'meta'                => array( 'cairn_geometry' => $shape['geometry'] ),
					'cairn-marker-groups' => array( (int) $group->get_data()['id'] ),
				)
			);
			$this->assertSame( 201, $response->get_status(), $shape['title'] . ': ' . wp_json_encode( $response->get_data() ) );
			$id     = (int) $response->get_data()['id'];
			$stored = Shape_Store::shape( $id );
			$this->assertIsArray( $stored, $shape['title'] );
			$lat = (float) get_post_meta( $id, Post_Type::META_LAT, true );
			$lng = (float) get_post_meta( $id, Post_Type::META_LNG, true );
			if ( 'LineString' === $shape['geometry']['type'] ) {
				$this->assertEqualsWithDelta( $shape['geometry']['coordinates'][0][1], $lat, 1e-6, 'a route is anchored at its start' );
				$this->assertEqualsWithDelta( $shape['geometry']['coordinates'][0][0], $lng, 1e-6 );
				$this->assertGreaterThan( 5000, $stored['length_m'] );
				$this->assertLessThan( 12000, $stored['length_m'] );
				$this->assertGreaterThan( $expected[ $shape['title'] ][0], $stored['ascent_m'], $shape['title'] );
				$this->assertLessThan( $expected[ $shape['title'] ][1], $stored['ascent_m'], $shape['title'] );
				$this->assertLessThan( 20, $stored['descent_m'], $shape['title'] . ' climbs all the way' );
				$this->assertIsArray( $stored['profile'] );
				$this->assertGreaterThan( 50, count( $stored['profile'] ) );
			} else {
				// The park: anchored inside its bounds, no length or climb.
				$bbox = $stored['bbox'];
				$this->assertGreaterThan( $bbox[1], $lat );
				$this->assertLessThan( $bbox[3], $lat );
				$this->assertGreaterThan( $bbox[0], $lng );
				$this->assertLessThan( $bbox[2], $lng );
				$this->assertNull( $stored['length_m'] );
				$this->assertNull( $stored['profile'] );
			}
			unset( $expected[ $shape['title'] ] );
		}
		$this->assertSame( array(), $expected, 'every trail was seen' );
	}
}
