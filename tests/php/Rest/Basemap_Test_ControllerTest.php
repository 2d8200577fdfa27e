<?php
/**
 * "Test basemap": what the settings screen reports for each kind of basemap and failure.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Rest\Basemap_Test_Controller;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Tests\TestCase;

/**
 * `POST /cairn/v1/basemap/test` against servers played through WordPress' HTTP API
 * (`pre_http_request`): each stand-in answers as the real kind of server would, Range requests
 * included, so the route's reading of statuses, headers and bytes is what is tested. No request
 * leaves the machine.
 *
 * @since 0.7.0
 */
final class Basemap_Test_ControllerTest extends TestCase {

	private const TOKEN = 'pk.eyJ1IjoiY2Fpcm4iLCJhIjoidGVzdCJ9.c2lnbmF0dXJl';

	/**
	 * Requests the stand-ins received: URL and headers.
	 *
	 * @var array<int, array{url: string, headers: array<string, string>}>
	 */
	private array $requests = array();

	/**
	 * A PMTiles v3 archive: header, then `$size - 127` bytes of sections.
	 *
	 * @param int $size    Bytes the header's sections say the file has.
	 * @param int $version The header's version.
	 */
	public static function archive( int $size = 4096, int $version = 3 ): string {
		$sections = array(
			array( 127, 200 ),            // Root directory.
			array( 327, 100 ),            // Metadata.
			array( 427, 0 ),              // Leaf directories.
			array( 427, $size - 427 ),    // Tile data.
		);
		$header   = 'PMTiles' . chr( $version );
		foreach ( $sections as list( $offset, $length ) ) {
			$header .= pack( 'P', $offset ) . pack( 'P', $length );
		}
		$header .= pack( 'P', 10 ) . pack( 'P', 10 ) . pack( 'P', 10 ); // Addressed tiles, entries, contents.
		$header .= chr( 1 ) . chr( 2 ) . chr( 2 ) . chr( 1 ) . chr( 0 ) . chr( 6 ); // Clustered, compressions, type, zooms 0–6.
		$header .= str_repeat( "\0", 127 - strlen( $header ) );
		return $header . str_repeat( 'x', max( 0, $size - 127 ) );
	}

	/**
	 * Serves requests with a handler: (url, args) => array{status, headers, body} or WP_Error.
	 *
	 * @param callable $handler The stand-in server.
	 */
	private function serve_with( callable $handler ): void {
		add_filter(
			'pre_http_request',
			function ( $pre, $args, $url ) use ( $handler ) {
				$headers          = array_change_key_case( (array) ( $args['headers'] ?? array() ) );
				$this->requests[] = array(
					'url'     => $url,
					'headers' => $headers,
				);
				$answer           = $handler( $url, $headers );
				if ( $answer instanceof \WP_Error ) {
					return $answer;
				}
				$body = $answer['body'];
				if ( ! empty( $args['limit_response_size'] ) ) {
					$body = substr( $body, 0, (int) $args['limit_response_size'] );
				}
				return array(
					'headers'  => new \WpOrg\Requests\Utility\CaseInsensitiveDictionary( $answer['headers'] ?? array() ),
					'body'     => $body,
					'response' => array(
						'code'    => $answer['status'],
						'message' => get_status_header_desc( $answer['status'] ),
					),
					'cookies'  => array(),
					'filename' => null,
				);
			},
			10,
			3
		);
	}

	/**
	 * A static file server: Range requests answered with 206 and Content-Range when `$ranges`.
	 *
	 * @param string $file   The file's bytes.
	 * @param bool   $ranges Whether the server honours Range.
	 */
	private function file_server( string $file, bool $ranges = true ): void {
		$this->serve_with(
			static function ( $url, $headers ) use ( $file, $ranges ) {
				if ( $ranges && 1 === preg_match( '/^bytes=(\d+)-(\d+)$/', $headers['range'] ?? '', $m ) ) {
					if ( (int) $m[1] >= strlen( $file ) ) {
						return array(
							'status' => 416,
							'body'   => '',
						);
					}
					$end = min( (int) $m[2], strlen( $file ) - 1 );
					return array(
						'status'  => 206,
						'headers' => array( 'content-range' => "bytes {$m[1]}-{$end}/" . strlen( $file ) ),
						'body'    => substr( $file, (int) $m[1], $end - (int) $m[1] + 1 ),
					);
				}
				return array(
					'status' => 200,
					'body'   => $file,
				);
			}
		);
	}

	/**
	 * Tests a basemap as the settings screen does.
	 *
	 * @param string|null $basemap The value being chosen; null for the site's.
	 */
	private function test_basemap( ?string $basemap ): \WP_REST_Response {
		return $this->rest( 'POST', '/cairn/v1' . Basemap_Test_Controller::ROUTE, null === $basemap ? array() : array( 'basemap' => $basemap ) );
	}

