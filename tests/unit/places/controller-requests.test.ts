/**
 * The places controller's requests to the places worker, answered by the test in the order it
 * chooses: a newer query supersedes an older one (its late answer is dropped), the map's clusters
 * are asked for one request at a time, failures leave what the visitor sees as it was, and each
 * change is announced once, with the words a screen reader user hears.
 *
 * controller.test.tsx runs the controller over the real places engine; here the client is a
 * stand-in whose answers the test holds and releases.
 */
import { parseMapConfig } from '../../../packages/map/src/config';
import {
	PlacesController,
	type PlacesChangeDetail,
	type PlacesState,
} from '../../../packages/map/src/places/controller';
import type { PlacesClient } from '../../../packages/map/src/places/client';
import type {
	ListedPlace,
	ListResult,
	LoadResult,
} from '../../../packages/map/src/places/engine';
import type { PopupController } from '../../../packages/map/src/popup';
import { StandInMap, type BBox } from './stand-in-map';
import { stateWhere } from './until-state';

const PARIS: BBox = [ 2.2, 48.8, 2.4, 48.9 ];
const OSLO: BBox = [ 10.6, 59.85, 10.85, 59.97 ];
const ATLANTIC: BBox = [ -40, 20, -30, 30 ];

/**
 * A view as the controller sends it (longitudes pass through a wrap: not bit for bit).
 * @param bbox
 */
const near = ( bbox: BBox ) =>
	bbox.map( ( value ) => expect.closeTo( value, 9 ) );

type Method = Exclude< keyof PlacesClient, 'terminate' >;

/** One request the controller made, waiting for the test's answer. */
interface Asked {
	method: Method;
	args: unknown[];
	/** Answers it; resolves once the controller has taken the answer in. */
	answer: ( value: unknown ) => Promise< void >;
	fail: () => Promise< void >;
}

/**
 * A places client whose every request waits for the test (the map's clusters are answered at
 * once, with none, unless `holdFeatures`).
 */
function standInClient() {
	const asked: Asked[] = [];
	const waiters: Array< () => void > = [];
	let holdFeatures = false;
	const request =
		( method: Method ) =>
		( ...args: unknown[] ): Promise< never > => {
			let settle!: ( ok: boolean, value: unknown ) => void;
			const promise = new Promise< never >( ( resolve, reject ) => {
				settle = ( ok, value ) =>
					ok ? resolve( value as never ) : reject( value as Error );
			} );
			// The controller's own `await` on this promise runs before the test's.
			const taken = () =>
				promise.then(
					() => undefined,
					() => undefined
				);
			if ( method === 'features' && ! holdFeatures ) {
				settle( true, [] );
			}
			asked.push( {
				method,
				args,
				answer: ( value ) => {
					settle( true, value );
					return taken();
				},
				fail: () => {
					settle( false, new Error( 'No places are loaded.' ) );
					return taken();
				},
			} );
			waiters.splice( 0 ).forEach( ( wake ) => wake() );
			return promise;
		};
	const client: PlacesClient = {
		load: request( 'load' ),
		filter: request( 'filter' ),
		features: request( 'features' ),
		list: request( 'list' ),
		expansion: request( 'expansion' ),
		reveal: request( 'reveal' ),
		find: request( 'find' ),
		terminate: jest.fn(),
	};
	const of = ( method: Method ) =>
		asked.filter( ( item ) => item.method === method );
	/**
	 * The nth request of a kind (0-based), once the controller has made it.
	 * @param method
	 * @param index
	 */
	const nth = async ( method: Method, index: number ): Promise< Asked > => {
		while ( of( method ).length <= index ) {
			await new Promise< void >( ( wake ) => waiters.push( wake ) );
		}
		return of( method )[ index ]!;
	};
	return {
		client,
		of,
		nth,
		holdFeatures: () => {
			holdFeatures = true;
		},
	};
}

function place( id: number, extra: Partial< ListedPlace > = {} ): ListedPlace {
	return {
		id,
		title: `Place ${ id }`,
		lng: 2.3,
		lat: 48.85,
		groups: [],
		...extra,
	};
}

function listOf( ids: number[], total = ids.length, page = 0 ): ListResult {
	return {
		total,
		page,
		pages: Math.max( 1, Math.ceil( total / 50 ) ),
		items: ids.map( ( id ) => place( id ) ),
	};
}

const mounted: PlacesController[] = [];
afterEach( () => {
	mounted.splice( 0 ).forEach( ( places ) => places.destroy() );
	document.body.replaceChildren();
	window.history.replaceState( null, '', '/' );
} );

