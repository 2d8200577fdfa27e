<?php
/**
 * "Test basemap" on Settings → Cairn Maps.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Blocks\Basemap;
use Cairn\Maps\Settings\Basemap_Setting;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Support\Rest_Routes;
use WP_Error;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

/**
 * `POST /cairn/v1/basemap/test`: asks, from the server, whether a basemap the owner is choosing
 * can be drawn. A style URL must answer 200 with a style document (JSON, `version: 8`, sources);
 * a PMTiles archive must answer a Range request with 206 and a PMTiles v3 header whose sections
 * fit in the file. The answer is `ok`, a `code` and a `message` in the owner's words; a value the
 * setting would refuse is a 400 with the setting's message. For users who can manage options
 * (cookie authentication with its nonce, as every request of the settings screen).
 *
 * The check runs from the server, so it sees what the server sees: a host the visitors reach but
 * the server does not (a firewall, a private DNS) fails here and works on pages.
 *
 * @since 0.7.0
 */
final class Basemap_Test_Controller {

	public const ROUTE = '/basemap/test';

	/**
	 * Bytes of a PMTiles v3 header.
	 */
	public const HEADER_BYTES = 127;

	/**
	 * Most bytes read of a style document.
	 */
	public const MAX_STYLE_BYTES = 4194304;

	/**
	 * Seconds to wait for an answer.
	 */
	public const TIMEOUT = 10;

	/**
	 * Settings (the token, for a Mapbox style).
	 *
	 * @var Settings
	 */
	private Settings $settings;

