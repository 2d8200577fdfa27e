/**
 * The app's own address is its whole state: which WordPress site it reads (`site`), which access
 * token overrides the site's (`token`, in a development build only), and what it shows (`page` +
 * `way`, `post`, or the home).
 * Query parameters rather than paths, so the built app works from any folder and the static
 * server needs no routes.
 *
 * `?site=` only chooses among the sites the app was built for (`VITE_CAIRN_SITE`,
 * `VITE_CAIRN_SITES`): the app puts a site's HTML in its own page, so a link must not be able to
 * point it at a site its owner does not trust. Any other site is refused before a request is made.
 *
 * `?token=` is read by the dev server's build only (`import.meta.env.DEV`): in a built app a
 * crafted link would otherwise run every visitor's maps on someone else's Mapbox account. A built
 * app's own token is `VITE_MAPBOX_TOKEN`, chosen when it is built.
 */
import { useEffect, useMemo, useState } from 'react';

/** The site `npm start` runs. */
export const DEFAULT_SITE = 'http://localhost:8888';

/** The two ways of showing a page's maps. */
export type Way = 'components' | 'html';

export type Route =
	| { view: 'home' }
	| { view: 'page'; id: number; way: Way }
	| { view: 'post'; id: number }
	| { view: 'unknown' };

export interface AppAddress {
	/**
	 * The WordPress site's address (with the folder WordPress lives in, if any), or '' if the
	 * address asked for an invalid site or one the app was not built for.
	 */
	site: string;
	/** What the address asked for when it is not a site address, to say so. */
	invalidSite: string;
	/** What the address asked for when it is a site the app was not built for, to say so. */
	refusedSite: string;
	/** The sites the app was built for (normalised addresses); the first is the default. */
	sites: string[];
	/**
	 * A public Mapbox token to use instead of the site's (`?token=` in a development build, else
	 * `VITE_MAPBOX_TOKEN`), or undefined.
	 */
	token: string | undefined;
	route: Route;
}

/** The build-time defaults (`import.meta.env`), passed in so the parsing stays testable. */
export interface AddressDefaults {
	/** The default site (also allowed). */
	VITE_CAIRN_SITE?: string;
	/** Further sites `?site=` may name, separated by spaces or commas. */
	VITE_CAIRN_SITES?: string;
	VITE_MAPBOX_TOKEN?: string;
	/**
	 * Whether this is the dev server's build (Vite's `import.meta.env.DEV`, `false` in every
	 * `vite build`): only then may the address give the token.
	 */
	DEV?: boolean;
}

const ID = /^[1-9]\d{0,9}$/;

function parseId( value: string | null ): number | null {
	return value !== null && ID.test( value ) ? Number( value ) : null;
}

/**
 * An http(s) address without query or fragment, its path ending in `/`, or null. The slash
 * matters for a site in a folder: `https://example.com/blog?rest_route=…` is often redirected to
 * `/blog/` by the web server, and such a redirect carries no CORS headers.
 *
 * @param value A candidate site address.
 */
function parseSite( value: string ): string | null {
	try {
		const url = new URL( value );
		if ( url.protocol !== 'http:' && url.protocol !== 'https:' ) {
			return null;
		}
		url.search = '';
		url.hash = '';
		if ( ! url.pathname.endsWith( '/' ) ) {
			url.pathname += '/';
		}
		return url.href;
	} catch {
		return null;
	}
}

/**
 * The sites the app was built for, normalised, without repeats: `VITE_CAIRN_SITE` (else the
 * first of `VITE_CAIRN_SITES`, else the `npm start` site) first, then `VITE_CAIRN_SITES`. An
 * entry that is no http(s) address is left out.
 *
 * @param defaults Build-time values.
 */
export function allowedSites( defaults: AddressDefaults ): string[] {
	const listed = ( defaults.VITE_CAIRN_SITES ?? '' )
		.split( /[\s,]+/ )
		.filter( Boolean );
	const first = defaults.VITE_CAIRN_SITE || listed[ 0 ] || DEFAULT_SITE;
	const sites = [ first, ...listed ]
		.map( parseSite )
		.filter( ( site ): site is string => site !== null );
	return [ ...new Set( sites ) ];
}

/**
 * Reads the app's address.
 *
 * @param search   `location.search`.
 * @param defaults Build-time defaults.
 */
export function readAddress(
	search: string,
	defaults: AddressDefaults
): AppAddress {
	const params = new URLSearchParams( search );
	const sites = allowedSites( defaults );
	const asked =
		params.get( 'site' ) || sites[ 0 ] || defaults.VITE_CAIRN_SITE || '';
	const parsed = parseSite( asked );
	const site = parsed !== null && sites.includes( parsed ) ? parsed : '';
	const asToken = defaults.DEV === true ? params.get( 'token' ) : null;
	const token = asToken || defaults.VITE_MAPBOX_TOKEN || undefined;

	let route: Route = { view: 'home' };
	if ( params.has( 'page' ) ) {
		const id = parseId( params.get( 'page' ) );
		route = id
			? {
					view: 'page',
					id,
					way: params.get( 'way' ) === 'html' ? 'html' : 'components',
				}
			: { view: 'unknown' };
	} else if ( params.has( 'post' ) ) {
		const id = parseId( params.get( 'post' ) );
		route = id ? { view: 'post', id } : { view: 'unknown' };
	}
	return {
		site,
		invalidSite: parsed === null ? asked : '',
		refusedSite: parsed !== null && ! site ? parsed : '',
		sites,
		token,
		route,
	};
}

/**
 * The address of a view of this app, keeping the `site` and (in a development build) the `token`
 * the visitor gave in the current address (build-time defaults need no repeating).
 *
 * @param route   The view.
 * @param current The current `location.search`.
 * @param dev     Whether this is the dev server's build (`import.meta.env.DEV`).
 */
export function hrefFor( route: Route, current: string, dev = false ): string {
	const kept = new URLSearchParams( current );
	const params = new URLSearchParams();
	if ( route.view === 'page' ) {
		params.set( 'page', String( route.id ) );
		params.set( 'way', route.way );
	} else if ( route.view === 'post' ) {
		params.set( 'post', String( route.id ) );
	}
	for ( const name of dev ? [ 'site', 'token' ] : [ 'site' ] ) {
		const value = kept.get( name );
		if ( value ) {
			params.set( name, value );
		}
	}
	const query = params.toString();
	return query ? `?${ query }` : window.location.pathname;
}

/** Changes the address without reloading, as a link would. */
export function navigate( href: string ): void {
	window.history.pushState( null, '', href );
	window.dispatchEvent( new PopStateEvent( 'popstate' ) );
	window.scrollTo( 0, 0 );
}

/**
 * The current address, updated on back/forward and on `navigate()`.
 *
 * @param defaults Build-time defaults.
 */
export function useAddress( defaults: AddressDefaults ): AppAddress {
	const [ search, setSearch ] = useState( () => window.location.search );
	useEffect( () => {
		const onChange = () => setSearch( window.location.search );
		window.addEventListener( 'popstate', onChange );
		return () => window.removeEventListener( 'popstate', onChange );
	}, [] );
	const { VITE_CAIRN_SITE, VITE_CAIRN_SITES, VITE_MAPBOX_TOKEN, DEV } =
		defaults;
	return useMemo(
		() =>
			readAddress( search, {
				VITE_CAIRN_SITE,
				VITE_CAIRN_SITES,
				VITE_MAPBOX_TOKEN,
				DEV,
			} ),
		[ search, VITE_CAIRN_SITE, VITE_CAIRN_SITES, VITE_MAPBOX_TOKEN, DEV ]
	);
}
