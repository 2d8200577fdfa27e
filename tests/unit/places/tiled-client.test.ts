/**
 * The tiled places client over a fake server: the URLs it asks (tiles of the view at its zoom,
 * across the antimeridian, the filter appended), what it makes of the answers (features merged
 * once, 0-based pages), its bounded cache, the first view taken from the loader's prefetch, and
 * failures that reach the controller's error path instead of an empty map.
 */
import { createTiledClient } from '../../../packages/map/src/places/tiled-client';
import { prefetchTiles } from '../../../packages/map/src/places/prefetch-tiles';
import {
	tileUrl,
	tilesCovering,
	viewBounds,
	MAX_VIEW_TILES,
} from '../../../packages/map/src/places/tile-urls';

const URLS = {
	tilesUrl:
		'https://maps.test/wp-json/cairn/v1/tiles/{z}/{x}/{y}?group=a&v=v1&radius=80&maxzoom=16',
	placesUrl: 'https://maps.test/wp-json/cairn/v1/places?group=a&v=v1',
	summaryUrl:
		'https://maps.test/wp-json/cairn/v1/places/summary?group=a&v=v1',
};

type Answer = { status?: number; body: unknown };

/** A fake server: records every URL, answers by the route. */
function server( answer: ( url: URL ) => Answer ) {
	const asked: string[] = [];
	const fetch = jest.fn( async ( input: string ) => {
		asked.push( input );
		const { status = 200, body } = answer( new URL( input ) );
		return {
			ok: status >= 200 && status < 300,
			status,
			json: async () => body,
		};
	} );
	Object.assign( globalThis, { fetch } );
	return asked;
}

const point = ( id: number, lng: number, lat: number, groups = [ 'a' ] ) => ( {
	type: 'Feature',
	id,
	geometry: { type: 'Point', coordinates: [ lng, lat ] },
	properties: { groups, title: `Place ${ id }` },
} );

const cluster = ( id: number, lng: number, lat: number, count: number ) => ( {
	type: 'Feature',
	id,
	geometry: { type: 'Point', coordinates: [ lng, lat ] },
	properties: {
		cluster: true,
		cluster_id: id,
		point_count: count,
		point_count_abbreviated: count,
		expansion_zoom: 5,
	},
} );

const SUMMARY = {
	total: 300,
	groups: { a: 200, b: 100 },
	matches: 300,
	bounds: [ -10, -10, 10, 10 ],
};

/** Tiles of the fake server: one cluster in each tile, id from its address. */
function tileAnswer( url: URL ): Answer {
	const found = /\/tiles\/(\d+)\/(\d+)\/(\d+)$/.exec( url.pathname );
	if ( ! found ) {
		return { status: 404, body: {} };
	}
	const [ z, x, y ] = found.slice( 1 ).map( Number ) as [
		number,
		number,
		number,
	];
	return {
		body: {
			type: 'FeatureCollection',
			features: [ cluster( z * 1000000 + x * 1000 + y, 0, 0, 3 ) ],
		},
	};
}

function route( url: URL ): Answer {
	if ( url.pathname.endsWith( '/places/summary' ) ) {
		return { body: SUMMARY };
	}
	if ( url.pathname.endsWith( '/places' ) ) {
		return {
			body: {
				total: 120,
				page: Number( url.searchParams.get( 'page' ) ?? 1 ),
				pages: 3,
				items: [
					{ id: 5, title: 'Five', lng: 1, lat: 2, groups: [ 'a' ] },
				],
			},
		};
	}
	return tileAnswer( url );
}

const tilePaths = ( asked: string[] ) =>
	asked
		.map( ( url ) => /\/tiles\/(\d+\/\d+\/\d+)/.exec( url )?.[ 1 ] )
		.filter( Boolean )
		.sort();

afterEach( () => {
	delete ( globalThis as { fetch?: unknown } ).fetch;
} );

