<?php
/**
 * Validation of stored block attributes.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Blocks\Basemap;
use Cairn\Maps\Blocks\Map_Attributes;
use Cairn\Maps\Support\Limits;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Tests\TestCase;

/**
 * Attributes anyone with the code editor can write become a clean configuration.
 *
 * @since 0.1.0
 */
final class Map_AttributesTest extends TestCase {

	/**
	 * The block.json defaults, as registered.
	 *
	 * @return array<string, mixed>
	 */
	private function defaults(): array {
		$defaults = array();
		foreach ( \WP_Block_Type_Registry::get_instance()->get_registered( 'cairn/map' )->attributes as $name => $schema ) {
			$defaults[ $name ] = $schema['default'] ?? null;
		}
		return $defaults;
	}

	/**
	 * Defaults pass unchanged; block.json's style means the site's basemap (OpenFreeMap Liberty
	 * on a site without a token, since 0.7.0).
	 */
	public function test_defaults_pass_unchanged(): void {
		$parsed = Map_Attributes::parse( array(), $this->defaults() );
		$this->assertSame( '', $parsed['error'] );
		$this->assertSame( Basemap::OPENFREEMAP_LIBERTY, $parsed['config']['style'] );
		$this->assertEquals(
			array(
				'lng' => 0,
				'lat' => 20,
			),
			$parsed['config']['center']
		);
		$this->assertEquals( 2, $parsed['config']['zoom'] );
		$this->assertSame( '480px', $parsed['config']['height'] );
	}

