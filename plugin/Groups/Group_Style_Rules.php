<?php
/**
 * The rules a group's looks follow.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Groups;

use Cairn\Maps\Support\Limits;

defined( 'ABSPATH' ) || exit;

use WP_Error;

/**
 * What a valid colour and icon of a marker group are, with the messages that refuse the others:
 * a colour is `#rrggbb` or '' (the default colour), an icon is 0 (the default symbol) or a PNG or
 * JPEG attachment. The looks of the group's routes and areas: a line colour (`#rrggbb`, or '' for
 * the group's colour), a line width (whole pixels, 1 to 12) and a fill opacity (0 to 1). Every way
 * in (REST, the term screens, any other meta write) asks these same rules, so an invalid value is
 * never stored.
 *
 * @since 0.2.0
 */
class Group_Style_Rules {

	/**
	 * Icon mime types the map can draw.
	 */
	public const ICON_MIME_TYPES = array( 'image/png', 'image/jpeg' );

	/**
	 * Longest side, in pixels, of the icon size the map asks for (WordPress picks the closest
	 * generated size with the same proportions, else the full image).
	 */
	public const ICON_PIXELS = 64;

	/**
	 * Line width of a group's routes and area outlines when the group sets none, in pixels
	 * (limits.json `groupLine.width`, which the runtime reads too).
	 *
	 * @since 0.5.0
	 */
	public static function line_width_default(): int {
		return (int) Limits::get( 'groupLine.width' );
	}

	/**
	 * Narrowest line a group may draw, in pixels (limits.json `groupLine.minWidth`).
	 *
	 * @since 0.5.0
	 */
	public static function line_width_min(): int {
		return (int) Limits::get( 'groupLine.minWidth' );
	}

	/**
	 * Widest line a group may draw, in pixels (limits.json `groupLine.maxWidth`).
	 *
	 * @since 0.5.0
	 */
	public static function line_width_max(): int {
		return (int) Limits::get( 'groupLine.maxWidth' );
	}

	/**
	 * Fill opacity of a group's areas when the group sets none, 0 transparent to 1 opaque
	 * (limits.json `groupLine.fillOpacity`).
	 *
	 * @since 0.5.0
	 */
	public static function fill_opacity_default(): float {
		return (float) Limits::get( 'groupLine.fillOpacity' );
	}

	/**
	 * Checks a colour.
	 *
	 * @param mixed $value Value.
	 * @return string|WP_Error The colour (`#rrggbb` in lower case, or ''), or why it is refused.
	 */
	public static function check_color( $value ) {
		$color = is_string( $value ) ? strtolower( trim( $value ) ) : null;
		if ( null === $color || ( '' !== $color && 1 !== preg_match( '/^#[0-9a-f]{6}$/D', $color ) ) ) {
			return new WP_Error( 'cairn_maps_invalid_color', self::color_message(), array( 'status' => 400 ) );
		}
		return $color;
	}

	/**
	 * Checks an icon: 0 (none) or a PNG or JPEG attachment.
	 *
	 * @param mixed $value Value.
	 * @return int|WP_Error The attachment id (0 for none), or why it is refused.
	 */
	public static function check_icon( $value ) {
		$id = null;
		if ( is_int( $value ) ) {
			$id = $value;
		} elseif ( is_string( $value ) && 1 === preg_match( '/^\s*\d{1,19}\s*$/', $value ) ) {
			$id = (int) trim( $value );
		}
		if ( 0 === $id ) {
			return 0;
		}
		if ( null === $id || $id < 0 || ! self::is_icon_image( $id ) ) {
			return new WP_Error( 'cairn_maps_invalid_icon', self::icon_message(), array( 'status' => 400 ) );
		}
		return $id;
	}

	/**
	 * Checks a line colour: `#rrggbb`, or '' for the group's colour.
	 *
	 * @since 0.5.0
	 *
	 * @param mixed $value Value.
	 * @return string|WP_Error The colour (`#rrggbb` in lower case, or ''), or why it is refused.
	 */
	public static function check_line_color( $value ) {
		$color = self::check_color( $value );
		return is_wp_error( $color ) ? new WP_Error( 'cairn_maps_invalid_line_color', self::line_color_message(), array( 'status' => 400 ) ) : $color;
	}

