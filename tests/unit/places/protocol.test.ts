/**
 * The places worker's side: the answerer every request goes through (in the worker, or on the
 * page where no worker may run), and the worker's entry that wires it to its messages.
 */
import {
	createAnswerer,
	type Message,
} from '../../../packages/map/src/places/protocol';

const FEED = {
	type: 'FeatureCollection',
	features: [
		{
			type: 'Feature',
			id: 1,
			geometry: { type: 'Point', coordinates: [ 2.3327, 48.854 ] },
			properties: { title: 'Café de Flore', groups: [ 'cafes' ] },
		},
		{
			type: 'Feature',
			id: 2,
			geometry: { type: 'Point', coordinates: [ 10.7528, 59.9075 ] },
			properties: { title: 'Oslo Opera House', groups: [] },
		},
	],
};

const OPTIONS = {
	clusterEnabled: false,
	clusterRadius: 80,
	clusterMaxZoom: 16,
	groups: [ { slug: 'cafes', name: 'Cafés' } ],
};

let requests: Array< [ string, RequestInit | undefined ] > = [];
beforeEach( () => {
	requests = [];
	( globalThis as unknown as { fetch: unknown } ).fetch = jest.fn(
		async ( url: string, init?: RequestInit ) => {
			requests.push( [ url, init ] );
			return { ok: true, status: 200, json: async () => FEED };
		}
	);
} );

describe( 'the places answerer', () => {
	it( 'reads the feed at its address as the page would (cookies of the site, JSON)', async () => {
		const answer = createAnswerer();
		expect(
			await answer( {
				id: 4,
				type: 'load',
				source: 'https://example.test/feed',
				options: OPTIONS,
			} )
		).toEqual( {
			id: 4,
			ok: true,
			result: { total: 2, groups: { cafes: 1 } },
		} );
		expect( requests ).toEqual( [
			[
				'https://example.test/feed',
				{
					credentials: 'same-origin',
					headers: {
						Accept: 'application/geo+json, application/json',
					},
				},
			],
		] );
	} );

	it( 'reads a feed the page downloaded, whether its Blob has text() or not', async () => {
		const answer = createAnswerer();
		const withText = { text: async () => JSON.stringify( FEED ) };
		expect(
			await answer( {
				id: 1,
				type: 'load',
				source: withText as unknown as Blob,
				options: OPTIONS,
			} )
		).toMatchObject( { ok: true, result: { total: 2 } } );
		// jsdom's Blob has no text(): read through a FileReader.
		const blob = new Blob( [ JSON.stringify( FEED ) ] );
		expect(
			await answer( {
				id: 2,
				type: 'load',
				source: blob,
				options: OPTIONS,
			} )
		).toMatchObject( { ok: true, result: { total: 2 } } );
		expect( requests ).toEqual( [] );
		// Not JSON: an error answer, not a thrown one.
		expect(
			await answer( {
				id: 3,
				type: 'load',
				source: new Blob( [ '<html>' ] ),
				options: OPTIONS,
			} )
		).toMatchObject( { id: 3, ok: false } );
	} );

	it( 'answers each request of a loaded engine with its id', async () => {
		const answer = createAnswerer();
		expect(
			await answer( {
				id: 1,
				type: 'filter',
				filter: { search: '', hidden: [] },
			} )
		).toEqual( { id: 1, ok: false, error: 'No places are loaded.' } );
		await answer( {
			id: 2,
			type: 'load',
			source: 'https://example.test/feed',
			options: OPTIONS,
		} );
		expect(
			await answer( {
				id: 3,
				type: 'filter',
				filter: { search: 'opera', hidden: [] },
			} )
		).toEqual( {
			id: 3,
			ok: true,
			result: {
				count: 1,
				bounds: [ 10.7528, 59.9075, 10.7528, 59.9075 ],
			},
		} );
		expect(
			await answer( {
				id: 4,
				type: 'list',
				query: { bbox: null, page: 0, pageSize: 10 },
			} )
		).toMatchObject( {
			id: 4,
			ok: true,
			result: { total: 1, items: [ { id: 2 } ] },
		} );
		expect(
			await answer( {
				id: 5,
				type: 'features',
				bbox: [ -180, -85, 180, 85 ],
				zoom: 3,
			} )
		).toMatchObject( { id: 5, ok: true, result: [ { id: 2 } ] } );
		expect(
			await answer( { id: 6, type: 'expansion', clusterId: 1 } )
		).toEqual( { id: 6, ok: true, result: null } );
		expect(
			await answer( { id: 7, type: 'reveal', placeId: 2, zoom: 3 } )
		).toMatchObject( {
			id: 7,
			ok: true,
			result: { id: 2, title: 'Oslo Opera House', zoom: 3 },
		} );
		expect(
			await answer( { id: 8, type: 'nonsense' } as unknown as Message )
		).toEqual( { id: 8, ok: false, error: 'Unknown request.' } );
	} );
} );

