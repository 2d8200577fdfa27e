<?php
/**
 * A place's "Directions" link in the list the server renders.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Blocks;

defined( 'ABSPATH' ) || exit;

/**
 * The link from an entry of the server's list of places (what remains without JavaScript) to the
 * visitor's own map app, as the runtime builds it in the popup and the places panel
 * (`packages/map/src/directions.ts`, `directions-link.ts`): the same addresses, the same
 * accessible name, a new tab for the web apps. Both sides are checked against
 * `tests/fixtures/directions-urls.json`. A plain link: nothing is sent before the visitor follows it.
 *
 * @since 0.9.0
 */
final class Directions_Link {

	/**
	 * The address of the directions to a point in an app, or '' for none (`none`, an unknown app,
	 * a point out of range).
	 *
	 * @param string $app One of Directions_Setting::apps().
	 * @param float  $lat Latitude.
	 * @param float  $lng Longitude.
	 */
	public static function url( string $app, float $lat, float $lng ): string {
		if ( ! is_finite( $lat ) || ! is_finite( $lng ) || abs( $lat ) > 90 || abs( $lng ) > 180 ) {
			return '';
		}
		$point = self::degrees( $lat ) . ',' . self::degrees( $lng );
		switch ( $app ) {
			case 'osm':
				return 'https://www.openstreetmap.org/directions?route=;' . $point;
			case 'google':
				return 'https://www.google.com/maps/dir/?api=1&destination=' . $point;
			case 'apple':
				return 'https://maps.apple.com/?daddr=' . $point;
			case 'geo':
				return 'geo:' . $point;
			default:
				return '';
		}
	}

	/**
	 * The entry's link, escaped, or '' when the map shows none.
	 *
	 * @param string $app   The map's app.
	 * @param string $title The place's name (plain text).
	 * @param float  $lat   Latitude.
	 * @param float  $lng   Longitude.
	 */
	public static function html( string $app, string $title, float $lat, float $lng ): string {
		$url = self::url( $app, $lat, $lng );
		if ( '' === $url ) {
			return '';
		}
		$name = '' !== $title ? $title : __( '(no title)', 'cairn-maps' );
		return sprintf(
			'<a class="cairn-map-directions wp-block-cairn-map__directions" href="%1$s" aria-label="%2$s"%3$s>%4$s</a>',
			// esc_url() drops schemes outside its list, and `geo:` is not in WordPress's.
			esc_url( $url, array( 'https', 'geo' ) ),
			esc_attr(
				'geo' === $app
					/* translators: %s: place name. */
					? sprintf( __( 'Directions to %s', 'cairn-maps' ), $name )
					/* translators: %s: place name. */
					: sprintf( __( 'Directions to %s (opens in a new tab)', 'cairn-maps' ), $name )
			),
			'geo' === $app ? '' : ' target="_blank" rel="noopener noreferrer"',
			esc_html__( 'Directions', 'cairn-maps' )
		);
	}

	/**
	 * A coordinate as the apps read it: at most 6 decimals, no exponent, no trailing zeros.
	 *
	 * @param float $value Degrees.
	 */
	private static function degrees( float $value ): string {
		$text = rtrim( rtrim( sprintf( '%.6F', $value ), '0' ), '.' );
		return '-0' === $text ? '0' : $text;
	}
}
