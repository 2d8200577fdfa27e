/**
 * The places engine: filter, clusters, list in view, search and reveal over real Supercluster and
 * KDBush indexes.
 */
import Supercluster from 'supercluster';

import {
	PlacesEngine,
	distance,
	fold,
	queryWords,
} from '../../../packages/map/src/places/engine';

function feed( places: Array< [ number, string, number, number, string[] ] > ) {
	return {
		type: 'FeatureCollection',
		features: places.map( ( [ id, title, lng, lat, groups ] ) => ( {
			type: 'Feature',
			id,
			geometry: { type: 'Point', coordinates: [ lng, lat ] },
			properties: { title, groups },
		} ) ),
	};
}

function engine( clusterEnabled = true ) {
	return new PlacesEngine( {
		clusterEnabled,
		clusterRadius: 80,
		clusterMaxZoom: 16,
		groups: [
			{ slug: 'cafes', name: 'Cafés' },
			{ slug: 'parks', name: 'Parks' },
		],
	} );
}

const PARIS = feed( [
	[ 1, 'Café de Flore', 2.3327, 48.854, [ 'cafes' ] ],
	[ 2, 'Les Deux Magots', 2.3333, 48.8539, [ 'cafes' ] ],
	[ 3, 'Jardin du Luxembourg', 2.3372, 48.8462, [ 'parks' ] ],
	[ 4, 'Parc Monceau', 2.3088, 48.8795, [ 'parks', 'cafes' ] ],
	[ 5, 'Ålesund harbour', 6.15, 62.47, [] ],
] );

