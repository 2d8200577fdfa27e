/**
 * The loader's prefetch of a tiled map's first view (places/prefetch-tiles.ts), before mapbox-gl
 * has loaded: the summary and the tiles covering the configured centre and zoom, each handed to
 * the tiled client once. Only a map served from the page's own origin is prefetched: a
 * configuration naming another server's tiles or summary starts no request at all (the runtime,
 * once it runs, asks that server itself, as the headless example's hosts may want).
 */
import {
	getJson,
	prefetchTiles,
	prefetchTilesFor,
} from '../../../packages/map/src/places/prefetch-tiles';
import {
	tileUrl,
	tilesCovering,
	viewBounds,
} from '../../../packages/map/src/places/tile-urls';

const ORIGIN = window.location.origin;
const TILES = `${ ORIGIN }/wp-json/cairn/v1/tiles/{z}/{x}/{y}?group=a&v=v1&radius=80&maxzoom=16`;
const SUMMARY = `${ ORIGIN }/wp-json/cairn/v1/places/summary?group=a&v=v1`;
const CENTER = { lng: 2.35, lat: 48.85 };

/** Every request the page made, and the answer of each route. */
let asked: Array< { url: string; init: RequestInit } > = [];

function serve( status = 200 ) {
	asked = [];
	const fetch = jest.fn( async ( url: string, init: RequestInit ) => {
		asked.push( { url, init } );
		return {
			ok: status >= 200 && status < 300,
			status,
			json: async () => ( { asked: url } ),
		};
	} );
	Object.assign( globalThis, { fetch } );
}

/** A container of the given size, as the block's element is once laid out. */
function container( width: number, height: number ): Element {
	const element = document.createElement( 'div' );
	element.getBoundingClientRect = () =>
		( {
			width,
			height,
			top: 0,
			left: 0,
			right: width,
			bottom: height,
		} ) as DOMRect;
	return element;
}

/** The tiles the first view of a 600×400 map at zoom 11 covers, as the tiled client asks them. */
function firstTiles( template: string ): string[] {
	const bbox = viewBounds( CENTER, 11, 600, 400 );
	return tilesCovering( bbox, 11 ).map( ( tile ) =>
		tileUrl( template, tile )
	);
}

beforeEach( () => serve() );

afterEach( () => {
	delete ( globalThis as { fetch?: unknown } ).fetch;
} );