	/**
	 * Bad values, the config key they land in, and what must come out (the default).
	 *
	 * @return array<string, array{0: array<string, mixed>, 1: string, 2: mixed}>
	 */
	public function bad_values(): array {
		return array(
			'longitude out of range'     => array(
				array(
					'center' => array(
						'lng' => 181,
						'lat' => 10,
					),
				),
				'center',
				array(
					'lng' => 0.0,
					'lat' => 10.0,
				),
			),
			'latitude beyond mercator'   => array(
				array(
					'center' => array(
						'lng' => 5,
						'lat' => 86,
					),
				),
				'center',
				array(
					'lng' => 5.0,
					'lat' => 20.0,
				),
			),
			'center not an object'       => array(
				array( 'center' => 'x' ),
				'center',
				array(
					'lng' => 0.0,
					'lat' => 20.0,
				),
			),
			'zoom as a string'           => array( array( 'zoom' => '5' ), 'zoom', 2.0 ),
			'zoom above 22'              => array( array( 'zoom' => 23 ), 'zoom', 2.0 ),
			'bearing out of range'       => array( array( 'bearing' => 190 ), 'bearing', 0.0 ),
			'pitch above 60'             => array( array( 'pitch' => 61 ), 'pitch', 0.0 ),
			'negative pitch'             => array( array( 'pitch' => -1 ), 'pitch', 0.0 ),
			'javascript style URL'       => array( array( 'mapStyle' => 'javascript:alert(1)' ), 'style', Basemap::OPENFREEMAP_LIBERTY ),
			'plain http style URL'       => array( array( 'mapStyle' => 'http://example.com/style.json' ), 'style', Basemap::OPENFREEMAP_LIBERTY ),
			'mapbox style without owner' => array( array( 'mapStyle' => 'mapbox://styles/standard' ), 'style', Basemap::OPENFREEMAP_LIBERTY ),
			'mapbox style path climbing' => array( array( 'mapStyle' => 'mapbox://styles/../x' ), 'style', Basemap::OPENFREEMAP_LIBERTY ),
			'https style with a quote'   => array( array( 'mapStyle' => 'https://example.com/"onload=x' ), 'style', Basemap::OPENFREEMAP_LIBERTY ),
			'https style on any host'    => array( array( 'mapStyle' => 'https://tiles.example.com/style.json' ), 'style', Basemap::OPENFREEMAP_LIBERTY ),
			'host made to look mapbox'   => array( array( 'mapStyle' => 'https://api.mapbox.com.evil.example/style.json' ), 'style', Basemap::OPENFREEMAP_LIBERTY ),
			'mapbox host as user name'   => array( array( 'mapStyle' => 'https://api.mapbox.com@evil.example/style.json' ), 'style', Basemap::OPENFREEMAP_LIBERTY ),
			'mapbox host, another port'  => array( array( 'mapStyle' => 'https://api.mapbox.com:8443/styles/v1/a/b' ), 'style', Basemap::OPENFREEMAP_LIBERTY ),
			'mapbox style and a newline' => array( array( 'mapStyle' => "mapbox://styles/mapbox/dark-v11\n" ), 'style', Basemap::OPENFREEMAP_LIBERTY ),
			'language with markup'       => array( array( 'language' => 'en"><script>' ), 'language', 'auto' ),
			'CSS injection in height'    => array( array( 'height' => '100px;background:url(x)' ), 'height', '480px' ),
			'percent height'             => array( array( 'height' => '50%' ), 'height', '480px' ),
			'controls not booleans'      => array(
				array(
					'controls' => array(
						'zoom'  => 'yes',
						'scale' => 1,
					),
				),
				'controls',
				array(
					'zoom'       => true,
					'compass'    => true,
					'scale'      => false,
					'fullscreen' => true,
					'geolocate'  => false,
				),
			),
			'cluster radius too big'     => array(
				array(
					'cluster' => array(
						'enabled' => 'no',
						'radius'  => 5000,
					),
				),
				'cluster',
				array(
					'enabled' => true,
					'radius'  => 80.0,
				),
			),
			'language with a newline'    => array( array( 'language' => "en\n" ), 'language', 'auto' ),
			'places not booleans'        => array(
				array(
					'places' => array(
						'search'    => 'no',
						'followMap' => false,
						'sql'       => true,
					),
				),
				'places',
				array(
					'search'      => true,
					'groupFilter' => true,
					'followMap'   => false,
				),
			),
			'places not an object'       => array(
				array( 'places' => 'off' ),
				'places',
				array(
					'search'      => true,
					'groupFilter' => true,
					'followMap'   => true,
				),
			),
			'languages not a list'       => array( array( 'languages' => 'en,fr' ), 'languages', array() ),
			'languages keyed'            => array( array( 'languages' => array( 'a' => 'en' ) ), 'languages', array() ),
			'languages with bad tags'    => array(
				array( 'languages' => array( 'fr', 'auto', 'en"><script>', "de\n", 7, null, array( 'en' ), 'zh-Hant', 'fr', 'EN' ) ),
				'languages',
				array( 'fr', 'zh-Hant' ),
			),
			'hash as a string'           => array( array( 'hash' => 'true' ), 'hash', false ),
			'cooperative gestures int'   => array( array( 'cooperativeGestures' => 0 ), 'cooperativeGestures', true ),
			'unknown marker source'      => array(
				array(
					'markers' => array(
						'source' => 'sql',
						'groups' => array( 'ok-slug', 'Bad Slug', '<b>' ),
						'ids'    => array( 3, -1, '4', 0 ),
					),
				),
				'markers',
				array(
					'source' => 'all',
					'groups' => array( 'ok-slug' ),
					'ids'    => array( 3 ),
				),
			),
		);
	}

	/**
	 * Each bad value falls back to its block.json default.
	 *
	 * @dataProvider bad_values
	 *
	 * @param array<string, mixed> $attributes Stored attributes.
	 * @param string               $key        Config key.
	 * @param mixed                $expected   Expected value.
	 */
	public function test_bad_values_fall_back_to_the_default( array $attributes, string $key, $expected ): void {
		$parsed = Map_Attributes::parse( $attributes, $this->defaults() );
		$this->assertSame( $expected, $parsed['config'][ $key ] );
		$this->assertSame( '', $parsed['error'] );
	}