describe( 'places engine', () => {
	it( 'builds the first cluster index in prepare(), so the first drawing only reads it', () => {
		const load = jest.spyOn( Supercluster.prototype, 'load' );
		try {
			const places = engine();
			places.load( PARIS );
			expect( load ).not.toHaveBeenCalled();
			places.prepare();
			expect( load ).toHaveBeenCalledTimes( 1 );
			const drawn = places.mapFeatures( [ -180, -85, 180, 85 ], 2 );
			expect( drawn.length ).toBeGreaterThan( 0 );
			expect( load ).toHaveBeenCalledTimes( 1 );
			// Without places, or without clustering, there is nothing to build.
			const empty = engine();
			empty.load( feed( [] ) );
			empty.prepare();
			const flat = engine( false );
			flat.load( PARIS );
			flat.prepare();
			expect( load ).toHaveBeenCalledTimes( 1 );
		} finally {
			load.mockRestore();
		}
	} );

	it( 'reads the feed, skipping what is not a place', () => {
		const places = engine();
		const loaded = places.load( {
			features: [
				...PARIS.features,
				{ id: 'x', geometry: { coordinates: [ 0, 0 ] } },
				{ id: 9, geometry: { coordinates: [ 200, 0 ] } },
				{ id: 10, geometry: { coordinates: [ 0, 100 ] } },
				{ id: 11, geometry: { coordinates: [ 0, -90.5 ] } },
				{ id: 12, geometry: { coordinates: [ -180.5, 0 ] } },
				{ id: 1, geometry: { coordinates: [ 0, 0 ] } }, // Duplicate id.
				null,
			],
		} );
		expect( loaded ).toEqual( {
			total: 5,
			groups: { cafes: 3, parks: 2 },
		} );
		expect( engine().load( 'nonsense' ).total ).toBe( 0 );
	} );

	it( 'keeps places on the edges of the world: latitude ±90, longitude ±180', () => {
		const places = engine();
		expect(
			places.load(
				feed( [
					[ 1, 'North Pole', 0, 90, [] ],
					[ 2, 'South Pole', 0, -90, [] ],
					[ 3, 'East', 180, 0, [] ],
					[ 4, 'West', -180, 0, [] ],
				] )
			).total
		).toBe( 4 );
	} );

	it( 'searches titles and group names, whatever the accents and case', () => {
		const places = engine();
		places.load( PARIS );
		expect( places.setFilter( { search: 'CAFE', hidden: [] } ).count ).toBe(
			3 // "Café de Flore", and the two places of the group "Cafés".
		);
		expect(
			places.setFilter( { search: 'alesund', hidden: [] } ).count
		).toBe( 1 );
		expect(
			places.setFilter( { search: 'deux magots', hidden: [] } ).count
		).toBe( 1 );
		// Words start where the place index's do: a prefix finds, a piece inside a word does not.
		expect( places.setFilter( { search: 'caf', hidden: [] } ).count ).toBe(
			3
		);
		expect( places.setFilter( { search: 'afe', hidden: [] } ).count ).toBe(
			0
		);
		expect( places.setFilter( { search: 'zzz', hidden: [] } ) ).toEqual( {
			count: 0,
			bounds: null,
		} );
		// Any length or script is only text.
		expect(
			places.setFilter( {
				search: '<img src=x>'.repeat( 5000 ),
				hidden: [],
			} ).count
		).toBe( 0 );
		expect(
			places.setFilter( { search: '東京 🗺️', hidden: [] } ).count
		).toBe( 0 );
	} );

	it( 'hides a group: a place stays while one of its groups is shown; unknown groups are ignored', () => {
		const places = engine();
		places.load( PARIS );
		const result = places.setFilter( {
			search: '',
			hidden: [ 'cafes', 'gone' ],
		} );
		expect( result.count ).toBe( 3 ); // Two parks (one also a café) and the ungrouped place.
		const listed = places.list( { bbox: null, page: 0, pageSize: 50 } );
		expect( listed.items.map( ( item ) => item.id ).sort() ).toEqual( [
			3, 4, 5,
		] );
	} );

	it( 'clusters only what passes the filter', () => {
		const places = engine();
		places.load( PARIS );
		const world: [ number, number, number, number ] = [
			-180, -85, 180, 85,
		];
		const count = (
			features: ReturnType< PlacesEngine[ 'mapFeatures' ] >
		) =>
			features.reduce(
				( sum, feature ) =>
					sum +
					( 'point_count' in feature.properties
						? feature.properties.point_count
						: 1 ),
				0
			);
		expect( count( places.mapFeatures( world, 3 ) ) ).toBe( 5 );
		places.setFilter( { search: '', hidden: [ 'parks' ] } );
		expect( count( places.mapFeatures( world, 3 ) ) ).toBe( 4 );
		const paris = places
			.mapFeatures( world, 3 )
			.find( ( feature ) => 'point_count' in feature.properties );
		expect( paris?.properties ).toMatchObject( { point_count: 3 } );
	} );

	it( 'a group filter draws at once from the counting index: counts follow, a cluster left with one place is that place', () => {
		const places = engine();
		places.load( PARIS );
		const world: [ number, number, number, number ] = [
			-180, -85, 180, 85,
		];
		// Hide the cafés: Flore and the Deux Magots go; Monceau (a park too) and the
		// Luxembourg stay, still one cluster of 2 at zoom 3.
		places.setFilter( { search: '', hidden: [ 'cafes' ] } );
		const atThree = places.mapFeatures( world, 3 );
		expect(
			atThree.map( ( feature ) =>
				'point_count' in feature.properties
					? feature.properties.point_count
					: feature.id
			)
		).toEqual( [ 2, 5 ] );
		// Hide the parks too: Monceau, hidden in both its groups, goes; Paris has no place left
		// and only the ungrouped place is drawn.
		places.setFilter( { search: '', hidden: [ 'cafes', 'parks' ] } );
		expect(
			places.mapFeatures( world, 3 ).map( ( feature ) => feature.id )
		).toEqual( [ 5 ] );
		// A cluster left with one shown place is drawn as that place.
		places.load(
			feed( [
				[ 1, 'A', 2.33, 48.85, [ 'cafes' ] ],
				[ 2, 'B', 2.331, 48.851, [ 'parks' ] ],
			] )
		);
		places.setFilter( { search: '', hidden: [ 'parks' ] } );
		const one = places.mapFeatures( world, 3 );
		expect( one ).toHaveLength( 1 );
		expect( one[ 0 ] ).toMatchObject( {
			id: 1,
			properties: { title: 'A' },
		} );
		expect( 'cluster' in one[ 0 ]!.properties ).toBe( false );
	} );

	it( 'lists the places in view, by title, in pages', () => {
		const places = engine();
		places.load( PARIS );
		const paris: [ number, number, number, number ] = [
			2.2, 48.8, 2.4, 48.9,
		];
		const first = places.list( { bbox: paris, page: 0, pageSize: 3 } );
		expect( first ).toMatchObject( { total: 4, page: 0, pages: 2 } );
		expect( first.items.map( ( item ) => item.title ) ).toEqual( [
			'Café de Flore',
			'Jardin du Luxembourg',
			'Les Deux Magots',
		] );
		const second = places.list( { bbox: paris, page: 7, pageSize: 3 } );
		expect( second.page ).toBe( 1 );
		expect( second.items.map( ( item ) => item.title ) ).toEqual( [
			'Parc Monceau',
		] );
	} );

	it( 'lists a second feed of the same size by its own titles', () => {
		const places = engine();
		places.load(
			feed( [
				[ 1, 'Beta', 2.33, 48.85, [] ],
				[ 2, 'Alpha', 2.34, 48.86, [] ],
			] )
		);
		const titles = () =>
			places
				.list( { bbox: null, page: 0, pageSize: 50 } )
				.items.map( ( item ) => item.title );
		expect( titles() ).toEqual( [ 'Alpha', 'Beta' ] );
		// The same number of places, other titles in another order.
		places.load(
			feed( [
				[ 3, 'Xray', 2.33, 48.85, [] ],
				[ 4, 'Zulu', 2.34, 48.86, [] ],
			] )
		);
		expect( titles() ).toEqual( [ 'Xray', 'Zulu' ] );
		expect( places.setFilter( { search: 'zulu', hidden: [] } ).count ).toBe(
			1
		);
		expect( titles() ).toEqual( [ 'Zulu' ] );
	} );

	it( 'lists across the antimeridian', () => {
		const places = engine();
		places.load(
			feed( [
				[ 1, 'Fiji', 178, -17, [] ],
				[ 2, 'Samoa', -172, -13, [] ],
				[ 3, 'Paris', 2, 48, [] ],
			] )
		);
		const list = places.list( {
			bbox: [ 170, -30, -160, 0 ],
			page: 0,
			pageSize: 50,
		} );
		expect( list.items.map( ( item ) => item.title ) ).toEqual( [
			'Fiji',
			'Samoa',
		] );
	} );

	it( 'sorts by distance from the visitor, nearest first', () => {
		const places = engine();
		places.load( PARIS );
		const list = places.list( {
			bbox: null,
			page: 0,
			pageSize: 2,
			origin: { lng: 2.309, lat: 48.879 },
		} );
		expect( list.items.map( ( item ) => item.id ) ).toEqual( [ 4, 1 ] );
		expect( list.items[ 0 ]!.distance ).toBeLessThan( 100 );
	} );

	it( 'pages a list sorted by distance: page 2 shares no place with page 1', () => {
		const places = engine();
		places.load( PARIS );
		const page = ( index: number ) =>
			places.list( {
				bbox: null,
				page: index,
				pageSize: 2,
				origin: { lng: 2.309, lat: 48.879 },
			} );
		const first = page( 0 );
		const second = page( 1 );
		const third = page( 2 );
		expect( [ first.pages, second.page, third.page ] ).toEqual( [
			3, 1, 2,
		] );
		const ids = ( list: typeof first ) =>
			list.items.map( ( item ) => item.id );
		expect( ids( first ) ).toEqual( [ 4, 1 ] );
		expect( ids( second ) ).toEqual( [ 2, 3 ] );
		expect( ids( third ) ).toEqual( [ 5 ] );
		// Nearest first across the pages.
		const distances = [ first, second, third ].flatMap( ( list ) =>
			list.items.map( ( item ) => item.distance! )
		);
		expect( distances ).toEqual(
			[ ...distances ].sort( ( a, b ) => a - b )
		);
	} );

	it( 'reveals a place inside a cluster at the zoom where it stands alone', () => {
		const places = engine();
		places.load( PARIS );
		const place = places.reveal( 2, 3 );
		expect( place ).toMatchObject( { id: 2, title: 'Les Deux Magots' } );
		expect( place!.zoom ).toBeGreaterThan( 10 );
		const features = places.mapFeatures(
			[ 2.3, 48.84, 2.36, 48.87 ],
			place!.zoom
		);
		expect(
			features.some(
				( feature ) =>
					! ( 'cluster' in feature.properties ) && feature.id === 2
			)
		).toBe( true );
		expect( places.reveal( 999, 3 ) ).toBeNull();
	} );

	it( 'keeps recent indexes: switching back costs no new index', () => {
		const places = engine();
		places.load( PARIS );
		places.setFilter( { search: '', hidden: [ 'parks' ] } );
		const features = places.mapFeatures( [ -180, -85, 180, 85 ], 0 );
		places.setFilter( { search: '', hidden: [] } );
		places.setFilter( { search: '', hidden: [ 'parks' ] } );
		expect( places.mapFeatures( [ -180, -85, 180, 85 ], 0 ) ).toEqual(
			features
		);
	} );

	it( 'keeps the unfiltered index and the last four filters: switching back builds nothing', () => {
		const builds = jest.spyOn( Supercluster.prototype, 'load' );
		try {
			const places = engine();
			places.load( PARIS );
			places.prepare();
			const world: [ number, number, number, number ] = [
				-180, -85, 180, 85,
			];
			// Searches: each has places of its own, so clusters of its own.
			const show = ( search: string ) => {
				places.setFilter( { search, hidden: [] } );
				return places.mapFeatures( world, 3 );
			};
			expect( builds ).toHaveBeenCalledTimes( 1 );
			const flore = show( 'flore' );
			expect( builds ).toHaveBeenCalledTimes( 2 );
			show( 'magots' );
			expect( builds ).toHaveBeenCalledTimes( 3 );
			// Back to the first search: kept.
			expect( show( 'flore' ) ).toEqual( flore );
			expect( builds ).toHaveBeenCalledTimes( 3 );
			show( 'jardin' );
			show( 'monceau' );
			show( 'alesund' );
			expect( builds ).toHaveBeenCalledTimes( 6 );
			// Four filters are kept beside the unfiltered one: the least recently used of five
			// ("magots") is built anew, the others are not.
			show( 'magots' );
			expect( builds ).toHaveBeenCalledTimes( 7 );
			show( 'jardin' );
			show( 'monceau' );
			show( 'alesund' );
			expect( builds ).toHaveBeenCalledTimes( 7 );
			// Every place again: the index of the first drawing.
			expect( show( '' ) ).toHaveLength( 2 );
			expect( builds ).toHaveBeenCalledTimes( 7 );
		} finally {
			builds.mockRestore();
		}
	} );

	it( 'draws a group filter from the counting index, building no clusters for it', () => {
		const clusterLoads = jest.spyOn( Supercluster.prototype, 'load' );
		try {
			const places = engine();
			places.load( PARIS );
			places.prepare();
			expect( clusterLoads ).toHaveBeenCalledTimes( 1 );
			const world: [ number, number, number, number ] = [
				-180, -85, 180, 85,
			];
			places.setFilter( { search: '', hidden: [ 'parks' ] } );
			expect(
				places
					.mapFeatures( world, 3 )
					.map( ( feature ) =>
						'point_count' in feature.properties
							? feature.properties.point_count
							: feature.id
					)
			).toEqual( [ 3, 5 ] );
			places.setFilter( { search: '', hidden: [ 'cafes' ] } );
			places.mapFeatures( world, 3 );
			// The cluster the visitor clicks breaks apart where the counting index says.
			const cluster = places
				.mapFeatures( world, 3 )
				.find( ( feature ) => 'cluster_id' in feature.properties );
			expect(
				places.expansionZoom( Number( cluster?.id ) )
			).toBeGreaterThan( 3 );
			expect( places.reveal( 3, 3 )?.zoom ).toBeGreaterThan( 10 );
			expect( clusterLoads ).toHaveBeenCalledTimes( 1 );
		} finally {
			clusterLoads.mockRestore();
		}
	} );

	it( 'gives every place that passes the filter when clustering is off', () => {
		const places = engine( false );
		places.load( PARIS );
		expect( places.mapFeatures( [ 0, 0, 1, 1 ], 3 ) ).toHaveLength( 5 );
	} );
} );

