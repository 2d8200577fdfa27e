<?php
/**
 * The access token through `/wp/v2/settings` and every other way in.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Settings;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Plugin;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Tests\TestCase;
use WP_REST_Request;

/**
 * Roles, token kinds and the stored value, through the real REST server; options.php-style writes
 * through update_option(); and tokens that arrive by a filter or a database edit.
 *
 * @since 0.1.0
 */
final class Settings_RestTest extends TestCase {

	/**
	 * A public token already stored, to prove refusals leave it alone.
	 */
	private const STORED = 'pk.eyJ1Ijoic3RvcmVkLWFjY291bnQifQ.c3RvcmVkLXNpZw';

	/**
	 * The first token of a kind in the shared table.
	 *
	 * @param string $kind public, secret, temporary, malformed, empty.
	 * @throws \LogicException When the table has no such token.
	 */
	private static function token( string $kind ): string {
		foreach ( Token_RulesTest::tokens() as $row ) {
			if ( $kind === $row[1] ) {
				return $row[0];
			}
		}
		throw new \LogicException( esc_html( "no $kind token in the table" ) );
	}

	/**
	 * Refused tokens of the table: name => [ token, kind ].
	 *
	 * @return array<string, array{0: string, 1: string}>
	 */
	public static function refused_tokens(): array {
		$rows = array();
		foreach ( Token_RulesTest::tokens() as $name => $row ) {
			if ( in_array( $row[1], array( 'secret', 'temporary', 'malformed' ), true ) ) {
				$rows[ $name ] = array( $row[0], $row[1] );
			}
		}
		return $rows;
	}

	/**
	 * Stores a value without the sanitizer, as a database edit or an old version would.
	 *
	 * @param string $value Raw value.
	 */
	private function store_raw_token( string $value ): void {
		remove_all_filters( 'sanitize_option_' . Settings::TOKEN_OPTION );
		update_option( Settings::TOKEN_OPTION, $value );
	}

	/**
	 * Who may write the token.
	 *
	 * @return array<string, array{0: string, 1: int}>
	 */
	public static function roles(): array {
		return array(
			'anonymous'     => array( 'anonymous', 401 ),
			'subscriber'    => array( 'subscriber', 403 ),
			'editor'        => array( 'editor', 403 ),
			'administrator' => array( 'administrator', 200 ),
		);
	}

	/**
	 * Only administrators may write the token.
	 *
	 * @dataProvider roles
	 *
	 * @param string $role   Role.
	 * @param int    $status Expected status.
	 */
	public function test_only_administrators_may_write_the_token( string $role, int $status ): void {
		update_option( Settings::TOKEN_OPTION, self::STORED );
		$this->act_as( $role );
		$token    = self::token( 'public' );
		$response = $this->rest( 'POST', '/wp/v2/settings', array( Settings::TOKEN_OPTION => $token ) );

		$this->assertSame( $status, $response->get_status() );
		$this->assertSame( 200 === $status ? $token : self::STORED, get_option( Settings::TOKEN_OPTION ) );
		if ( 200 === $status ) {
			$this->assertSame( $token, $response->get_data()[ Settings::TOKEN_OPTION ] );
		}
	}

	/**
	 * Only administrators may read the settings.
	 *
	 * @dataProvider roles
	 *
	 * @param string $role   Role.
	 * @param int    $status Expected status.
	 */
	public function test_only_administrators_may_read_the_settings( string $role, int $status ): void {
		update_option( Settings::TOKEN_OPTION, self::STORED );
		$this->act_as( $role );
		$response = $this->rest( 'GET', '/wp/v2/settings' );

		$this->assertSame( $status, $response->get_status() );
		if ( 200 === $status ) {
			$data = $response->get_data();
			$this->assertSame( self::STORED, $data[ Settings::TOKEN_OPTION ] );
			$this->assertFalse( $data[ Settings::CONSENT_OPTION ] );
			$this->assertFalse( $data[ Settings::DELETE_DATA_OPTION ] );
			$this->assertSame( 'mapbox://styles/mapbox/standard', $data[ Settings::DEFAULTS_OPTION ]['mapStyle'] );
		} else {
			$this->assertStringNotContainsString( self::STORED, (string) wp_json_encode( $response->get_data() ) );
		}
	}

