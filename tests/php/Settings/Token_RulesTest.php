<?php
/**
 * The server's token rules, held to the same table as the settings screen's check.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Settings;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Settings\Token_Rules;
use Cairn\Maps\Tests\TestCase;

/**
 * Token_Rules::parse() and Settings::token_error() against tests/fixtures/tokens.json, the table
 * tests/unit/token.test.ts runs through checkToken().
 *
 * @since 0.1.0
 */
final class Token_RulesTest extends TestCase {

	/**
	 * The shared table.
	 *
	 * @return array<string, array{0: string, 1: string, 2: string}> name => [ token, kind, account ].
	 */
	public static function tokens(): array {
		$json = file_get_contents( dirname( __DIR__, 2 ) . '/fixtures/tokens.json' ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a local fixture.
		$rows = json_decode( (string) $json, true );
		$data = array();
		foreach ( $rows['tokens'] as $row ) {
			$data[ $row['name'] ] = array( $row['token'], $row['kind'], $row['account'] ?? '' );
		}
		return $data;
	}

	/**
	 * Each token gets the same verdict as in the browser.
	 *
	 * @dataProvider tokens
	 *
	 * @param string $token   Token.
	 * @param string $kind    Expected kind.
	 * @param string $account Expected account for public tokens.
	 */
	public function test_each_token_gets_the_same_verdict_as_in_the_browser( string $token, string $kind, string $account ): void {
		$error = Settings::token_error( $token );
		if ( 'public' === $kind ) {
			$this->assertNull( $error );
			$this->assertSame( array( 'account' => $account ), Token_Rules::parse( $token ) );
			return;
		}
		if ( 'empty' === $kind ) {
			$this->assertNull( $error, 'an empty token clears the setting' );
			return;
		}
		$this->assertInstanceOf( \WP_Error::class, $error );
		$this->assertSame( 'cairn_maps_token_' . $kind, $error->get_error_code() );
		$this->assertSame( 400, $error->get_error_data()['status'] );
		$this->assertStringNotContainsString( trim( $token ), $error->get_error_message(), 'the message never repeats the token' );
	}

	/**
	 * A value that is not a string is malformed.
	 */
	public function test_a_value_that_is_not_a_string_is_malformed(): void {
		foreach ( array( 42, array( 'pk.a.b' ), true ) as $value ) {
			$error = Settings::token_error( $value );
			$this->assertInstanceOf( \WP_Error::class, $error );
			$this->assertSame( 'cairn_maps_token_malformed', $error->get_error_code() );
		}
	}

	/**
	 * Each refusal has its own message.
	 */
	public function test_each_refusal_has_its_own_message(): void {
		$this->assertStringContainsString( 'Only a public Mapbox token', Token_Rules::error( 'secret' )->get_error_message() );
		$this->assertStringContainsString( 'anyone could copy it', Token_Rules::error( 'secret' )->get_error_message() );
		$this->assertStringContainsString( 'temporary Mapbox token', Token_Rules::error( 'temporary' )->get_error_message() );
		$this->assertStringContainsString( 'does not look like a Mapbox access token', Token_Rules::error( 'malformed' )->get_error_message() );
	}
}