function start( config: Record< string, unknown > = {} ) {
	const parsed = parseMapConfig( {
		markersUrl: 'https://example.test/feed',
		groupStyles: [
			{ slug: 'cafes', name: 'Cafés' },
			{ slug: 'parks', name: 'Parks' },
		],
		...config,
	} );
	const host = document.createElement( 'div' );
	document.body.append( host );
	const map = new StandInMap( PARIS );
	const stand = standInClient();
	const popups = { open: jest.fn() };
	const onError = jest.fn();
	const onFirstDraw = jest.fn();
	let load!: ( value: LoadResult ) => void;
	const places = new PlacesController( {
		map: map as never,
		host,
		config: parsed,
		client: stand.client,
		popups: popups as unknown as PopupController,
		loading: new Promise( ( resolve ) => {
			load = resolve;
		} ),
		onError,
		onLoaded: () => undefined,
		onFirstDraw,
	} );
	mounted.push( places );
	/** What the status region said, each time it was told. */
	const announced: string[] = [];
	const region = host.querySelector( '[role="status"]' )!;
	new MutationObserver( ( records ) =>
		records.forEach( () => announced.push( region.textContent ?? '' ) )
	).observe( region, { childList: true, characterData: true } );
	/** What the page was told (`cairn:places-change`). */
	const changes: PlacesChangeDetail[] = [];
	host.addEventListener( 'cairn:places-change', ( event ) =>
		changes.push( ( event as CustomEvent ).detail )
	);
	/**
	 * Resolves once the state satisfies the condition.
	 * @param condition
	 */
	const until = ( condition: ( state: PlacesState ) => boolean ) =>
		stateWhere( places, condition );
	/**
	 * The places are in (3 of them: 2 cafés, 1 park) and the first list is answered.
	 * @param first
	 */
	const ready = async ( first = listOf( [ 1, 2 ] ) ) => {
		loadPlaces();
		await ( await stand.nth( 'list', 0 ) ).answer( first );
	};
	/** The places are in (3 of them: 2 cafés, 1 park). */
	const loadPlaces = () =>
		load( { total: 3, groups: { cafes: 2, parks: 1 } } );
	/** Resolves once the page was told of the nth change (1-based). */
	const told = async ( count: number ) => {
		while ( changes.length < count ) {
			await new Promise< void >( ( resolve ) =>
				host.addEventListener( 'cairn:places-change', () => resolve(), {
					once: true,
				} )
			);
		}
	};
	return {
		places,
		map,
		host,
		popups,
		onError,
		onFirstDraw,
		announced,
		changes,
		until,
		ready,
		loadPlaces,
		told,
		...stand,
	};
}

