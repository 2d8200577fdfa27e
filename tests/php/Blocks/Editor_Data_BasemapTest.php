<?php
/**
 * What the block editor learns about the site's basemap.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Blocks\Map_Block;
use Cairn\Maps\Plugin;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Settings\Style_Reference;
use Cairn\Maps\Tests\TestCase;

/**
 * `window.cairnMapsEditor` carries what the editor needs to build the config the server renders:
 * the site's style, the glyphs of self-hosted maps, the `basemap` of the styles it offers, the
 * hosts a block's style may use. Compared with the rendered config, so the two cannot drift.
 *
 * @since 0.7.0
 */
final class Editor_Data_BasemapTest extends TestCase {

	/**
	 * The editor data, as printed.
	 *
	 * @return array<string, mixed>
	 */
	private function data(): array {
		$script = Plugin::instance()->get( 'editor' )->inline_script();
		$this->assertStringStartsWith( 'window.cairnMapsEditor = ', $script );
		return json_decode( substr( $script, strlen( 'window.cairnMapsEditor = ' ), -1 ), true );
	}

	/**
	 * The config a default block renders.
	 *
	 * @return array<string, mixed>
	 */
	private static function rendered(): array {
		$html = do_blocks( '<!-- wp:cairn/map /-->' );
		$tags = new \WP_HTML_Tag_Processor( $html );
		$tags->next_tag( array( 'class_name' => 'wp-block-cairn-map' ) );
		return json_decode( (string) $tags->get_attribute( 'data-cairn-config' ), true );
	}

	/**
	 * For each kind of site basemap the editor's siteStyle and basemaps[siteStyle] are the
	 * rendered style and basemap.
	 */
	public function test_the_editor_knows_what_a_default_block_draws(): void {
		$this->act_as( 'editor' );
		foreach ( array( '', 'https://tiles.openfreemap.org/styles/positron', 'pmtiles://' . home_url( '/wp-content/uploads/world.pmtiles' ), 'https://maps.example.net/style.json' ) as $basemap ) {
			update_option( Settings::BASEMAP_OPTION, $basemap );
			$data     = $this->data();
			$rendered = self::rendered();
			$this->assertSame( $rendered['style'], $data['siteStyle'], $basemap );
			$this->assertSame( $rendered['basemap'], $data['basemaps'][ $data['siteStyle'] ], $basemap );
		}
		$this->assertContains( 'maps.example.net', $data['styleHosts'], 'the basemap\'s host' );
		$this->assertContains( 'tiles.openfreemap.org', $data['styleHosts'] );
		// The hosts a block's own pmtiles:// archive may be on, as the settings screen has them.
		$this->assertSame( Style_Reference::local_hosts(), $data['localHosts'] );
		$this->assertContains( wp_parse_url( home_url(), PHP_URL_HOST ), $data['localHosts'] );
		$this->assertStringEndsWith( '/assets/basemap/glyphs/{fontstack}/{range}.pbf', $data['glyphsUrl'] );
		foreach ( array( 'liberty', 'bright', 'positron' ) as $name ) {
			$this->assertSame( 'openfreemap', $data['basemaps'][ 'https://tiles.openfreemap.org/styles/' . $name ]['provider'] );
		}
	}

	/**
	 * A site without a token: the default block draws OpenFreeMap, and the editor is told so
	 * (no token, the missing-token code kept for Mapbox styles).
	 */
	public function test_without_a_token_the_editor_draws_openfreemap(): void {
		$this->act_as( 'editor' );
		$data = $this->data();
		$this->assertSame( 'https://tiles.openfreemap.org/styles/liberty', $data['siteStyle'] );
		$this->assertSame( '', $data['accessToken'] );
		$this->assertSame( 'missing-token', $data['tokenError'] );
		$this->assertNotSame( Map_Block::defaults()['mapStyle'], $data['siteStyle'], 'block.json\'s style means the site\'s basemap, not Mapbox' );
	}
}
