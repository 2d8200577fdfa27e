/**
 * Counts in the page's language: "10,000 places" in English, "10.000 Orte" in German.
 * @since 0.10.0
 */

/**
 * A whole number as the page's language writes it; its plain digits where the browser's Intl
 * does not know the language.
 * @param count A count.
 * @param lang  The page's language (BCP 47), or undefined for the browser's.
 */
export function formatCount( count: number, lang?: string ): string {
	try {
		return new Intl.NumberFormat( lang, {
			maximumFractionDigits: 0,
		} ).format( count );
	} catch {
		return String( Math.round( count ) );
	}
}
