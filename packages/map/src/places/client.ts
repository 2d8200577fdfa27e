/**
 * The page's side of the places worker: typed requests, answered in order. Where a worker cannot
 * start (no Worker, a Content Security Policy without `worker-src blob:`), the same engine answers
 * on the page instead: slower with many places, never broken.
 */
import type {
	EngineOptions,
	Filter,
	FilterResult,
	ListedPlace,
	ListQuery,
	ListResult,
	LoadResult,
	MapFeature,
} from './engine';
import {
	createAnswerer,
	type FeedSource,
	type Message,
	type Reply,
	type Request,
} from './protocol';
import workerSource from './worker-source.generated';

type Distribute< T > = T extends unknown ? Omit< T, 'id' > : never;

export interface PlacesClient {
	load: (
		source: FeedSource | FeedSource[],
		options: EngineOptions
	) => Promise< LoadResult >;
	filter: ( filter: Filter ) => Promise< FilterResult >;
	features: (
		bbox: [ number, number, number, number ],
		zoom: number
	) => Promise< MapFeature[] >;
	list: ( query: ListQuery ) => Promise< ListResult >;
	expansion: ( clusterId: number ) => Promise< number | null >;
	reveal: (
		placeId: number,
		zoom: number
	) => Promise< ( ListedPlace & { zoom: number } ) | null >;
	/**
	 * The first place (by title) whose title or group names the search's words start, whatever
	 * the filter: a visitor's "near" typed as one of the map's own place names. @since 0.8.0
	 */
	find: ( search: string ) => Promise< ListedPlace | null >;
	terminate: () => void;
	/**
	 * How much to grow the view for `features()`, each side (default 0.5: clusters ready for a
	 * pan). A tiled client's tiles reach past the view already: it asks 0.
	 */
	readonly viewPad?: number;
}

function startWorker(): Worker | null {
	if (
		typeof Worker !== 'function' ||
		typeof Blob !== 'function' ||
		typeof URL.createObjectURL !== 'function' ||
		! workerSource
	) {
		return null;
	}
	const url = URL.createObjectURL(
		new Blob( [ workerSource ], { type: 'text/javascript' } )
	);
	try {
		return new Worker( url );
	} catch {
		return null;
	} finally {
		// The worker has read its script by the time it runs; the URL is not needed after.
		setTimeout( () => URL.revokeObjectURL( url ), 10_000 );
	}
}

export function createPlacesClient(): PlacesClient {
	let next = 0;
	const waiting = new Map<
		number,
		{
			message: Message;
			resolve: ( value: unknown ) => void;
			reject: ( error: Error ) => void;
		}
	>();
	const settle = ( reply: Reply ) => {
		const request = waiting.get( reply.id );
		waiting.delete( reply.id );
		if ( reply.ok ) {
			request?.resolve( reply.result );
		} else {
			request?.reject( new Error( reply.error ) );
		}
	};
	let worker = startWorker();
	let local: ( ( message: Message ) => Promise< Reply > ) | null = null;
	let chain: Promise< unknown > = Promise.resolve();
	const onLocal = ( message: Message ) => {
		local ??= createAnswerer();
		const answer = local;
		// One at a time, in order, as the worker would.
		chain = chain.then( () => answer( message ).then( settle ) );
	};
	if ( worker ) {
		worker.onmessage = ( event: MessageEvent< Reply > ) =>
			settle( event.data );
		worker.onerror = ( event ) => {
			// A worker that cannot run (blocked by a policy): the page answers what it was asked,
			// and everything after.
			event.preventDefault();
			worker?.terminate();
			worker = null;
			for ( const { message } of waiting.values() ) {
				onLocal( message );
			}
		};
	}
	const ask = < T >( request: Distribute< Request > ): Promise< T > =>
		new Promise< T >( ( resolve, reject ) => {
			const id = ++next;
			const message = { ...request, id } as Message;
			waiting.set( id, {
				message,
				resolve: resolve as ( value: unknown ) => void,
				reject,
			} );
			if ( worker ) {
				worker.postMessage( message );
			} else {
				onLocal( message );
			}
		} );
	return {
		load: ( source, options ) => ask( { type: 'load', source, options } ),
		filter: ( filter ) => ask( { type: 'filter', filter } ),
		features: ( bbox, zoom ) => ask( { type: 'features', bbox, zoom } ),
		list: ( query ) => ask( { type: 'list', query } ),
		expansion: ( clusterId ) => ask( { type: 'expansion', clusterId } ),
		reveal: ( placeId, zoom ) => ask( { type: 'reveal', placeId, zoom } ),
		find: ( search ) => ask( { type: 'find', search } ),
		terminate: () => {
			worker?.terminate();
			worker = null;
			waiting.clear();
		},
	};
}
