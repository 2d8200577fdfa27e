/**
 * fetchPostMaps: the address it asks, what it makes of the site's answers. The fetch is the
 * caller's (as a framework's would be): here one that answers what each test says. That the
 * package needs nothing but `fetch` on a server is server-render.test.ts's part.
 */
import {
	fetchPostMaps,
	PostMapsError,
	postMapsUrl,
} from '../../../packages/map/src/fetch-post-maps';

/**
 * What fetchPostMaps reads of a response.
 * @param status
 * @param body   The decoded JSON; undefined: a body that is not JSON.
 */
function response( status: number, body?: unknown ) {
	return {
		ok: status >= 200 && status < 300,
		status,
		json: async () => {
			if ( body === undefined ) {
				throw new SyntaxError( 'Unexpected token < in JSON' );
			}
			return body;
		},
	};
}

function answer( status: number, body?: unknown ) {
	const calls: string[] = [];
	const fetcher = ( async ( url: string ) => {
		calls.push( url );
		return response( status, body );
	} ) as unknown as typeof fetch;
	return { fetcher, calls };
}

describe( 'fetchPostMaps', () => {
	it.each( [
		[
			'https://example.com',
			'https://example.com/?rest_route=%2Fcairn%2Fv1%2Fposts%2F7%2Fmaps',
		],
		[
			'https://example.com/blog',
			'https://example.com/blog/?rest_route=%2Fcairn%2Fv1%2Fposts%2F7%2Fmaps',
		],
		[
			'https://example.com/blog/',
			'https://example.com/blog/?rest_route=%2Fcairn%2Fv1%2Fposts%2F7%2Fmaps',
		],
		[
			'http://localhost:8888/?p=1#x',
			'http://localhost:8888/?rest_route=%2Fcairn%2Fv1%2Fposts%2F7%2Fmaps',
		],
	] )( 'asks %s through ?rest_route=', ( site, expected ) => {
		expect( postMapsUrl( site, 7 ) ).toBe( expected );
	} );

	it( 'returns the maps, dropping malformed entries', async () => {
		const { fetcher, calls } = answer( 200, {
			post: 7,
			modified: '2026-11-24T01:00:00Z',
			maps: [
				{
					id: 'map-1',
					attributes: { zoom: 3 },
					config: { zoom: 3 },
					error: '',
				},
				{ id: 'map-2', attributes: {}, config: 'nope' },
				{ id: 'map-3', config: { zoom: 3 } },
				{ id: 'map-4', attributes: [ 'zoom' ], config: { zoom: 3 } },
				'map-5',
				{ id: 'hut', attributes: {}, config: {}, error: 'zoom-range' },
				{ id: 'x', attributes: {}, config: {}, error: '<script>' },
			],
		} );
		const result = await fetchPostMaps( 'https://example.com', 7, {
			fetch: fetcher,
			password: 'open sesame',
		} );
		expect( calls[ 0 ] ).toContain( 'password=open+sesame' );
		expect( result.post ).toBe( 7 );
		expect( result.maps.map( ( map ) => [ map.id, map.error ] ) ).toEqual( [
			[ 'map-1', '' ],
			[ 'hut', 'zoom-range' ],
			[ 'x', '' ],
		] );
	} );

	it( "passes fetch options on (Next.js revalidate) and reads each map's places", async () => {
		const inits: unknown[] = [];
		const fetcher = ( async ( _url: string, init: unknown ) => {
			inits.push( init );
			return response( 200, {
				post: 7,
				maps: [
					{
						id: 'map-1',
						attributes: {},
						config: {},
						error: '',
						places: {
							items: [
								{
									id: 3,
									title: 'Hut',
									lng: 7.25,
									lat: 46.5,
								},
								{ id: -1, title: 'bad', lng: 0, lat: 0 },
								{
									id: 4,
									title: 'No place',
									lng: 'x',
									lat: 0,
								},
							],
							total: 80,
							page: 1,
							perPage: 50,
						},
					},
					{ id: 'map-2', attributes: {}, config: {}, error: '' },
				],
			} );
		} ) as unknown as typeof fetch;
		const result = await fetchPostMaps( 'https://example.com', 7, {
			fetch: fetcher,
			init: {
				cache: 'force-cache',
				next: { revalidate: 300 },
			} as RequestInit,
		} );
		expect( inits[ 0 ] ).toMatchObject( {
			cache: 'force-cache',
			next: { revalidate: 300 },
			headers: { Accept: 'application/json' },
		} );
		expect( result.maps.map( ( map ) => map.places ) ).toEqual( [
			{
				items: [ { id: 3, title: 'Hut', lng: 7.25, lat: 46.5 } ],
				total: 80,
				page: 1,
				perPage: 50,
			},
			// From a site without the key: no places, nothing invented.
			{ items: [], total: 0, page: 1, perPage: 50 },
		] );
	} );

	it( 'hands the abort signal to fetch: an aborted request rejects', async () => {
		const seen: Array< RequestInit | undefined > = [];
		// A fetch that honours its signal, as the platform's does.
		const fetcher = ( async ( _url: string, init?: RequestInit ) => {
			seen.push( init );
			if ( init?.signal?.aborted ) {
				throw new DOMException(
					'The request was aborted.',
					'AbortError'
				);
			}
			return response( 200, { post: 7, maps: [] } );
		} ) as unknown as typeof fetch;
		const controller = new AbortController();
		controller.abort();
		await expect(
			fetchPostMaps( 'https://example.com', 7, {
				fetch: fetcher,
				signal: controller.signal,
			} )
		).rejects.toMatchObject( { name: 'AbortError' } );
		expect( seen[ 0 ]?.signal ).toBe( controller.signal );
		expect( seen[ 0 ]?.headers ).toEqual( { Accept: 'application/json' } );
	} );

	it( 'throws the site refusal with its status and code', async () => {
		const { fetcher } = answer( 401, {
			code: 'rest_forbidden',
			message: 'Sorry, you are not allowed to do that.',
		} );
		const failure = fetchPostMaps( 'https://example.com', 9, {
			fetch: fetcher,
		} );
		await expect( failure ).rejects.toBeInstanceOf( PostMapsError );
		await expect( failure ).rejects.toMatchObject( {
			status: 401,
			code: 'rest_forbidden',
		} );
	} );

	it.each( [ 0, -1, 1.5, NaN ] )(
		'refuses post id %p without a request',
		async ( id ) => {
			const { fetcher, calls } = answer( 200, {} );
			await expect(
				fetchPostMaps( 'https://example.com', id, { fetch: fetcher } )
			).rejects.toMatchObject( { status: 404 } );
			expect( calls ).toHaveLength( 0 );
		}
	);

	it.each( [
		[ 'a page that is not JSON (a proxy error)', 502, undefined ],
		[ 'a body without code or message', 503, {} ],
		[
			'a code and message that are not text',
			500,
			{ code: 7, message: [] },
		],
		[ 'a list instead of an error', 500, [ 'rest_forbidden' ] ],
	] )(
		'a refusal with %s still says what happened',
		async ( _case, status, body ) => {
			const { fetcher } = answer( status, body );
			const failure = fetchPostMaps( 'https://example.com', 9, {
				fetch: fetcher,
			} );
			await expect( failure ).rejects.toMatchObject( {
				status,
				code: 'http_error',
				message: `The site answered ${ status }.`,
			} );
		}
	);

	it( 'keeps the message the site gave with its refusal', async () => {
		const { fetcher } = answer( 404, {
			code: 'rest_post_invalid_id',
			message: 'Invalid post ID.',
		} );
		await expect(
			fetchPostMaps( 'https://example.com', 9, { fetch: fetcher } )
		).rejects.toMatchObject( {
			name: 'PostMapsError',
			message: 'Invalid post ID.',
		} );
	} );

	it( 'reads post and modified only when they have their types', async () => {
		const odd = answer( 200, { post: '7', modified: 5, maps: [] } );
		expect(
			await fetchPostMaps( 'https://example.com', 7, {
				fetch: odd.fetcher,
			} )
		).toEqual( { post: 0, modified: '', maps: [] } );
		const fine = answer( 200, {
			post: 7,
			modified: '2026-11-24T01:00:00Z',
			maps: [],
		} );
		expect(
			await fetchPostMaps( 'https://example.com', 7, {
				fetch: fine.fetcher,
			} )
		).toEqual( { post: 7, modified: '2026-11-24T01:00:00Z', maps: [] } );
	} );

	it( 'takes no list for an object: not as the answer, a map, its config or its places', async () => {
		const list = answer( 200, Object.assign( [], { maps: [] } ) );
		await expect(
			fetchPostMaps( 'https://example.com', 1, { fetch: list.fetcher } )
		).rejects.toMatchObject( { code: 'cairn_invalid_response' } );
		const { fetcher } = answer( 200, {
			post: 1,
			maps: [
				Object.assign( [], { id: 'a', attributes: {}, config: {} } ),
				{ id: 'b', attributes: {}, config: [] },
				{ id: 7, attributes: {}, config: {}, places: [ 1 ] },
			],
		} );
		const result = await fetchPostMaps( 'https://example.com', 1, {
			fetch: fetcher,
		} );
		expect( result.maps ).toEqual( [
			{
				id: '',
				attributes: {},
				config: {},
				error: '',
				places: { items: [], total: 0, page: 1, perPage: 50 },
			},
		] );
	} );

	it( 'reads a first page of places defensively: capped titles, counts that are whole and positive', async () => {
		const { fetcher } = answer( 200, {
			post: 1,
			maps: [
				{
					id: 'm',
					attributes: {},
					config: {},
					places: {
						items: [
							{ id: 1, title: 'x'.repeat( 300 ), lng: 1, lat: 2 },
							{ id: 2, title: 7, lng: 1, lat: 2 },
							{ id: 3, title: 'Hut', lng: 1, lat: Infinity },
							[ 4, 'List', 1, 2 ],
						],
						total: 0,
						page: 2.5,
						perPage: -3,
					},
				},
				{
					id: 'n',
					attributes: {},
					config: {},
					places: { items: 'none', total: 120, page: 3, perPage: 20 },
				},
			],
		} );
		const { maps } = await fetchPostMaps( 'https://example.com', 1, {
			fetch: fetcher,
		} );
		expect( maps.map( ( map ) => map.places ) ).toEqual( [
			{
				items: [ { id: 1, title: 'x'.repeat( 200 ), lng: 1, lat: 2 } ],
				// Never fewer than the places given.
				total: 1,
				page: 1,
				perPage: 50,
			},
			{ items: [], total: 120, page: 3, perPage: 20 },
		] );
	} );

	it( 'takes the signal of the fetch options when none is given besides', async () => {
		const seen: Array< RequestInit | undefined > = [];
		const fetcher = ( async ( _url: string, init?: RequestInit ) => {
			seen.push( init );
			return response( 200, { post: 7, maps: [] } );
		} ) as unknown as typeof fetch;
		const controller = new AbortController();
		await fetchPostMaps( 'https://example.com', 7, {
			fetch: fetcher,
			init: { signal: controller.signal, cache: 'no-store' },
		} );
		expect( seen[ 0 ]?.signal ).toBe( controller.signal );
		expect( seen[ 0 ]?.cache ).toBe( 'no-store' );
	} );

	it( 'says so when the answer is not the maps of a post', async () => {
		const { fetcher } = answer( 200, [ 'not', 'maps' ] );
		await expect(
			fetchPostMaps( 'https://example.com', 1, { fetch: fetcher } )
		).rejects.toMatchObject( { code: 'cairn_invalid_response' } );
	} );

	it( 'keeps a place’s link only to a web page, and no place with an id of 0', async () => {
		const place = ( id: number, link?: unknown ) => ( {
			id,
			title: `Place ${ id }`,
			lng: 1,
			lat: 2,
			...( link === undefined ? {} : { link } ),
		} );
		const { fetcher } = answer( 200, {
			post: 1,
			maps: [
				{
					id: 'm',
					attributes: {},
					config: {},
					places: {
						items: [
							place( 1, 'https://example.com/huts/' ),
							place( 2, 'HTTP://example.com/lakes/' ),
							place( 3, 'javascript:alert(1)' ),
							place( 4, '//evil.example/' ),
							place( 5, 'see https://example.com/' ),
							place( 6, 7 ),
							place( 7 ),
							place( 0, 'https://example.com/zero/' ),
						],
						total: 8,
						page: 0,
						perPage: 0,
					},
				},
			],
		} );
		const [ map ] = (
			await fetchPostMaps( 'https://example.com', 1, {
				fetch: fetcher,
			} )
		).maps;
		expect(
			map!.places.items.map( ( { id, link } ) => [ id, link ] )
		).toEqual( [
			[ 1, 'https://example.com/huts/' ],
			[ 2, 'HTTP://example.com/lakes/' ],
			[ 3, undefined ],
			[ 4, undefined ],
			[ 5, undefined ],
			[ 6, undefined ],
			[ 7, undefined ],
		] );
		expect( map!.places.items[ 2 ] ).not.toHaveProperty( 'link' );
		// Counts of 0 are no counts: the defaults.
		expect( map!.places ).toMatchObject( {
			total: 8,
			page: 1,
			perPage: 50,
		} );
	} );

	it( 'asks with no password unless one is given, and with it when it is', async () => {
		const { fetcher, calls } = answer( 200, { post: 1, maps: [] } );
		await fetchPostMaps( 'https://example.com', 1, { fetch: fetcher } );
		await fetchPostMaps( 'https://example.com', 1, {
			fetch: fetcher,
			password: '',
		} );
		await fetchPostMaps( 'https://example.com', 1, {
			fetch: fetcher,
			password: 'open sesame',
		} );
		expect(
			calls.map( ( url ) =>
				new URL( url ).searchParams.get( 'password' )
			)
		).toEqual( [ null, null, 'open sesame' ] );
	} );

	it( 'says why it refuses a post id, and what the site did not answer', async () => {
		await expect(
			fetchPostMaps( 'https://example.com', 0, {
				fetch: answer( 200, {} ).fetcher,
			} )
		).rejects.toMatchObject( {
			code: 'rest_post_invalid_id',
			message: 'The post id must be a positive whole number.',
		} );
		await expect(
			fetchPostMaps( 'https://example.com', 1, {
				fetch: answer( 200, { maps: 'none' } ).fetcher,
			} )
		).rejects.toMatchObject( {
			status: 0,
			message: 'The site did not answer with the maps of a post.',
		} );
	} );
} );