	/**
	 * Creates the route.
	 *
	 * @param Settings $settings Settings.
	 */
	public function __construct( Settings $settings ) {
		$this->settings = $settings;
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'rest_api_init', array( $this, 'register_routes' ) );
	}

	/**
	 * Registers the route.
	 */
	public function register_routes(): void {
		register_rest_route(
			Rest_Routes::NAMESPACE,
			self::ROUTE,
			array(
				'methods'             => WP_REST_Server::CREATABLE,
				'callback'            => array( $this, 'answer' ),
				'permission_callback' => array( $this, 'can_test' ),
				'args'                => array(
					'basemap' => array(
						'description' => __( 'The basemap to test, as setting cairn_maps_basemap holds it (empty: automatic). Without it, the site\'s basemap.', 'cairn-maps' ),
						'type'        => 'string',
					),
				),
			)
		);
	}

	/**
	 * Only people who can change the settings test (each test makes the server contact a host).
	 *
	 * @return true|WP_Error
	 */
	public function can_test() {
		if ( current_user_can( 'manage_options' ) ) {
			return true;
		}
		return new WP_Error( 'rest_forbidden', __( 'Sorry, you are not allowed to test basemaps.', 'cairn-maps' ), array( 'status' => rest_authorization_required_code() ) );
	}

	/**
	 * Tests the basemap.
	 *
	 * @param WP_REST_Request $request The request.
	 * @return WP_REST_Response|WP_Error
	 */
	public function answer( WP_REST_Request $request ) {
		$given = $request->get_param( 'basemap' );
		if ( null === $given ) {
			$style = Basemap::site_style();
		} else {
			$clean = Basemap_Setting::validate( $given );
			if ( $clean instanceof WP_Error ) {
				return $clean;
			}
			$style = '' === $clean ? Basemap::automatic_style() : $clean;
		}
		$result = '' !== Basemap::archive_url( $style ) ? $this->test_archive( Basemap::archive_url( $style ) ) : $this->test_style( $style );
		return new WP_REST_Response(
			array_merge(
				array(
					'basemap'  => $style,
					'provider' => Basemap::provider_for( $style ),
				),
				$result
			)
		);
	}

	/**
	 * Tests a style: Mapbox's (through its Styles API with the token) or a style URL.
	 *
	 * @param string $style A style reference the engine rule accepts.
	 * @return array{ok: bool, code: string, message: string}
	 */
	private function test_style( string $style ): array {
		$url = $style;
		if ( 'mapbox' === Basemap::engine_for( $style ) ) {
			$token = $this->settings->map_token()['token'];
			if ( '' === $token ) {
				return self::result( false, 'mapbox-token', __( 'This is a Mapbox style: it needs a public Mapbox access token. Enter one under Access token and save, or choose OpenFreeMap or a self-hosted basemap, which need none.', 'cairn-maps' ) );
			}
			$url = self::mapbox_url( $style, $token );
		}
		$response = wp_safe_remote_get(
			$url,
			array(
				'timeout'             => self::TIMEOUT,
				'redirection'         => 3,
				'limit_response_size' => self::MAX_STYLE_BYTES,
				'headers'             => array( 'Accept' => 'application/json' ),
			)
		);
		if ( $response instanceof WP_Error ) {
			return self::unreachable( $response );
		}
		$status = (int) wp_remote_retrieve_response_code( $response );
		if ( 404 === $status ) {
			return self::result( false, 'not-found', __( 'The style was not found (HTTP 404): check the address.', 'cairn-maps' ) );
		}
		if ( 'mapbox' === Basemap::engine_for( $style ) && in_array( $status, array( 401, 403 ), true ) ) {
			return self::result( false, 'mapbox-refused', __( 'Mapbox refused the access token for this style (it may be restricted to other addresses, or lack the styles:read scope).', 'cairn-maps' ) );
		}
		if ( 200 !== $status ) {
			/* translators: %d: an HTTP status code. */
			return self::result( false, 'http-status', sprintf( __( 'The style server answered HTTP %d instead of the style.', 'cairn-maps' ), $status ) );
		}
		$document = json_decode( wp_remote_retrieve_body( $response ), true );
		if ( ! is_array( $document ) ) {
			return self::result( false, 'not-json', __( 'The address does not answer with a style document (JSON): it may be a web page or a tile address. Use the address of the style itself (often ending in style.json).', 'cairn-maps' ) );
		}
		if ( 8 !== ( $document['version'] ?? null ) || ! is_array( $document['sources'] ?? null ) || array() === $document['sources'] ) {
			return self::result( false, 'not-a-style', __( 'The address answers with JSON that is not a MapLibre/Mapbox style (a style has "version": 8 and its "sources").', 'cairn-maps' ) );
		}
		$layers = is_array( $document['layers'] ?? null ) ? count( $document['layers'] ) : 0;
		return self::result(
			true,
			'ok',
			sprintf(
				/* translators: 1: number of tile sources, 2: number of layers. */
				_n( 'The style answered: %1$d source, %2$d layers.', 'The style answered: %1$d sources, %2$d layers.', count( $document['sources'] ), 'cairn-maps' ),
				count( $document['sources'] ),
				$layers
			)
		);
	}

	/**
	 * The Styles API address of a Mapbox style.
	 *
	 * @param string $style `mapbox://styles/owner/id` or an https URL on Mapbox's API host.
	 * @param string $token The public token.
	 */
	private static function mapbox_url( string $style, string $token ): string {
		$url = 0 === strpos( $style, 'mapbox://styles/' ) ? 'https://api.mapbox.com/styles/v1/' . substr( $style, strlen( 'mapbox://styles/' ) ) : $style;
		return add_query_arg( 'access_token', rawurlencode( $token ), $url );
	}

	/**
	 * Tests a PMTiles archive: a Range request for its header.
	 *
	 * @param string $url The archive's address.
	 * @return array{ok: bool, code: string, message: string}
	 */
	private function test_archive( string $url ): array {
		$response = wp_safe_remote_get(
			$url,
			array(
				'timeout'             => self::TIMEOUT,
				'redirection'         => 0,
				// A server without Range support sends the whole file: read only its start.
				'limit_response_size' => 65536,
				'headers'             => array(
					'Range'           => 'bytes=0-' . ( self::HEADER_BYTES - 1 ),
					'Accept-Encoding' => 'identity',
				),
			)
		);
		if ( $response instanceof WP_Error ) {
			return self::unreachable( $response );
		}
		$status = (int) wp_remote_retrieve_response_code( $response );
		$body   = wp_remote_retrieve_body( $response );
		if ( 404 === $status ) {
			return self::result( false, 'not-found', __( 'The archive was not found (HTTP 404): check the address, or upload the .pmtiles file again.', 'cairn-maps' ) );
		}
		if ( 416 === $status ) {
			return self::result( false, 'truncated', __( 'The file is shorter than a PMTiles header: the upload was cut short. Upload the archive again.', 'cairn-maps' ) );
		}
		if ( 200 === $status ) {
			if ( 0 !== strpos( $body, 'PMTiles' ) ) {
				return self::not_archive();
			}
			return self::result( false, 'no-range', __( 'The archive is served without Range support: the server sent the whole file instead of the requested bytes (HTTP 200, not 206). Maps would download all of it. Turn on byte-range requests for .pmtiles files on the web server or CDN (see “Choosing a basemap” in the documentation).', 'cairn-maps' ) );
		}
		if ( 206 !== $status ) {
			/* translators: %d: an HTTP status code. */
			return self::result( false, 'http-status', sprintf( __( 'The server answered HTTP %d instead of the archive\'s first bytes.', 'cairn-maps' ), $status ) );
		}
		$header = self::header( $body );
		if ( null === $header ) {
			return self::not_archive();
		}
		if ( 3 !== $header['version'] ) {
			/* translators: %d: a PMTiles version number. */
			return self::result( false, 'version', sprintf( __( 'This is a PMTiles version %d archive; maps read version 3. Convert it with the pmtiles command-line tool (pmtiles convert).', 'cairn-maps' ), $header['version'] ) );
		}
		$range  = wp_remote_retrieve_header( $response, 'content-range' );
		$length = self::total_length( is_array( $range ) ? (string) end( $range ) : $range );
		if ( $length > 0 && $header['end'] > $length ) {
			return self::result( false, 'truncated', __( 'The archive is truncated: its header points past the end of the file. The upload was probably cut short; upload it again.', 'cairn-maps' ) );
		}
		return self::result(
			true,
			'ok',
			sprintf(
				/* translators: 1: lowest zoom level, 2: highest zoom level. */
				__( 'The archive answers byte-range requests and holds zoom levels %1$d to %2$d.', 'cairn-maps' ),
				$header['min_zoom'],
				$header['max_zoom']
			)
		);
	}

	/**
	 * The parts of a PMTiles v3 header this check needs, or null when the bytes are not one.
	 *
	 * @param string $bytes The first bytes of the file.
	 * @return array{version: int, end: int, min_zoom: int, max_zoom: int}|null `end`: where the last section ends.
	 */
	public static function header( string $bytes ): ?array {
		if ( strlen( $bytes ) < self::HEADER_BYTES || 0 !== strpos( $bytes, 'PMTiles' ) ) {
			return null;
		}
		$version = ord( $bytes[7] );
		// Root directory, metadata, leaf directories, tile data: offset and length each (u64, little-endian).
		$end = 0;
		for ( $i = 0; $i < 4; $i++ ) {
			$offset = self::u64( $bytes, 8 + 16 * $i );
			$length = self::u64( $bytes, 16 + 16 * $i );
			$end    = max( $end, $offset + $length );
		}
		return array(
			'version'  => $version,
			'end'      => $end,
			'min_zoom' => ord( $bytes[100] ),
			'max_zoom' => ord( $bytes[101] ),
		);
	}

	/**
	 * An unsigned little-endian 64-bit integer (as a PHP int: archives are far below 2^63 bytes).
	 *
	 * @param string $bytes  Bytes.
	 * @param int    $offset Where it starts.
	 */
	private static function u64( string $bytes, int $offset ): int {
		$parts = unpack( 'P', substr( $bytes, $offset, 8 ) );
		return is_array( $parts ) ? max( 0, (int) $parts[1] ) : 0;
	}

	/**
	 * The file's length from a `Content-Range: bytes 0-126/12345` header, 0 when unknown.
	 *
	 * @param string $header The header.
	 */
	private static function total_length( string $header ): int {
		return 1 === preg_match( '#^bytes\s+\d+-\d+/(\d+)$#i', trim( $header ), $m ) ? (int) $m[1] : 0;
	}

	/**
	 * The answer for a file that is no PMTiles archive.
	 *
	 * @return array{ok: bool, code: string, message: string}
	 */
	private static function not_archive(): array {
		return self::result( false, 'not-pmtiles', __( 'The file is not a PMTiles archive (it does not start with the PMTiles header). Make the archive with the pmtiles command-line tool or download a Protomaps build.', 'cairn-maps' ) );
	}

	/**
	 * The answer for a host the server could not reach.
	 *
	 * @param WP_Error $error Why.
	 * @return array{ok: bool, code: string, message: string}
	 */
	private static function unreachable( WP_Error $error ): array {
		return self::result(
			false,
			'unreachable',
			sprintf(
				/* translators: %s: the error of the HTTP request, from WordPress. */
				__( 'The server could not reach the address: %s', 'cairn-maps' ),
				$error->get_error_message()
			)
		);
	}

	/**
	 * A test result.
	 *
	 * @param bool   $ok      Whether maps can draw the basemap.
	 * @param string $code    What was found.
	 * @param string $message In the owner's words.
	 * @return array{ok: bool, code: string, message: string}
	 */
	private static function result( bool $ok, string $code, string $message ): array {
		return array(
			'ok'      => $ok,
			'code'    => $code,
			'message' => $message,
		);
	}
}
