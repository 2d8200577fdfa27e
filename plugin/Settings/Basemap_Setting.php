<?php
/**
 * The site's basemap setting.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Settings;

defined( 'ABSPATH' ) || exit;

use WP_Error;

/**
 * Setting `cairn_maps_basemap`: '' (automatic: Mapbox Standard with a token, else OpenFreeMap),
 * a `mapbox://styles/…` style, an https style URL, or `pmtiles://` and the URL of an archive on
 * this site. What each way in (REST, options.php, update_option) accepts, and why it refuses the
 * rest, in words an owner can act on.
 *
 * @since 0.7.0
 */
final class Basemap_Setting {

	/**
	 * The value to store, or why it is refused. Surrounding whitespace is dropped (a pasted URL).
	 *
	 * @param mixed $value The submitted value.
	 * @return string|WP_Error
	 */
	public static function validate( $value ) {
		if ( ! is_string( $value ) ) {
			return self::error( __( 'The basemap must be text: empty for automatic, a Mapbox style, an https style URL or pmtiles:// and the address of an archive on this site.', 'cairn-maps' ) );
		}
		$value = trim( $value );
		if ( '' === $value ) {
			return '';
		}
		if ( strlen( $value ) > Style_Reference::MAX_LENGTH ) {
			return self::error( __( 'The basemap address is too long (at most 2,048 characters).', 'cairn-maps' ) );
		}
		if ( 0 === stripos( $value, 'http://' ) ) {
			return self::error( __( 'Style URLs must start with https://. A map style loaded over plain http could be changed by anyone on the network between the visitor and the server; use the https address of the style.', 'cairn-maps' ) );
		}
		if ( 0 === strpos( $value, Style_Reference::PMTILES_PREFIX ) ) {
			return self::archive( $value );
		}
		if ( 0 === strpos( $value, 'mapbox://' ) && null === Style_Reference::engine_for( $value ) ) {
			return self::error( __( 'A Mapbox style looks like mapbox://styles/owner/style-id, as Mapbox Studio shows it under “Share”.', 'cairn-maps' ) );
		}
		if ( null === Style_Reference::engine_for( $value ) ) {
			return self::error( __( 'Enter a Mapbox style (mapbox://styles/…), the https address of a MapLibre style, or pmtiles:// followed by the address of a .pmtiles file on this site. Spaces, quotes and user names in the address are not allowed.', 'cairn-maps' ) );
		}
		return $value;
	}

	/**
	 * A `pmtiles://` reference, or why it is refused.
	 *
	 * @param string $value The reference.
	 * @return string|WP_Error
	 */
	private static function archive( string $value ) {
		$url = substr( $value, strlen( Style_Reference::PMTILES_PREFIX ) );
		if ( null === Style_Reference::url_parts( $url ) ) {
			return self::error( __( 'After pmtiles:// enter the full address of the archive, such as pmtiles://https://example.org/wp-content/uploads/region.pmtiles.', 'cairn-maps' ) );
		}
		if ( ! Style_Reference::is_on_site( $url ) ) {
			return self::error(
				sprintf(
					/* translators: %s: the site's address. */
					__( 'A self-hosted archive must be on this site (%s), so that maps contact no other server: upload the .pmtiles file to the media library, or enter its address on this site.', 'cairn-maps' ),
					home_url( '/' )
				)
			);
		}
		return $value;
	}

	/**
	 * A refusal of the basemap, as a REST error.
	 *
	 * @param string $message Why.
	 */
	private static function error( string $message ): WP_Error {
		return new WP_Error(
			'cairn_maps_invalid_basemap',
			$message,
			array(
				'status' => 400,
				'params' => array( Settings::BASEMAP_OPTION => $message ),
			)
		);
	}
}
