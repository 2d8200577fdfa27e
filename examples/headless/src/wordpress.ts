/**
 * Anonymous reads of a WordPress site's REST API, from another origin. Answers enter as `unknown`
 * and leave as the types below; the maps of the `cairn_maps` field go through the package's own
 * parser (`parsePostMaps`), the same one `fetchPostMaps()` uses.
 */
import { parsePostMaps } from '@cairn-maps/map';
import type { PostMap } from '@cairn-maps/map';

/** A page that has maps, for the home's list. */
export interface PageSummary {
	id: number;
	/** Plain text (decoded from `title.rendered`). */
	title: string;
	/** The page's address on the WordPress site. */
	link: string;
	/** How many maps it has. */
	mapCount: number;
}

/** What the home shows. */
export interface SitePages {
	pages: PageSummary[];
	/** False when no page carries `cairn_maps`: the site's Cairn Maps is too old (or inactive). */
	hasMapsField: boolean;
}

/** One page with its content and maps. */
export interface PageWithMaps {
	id: number;
	/** Plain text (decoded from `title.rendered`). */
	title: string;
	/** `content.rendered`: the site's HTML, map blocks as the theme page renders them. */
	contentHtml: string;
	/** `cairn_maps`, or null when the site does not give the field. */
	maps: PostMap[] | null;
}

/** The site answered, but with an error status or not as WordPress would (status 0). */
export class SiteError extends Error {
	readonly status: number;

	constructor( status: number, message: string ) {
		super( message );
		this.name = 'SiteError';
		this.status = status;
	}
}

function isRecord( value: unknown ): value is Record< string, unknown > {
	return (
		typeof value === 'object' && value !== null && ! Array.isArray( value )
	);
}

/**
 * The address of a REST route. `?rest_route=` works whatever the site's permalinks are.
 *
 * @param site   The site's address.
 * @param route  The route, e.g. `/wp/v2/pages`.
 * @param params Further query parameters.
 */
export function restUrl(
	site: string,
	route: string,
	params: Record< string, string > = {}
): string {
	const url = new URL( site );
	url.search = '';
	url.hash = '';
	url.searchParams.set( 'rest_route', route );
	for ( const [ name, value ] of Object.entries( params ) ) {
		url.searchParams.set( name, value );
	}
	return url.href;
}

/**
 * `title.rendered` is HTML (entities such as `&#8217;`, sometimes tags). It is decoded to plain
 * text with an inert DOMParser document (no script runs, no image loads there) and shown as React
 * text: the page's heading and the home's links never carry the site's markup.
 *
 * @param html A rendered title.
 */
export function htmlToText( html: string ): string {
	return (
		new DOMParser().parseFromString( html, 'text/html' ).body.textContent ??
		''
	).trim();
}

function renderedText( field: unknown ): string {
	return isRecord( field ) && typeof field.rendered === 'string'
		? field.rendered
		: '';
}

function readMaps( id: number, field: unknown ): PostMap[] | null {
	return Array.isArray( field )
		? parsePostMaps( { post: id, maps: field } ).maps
		: null;
}

/**
 * GETs a route without credentials (no cookies: the reads are anonymous, as a visitor's are).
 *
 * @param url    The address.
 * @param signal Aborts the request.
 */
async function getJson( url: string, signal: AbortSignal ): Promise< unknown > {
	// Rejects (a TypeError) when the site cannot be reached or refuses this origin: to a script
	// a refused connection and a refused cross-origin read look the same.
	const response = await fetch( url, {
		credentials: 'omit',
		headers: { Accept: 'application/json' },
		signal,
	} );
	const body: unknown = await response.json().catch( () => null );
	if ( ! response.ok ) {
		throw new SiteError(
			response.status,
			isRecord( body ) && typeof body.message === 'string'
				? body.message
				: `The site answered ${ response.status }.`
		);
	}
	if ( body === null ) {
		throw new SiteError( 0, 'The site did not answer with JSON.' );
	}
	return body;
}

/**
 * The site's published pages that have maps (the first 100 pages).
 *
 * @param site   The site's address.
 * @param signal Aborts the request.
 */
export async function fetchPagesWithMaps(
	site: string,
	signal: AbortSignal
): Promise< SitePages > {
	const body = await getJson(
		restUrl( site, '/wp/v2/pages', {
			per_page: '100',
			_fields: 'id,title,link,cairn_maps',
		} ),
		signal
	);
	if ( ! Array.isArray( body ) ) {
		throw new SiteError(
			0,
			'The site did not answer with a list of pages.'
		);
	}
	let hasMapsField = body.length === 0;
	const pages: PageSummary[] = [];
	for ( const item of body ) {
		if ( ! isRecord( item ) || typeof item.id !== 'number' ) {
			continue;
		}
		const maps = readMaps( item.id, item.cairn_maps );
		hasMapsField ||= maps !== null;
		if ( maps && maps.length > 0 ) {
			pages.push( {
				id: item.id,
				title: htmlToText( renderedText( item.title ) ),
				link: typeof item.link === 'string' ? item.link : '',
				mapCount: maps.length,
			} );
		}
	}
	return { pages, hasMapsField };
}

/**
 * One page with its content and maps.
 *
 * @param site   The site's address.
 * @param id     The page's id.
 * @param signal Aborts the request.
 */
export async function fetchPage(
	site: string,
	id: number,
	signal: AbortSignal
): Promise< PageWithMaps > {
	const body = await getJson(
		restUrl( site, `/wp/v2/pages/${ id }`, {
			_fields: 'id,title,content,cairn_maps',
		} ),
		signal
	);
	if ( ! isRecord( body ) ) {
		throw new SiteError( 0, 'The site did not answer with a page.' );
	}
	return {
		id,
		title: htmlToText( renderedText( body.title ) ),
		contentHtml: renderedText( body.content ),
		maps: readMaps( id, body.cairn_maps ),
	};
}