describe( 'tile arithmetic', () => {
	it( 'covers a view with the tiles of its zoom, and both sides of the antimeridian', () => {
		expect( tilesCovering( [ -180, -85, 180, 85 ], 1 ) ).toHaveLength( 4 );
		expect( tilesCovering( [ 1, 1, 2, 2 ], 3 ) ).toEqual( [ [ 3, 4, 3 ] ] );
		// 170°E to 170°W: the last column and the first, never the 6 in between.
		const across = tilesCovering( [ 170, -1, -170, 1 ], 3 );
		expect( across.map( ( [ , x ] ) => x ).sort() ).toEqual( [
			0, 0, 7, 7,
		] );
	} );

	it( 'never asks for more than MAX_VIEW_TILES for one view, the middle ones first', () => {
		const tiles = tilesCovering( [ -180, -85, 180, 85 ], 6 );
		expect( tiles ).toHaveLength( MAX_VIEW_TILES );
		expect( tiles[ 0 ]![ 1 ] ).toBeGreaterThan( 20 );
		expect( tiles[ 0 ]![ 1 ] ).toBeLessThan( 44 );
	} );

	it( 'fills the template, literal or percent-encoded, and appends the filter in one form', () => {
		expect(
			tileUrl( URLS.tilesUrl, [ 4, 5, 6 ], {
				hidden: [ 'b', 'a' ],
				search: '  café ',
			} )
		).toBe(
			'https://maps.test/wp-json/cairn/v1/tiles/4/5/6?group=a&v=v1&radius=80&maxzoom=16&hidden=a%2Cb&q=caf%C3%A9'
		);
		expect(
			tileUrl(
				'/?rest_route=/cairn/v1/tiles/%7Bz%7D/%7Bx%7D/%7By%7D',
				[ 1, 0, 1 ]
			)
		).toBe( '/?rest_route=/cairn/v1/tiles/1/0/1' );
	} );

	it( 'knows the first view from the centre, zoom and size, as mapbox-gl draws it', () => {
		const [ west, south, east, north ] = viewBounds(
			{ lng: 0, lat: 0 },
			1,
			512,
			512
		);
		expect( west ).toBeCloseTo( -90 );
		expect( east ).toBeCloseTo( 90 );
		expect( north ).toBeCloseTo( 66.51, 1 );
		expect( south ).toBeCloseTo( -66.51, 1 );
	} );
} );

