/**
 * The places client where no worker may run: a page whose Content Security Policy says
 * `worker-src 'none'` (or has no `blob:` there). Browsers refuse such a worker in one of two ways,
 * stood in for here: the constructor throws a SecurityError, or the worker is created and then
 * fails with an `error` event (its script is never fetched). Either way the places load and
 * search works, answered on the page by the same engine.
 */
import { createPlacesClient } from '../../../packages/map/src/places/client';
import {
	createAnswerer,
	type Message,
} from '../../../packages/map/src/places/protocol';

const FEED = {
	type: 'FeatureCollection',
	features: [
		[ 1, 'Café de Flore', 2.3327, 48.854, [ 'cafes' ] ],
		[ 2, 'Parc Monceau', 2.3088, 48.8795, [ 'parks' ] ],
		[ 3, 'Oslo Opera House', 10.7528, 59.9075, [] ],
	].map( ( [ id, title, lng, lat, groups ] ) => ( {
		type: 'Feature',
		id,
		geometry: { type: 'Point', coordinates: [ lng, lat ] },
		properties: { title, groups },
	} ) ),
};

const OPTIONS = {
	clusterEnabled: true,
	clusterRadius: 80,
	clusterMaxZoom: 16,
	groups: [
		{ slug: 'cafes', name: 'Cafés' },
		{ slug: 'parks', name: 'Parks' },
	],
};

/** Workers the page tried to start, however they ended. */
let started: RefusedWorker[] = [];

/** A worker the policy refuses after it was created: it fails with an `error` event. */
class RefusedWorker {
	onmessage: ( ( event: MessageEvent ) => void ) | null = null;
	onerror: ( ( event: Event ) => void ) | null = null;
	posted: unknown[] = [];
	terminated = 0;
	error = new Event( 'error', { cancelable: true } );
	constructor( readonly url: string ) {
		started.push( this );
		// The browser reports the refusal once the page's script has gone on.
		Promise.resolve().then( () => this.onerror?.( this.error ) );
	}
	postMessage( message: unknown ) {
		this.posted.push( message );
	}
	terminate() {
		this.terminated++;
	}
}

/** A worker the policy refuses at once: the constructor throws. */
class ThrowingWorker {
	constructor() {
		throw new DOMException(
			"Refused to create a worker: worker-src 'none'.",
			'SecurityError'
		);
	}
}

/** A worker that runs: it answers with the same answerer, through messages. */
class WorkingWorker {
	onmessage: ( ( event: { data: unknown } ) => void ) | null = null;
	onerror: ( ( event: Event ) => void ) | null = null;
	terminated = 0;
	private readonly answer = createAnswerer();
	constructor( readonly url: string ) {
		working.push( this );
	}
	postMessage( message: Message ) {
		this.answer( message ).then( ( reply ) =>
			this.onmessage?.( { data: reply } )
		);
	}
	terminate() {
		this.terminated++;
	}
}
let working: WorkingWorker[] = [];

const globals = globalThis as unknown as {
	Worker?: unknown;
	Blob?: unknown;
	fetch: unknown;
};
const created: string[] = [];
const blobs: Blob[] = [];

beforeEach( () => {
	started = [];
	working = [];
	created.length = 0;
	blobs.length = 0;
	globals.fetch = jest.fn( async () => ( {
		ok: true,
		status: 200,
		json: async () => FEED,
	} ) );
	// jsdom has neither: a browser has both.
	URL.createObjectURL = jest.fn( ( blob: Blob ) => {
		blobs.push( blob );
		created.push( 'blob:https://example.test/worker' );
		return 'blob:https://example.test/worker';
	} );
	URL.revokeObjectURL = jest.fn();
} );

afterEach( () => {
	delete globals.Worker;
} );

/**
 * Loads the feed and searches it, as the map's panel does.
 * @param client
 */
async function loadAndSearch(
	client: ReturnType< typeof createPlacesClient >
) {
	const loaded = await client.load( 'https://example.test/feed', OPTIONS );
	const found = await client.filter( { search: 'oslo', hidden: [] } );
	const list = await client.list( { bbox: null, page: 0, pageSize: 50 } );
	const drawn = await client.features( [ -180, -85, 180, 85 ], 14 );
	return { loaded, found, list, drawn };
}