	/**
	 * An archive on the site.
	 */
	private static function archive_ref(): string {
		return 'pmtiles://' . home_url( '/wp-content/uploads/2026/12/world.pmtiles' );
	}

	/**
	 * Only administrators may test.
	 */
	public function test_only_administrators_may_test(): void {
		$this->file_server( self::archive() );
		$this->act_as( 'editor' );
		$this->assertSame( 403, $this->test_basemap( self::archive_ref() )->get_status() );
		$this->act_as( 'anonymous' );
		$this->assertSame( 401, $this->test_basemap( self::archive_ref() )->get_status() );
		$this->assertSame( array(), $this->requests, 'no request made for them' );
	}

	/**
	 * A valid archive served with Range: ok, and only the header was asked for.
	 */
	public function test_an_archive_with_range_support_passes(): void {
		$this->act_as( 'administrator' );
		$this->file_server( self::archive() );
		$data = $this->test_basemap( self::archive_ref() )->get_data();
		$this->assertTrue( $data['ok'], $data['message'] );
		$this->assertSame( 'self-hosted', $data['provider'] );
		$this->assertStringContainsString( 'zoom levels 0 to 6', $data['message'] );
		$this->assertSame( 'bytes=0-126', $this->requests[0]['headers']['range'] );
		$this->assertSame( home_url( '/wp-content/uploads/2026/12/world.pmtiles' ), $this->requests[0]['url'] );
	}

	/**
	 * Archive failures, each with its code and words.
	 *
	 * @return array<string, array{0: string, 1: bool, 2: string, 3: string}> file, ranges, code, words.
	 */
	public static function archive_failures(): array {
		return array(
			'whole file, no Range'  => array( self::archive(), false, 'no-range', 'without Range support' ),
			'not an archive'        => array( str_repeat( '<html>', 100 ), true, 'not-pmtiles', 'not a PMTiles archive' ),
			'not an archive, 200'   => array( str_repeat( '<html>', 100 ), false, 'not-pmtiles', 'not a PMTiles archive' ),
			'cut short'             => array( substr( self::archive( 100000 ), 0, 5000 ), true, 'truncated', 'truncated' ),
			'shorter than a header' => array( '', true, 'truncated', 'shorter than a PMTiles header' ),
			'version 2'             => array( self::archive( 4096, 2 ), true, 'version', 'version 2' ),
		);
	}

	/**
	 * Each archive failure is reported in words.
	 *
	 * @dataProvider archive_failures
	 *
	 * @param string $file   The file.
	 * @param bool   $ranges Whether the server honours Range.
	 * @param string $code   Expected code.
	 * @param string $words  Part of the message.
	 */
	public function test_archive_failures_are_named( string $file, bool $ranges, string $code, string $words ): void {
		$this->act_as( 'administrator' );
		$this->file_server( $file, $ranges );
		$response = $this->test_basemap( self::archive_ref() );
		$this->assertSame( 200, $response->get_status() );
		$data = $response->get_data();
		$this->assertFalse( $data['ok'] );
		$this->assertSame( $code, $data['code'] );
		$this->assertStringContainsString( $words, $data['message'] );
	}

	/**
	 * A missing file, and a server that cannot be reached.
	 */
	public function test_a_missing_or_unreachable_archive(): void {
		$this->act_as( 'administrator' );
		$this->serve_with(
			static fn( $url ) => false !== strpos( $url, 'gone' ) ? array(
				'status' => 404,
				'body'   => 'Not found',
			) : new \WP_Error( 'http_request_failed', 'cURL error 7: Failed to connect' )
		);
		$gone = $this->test_basemap( 'pmtiles://' . home_url( '/gone.pmtiles' ) )->get_data();
		$this->assertSame( 'not-found', $gone['code'] );
		$this->assertStringContainsString( 'HTTP 404', $gone['message'] );
		$down = $this->test_basemap( self::archive_ref() )->get_data();
		$this->assertSame( 'unreachable', $down['code'] );
		$this->assertStringContainsString( 'Failed to connect', $down['message'] );
	}

	/**
	 * What the setting refuses is a 400 with the setting's message; nothing is fetched.
	 */
	public function test_a_refused_basemap_is_a_400(): void {
		$this->act_as( 'administrator' );
		$this->file_server( self::archive() );
		$http = $this->test_basemap( 'http://tiles.openfreemap.org/styles/liberty' );
		$this->assertSame( 400, $http->get_status() );
		$this->assertStringContainsString( 'https://', $http->get_data()['message'] );
		$this->assertSame( 400, $this->test_basemap( 'pmtiles://https://elsewhere.example/world.pmtiles' )->get_status() );
		$this->assertSame( array(), $this->requests );
	}

