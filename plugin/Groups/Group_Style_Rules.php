<?php
/**
 * The rules a group's looks follow.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Groups;

defined( 'ABSPATH' ) || exit;

use WP_Error;

/**
 * What a valid colour and icon of a marker group are, with the messages that refuse the others:
 * a colour is `#rrggbb` or '' (the default colour), an icon is 0 (the default symbol) or a PNG or
 * JPEG attachment. Every way in (REST, the term screens, any other meta write) asks these same
 * rules, so an invalid value is never stored.
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
