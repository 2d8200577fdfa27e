<?php
/**
 * The map block's attribute schema on the server.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Blocks\Basemap;
use Cairn\Maps\Blocks\Map_Attributes;
use Cairn\Maps\Blocks\Map_Block;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Support\Map_Schema;
use Cairn\Maps\Tests\TestCase;

/**
 * The runtime's rules (map-schema.json) as Map_Attributes applies them: block.json agrees with it,
 * core understands it, and the server keeps the rules the runtime keeps.
 *
 * @since 0.4.0
 */
final class Map_SchemaTest extends TestCase {

	/**
	 * The registered block's attributes (block.json) have the schema's types and defaults, and
	 * Map_Attributes gives the schema's defaults for a block that sets nothing.
	 */
	public function test_defaults_are_the_schemas(): void {
		$registered = \WP_Block_Type_Registry::get_instance()->get_registered( 'cairn/map' )->attributes;
		$rules      = Map_Schema::attributes();
		foreach ( $rules as $name => $rule ) {
			$this->assertArrayHasKey( $name, $registered, $name );
			$this->assertSame( $rule['type'], $registered[ $name ]['type'], $name );
		}
		$this->assertSame( Map_Schema::defaults(), array_intersect_key( Map_Block::defaults(), Map_Schema::defaults() ) );

		// With a token the site's automatic basemap is block.json's style (without one, OpenFreeMap).
		update_option( Settings::TOKEN_OPTION, Map_BlockTest::public_token() );
		$parsed = Map_Attributes::parse( array(), Map_Block::defaults() );
		$this->assertSame( '', $parsed['error'] );
		// The schema's defaults as JSON has them (`terms` an object).
		$schema = json_decode( (string) file_get_contents( CAIRN_MAPS_DIR . 'build/map-schema.json' ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents
		unset( $schema->{'$comment'} );
		$this->assertEquals( self::json( array_map( static fn( $rule ) => $rule->default, (array) $schema ) ), self::json( Map_Attributes::attributes( $parsed['config'] ) ) );
	}

	/**
	 * A value as JSON has it (`{}` and `[]` told apart, numbers compared as numbers).
	 *
	 * @param mixed $value A value.
	 * @return mixed
	 */
	private static function json( $value ) {
		return json_decode( (string) wp_json_encode( $value ) );
	}

	/**
	 * The switches are read from the schema, in its order (the order the settings screen and its
	 * error message list them).
	 */
	public function test_switch_names_are_the_schemas(): void {
		$this->assertSame( array( 'zoom', 'compass', 'scale', 'fullscreen', 'geolocate' ), Map_Schema::property_names( 'controls' ) );
		$this->assertSame( array( 'search', 'groupFilter', 'followMap' ), Map_Schema::property_names( 'places' ) );
		$this->assertSame( array(), Map_Schema::property_names( 'zoom' ) );
	}

	/**
	 * Core's REST schema functions understand every rule (limits filled in), and take every
	 * default.
	 */
	public function test_core_understands_the_rules(): void {
		foreach ( Map_Schema::attributes() as $name => $rule ) {
			$this->assertTrue( rest_validate_value_from_schema( $rule['default'], $rule, $name ), $name );
		}
		$this->assertSame( 22, Map_Schema::rule( 'zoom' )['maximum'] );
		$this->assertInstanceOf( \WP_Error::class, rest_validate_value_from_schema( 61, Map_Schema::rule( 'pitch' ), 'pitch' ) );
	}

	/**
	 * Values the runtime refuses, and the server now refuses too: `$` in a rule is the end of the
	 * string (the server took a newline before it), and a style URL has no white space at all.
	 *
	 * @return array<string, array{0: array<string, mixed>, 1: string, 2: mixed}>
	 */
	public static function runtime_rules(): array {
		return array(
			'height with a newline'  => array( array( 'height' => "480px\n" ), 'height', '480px' ),
			'group with a newline'   => array(
				array(
					'markers' => array(
						'source' => 'groups',
						'groups' => array( "huts\n", 'peaks' ),
						'ids'    => array(),
					),
				),
				'markers',
				array(
					'source' => 'groups',
					'groups' => array( 'peaks' ),
					'ids'    => array(),
				),
			),
			// A refused style draws the site's basemap: OpenFreeMap without a token (since 0.7.0).
			'style with a form feed' => array( array( 'mapStyle' => "https://api.mapbox.com/styles/v1/a/b\f" ), 'style', Basemap::OPENFREEMAP_LIBERTY ),
		);
	}

	/**
	 * The server keeps the runtime's rule.
	 *
	 * @dataProvider runtime_rules
	 *
	 * @param array<string, mixed> $attributes Stored attributes.
	 * @param string               $key        The config key.
	 * @param mixed                $expected   What the config holds.
	 */
	public function test_server_keeps_the_runtimes_rule( array $attributes, string $key, $expected ): void {
		$this->assertSame( $expected, Map_Attributes::parse( $attributes, Map_Block::defaults() )['config'][ $key ] );
	}
}
