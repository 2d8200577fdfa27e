<?php
/**
 * The words of a place's title, folded as the runtime folds search text.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Support\Limits;
use Normalizer;

/**
 * Folding and word splitting for the place index: the runtime's rule (packages/map/src/places/
 * words.ts), so that the small map, the tiled map and the shapes on both mean the same by a
 * search. tests/fixtures/search-words.json holds the vectors both sides pass.
 *
 * - Folding: compatibility decomposition (NFKD), combining marks removed, lower case, then the
 *   letters without a decomposition as their base letters (ø → o, ß → ss, æ → ae, ı → i…) and a
 *   final sigma as a sigma. No locale (remove_accents() spells "ü" as "ue" on a German site and
 *   the runtime cannot know that). Without PHP's intl extension, remove_accents() stands in for
 *   the decomposition: Latin folds the same, other scripts keep their marks.
 * - Words: runs of letters and digits, each cut at `search.wordLength` characters (the width of
 *   `cairn_place_words.word`); a title keeps its first `search.maxTitleWords` distinct words, a
 *   query its first `search.maxWords` from its first `search.maxLength` characters.
 *
 * @since 0.5.0
 */
final class Place_Words {

	/**
	 * Letters that NFKD leaves whole, as their base letters (words.ts has the same table).
	 */
	private const LETTERS = array(
		'ß' => 'ss',
		'æ' => 'ae',
		'œ' => 'oe',
		'ø' => 'o',
		'đ' => 'd',
		'ð' => 'd',
		'ħ' => 'h',
		'ı' => 'i',
		'ł' => 'l',
		'ŧ' => 't',
		'þ' => 'th',
		'ĸ' => 'k',
		'ŋ' => 'n',
		'ς' => 'σ',
	);

	/**
	 * Lower case without accents: "Café Ålesund" → "cafe alesund", "Ørsta" → "orsta".
	 *
	 * @param string $text Any text (UTF-8).
	 */
	public static function fold( string $text ): string {
		$decomposed = class_exists( Normalizer::class ) ? Normalizer::normalize( $text, Normalizer::FORM_KD ) : false;
		$text       = false === $decomposed ? remove_accents( $text ) : (string) preg_replace( '/\p{M}+/u', '', $decomposed );
		return strtr( mb_strtolower( $text, 'UTF-8' ), self::LETTERS );
	}

	/**
	 * The distinct folded words of a text, in order of appearance.
	 *
	 * @param string   $text Any text (a plain title).
	 * @param int|null $max  Most words kept (default `search.maxTitleWords`).
	 * @return string[]
	 */
	public static function words( string $text, ?int $max = null ): array {
		$max = $max ?? (int) Limits::get( 'search.maxTitleWords' );
		if ( ! preg_match_all( '/[\p{L}\p{N}]+/u', self::fold( $text ), $matches ) ) {
			return array();
		}
		$length = (int) Limits::get( 'search.wordLength' );
		$words  = array();
		foreach ( $matches[0] as $word ) {
			$words[ mb_substr( $word, 0, $length, 'UTF-8' ) ] = true;
			if ( count( $words ) >= $max ) {
				break;
			}
		}
		return array_map( 'strval', array_keys( $words ) );
	}

	/**
	 * A search's words: at most `search.maxWords`, from its first `search.maxLength` characters.
	 *
	 * @param string $search What the visitor typed.
	 * @return string[]
	 */
	public static function query_words( string $search ): array {
		$clipped = mb_substr( trim( $search ), 0, (int) Limits::get( 'search.maxLength' ), 'UTF-8' );
		return self::words( $clipped, (int) Limits::get( 'search.maxWords' ) );
	}
}