describe( 'text helpers', () => {
	it( 'folds accents and case', () => {
		expect( fold( 'Café ÅLESUND Straße' ) ).toBe( 'cafe alesund strasse' );
		expect( queryWords( '  Café,  de   FLORE ' ) ).toEqual( [
			'cafe',
			'de',
			'flore',
		] );
		const distinct = Array.from( { length: 100 }, ( _, i ) => `w${ i }` );
		expect( queryWords( distinct.join( ' ' ) ) ).toHaveLength( 16 );
		expect( queryWords( 'x '.repeat( 100 ) ) ).toEqual( [ 'x' ] );
	} );

	it( 'measures great-circle distances', () => {
		expect(
			distance(
				{ lng: 2.3522, lat: 48.8566 },
				{ lng: -0.1276, lat: 51.5072 }
			)
		).toBeCloseTo( 343_500, -3 );
	} );
} );

describe( 'places engine: edges', () => {
	const world: [ number, number, number, number ] = [ -180, -85, 180, 85 ];

	it( 'reads titles and groups that are not strings as none, and ids and points that are not numbers as no place', () => {
		const places = engine();
		const loaded = places.load( {
			features: [
				{
					id: 1,
					geometry: { coordinates: [ 1, 1 ] },
					properties: { title: 42, groups: [ 'cafes', 7, 'cafes' ] },
				},
				{ id: 2, geometry: { coordinates: [ 2, 2 ] }, properties: 'x' },
				{ id: 3, geometry: { coordinates: [ 3, 3 ] } },
				{ id: '4', geometry: { coordinates: [ 4, 4 ] } },
				{ id: 0, geometry: { coordinates: [ 0, 0 ] } },
				{ id: -5, geometry: { coordinates: [ 0, 0 ] } },
				{ id: 6.5, geometry: { coordinates: [ 0, 0 ] } },
				{ id: 7, geometry: { coordinates: [ NaN, 0 ] } },
				{ id: 8, geometry: { coordinates: [ 0, Infinity ] } },
				{ id: 9, geometry: { coordinates: [ '1', 0 ] } },
				{ id: 10, geometry: { coordinates: [ 0, '1' ] } },
				{ id: 11, geometry: { coordinates: [ 0 ] } },
				{ id: 12, geometry: 'nowhere' },
				{ id: 13 },
			],
		} );
		expect( loaded ).toEqual( { total: 4, groups: { cafes: 2 } } );
		const listed = places.list( { bbox: null, page: 0, pageSize: 10 } );
		expect(
			listed.items.map( ( item ) => [ item.id, item.title, item.groups ] )
		).toEqual( [
			[ 1, '', [ 'cafes', 'cafes' ] ],
			[ 2, '', [] ],
			[ 3, '', [] ],
			[ 4, '', [] ],
		] );
		expect( engine().load( { features: 'none' } ).total ).toBe( 0 );
		expect( engine().load( null ).total ).toBe( 0 );
	} );

	it( 'lists pages of at least one place, from the first page for a page that is not a number', () => {
		const places = engine();
		places.load( PARIS );
		expect(
			places.list( { bbox: null, page: NaN, pageSize: 0.5 } )
		).toMatchObject( { page: 0, pages: 5, items: [ { id: 5 } ] } );
		expect(
			places.list( { bbox: null, page: -3, pageSize: 2.9 } )
		).toMatchObject( { page: 0, pages: 3, total: 5 } );
		expect(
			places
				.list( { bbox: null, page: 1.7, pageSize: 2 } )
				.items.map( ( item ) => item.title )
		).toEqual( [ 'Jardin du Luxembourg', 'Les Deux Magots' ] );
		// Nothing passes the filter: one empty page.
		places.setFilter( { search: 'zzz', hidden: [] } );
		expect( places.list( { bbox: null, page: 2, pageSize: 2 } ) ).toEqual( {
			total: 0,
			page: 0,
			pages: 1,
			items: [],
		} );
	} );

	it( 'takes hidden groups in any order and once: the same filter, no new index', () => {
		const builds = jest.spyOn( Supercluster.prototype, 'load' );
		try {
			const places = engine();
			places.load( PARIS );
			places.setFilter( { search: 'a', hidden: [ 'parks', 'cafes' ] } );
			places.mapFeatures( world, 3 );
			expect(
				places.setFilter( {
					search: 'A',
					hidden: [ 'cafes', 'parks', 'cafes', 'gone' ],
				} ).count
			).toBe( 1 );
			places.mapFeatures( world, 3 );
			expect( builds ).toHaveBeenCalledTimes( 1 );
		} finally {
			builds.mockRestore();
		}
	} );

	it( 'abbreviates the counts of large clusters drawn from the counting index', () => {
		const many = ( count: number, from: number, group: string ) =>
			Array.from(
				{ length: count },
				( _, index ): [ number, string, number, number, string[] ] => [
					from + index,
					`P${ from + index }`,
					2.3 + ( index % 100 ) / 10000,
					48.85 + Math.floor( index / 100 ) / 10000,
					[ group ],
				]
			);
		const places = engine();
		places.load(
			feed( [
				...many( 1234, 1, 'cafes' ),
				...many( 10_600, 5000, 'parks' ),
			] )
		);
		const count = ( hidden: string[] ) => {
			places.setFilter( { search: '', hidden } );
			return places
				.mapFeatures( world, 0 )
				.map( ( feature ) =>
					'point_count' in feature.properties
						? [
								feature.properties.point_count,
								feature.properties.point_count_abbreviated,
							]
						: null
				);
		};
		expect( count( [ 'parks' ] ) ).toEqual( [ [ 1234, '1.2k' ] ] );
		expect( count( [ 'cafes' ] ) ).toEqual( [ [ 10_600, '11k' ] ] );
		places.load( feed( many( 999, 1, 'cafes' ) ) );
		places.load(
			feed( [ ...many( 999, 1, 'cafes' ), ...many( 2, 5000, 'parks' ) ] )
		);
		expect( count( [ 'parks' ] ) ).toEqual( [ [ 999, 999 ] ] );
	} );

	it( 'rebuilds the clusters of a group filter when the places have too many group combinations to count', () => {
		const builds = jest.spyOn( Supercluster.prototype, 'load' );
		try {
			const places = engine();
			// 33 combinations: one group each.
			places.load(
				feed(
					Array.from( { length: 33 }, ( _, index ) => [
						index + 1,
						`P${ index }`,
						2.3 + index / 1000,
						48.85,
						[ `g${ index }` ],
					] )
				)
			);
			places.prepare();
			expect( builds ).toHaveBeenCalledTimes( 1 );
			places.setFilter( { search: '', hidden: [ 'g0' ] } );
			const drawn = places.mapFeatures( world, 3 );
			expect( builds ).toHaveBeenCalledTimes( 2 );
			expect( drawn ).toEqual( [
				expect.objectContaining( {
					properties: expect.objectContaining( { point_count: 32 } ),
				} ),
			] );
		} finally {
			builds.mockRestore();
		}
	} );

	it( 'reveals a place at the zoom asked when it is not clustered or not shown', () => {
		const flat = engine( false );
		flat.load( PARIS );
		expect( flat.reveal( 2, 3.5 ) ).toMatchObject( { id: 2, zoom: 3.5 } );
		const places = engine();
		places.load( PARIS );
		places.setFilter( { search: '', hidden: [ 'cafes' ] } );
		// The Deux Magots are hidden: nothing to break apart for them.
		expect( places.reveal( 2, 4 ) ).toMatchObject( { id: 2, zoom: 4 } );
		// Asked from beyond the cluster's last zoom: that zoom.
		places.setFilter( { search: '', hidden: [] } );
		expect( places.reveal( 2, 20 )?.zoom ).toBe( 20 );
		// Ålesund stands alone from zoom 2; without clusters, from 0.
		expect( places.reveal( 5, -2 )?.zoom ).toBe( 2 );
		expect( flat.reveal( 5, -2 )?.zoom ).toBe( 0 );
	} );

	it( 'draws nothing without places, and a zoom below 0 as 0', () => {
		const empty = engine();
		empty.load( feed( [] ) );
		expect( empty.mapFeatures( world, 3 ) ).toEqual( [] );
		expect( empty.list( { bbox: world, page: 0, pageSize: 5 } ) ).toEqual( {
			total: 0,
			page: 0,
			pages: 1,
			items: [],
		} );
		expect( empty.expansionZoom( 1 ) ).toBeNull();
		const places = engine();
		places.load( PARIS );
		expect( places.mapFeatures( world, -1 ) ).toEqual(
			places.mapFeatures( world, 0 )
		);
		expect( places.mapFeatures( world, 3.9 ) ).toEqual(
			places.mapFeatures( world, 3 )
		);
		expect( places.expansionZoom( 987654321 ) ).toBeNull();
	} );
} );

describe( 'text helpers: limits', () => {
	it( 'reads at most 200 characters of a search, 16 words of at most 32 characters', () => {
		const long = 'a'.repeat( 150 );
		expect( queryWords( long ) ).toEqual( [ 'a'.repeat( 32 ) ] );
		expect( queryWords( 'x'.repeat( 199 ) + ' tail' ) ).toEqual( [
			'x'.repeat( 32 ),
		] );
		expect( queryWords( 'x'.repeat( 194 ) + ' tail' ) ).toEqual( [
			'x'.repeat( 32 ),
			'tail',
		] );
		expect( queryWords( '«Café»/du-Port;(Nice)' ) ).toEqual( [
			'cafe',
			'du',
			'port',
			'nice',
		] );
		expect( queryWords( ' ,; ' ) ).toEqual( [] );
	} );

	it( 'gives antipodes half the circumference', () => {
		expect(
			distance( { lng: 0, lat: 0 }, { lng: 180, lat: 0 } )
		).toBeCloseTo( Math.PI * 6_371_008.8, 0 );
		expect( distance( { lng: 5, lat: 5 }, { lng: 5, lat: 5 } ) ).toBe( 0 );
	} );
} );
