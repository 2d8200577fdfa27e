<?php
/**
 * The public-token rules, shared with the settings screen through limits.json.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Settings;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Support\Limits;
use WP_Error;

/**
 * Classifies a Mapbox access token without ever echoing it back.
 *
 * A Mapbox token is `<scope>.<base64url JSON payload>.<signature>`; the payload carries the account
 * name in `u`. Only public (`pk`) tokens may reach a browser.
 *
 * @since 0.1.0
 */
final class Token_Rules {

	/**
	 * Parses a token.
	 *
	 * @param string $token The candidate token (trimmed by the caller or here).
	 * @return array{account: string}|WP_Error The account name, or why the token is refused.
	 */
	public static function parse( string $token ) {
		$token = trim( $token );
		if ( 1 !== preg_match( '/' . Limits::get( 'token.pattern' ) . '/', $token, $parts ) ) {
			return self::error( 'malformed' );
		}
		if ( 'sk' === $parts[1] ) {
			return self::error( 'secret' );
		}
		if ( Limits::get( 'token.publicPrefix' ) !== $parts[1] ) {
			return self::error( 'temporary' );
		}
		// Base64url, possibly unpadded.
		$json    = base64_decode( strtr( $parts[2], '-_', '+/' ), true ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_decode
		$payload = is_string( $json ) ? json_decode( $json, true ) : null;
		if ( ! is_array( $payload ) || ! isset( $payload['u'] ) || ! is_string( $payload['u'] ) || '' === $payload['u'] ) {
			return self::error( 'malformed' );
		}
		return array( 'account' => $payload['u'] );
	}

	/**
	 * The error for a kind of refused token. Never contains the token.
	 *
	 * @param string $kind One of malformed, secret, temporary.
	 */
	public static function error( string $kind ): WP_Error {
		switch ( $kind ) {
			case 'secret':
				$message = __( 'Only a public Mapbox token (starting with "pk.") may be used. This is a secret token ("sk."): anyone could copy it from your pages and use your Mapbox account. It was not saved.', 'cairn-maps' );
				break;
			case 'temporary':
				$message = __( 'This is a temporary Mapbox token ("tk."), which expires within hours. Paste a public token (starting with "pk.") instead. It was not saved.', 'cairn-maps' );
				break;
			default:
				$message = __( 'This does not look like a Mapbox access token. A public token starts with "pk." followed by two dot-separated parts; copy it whole from your Mapbox account page. It was not saved.', 'cairn-maps' );
		}
		return new WP_Error( 'cairn_maps_token_' . $kind, $message, array( 'status' => 400 ) );
	}
}
