<?php
/**
 * The "Directions" links of the list the server renders.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Blocks\Directions_Link;
use Cairn\Maps\Settings\Directions_Setting;
use Cairn\Maps\Tests\TestCase;

/**
 * Without JavaScript, each entry of a map's list links to the visitor's map app, as the popup and
 * the places panel do: the same addresses as the runtime (the shared vectors of
 * `tests/fixtures/directions-urls.json`), the same accessible name, a new tab that cannot reach
 * back for the web apps, and no link when the site or the map says none.
 *
 * @since 0.9.0
 */
final class Directions_LinkTest extends TestCase {

	/**
	 * The entries of the rendered list: marker id => its Directions link's attributes (null: none).
	 *
	 * @param string $html A rendered map.
	 * @return array<int, array{href: string, label: string, target: string, rel: string, text: string}|null>
	 */
	private static function links( string $html ): array {
		$document = new \DOMDocument();
		libxml_use_internal_errors( true );
		$document->loadHTML( '<?xml encoding="utf-8"?><body>' . $html . '</body>' );
		libxml_clear_errors();
		$entries = array();
		foreach ( ( new \DOMXPath( $document ) )->query( '//li[@data-cairn-marker-id]' ) as $entry ) {
			$link = ( new \DOMXPath( $document ) )->query( './/a[contains(@class, "wp-block-cairn-map__directions")]', $entry )->item( 0 );
			$entries[ (int) $entry->getAttribute( 'data-cairn-marker-id' ) ] = null === $link ? null : array(
				'href'   => $link->getAttribute( 'href' ),
				'label'  => $link->getAttribute( 'aria-label' ),
				'target' => $link->getAttribute( 'target' ),
				'rel'    => $link->getAttribute( 'rel' ),
				'text'   => $link->textContent, // phpcs:ignore WordPress.NamingConventions.ValidVariableName.UsedPropertyNotSnakeCase -- DOMNode's.
			);
		}
		return $entries;
	}

	/**
	 * The server writes each app's address as the runtime does.
	 */
	public function test_the_addresses_are_the_runtimes(): void {
		$shared = json_decode( (string) file_get_contents( dirname( __DIR__, 2 ) . '/fixtures/directions-urls.json' ), true ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a local fixture.
		$this->assertGreaterThan( 10, count( $shared['cases'] ) );
		foreach ( $shared['cases'] as $case ) {
			$this->assertSame( $case['url'], Directions_Link::url( $case['app'], (float) $case['lat'], (float) $case['lng'] ), wp_json_encode( $case ) );
		}
	}

	/**
	 * Each entry links to OpenStreetMap by default, in a new tab, named for its place.
	 */
	public function test_each_entry_links_to_the_sites_app(): void {
		$summit  = $this->create_marker(
			array(
				'post_title' => 'Ben Nevis',
				'lat'        => 56.79685,
				'lng'        => -5.00355,
			)
		);
		$harbour = $this->create_marker(
			array(
				'post_title' => 'Harbour',
				'lat'        => -33.9,
				'lng'        => 151.0,
			)
		);
		$links   = self::links( do_blocks( '<!-- wp:cairn/map /-->' ) );
		$this->assertEqualsCanonicalizing( array( $summit, $harbour ), array_keys( $links ) );
		$this->assertSame(
			array(
				'href'   => 'https://www.openstreetmap.org/directions?route=;56.79685,-5.00355',
				'label'  => 'Directions to Ben Nevis (opens in a new tab)',
				'target' => '_blank',
				'rel'    => 'noopener noreferrer',
				'text'   => 'Directions',
			),
			$links[ $summit ]
		);
		$this->assertSame( 'https://www.openstreetmap.org/directions?route=;-33.9,151', $links[ $harbour ]['href'] );

		update_option( Directions_Setting::OPTION, 'google' );
		$links = self::links( do_blocks( '<!-- wp:cairn/map /-->' ) );
		$this->assertSame( 'https://www.google.com/maps/dir/?api=1&destination=56.79685,-5.00355', $links[ $summit ]['href'] );
	}

	/**
	 * A map's own app wins; `geo:` survives escaping, opens no tab; none shows no link.
	 */
	public function test_a_maps_own_app_and_none(): void {
		$summit = $this->create_marker(
			array(
				'post_title' => 'Ben Nevis',
				'lat'        => 56.79685,
				'lng'        => -5.00355,
			)
		);
		$links  = self::links( do_blocks( '<!-- wp:cairn/map {"directions":"geo"} /-->' ) );
		$this->assertSame(
			array(
				'href'   => 'geo:56.79685,-5.00355',
				'label'  => 'Directions to Ben Nevis',
				'target' => '',
				'rel'    => '',
				'text'   => 'Directions',
			),
			$links[ $summit ]
		);

		$html = do_blocks( '<!-- wp:cairn/map {"directions":"none"} /-->' );
		$this->assertSame( array( $summit => null ), self::links( $html ) );
		$this->assertStringNotContainsString( 'openstreetmap.org', $html );

		update_option( Directions_Setting::OPTION, 'none' );
		$this->assertSame( array( $summit => null ), self::links( do_blocks( '<!-- wp:cairn/map /-->' ) ) );
		$this->assertSame( 'https://maps.apple.com/?daddr=56.79685,-5.00355', self::links( do_blocks( '<!-- wp:cairn/map {"directions":"apple"} /-->' ) )[ $summit ]['href'] );
	}

	/**
	 * A title with markup is text in the link's name, never markup.
	 */
	public function test_a_hostile_title_is_text_in_the_name(): void {
		$this->act_as( 'administrator' ); // May store markup in titles (unfiltered_html).
		$id = $this->create_marker( array( 'post_title' => 'Fish "&" <img src=x onerror=alert(1)>Chips' ) );
		wp_set_current_user( 0 );
		$html = do_blocks( '<!-- wp:cairn/map /-->' );
		$this->assertStringNotContainsString( '<img', $html );
		$this->assertSame( 'Directions to Fish "&" Chips (opens in a new tab)', self::links( $html )[ $id ]['label'] );
	}
}