describe( 'places client without a worker', () => {
	it( 'answers on the page when the worker fails with an error event', async () => {
		globals.Worker = RefusedWorker;
		const client = createPlacesClient();
		expect( started ).toHaveLength( 1 );
		const { loaded, found, list, drawn } = await loadAndSearch( client );
		expect( loaded ).toEqual( {
			total: 3,
			groups: { cafes: 1, parks: 1 },
		} );
		expect( found ).toEqual( {
			count: 1,
			bounds: [ 10.7528, 59.9075, 10.7528, 59.9075 ],
		} );
		expect( list.items.map( ( item ) => item.title ) ).toEqual( [
			'Oslo Opera House',
		] );
		expect( drawn.map( ( feature ) => feature.id ) ).toEqual( [ 3 ] );
		// The worker was asked to load first; once refused, it was stopped and asked nothing more.
		const [ worker ] = started;
		expect( worker!.url ).toBe( created[ 0 ] );
		expect( worker!.posted ).toEqual( [
			expect.objectContaining( { type: 'load' } ),
		] );
		expect( worker!.terminated ).toBe( 1 );
		// The refusal is handled, not left to the page's error console.
		expect( worker!.error.defaultPrevented ).toBe( true );
		client.terminate();
	} );

	it( 'answers on the page when the worker cannot be constructed', async () => {
		globals.Worker = ThrowingWorker;
		const client = createPlacesClient();
		const { loaded, found, list } = await loadAndSearch( client );
		expect( loaded.total ).toBe( 3 );
		expect( found.count ).toBe( 1 );
		expect( list.items.map( ( item ) => item.id ) ).toEqual( [ 3 ] );
		expect( await client.expansion( 999 ) ).toBeNull();
		expect( await client.reveal( 1, 3 ) ).toMatchObject( {
			id: 1,
			title: 'Café de Flore',
		} );
		client.terminate();
	} );

	it( 'answers in order, and a failed load fails each request after it', async () => {
		globals.fetch = jest.fn( async () => ( {
			ok: false,
			status: 503,
			json: async () => ( {} ),
		} ) );
		const client = createPlacesClient();
		const load = client.load( 'https://example.test/feed', OPTIONS );
		const filter = client.filter( { search: '', hidden: [] } );
		await expect( load ).rejects.toThrow( 'The feed answered 503.' );
		await expect( filter ).rejects.toThrow( 'No places are loaded.' );
	} );
} );

describe( 'places client with a worker', () => {
	it( 'asks the worker, started from its bundled text, and settles each answer by its id', async () => {
		globals.Worker = WorkingWorker;
		const client = createPlacesClient();
		expect( working ).toHaveLength( 1 );
		expect( blobs[ 0 ]!.type ).toBe( 'text/javascript' );
		expect( blobs[ 0 ]!.size ).toBeGreaterThan( 1000 );
		const loaded = await client.load(
			'https://example.test/feed',
			OPTIONS
		);
		// Asked together, answered each to its own request.
		const [ found, listed ] = await Promise.all( [
			client.filter( { search: 'parc', hidden: [] } ),
			client.list( { bbox: null, page: 0, pageSize: 50 } ),
		] );
		expect( loaded.total ).toBe( 3 );
		expect( found.count ).toBe( 1 );
		expect( listed.items.map( ( item ) => item.title ) ).toEqual( [
			'Parc Monceau',
		] );
		client.terminate();
		expect( working[ 0 ]!.terminated ).toBe( 1 );
	} );

	it( 'rejects a request the worker could not answer, with its message', async () => {
		globals.Worker = WorkingWorker;
		const client = createPlacesClient();
		await expect( client.reveal( 1, 3 ) ).rejects.toThrow(
			'No places are loaded.'
		);
		client.terminate();
	} );

	it( 'frees the worker script address once the worker has read it', () => {
		jest.useFakeTimers();
		try {
			globals.Worker = WorkingWorker;
			createPlacesClient().terminate();
			jest.advanceTimersByTime( 9_999 );
			expect( URL.revokeObjectURL ).not.toHaveBeenCalled();
			jest.advanceTimersByTime( 1 );
			expect( URL.revokeObjectURL ).toHaveBeenCalledWith( created[ 0 ] );
		} finally {
			jest.useRealTimers();
		}
	} );

	it.each( [
		[ 'Blob', () => delete globals.Blob ],
		[
			'URL.createObjectURL',
			() =>
				( (
					URL as unknown as { createObjectURL?: unknown }
				 ).createObjectURL = undefined ),
		],
	] )( 'answers on the page where %s is missing', async ( _name, remove ) => {
		globals.Worker = WorkingWorker;
		const blob = globals.Blob;
		remove();
		try {
			const client = createPlacesClient();
			expect( working ).toHaveLength( 0 );
			expect(
				await client
					.filter( { search: '', hidden: [] } )
					.catch( ( error: Error ) => error.message )
			).toBe( 'No places are loaded.' );
			expect(
				( await client.load( 'https://example.test/feed', OPTIONS ) )
					.total
			).toBe( 3 );
		} finally {
			globals.Blob = blob;
		}
	} );
} );