describe( 'createTiledClient', () => {
	it( 'loads the summary and the first view’s tiles, never a whole feed', async () => {
		const asked = server( route );
		const client = createTiledClient( URLS, {
			firstView: { bbox: [ 1, 1, 2, 2 ], zoom: 3.6 },
		} );
		await expect( client.load( [], {} as never ) ).resolves.toEqual( {
			total: 300,
			groups: { a: 200, b: 100 },
		} );
		expect( asked ).toEqual( [
			URLS.summaryUrl,
			'https://maps.test/wp-json/cairn/v1/tiles/3/4/3?group=a&v=v1&radius=80&maxzoom=16',
		] );
		expect( asked.some( ( url ) => url.includes( '/markers' ) ) ).toBe(
			false
		);
	} );

	it( 'asks the view’s tiles at ⌊zoom⌋ in parallel and merges them, each feature once', async () => {
		const asked = server( ( url ) =>
			/tiles\/2\/[12]\/1$/.test( url.pathname )
				? {
						body: {
							type: 'FeatureCollection',
							// The server never repeats a feature; were it to, it is drawn once.
							features: [
								point( 9, 1, 1 ),
								cluster( 9, 2, 2, 4 ),
								{ type: 'Feature', id: 'x' },
							],
						},
					}
				: route( url )
		);
		const client = createTiledClient( URLS );
		await client.load( [], {} as never );
		const features = await client.features( [ -10, -10, 10, 10 ], 2.9 );
		expect( tilePaths( asked ) ).toEqual( [
			'2/1/1',
			'2/1/2',
			'2/2/1',
			'2/2/2',
		] );
		// A point and a cluster may share an id (a post id and a cluster id): both are drawn.
		expect( features.map( ( feature ) => feature.id ).sort() ).toEqual( [
			2001002, 2002002, 9, 9,
		] );
		expect( await client.expansion( 9 ) ).toBe( 5 );
		expect( await client.expansion( 12345 ) ).toBeNull();
	} );

	it( 'asks the tiles on both sides of the antimeridian', async () => {
		const asked = server( route );
		const client = createTiledClient( URLS );
		await client.load( [], {} as never );
		await client.features( [ 170, -1, -170, 1 ], 3 );
		expect( tilePaths( asked ) ).toEqual( [
			'3/0/3',
			'3/0/4',
			'3/7/3',
			'3/7/4',
		] );
	} );

	it( 'above the cluster max zoom asks the one zoom past it (only points), never beyond 17', async () => {
		const asked = server( route );
		const client = createTiledClient( {
			...URLS,
			tilesUrl: URLS.tilesUrl.replace( 'maxzoom=16', 'maxzoom=10' ),
		} );
		await client.load( [], {} as never );
		await client.features( [ 1, 1, 1.0001, 1.0001 ], 19.5 );
		expect( tilePaths( asked )[ 0 ] ).toMatch( /^11\// );
		const deep = server( route );
		await createTiledClient( URLS ).features(
			[ 1, 1, 1.0001, 1.0001 ],
			22
		);
		expect( tilePaths( deep )[ 0 ] ).toMatch( /^17\// );
	} );

	it( 'keeps tiles in a bounded cache: an answered tile is not asked again, old ones are dropped', async () => {
		const asked = server( route );
		const client = createTiledClient( URLS, { cacheSize: 4 } );
		await client.load( [], {} as never );
		await client.features( [ -10, -10, 10, 10 ], 2 );
		const first = asked.length;
		await client.features( [ -10, -10, 10, 10 ], 2 );
		expect( asked ).toHaveLength( first );
		for ( let z = 3; z < 12; z++ ) {
			await client.features( [ -10, -10, 10, 10 ], z );
			expect( client.cachedTiles ).toBeLessThanOrEqual( 4 );
		}
		await client.features( [ -10, -10, 10, 10 ], 2 );
		expect( asked.length ).toBeGreaterThan( first + 4 );
	} );

	it( 'filters: hidden groups and the search go to the summary and the tiles; no filter asks nothing', async () => {
		const asked = server( ( url ) =>
			url.pathname.endsWith( '/summary' ) && url.searchParams.has( 'q' )
				? {
						body: {
							...SUMMARY,
							matches: 12,
							bounds: [ 1, 2, 3, 4 ],
						},
					}
				: route( url )
		);
		const client = createTiledClient( URLS );
		await client.load( [], {} as never );
		await expect(
			client.filter( { search: 'Mill', hidden: [ 'b' ] } )
		).resolves.toEqual( { count: 12, bounds: [ 1, 2, 3, 4 ] } );
		expect( asked[ asked.length - 1 ] ).toBe(
			`${ URLS.summaryUrl }&hidden=b&q=Mill`
		);
		await client.features( [ 1, 1, 2, 2 ], 3 );
		expect( asked[ asked.length - 1 ] ).toMatch(
			/tiles\/3\/4\/3\?.*&hidden=b&q=Mill$/
		);
		const before = asked.length;
		await expect(
			client.filter( { search: ' ', hidden: [] } )
		).resolves.toEqual( {
			count: 300,
			bounds: [ -10, -10, 10, 10 ],
		} );
		expect( asked ).toHaveLength( before );
	} );

	it( 'a circle goes to the summary and the list as near + radius, to the tiles as near + near_radius', async () => {
		const asked = server( route );
		const client = createTiledClient( URLS );
		await client.load( [], {} as never );
		const near = { lng: -3.1875, lat: 55.95, radius: 25000 };
		await client.filter( { search: '', hidden: [], near } );
		expect( asked[ asked.length - 1 ] ).toBe(
			`${ URLS.summaryUrl }&near=-3.1875%2C55.95&radius=25000`
		);
		await client.features( [ 1, 1, 2, 2 ], 3 );
		expect( asked[ asked.length - 1 ] ).toMatch(
			/tiles\/3\/4\/3\?.*&near=-3\.1875%2C55\.95&near_radius=25000$/
		);
		await client.list( {
			bbox: null,
			page: 0,
			pageSize: 50,
			origin: { lng: -3.1875, lat: 55.95 },
		} );
		expect( asked[ asked.length - 1 ] ).toContain(
			'&near=-3.1875%2C55.95&radius=25000'
		);
	} );

	it( 'finds the first place a text names, whatever the filter; nothing is asked for an empty text', async () => {
		const asked = server( route );
		const client = createTiledClient( URLS );
		await client.load( [], {} as never );
		await expect( client.find( '  five ' ) ).resolves.toEqual( {
			id: 5,
			title: 'Five',
			lng: 1,
			lat: 2,
			groups: [ 'a' ],
		} );
		expect( asked[ asked.length - 1 ] ).toBe(
			`${ URLS.placesUrl }&q=five&per_page=1`
		);
		const before = asked.length;
		await expect( client.find( '   ' ) ).resolves.toBeNull();
		expect( asked ).toHaveLength( before );
	} );

	it( 'lists 1-based on the server, 0-based to the controller, with the view, the origin and the filter', async () => {
		const asked = server( route );
		const client = createTiledClient( URLS );
		await client.load( [], {} as never );
		await client.filter( { search: 'five', hidden: [] } );
		const list = await client.list( {
			bbox: [ 1.123456789, 2, 3, 4 ],
			page: 1,
			pageSize: 500,
			origin: { lng: 5, lat: 6 },
		} );
		expect( list ).toEqual( {
			total: 120,
			page: 1,
			pages: 3,
			items: [
				{ id: 5, title: 'Five', lng: 1, lat: 2, groups: [ 'a' ] },
			],
		} );
		expect( asked[ asked.length - 1 ] ).toBe(
			`${ URLS.placesUrl }&q=five&bbox=1.1234568%2C2%2C3%2C4&near=5%2C6&page=2&per_page=50`
		);
	} );

	it( 'reveals a place by its id, at the first zoom its tile draws it alone', async () => {
		const asked = server( ( url ) => {
			if ( url.pathname.endsWith( '/places' ) ) {
				return route( url );
			}
			const z = Number(
				/tiles\/(\d+)\//.exec( url.pathname )?.[ 1 ] ?? -1
			);
			return {
				body: {
					type: 'FeatureCollection',
					features:
						z >= 15
							? [ point( 5, 1, 2 ) ]
							: [ cluster( 1, 1, 2, 2 ) ],
				},
			};
		} );
		const client = createTiledClient( URLS );
		await expect( client.reveal( 5, 3 ) ).resolves.toMatchObject( {
			id: 5,
			lng: 1,
			lat: 2,
			zoom: 15,
		} );
		expect( asked[ 0 ] ).toBe( `${ URLS.placesUrl }&include=5` );
		expect(
			tilePaths( asked ).map( ( path ) => path?.split( '/' )[ 0 ] )
		).toEqual( [ '14', '15' ] );
	} );

	it( 'takes the loader’s prefetched summary and first tiles instead of asking again', async () => {
		const asked = server( route );
		const view = {
			bbox: [ 1, 1, 2, 2 ] as [ number, number, number, number ],
			zoom: 3,
		};
		const prefetched = prefetchTiles( URLS, view );
		expect( asked ).toHaveLength( 2 );
		const client = createTiledClient( URLS, { prefetched } );
		await client.load( [], {} as never );
		await client.features( [ 1, 1, 2, 2 ], 3 );
		expect( asked ).toHaveLength( 2 );
	} );

	it( 'fails the load when the summary cannot be read (the controller then shows its alert)', async () => {
		server( ( url ) =>
			url.pathname.endsWith( '/summary' )
				? { status: 500, body: {} }
				: route( url )
		);
		await expect(
			createTiledClient( URLS ).load( [], {} as never )
		).rejects.toThrow( '500' );
		server( ( url ) =>
			url.pathname.endsWith( '/summary' )
				? { body: { message: 'not a summary' } }
				: route( url )
		);
		await expect(
			createTiledClient( URLS ).load( [], {} as never )
		).rejects.toThrow();
	} );

	it( 'fails the load when none of the first view’s tiles can be read', async () => {
		server( ( url ) =>
			url.pathname.includes( '/tiles/' )
				? { status: 503, body: {} }
				: route( url )
		);
		const client = createTiledClient( URLS, {
			firstView: { bbox: [ 1, 1, 2, 2 ], zoom: 3 },
		} );
		await expect( client.load( [], {} as never ) ).rejects.toThrow();
	} );

	it( 'a failed tile is not kept: the next view asks it again', async () => {
		let fail = true;
		const asked = server( ( url ) =>
			url.pathname.includes( '/tiles/' ) && fail
				? { status: 500, body: {} }
				: route( url )
		);
		const client = createTiledClient( URLS );
		await client.load( [], {} as never );
		await expect( client.features( [ 1, 1, 2, 2 ], 3 ) ).rejects.toThrow();
		fail = false;
		await expect(
			client.features( [ 1, 1, 2, 2 ], 3 )
		).resolves.toHaveLength( 1 );
		expect( tilePaths( asked ) ).toEqual( [ '3/4/3', '3/4/3' ] );
	} );

	it( 'asks the controller for the view itself, not a padded one (its tiles reach past it)', () => {
		expect( createTiledClient( URLS ).viewPad ).toBe( 0 );
	} );

	it( 'stops: nothing is asked after terminate()', async () => {
		const asked = server( route );
		const client = createTiledClient( URLS );
		client.terminate();
		await expect( client.features( [ 1, 1, 2, 2 ], 3 ) ).rejects.toThrow();
		expect( asked ).toEqual( [] );
	} );
} );

describe( 'what the tiled client reads of the server’s answers', () => {
	/** A server whose tile 3/4/3 (the view [1, 1, 2, 2] at zoom 3) holds `features`. */
	function tileOf( features: unknown[] | unknown ) {
		return server( ( url ) =>
			url.pathname.includes( '/tiles/' )
				? {
						body: Array.isArray( features )
							? { type: 'FeatureCollection', features }
							: features,
					}
				: route( url )
		);
	}

	it( 'draws the points and clusters of a tile, and nothing that is not one', async () => {
		tileOf( [
			point( 1, 1.5, 1.5 ),
			// A place with no title or groups, and groups that are not all slugs.
			{
				type: 'Feature',
				id: 2,
				geometry: { type: 'Point', coordinates: [ 1.5, 1.5 ] },
			},
			{
				type: 'Feature',
				id: 3,
				geometry: { type: 'Point', coordinates: [ 1.5, 1.5 ] },
				properties: { title: 7, groups: [ 'a', 3, null ] },
			},
			// Not points: a line, text coordinates, no geometry, ids that are not integers.
			{
				type: 'Feature',
				id: 4,
				geometry: {
					type: 'LineString',
					coordinates: [
						[ 1, 1 ],
						[ 2, 2 ],
					],
				},
			},
			{
				type: 'Feature',
				id: 5,
				geometry: { type: 'Point', coordinates: [ '1.5', 1.5 ] },
			},
			{
				type: 'Feature',
				id: 11,
				geometry: { type: 'Point', coordinates: [ 1.5, Infinity ] },
			},
			{ type: 'Feature', id: 6 },
			{
				type: 'Feature',
				id: 1.5,
				geometry: { type: 'Point', coordinates: [ 1.5, 1.5 ] },
			},
			{
				type: 'Feature',
				id: '7',
				geometry: { type: 'Point', coordinates: [ 1.5, 1.5 ] },
			},
			null,
			// Clusters: the count abbreviated as the server says, or the count itself.
			{
				...cluster( 8, 1.5, 1.5, 1200 ),
				properties: {
					cluster: true,
					point_count: 1200,
					point_count_abbreviated: '1.2k',
					cluster_id: 99,
					expansion_zoom: 6,
				},
			},
			{
				...cluster( 9, 1.5, 1.5, 4 ),
				properties: { cluster: true, point_count: 4 },
			},
			// A cluster that counts nothing is no cluster.
			{
				...cluster( 10, 1.5, 1.5, 4 ),
				properties: { cluster: true, point_count: '4' },
			},
		] );
		const client = createTiledClient( URLS );
		await client.load( [], {} as never );
		const features = await client.features( [ 1, 1, 2, 2 ], 3 );
		expect(
			features.map( ( { id, geometry, properties } ) => ( {
				id,
				coordinates: geometry.coordinates,
				properties,
			} ) )
		).toEqual( [
			{
				id: 1,
				coordinates: [ 1.5, 1.5 ],
				properties: { groups: [ 'a' ], title: 'Place 1' },
			},
			{
				id: 2,
				coordinates: [ 1.5, 1.5 ],
				properties: { groups: [], title: '' },
			},
			{
				id: 3,
				coordinates: [ 1.5, 1.5 ],
				properties: { groups: [ 'a' ], title: '' },
			},
			{
				id: 8,
				coordinates: [ 1.5, 1.5 ],
				properties: expect.objectContaining( {
					cluster: true,
					// The map's cluster is the feature's id, whatever the properties say.
					cluster_id: 8,
					point_count: 1200,
					point_count_abbreviated: '1.2k',
				} ),
			},
			{
				id: 9,
				coordinates: [ 1.5, 1.5 ],
				properties: {
					cluster: true,
					cluster_id: 9,
					point_count: 4,
					point_count_abbreviated: 4,
				},
			},
		] );
		expect( await client.expansion( 8 ) ).toBe( 6 );
	} );

	it.each( [
		[ 'a list', [] ],
		[ 'no features', { type: 'FeatureCollection' } ],
		[ 'nothing', null ],
	] )(
		'a tile that is %s fails the view (the controller’s alert)',
		async ( _name, body ) => {
			server( ( url ) =>
				url.pathname.includes( '/tiles/' ) ? { body } : route( url )
			);
			const client = createTiledClient( URLS );
			await client.load( [], {} as never );
			await expect(
				client.features( [ 1, 1, 2, 2 ], 3 )
			).rejects.toThrow( 'The tiles of this view could not be loaded.' );
		}
	);

	it( 'reads the summary’s counts, its matches and its bounds only when they are numbers', async () => {
		server( ( url ) =>
			url.pathname.endsWith( '/summary' )
				? {
						body: url.searchParams.has( 'q' )
							? { total: 300, groups: {}, bounds: [ 1, 2, 3 ] }
							: {
									total: 300,
									groups: { a: 200, b: 0, c: '5', d: -1 },
									bounds: [ 1, 2, 3, 'x' ],
								},
					}
				: route( url )
		);
		const client = createTiledClient( URLS );
		await expect( client.load( [], {} as never ) ).resolves.toEqual( {
			total: 300,
			groups: { a: 200 },
		} );
		// No matches: all of them; bounds that are not four numbers: none.
		await expect(
			client.filter( { search: 'x', hidden: [] } )
		).resolves.toEqual( { count: 300, bounds: null } );
	} );

	it.each( [
		[ 'no total', { groups: {} } ],
		[ 'a total as text', { total: '300' } ],
		[ 'a list', [] ],
	] )( 'a summary with %s fails the load', async ( _name, body ) => {
		server( ( url ) =>
			url.pathname.endsWith( '/summary' ) ? { body } : route( url )
		);
		await expect(
			createTiledClient( URLS ).load( [], {} as never )
		).rejects.toThrow( 'The places summary is not readable.' );
	} );

	it( 'lists only places it can show, pages counted from 1 however the server says them', async () => {
		server( ( url ) =>
			url.pathname.endsWith( '/places' )
				? {
						body: {
							total: 4,
							items: [
								{ id: 5, lng: 1, lat: 2, distance: 12.5 },
								{
									id: 6,
									title: [],
									lng: 1,
									lat: 2,
									groups: 'a',
									distance: 'near',
								},
								{ id: 7, lng: '1', lat: 2 },
								{ id: 8.5, lng: 1, lat: 2 },
								{ lng: 1, lat: 2 },
								'9',
							],
							page: 0,
							pages: -3,
						},
					}
				: route( url )
		);
		const client = createTiledClient( URLS );
		await client.load( [], {} as never );
		await expect(
			client.list( { bbox: null, page: 0, pageSize: 50 } as never )
		).resolves.toEqual( {
			total: 4,
			page: 0,
			pages: 1,
			items: [
				{
					id: 5,
					title: '',
					lng: 1,
					lat: 2,
					groups: [],
					distance: 12.5,
				},
				{ id: 6, title: '', lng: 1, lat: 2, groups: [] },
			],
		} );
	} );

	it( 'passes on a search the server stopped counting (capped), and nothing else calls it so', async () => {
		let capped: unknown = true;
		server( ( url ) =>
			url.pathname.endsWith( '/places' )
				? {
						body: {
							total: 10000,
							capped,
							items: [],
							page: 1,
							pages: 200,
						},
					}
				: route( url )
		);
		const client = createTiledClient( URLS );
		await client.load( [], {} as never );
		const query = { bbox: null, page: 0, pageSize: 50 } as never;
		await expect( client.list( query ) ).resolves.toMatchObject( {
			total: 10000,
			capped: true,
			pages: 200,
		} );
		capped = 'yes';
		expect( await client.list( query ) ).not.toHaveProperty( 'capped' );
	} );

	it.each( [
		[ 'no total', { items: [] } ],
		[ 'no items', { total: 3 } ],
		[ 'nothing', null ],
	] )( 'a list with %s fails', async ( _name, body ) => {
		server( ( url ) =>
			url.pathname.endsWith( '/places' ) ? { body } : route( url )
		);
		const client = createTiledClient( URLS );
		await client.load( [], {} as never );
		await expect(
			client.list( { bbox: null, page: 0, pageSize: 50 } as never )
		).rejects.toThrow( 'The places list is not readable.' );
	} );

	it( 'reveals nothing when the server does not list the place', async () => {
		server( ( url ) =>
			url.pathname.endsWith( '/places' )
				? { body: { total: 0, items: [] } }
				: route( url )
		);
		const client = createTiledClient( URLS );
		await client.load( [], {} as never );
		await expect( client.reveal( 5, 3 ) ).resolves.toBeNull();
	} );
} );