	/**
	 * A refused token answers 400 with its message and is not stored.
	 *
	 * @dataProvider refused_tokens
	 *
	 * @param string $token Token.
	 * @param string $kind  Kind.
	 */
	public function test_a_refused_token_answers_400_and_is_not_stored( string $token, string $kind ): void {
		update_option( Settings::TOKEN_OPTION, self::STORED );
		$this->act_as( 'administrator' );
		$response = $this->rest(
			'POST',
			'/wp/v2/settings',
			array(
				Settings::TOKEN_OPTION   => $token,
				Settings::CONSENT_OPTION => true,
			)
		);

		$this->assertSame( 400, $response->get_status() );
		$this->assertSame( 'cairn_maps_token_' . $kind, $response->as_error()->get_error_code() );
		$this->assertSame( self::STORED, get_option( Settings::TOKEN_OPTION ), 'the stored token is unchanged' );
		$this->assertFalse( get_option( Settings::CONSENT_OPTION ), 'nothing else in the request was stored either' );
		$body = (string) wp_json_encode( $response->get_data() );
		$this->assertStringNotContainsString( trim( $token ), $body, 'the answer never echoes the token' );
		foreach ( array_filter( explode( '.', trim( $token ) ), static fn( $part ) => strlen( $part ) > 8 ) as $part ) {
			$this->assertStringNotContainsString( $part, $body );
		}
	}

	/**
	 * The refusal explains why a secret token may not be used.
	 */
	public function test_the_refusal_explains_why_a_secret_token_may_not_be_used(): void {
		$this->act_as( 'administrator' );
		$response = $this->rest( 'POST', '/wp/v2/settings', array( Settings::TOKEN_OPTION => self::token( 'secret' ) ) );
		$this->assertSame( 400, $response->get_status() );
		$this->assertStringContainsString( 'Only a public Mapbox token', $response->get_data()['message'] );
		$this->assertStringContainsString( 'It was not saved', $response->get_data()['message'] );
	}

	/**
	 * A public token is stored trimmed; an empty one removes the token.
	 */
	public function test_a_public_token_is_stored_trimmed_and_an_empty_one_removes_it(): void {
		$this->act_as( 'administrator' );
		$token = self::token( 'public' );
		$this->assertSame( 200, $this->rest( 'POST', '/wp/v2/settings', array( Settings::TOKEN_OPTION => "  $token\n" ) )->get_status() );
		$this->assertSame( $token, get_option( Settings::TOKEN_OPTION ) );

		$this->assertSame( 200, $this->rest( 'POST', '/wp/v2/settings', array( Settings::TOKEN_OPTION => '' ) )->get_status() );
		$this->assertSame( '', get_option( Settings::TOKEN_OPTION ) );
	}

	/**
	 * Someone without the right gets 401/403 even for a refused token: values are not looked at.
	 */
	public function test_permissions_are_checked_before_the_value(): void {
		$this->act_as( 'anonymous' );
		$this->assertSame( 401, $this->rest( 'POST', '/wp/v2/settings', array( Settings::TOKEN_OPTION => self::token( 'secret' ) ) )->get_status() );
		$this->act_as( 'editor' );
		$this->assertSame( 403, $this->rest( 'POST', '/wp/v2/settings', array( Settings::TOKEN_OPTION => self::token( 'secret' ) ) )->get_status() );
	}

	/**
	 * A token in the query string or a form body is checked too.
	 */
	public function test_a_token_in_the_query_string_or_a_form_body_is_checked_too(): void {
		update_option( Settings::TOKEN_OPTION, self::STORED );
		$this->act_as( 'administrator' );

		$request = new WP_REST_Request( 'POST', '/wp/v2/settings' );
		$request->set_query_params( array( Settings::TOKEN_OPTION => self::token( 'secret' ) ) );
		$this->assertSame( 400, rest_get_server()->dispatch( $request )->get_status() );

		$request = new WP_REST_Request( 'PUT', '/wp/v2/settings' );
		$request->set_body_params( array( Settings::TOKEN_OPTION => self::token( 'temporary' ) ) );
		$this->assertSame( 400, rest_get_server()->dispatch( $request )->get_status() );

		$this->assertSame( self::STORED, get_option( Settings::TOKEN_OPTION ) );
	}

	/**
	 * Routes match case-insensitively: another spelling reaches the same controller and the check.
	 */
	public function test_another_spelling_of_the_route_is_checked_too(): void {
		update_option( Settings::TOKEN_OPTION, self::STORED );
		$this->act_as( 'administrator' );
		$response = $this->rest( 'POST', '/wp/v2/Settings', array( Settings::TOKEN_OPTION => self::token( 'secret' ) ) );
		$this->assertSame( 400, $response->get_status() );
		$this->assertSame( self::STORED, get_option( Settings::TOKEN_OPTION ) );
	}