describe( 'places controller: a newer request supersedes an older one', () => {
	it( 'drops the list of a view the map has left, and announces only the view it is at', async () => {
		const { places, map, nth, of, ready, announced, changes, told } =
			start();
		await ready();
		// The first list is not announced: nothing changed yet.
		expect( announced ).toEqual( [] );
		map.moveTo( OSLO );
		map.moveTo( ATLANTIC );
		const [ toOslo, toSea ] = [
			await nth( 'list', 1 ),
			await nth( 'list', 2 ),
		];
		expect( toOslo.args[ 0 ] ).toMatchObject( {
			bbox: near( OSLO ),
			page: 0,
		} );
		expect( toSea.args[ 0 ] ).toMatchObject( {
			bbox: near( ATLANTIC ),
			page: 0,
		} );
		await toSea.answer( listOf( [] ) );
		await toOslo.answer( listOf( [ 5, 6 ] ) );
		await told( 1 );
		expect( places.getState().list.total ).toBe( 0 );
		expect( announced ).toEqual( [ '0 places in view.' ] );
		expect( changes ).toEqual( [
			{
				search: '',
				hiddenGroups: [],
				total: 3,
				inView: 0,
				mode: 'view',
			},
		] );
		expect( of( 'list' ) ).toHaveLength( 3 );
	} );

	it( "drops an older search's answer: the count, list and announcement are the newer one's", async () => {
		const { places, nth, of, ready, announced, told } = start();
		await ready();
		places.setSearch( 'caf' );
		places.setSearch( 'café' );
		// The same text again asks nothing.
		places.setSearch( 'café' );
		const [ older, newer ] = [
			await nth( 'filter', 0 ),
			await nth( 'filter', 1 ),
		];
		expect( of( 'filter' ) ).toHaveLength( 2 );
		expect( older.args ).toEqual( [ { search: 'caf', hidden: [] } ] );
		expect( newer.args ).toEqual( [ { search: 'café', hidden: [] } ] );
		await newer.answer( { count: 2, bounds: [ 2.3, 48.85, 2.31, 48.86 ] } );
		await older.answer( { count: 7, bounds: [ 0, 0, 1, 1 ] } );
		// Only the newer search asked for its list: every match, wherever it is.
		expect( of( 'list' ) ).toHaveLength( 2 );
		const list = await nth( 'list', 1 );
		expect( list.args[ 0 ] ).toMatchObject( { bbox: null, page: 0 } );
		await list.answer( listOf( [ 1, 2 ] ) );
		await told( 1 );
		expect( places.getState() ).toMatchObject( {
			search: 'café',
			matches: 2,
			mode: 'search',
		} );
		expect( announced ).toEqual( [ '2 places match “café”.' ] );
	} );

	it( 'asks for the clusters one request at a time, and once more for the view the moves end at', async () => {
		const { map, nth, of, ready, holdFeatures } = start();
		holdFeatures();
		const loaded = ready();
		const first = await nth( 'features', 0 );
		map.moveTo( OSLO );
		map.moveTo( ATLANTIC, 7 );
		map.moveTo( PARIS, 9 );
		// Still drawing: nothing more asked.
		expect( of( 'features' ) ).toHaveLength( 1 );
		await first.answer( [] );
		const again = await nth( 'features', 1 );
		// The view it came to rest at, grown by half its size on each side.
		expect( again.args ).toEqual( [
			near( [ 2.1, 48.75, 2.5, 48.95 ] ),
			9,
		] );
		await again.answer( [] );
		await loaded;
		expect( of( 'features' ) ).toHaveLength( 2 );
	} );

	it( 'takes in only the latest of two reloads', async () => {
		const { places, nth, ready } = start();
		await ready();
		const older = places.reload( 'https://example.test/feed?older' );
		const newer = places.reload( 'https://example.test/feed?newer' );
		const [ first, second ] = [
			await nth( 'load', 0 ),
			await nth( 'load', 1 ),
		];
		expect( second.args[ 0 ] ).toBe( 'https://example.test/feed?newer' );
		await second.answer( { total: 1, groups: { parks: 1 } } );
		await first.answer( { total: 9, groups: { cafes: 9 } } );
		await older;
		expect( places.getState() ).toMatchObject( {
			total: 1,
			groups: [ expect.objectContaining( { slug: 'parks' } ) ],
		} );
		( await nth( 'filter', 0 ) ).answer( { count: 1, bounds: null } );
		( await nth( 'list', 1 ) ).answer( listOf( [ 3 ] ) );
		await newer;
	} );
} );

