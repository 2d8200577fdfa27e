<?php
/**
 * The cross-origin rules of the public cairn/v1 routes.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Plugin;
use Cairn\Maps\Rest\Cors;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Tests\TestCase;

/**
 * Cors: origins normalised on save (the table shared with the settings screen), exact matching,
 * the headers of the default and the restricted mode, which requests get them, and the setting
 * through `/wp/v2/settings`. Headers as actually sent: tests/php/Http/Cors_HttpTest.php.
 *
 * @since 0.2.0
 */
final class CorsTest extends TestCase {

	/**
	 * The table shared with tests/unit/origins.test.ts.
	 *
	 * @return array<string, array{0: string, 1: string|null, 2: string|null}> name => [ input,
	 *         stored origin or null, refusal kind or null ].
	 */
	public static function origins(): array {
		$json = file_get_contents( dirname( __DIR__, 2 ) . '/fixtures/origins.json' ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a local fixture.
		$data = array();
		foreach ( json_decode( (string) $json, true )['origins'] as $row ) {
			$data[ $row['name'] ] = array( $row['input'], $row['origin'] ?? null, $row['refused'] ?? null );
		}
		return $data;
	}

	/**
	 * Each entry is stored normalised, or refused with its kind, as in the browser.
	 *
	 * @dataProvider origins
	 *
	 * @param string      $input   What the owner typed.
	 * @param string|null $origin  What is stored.
	 * @param string|null $refused Why it is refused.
	 */
	public function test_each_origin_is_normalised_or_refused_as_in_the_browser( string $input, ?string $origin, ?string $refused ): void {
		$result = Cors::normalize_origin( $input );
		if ( null !== $origin ) {
			$this->assertSame( $origin, $result );
			$this->assertSame( $origin, Cors::normalize_origin( $origin ), 'normalising is idempotent' );
			return;
		}
		$this->assertInstanceOf( \WP_Error::class, $result );
		$this->assertSame( 'cairn_maps_origin_' . $refused, $result->get_error_code() );
		$this->assertSame( 400, $result->get_error_data()['status'] );
		$this->assertNotSame( '', $result->get_error_message() );
	}

	/**
	 * A path is refused with the origin it holds as the suggestion.
	 */
	public function test_a_path_is_refused_with_a_suggestion(): void {
		$error = Cors::normalize_origin( 'https://App.Example.com:443/maps?x=1' );
		$this->assertInstanceOf( \WP_Error::class, $error );
		$this->assertStringContainsString( 'https://app.example.com', $error->get_error_message() );
	}

	/**
	 * A list: blanks dropped, duplicates (after normalising) removed, order kept; the first bad
	 * entry refuses the whole list; too many entries, or something that is not a list of strings,
	 * are refused.
	 */
	public function test_lists(): void {
		$this->assertSame(
			array( 'https://b.example', 'http://localhost:5173', 'https://a.example' ),
			Cors::normalize_origins( array( 'https://b.example', '', '  ', 'http://localhost:5173/', 'https://a.example', 'HTTPS://B.example:443' ) )
		);
		$this->assertSame( array(), Cors::normalize_origins( array() ) );
		$this->assertSame( 'cairn_maps_origin_path', Cors::normalize_origins( array( 'https://a.example', 'https://b.example/x' ) )->get_error_code() );
		$this->assertStringContainsString( 'https://b.example/x', Cors::normalize_origins( array( 'https://a.example', 'https://b.example/x' ) )->get_error_message() );
		$this->assertSame( 'cairn_maps_origin_list', Cors::normalize_origins( 'https://a.example' )->get_error_code() );
		$this->assertSame( 'cairn_maps_origin_list', Cors::normalize_origins( array( 42 ) )->get_error_code() );
		$many = array();
		for ( $i = 0; $i <= Cors::MAX_ORIGINS; $i++ ) {
			$many[] = "https://site{$i}.example";
		}
		$this->assertSame( 'cairn_maps_origin_count', Cors::normalize_origins( $many )->get_error_code() );
		$this->assertCount( Cors::MAX_ORIGINS, Cors::normalize_origins( array_slice( $many, 1 ) ) );
	}

	/**
	 * Request Origins against the list `https://a.example`, `http://localhost:5173`: only a
	 * byte-for-byte match reads. Browsers send origins serialised (lowercase, default port
	 * omitted), which is how they are stored; anything else never comes from a browser's page on
	 * that origin.
	 *
	 * @return array<string, array{0: string, 1: bool}>
	 */
	public static function request_origins(): array {
		return array(
			'listed'                          => array( 'https://a.example', true ),
			'listed, with a port'             => array( 'http://localhost:5173', true ),
			'default port spelled out'        => array( 'https://a.example:443', false ),
			'longer host (suffix attack)'     => array( 'https://a.example.evil.com', false ),
			'other host ending like it'       => array( 'https://evil-a.example', false ),
			'subdomain'                       => array( 'https://www.a.example', false ),
			'http instead of https'           => array( 'http://a.example', false ),
			'https instead of http'           => array( 'https://localhost:5173', false ),
			'other port'                      => array( 'http://localhost:5174', false ),
			'no port'                         => array( 'http://localhost', false ),
			'trailing slash'                  => array( 'https://a.example/', false ),
			'uppercase host'                  => array( 'https://A.EXAMPLE', false ),
			'null'                            => array( 'null', false ),
			'wildcard'                        => array( '*', false ),
			'no Origin (same origin, server)' => array( '', false ),
		);
	}

	/**
	 * Restricted mode: only a listed origin is echoed; never credentials.
	 *
	 * @dataProvider request_origins
	 *
	 * @param string $origin The request's Origin.
	 * @param bool   $reads  Whether it may read.
	 */
	public function test_restricted_mode_matches_exactly( string $origin, bool $reads ): void {
		update_option( Settings::ORIGINS_OPTION, array( 'https://a.example', 'http://localhost:5173' ) );

		$this->assertTrue( Cors::is_restricted() );
		if ( $reads ) {
			$this->assertSame(
				array(
					'Access-Control-Allow-Origin'   => $origin,
					'Access-Control-Expose-Headers' => 'ETag',
				),
				Cors::public_headers( $origin )
			);
			$this->assertSame( $origin, Cors::preflight_headers( $origin )['Access-Control-Allow-Origin'] );
		} else {
			$this->assertSame( array(), Cors::public_headers( $origin ) );
			$this->assertSame( array(), Cors::preflight_headers( $origin ) );
		}
		$this->assertSame( 'Accept-Encoding, Origin', Cors::vary( 'Origin, Accept-Encoding' ), 'answers vary by Origin' );
		$this->assertSame( 'Origin', Cors::vary( '' ) );
	}

	/**
	 * Default mode: the same headers for every Origin, none, or `null`; no Vary: Origin.
	 *
	 * @dataProvider request_origins
	 *
	 * @param string $origin The request's Origin.
	 */
	public function test_default_mode_is_the_same_for_every_origin( string $origin ): void {
		$this->assertFalse( Cors::is_restricted() );
		$this->assertSame(
			array(
				'Access-Control-Allow-Origin'   => '*',
				'Access-Control-Expose-Headers' => 'ETag',
			),
			Cors::public_headers( $origin )
		);
		$this->assertSame(
			array(
				'Access-Control-Allow-Origin'  => '*',
				'Access-Control-Allow-Methods' => 'GET, HEAD, OPTIONS',
				'Access-Control-Allow-Headers' => 'If-None-Match, Content-Type',
				'Access-Control-Max-Age'       => '600',
			),
			Cors::preflight_headers( $origin )
		);
		$this->assertSame( 'Accept-Encoding', Cors::vary( 'Origin, Accept-Encoding' ) );
		$this->assertSame( 'Accept-Encoding', Cors::vary( 'accept-encoding, Accept-Encoding, origin' ) );
		$this->assertSame( '', Cors::vary( 'Origin' ) );
	}

	/**
	 * A stored list read back as it is (it was normalised on save), blanks ignored; a list of
	 * nothing but blanks is the default mode.
	 */
	public function test_allowed_origins_as_stored(): void {
		$this->assertSame( array(), Cors::allowed_origins() );
		update_option( Settings::ORIGINS_OPTION, array( 'https://a.example', 'http://localhost:5173' ) );
		$this->assertSame( array( 'https://a.example', 'http://localhost:5173' ), Cors::allowed_origins() );
		update_option( Settings::ORIGINS_OPTION, array( '', ' ' ) );
		$this->assertSame( array(), get_option( Settings::ORIGINS_OPTION ), 'blank entries are dropped on save' );
		$this->assertFalse( Cors::is_restricted() );
	}

	/**
	 * Which requests get these rules: GET, HEAD and OPTIONS on the public routes only.
	 *
	 * @return array<string, array{0: string, 1: string, 2: bool}>
	 */
	public static function requests(): array {
		return array(
			'feed'                => array( 'GET', '/cairn/v1/markers', true ),
			'feed, HEAD'          => array( 'HEAD', '/cairn/v1/markers', true ),
			'feed, preflight'     => array( 'OPTIONS', '/cairn/v1/markers', true ),
			'feed, capitals'      => array( 'GET', '/Cairn/V1/Markers', true ),
			'marker'              => array( 'GET', '/cairn/v1/markers/12', true ),
			'maps of a post'      => array( 'GET', '/cairn/v1/posts/7/maps', true ),
			'POST to the feed'    => array( 'POST', '/cairn/v1/markers', false ),
			'DELETE a marker'     => array( 'DELETE', '/cairn/v1/markers/12', false ),
			'export'              => array( 'GET', '/cairn/v1/markers/export', false ),
			'import'              => array( 'POST', '/cairn/v1/markers/import', false ),
			'import, preflight'   => array( 'OPTIONS', '/cairn/v1/markers/import', false ),
			'namespace index'     => array( 'GET', '/cairn/v1', false ),
			'longer route'        => array( 'GET', '/cairn/v1/markers/12/edit', false ),
			'core route'          => array( 'GET', '/wp/v2/posts', false ),
			'core markers route'  => array( 'GET', '/wp/v2/cairn-markers', false ),
			'feed under a prefix' => array( 'GET', '/x/cairn/v1/markers', false ),
		);
	}

	/**
	 * Only the public routes' reads get these rules.
	 *
	 * @dataProvider requests
	 *
	 * @param string $method Method.
	 * @param string $route  Route.
	 * @param bool   $public Whether the rules apply.
	 */
	public function test_which_requests_are_public( string $method, string $route, bool $public ): void {
		$this->assertSame( $public, Cors::is_public_request( $method, $route ) );
	}

	/**
	 * Wired on `rest_pre_serve_request` after core's CORS headers and before the feed is printed.
	 */
	public function test_hooks(): void {
		$cors = Plugin::instance()->get( 'cors' );
		$this->assertInstanceOf( Cors::class, $cors );
		rest_get_server();
		$priority = has_filter( 'rest_pre_serve_request', array( $cors, 'send_rest_headers' ) );
		$this->assertGreaterThan( has_filter( 'rest_pre_serve_request', 'rest_send_cors_headers' ), $priority );
		$this->assertLessThan( has_filter( 'rest_pre_serve_request', array( Plugin::instance()->get( 'markers' ), 'serve_feed' ) ), $priority );
	}

	/**
	 * A REST-served public answer carries the rules in place of core's, with Vary rewritten; a
	 * core route is left alone.
	 */
	public function test_rest_served_answers(): void {
		$marker = $this->create_marker();
		$served = $this->serve( "/cairn/v1/markers/{$marker}", array(), array( 'Origin' => 'http://localhost:5173' ) );
		$this->assertSame( 200, $served['status'] );
		$this->assertSame( '*', $served['headers']['Access-Control-Allow-Origin'] );
		$this->assertSame( 'ETag', $served['headers']['Access-Control-Expose-Headers'] );
		$this->assertArrayNotHasKey( 'Access-Control-Allow-Credentials', $served['headers'] );
		$this->assertArrayNotHasKey( 'Vary', $served['headers'] );

		$feed = $this->serve( '/cairn/v1/markers', array(), array( 'Origin' => 'http://localhost:5173' ) );
		$this->assertSame( '*', $feed['headers']['Access-Control-Allow-Origin'] );
		$this->assertSame( 'Accept-Encoding', $feed['headers']['Vary'] );

		update_option( Settings::ORIGINS_OPTION, array( 'http://localhost:5173' ) );
		$restricted = $this->serve( '/cairn/v1/markers', array(), array( 'Origin' => 'http://localhost:5173' ) );
		$this->assertSame( 'http://localhost:5173', $restricted['headers']['Access-Control-Allow-Origin'] );
		$this->assertSame( 'Accept-Encoding, Origin', $restricted['headers']['Vary'] );

		$core = $this->serve( '/wp/v2/posts', array(), array( 'Origin' => 'http://localhost:5173' ) );
		$this->assertArrayNotHasKey( 'Access-Control-Allow-Origin', $core['headers'], 'core sends its own, with header()' );
	}

	/**
	 * The feed's early 304 lets an Origin through (it is no credential) and carries the same CORS
	 * headers and Vary as the REST server's answer; a restricted list still answers early, without
	 * the echo for an unlisted origin.
	 */
	public function test_feed_early_304_lets_an_origin_through(): void {
		$this->create_marker();
		$etag    = $this->serve( '/cairn/v1/markers' )['headers']['ETag'];
		$markers = Plugin::instance()->get( 'markers' );
		$early   = static function ( string $origin ) use ( $markers, $etag ) {
			return $markers->early_not_modified_headers(
				array(
					'REQUEST_METHOD'     => 'GET',
					'HTTP_IF_NONE_MATCH' => $etag,
					'HTTP_ORIGIN'        => $origin,
				),
				array( 'rest_route' => '/cairn/v1/markers' ),
				array()
			);
		};

		$default = $early( 'http://localhost:5173' );
		$this->assertIsArray( $default, 'answered early' );
		$this->assertSame( '*', $default['Access-Control-Allow-Origin'] );
		$this->assertSame( 'ETag', $default['Access-Control-Expose-Headers'] );
		$this->assertSame( 'Accept-Encoding', $default['Vary'] );
		$this->assertArrayNotHasKey( 'Access-Control-Allow-Credentials', $default );

		update_option( Settings::ORIGINS_OPTION, array( 'http://localhost:5173' ) );
		$listed = $early( 'http://localhost:5173' );
		$this->assertSame( 'http://localhost:5173', $listed['Access-Control-Allow-Origin'] );
		$this->assertSame( 'Accept-Encoding, Origin', $listed['Vary'] );
		$unlisted = $early( 'https://evil.example' );
		$this->assertIsArray( $unlisted, 'still answered early' );
		$this->assertArrayNotHasKey( 'Access-Control-Allow-Origin', $unlisted );
		$this->assertSame( 'Accept-Encoding, Origin', $unlisted['Vary'] );
		$this->assertSame( $default['ETag'], $unlisted['ETag'] );
	}

	/**
	 * An administrator saves origins through `/wp/v2/settings`: normalised, stored, answered.
	 */
	public function test_saving_origins_through_the_settings_route(): void {
		$this->act_as( 'administrator' );
		$response = $this->rest( 'POST', '/wp/v2/settings', array( Settings::ORIGINS_OPTION => array( 'https://App.Example.com/', 'http://localhost:5173', '' ) ) );

		$this->assertSame( 200, $response->get_status() );
		$this->assertSame( array( 'https://app.example.com', 'http://localhost:5173' ), $response->get_data()[ Settings::ORIGINS_OPTION ] );
		$this->assertSame( array( 'https://app.example.com', 'http://localhost:5173' ), get_option( Settings::ORIGINS_OPTION ) );

		$cleared = $this->rest( 'POST', '/wp/v2/settings', array( Settings::ORIGINS_OPTION => array() ) );
		$this->assertSame( 200, $cleared->get_status() );
		$this->assertSame( array(), get_option( Settings::ORIGINS_OPTION ) );
		$this->assertSame( array(), $this->rest( 'GET', '/wp/v2/settings' )->get_data()[ Settings::ORIGINS_OPTION ] );
	}

	/**
	 * Refused lists: 400 with a message, the stored list unchanged, the other settings of the same
	 * request not saved either.
	 *
	 * @return array<string, array{0: mixed, 1: string}>
	 */
	public static function refused_lists(): array {
		$rows = array();
		foreach ( self::origins() as $name => $row ) {
			if ( null !== $row[2] ) {
				$rows[ $name ] = array( array( 'https://fine.example', $row[0] ), 'cairn_maps_origin_' . $row[2] );
			}
		}
		$rows['not strings']      = array( array( 1, 2 ), 'cairn_maps_origin_list' );
		$rows['too many entries'] = array( array_fill( 0, Cors::MAX_ORIGINS + 1, 'https://a.example' ), 'rest_invalid_param' );
		return $rows;
	}

	/**
	 * A refused list answers 400 and changes nothing.
	 *
	 * @dataProvider refused_lists
	 *
	 * @param mixed  $value The submitted list.
	 * @param string $code  Expected error code.
	 */
	public function test_a_refused_list_answers_400_and_is_not_stored( $value, string $code ): void {
		update_option( Settings::ORIGINS_OPTION, array( 'https://stored.example' ) );
		$this->act_as( 'administrator' );
		$response = $this->rest(
			'POST',
			'/wp/v2/settings',
			array(
				Settings::ORIGINS_OPTION => $value,
				Settings::CONSENT_OPTION => true,
			)
		);

		$this->assertSame( 400, $response->get_status() );
		$this->assertSame( $code, $response->as_error()->get_error_code() );
		$this->assertNotSame( '', $response->as_error()->get_error_message() );
		$this->assertSame( array( 'https://stored.example' ), get_option( Settings::ORIGINS_OPTION ), 'the stored list is unchanged' );
		$this->assertFalse( (bool) get_option( Settings::CONSENT_OPTION ), 'nothing else was saved' );
	}

	/**
	 * Only administrators may change the list.
	 */
	public function test_only_administrators_may_change_the_list(): void {
		update_option( Settings::ORIGINS_OPTION, array( 'https://stored.example' ) );
		$this->act_as( 'editor' );
		$response = $this->rest( 'POST', '/wp/v2/settings', array( Settings::ORIGINS_OPTION => array( 'https://other.example' ) ) );
		$this->assertSame( 403, $response->get_status() );
		$this->assertSame( array( 'https://stored.example' ), get_option( Settings::ORIGINS_OPTION ) );
	}

	/**
	 * Every other way in (update_option, options.php) normalises too, and keeps the stored list
	 * when refused.
	 */
	public function test_update_option_normalises_and_keeps_the_list_when_refused(): void {
		update_option( Settings::ORIGINS_OPTION, array( 'HTTPS://Stored.Example:443/' ) );
		$this->assertSame( array( 'https://stored.example' ), get_option( Settings::ORIGINS_OPTION ) );

		update_option( Settings::ORIGINS_OPTION, array( 'https://*.example.com' ) );
		$this->assertSame( array( 'https://stored.example' ), get_option( Settings::ORIGINS_OPTION ) );
		update_option( Settings::ORIGINS_OPTION, 'null' );
		$this->assertSame( array( 'https://stored.example' ), get_option( Settings::ORIGINS_OPTION ) );
	}
}