	/**
	 * Writes that bypass REST (options.php, update_option) keep the previous token.
	 */
	public function test_other_ways_in_keep_the_previous_token(): void {
		// What options.php has loaded when it saves.
		require_once ABSPATH . 'wp-admin/includes/template.php';
		update_option( Settings::TOKEN_OPTION, self::STORED );
		foreach ( array( 'secret', 'temporary', 'malformed' ) as $kind ) {
			update_option( Settings::TOKEN_OPTION, self::token( $kind ) );
			$this->assertSame( self::STORED, get_option( Settings::TOKEN_OPTION ), $kind );
		}
		update_option( Settings::TOKEN_OPTION, array( 'pk' ) );
		$this->assertSame( self::STORED, get_option( Settings::TOKEN_OPTION ), 'not a string' );

		// options.php sends null for a field its form did not include.
		update_option( Settings::TOKEN_OPTION, null );
		$this->assertSame( self::STORED, get_option( Settings::TOKEN_OPTION ), 'null' );

		$codes = wp_list_pluck( get_settings_errors( Settings::TOKEN_OPTION ), 'code' );
		$this->assertContains( 'cairn_maps_token_secret', $codes, 'the classic screens show the refusal' );
	}

	/**
	 * A refused token stored by a database edit is never shown, and the maps refuse it.
	 */
	public function test_a_refused_token_from_the_database_is_never_shown(): void {
		$secret = self::token( 'secret' );
		$this->store_raw_token( $secret );
		$this->act_as( 'administrator' );

		$response = $this->rest( 'GET', '/wp/v2/settings' );
		$this->assertSame( '', $response->get_data()[ Settings::TOKEN_OPTION ] );

		$settings = Plugin::instance()->get( 'settings' );
		$this->assertSame( 'secret-token', $settings->stored_token_problem() );
		$this->assertSame(
			array(
				'token'   => '',
				'account' => '',
				'error'   => 'secret-token',
			),
			$settings->map_token()
		);

		// A Mapbox map shows why (the default style draws OpenFreeMap without a usable token).
		$html = do_blocks( '<!-- wp:cairn/map {"mapStyle":"mapbox://styles/mapbox/outdoors-v12"} /-->' );
		$this->assertStringContainsString( 'data-cairn-error="secret-token"', $html );
		$this->assertStringNotContainsString( trim( $secret ), $html );
		$this->assertStringNotContainsString( trim( $secret ), do_blocks( '<!-- wp:cairn/map /-->' ) );
	}

	/**
	 * A secret token supplied by a filter never reaches a page.
	 */
	public function test_a_secret_token_from_a_filter_never_reaches_a_page(): void {
		$secret = trim( self::token( 'secret' ) );
		add_filter( 'cairn_maps_access_token', static fn() => $secret );
		// A Mapbox map shows why (the default style draws OpenFreeMap without a usable token).
		$mapbox = '<!-- wp:cairn/map {"mapStyle":"mapbox://styles/mapbox/outdoors-v12"} /-->';
		$html   = do_blocks( $mapbox );
		$this->assertStringContainsString( 'data-cairn-error="secret-token"', $html );
		$this->assertStringNotContainsString( $secret, $html );
		$this->assertStringNotContainsString( $secret, do_blocks( '<!-- wp:cairn/map /-->' ) );

		add_filter( 'cairn_maps_access_token', static fn() => 'pk.not-a-real-token' );
		$html = do_blocks( $mapbox );
		$this->assertStringContainsString( 'data-cairn-error="invalid-token"', $html );
		$this->assertStringNotContainsString( 'pk.not-a-real-token', $html );
	}

	/**
	 * The public token reaches the page with its account known.
	 */
	public function test_the_public_token_reaches_the_page(): void {
		update_option( Settings::TOKEN_OPTION, self::token( 'public' ) );
		$token = Plugin::instance()->get( 'settings' )->map_token();
		$this->assertSame( self::token( 'public' ), $token['token'] );
		$this->assertSame( 'cairn-demo', $token['account'] );
		$this->assertSame( '', $token['error'] );
	}

	/**
	 * Every setting is registered with a schema in `/wp/v2/settings`.
	 */
	public function test_every_setting_is_registered_with_a_schema(): void {
		$settings = get_registered_settings();
		foreach ( array( Settings::TOKEN_OPTION, Settings::DEFAULTS_OPTION, Settings::CONSENT_OPTION, Settings::DELETE_DATA_OPTION ) as $name ) {
			$this->assertArrayHasKey( $name, $settings );
			$this->assertNotEmpty( $settings[ $name ]['show_in_rest'], $name );
			$this->assertIsCallable( $settings[ $name ]['sanitize_callback'], $name );
		}
		$this->assertFalse( get_option( Settings::CONSENT_OPTION ), 'consent is off by default' );
		$this->assertFalse( get_option( Settings::DELETE_DATA_OPTION ), 'data is kept by default' );
	}
}
