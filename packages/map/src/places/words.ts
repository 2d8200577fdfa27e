/**
 * What a search matches, the one rule of the places list and clusters (engine.ts), the shapes on
 * the map (shapes/load-shapes.ts) and, in PHP, the place index (plugin/Index/Place_Words.php):
 * tests/fixtures/search-words.json holds the vectors both sides pass.
 *
 * - Folding: compatibility decomposition (NFKD), combining marks removed, lower case, then the
 *   letters that have no decomposition spelled as their base letters (ø → o, ß → ss, æ → ae,
 *   ı → i…) and a final sigma as a sigma. No locale: a German site folds "Müller" as a Danish
 *   one does.
 * - Words: runs of letters and digits, each cut at `search.wordLength` characters (code points);
 *   a title keeps its first `search.maxTitleWords` distinct words, a query its first
 *   `search.maxWords`, from its first `search.maxLength` characters.
 * - Matching: every query word starts a word of the place (its title or one of its groups' names):
 *   "caf" finds "Café de Flore", "afe" does not, on a small map and on a tiled one alike.
 */
import { LIMITS } from '../limits';

/** Letters that NFKD leaves whole, as their base letters (the PHP side has the same table). */
const LETTERS: Record< string, string > = {
	ß: 'ss',
	æ: 'ae',
	œ: 'oe',
	ø: 'o',
	đ: 'd',
	ð: 'd',
	ħ: 'h',
	ı: 'i',
	ł: 'l',
	ŧ: 't',
	þ: 'th',
	ĸ: 'k',
	ŋ: 'n',
	ς: 'σ',
};
const LETTER_PATTERN = new RegExp(
	`[${ Object.keys( LETTERS ).join( '' ) }]`,
	'gu'
);

/**
 * Lower case without accents: "Café Ålesund" → "cafe alesund", "Ørsta" → "orsta".
 * @param text Any text.
 */
export function fold( text: string ): string {
	return text
		.normalize( 'NFKD' )
		.replace( /\p{M}/gu, '' )
		.toLowerCase()
		.replace( LETTER_PATTERN, ( letter ) => LETTERS[ letter ]! );
}

/**
 * The distinct folded words of a text, in order of appearance.
 * @param text Any text.
 * @param max  Most words kept.
 */
export function words(
	text: string,
	max: number = LIMITS.search.maxTitleWords
): string[] {
	const found = new Set< string >();
	for ( const match of fold( text ).matchAll( /[\p{L}\p{N}]+/gu ) ) {
		found.add(
			Array.from( match[ 0 ] )
				.slice( 0, LIMITS.search.wordLength )
				.join( '' )
		);
		if ( found.size >= max ) {
			break;
		}
	}
	return [ ...found ];
}

/**
 * A search cut to its first `search.maxLength` characters (code points: never half a surrogate
 * pair, which an address could not encode), as the server takes it.
 * @param search What the visitor typed.
 */
export function clipSearch( search: string ): string {
	return Array.from( search ).slice( 0, LIMITS.search.maxLength ).join( '' );
}

/**
 * A search's words: folded, at most `search.maxWords`, from its first `search.maxLength`
 * characters.
 * @param search What the visitor typed.
 */
export function queryWords( search: string ): string[] {
	return words( clipSearch( search.trim() ), LIMITS.search.maxWords );
}

/**
 * What a place's words are searched in: its title's words and its groups' names' words, each
 * preceded by a space, so that `matches()` finds a word's start with one `includes`.
 * @param title      The place's title.
 * @param groupNames The names of its groups.
 */
export function searchText( title: string, groupNames: string[] ): string {
	const all = [
		words( title ),
		...groupNames.map( ( name ) => words( name ) ),
	];
	return ' ' + all.flat().join( ' ' );
}

/**
 * Whether every query word starts a word of a place.
 * @param text  The place's `searchText()`.
 * @param query The search's `queryWords()`.
 */
export function matches( text: string, query: string[] ): boolean {
	return query.every( ( word ) => text.includes( ' ' + word ) );
}
