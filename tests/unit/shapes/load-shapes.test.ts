/**
 * The shapes chunk (shapes/load-shapes.ts) on a stand-in map: it reads the feed, waits for the
 * style, then draws; the handle it gives the places answers for its shapes only (summary, box,
 * details), hides the shapes the places filter hides (by group, like a point, and by title or
 * group name), and highlights one. A feed that cannot be read leaves a polite notice and a
 * handle that knows no shape; a map removed meanwhile gets nothing drawn.
 */
import type { Map as MapboxMap } from 'mapbox-gl';

import feed from '../../fixtures/shapes-feed.json';
import {
	startShapes,
	type ShapesOptions,
} from '../../../packages/map/src/shapes/load-shapes';
import { StandInMap } from './stand-in-map';

const SHAPES_URL = 'https://example.test/wp-json/cairn/v1/shapes?group=trails';
const GROUPS = [
	{
		slug: 'trails',
		name: 'Hiking trails',
		color: '',
		icon: '',
		lineColor: '',
		lineWidth: 3,
		fillOpacity: 0.2,
	},
	{
		slug: 'zones',
		name: 'Protégé',
		color: '',
		icon: '',
		lineColor: '',
		lineWidth: 3,
		fillOpacity: 0.2,
	},
];

let answer: () => Promise< {
	ok: boolean;
	status: number;
	json: () => unknown;
} >;
let asked: string[] = [];

beforeEach( () => {
	asked = [];
	answer = async () => ( { ok: true, status: 200, json: async () => feed } );
	Object.assign( window, {
		fetch: jest.fn( ( url: string ) => {
			asked.push( url );
			return answer();
		} ),
	} );
} );

afterEach( () => {
	delete ( window as { fetch?: unknown } ).fetch;
} );

function start( overrides: Partial< ShapesOptions > = {} ) {
	const map = new StandInMap( [ 'cairn-clusters' ] );
	const options: ShapesOptions = {
		config: { shapesUrl: SHAPES_URL, groupStyles: GROUPS, units: 'metric' },
		lang: 'en',
		styled: Promise.resolve(),
		removed: () => false,
		onClick: jest.fn(),
		...overrides,
	};
	return { map, shapes: startShapes( map as unknown as MapboxMap, options ) };
}

/** The ids the line layer shows (null: every shape). */
function shown( map: StandInMap ): number[] | null {
	const filter = map.filters[ 'cairn-shapes-line' ] as
		[ string, unknown, [ string, number[] ] ] | null;
	return filter === null ? null : filter[ 2 ][ 1 ];
}

