/**
 * Reads a post's maps from a WordPress site with Cairn Maps: `GET /cairn/v1/posts/<id>/maps`.
 * Works from another origin (the route answers CORS requests without credentials) and during
 * server-side rendering (it only needs `fetch`).
 */
import { MAP_ERROR_CODES } from './errors';
import type { PostMap, PostMapPlaces, PostMaps } from './types';

export interface FetchPostMapsOptions {
	/** The password of a password-protected post; without it such a post has no maps. */
	password?: string;
	signal?: AbortSignal;
	/** A `fetch` to use instead of the global one (a framework's caching fetch, say). */
	fetch?: typeof fetch;
	/**
	 * More options for the request, passed on to `fetch` as they are: `cache`, or in a Next.js
	 * Server Component `next: { revalidate: 300 }` (how long the answer may be reused).
	 */
	init?: RequestInit;
}

/** The route answered with an error: `status` and WordPress' `code` (`rest_forbidden`, …). */
export class PostMapsError extends Error {
	readonly status: number;
	readonly code: string;

	constructor( status: number, code: string, message: string ) {
		super( message );
		this.name = 'PostMapsError';
		this.status = status;
		this.code = code;
	}
}

function isRecord( value: unknown ): value is Record< string, unknown > {
	return (
		typeof value === 'object' && value !== null && ! Array.isArray( value )
	);
}

/**
 * The address of the route on a site. `?rest_route=` works whatever the site's permalinks are.
 *
 * @param siteUrl The site's address (`https://example.com`, or with the folder WordPress is in).
 * @param postId  The post's id.
 */
export function postMapsUrl( siteUrl: string, postId: number ): string {
	const url = new URL( siteUrl );
	url.search = '';
	url.hash = '';
	// `/blog?rest_route=` is often redirected to `/blog/`, and a redirect carries no CORS headers.
	if ( ! url.pathname.endsWith( '/' ) ) {
		url.pathname += '/';
	}
	url.searchParams.set( 'rest_route', `/cairn/v1/posts/${ postId }/maps` );
	return url.href;
}

/**
 * A map's first page of places from untrusted input: entries without a positive id, a title or
 * finite coordinates are left out; none when the site sent none (an older plugin).
 *
 * @param value The `places` of a map.
 */
export function parsePlaces( value: unknown ): PostMapPlaces {
	const input = isRecord( value ) ? value : {};
	const items = Array.isArray( input.items )
		? input.items.filter( isRecord ).flatMap( ( item ) =>
				Number.isInteger( item.id ) &&
				( item.id as number ) > 0 &&
				typeof item.title === 'string' &&
				Number.isFinite( item.lng ) &&
				Number.isFinite( item.lat )
					? [
							{
								id: item.id as number,
								title: item.title.slice( 0, 200 ),
								lng: item.lng as number,
								lat: item.lat as number,
								// A post's page (http(s) only).
								...( typeof item.link === 'string' &&
								/^https?:\/\//i.test( item.link )
									? { link: item.link }
									: {} ),
							},
						]
					: []
			)
		: [];
	const count = ( number: unknown, fallback: number ) =>
		Number.isInteger( number ) && ( number as number ) > 0
			? ( number as number )
			: fallback;
	return {
		items,
		total: Math.max( items.length, count( input.total, 0 ) ),
		page: count( input.page, 1 ),
		perPage: count( input.perPage, 50 ),
	};
}

/**
 * Checks the shape of an answer: maps without an object config are left out, an unknown error
 * code reads as ''. The configs themselves are validated by `createMap()`.
 *
 * @param value The decoded JSON.
 */
export function parsePostMaps( value: unknown ): PostMaps {
	if ( ! isRecord( value ) || ! Array.isArray( value.maps ) ) {
		throw new PostMapsError(
			0,
			'cairn_invalid_response',
			'The site did not answer with the maps of a post.'
		);
	}
	const maps = value.maps.filter( isRecord ).flatMap( ( map ): PostMap[] => {
		if ( ! isRecord( map.config ) || ! isRecord( map.attributes ) ) {
			return [];
		}
		const error =
			MAP_ERROR_CODES.find( ( code ) => code === map.error ) ?? '';
		return [
			{
				id: typeof map.id === 'string' ? map.id : '',
				attributes:
					map.attributes as unknown as PostMap[ 'attributes' ],
				config: map.config,
				error,
				places: parsePlaces( map.places ),
			},
		];
	} );
	return {
		post: typeof value.post === 'number' ? value.post : 0,
		modified: typeof value.modified === 'string' ? value.modified : '',
		maps,
	};
}

/**
 * Fetches the maps of a post.
 *
 * @param siteUrl The site's address.
 * @param postId  The post's id.
 * @param options Password, abort signal, fetch and its options.
 * @throws PostMapsError when the site refuses (a draft: 401) or the post does not exist (404).
 */
export async function fetchPostMaps(
	siteUrl: string,
	postId: number,
	options: FetchPostMapsOptions = {}
): Promise< PostMaps > {
	if ( ! Number.isInteger( postId ) || postId <= 0 ) {
		throw new PostMapsError(
			404,
			'rest_post_invalid_id',
			'The post id must be a positive whole number.'
		);
	}
	const url = new URL( postMapsUrl( siteUrl, postId ) );
	if ( options.password ) {
		url.searchParams.set( 'password', options.password );
	}
	const response = await ( options.fetch ?? fetch )( url.href, {
		...options.init,
		headers: { Accept: 'application/json' },
		signal: options.signal ?? options.init?.signal,
	} );
	const body: unknown = await response.json().catch( () => null );
	if ( ! response.ok ) {
		const error = isRecord( body ) ? body : {};
		throw new PostMapsError(
			response.status,
			typeof error.code === 'string' ? error.code : 'http_error',
			typeof error.message === 'string'
				? error.message
				: `The site answered ${ response.status }.`
		);
	}
	return parsePostMaps( body );
}