	/**
	 * A style server: documents by path.
	 *
	 * @param array<string, array{0: int, 1: string}> $paths Path => [ status, body ].
	 */
	private function style_server( array $paths ): void {
		$this->serve_with(
			static function ( $url ) use ( $paths ) {
				$path                  = (string) wp_parse_url( $url, PHP_URL_PATH );
				list( $status, $body ) = $paths[ $path ] ?? array( 404, '{"message":"Not Found"}' );
				return array(
					'status'  => $status,
					'headers' => array( 'content-type' => 'application/json' ),
					'body'    => $body,
				);
			}
		);
	}

	/**
	 * A MapLibre style: 200, JSON, version 8, sources.
	 */
	public function test_a_style_url_that_answers_a_style_passes(): void {
		$this->act_as( 'administrator' );
		$style = array(
			'version' => 8,
			'sources' => array(
				'openmaptiles' => array(
					'type' => 'vector',
					'url'  => 'https://tiles.openfreemap.org/planet',
				),
			),
			'layers'  => array( array( 'id' => 'background' ), array( 'id' => 'water' ) ),
		);
		$this->style_server( array( '/styles/liberty' => array( 200, (string) wp_json_encode( $style ) ) ) );
		$data = $this->test_basemap( 'https://tiles.openfreemap.org/styles/liberty' )->get_data();
		$this->assertTrue( $data['ok'], $data['message'] );
		$this->assertSame( 'openfreemap', $data['provider'] );
		$this->assertStringContainsString( '1 source, 2 layers', $data['message'] );
	}

	/**
	 * Style failures: 404, not JSON, JSON that is no style, another status.
	 */
	public function test_style_failures_are_named(): void {
		$this->act_as( 'administrator' );
		$this->style_server(
			array(
				'/page'    => array( 200, '<!doctype html><title>Maps</title>' ),
				'/tiles'   => array( 200, '{"tilejson":"3.0.0","tiles":["https://x/{z}/{x}/{y}.pbf"]}' ),
				'/v7'      => array( 200, '{"version":7,"sources":{"a":{}}}' ),
				'/limited' => array( 429, '{"message":"Too many requests"}' ),
			)
		);
		$cases = array(
			'/missing' => array( 'not-found', 'HTTP 404' ),
			'/page'    => array( 'not-json', 'not answer with a style document' ),
			'/tiles'   => array( 'not-a-style', '"version": 8' ),
			'/v7'      => array( 'not-a-style', '"version": 8' ),
			'/limited' => array( 'http-status', 'HTTP 429' ),
		);
		foreach ( $cases as $path => list( $code, $words ) ) {
			$data = $this->test_basemap( 'https://maps.example.net' . $path )->get_data();
			$this->assertFalse( $data['ok'], $path );
			$this->assertSame( $code, $data['code'], $path );
			$this->assertStringContainsString( $words, $data['message'], $path );
		}
	}

	/**
	 * A Mapbox style without a token is named as such, without a request; with one, Mapbox's
	 * Styles API is asked with the token, and a refusal is named.
	 */
	public function test_a_mapbox_style_needs_the_token(): void {
		$this->act_as( 'administrator' );
		$this->style_server(
			array(
				'/styles/v1/mapbox/outdoors-v12' => array( 200, '{"version":8,"sources":{"composite":{"type":"vector"}},"layers":[]}' ),
				'/styles/v1/someone/private'     => array( 401, '{"message":"Not Authorized - Invalid Token"}' ),
			)
		);
		$none = $this->test_basemap( 'mapbox://styles/mapbox/outdoors-v12' )->get_data();
		$this->assertFalse( $none['ok'] );
		$this->assertSame( 'mapbox-token', $none['code'] );
		$this->assertStringContainsString( 'needs a public Mapbox access token', $none['message'] );
		$this->assertSame( 'mapbox-token', $this->test_basemap( 'https://api.mapbox.com/styles/v1/mapbox/light-v11' )->get_data()['code'] );
		$this->assertSame( array(), $this->requests );

		update_option( Settings::TOKEN_OPTION, self::TOKEN );
		$this->assertTrue( $this->test_basemap( 'mapbox://styles/mapbox/outdoors-v12' )->get_data()['ok'] );
		$this->assertStringStartsWith( 'https://api.mapbox.com/styles/v1/mapbox/outdoors-v12?access_token=', $this->requests[0]['url'] );
		$this->assertSame( 'mapbox-refused', $this->test_basemap( 'mapbox://styles/someone/private' )->get_data()['code'] );
	}

	/**
	 * Without a value the site's basemap is tested; '' tests the automatic one.
	 */
	public function test_the_sites_basemap_by_default(): void {
		$this->act_as( 'administrator' );
		$this->file_server( self::archive() );
		update_option( Settings::BASEMAP_OPTION, self::archive_ref() );
		$data = $this->test_basemap( null )->get_data();
		$this->assertSame( self::archive_ref(), $data['basemap'] );
		$this->assertTrue( $data['ok'] );

		$automatic = $this->test_basemap( '' )->get_data();
		$this->assertSame( 'https://tiles.openfreemap.org/styles/liberty', $automatic['basemap'], 'no token: OpenFreeMap' );
	}
}
