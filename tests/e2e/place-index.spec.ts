/**
 * The place index on the Playground site's SQLite database (plugin/Index/): markers created,
 * edited, regrouped, unpublished and deleted over REST reach the index's tables, every cell
 * aggregate equals a recount, and a rebuild from scratch gives the same rows. The tables are read
 * through the test plugin `cairn-index-probe` (tests/fixtures/plugins/).
 */
import type { RequestUtils } from '@wordpress/e2e-test-utils-playwright';

import { test, expect } from './fixtures/maps-service';

const PROBE = 'cairn-index-probe/cairn-index-probe';

interface IndexedPlace {
	code: string;
	wantCode: string;
	lat: number;
	lng: number;
	groups: string[];
	title: string;
	sortKey: string;
	words: string[];
}

interface IndexState {
	ready: boolean;
	count: number;
	places: Record< string, IndexedPlace >;
	cellsMatch: boolean;
	cells: number;
	stamps: number;
	errors: string;
}

function indexState(
	requestUtils: RequestUtils,
	ids: number[]
): Promise< IndexState > {
	return requestUtils.rest( {
		path: '/cairn-index-probe/v1/places',
		params: { ids: ids.join( ',' ) },
	} ) as Promise< IndexState >;
}

/**
 * One indexed place of a state (fails the test when missing).
 *
 * @param state The index's state.
 * @param id    Post id.
 */
function placeOf( state: IndexState, id: number ): IndexedPlace {
	const place = state.places[ String( id ) ];
	if ( ! place ) {
		throw new Error( `post ${ id } is not in the index` );
	}
	return place;
}

async function createMarker(
	requestUtils: RequestUtils,
	title: string,
	lat: number,
	lng: number,
	groups: number[]
): Promise< number > {
	const marker = ( await requestUtils.rest( {
		method: 'POST',
		path: '/wp/v2/cairn-markers',
		data: {
			title,
			status: 'publish',
			meta: { cairn_lat: lat, cairn_lng: lng },
			'cairn-marker-groups': groups,
		},
	} ) ) as { id: number };
	return marker.id;
}

test.describe( 'place index on SQLite', () => {
	test.describe.configure( { timeout: 180_000 } );

	test.beforeAll( async ( { requestUtils } ) => {
		await requestUtils.rest( {
			method: 'POST',
			path: `/wp/v2/plugins/${ PROBE }`,
			data: { status: 'active' },
		} );
	} );

	test.afterAll( async ( { requestUtils } ) => {
		await requestUtils.rest( {
			method: 'POST',
			path: `/wp/v2/plugins/${ PROBE }`,
			data: { status: 'inactive' },
		} );
	} );

	test( 'changes over REST reach the tables, and a rebuild gives the same', async ( {
		requestUtils,
	} ) => {
		// Unique, so what an earlier run left on a reused site does not count.
		const run = `r${ Date.now() }`;
		const group = async ( name: string ) =>
			(
				( await requestUtils.rest( {
					method: 'POST',
					path: '/wp/v2/cairn-marker-groups',
					data: {
						name: `${ name } ${ run }`,
						slug: `${ name }-${ run }`,
					},
				} ) ) as { id: number }
			 ).id;
		const huts = await group( 'huts' );
		const lakes = await group( 'lakes' );

		// The site builds its index in the background after activation: wait for it.
		await expect
			.poll( async () => ( await indexState( requestUtils, [] ) ).ready, {
				timeout: 60_000,
			} )
			.toBe( true );

		const cafe = await createMarker(
			requestUtils,
			`Café Ålesund ${ run }`,
			62.47,
			6.15,
			[ huts ]
		);
		const lake = await createMarker(
			requestUtils,
			`Lake ${ run }`,
			47.1,
			11.2,
			[ huts, lakes ]
		);
		const gone = await createMarker(
			requestUtils,
			`Gone ${ run }`,
			-33.86,
			151.21,
			[]
		);
		const ids = [ cafe, lake, gone ];

		let state = await indexState( requestUtils, ids );
		expect( state.errors ).toBe( '' );
		expect( Object.keys( state.places ).sort() ).toEqual(
			ids.map( String ).sort()
		);
		const indexed = placeOf( state, cafe );
		expect( indexed.code ).toBe( indexed.wantCode );
		expect( indexed.title ).toBe( `Café Ålesund ${ run }` );
		expect( indexed.sortKey ).toBe( `cafe alesund ${ run }` );
		expect( indexed.words ).toEqual( [ 'alesund', 'cafe', run ] );
		expect( indexed.groups ).toEqual( [ `huts-${ run }` ] );
		expect( placeOf( state, lake ).groups ).toEqual( [
			`huts-${ run }`,
			`lakes-${ run }`,
		] );
		expect( state.cellsMatch ).toBe( true );

		// Moved and renamed, regrouped, unpublished, deleted.
		await requestUtils.rest( {
			method: 'POST',
			path: `/wp/v2/cairn-markers/${ cafe }`,
			data: {
				title: `Harbour ${ run }`,
				meta: { cairn_lat: 40.5, cairn_lng: -3.7 },
			},
		} );
		await requestUtils.rest( {
			method: 'POST',
			path: `/wp/v2/cairn-markers/${ lake }`,
			data: { 'cairn-marker-groups': [ lakes ] },
		} );
		await requestUtils.rest( {
			method: 'POST',
			path: `/wp/v2/cairn-markers/${ gone }`,
			data: { status: 'draft' },
		} );
		state = await indexState( requestUtils, ids );
		expect( state.errors ).toBe( '' );
		expect( Object.keys( state.places ).sort() ).toEqual(
			[ cafe, lake ].map( String ).sort()
		);
		const moved = placeOf( state, cafe );
		expect( [ moved.lat, moved.lng, moved.title ] ).toEqual( [
			40.5,
			-3.7,
			`Harbour ${ run }`,
		] );
		expect( moved.code ).toBe( moved.wantCode );
		expect( moved.words ).toEqual( [ 'harbour', run ] );
		expect( placeOf( state, lake ).groups ).toEqual( [ `lakes-${ run }` ] );
		expect( state.cellsMatch ).toBe( true );

		await requestUtils.rest( {
			method: 'DELETE',
			path: `/wp/v2/cairn-markers/${ lake }`,
			params: { force: true },
		} );
		const incremental = await indexState( requestUtils, ids );
		expect( Object.keys( incremental.places ) ).toEqual( [
			String( cafe ),
		] );
		expect( incremental.cellsMatch ).toBe( true );

		// A rebuild from scratch (batches of 2) gives the same rows and cells.
		const rebuilt = ( await requestUtils.rest( {
			method: 'POST',
			path: '/cairn-index-probe/v1/rebuild',
			params: { ids: ids.join( ',' ) },
		} ) ) as IndexState;
		expect( rebuilt.errors ).toBe( '' );
		expect( rebuilt.ready ).toBe( true );
		expect( rebuilt.places ).toEqual( incremental.places );
		expect( rebuilt.count ).toBe( incremental.count );
		expect( rebuilt.cells ).toBe( incremental.cells );
		expect( rebuilt.cellsMatch ).toBe( true );

		await requestUtils.rest( {
			method: 'DELETE',
			path: `/wp/v2/cairn-markers/${ cafe }`,
			params: { force: true },
		} );
		await requestUtils.rest( {
			method: 'DELETE',
			path: `/wp/v2/cairn-markers/${ gone }`,
			params: { force: true },
		} );
	} );
} );