	/**
	 * Checks a line width: a whole number of pixels from 1 to 12 (an integer, a float without a
	 * fraction, or such a number written in digits).
	 *
	 * @since 0.5.0
	 *
	 * @param mixed $value Value.
	 * @return int|WP_Error The width, or why it is refused.
	 */
	public static function check_line_width( $value ) {
		$number = self::number( $value );
		if ( null === $number || floor( $number ) !== $number || $number < self::line_width_min() || $number > self::line_width_max() ) {
			return new WP_Error( 'cairn_maps_invalid_line_width', self::line_width_message(), array( 'status' => 400 ) );
		}
		return (int) $number;
	}

	/**
	 * Checks a fill opacity: a number from 0 to 1.
	 *
	 * @since 0.5.0
	 *
	 * @param mixed $value Value.
	 * @return float|WP_Error The opacity, or why it is refused.
	 */
	public static function check_fill_opacity( $value ) {
		$number = self::number( $value );
		if ( null === $number || $number < 0.0 || $number > 1.0 ) {
			return new WP_Error( 'cairn_maps_invalid_fill_opacity', self::fill_opacity_message(), array( 'status' => 400 ) );
		}
		// Two decimals are all an opacity needs (a slider's step), and keep configs short.
		return round( $number, 2 );
	}

	/**
	 * A finite number from an integer, a float or a decimal number written in digits (as forms and
	 * term meta hand it over), else null: booleans, lists, `1e3`, `0x1f` and `NaN` are no numbers
	 * here.
	 *
	 * @param mixed $value Value.
	 */
	private static function number( $value ): ?float {
		if ( is_int( $value ) || ( is_float( $value ) && is_finite( $value ) ) ) {
			return (float) $value;
		}
		if ( is_string( $value ) && 1 === preg_match( '/^\s*[+-]?(\d{1,6}(\.\d{0,12})?|\.\d{1,12})\s*$/D', $value ) ) {
			return (float) trim( $value );
		}
		return null;
	}

	/**
	 * Why a line colour is refused.
	 *
	 * @since 0.5.0
	 */
	public static function line_color_message(): string {
		return __( 'The line colour must be a hex colour such as #1e73be, or empty to use the group colour.', 'cairn-maps' );
	}

	/**
	 * Why a line width is refused.
	 *
	 * @since 0.5.0
	 */
	public static function line_width_message(): string {
		return sprintf(
			/* translators: 1: narrowest line width, 2: widest line width, in pixels. */
			__( 'The line width must be a whole number of pixels from %1$d to %2$d.', 'cairn-maps' ),
			self::line_width_min(),
			self::line_width_max()
		);
	}

	/**
	 * Why a fill opacity is refused.
	 *
	 * @since 0.5.0
	 */
	public static function fill_opacity_message(): string {
		return __( 'The fill opacity must be a number from 0 (transparent) to 1 (opaque), such as 0.25.', 'cairn-maps' );
	}

	/**
	 * Why a colour is refused.
	 */
	public static function color_message(): string {
		return __( 'The group colour must be a hex colour such as #1e73be, or empty for the default colour.', 'cairn-maps' );
	}

	/**
	 * Why an icon is refused (the wording of the map's `image-type` error).
	 */
	public static function icon_message(): string {
		return __( 'A supported PNG or JPEG image is required.', 'cairn-maps' );
	}

	/**
	 * Whether an attachment is a PNG or JPEG image.
	 *
	 * @param int $id Attachment id.
	 */
	public static function is_icon_image( int $id ): bool {
		$post = get_post( $id );
		return $post instanceof \WP_Post && 'attachment' === $post->post_type
			&& in_array( get_post_mime_type( $post ), self::ICON_MIME_TYPES, true );
	}

	/**
	 * URL of an icon at about 64 pixels (the closest generated size of the same proportions, else
	 * the full image), or '' when the attachment is not a PNG or JPEG image.
	 *
	 * @param int $id Attachment id.
	 */
	public static function icon_url( int $id ): string {
		if ( $id <= 0 || ! self::is_icon_image( $id ) ) {
			return '';
		}
		$url = wp_get_attachment_image_url( $id, array( self::ICON_PIXELS, self::ICON_PIXELS ) );
		return is_string( $url ) ? $url : '';
	}
}