	/**
	 * Every value parse() replaces, refused() names (the shortcode reports it): the same rules.
	 *
	 * @dataProvider bad_values
	 *
	 * @param array<string, mixed> $attributes Stored attributes.
	 */
	public function test_what_parse_replaces_refused_names( array $attributes ): void {
		$this->assertNotSame( array(), Map_Attributes::refused( $attributes, $this->defaults() ) );
	}

	/**
	 * Map_Attributes::refused() names the property at fault; valid values, block.json's own style, a zoom outside
	 * minZoom…maxZoom (brought inside) and lists in another order are not refused.
	 */
	public function test_refused_names_the_property_at_fault(): void {
		$defaults = $this->defaults();
		$this->assertSame(
			array( 'center.lat', 'markers.ids', 'content.postTypes', 'controls.bogus' ),
			Map_Attributes::refused(
				array(
					'center'   => array(
						'lng' => 2.35,
						'lat' => 91,
					),
					'markers'  => array(
						'source' => 'ids',
						'groups' => array(),
						'ids'    => array( 4, 'x' ),
					),
					'content'  => array(
						'postTypes' => array( 'post', 'page' ),
						'terms'     => array(),
						'current'   => false,
					),
					'controls' => array(
						'zoom'  => true,
						'bogus' => true,
					),
				),
				$defaults
			)
		);
		$this->assertSame(
			array(),
			Map_Attributes::refused(
				array(
					'zoom'      => 2,
					'minZoom'   => 4,
					'mapStyle'  => $defaults['mapStyle'],
					'languages' => array( 'fr', 'de' ),
					'content'   => array(
						'postTypes' => array( 'post' ),
						'terms'     => array( 'category' => array( 'walks', 'food' ) ),
						'current'   => true,
					),
				),
				$defaults
			)
		);
	}

	/**
	 * Min zoom above max zoom is the zoom range error.
	 */
	public function test_min_zoom_above_max_zoom_is_the_zoom_range_error(): void {
		$parsed = Map_Attributes::parse(
			array(
				'minZoom' => 10,
				'maxZoom' => 3,
			),
			$this->defaults()
		);
		$this->assertSame( 'zoom-range', $parsed['error'] );
	}

	/**
	 * Zoom is kept inside the zoom range.
	 */
	public function test_zoom_is_kept_inside_the_zoom_range(): void {
		$parsed = Map_Attributes::parse(
			array(
				'minZoom' => 4,
				'maxZoom' => 8,
				'zoom'    => 2,
			),
			$this->defaults()
		);
		$this->assertSame( '', $parsed['error'] );
		$this->assertSame( 4.0, $parsed['config']['zoom'] );
	}

	/**
	 * Valid values are kept.
	 */
	public function test_valid_values_are_kept(): void {
		$parsed = Map_Attributes::parse(
			array(
				'center'    => array(
					'lng' => -122.4,
					'lat' => 37.8,
				),
				'bearing'   => -45,
				'pitch'     => 60,
				'mapStyle'  => 'mapbox://styles/cairn-maps/outdoors-v1',
				'language'  => 'zh-Hant',
				'height'    => '60vh',
				'hash'      => true,
				'places'    => array(
					'search'      => false,
					'groupFilter' => true,
					'followMap'   => false,
				),
				'languages' => array( 'en', 'fr', 'zh-Hans' ),
			),
			$this->defaults()
		);
		$config = $parsed['config'];
		$this->assertSame( -122.4, $config['center']['lng'] );
		$this->assertSame( -45.0, $config['bearing'] );
		$this->assertSame( 60.0, $config['pitch'] );
		$this->assertSame( 'mapbox://styles/cairn-maps/outdoors-v1', $config['style'] );
		$this->assertSame( 'zh-Hant', $config['language'] );
		$this->assertSame( '60vh', $config['height'] );
		$this->assertTrue( $config['hash'] );
		$this->assertSame(
			array(
				'search'      => false,
				'groupFilter' => true,
				'followMap'   => false,
			),
			$config['places']
		);
		$this->assertSame( array( 'en', 'fr', 'zh-Hans' ), $config['languages'] );
		$many = Map_Attributes::parse( array( 'languages' => array_map( static fn( $i ) => 'x' . chr( 97 + intdiv( $i, 26 ) ) . chr( 97 + $i % 26 ), range( 0, 99 ) ) ), $this->defaults() );
		$this->assertCount( Limits::get( 'languages.maxItems' ), $many['config']['languages'], 'the list of languages is bounded' );
		$https = Map_Attributes::parse( array( 'mapStyle' => 'https://API.mapbox.com/styles/v1/cairn/abc?fresh=true' ), $this->defaults() );
		$this->assertSame( 'https://API.mapbox.com/styles/v1/cairn/abc?fresh=true', $https['config']['style'], 'An https style on Mapbox is kept without a DNS lookup.' );
	}