describe( 'places controller: what is announced, once', () => {
	it( 'announces each change once, with its count and the groups hidden; paging announces nothing', async () => {
		const { places, map, nth, ready, announced, changes, told } = start();
		await ready();
		places.toggleGroup( 'cafes' );
		expect( places.getState().hidden ).toEqual( [ 'cafes' ] );
		( await nth( 'filter', 0 ) ).answer( { count: 1, bounds: null } );
		await ( await nth( 'list', 1 ) ).answer( listOf( [ 3 ] ) );
		await told( 1 );
		places.toggleGroup( 'parks' );
		( await nth( 'filter', 1 ) ).answer( { count: 0, bounds: null } );
		await ( await nth( 'list', 2 ) ).answer( listOf( [] ) );
		await told( 2 );
		// A toggle pressed again shows the group again.
		places.toggleGroup( 'cafes' );
		expect( places.getState().hidden ).toEqual( [ 'parks' ] );
		( await nth( 'filter', 2 ) ).answer( { count: 2, bounds: null } );
		await ( await nth( 'list', 3 ) ).answer( listOf( [ 1, 2 ] ) );
		await told( 3 );
		expect( announced ).toEqual( [
			'1 place in view, 1 group hidden.',
			'0 places in view, 2 groups hidden.',
			'2 places in view, 1 group hidden.',
		] );
		expect( changes.map( ( change ) => change.hiddenGroups ) ).toEqual( [
			[ 'cafes' ],
			[ 'cafes', 'parks' ],
			[ 'parks' ],
		] );
		// Another page of the same list: no announcement, and no change told.
		places.setPage( 1 );
		const paged = await nth( 'list', 4 );
		expect( paged.args[ 0 ] ).toEqual( {
			bbox: near( PARIS ),
			page: 1,
			pageSize: 50,
			origin: null,
		} );
		await paged.answer( listOf( [ 51 ], 51, 1 ) );
		expect( places.getState().list.page ).toBe( 1 );
		// "List after a move": the first page of the new view, announced.
		map.moveTo( OSLO );
		const moved = await nth( 'list', 5 );
		expect( moved.args[ 0 ] ).toMatchObject( {
			bbox: near( OSLO ),
			page: 0,
		} );
		await moved.answer( listOf( [ 5 ] ) );
		await told( 4 );
		expect( announced ).toHaveLength( 4 );
		expect( announced[ 3 ] ).toBe( '1 place in view, 1 group hidden.' );
		expect( changes ).toHaveLength( 4 );
	} );

	it( 'counts every place, not those in view, where the list does not follow the map', async () => {
		const { places, map, nth, of, ready, announced, told } = start( {
			places: { followMap: false },
		} );
		await ready( listOf( [ 1, 2, 3 ] ) );
		expect( of( 'list' )[ 0 ]!.args[ 0 ] ).toMatchObject( { bbox: null } );
		map.moveTo( OSLO );
		const moved = await nth( 'list', 1 );
		expect( moved.args[ 0 ] ).toMatchObject( { bbox: null } );
		await moved.answer( listOf( [ 1 ] ) );
		await told( 1 );
		places.setOrigin( { lng: 2.3, lat: 48.8 } );
		const nearest = await nth( 'list', 2 );
		expect( nearest.args[ 0 ] ).toMatchObject( {
			origin: { lng: 2.3, lat: 48.8 },
		} );
		await nearest.answer( listOf( [ 1, 2, 3 ] ) );
		await told( 2 );
		expect( announced ).toEqual( [ '1 place.', '3 places.' ] );
	} );

	it( 'says "1 place matches" for one match', async () => {
		const { places, nth, ready, announced, told } = start();
		await ready();
		places.setSearch( '  Parc  ' );
		( await nth( 'filter', 0 ) ).answer( { count: 1, bounds: null } );
		await ( await nth( 'list', 1 ) ).answer( listOf( [ 3 ] ) );
		await told( 1 );
		expect( announced ).toEqual( [ '1 place matches “Parc”.' ] );
	} );

	it( 'says "more than" for a search whose count the server stopped at its cap', async () => {
		const { places, nth, ready, announced, told } = start();
		await ready();
		places.setSearch( 'l' );
		( await nth( 'filter', 0 ) ).answer( { count: 10000, bounds: null } );
		await (
			await nth( 'list', 1 )
		).answer( {
			...listOf( [ 3, 4 ], 10000 ),
			capped: true,
		} );
		await told( 1 );
		expect( announced ).toEqual( [ 'More than 10000 places match “l”.' ] );
	} );
} );

describe( 'places controller: failures leave what the visitor sees', () => {
	it( 'keeps the list when a list request fails, and lists again after the next move', async () => {
		const { places, map, nth, ready, announced, changes, told } = start();
		await ready();
		const before = places.getState().list;
		map.moveTo( OSLO );
		await ( await nth( 'list', 1 ) ).fail();
		expect( places.getState().list ).toBe( before );
		expect( announced ).toEqual( [] );
		map.moveTo( PARIS );
		await ( await nth( 'list', 2 ) ).answer( listOf( [ 4 ] ) );
		await told( 1 );
		expect( announced ).toEqual( [ '1 place in view.' ] );
		expect( changes ).toHaveLength( 1 );
	} );

	it( 'keeps the count when a filter request fails, and asks for no list', async () => {
		const { places, map, nth, of, ready, announced } = start();
		await ready();
		places.setSearch( 'hut' );
		await ( await nth( 'filter', 0 ) ).fail();
		expect( places.getState() ).toMatchObject( {
			search: 'hut',
			matches: 3,
		} );
		expect( of( 'list' ) ).toHaveLength( 1 );
		expect( announced ).toEqual( [] );
		// No filter answered: "Show all results on the map" has nothing to fit.
		places.fitToResults();
		expect( map.fitBounds ).not.toHaveBeenCalled();
	} );

	it( 'keeps the places shown when reading them again fails, and reads nothing before they are in', async () => {
		const { places, nth, of, ready } = start();
		await places.reload( 'https://example.test/feed' );
		expect( of( 'load' ) ).toHaveLength( 0 );
		await ready();
		const reload = places.reload( 'https://example.test/feed' );
		await ( await nth( 'load', 0 ) ).fail();
		await reload;
		expect( places.getState() ).toMatchObject( {
			status: 'ready',
			total: 3,
		} );
		expect( of( 'filter' ) ).toHaveLength( 0 );
	} );

	it( 'still reports the first draw and lists the places when the clusters cannot be read', async () => {
		const { places, map, nth, ready, onFirstDraw, holdFeatures } = start();
		holdFeatures();
		const loaded = ready();
		await ( await nth( 'features', 0 ) ).fail();
		await loaded;
		expect( map.draws ).toBe( 0 );
		expect( onFirstDraw ).toHaveBeenCalledTimes( 1 );
		expect( places.getState().list.total ).toBe( 2 );
	} );

	it( 'does nothing for a place or a cluster the places no longer hold', async () => {
		const { places, map, popups, nth, ready } = start();
		await ready();
		const chosen = places.choose( 99 );
		await ( await nth( 'reveal', 0 ) ).answer( null );
		await chosen;
		const expanded = places.expandCluster( 4, [ 2.3, 48.85 ] );
		await ( await nth( 'expansion', 0 ) ).answer( null );
		await expanded;
		expect( map.flyTo ).not.toHaveBeenCalled();
		expect( map.easeTo ).not.toHaveBeenCalled();
		expect( popups.open ).not.toHaveBeenCalled();
	} );

	it( 'takes in no answer once destroyed', async () => {
		const { places, map, nth, ready, announced, changes } = start();
		await ready();
		const before = places.getState();
		map.moveTo( OSLO );
		places.setSearch( 'x' );
		const list = await nth( 'list', 1 );
		const filter = await nth( 'filter', 0 );
		const states: PlacesState[] = [];
		places.subscribe( () => states.push( places.getState() ) );
		places.destroy();
		await list.answer( listOf( [ 5 ] ) );
		await filter.answer( { count: 1, bounds: null } );
		expect( states ).toEqual( [] );
		expect( places.getState().list ).toBe( before.list );
		expect( announced ).toEqual( [] );
		expect( changes ).toEqual( [] );
	} );
} );

