<?php
/**
 * The server's error messages against the shared table.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Blocks\Map_Block;
use Cairn\Maps\Tests\TestCase;

/**
 * The alert the server renders says exactly what tests/fixtures/error-messages.json says, the table
 * the browser's copy (packages/map/src/errors.ts, tests/unit/error-messages.test.ts) is held to.
 *
 * @since 0.1.0
 */
final class Error_MessagesTest extends TestCase {

	/**
	 * The table's rows, by code.
	 *
	 * @return array<string, array{code: string, server: bool, message: string}>
	 */
	private static function table(): array {
		$json = file_get_contents( dirname( __DIR__, 2 ) . '/fixtures/error-messages.json' ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a local fixture.
		$rows = json_decode( (string) $json, true )['messages'];
		return array_column( $rows, null, 'code' );
	}

	/**
	 * The codes the server renders, with their message.
	 *
	 * @return array<string, array{string, string}>
	 */
	public static function server_messages(): array {
		$cases = array();
		foreach ( self::table() as $code => $row ) {
			if ( $row['server'] ) {
				$cases[ $code ] = array( $code, $row['message'] );
			}
		}
		return $cases;
	}

	/**
	 * Map_Block::error_message() says the table's words.
	 *
	 * @dataProvider server_messages
	 *
	 * @param string $code    Error code.
	 * @param string $message The table's message.
	 */
	public function test_error_message_says_the_tables_words( string $code, string $message ): void {
		$this->assertSame( $message, Map_Block::error_message( $code ) );
	}

	/**
	 * The table's server codes are exactly the errors the REST schema says the server can report.
	 */
	public function test_the_server_codes_are_the_ones_the_server_reports(): void {
		$schema = $this->rest( 'OPTIONS', '/cairn/v1/posts/1/maps' )->get_data()['schema'];
		$enum   = $schema['properties']['maps']['items']['properties']['error']['enum'] ?? null;
		$this->assertIsArray( $enum, 'the posts-maps schema lists the server\'s error codes' );
		$codes = array_values( array_diff( $enum, array( '' ) ) );
		sort( $codes );
		$table = array_keys( self::server_messages() );
		sort( $table );
		$this->assertSame( $table, $codes );
	}

	/**
	 * Rendered blocks carry the table's message in their alert, for each situation the server finds.
	 */
	public function test_rendered_alerts_say_the_tables_words(): void {
		$table  = self::table();
		$public = Map_BlockTest::public_token();
		// Token codes occur on Mapbox maps only: the block names a Mapbox style (without a usable
		// token, block.json's default style draws OpenFreeMap since 0.7.0).
		$mapbox = array( 'mapStyle' => 'mapbox://styles/mapbox/outdoors-v12' );
		$cases  = array(
			'missing-token' => array( '', $mapbox ),
			'secret-token'  => array( 'sk.' . substr( $public, 3 ), $mapbox ),
			'invalid-token' => array( 'pk.not-a-token', $mapbox ),
			'zoom-range'    => array(
				$public,
				array(
					'minZoom' => 12,
					'maxZoom' => 4,
				),
			),
		);
		$this->assertSame( array_keys( self::server_messages() ), array_keys( $cases ), 'every server code is rendered here' );
		foreach ( $cases as $code => list( $token, $attributes ) ) {
			$filter = static fn() => $token;
			add_filter( 'cairn_maps_access_token', $filter );
			$json   = array() === $attributes ? '' : ' ' . wp_json_encode( $attributes );
			$html   = do_blocks( "<!-- wp:cairn/map{$json} /-->" );
			remove_filter( 'cairn_maps_access_token', $filter );

			$this->assertSame( 1, substr_count( $html, 'role="alert"' ), "$code: one alert" );
			$this->assertSame( 1, preg_match( '/<div class="wp-block-cairn-map__error" role="alert" data-cairn-error="([^"]*)">([^<]*)<\/div>/', $html, $alert ), "$code: the alert" );
			$this->assertSame( $code, $alert[1] );
			$this->assertSame( $table[ $code ]['message'], html_entity_decode( $alert[2], ENT_QUOTES, 'UTF-8' ), "$code: the alert's text" );
		}
	}
}
