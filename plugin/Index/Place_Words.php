<?php
/**
 * The words of a place's title, folded as the runtime folds search text.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

/**
 * Folding and word splitting for the place index: the runtime's `words.ts` rule (accents removed,
 * lower case), so that a query folded by either side finds the same places. Words are runs of
 * letters and digits, cut at WORD_MAX characters, at most MAX_WORDS a place.
 *
 * @since 0.5.0
 */
final class Place_Words {

	/**
	 * Longest word kept, in characters (the column's width).
	 */
	public const WORD_MAX = 32;

	/**
	 * Most words kept of one title.
	 */
	public const MAX_WORDS = 64;

	/**
	 * Lower case without accents: "Café Ålesund" → "cafe alesund".
	 *
	 * @param string $text Any text.
	 */
	public static function fold( string $text ): string {
		return mb_strtolower( remove_accents( $text ), 'UTF-8' );
	}

	/**
	 * The distinct folded words of a text, in order of appearance.
	 *
	 * @param string $text Any text (a plain title).
	 * @return string[]
	 */
	public static function words( string $text ): array {
		if ( ! preg_match_all( '/[\p{L}\p{N}]+/u', self::fold( $text ), $matches ) ) {
			return array();
		}
		$words = array();
		foreach ( $matches[0] as $word ) {
			$word           = mb_substr( $word, 0, self::WORD_MAX, 'UTF-8' );
			$words[ $word ] = true;
			if ( count( $words ) >= self::MAX_WORDS ) {
				break;
			}
		}
		return array_map( 'strval', array_keys( $words ) );
	}
}
