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