describe( 'the places worker', () => {
	it( 'answers every message it gets with a message', async () => {
		const scope = self as unknown as {
			onmessage: ( ( event: { data: Message } ) => void ) | null;
			postMessage: unknown;
		};
		const post = window.postMessage;
		const replies: unknown[] = [];
		const replied = new Promise< void >( ( resolve ) => {
			scope.postMessage = ( reply: unknown ) => {
				replies.push( reply );
				resolve();
			};
		} );
		try {
			jest.isolateModules( () => {
				require( '../../../packages/map/src/places/worker' );
			} );
			scope.onmessage!( {
				data: {
					id: 9,
					type: 'load',
					source: 'https://example.test/feed',
					options: OPTIONS,
				},
			} );
			await replied;
			expect( replies ).toEqual( [
				{ id: 9, ok: true, result: { total: 2, groups: { cafes: 1 } } },
			] );
		} finally {
			scope.postMessage = post;
			scope.onmessage = null;
		}
	} );
} );

describe( 'the places answerer and malformed requests', () => {
	/** An answerer with the feed loaded, clustered (the map asks for its clusters by view). */
	const loadedAnswerer = async () => {
		const answer = createAnswerer();
		await answer( {
			id: 1,
			type: 'load',
			source: 'https://example.test/feed',
			options: { ...OPTIONS, clusterEnabled: true },
		} );
		return answer;
	};

	it.each( [
		[ 'a filter without its filter', { id: 5, type: 'filter' } ],
		[
			'a filter of the wrong types',
			{ id: 5, type: 'filter', filter: { search: 5, hidden: 'x' } },
		],
		[ 'a list without its query', { id: 5, type: 'list', query: null } ],
		[ 'features without a view', { id: 5, type: 'features', zoom: 3 } ],
		[
			'features of a view that is not one',
			{ id: 5, type: 'features', bbox: 'x', zoom: 'y' },
		],
		[ 'an unknown type', { id: 5, type: 'constructor' } ],
		[ 'no type', { id: 5 } ],
	] )(
		'refuses %s with an error answer of its id, and goes on answering',
		async ( _label, message ) => {
			const answer = await loadedAnswerer();
			const reply = await answer( message as unknown as Message );
			expect( reply ).toMatchObject( { id: 5, ok: false } );
			expect( ( reply as { error: unknown } ).error ).toEqual(
				expect.any( String )
			);
			// The places loaded before are still there.
			expect(
				await answer( {
					id: 6,
					type: 'filter',
					filter: { search: 'opera', hidden: [] },
				} )
			).toMatchObject( { id: 6, ok: true, result: { count: 1 } } );
		}
	);

	it.each( [
		[ 'of a source that is not a feed', { source: 42, options: OPTIONS } ],
		[
			'of a feed that is not JSON',
			{ source: new Blob( [ '<html>' ] ), options: OPTIONS },
		],
	] )(
		'refuses a load %s, keeping the places loaded before',
		async ( _label, fields ) => {
			const answer = await loadedAnswerer();
			expect(
				await answer( {
					id: 7,
					type: 'load',
					...fields,
				} as unknown as Message )
			).toMatchObject( { id: 7, ok: false } );
			expect(
				await answer( {
					id: 8,
					type: 'list',
					query: { bbox: null, page: 0, pageSize: 10 },
				} )
			).toMatchObject( { id: 8, ok: true, result: { total: 2 } } );
		}
	);

	it( 'refuses a load without options (what is loaded after it is empty)', async () => {
		const answer = await loadedAnswerer();
		expect(
			await answer( {
				id: 7,
				type: 'load',
				source: 'https://example.test/feed',
			} as unknown as Message )
		).toMatchObject( { id: 7, ok: false } );
	} );

	it( 'fails a load of several feeds when one of them cannot be read, and reads the rest as one', async () => {
		const answer = createAnswerer();
		const feeds: Record< string, unknown > = {
			feed: FEED,
			more: {
				type: 'FeatureCollection',
				features: [
					{
						...FEED.features[ 0 ],
						id: 3,
						properties: { title: 'Hut', groups: [ 'cafes' ] },
					},
				],
			},
			empty: { nothing: 1 },
		};
		( globalThis as unknown as { fetch: unknown } ).fetch = jest.fn(
			async ( url: string ) =>
				url.endsWith( 'broken' )
					? { ok: false, status: 404, json: async () => ( {} ) }
					: {
							ok: true,
							status: 200,
							json: async () => feeds[ url.split( '/' ).pop()! ],
						}
		);
		expect(
			await answer( {
				id: 1,
				type: 'load',
				source: [
					'https://example.test/feed',
					'https://example.test/broken',
				],
				options: OPTIONS,
			} )
		).toEqual( { id: 1, ok: false, error: 'The feed answered 404.' } );
		// A feed without features adds none.
		expect(
			await answer( {
				id: 2,
				type: 'load',
				source: [
					'https://example.test/feed',
					'https://example.test/empty',
					'https://example.test/more',
				],
				options: OPTIONS,
			} )
		).toEqual( {
			id: 2,
			ok: true,
			result: { total: 3, groups: { cafes: 2 } },
		} );
	} );
} );