describe( 'prefetchTilesFor', () => {
	it( 'starts the summary and the first view’s tiles of a same-origin map, each handed over once', async () => {
		const prefetched = prefetchTilesFor(
			{ tilesUrl: TILES, summaryUrl: SUMMARY, center: CENTER, zoom: 11 },
			container( 600, 400 )
		);
		const tiles = firstTiles( TILES );
		expect( tiles.length ).toBeGreaterThan( 0 );
		expect( asked.map( ( { url } ) => url ) ).toEqual( [
			SUMMARY,
			...tiles,
		] );
		expect( prefetched?.view ).toEqual( {
			bbox: viewBounds( CENTER, 11, 600, 400 ),
			zoom: 11,
		} );
		await expect( prefetched?.take( tiles[ 0 ]! ) ).resolves.toEqual( {
			asked: tiles[ 0 ],
		} );
		// Taken once: the client asks the server itself after that.
		expect( prefetched?.take( tiles[ 0 ]! ) ).toBeNull();
		await expect( prefetched?.take( SUMMARY ) ).resolves.toEqual( {
			asked: SUMMARY,
		} );
		expect( prefetched?.take( `${ ORIGIN }/elsewhere` ) ).toBeNull();
	} );

	it( 'reads addresses relative to the page', () => {
		const prefetched = prefetchTilesFor(
			{
				tilesUrl: '/wp-json/cairn/v1/tiles/{z}/{x}/{y}?v=v1',
				summaryUrl: '/wp-json/cairn/v1/places/summary?v=v1',
			},
			container( 600, 400 )
		);
		expect( prefetched ).not.toBeNull();
		expect( asked.map( ( { url } ) => url ) ).toEqual( [
			'/wp-json/cairn/v1/places/summary?v=v1',
		] );
	} );

	it.each( [
		[
			'tiles of another origin',
			{
				tilesUrl:
					'https://tiles.example.com/wp-json/cairn/v1/tiles/{z}/{x}/{y}?v=v1',
				summaryUrl: SUMMARY,
			},
		],
		[
			'a summary of another origin',
			{
				tilesUrl: TILES,
				summaryUrl:
					'https://tiles.example.com/wp-json/cairn/v1/places/summary',
			},
		],
		[
			'tiles of the same host on another port',
			{
				tilesUrl: TILES.replace(
					ORIGIN,
					`${ window.location.protocol }//${ window.location.hostname }:8443`
				),
				summaryUrl: SUMMARY,
			},
		],
		[
			'protocol-relative tiles of another host',
			{
				tilesUrl: '//tiles.example.com/tiles/{z}/{x}/{y}',
				summaryUrl: SUMMARY,
			},
		],
		[
			'an address that is no URL',
			{ tilesUrl: 'http://[::1/tiles/{z}/{x}/{y}', summaryUrl: SUMMARY },
		],
		[
			'a template without {z}/{x}/{y}',
			{ tilesUrl: `${ ORIGIN }/tiles`, summaryUrl: SUMMARY },
		],
		[ 'no summary', { tilesUrl: TILES } ],
		[ 'no tiles', { summaryUrl: SUMMARY } ],
	] )( 'prefetches nothing for %s', ( _name, urls ) => {
		expect(
			prefetchTilesFor(
				{ ...urls, center: CENTER, zoom: 11 },
				container( 600, 400 )
			)
		).toBeNull();
		expect( asked ).toEqual( [] );
	} );

	it.each( [
		[ 'no size yet', { center: CENTER, zoom: 11 }, container( 0, 400 ) ],
		[ 'no height yet', { center: CENTER, zoom: 11 }, container( 600, 0 ) ],
		[ 'no container', { center: CENTER, zoom: 11 }, null ],
		[ 'no zoom', { center: CENTER }, container( 600, 400 ) ],
		[
			'a centre that is not a point',
			{ center: { lng: '2.35', lat: 48.85 }, zoom: 11 },
			container( 600, 400 ),
		],
		[
			'an infinite zoom',
			{ center: CENTER, zoom: Infinity },
			container( 600, 400 ),
		],
	] )(
		'with %s, fetches only the summary (the client asks the tiles of the view it draws)',
		( _name, view, element ) => {
			const prefetched = prefetchTilesFor(
				{ tilesUrl: TILES, summaryUrl: SUMMARY, ...view },
				element
			);
			expect( prefetched?.view ).toBeNull();
			expect( asked.map( ( { url } ) => url ) ).toEqual( [ SUMMARY ] );
		}
	);
} );

describe( 'prefetchTiles', () => {
	it( 'asks the tiles of the zoom the server clusters at, past its cluster max zoom', () => {
		const template = TILES.replace( 'maxzoom=16', 'maxzoom=9' );
		const bbox = viewBounds( CENTER, 13, 600, 400 );
		prefetchTiles(
			{ tilesUrl: template, summaryUrl: SUMMARY },
			{ bbox, zoom: 13 }
		);
		// Zoom 10 holds every point of a server clustering up to 9.
		expect( asked.map( ( { url } ) => url ).slice( 1 ) ).toEqual(
			tilesCovering( bbox, 10 ).map( ( tile ) =>
				tileUrl( template, tile )
			)
		);
	} );

	it( 'starts nothing where the page has no fetch', () => {
		delete ( globalThis as { fetch?: unknown } ).fetch;
		const prefetched = prefetchTiles(
			{ tilesUrl: TILES, summaryUrl: SUMMARY },
			null
		);
		expect( prefetched.take( SUMMARY ) ).toBeNull();
	} );

	it( 'hands over a failed answer as a rejection, never an unhandled one', async () => {
		serve( 503 );
		const prefetched = prefetchTiles(
			{ tilesUrl: TILES, summaryUrl: SUMMARY },
			null
		);
		await expect( prefetched.take( SUMMARY ) ).rejects.toThrow(
			'The places server answered 503.'
		);
	} );
} );

describe( 'getJson', () => {
	it( 'sends no credentials across origins and no header that needs a preflight', async () => {
		const controller = new AbortController();
		await getJson( SUMMARY, controller.signal );
		expect( asked ).toEqual( [
			{
				url: SUMMARY,
				init: {
					credentials: 'same-origin',
					headers: {
						Accept: 'application/geo+json, application/json',
					},
					signal: controller.signal,
				},
			},
		] );
	} );
} );