	/**
	 * An https style on another host than Mapbox or OpenFreeMap is kept only when the site owner
	 * allows the host (filter `cairn_maps_style_hosts`), or chose a basemap on it; a refused style
	 * draws the site's basemap.
	 */
	public function test_other_style_hosts_need_the_site_owners_consent(): void {
		$style = array( 'mapStyle' => 'https://tiles.example.org/styles/basic.json' );
		$this->assertSame( Basemap::OPENFREEMAP_LIBERTY, Map_Attributes::parse( $style, $this->defaults() )['config']['style'] );
		$bright = array( 'mapStyle' => 'https://tiles.openfreemap.org/styles/bright' );
		$this->assertSame( $bright['mapStyle'], Map_Attributes::parse( $bright, $this->defaults() )['config']['style'], 'OpenFreeMap needs no filter' );

		$allow = static fn( array $hosts ): array => array_merge( $hosts, array( 'Tiles.Example.org', 42, 'bad host' ) );
		add_filter( 'cairn_maps_style_hosts', $allow );
		$this->assertSame( array( 'api.mapbox.com', 'tiles.openfreemap.org', 'tiles.example.org' ), Map_Attributes::style_hosts() );
		$this->assertSame( $style['mapStyle'], Map_Attributes::parse( $style, $this->defaults() )['config']['style'] );
		remove_filter( 'cairn_maps_style_hosts', $allow );

		update_option( Settings::BASEMAP_OPTION, 'https://tiles.example.org/styles/other.json' );
		$this->assertSame( $style['mapStyle'], Map_Attributes::parse( $style, $this->defaults() )['config']['style'], 'the host of the owner\'s basemap' );
		$this->assertSame( 'https://tiles.example.org/styles/other.json', Map_Attributes::parse( array( 'mapStyle' => 'https://elsewhere.example/x.json' ), $this->defaults() )['config']['style'], 'refused: the site\'s basemap' );
		$this->assertSame( 'https://tiles.example.org/styles/other.json', Map_Attributes::parse( array(), $this->defaults() )['config']['style'], 'the default: the site\'s basemap' );
	}

	/**
	 * A block may name a self-hosted archive on this site; one elsewhere draws the site's basemap.
	 */
	public function test_a_block_may_name_an_archive_on_this_site_only(): void {
		$here = 'pmtiles://' . home_url( '/wp-content/uploads/2026/12/alps.pmtiles' );
		$this->assertSame( $here, Map_Attributes::parse( array( 'mapStyle' => $here ), $this->defaults() )['config']['style'] );
		$this->assertSame( Basemap::OPENFREEMAP_LIBERTY, Map_Attributes::parse( array( 'mapStyle' => 'pmtiles://https://elsewhere.example/alps.pmtiles' ), $this->defaults() )['config']['style'] );
	}
}
