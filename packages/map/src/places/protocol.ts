/**
 * The messages between the page and the places worker, and the one function that answers them
 * (used by the worker, and on the page itself where workers cannot start).
 */
import {
	PlacesEngine,
	type EngineOptions,
	type Filter,
	type ListQuery,
} from './engine';

/** One feed: a Blob the page already downloaded, or its address. */
export type FeedSource = Blob | string;

export type Request =
	| {
			type: 'load';
			/** One feed, or several drawn as one (a map's markers and its posts). */
			source: FeedSource | FeedSource[];
			options: EngineOptions;
	  }
	| { type: 'filter'; filter: Filter }
	| {
			type: 'features';
			bbox: [ number, number, number, number ];
			zoom: number;
	  }
	| { type: 'list'; query: ListQuery }
	| { type: 'expansion'; clusterId: number }
	| { type: 'reveal'; placeId: number; zoom: number }
	| { type: 'find'; search: string };

export type Message = Request & { id: number };

export type Reply =
	| { id: number; ok: true; result: unknown }
	| { id: number; ok: false; error: string };

/**
 * Reads the feeds, all at once, as one collection: their features one after the other (ids never
 * collide: markers and posts are all posts). Any feed that cannot be read fails the load.
 */
async function readFeeds(
	source: FeedSource | FeedSource[]
): Promise< unknown > {
	if ( ! Array.isArray( source ) ) {
		return readFeed( source );
	}
	const feeds = await Promise.all( source.map( readFeed ) );
	return {
		type: 'FeatureCollection',
		features: feeds.flatMap( ( feed ) =>
			typeof feed === 'object' &&
			feed !== null &&
			Array.isArray( ( feed as { features?: unknown } ).features )
				? ( feed as { features: unknown[] } ).features
				: []
		),
	};
}

/** Fetches and parses one feed: a Blob the page already downloaded, or its address. */
async function readFeed( source: FeedSource ): Promise< unknown > {
	if ( typeof source !== 'string' ) {
		return JSON.parse(
			typeof source.text === 'function'
				? await source.text()
				: await new Promise< string >( ( resolve, reject ) => {
						// Older engines (and jsdom) without Blob#text.
						const reader = new FileReader();
						reader.onload = () =>
							resolve( String( reader.result ) );
						reader.onerror = () => reject( reader.error );
						reader.readAsText( source );
					} )
		);
	}
	const response = await fetch( source, {
		credentials: 'same-origin',
		headers: { Accept: 'application/geo+json, application/json' },
	} );
	if ( ! response.ok ) {
		throw new Error( `The feed answered ${ response.status }.` );
	}
	return response.json();
}

/** Answers one request; the engine lives as long as the answerer. */
export function createAnswerer(): ( message: Message ) => Promise< Reply > {
	let engine: PlacesEngine | null = null;
	return async ( message ) => {
		try {
			if ( message.type === 'load' ) {
				const feed = await readFeeds( message.source );
				engine = new PlacesEngine( message.options );
				const result = engine.load( feed );
				engine.prepare();
				return { id: message.id, ok: true, result };
			}
			if ( ! engine ) {
				throw new Error( 'No places are loaded.' );
			}
			switch ( message.type ) {
				case 'filter':
					return {
						id: message.id,
						ok: true,
						result: engine.setFilter( message.filter ),
					};
				case 'features':
					return {
						id: message.id,
						ok: true,
						result: engine.mapFeatures(
							message.bbox,
							message.zoom
						),
					};
				case 'list':
					return {
						id: message.id,
						ok: true,
						result: engine.list( message.query ),
					};
				case 'expansion':
					return {
						id: message.id,
						ok: true,
						result: engine.expansionZoom( message.clusterId ),
					};
				case 'reveal':
					return {
						id: message.id,
						ok: true,
						result: engine.reveal( message.placeId, message.zoom ),
					};
				case 'find':
					return {
						id: message.id,
						ok: true,
						result: engine.find( message.search ),
					};
			}
		} catch ( error ) {
			return {
				id: message.id,
				ok: false,
				error: error instanceof Error ? error.message : String( error ),
			};
		}
		return {
			id: ( message as { id: number } ).id,
			ok: false,
			error: 'Unknown request.',
		};
	};
}