describe( 'startShapes', () => {
	it( 'reads the feed while the style loads and draws only once the style is in', async () => {
		let styleIn: () => void = () => undefined;
		const { map, shapes } = start( {
			styled: new Promise( ( resolve ) => ( styleIn = resolve ) ),
		} );
		expect( asked ).toEqual( [ SHAPES_URL ] );
		await Promise.resolve();
		await Promise.resolve();
		expect( map.sources ).toEqual( {} );
		styleIn();
		await expect( shapes ).resolves.not.toBeNull();
		expect( map.layers.map( ( { id } ) => id ) ).toEqual( [
			'cairn-shapes-fill',
			'cairn-shapes-halo',
			'cairn-shapes-line',
		] );
	} );

	it( 'answers for its own shapes only', async () => {
		const { shapes } = start();
		const handle = ( await shapes )!;
		expect( handle.summary( 101 ) ).toBe( '12.4 km, 650 m ascent' );
		expect( handle.summary( 103 ) ).toBe( '2.5 km' );
		expect( handle.summary( 5 ) ).toBeUndefined();
		expect( handle.bbox( 101 ) ).toEqual( [ 7.0, 46.0, 7.08, 46.03 ] );
		expect( handle.bbox( 5 ) ).toBeNull();
		const details = handle.details( document, 101 );
		expect( details?.querySelector( 'dl' )?.textContent ).toBe(
			'Length12.4 kmAscent650 mDescent600 m'
		);
		expect( handle.details( document, 5 ) ).toBeNull();
	} );

	it( 'gives lengths in the site’s units', async () => {
		const { shapes } = start( {
			config: {
				shapesUrl: SHAPES_URL,
				groupStyles: GROUPS,
				units: 'imperial',
			},
		} );
		expect( ( await shapes )!.summary( 101 ) ).toBe(
			'7.7 mi, 2,133 ft ascent'
		);
	} );

	it( 'hides a shape whose every group is switched off, never one without a group', async () => {
		const { map, shapes } = start();
		const handle = ( await shapes )!;
		handle.filter( [ 'trails' ], '' );
		expect( shown( map ) ).toEqual( [ 102, 103 ] );
		handle.filter( [ 'trails', 'zones' ], '' );
		expect( shown( map ) ).toEqual( [ 103 ] );
		handle.filter( [], '' );
		expect( shown( map ) ).toBeNull();
	} );

	it.each( [
		[ 'a word of its title', 'ridge', [ 101 ] ],
		[ 'its group’s name, accents and case aside', 'PROTEGE', [ 102 ] ],
		[ 'every word, in any order', 'trail hiking', [ 101 ] ],
		[ 'words no shape has all of', 'ridge quiet', [] ],
		// The title and the group names are separate words.
		[ 'words run together across them', 'trailhiking', [] ],
		// Words start where the place index's do (places/words.ts): not inside a word.
		[ 'the start of a word', 'rid', [ 101 ] ],
		[ 'a piece inside a word, which finds nothing', 'idge', [] ],
	] )( 'a search finds the shapes by %s', async ( _name, search, ids ) => {
		const { map, shapes } = start();
		( await shapes )!.filter( [], search );
		expect( shown( map ) ).toEqual( ids );
	} );

	it( 'shows a shape of two groups while one of them is on', async () => {
		answer = async () => ( {
			ok: true,
			status: 200,
			json: async () => ( {
				...feed,
				features: feed.features.map( ( feature ) =>
					feature.id === 101
						? {
								...feature,
								properties: {
									...feature.properties,
									groups: [ 'trails', 'zones' ],
								},
							}
						: feature
				),
			} ),
		} );
		const { map, shapes } = start();
		const handle = ( await shapes )!;
		handle.filter( [ 'trails' ], '' );
		expect( shown( map ) ).toEqual( [ 101, 102, 103 ] );
		handle.filter( [ 'zones', 'trails' ], '' );
		expect( shown( map ) ).toEqual( [ 103 ] );
	} );

	it( 'a search and a group switched off together', async () => {
		const { map, shapes } = start();
		( await shapes )!.filter( [ 'trails' ], 'road' );
		expect( shown( map ) ).toEqual( [ 103 ] );
	} );

	it( 'highlights its own shapes only', async () => {
		const { map, shapes } = start();
		const handle = ( await shapes )!;
		handle.highlight( 101 );
		expect( map.featureState ).toEqual( {
			'cairn-shapes/101': { focus: true },
		} );
		handle.highlight( 5 );
		expect( map.featureState ).toEqual( {
			'cairn-shapes/101': { focus: false },
		} );
		handle.remove();
		expect( map.layers ).toEqual( [] );
	} );

	it( 'draws nothing on a map removed while the feed loaded', async () => {
		const { map, shapes } = start( { removed: () => true } );
		await expect( shapes ).resolves.toBeNull();
		expect( map.sources ).toEqual( {} );
	} );

	it.each( [
		[
			'an error status',
			async () => ( {
				ok: false,
				status: 500,
				json: async () => ( {} ),
			} ),
		],
		[
			'a body that is no feed',
			async () => ( { ok: true, status: 200, json: async () => [] } ),
		],
		[
			'no answer',
			async () => {
				throw new TypeError( 'Failed to fetch' );
			},
		],
	] )(
		'a feed with %s leaves the points and says so politely',
		async ( _name, failure ) => {
			answer = failure as typeof answer;
			const { map, shapes } = start();
			const handle = ( await shapes )!;
			const notice = map.container.querySelector( '[role="status"]' );
			expect( notice?.textContent ).toBe(
				'The routes and areas of this map could not be loaded. Its places are shown.'
			);
			expect( map.sources ).toEqual( {} );
			expect( handle.summary( 101 ) ).toBeUndefined();
			expect( handle.bbox( 101 ) ).toBeNull();
			expect( handle.details( document, 101 ) ).toBeNull();
			expect( () => handle.filter( [ 'trails' ], 'x' ) ).not.toThrow();
			expect( () => handle.highlight( 101 ) ).not.toThrow();
			handle.remove();
			expect(
				map.container.querySelector( '[role="status"]' )
			).toBeNull();
		}
	);

	it( 'says nothing on a map removed while the feed failed', async () => {
		answer = async () => ( {
			ok: false,
			status: 500,
			json: async () => ( {} ),
		} );
		const { map, shapes } = start( { removed: () => true } );
		await expect( shapes ).resolves.toBeNull();
		expect( map.container.childElementCount ).toBe( 0 );
	} );
} );