describe( 'places controller: choosing a place', () => {
	it.each( [
		[ 'at least close up', 3, 14 ],
		[ 'closer where the place asks for it', 18, 18 ],
		[ 'no closer than the map allows', 25, 22 ],
	] )(
		'flies to a chosen place %s, then opens its popup',
		async ( _label, placeZoom, expected ) => {
			const { places, map, popups, nth, ready, host } = start();
			await ready();
			const chosen = places.choose( 12 );
			const reveal = await nth( 'reveal', 0 );
			expect( reveal.args ).toEqual( [ 12, 5 ] );
			await reveal.answer( {
				...place( 12, { lng: 7.5, lat: 46 } ),
				zoom: placeZoom,
			} );
			await chosen;
			expect( map.flyTo ).toHaveBeenCalledWith(
				{ center: [ 7.5, 46 ], zoom: expected, essential: true },
				{ cairnPlaces: true }
			);
			expect( popups.open ).toHaveBeenCalledTimes( 1 );
			const [ id, at, { returnFocus } ] = popups.open.mock.calls[ 0 ]!;
			expect( [ id, at ] ).toEqual( [ 12, { lng: 7.5, lat: 46 } ] );
			// Focus goes back to the entry as it is when the popup closes.
			const entry = document.createElement( 'li' );
			entry.dataset.cairnMarkerId = '12';
			entry.append( document.createElement( 'button' ) );
			const region = document.createElement( 'div' );
			region.className = 'wp-block-cairn-map__places';
			region.append( entry );
			host.append( region );
			expect( returnFocus() ).toBe( entry.firstChild );
		}
	);

	it( 'opens the place of the address ?cairn-place=<id> once the first list is in', async () => {
		window.history.replaceState( null, '', '/?cairn-place=12' );
		const { map, popups, nth, of, loadPlaces } = start();
		loadPlaces();
		const first = await nth( 'list', 0 );
		// Not before: the list is the page's first answer.
		expect( of( 'reveal' ) ).toHaveLength( 0 );
		await first.answer( listOf( [ 1 ] ) );
		const reveal = await nth( 'reveal', 0 );
		expect( reveal.args ).toEqual( [ 12, 5 ] );
		await reveal.answer( { ...place( 12 ), zoom: 16 } );
		expect( map.flyTo ).toHaveBeenCalledTimes( 1 );
		expect( popups.open ).toHaveBeenCalledWith(
			12,
			{ lng: 2.3, lat: 48.85 },
			{ returnFocus: null }
		);
	} );
} );

describe( 'places controller: the label language', () => {
	it( 'keeps the block language where the visit cannot be remembered', () => {
		const storage = jest
			.spyOn( Storage.prototype, 'getItem' )
			.mockImplementation( () => {
				throw new DOMException( 'Denied', 'SecurityError' );
			} );
		try {
			const { places, map } = start( { languages: [ 'fr', 'de' ] } );
			expect( places.getState().language ).toBe( '' );
			expect( map.setLanguage ).not.toHaveBeenCalled();
		} finally {
			storage.mockRestore();
		}
	} );
} );