/** A worker whose replies the test sends, in any order. */
class ManualWorker {
	onmessage: ( ( event: { data: unknown } ) => void ) | null = null;
	onerror: ( ( event: Event ) => void ) | null = null;
	posted: Message[] = [];
	terminated = 0;
	constructor() {
		manual.push( this );
	}
	postMessage( message: Message ) {
		this.posted.push( message );
	}
	terminate() {
		this.terminated++;
	}
	reply( data: unknown ) {
		this.onmessage?.( { data } );
	}
}
let manual: ManualWorker[] = [];

describe( 'places client: requests and replies', () => {
	beforeEach( () => {
		manual = [];
		globals.Worker = ManualWorker;
	} );

	it( 'numbers each request and settles each promise with the reply of its number, in any order', async () => {
		const client = createPlacesClient();
		const [ worker ] = manual;
		const load = client.load( 'https://example.test/feed', OPTIONS );
		const filter = client.filter( { search: 'x', hidden: [ 'parks' ] } );
		const reveal = client.reveal( 3, 12 );
		expect( worker!.posted ).toEqual( [
			{
				id: 1,
				type: 'load',
				source: 'https://example.test/feed',
				options: OPTIONS,
			},
			{
				id: 2,
				type: 'filter',
				filter: { search: 'x', hidden: [ 'parks' ] },
			},
			{ id: 3, type: 'reveal', placeId: 3, zoom: 12 },
		] );
		worker!.reply( { id: 3, ok: true, result: null } );
		worker!.reply( { id: 1, ok: true, result: { total: 3, groups: {} } } );
		worker!.reply( { id: 2, ok: false, error: 'Bad filter.' } );
		await expect( reveal ).resolves.toBeNull();
		await expect( load ).resolves.toEqual( { total: 3, groups: {} } );
		await expect( filter ).rejects.toThrow( 'Bad filter.' );
		client.terminate();
	} );

	it( 'ignores a reply to no request (stray, repeated or unnumbered), and still settles the rest', async () => {
		const client = createPlacesClient();
		const [ worker ] = manual;
		const expansion = client.expansion( 9 );
		worker!.reply( { id: 99, ok: true, result: 4 } );
		worker!.reply( { id: 'x', ok: false, error: 'nonsense' } );
		worker!.reply( { id: 1, ok: true, result: 11 } );
		// Its request is settled: the same number again settles nothing.
		worker!.reply( { id: 1, ok: true, result: 12 } );
		await expect( expansion ).resolves.toBe( 11 );
		client.terminate();
	} );

	it( 'asks the page, in order, what the worker was still asked when it failed, and everything after', async () => {
		const client = createPlacesClient();
		const [ worker ] = manual;
		const load = client.load( 'https://example.test/feed', OPTIONS );
		const list = client.list( { bbox: null, page: 0, pageSize: 50 } );
		const error = new Event( 'error', { cancelable: true } );
		worker!.onerror!( error );
		expect( error.defaultPrevented ).toBe( true );
		expect( worker!.terminated ).toBe( 1 );
		// Answered on the page: the list after the load it needs.
		await expect( load ).resolves.toMatchObject( { total: 3 } );
		expect( ( await list ).items.map( ( item ) => item.title ) ).toEqual( [
			'Café de Flore',
			'Oslo Opera House',
			'Parc Monceau',
		] );
		expect( await client.reveal( 2, 5 ) ).toMatchObject( {
			id: 2,
			zoom: expect.any( Number ),
		} );
		expect( worker!.posted ).toHaveLength( 2 );
	} );

	it( 'stops the worker and settles nothing more once terminated', async () => {
		const client = createPlacesClient();
		const [ worker ] = manual;
		const settled = jest.fn();
		client
			.list( { bbox: null, page: 0, pageSize: 50 } )
			.then( settled, settled );
		client.terminate();
		expect( worker!.terminated ).toBe( 1 );
		worker!.reply( { id: 1, ok: true, result: { total: 0 } } );
		await Promise.resolve();
		expect( settled ).not.toHaveBeenCalled();
	} );
} );
