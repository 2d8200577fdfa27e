<?php
/**
 * The engine rule and the site's basemap.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Blocks\Basemap;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Tests\TestCase;

/**
 * Basemap::engine_for() against tests/fixtures/styles.json (the table jest runs through
 * engineForStyle()), and what the site's basemap resolves to.
 *
 * @since 0.7.0
 */
final class BasemapTest extends TestCase {

	private const TOKEN = 'pk.eyJ1IjoiY2Fpcm4tdGVzdCIsImEiOiJjbGFiYzEyMzQ1Njc4OTAifQ.abcdefghijklmnopqrstuv';

	/**
	 * The shared vectors.
	 *
	 * @return array<string, array{0: string, 1: ?string}> why => [ style, engine ].
	 */
	public static function styles(): array {
		$json = file_get_contents( dirname( __DIR__, 2 ) . '/fixtures/styles.json' ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a local fixture.
		$rows = json_decode( (string) $json, true );
		$data = array();
		foreach ( $rows as $row ) {
			$data[ $row['why'] ] = array( $row['style'], $row['engine'] );
		}
		return $data;
	}

	/**
	 * The table has the kinds the contract names, and at least 20 rows.
	 */
	public function test_the_shared_table_covers_every_kind_of_reference(): void {
		$rows = self::styles();
		$this->assertGreaterThanOrEqual( 20, count( $rows ) );
		$engines = array_count_values( array_map( static fn( $row ) => (string) $row[1], $rows ) );
		$this->assertGreaterThan( 3, $engines['mapbox'] );
		$this->assertGreaterThan( 5, $engines['maplibre'] );
		$this->assertGreaterThan( 10, $engines[''] );
		$this->assertContains( '', array_column( $rows, 0 ) );
	}

	/**
	 * Each reference gets the same engine (or refusal) as in the browser.
	 *
	 * @dataProvider styles
	 *
	 * @param string      $style  Reference.
	 * @param string|null $engine Expected engine, null = refused.
	 */
	public function test_engine_for_matches_the_shared_table( string $style, ?string $engine ): void {
		$this->assertSame( $engine, Basemap::engine_for( $style ) );
	}

	/**
	 * Anything but a string, and a reference over the length limit, is refused.
	 */
	public function test_non_strings_and_overlong_references_are_refused(): void {
		$this->assertNull( Basemap::engine_for( null ) );
		$this->assertNull( Basemap::engine_for( array( 'mapbox://styles/mapbox/standard' ) ) );
		$this->assertNull( Basemap::engine_for( 'https://example.org/' . str_repeat( 'a', 2048 ) ) );
	}

	/**
	 * The provider, hosts, glyphs and attribution the config carries for each kind of basemap.
	 */
	public function test_describe_names_the_provider_and_its_hosts(): void {
		$this->assertSame(
			array(
				'provider'    => 'mapbox',
				'glyphs'      => '',
				'hosts'       => array(),
				'attribution' => '',
			),
			Basemap::describe( Basemap::MAPBOX_STANDARD )
		);
		$free = Basemap::describe( 'https://tiles.openfreemap.org/styles/positron' );
		$this->assertSame( 'openfreemap', $free['provider'] );
		$this->assertSame( array( 'tiles.openfreemap.org' ), $free['hosts'] );
		$this->assertSame( '', $free['glyphs'] );
		$this->assertSame( '', $free['attribution'], 'OpenFreeMap\'s TileJSON carries its own attribution: not shown twice' );

		$own = Basemap::describe( 'https://Maps.Example.org/style.json' );
		$this->assertSame( 'style-url', $own['provider'] );
		$this->assertSame( array( 'maps.example.org' ), $own['hosts'] );

		$self = Basemap::describe( 'pmtiles://' . home_url( '/wp-content/uploads/world.pmtiles' ) );
		$this->assertSame( 'self-hosted', $self['provider'] );
		$this->assertSame( array(), $self['hosts'] );
		$this->assertStringEndsWith( '/assets/basemap/glyphs/{fontstack}/{range}.pbf', $self['glyphs'] );
		$this->assertStringStartsWith( home_url( '/' ), $self['glyphs'] );
	}

	/**
	 * The owner may add hosts a style URL's tiles live on; a self-hosted map never gets any.
	 */
	public function test_the_hosts_filter_adds_hosts_to_style_urls_only(): void {
		add_filter(
			'cairn_maps_basemap_hosts',
			static function ( array $hosts ): array {
				$hosts[] = 'Tiles.Example.NET';
				$hosts[] = 'not a host';
				return $hosts;
			}
		);
		$this->assertSame( array( 'maps.example.org', 'tiles.example.net' ), Basemap::hosts_for( 'https://maps.example.org/style.json' ) );
		$this->assertSame( array(), Basemap::hosts_for( 'pmtiles://' . home_url( '/world.pmtiles' ) ) );
		$this->assertSame( array(), Basemap::hosts_for( Basemap::MAPBOX_STANDARD ) );
	}

	/**
	 * Without a token and without a choice the site draws OpenFreeMap Liberty; with a public token,
	 * Mapbox Standard; the owner's choice wins over both.
	 */
	public function test_the_site_basemap_is_automatic_until_the_owner_chooses(): void {
		delete_option( Settings::TOKEN_OPTION );
		delete_option( Settings::BASEMAP_OPTION );
		$this->assertSame( Basemap::OPENFREEMAP_LIBERTY, Basemap::site_style() );

		update_option( Settings::TOKEN_OPTION, self::TOKEN );
		$this->assertSame( Basemap::MAPBOX_STANDARD, Basemap::site_style() );

		update_option( Settings::BASEMAP_OPTION, 'https://tiles.openfreemap.org/styles/bright' );
		$this->assertSame( 'https://tiles.openfreemap.org/styles/bright', Basemap::site_style() );
	}

	/**
	 * A stored value that is no longer acceptable (edited in the database) counts as automatic.
	 */
	public function test_an_unacceptable_stored_basemap_counts_as_automatic(): void {
		delete_option( Settings::TOKEN_OPTION );
		update_option( Settings::BASEMAP_OPTION, 'http://tiles.openfreemap.org/styles/liberty' );
		$this->assertSame( Basemap::OPENFREEMAP_LIBERTY, Basemap::site_style() );
		update_option( Settings::BASEMAP_OPTION, 'pmtiles://https://elsewhere.example/world.pmtiles' );
		$this->assertSame( Basemap::OPENFREEMAP_LIBERTY, Basemap::site_style() );
	}

	/**
	 * A self-hosted archive must be on this site: its host, no http on an https site.
	 */
	public function test_archives_must_be_on_this_site(): void {
		$home = (string) wp_parse_url( home_url(), PHP_URL_HOST );
		$this->assertTrue( Basemap::is_acceptable( 'pmtiles://' . home_url( '/wp-content/uploads/world.pmtiles' ) ) );
		$this->assertTrue( Basemap::is_acceptable( 'pmtiles://' . wp_get_upload_dir()['baseurl'] . '/2026/12/region.pmtiles' ) );
		$this->assertFalse( Basemap::is_acceptable( 'pmtiles://https://elsewhere.example/world.pmtiles' ) );
		$this->assertFalse( Basemap::is_acceptable( 'pmtiles://https://' . $home . '.elsewhere.example/world.pmtiles' ) );
		add_filter( 'home_url', static fn( string $url ): string => str_replace( 'http://', 'https://', $url ) );
		add_filter( 'site_url', static fn( string $url ): string => str_replace( 'http://', 'https://', $url ) );
		add_filter( 'upload_dir', static fn( array $dir ): array => array_merge( $dir, array( 'baseurl' => str_replace( 'http://', 'https://', $dir['baseurl'] ) ) ) );
		$this->assertFalse( Basemap::is_acceptable( 'pmtiles://http://' . $home . '/world.pmtiles' ), 'an http archive on an https site' );
	}
}
