/**
 * The WordPress site this front end reads, and the token its maps may use instead of the site's.
 * Read on the server when a page renders (never at build time, never in the browser): set
 * CAIRN_SITE (and CAIRN_MAPBOX_TOKEN) for `next start`. Visitors cannot choose another site.
 */

/** The site `npm start` runs at the repository's root. */
export const DEFAULT_SITE = 'http://localhost:8888/';

/**
 * The site's address: CAIRN_SITE, else the `npm start` site.
 *
 * @throws Error when CAIRN_SITE is not an http(s) address.
 */
export function siteUrl(): string {
	const value = process.env.CAIRN_SITE || DEFAULT_SITE;
	let url: URL;
	try {
		url = new URL( value );
	} catch {
		throw new Error( `CAIRN_SITE is not an address: “${ value }”.` );
	}
	if ( url.protocol !== 'http:' && url.protocol !== 'https:' ) {
		throw new Error(
			`CAIRN_SITE must be an http(s) address: “${ value }”.`
		);
	}
	return url.href;
}

/** A public Mapbox token for this front end's maps (CAIRN_MAPBOX_TOKEN), else undefined. */
export function mapboxToken(): string | undefined {
	return process.env.CAIRN_MAPBOX_TOKEN || undefined;
}
