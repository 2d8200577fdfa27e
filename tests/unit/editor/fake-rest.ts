/**
 * The network boundary of the editor's component tests: an api-fetch middleware that answers
 * every request the way WordPress's REST API would (core's post type and taxonomy lists, the
 * markers and marker groups), records what was asked, and never calls the real fetch.
 * The stores (core-data) and components above it are WordPress's own.
 */
import apiFetch, { type APIFetchMiddleware } from '@wordpress/api-fetch';

import metadata from '../../../src/blocks/map/block.json';
import type { MapBlockAttributes } from '../../../src/blocks/map/types';

export interface RestRequest {
	method: string;
	/** The path without the query (`/wp/v2/cairn-markers/12`). */
	route: string;
	query: URLSearchParams;
	data: Record< string, unknown > | undefined;
}

export interface RestAnswer {
	status?: number;
	body: unknown;
}

/** Answers a request, or undefined to leave it to the defaults. */
export type Route = ( request: RestRequest ) => RestAnswer | undefined;

export const GROUPS = [
	{ id: 7, slug: 'cafes', name: 'Cafés' },
	{ id: 8, slug: 'parks', name: 'Parks' },
];

const TYPES = {
	cairn_marker: {
		slug: 'cairn_marker',
		name: 'Markers',
		rest_base: 'cairn-markers',
		rest_namespace: 'wp/v2',
		taxonomies: [ 'cairn_marker_group' ],
	},
};

const TAXONOMIES = {
	cairn_marker_group: {
		slug: 'cairn_marker_group',
		name: 'Marker groups',
		rest_base: 'cairn-marker-groups',
		rest_namespace: 'wp/v2',
	},
};

function defaults( request: RestRequest ): RestAnswer | undefined {
	switch ( request.route ) {
		case '/wp/v2/types':
			return { body: TYPES };
		case '/wp/v2/taxonomies':
			return { body: TAXONOMIES };
		case '/wp/v2/cairn-marker-groups':
			return { body: GROUPS };
	}
	return undefined;
}

/** What core-data reads of a response's headers (jsdom has no `Headers`). */
function headers( values: Record< string, string > ) {
	return {
		get: ( name: string ) => values[ name.toLowerCase() ] || null,
	};
}

/**
 * Installs the fake server for each test of the file; returns the requests it answered in the
 * current test, in order.
 * @param route Answers of the test, asked before the defaults.
 */
export function fakeRest( route: Route = () => undefined ): RestRequest[] {
	const requests: RestRequest[] = [];
	const middleware: APIFetchMiddleware = async ( options ) => {
		const url = new URL(
			options.path ?? options.url ?? '',
			'https://x.test'
		);
		const request: RestRequest = {
			method: ( options.method ?? 'GET' ).toUpperCase(),
			route: url.pathname,
			query: url.searchParams,
			data: options.data as Record< string, unknown > | undefined,
		};
		requests.push( request );
		const { status = 200, body } = route( request ) ??
			defaults( request ) ?? {
				status: 404,
				body: { code: 'rest_no_route', message: 'No route.' },
			};
		if ( status >= 400 ) {
			throw body;
		}
		if ( options.parse === false ) {
			const total = Array.isArray( body ) ? String( body.length ) : '';
			return {
				ok: true,
				status,
				headers: headers( {
					'x-wp-total': total,
					'x-wp-totalpages': total ? '1' : '',
					allow: 'GET, POST, PUT, PATCH, DELETE',
				} ),
				json: async () => body,
			};
		}
		return body;
	};
	beforeEach( () => {
		requests.length = 0;
		apiFetch.use( middleware );
	} );
	afterEach( () => {
		apiFetch.unregister( middleware );
	} );
	return requests;
}

/** The block's attributes with block.json's defaults, and `overrides`. */
export function blockAttributes(
	overrides: Partial< MapBlockAttributes > = {}
): MapBlockAttributes {
	return {
		...( Object.fromEntries(
			Object.entries( metadata.attributes ).map( ( [ name, spec ] ) => [
				name,
				( spec as { default?: unknown } ).default,
			] )
		) as MapBlockAttributes ),
		...overrides,
	};
}
