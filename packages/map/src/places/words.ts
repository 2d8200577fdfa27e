/**
 * What a search matches: query words folded (case and accents), the one rule of the places
 * list (engine.ts) and of the shapes on the map (shapes/layers.ts).
 */

/**
 * Lower case without accents: "Café Ålesund" → "cafe alesund".
 * @param text Any text.
 */
export function fold( text: string ): string {
	return text.normalize( 'NFKD' ).replace( /\p{M}/gu, '' ).toLowerCase();
}

/** Query words, folded; at most 16 of at most 100 characters each. */
export function queryWords( search: string ): string[] {
	return fold( search.slice( 0, 1000 ) )
		.split( /[\s,.;:!?()"'«»“”‘’/\\-]+/u )
		.filter( Boolean )
		.slice( 0, 16 )
		.map( ( word ) => word.slice( 0, 100 ) );
}
