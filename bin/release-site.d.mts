/**
 * Types of bin/release-site.mjs for the TypeScript specs that start a clean site.
 */
export interface ReleaseSite {
	/** http://localhost:<port> */
	url: string;
	port: number;
	/** The Playground server (leader of its process group). */
	pid: number;
	/** .cache/release-sites/<port>: the site's core copy, log and pid. */
	folder: string;
	/** Stops the server and removes its folder. */
	stop: () => Promise< void >;
}

export interface ReleaseSiteOptions {
	/** Its own port, e.g. 8891 (the shared e2e site has 8889). */
	port: number;
	/** Locales whose core translations (and the plugin translation fixtures) to install. */
	languages?: string[];
	/** Locale to make the site language at install (WPLANG). */
	siteLanguage?: string;
	/** Give up starting after this long (default 180 s). */
	timeoutMs?: number;
	log?: ( message: string ) => void;
}

/** The administrator Playground's installer creates. */
export const ADMIN: { username: string; password: string };

export function startReleaseSite(
	options: ReleaseSiteOptions
): Promise< ReleaseSite >;

export function stopReleaseSite(
	port: number,
	log?: ( message: string ) => void
): Promise< void >;
