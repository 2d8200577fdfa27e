<?php
/**
 * The map block's "Block spacing" setting, as the gap between the map and its places.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Blocks;

defined( 'ABSPATH' ) || exit;

/**
 * WordPress serializes a block's `spacing.blockGap` only through the layout support, which the map
 * block does not use (its layout is its own: the places beside the map or below it). The gap the
 * editor chose becomes the wrapper's `--cairn-gap` custom property instead, which the stylesheet
 * uses between the map and its places. Only a spacing preset or a plain length gets through.
 *
 * @since 0.3.0
 */
final class Block_Gap {

	/**
	 * The CSS declaration of the block's gap (`--cairn-gap:…;`), or '' when none or not valid.
	 *
	 * @since 0.3.0
	 *
	 * @param array<string, mixed> $attributes Block attributes (`style.spacing.blockGap`).
	 */
	public static function declaration( array $attributes ): string {
		$value = self::css_value( $attributes['style']['spacing']['blockGap'] ?? null );
		return '' === $value ? '' : '--cairn-gap:' . $value . ';';
	}

	/**
	 * A gap as CSS: `var:preset|spacing|40` → `var(--wp--preset--spacing--40)`, a length as it is,
	 * anything else ''.
	 *
	 * @since 0.3.0
	 *
	 * @param mixed $gap The stored value.
	 */
	public static function css_value( $gap ): string {
		if ( ! is_string( $gap ) || strlen( $gap ) > 64 ) {
			return '';
		}
		if ( 1 === preg_match( '/^var:preset\|spacing\|([a-z0-9-]+)$/D', $gap, $preset ) ) {
			return 'var(--wp--preset--spacing--' . $preset[1] . ')';
		}
		if ( 1 === preg_match( '/^(?:0|\d{1,5}(?:\.\d{1,4})?(?:px|em|rem|%|vw|vh|vmin|vmax|ch|ex|cqi|cqw))$/D', $gap ) ) {
			return $gap;
		}
		return '';
	}
}
